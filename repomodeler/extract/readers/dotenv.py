"""``.env`` files: the settings compose and the services read from their environment."""

from __future__ import annotations

import re

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
    return facts


READERS = (
    Reader("dotenv", "descriptor", 110, read_dotenv, patterns=(r"\.env(?:\.[^/]*)?", r"[^/]*\.env",
                                                       # Docker's other usual names for an env_file
                                                       r"env(?:ironment)?(?:\.list)?", r"[^/]*\.environment"),
           line_based=True,
           shadows=("procfile", "helm.template", "spring.name", "helm.values", "beats", "prometheus", "otel_collector",
                    "grafana", "compose", "kubernetes", "spring.content")),
)
