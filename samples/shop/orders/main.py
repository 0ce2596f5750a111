"""Orders service: stores orders in PostgreSQL, caches them in Redis, announces them on RabbitMQ."""
import os

import pika
import psycopg2
import redis
import requests
from fastapi import FastAPI

app = FastAPI()
db = psycopg2.connect(os.environ["DATABASE_URL"])
cache = redis.Redis.from_url(os.getenv("REDIS_URL", "redis://localhost:6379/0"))
PAYMENTS_URL = os.getenv("PAYMENTS_URL")


@app.get("/orders/{order_id}")
def get_order(order_id: int):
    cached = cache.get(f"order:{order_id}")
    if cached:
        return cached
    with db.cursor() as cur:
        cur.execute("SELECT id, total FROM orders WHERE id = %s", (order_id,))
        return cur.fetchone()


@app.post("/orders")
def create_order(order: dict):
    payment = requests.post(f"{PAYMENTS_URL}/payments", json=order)
    channel = pika.BlockingConnection(pika.URLParameters(os.getenv("AMQP_URL"))).channel()
    channel.basic_publish(exchange="", routing_key="orders.created", body=str(order))
    return payment.json()
