"""Maven ``pom.xml``: the artifact, its packaging and dependencies."""

from __future__ import annotations

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import LineIndex, first_line
from repomodeler.records import Fact


def read_pom(repo: str, path: str, text: str) -> list[Fact]:
    if "<!ENTITY" in text:
        raise ValueError("pom.xml declares entities; refusing to expand them")
    import xml.etree.ElementTree as ET  # loaded when a pom is read, not when the inventory imports the readers

    root = ET.fromstring(text)
    ns = {"m": root.tag[1:].split("}")[0]} if root.tag.startswith("{") else {}
    q = (lambda t: f"m:{t}") if ns else (lambda t: t)
    artifact = root.findtext(q("artifactId"), namespaces=ns)
    packaging = (root.findtext(q("packaging"), namespaces=ns) or "").strip().lower() or None
    facts = [fact("manifest", repo, path, first_line(text, "<artifactId>"), ecosystem="maven", name=artifact,
                   packaging=packaging)]
    artifacts = LineIndex(text, r"<artifactId>([^<]*)</artifactId>")
    for dep in root.findall(f"{q('dependencies')}/{q('dependency')}", ns):
        aid = dep.findtext(q("artifactId"), namespaces=ns)
        if aid:
            # A dependency of type war/ear bundles a deployable web application (an all-in-one image's
            # module); it is not a library the module links against.
            bundled = (dep.findtext(q("type"), namespaces=ns) or "").strip().lower() in ("war", "ear")
            facts.append(fact("manifest.bundle" if bundled else "manifest.dependency", repo, path,
                               artifacts.line(aid), ecosystem="maven", name=aid))
    return facts


READERS = (
    Reader("maven", "descriptor", 160, read_pom, names=frozenset({"pom.xml"})),
)
