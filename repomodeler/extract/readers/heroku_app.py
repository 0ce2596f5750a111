"""Heroku's ``app.json`` (the "Deploy to Heroku" manifest): the add-ons a deploy provisions for the application.

Why: an application deployed on Heroku gets its database, cache and broker as add-ons
(``"addons": ["heroku-postgresql", "heroku-redis:in-dyno", {"plan": "cloudamqp", "as": "RABBITMQ"}]``), each
handing the application its address in a setting (``DATABASE_URL``, ``REDIS_URL``, ``RABBITMQ_URL``).  No
compose file or manifest names those servers; this file is where the deployment says they exist.  Each add-on
becomes a ``platform.addon`` fact: ``service`` (the add-on's name, without its plan after ``:``) and ``alias``
(the ``as`` prefix of its settings).  Only the root ``app.json`` is Heroku's (it reads no other), so only that
one is read.
"""

from __future__ import annotations

import json

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import section_index
from repomodeler.records import Fact


def read_heroku_app(repo: str, path: str, text: str) -> list[Fact]:
    if path != "app.json":
        return []  # (an app.json elsewhere is some other program's settings: Expo, a test fixture)
    data = json.loads(text)
    addons = data.get("addons") if isinstance(data, dict) else None
    if not isinstance(addons, list):
        return []
    index, base = section_index(text, "addons")
    facts: list[Fact] = []
    for entry in addons:
        plan = entry if isinstance(entry, str) else entry.get("plan") if isinstance(entry, dict) else None
        if not isinstance(plan, str) or not plan.strip():
            continue
        alias = entry.get("as") if isinstance(entry, dict) and isinstance(entry.get("as"), str) else None
        service = plan.split(":", 1)[0].strip().lower()
        facts.append(fact("platform.addon", repo, path, base + index.line(plan), service=service, plan=plan,
                          alias=alias))
    return facts


READERS = (
    Reader("heroku_app", "descriptor", 245, read_heroku_app, names=frozenset({"app.json"})),
)
