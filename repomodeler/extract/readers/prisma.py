"""Prisma schemas (``schema.prisma``, ``prisma/schema/*.prisma``): the database an application's ORM uses.

A Node or TypeScript application using Prisma imports no database driver (the query engine is Prisma's own), so
its imports say nothing of the database.  Its schema's ``datasource`` block does::

    datasource db {
      provider = "postgresql"
      url      = env("DATABASE_URL")
    }

Each block becomes an ``orm.datasource`` fact: ``engine`` (the provider, as written), ``orm`` (``prisma``) and
``env`` (the variable its URL is read from, '' for a literal URL).  The graph (``stores.sql-drivers``) takes
it as the engine the program's settings name, as it takes a Django settings module's.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_BLOCK = re.compile(r"^\s*datasource\s+\w+\s*\{")
_PROVIDER = re.compile(r"""^\s*provider\s*=\s*["']([A-Za-z0-9_-]+)["']""")
_URL_ENV = re.compile(r"""^\s*url\s*=\s*env\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\)""")


def read_prisma(repo: str, path: str, text: str) -> list[Fact]:
    """One ``orm.datasource`` fact for each ``datasource`` block, at its provider's line."""
    facts: list[Fact] = []
    inside = False
    provider: tuple[int, str] | None = None
    env = ""
    for i, line in enumerate(text.splitlines(), start=1):
        code = line.split("//", 1)[0]
        if not inside:
            if _BLOCK.match(code):
                inside, provider, env = True, None, ""
            continue
        if "}" in code:
            if provider is not None:
                facts.append(fact("orm.datasource", repo, path, provider[0], engine=provider[1], orm="prisma", env=env))
            inside = False
            continue
        if m := _PROVIDER.match(code):
            provider = (i, m.group(1).lower())
        elif m := _URL_ENV.match(code):
            env = m.group(1)
    return facts


READERS = (
    Reader("prisma", "descriptor", 215, read_prisma, patterns=(r"[^/]*\.prisma",), line_based=True),
)
