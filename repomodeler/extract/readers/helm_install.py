"""``helm install`` commands a project documents: which releases of its charts make up the system.

A chart is a recipe with blanks; the deployment is the chart installed under a release name with the
values given on the command line.  A README that installs one chart twice (``helm upgrade --install
frontend --set backend=http://backend-podinfo:9898/echo podinfo/podinfo`` and ``helm upgrade --install
backend --set redis.enabled=true podinfo/podinfo``) deploys two components, and the names the chart
derives from the release (``frontend-podinfo``) are the addresses its other values use.  Rendering the
chart once with its defaults would find neither.

Facts: ``helm.install`` with ``release`` (empty for ``--generate-name``), ``chart`` (as written: a
folder, a packaged ``.tgz``, ``repo/chart`` or an ``oci://`` reference), ``namespace``, ``sets``
(a JSON list of ``[flag, "key=value"]`` in command order: ``--set``, ``--set-string``), ``values``
(the ``-f`` files, comma separated, as written) and ``block`` (the number of the fenced code block in a
Markdown file; commands of one block are installed together).  The chart step
(:mod:`repomodeler.extract.helm_charts`) renders the local chart of each release.
"""

from __future__ import annotations

import json
import re
import shlex

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_FENCE = re.compile(r"^\s*(```|~~~)")
_HELM = re.compile(r"(?:^|[\s;&|(])helm\s+(install|upgrade)\b")
# Flags of `helm install`/`helm upgrade` that take a value (any other flag is a switch).
_VALUE_FLAGS = frozenset({
    "--set", "--set-string", "--set-file", "--set-json", "--set-literal", "-f", "--values", "-n", "--namespace",
    "--version", "--repo", "--timeout", "--kube-context", "--kubeconfig", "--description", "--post-renderer",
    "--post-renderer-args", "--username", "--password", "--ca-file", "--cert-file", "--key-file", "--keyring",
    "--labels", "-l", "--name-template", "--kube-apiserver", "--kube-token", "--kube-as-user", "--registry-config",
    "--repository-cache", "--repository-config", "--history-max", "-o", "--output", "--name"})
_SETS = frozenset({"--set", "--set-string"})
MAX_CONTINUATIONS = 200  # lines one command may continue over (`\` at the ends): a longer chain is no command


def _commands(text: str, markdown: bool) -> list[tuple[int, int, str]]:
    """(line, block, command) of every line that runs helm, continuation lines (``\\``) joined; in
    Markdown only lines inside fenced code blocks, each numbered by its block."""
    out: list[tuple[int, int, str]] = []
    lines = text.split("\n")
    block, inside, i = 0, not markdown, 0
    while i < len(lines):
        line = lines[i]
        if markdown and _FENCE.match(line):
            inside = not inside
            block += inside
            i += 1
            continue
        start = i
        joined = line
        while joined.rstrip().endswith("\\") and i + 1 < len(lines) and i - start < MAX_CONTINUATIONS \
                and not (markdown and _FENCE.match(lines[i + 1])):
            i += 1
            joined = joined.rstrip()[:-1] + " " + lines[i]
        i += 1
        if inside and _HELM.search(joined) and not joined.lstrip().startswith("#"):
            out.append((start + 1, block, joined))
    return out


def _words(command: str) -> list[str]:
    """The words of the first ``helm install``/``helm upgrade`` among the commands of a line
    (``helm package charts/x && helm install x x.tgz``), from ``helm`` up to the next ``&&``,
    ``;``, ``|`` or comment."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    segments: list[list[str]] = [[]]
    try:
        for token in lexer:
            if token and set(token) <= set(";&|()"):
                segments.append([])
            elif token:
                segments[-1].append(token)
    except ValueError:  # an unclosed quote: the words read so far
        pass
    for words in segments:
        if "helm" in words:
            words = words[words.index("helm"):]
            if len(words) > 1 and words[1] in ("install", "upgrade"):
                return words
    return []


def parse_helm_install(command: str) -> dict[str, object] | None:
    """Release, chart, namespace, sets and values files of one ``helm install``/``helm upgrade`` line,
    or None when it is not one (``helm upgrade`` without a chart, ``helm install --help``)."""
    words = _words(command)
    if len(words) < 3 or words[1] not in ("install", "upgrade"):
        return None
    positional: list[str] = []
    sets: list[list[str]] = []
    values: list[str] = []
    namespace = ""
    named = ""
    generate = False
    i = 2
    while i < len(words):
        w = words[i]
        flag, eq, inline = w.partition("=") if w.startswith("-") else (w, "", "")
        if w.startswith("-") and flag in _VALUE_FLAGS:
            value = inline if eq else (words[i + 1] if i + 1 < len(words) else "")
            i += 1 if eq else 2
            if flag in _SETS:
                sets.append([flag, value])
            elif flag in ("-f", "--values"):
                values.extend(v for v in value.split(",") if v)
            elif flag in ("-n", "--namespace"):
                namespace = value
            elif flag == "--name":  # Helm 2: `helm install --name RELEASE CHART`
                named = value
            continue
        if w in ("-g", "--generate-name"):
            generate = True
        elif w in ("-h", "--help"):
            return None
        elif not w.startswith("-"):
            positional.append(w)
        i += 1
    if named and positional:
        release, chart = named, positional[0]
    elif generate and positional:
        release, chart = "", positional[0]
    elif len(positional) >= 2:
        release, chart = positional[0], positional[1]
    else:
        return None
    if not chart or chart.startswith("$") or not release.replace("-", "").replace(".", "").isalnum() and release:
        return None
    return {"release": release, "chart": chart, "namespace": namespace, "sets": sets, "values": values}


def read_documents(repo: str, path: str, text: str) -> list[Fact]:
    """A Markdown document: the releases it installs, and for the root README the name the project
    gives itself (:mod:`._readme`) and the compose file it prints (:mod:`._doc_compose`)."""
    from repomodeler.extract.readers._doc_compose import readme_compose
    from repomodeler.extract.readers._readme import readme_identity

    return read_helm_installs(repo, path, text) + readme_identity(repo, path, text) + readme_compose(repo, path, text)


def read_helm_installs(repo: str, path: str, text: str) -> list[Fact]:
    markdown = path.lower().endswith((".md", ".mdx", ".markdown"))
    facts = []
    for line, block, command in _commands(text, markdown):
        parsed = parse_helm_install(command)
        if parsed is None:
            continue
        facts.append(fact("helm.install", repo, path, line, release=parsed["release"], chart=parsed["chart"],
                          namespace=parsed["namespace"], sets=json.dumps(parsed["sets"]) if parsed["sets"] else "",
                          values=",".join(parsed["values"]),  # type: ignore[arg-type]
                          block=block if markdown else 0))
    return facts


READERS = (
    # Markdown documents: the install instructions of the project's README and guides (and a reStructuredText
    # README, for the name the project gives itself).
    Reader("helm_install", "descriptor", 470, read_documents,
           patterns=(r"[^/]*\.md", r"[^/]*\.markdown", r"(?i:readme)\.rst", r"[^/]*\.mdx")),
)
