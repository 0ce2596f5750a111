const x: number = 
interface { broken
fetch("http://api:5000/orders"
