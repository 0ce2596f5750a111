const express = require("express");
const axios = require("axios");

const API_URL = process.env.API_URL || "http://localhost:8000";
const NOTIFIER_URL = process.env.NOTIFIER_URL || "http://localhost:4000";

const app = express();
app.use(express.json());

app.get("/", (req, res) => res.send("<h1>acme</h1>"));

app.get("/orders/:id", async (req, res) => {
  const { data } = await axios.get(`${API_URL}/orders/${req.params.id}`);
  res.json(data);
});

app.post("/orders", async (req, res) => {
  const { data } = await axios.post(`${API_URL}/orders`, req.body);
  res.status(201).json(data);
});

app.get("/notifications/:user", async (req, res) => {
  const { data } = await axios.get(`${NOTIFIER_URL}/notifications/${req.params.user}`);
  res.json(data);
});

app.listen(3000);
