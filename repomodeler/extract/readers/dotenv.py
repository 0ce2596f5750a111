"""``.env`` files: the settings compose and the services read from their environment.

Compose reads the ``.env`` of the project folder for itself too: ``COMPOSE_FILE`` lists the files
``docker compose up`` loads there (``compose.yaml:compose.search.yaml``), so a ``compose.launch`` of
those files is read from it, as from a start script.
"""

from __future__ import annotations

import re

from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_dotenv(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if value[:1] in ("'", '"') and value[0] in value[1:]:
            value = value[1:value.index(value[0], 1)]  # quoted: up to the closing quote, comment or not
        else:
            value = re.split(r"\s+#", value, maxsplit=1)[0].strip()  # `x=1   # a comment` is x=1
        if re.match(r"^[A-Za-z_][A-Za-z0-9_.]*$", name.strip()):
            facts.append(fact("config.env", repo, path, i, owner="", name=name.strip(), value=value, source="dotenv"))
            if name.strip() == "COMPOSE_FILE" and PurePosixPath(path).name == ".env":
                facts.extend(_compose_files(repo, path, i, value, text))
    return facts


def _compose_files(repo: str, path: str, line: int, value: str, text: str) -> list[Fact]:
    """The files ``COMPOSE_FILE`` has compose load, relative to the project folder (the .env's)."""
    sep = re.search(r"^\s*COMPOSE_PATH_SEPARATOR\s*=\s*['\"]?([^'\"\s])", text, re.M)
    here = PurePosixPath(path).parent
    files = [str(PurePosixPath(here, f.strip())) if str(here) != "." else str(PurePosixPath(f.strip()))
             for f in re.split(re.escape(sep.group(1)) if sep else r"[:;]", value)
             if f.strip() and not f.strip().startswith(("$", "/", "~"))]
    if not files:
        return []
    return [fact("compose.launch", repo, path, line, files=",".join(files), profiles="", target=".env")]


READERS = (
    Reader("dotenv", "descriptor", 110, read_dotenv, patterns=(r"\.env(?:\.[^/]*)?", r"[^/]*\.env",
                                                       # a template named with a dash (`cp .env-dist .env`), one
                                                       # env file of several (`env_file: .env_srv`, `.env-web`)
                                                       r"\.env[-_][A-Za-z0-9_.-]*",
                                                       # a committed template without the dot (`cp env.example .env`,
                                                       # `sed ... env_template > .env`)
                                                       r"env[._-](?:example|sample|dist|template|tmpl)",
                                                       # Docker's other usual names for an env_file (and a file
                                                       # named for the key, `env_file: env_file_app`, with its
                                                       # committed `env_file_app_template`)
                                                       r"env(?:ironment)?(?:\.list)?", r"[^/]*\.environment",
                                                       r"env[-_]file(?:[-_][A-Za-z0-9_-]*)?"),
           line_based=True,
           shadows=("procfile", "helm.template", "spring.name", "helm.values", "beats", "prometheus", "otel_collector",
                    "grafana", "compose", "kubernetes", "spring.content")),
)
