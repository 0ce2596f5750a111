"""frontend.bundled-apps folds only the browser apps nothing deploys apart: an app with its own recipe and
compose service (an nginx image serving its build) stays a browser app calling its API.  (The rule's fixture
cases show the folding; this is the other side, which no case of the rule can name.)"""

from __future__ import annotations

import yaml

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory

SHOP = yaml.safe_load('''
api/package.json: |
  {"name": "shop-api", "scripts": {"start": "node server.js"}, "dependencies": {"express": "^4.18.0"}}
api/server.js: |
  const express = require("express");
  const app = express();
  app.get("/api/products", (req, res) => res.json([]));
  app.listen(3000);
api/Dockerfile: |
  FROM node:20
  WORKDIR /app
  COPY . .
  CMD ["node", "server.js"]
web/package.json: |
  {"name": "shop-web", "private": true, "dependencies": {"vue": "^3.4.0"},
   "devDependencies": {"vite": "^5.0.0", "@vitejs/plugin-vue": "^5.0.0"}}
web/src/main.ts: |
  import { createApp } from "vue";
  fetch("/api/products");
  createApp({}).mount("#app");
web/Dockerfile: |
  FROM node:20 AS build
  WORKDIR /app
  COPY . .
  RUN npm ci && npm run build
  FROM nginx:1.27
  COPY --from=build /app/dist /usr/share/nginx/html
docker-compose.yml: |
  services:
    web:
      build: ./web
      ports:
        - "8080:80"
    api:
      build: ./api
      ports:
        - "3000:3000"
''')


def test_an_app_deployed_apart_stays_a_browser_app() -> None:
    model = resolve_system("case", extract_in_memory({"shop": SHOP}))
    assert model.components["web"].kind == "webapp"
    assert model.components["api"].kind == "service"
    assert "serves_ui" not in model.components["api"].attributes
    assert ("user", "web") in {(c.source, c.target) for c in model.connections.values()}


def test_the_same_app_folds_into_the_api_when_nothing_deploys_it_apart() -> None:
    """Without its own recipe and compose service, the app is shipped by nobody in particular: it stays unless a
    server ships it; with the API's image copying it in, it is the API's UI."""
    files = {k: v for k, v in SHOP.items() if k not in ("web/Dockerfile", "docker-compose.yml")}
    files["api/Dockerfile"] = "FROM node:20\nWORKDIR /app\nCOPY api .\nCOPY web/dist ./public\nCMD [\"node\", \"server.js\"]\n"
    files["docker-compose.yml"] = "services:\n  api:\n    build:\n      context: .\n      dockerfile: api/Dockerfile\n    ports:\n      - \"3000:3000\"\n"
    model = resolve_system("case", extract_in_memory({"shop": files}))
    assert "web" not in model.components
    assert model.components["api"].attributes.get("serves_ui") == "web"
