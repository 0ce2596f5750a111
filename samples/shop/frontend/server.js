const express = require("express");
const axios = require("axios");

const app = express();
const ORDERS_URL = process.env.ORDERS_URL || "http://localhost:8000";
const INVENTORY_URL = process.env.INVENTORY_URL;

app.get("/", (req, res) => {
  res.send("shop");
});

app.get("/products", async (req, res) => {
  const stock = await axios.get(`${INVENTORY_URL}/inventory/all`);
  res.json(stock.data);
});

app.post("/checkout", async (req, res) => {
  const order = await fetch(`${ORDERS_URL}/orders`, { method: "POST", body: JSON.stringify(req.body) });
  res.json(await order.json());
});

app.listen(3000);
