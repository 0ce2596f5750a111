"""``Cargo.toml``: a Rust package's name, its dependencies (path dependencies on the workspace's own
crates among them) and whether it builds a program (``[[bin]]``; ``src/main.rs`` is seen by the
resolver among the crate's files)."""

from __future__ import annotations

import tomllib

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import LineIndex, first_line
from repomodeler.records import Fact


def read_cargo(repo: str, path: str, text: str) -> list[Fact]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return [fact("manifest", repo, path, 1, ecosystem="cargo", name=None)]
    package = data.get("package") if isinstance(data.get("package"), dict) else {}
    name = package.get("name") if isinstance(package.get("name"), str) else None
    bins = [b.get("name") for b in data.get("bin", []) if isinstance(b, dict) and isinstance(b.get("name"), str)]
    # the files of the programs it names (`path = "src/server.rs"`): entry points as much as src/main.rs is
    bin_paths = sorted({b["path"].removeprefix("./") for b in data.get("bin", [])
                        if isinstance(b, dict) and isinstance(b.get("path"), str) and b["path"].endswith(".rs")})
    facts = [fact("manifest", repo, path, first_line(text, "name") if name else 1, ecosystem="cargo", name=name,
                  commands=", ".join(sorted(bins)) or None, bin_paths=", ".join(bin_paths) or None)]
    words = LineIndex(text, r"([A-Za-z0-9_-]+)")
    enabled = _default_enabled(data.get("features"))
    for table in ("dependencies", "dev-dependencies", "build-dependencies"):
        deps = data.get(table)
        if not isinstance(deps, dict):
            continue
        kind = "manifest.dependency" if table == "dependencies" else "manifest.dev_dependency"
        for dep in sorted(deps):
            spec = deps[dep]
            # an optional dependency no default feature of the crate turns on is built only when someone asks
            # for that feature (`rusqlite = { optional = true }` among a mail server's storage backends)
            optional = isinstance(spec, dict) and spec.get("optional") is True and dep not in enabled
            facts.append(fact(kind, repo, path, words.line(dep), ecosystem="cargo", name=dep.lower(),
                              optional="true" if optional else None))
    return facts


def _default_enabled(features: object) -> set[str]:
    """The features and optional dependencies the crate's ``default`` feature turns on, followed through the
    features it names (``default = ["sqlite"]``, ``sqlite = ["dep:rusqlite"]``, ``tls = ["reqwest/rustls"]``)."""
    if not isinstance(features, dict):
        return set()
    seen: set[str] = set()
    todo = ["default"]
    while todo:
        name = todo.pop()
        for item in features.get(name) or ():
            if not isinstance(item, str):
                continue
            item = item.removeprefix("dep:")
            if "/" in item:  # `crate/feature` turns that crate on too (not `crate?/feature`)
                head = item.split("/", 1)[0]
                item = "" if head.endswith("?") else head
            if item and item not in seen:
                seen.add(item)
                if item in features:
                    todo.append(item)
    return seen


READERS = (
    Reader("cargo", "descriptor", 240, read_cargo, names=frozenset({"Cargo.toml"})),
)
