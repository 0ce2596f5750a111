"""What a repository's own README says the project is called.

A local folder's name is whatever the user chose, so rules that know the project by its own name
(its published image, its vendor site, the deployment named like it) need a name from the commit
itself.  The root README states it twice in most projects: as its first heading (``# eShopOnAbp``,
``<h1>Lago</h1>``, ``# [WIP] beer-shop``) and in links to its own repository on a code host
(``https://github.com/getlago/lago``, a clone command, a badge).  Facts, for the root README only:

- ``project.heading``: ``title``, the first heading's text (Markdown ``#``, setext or HTML ``<h1>``),
  with links, images, emphasis and bracketed tags (``[WIP]``) removed;
- ``project.link``: ``name``, the repository name of each code-host link (``lago`` of
  ``github.com/getlago/lago``), once per distinct name, at its first line.

The graph (:meth:`repomodeler.graph.base.ResolverBase.project_of`) takes a link's name when the
heading contains it, or a root manifest's name when the heading contains that: two statements
agreeing, never the heading alone.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import fact
from repomodeler.records import Fact

_ROOT_README = re.compile(r"^readme(\.(md|markdown|rst|txt))?$", re.I)
_LINK = re.compile(r"(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:]([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)")
_NOT_REPOS = frozenset({"settings", "orgs", "sponsors", "marketplace", "features", "topics", "apps", "login", "about"})
_ATX = re.compile(r"^\s{0,3}#\s+(.+?)\s*#*\s*$")
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.I | re.S)
_SETEXT = re.compile(r"^\s{0,3}=+\s*$")


def _clean(title: str) -> str:
    title = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", title)  # images
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # links: their text
    title = re.sub(r"<[^>]+>", " ", title)  # HTML tags
    title = re.sub(r"\[[^\]]*\]", " ", title)  # tags such as [WIP]
    return re.sub(r"[*_`]", "", title).strip()


def readme_identity(repo: str, path: str, text: str) -> list[Fact]:
    if "/" in path or not _ROOT_README.match(path):
        return []
    facts: list[Fact] = []
    lines = text.splitlines()
    fence = False
    for i, line in enumerate(lines[:200], 1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence:
            continue
        m = _ATX.match(line)
        title = m.group(1) if m else None
        if title is None and i >= 2 and _SETEXT.match(line) and lines[i - 2].strip():
            title, i = lines[i - 2], i - 1
        if title is None:
            h1 = _H1.search(line if "</h1>" in line.lower() else "\n".join(lines[i - 1:i + 3]))
            title = h1.group(1) if h1 and "<h1" in line.lower() else None
        if title and _clean(title):
            facts.append(fact("project.heading", repo, path, i, title=_clean(title)[:200]))
            break
    seen: set[str] = set()
    for i, line in enumerate(lines, 1):
        for m in _LINK.finditer(line):
            owner, name = m.group(1), re.sub(r"\.git$", "", m.group(2))
            if owner.lower() in _NOT_REPOS or not name or name.lower() in seen:
                continue
            seen.add(name.lower())
            facts.append(fact("project.link", repo, path, i, name=name))
    return facts
