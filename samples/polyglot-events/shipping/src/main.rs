use axum::{
    extract::{Path, Query},
    routing::get,
    Json, Router,
};
use futures_lite::stream::StreamExt;
use lapin::{options::*, types::FieldTable, Connection, ConnectionProperties};
use serde::{Deserialize, Serialize};

const EASYPOST_URL: &str = "https://api.easypost.com/v2/shipments";

#[derive(Deserialize)]
struct QuoteQuery {
    sku: String,
    weight: u32,
}

#[derive(Serialize)]
struct Quote {
    sku: String,
    cents: u32,
}

async fn quote(Query(q): Query<QuoteQuery>) -> Json<Quote> {
    Json(Quote { sku: q.sku, cents: 499 + q.weight / 10 })
}

async fn shipment(Path(id): Path<String>) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "id": id, "status": "in_transit" }))
}

async fn create_label(order: serde_json::Value) -> reqwest::Result<()> {
    let client = reqwest::Client::new();
    let key = std::env::var("EASYPOST_API_KEY").unwrap_or_default();
    client
        .post(EASYPOST_URL)
        .basic_auth(key, Some(""))
        .json(&serde_json::json!({ "shipment": { "reference": order["id"] } }))
        .send()
        .await?;
    Ok(())
}

async fn consume_orders() -> lapin::Result<()> {
    let addr = std::env::var("AMQP_ADDR").unwrap_or_else(|_| "amqp://127.0.0.1:5672/%2f".into());
    let conn = Connection::connect(&addr, ConnectionProperties::default()).await?;
    let channel = conn.create_channel().await?;
    let mut consumer = channel
        .basic_consume("orders.placed", "shipping", BasicConsumeOptions::default(), FieldTable::default())
        .await?;
    while let Some(Ok(delivery)) = consumer.next().await {
        if let Ok(order) = serde_json::from_slice(&delivery.data) {
            let _ = create_label(order).await;
        }
        delivery.ack(BasicAckOptions::default()).await?;
    }
    Ok(())
}

#[tokio::main]
async fn main() {
    tokio::spawn(consume_orders());
    let app = Router::new()
        .route("/api/quotes", get(quote))
        .route("/api/shipments/:id", get(shipment));
    let listener = tokio::net::TcpListener::bind("0.0.0.0:8000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
