from django.db import connection
from django.http import JsonResponse

from acme_auth import verify


def _user(request):
    return verify(request.headers.get("Authorization", "").removeprefix("Bearer "))


def daily(request):
    _user(request)
    with connection.cursor() as cur:
        cur.execute("select date(created_at), sum(total) from orders group by 1 order by 1 desc limit 30")
        rows = cur.fetchall()
    return JsonResponse({"days": [{"day": str(d), "total": t} for d, t in rows]})


def customer(request, customer_id: int):
    _user(request)
    with connection.cursor() as cur:
        cur.execute("select count(*), sum(total) from orders where customer_id = %s", [customer_id])
        count, total = cur.fetchone()
    return JsonResponse({"orders": count, "total": total})
