import json
import os

import redis.asyncio as redis
from fastapi import APIRouter, Depends, Header, HTTPException
from sqlalchemy import text

from acme_auth import verify
from app.db import Session

router = APIRouter(prefix="/orders")
events = redis.from_url(os.getenv("REDIS_URL", "redis://localhost:6379/0"))


def current_user(authorization: str = Header()) -> dict:
    return verify(authorization.removeprefix("Bearer "))


@router.get("/{order_id}")
async def get_order(order_id: int, user: dict = Depends(current_user)) -> dict:
    async with Session() as s:
        row = (await s.execute(text("select id, total from orders where id = :id"), {"id": order_id})).first()
    if row is None:
        raise HTTPException(404)
    return {"id": row.id, "total": row.total}


@router.post("", status_code=201)
async def create_order(order: dict, user: dict = Depends(current_user)) -> dict:
    async with Session() as s:
        new_id = (await s.execute(text("insert into orders (total) values (:t) returning id"),
                                  {"t": order["total"]})).scalar_one()
        await s.commit()
    await events.publish("orders.created", json.dumps({"event": "orders.created",
                                                        "payload": {"id": new_id, "user": user["sub"]}}))
    return {"id": new_id}
