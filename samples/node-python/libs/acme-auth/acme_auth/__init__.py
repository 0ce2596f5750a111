"""Verify the bearer tokens issued by the identity provider."""

import os

import jwt

SECRET = os.getenv("JWT_SECRET", "dev-secret")


def verify(token: str) -> dict:
    return jwt.decode(token, SECRET, algorithms=["HS256"])
