const path = require("path");
const express = require("express");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const definition = protoLoader.loadSync(path.join(__dirname, "..", "proto", "shop.proto"));
const shop = grpc.loadPackageDefinition(definition).shop.v1;

const cart = new shop.CartService(process.env.CART_ADDR, grpc.credentials.createInsecure());
const checkout = new shop.CheckoutService(process.env.CHECKOUT_ADDR, grpc.credentials.createInsecure());

const app = express();
app.use(express.json());

app.get("/cart/:user", (req, res) => {
  cart.GetCart({ user_id: req.params.user }, (err, reply) => (err ? res.status(502).end() : res.json(reply)));
});

app.post("/cart/:user/items", (req, res) => {
  const item = { product_id: req.body.productId, quantity: req.body.quantity };
  cart.AddItem({ user_id: req.params.user, item }, (err) => res.status(err ? 502 : 204).end());
});

app.post("/checkout/:user", (req, res) => {
  checkout.PlaceOrder({ user_id: req.params.user, email: req.body.email }, (err, reply) =>
    err ? res.status(502).end() : res.status(201).json(reply));
});

app.listen(process.env.PORT || 8080);
