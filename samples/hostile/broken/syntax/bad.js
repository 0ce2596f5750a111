const x = {
  a: fetch("http://api:5000/orders"
function ( {
