"""What a repository's own README says the project is called.

A local folder's name is whatever the user chose, so rules that know the project by its own name
(its published image, its vendor site, the deployment named like it) need a name from the commit
itself.  The root README states it twice in most projects: as its first heading (``# eShopOnAbp``,
``<h1>Lago</h1>``, ``# [WIP] beer-shop``) and in links to its own repository on a code host
(``https://github.com/getlago/lago``, a clone command, a badge).  Facts, for the root README only:

- ``project.heading``: ``title``, each of the first top-level heading's text (Markdown ``#``, setext or
  HTML ``<h1>``), the text of the logo the README opens with (``![Huginn](media/logo.png)``) and the
  first heading of any level when no paragraph comes before it (``## What is Huginn?``), with links,
  images, emphasis and bracketed tags (``[WIP]``) removed; with none of those, the subject of the opening
  sentence (``Mayan EDMS is a document management system``);
- ``project.link``: ``name``, the repository name of each code-host link (``lago`` of
  ``github.com/getlago/lago``), once per distinct name, at its first line;
- ``compose.launch`` (``documented``: its rank): the compose files and profiles of each ``docker compose ... up`` it
  gives (``-f full-stack.yml``, ``--profile cpu``);
- ``project.summary``: ``text``, each of the first three paragraphs of prose among its first 100 lines (HTML tags,
  pictures and link targets removed): what the project says it is (``Traefik is a modern HTTP reverse proxy``);
- ``project.start``: ``tool``, how the README starts the system, at the first line of each: ``compose``
  (``docker compose up``, ``docker-compose -f x.yml up``) or ``orchestrator`` (any mention of one:
  ``kubectl``, Kubernetes, Helm, Kustomize, Skaffold, ``tilt up``, Nomad, OpenShift): whether manifests
  kept beside a compose file are the way the project deploys or another one.

The graph (:meth:`repomodeler.graph.base.ResolverBase.project_of`) takes a link's name when the
heading contains it, or a root manifest's name when the heading contains that: two statements
agreeing, never the heading alone.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import fact
from repomodeler.records import Fact

ROOT_README = re.compile(r"^readme(\.(md|markdown|rst|txt))?$", re.I)
_LINK = re.compile(r"(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:]([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)")
_NOT_REPOS = frozenset({"settings", "orgs", "sponsors", "marketplace", "features", "topics", "apps", "login", "about"})
_HOST_NAMES = frozenset({"github", "gitlab", "bitbucket", "codeberg"})
_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_HTML_H = re.compile(r"<h([1-6])[^>]*>(.*?)</h\1>", re.I)
_IMAGE_ALT = re.compile(r"!\[([^\]]+)\]\(|<img[^>]*\balt=[\"']([^\"']+)")
_SETEXT = re.compile(r"^\s{0,3}=+\s*$")
_COMPOSE_UP = re.compile(r"\bdocker[- ]compose\b[^\n`]*?\bup\b")
# (any mention: a README that deploys to a cluster at all, even by a link to its chart's guide or with
# `kubectl get svc web`, keeps its manifests as a way the project runs)
# (a word of its own, not part of a host name: `https://misp.apps.openshift.domain.local` is no deployment)
_ORCHESTRATOR = re.compile(r"(?<![.\w/-])(kubectl|kubernetes|k8s|helm|kustomize|skaffold|tilt\s+up|nomad|openshift|minikube)"
                           r"\b(?![.-]\w)", re.I)


def _clean(title: str) -> str:
    title = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", title)  # images
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # links: their text
    title = re.sub(r"<[^>]+>", " ", title)  # HTML tags
    title = re.sub(r"\[[^\]]*\]", " ", title)  # tags such as [WIP]
    return re.sub(r"[*_`]", "", title).strip()


def _heading(lines: list[str], deepest: int) -> tuple[int, str] | None:
    """(line, text) of the first heading no deeper than `deepest` outside code blocks."""
    fence = False
    for i, line in enumerate(lines[:200], 1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence:
            continue
        m = _ATX.match(line)
        if m and len(m.group(1)) <= deepest and _clean(m.group(2)):
            return i, _clean(m.group(2))
        if i >= 2 and _SETEXT.match(line) and lines[i - 2].strip() and _clean(lines[i - 2]):
            return i - 1, _clean(lines[i - 2])
        h = _HTML_H.search(line)
        if h and int(h.group(1)) <= deepest and _clean(h.group(2)):
            return i, _clean(h.group(2))
    return None


def _opening_heading(lines: list[str]) -> tuple[int, str] | None:
    """The first heading of any level when it opens the README (``## What is Huginn?`` under a logo and
    badges), before any paragraph: a heading further down names what that section is about
    (``### How does this integrate with Docker, containerd...``), not the project."""
    found = _heading(lines, 6)
    if found is None:
        return None
    fence = html = False
    for line in lines[:found[0] - 1]:
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        # an HTML block (``<h1 align="center">`` over several lines) runs to the next blank line
        html = bool(line.strip()) and (html or line.lstrip().startswith("<"))
        if not fence and not html and _prose(line):
            return None
    return found


def _prose(line: str) -> bool:
    """A line of a paragraph: text that is not markup, a picture, a badge, a list or a table."""
    text = line.strip()
    return bool(text) and not text.startswith(("<", "[", "!", "-", "*", "=", "#", "|", ">", "`", "~")) \
        and bool(re.search(r"[A-Za-z]{3,}", text))


def _logo(lines: list[str]) -> tuple[int, str] | None:
    """A README that opens with its logo instead of a title (``![Huginn](media/logo.png)``, or in
    reStructuredText a ``.. figure::`` or ``.. image::`` directive with its ``:alt: SearXNG`` option): the
    image's text, when it comes before any paragraph (reStructuredText's comments and link targets,
    ``.. _label: url``, are markup, not one)."""
    picture = False  # inside a reStructuredText image directive, whose options follow it indented
    for i, line in enumerate(lines[:20], 1):
        m = _IMAGE_ALT.search(line)
        alt = (m.group(1) or m.group(2) or "") if m else ""
        if alt and _clean(alt):
            return i, _clean(alt)
        rst = _RST_ALT.match(line)
        if picture and rst and _clean(rst.group(1)):
            return i, _clean(rst.group(1))
        if _RST_PICTURE.match(line):
            picture = True
        elif line.strip() and not line.startswith((" ", "\t")):
            picture = False
        if line.strip() and not line.lstrip().startswith(("<", "[", "!", "-", "=", "#", "..", ":")):
            return None
    return None


_RST_PICTURE = re.compile(r"^\.\.\s+(figure|image)::")
_RST_ALT = re.compile(r"^\s+:alt:\s*(.+?)\s*$")


# A relative link to a folder (`[examples/compose](examples/compose)`) or a `cd` into one, in prose or a command.
_FOLDER_LINK = re.compile(r"\]\((?:\./|/(?!/))?(?P<link>[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)/?\)|\bcd\s+(?:\./)?"
                          r"(?P<cd>[A-Za-z0-9_-]+(?:/[A-Za-z0-9_.-]+)*)/?\s*(?:$|&&|;|`)")


# `cp FILE $VAR/dest` / `cp FILE ${VAR}/dest`: a repository file copied into a folder a variable names.
_COPY_INTO_VARIABLE = re.compile(r"\bcp\s+(?:-\w+\s+)*(?P<src>(?:\./)?[A-Za-z0-9_][A-Za-z0-9_./-]*)\s+"
                                 r"\$\{?(?P<var>[A-Za-z_][A-Za-z0-9_]*)\}?(?:/(?P<dest>[A-Za-z0-9_./-]*))?")


_CD = re.compile(r"(?:^|&&|;|\s)cd\s+(?:\./)?([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)/?\s*(?=$|&&|;|`)")
_CLONE = re.compile(r"\bgit\s+clone\s+(?:-\S+(?:\s+\d+)?\s+)*\S*?([A-Za-z0-9_.-]+?)(?:\.git)?/?(?:\s+([A-Za-z0-9_.-]+))?\s*$")


def _changed_folder(lines: list[str], at: int, before: str) -> str | None:
    """The folder of the repository the README's commands have changed into when line `at` runs `docker compose
    up` (`before`: that line's text before the command): each `cd` of its section's code blocks from the clone
    on, the clone's own folder (`git clone .../acme/shop` then `cd shop/docker`) being the repository's root,
    and a `cd quick-setup/mongodb && docker compose up` on the line itself. None when nothing changes folder."""
    start = at - 1
    while start > 0 and at - start <= 40 and not _ATX.match(lines[start - 1]):
        start -= 1
    clone, where, moved = "", PurePosixPath("."), False
    for text in [*lines[start:at - 1], before]:
        if (c := _CLONE.search(text.strip())) is not None:
            clone, where, moved = (c.group(2) or c.group(1)), PurePosixPath("."), False
            continue
        for m in _CD.finditer(text):
            target = m.group(1)
            if clone and (target == clone or target.startswith(clone + "/")):
                where, target = PurePosixPath("."), target[len(clone):].lstrip("/")
            where, moved = where / target if target else where, True
    if not moved:
        return None
    parts: list[str] = []
    for part in where.parts:
        if part == "..":
            if not parts:
                return None  # (out of the repository)
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts) or None


def _section_folder(lines: list[str], at: int) -> str | None:
    """The one folder of the repository the lines before line `at` (up to its section's heading, at most
    twenty) link to or change into, else None: where that section's `docker compose up` runs."""
    found: set[str] = set()
    for line in reversed(lines[max(0, at - 21):at - 1]):
        if _ATX.match(line):
            break
        for m in _FOLDER_LINK.finditer(line):
            target = m.group("link") or m.group("cd") or ""
            if "." not in PurePosixPath(target).name and not target.startswith(("http", "www", "#")):
                found.add(target)
    return found.pop() if len(found) == 1 else None


# `COMPOSE_PROFILES=with_grafana` written into the project's .env by a code block of the README (`echo "..."
# > .env`, `cat > .env <<EOF`): the profiles `docker compose up` then starts with
_PROFILES_LINE = re.compile(r"""^\s*(?:echo\s+["']?)?COMPOSE_PROFILES=["']?([A-Za-z0-9_,.-]+)""")
_WRITES_DOTENV = re.compile(r">>?\s*\.env\b")
# ... or named in the README's prose as the setting to give (``To run them all, use `COMPOSE_PROFILES=backend,frontend` ``,
# a setting the .env must have before the stack starts): the profiles of the last such mention
_PROFILES_INLINE = re.compile(r"""`COMPOSE_PROFILES=["']?([A-Za-z0-9_,.-]+)["']?`""")


def _written_profiles(lines: list[str], before: int) -> list[str]:
    """Profiles a README code block before line `before` writes into the .env (a commented line is an example)."""
    found: list[str] = []
    block: list[str] | None = None
    for line in lines[:before - 1]:
        if line.lstrip().startswith("```"):
            if block is not None and any(_WRITES_DOTENV.search(b) for b in block):
                found = [p for b in block if (m := _PROFILES_LINE.match(b)) for p in m.group(1).split(",") if p] or found
            block = None if block is not None else []
            continue
        if block is not None:
            block.append(line)
    if not found:
        mentions = [m.group(1) for line in lines[:before - 1] for m in _PROFILES_INLINE.finditer(line)]
        found = [p for p in mentions[-1].split(",") if p] if mentions else []
    return sorted(set(found))


# options of `docker compose up` that take a value (the word after them is no service name)
_UP_VALUED = frozenset({"--scale", "-t", "--timeout", "--exit-code-from", "--attach", "--no-attach", "--pull",
                        "--wait-timeout"})


def _names_services(command: str) -> bool:
    """Does a ``docker compose ... up`` command name the services it starts (``up -d kafka``)?"""
    words = command.split()
    if "up" not in words:
        return False
    after = words[words.index("up") + 1:]
    for i, w in enumerate(after):
        if w in ("&&", ";", "|", "||") or w.startswith("#"):
            return False
        if w.startswith("-") or (i and after[i - 1] in _UP_VALUED):
            continue
        return bool(re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", w))
    return False


def documented_launch(repo: str, path: str, lines: list[str]) -> list[Fact]:
    """The compose files and profiles of each ``docker compose ... up`` the README gives (``compose.launch``
    with ``documented``, in the README's order; the graph chooses among them), up to the first that starts
    the default file as it is."""
    from repomodeler.extract.readers.compose_launch import _files_and_profiles

    out: list[Fact] = []
    for i, line in enumerate(lines, 1):
        m = _COMPOSE_UP.search(line)
        if not m:
            continue
        command = line[m.start():].strip().strip("`")
        files, profiles = _files_and_profiles(command)
        files = [f.removeprefix("./") for f in files if f and not f.startswith(("$", "/", "-", "<"))]
        if not files and not profiles and _names_services(command):
            continue  # `docker compose up -d kafka`: one service started ahead of the rest, not the stack
        if not files and not profiles:
            # the README starts the default file as it is; of a folder its section points to ("copy the
            # content of folder [examples/compose](examples/compose)", `cd examples/compose`), when it does
            where = _changed_folder(lines, i, line[:m.start()]) or _section_folder(lines, i)
            if where:
                out.append(fact("compose.launch", repo, path, i, folder=where, target="README",
                                documented=str(len(out) + 1)))
            elif written := _written_profiles(lines, i):
                out.append(fact("compose.launch", repo, path, i, files="", profiles=",".join(written),
                                target="README", documented=str(len(out) + 1)))
            elif out:
                # the default file started after the files of the commands before it (`docker compose -f
                # docker-compose-env.yaml up -d`, then `docker compose up -d`): the graph decides whether those
                # were the layer it stands on
                out.append(fact("compose.launch", repo, path, i, files="", default_after="true",
                                target="README", documented=str(len(out) + 1)))
            break
        if files and (where := _changed_folder(lines, i, line[:m.start()])):
            # (`cd outpost/examples/docker-compose/` after the clone, then `docker-compose -f compose.yml -f
            # compose-postgres.yml up`: the files of the folder the README changed into)
            files = [str(PurePosixPath(where, f)) for f in files]
        out.append(fact("compose.launch", repo, path, i, files=",".join(files), profiles=",".join(profiles),
                        target="README", documented=str(len(out) + 1)))
    return out


_SUMMARY_WORDS = re.compile(r"[A-Za-z]{3,}(\s+\S+){3,}")
# The subject of a README's opening sentence, a name of one to four capitalised words (`Mayan EDMS is a ...`)
_SUBJECT = re.compile(r"^([A-Z][\w.+-]*(?:\s+[A-Z0-9][\w.+-]*){0,3})\s+(?:\([^)]*\)\s+)?(?:is|are)\s+(?:a|an|the)\b")
_NOT_PROSE = re.compile(r"^([-*+]\s|[|=>:]|\[!|\.\.)")  # list items, tables, rules, quotes, directives


def _prose_text(line: str) -> str:
    """A line's words: pictures dropped, links (inline ``[text](url)`` and reference-style ``[text][ref]`` or
    ``[text]``) by their text, HTML tags and emphasis removed (``qBittorrent is a [BitTorrent] client``)."""
    line = re.sub(r"!\[[^\]]*\](\([^)]*\)|\[[^\]]*\])?", " ", line)  # pictures
    line = re.sub(r"\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])?", r"\1", line)  # links: their text
    line = re.sub(r"<[^>]+>", " ", line)  # HTML tags
    return re.sub(r"[*_`]", "", line).strip()


def _summary(lines: list[str]) -> list[tuple[int, str]]:
    """(line, text) of the first three paragraphs of prose a README opens with, within its first 100 lines: the
    sentence under the title saying what the project is.  Headings, code, tables, lists, quotes and lines of
    only badges or pictures end a paragraph and are no part of one; HTML tags are dropped, keeping their text
    (``<p align="center">A general purpose HTTP reverse proxy</p>``)."""
    found: list[tuple[int, str]] = []
    start, words = 0, []
    fence = False

    def close() -> None:
        nonlocal start, words
        if words:
            found.append((start, " ".join(words)[:400]))
        start, words = 0, []

    for i, line in enumerate(lines[:100], 1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            close()
            continue
        raw = line.strip()
        text = re.sub(r"\s+", " ", _prose_text(raw)).strip()
        if fence or not raw or raw.startswith("#") or _ATX.match(line) or _SETEXT.match(line) \
                or _NOT_PROSE.match(raw) or not _SUMMARY_WORDS.search(text):
            close()
        else:
            start = start or i
            words.append(text)
        if len(found) >= 3:
            break
    close()
    return found[:3]


def readme_identity(repo: str, path: str, text: str) -> list[Fact]:
    if "/" in path or not ROOT_README.match(path):
        return []
    facts: list[Fact] = []
    lines = text.splitlines()
    titles = sorted({t for t in (_heading(lines, 1), _logo(lines), _opening_heading(lines)) if t is not None})
    summary = _summary(lines)
    if not titles and summary and (subject := _SUBJECT.match(summary[0][1])):
        # no title at all (badges, then a picture without its text): the name its opening sentence gives the
        # project it describes ("Mayan EDMS is a document management system")
        titles = [(summary[0][0], subject.group(1))]
    for line, title in titles:  # (the graph takes any of them that agrees with a link or a manifest)
        facts.append(fact("project.heading", repo, path, line, title=title[:200]))
    seen: set[str] = set()
    for i, line in enumerate(lines, 1):
        for m in _LINK.finditer(line):
            owner, name = m.group(1), re.sub(r"\.git$", "", m.group(2))
            # (an organisation's profile repository, `.github`, holding its README's header picture, and a
            # repository named like the code host itself name no project)
            if owner.lower() in _NOT_REPOS or not name or name.lower() in seen or name.startswith(".") \
                    or name.lower() in _HOST_NAMES:
                continue
            seen.add(name.lower())
            facts.append(fact("project.link", repo, path, i, name=name))
    for line, text in summary:
        facts.append(fact("project.summary", repo, path, line, text=text))
    facts.extend(documented_launch(repo, path, lines))
    for i, line in enumerate(lines, 1):
        for m in _COPY_INTO_VARIABLE.finditer(line):
            # `cp config.docker-template.php $MOODLE_DOCKER_WWWROOT/config.php`: a file of the repository put
            # into the folder a variable names (a deployment mounts that folder)
            facts.append(fact("readme.copy", repo, path, i, source=m.group("src").removeprefix("./"),
                              variable=m.group("var"), dest=m.group("dest") or ""))
    for tool, pattern in (("compose", _COMPOSE_UP), ("orchestrator", _ORCHESTRATOR)):
        first = next((i for i, line in enumerate(lines, 1) if pattern.search(line)), None)
        if first is not None:
            facts.append(fact("project.start", repo, path, first, tool=tool))
    return facts
