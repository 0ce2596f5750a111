from fastapi import FastAPI

from app.orders import router as orders_router

app = FastAPI(title="acme api")
app.include_router(orders_router)


@app.get("/health")
def health() -> dict:
    return {"ok": True}
