import requests

def broken(:
    requests.get("http://api:5000/orders"
