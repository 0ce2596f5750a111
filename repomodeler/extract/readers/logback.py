"""Logback configuration: appenders that ship logs over the network."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_logback(repo: str, path: str, text: str) -> list[Fact]:
    """Logback appenders that ship logs over the network (logstash-logback-encoder's
    ``<destination>logstash:5000</destination>``): the log sink the component writes to."""
    facts: list[Fact] = []
    # <springProperty name="host" source="logstash.host" defaultValue="logstash"/> / <property name=.. value=..>
    defaults = {m.group(1): m.group(2) for m in re.finditer(
        r"<(?:springProperty|property)\b(?=[^>]*\bname=\"([^\"]+)\")(?=[^>]*\b(?:defaultValue|value)=\"([^\"]+)\")[^>]*>", text)}

    def fill(ref: re.Match[str]) -> str:  # ${LOGSTASH_HOST:-logstash:5000}, ${host} from a property above
        return ref.group(3) if ref.group(3) is not None else defaults.get(ref.group(1), ref.group(0))
    for m in re.finditer(r"<(destination|remoteHost|host)>\s*([^<\s]+)\s*</\1>", text):
        value = re.sub(r"\$\{([A-Za-z0-9_.-]+)(:-?([^}]*))?\}", fill, m.group(2))
        if "$" in value or not re.match(r"^[A-Za-z0-9_.-]+(:\d+)?$", value):
            continue
        facts.append(fact("monitoring.target", repo, path, text.count("\n", 0, m.start()) + 1,
                           value=f"tcp://{value}", via="log shipping (logback)"))
    return facts


READERS = (
    Reader("logback", "descriptor", 320, read_logback, patterns=(r"logback[^/]*\.xml",)),
)
