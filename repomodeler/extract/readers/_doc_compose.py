"""A compose file a README prints instead of keeping it: the deployment of an image's repository.

Repositories that publish one container image (``wallabag/docker``, ``*-docker`` repositories, a
self-hosted app documented on its README) often keep no compose file at all: the README prints one
in a fenced code block ("Docker Compose: an example of a complete setup") and the user copies it.
That block is the deployment the project documents: its services, images, environment and links.

Read here: the first fenced block of the root README whose YAML is a compose file (a top-level
``services:`` whose entries carry an ``image`` or a ``build``), and likewise of an installation guide
in the documentation (``docs/**/getting-started/docker.mdx``, ``doc/install.md``, ``docs/self-hosting.md``:
a page named for installing, deploying or running with Docker), where a project that keeps its README
short tells users what to run.  It is read by the compose reader itself with every other line of the README blanked, so
the facts cite the README's own lines.  Later blocks are variations of the first (another database,
an override) and are not read.

The graph keeps these facts only where the repository has no compose file, no Kubernetes manifest
and no chart of its own (:meth:`repomodeler.graph.base.ResolverBase.__init__`): a README snippet
beside real deployment files is an illustration of them, not the deployment.
"""

from __future__ import annotations

import re
import textwrap

from repomodeler.records import Fact

_ROOT_README = re.compile(r"^readme(\.(md|markdown))?$", re.I)
# An installation guide of the documentation: a page under docs/ (doc/, documentation/) named for installing,
# deploying, self-hosting or running the project with Docker.
INSTALL_GUIDE = re.compile(r"^(docs?|documentation)/(.*/)?(docker|docker[-_]compose|compose|install|installation|installing|"
                           r"self[-_]?host(ed|ing)?|deploy(ment|ing)?|getting[-_]started|quick[-_]?start|setup)"
                           r"\.(md|mdx|markdown)$", re.I)
_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w.+-]*)")
_YAML_INFO = frozenset({"", "yaml", "yml", "docker-compose", "compose", "dockerfile-compose"})
_SERVICES = re.compile(r"^services\s*:\s*$", re.M)
_SERVICE_BODY = re.compile(r"^\s+(image|build)\s*:", re.M)

# fact kinds the compose reader writes (plus its config.env / program.command, source "compose")
DOC_COMPOSE_KINDS = ("compose.", "dapr.app_id")


def _blocks(lines: list[str]) -> list[tuple[int, int, str]]:
    """(first line index, end index, info string) of each fenced block, the fences excluded."""
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m.group(2)
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence[:3]):
            j += 1
        out.append((i + 1, j, m.group(3).lower()))
        i = j + 1
    return out


def is_doc_compose(fact: Fact) -> bool:
    """Whether a fact of a Markdown file came from a compose block it prints."""
    return fact.path.lower().endswith((".md", ".mdx", ".markdown")) and fact.kind != "compose.launch" and (
        fact.kind.startswith(DOC_COMPOSE_KINDS)
        or fact.kind in ("config.env", "program.command") and fact.get("source") == "compose")


def readme_compose(repo: str, path: str, text: str) -> list[Fact]:
    """The facts of the first compose file the root README (or an installation guide) prints, at its lines."""
    if not (("/" not in path and _ROOT_README.match(path)) or INSTALL_GUIDE.match(path)):
        return []
    from repomodeler.extract.readers.compose import read_compose

    lines = text.split("\n")
    for start, end, info in _blocks(lines):
        if info not in _YAML_INFO:
            continue
        body = textwrap.dedent("\n".join(lines[start:end]))
        if not (_SERVICES.search(body) and _SERVICE_BODY.search(body)):
            continue
        # every other line blanked: the compose reader's lines are the README's
        blanked = "\n" * start + body
        facts = read_compose(repo, path, blanked)
        if any(f.kind == "compose.service" for f in facts):
            return facts
    return []
