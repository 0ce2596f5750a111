// Event names and payload helpers shared by every Node service.
const ORDER_CREATED = "orders.created";

function encode(event, payload) {
  return JSON.stringify({ event, payload, at: new Date().toISOString() });
}

function decode(message) {
  return JSON.parse(message);
}

module.exports = { ORDER_CREATED, encode, decode };
