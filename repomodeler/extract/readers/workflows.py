"""GitHub Actions workflows (``.github/workflows/*.yml``): which recipe builds which published image.

Why: a repository whose compose file only pulls its published images (``image: acme/notes-sync:latest``)
says nowhere else which code each image holds when the names differ (the .NET project ``Notes.API``
published as ``notes-sync``). The workflow that publishes them does: a ``docker/build-push-action`` step
with its ``file``, ``context`` and ``tags`` (or the images of a ``docker/metadata-action`` step), often once
per entry of a build matrix (``matrix.repos: [{image: acme/notes-sync, file: ./Notes.API/Dockerfile}]``),
or a ``docker build -t IMAGE -f FILE CONTEXT`` command. Each becomes a ``manifest.image`` fact (``image``,
``module``: the recipe's folder, else the context; ``tool``: ``workflow``) at the line naming the image or
the recipe, so the module answers to the image's name as a module built by Jib answers to its own.
Nothing else of a workflow is read: its jobs run tests and releases, not the system.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._docker_build import DOCKER_BUILD, built_image, command_image
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar, seq, yaml
from repomodeler.records import Fact

_EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def _matrix_rows(job: yaml.Node) -> list[dict[str, str]]:
    """The rows of a job's build matrix as flat `matrix.` paths -> values (`matrix.repos.image`): each entry of a
    list of mappings (one per image), each `include` entry; [{}] with no such matrix."""
    matrix = get(get(job, "strategy"), "matrix")
    rows: list[dict[str, str]] = []
    for key, value in items(matrix):
        entries = seq(value)
        if key.value != "include" and entries and all(isinstance(e, yaml.MappingNode) for e in entries):
            for e in entries:
                rows.append({f"matrix.{key.value}.{k.value}": scalar(v) or "" for k, v in items(e) if scalar(v)})
        elif key.value != "include":
            # a list of plain values (`service: [api, web]`): one row each
            plain = [scalar(e) for e in entries if scalar(e)]
            if plain and not rows:
                rows = [{f"matrix.{key.value}": p} for p in plain]
    for e in seq(get(matrix, "include")):
        rows.append({f"matrix.{k.value}": scalar(v) or "" for k, v in items(e) if scalar(v)})
    return rows or [{}]


def _fill(text: str, row: dict[str, str], outputs: dict[str, str]) -> str | None:
    """`text` with each `${{ ... }}` the row or a step's output gives filled in; None if one stays unknown."""
    unknown = False

    def sub(m: re.Match[str]) -> str:
        nonlocal unknown
        expr = m.group(1)
        if expr in row:
            return row[expr]
        if expr in outputs:
            return outputs[expr]
        unknown = True
        return ""

    out = _EXPRESSION.sub(sub, text)
    return None if unknown else out


def read_workflow(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    seen: set[tuple[str, str]] = set()

    def emit(line: int, built: tuple[str, str] | None) -> None:
        if built is not None and built not in seen:
            seen.add(built)
            facts.append(fact("manifest.image", repo, path, line, ecosystem="docker", image=built[0], module=built[1],
                              tool="workflow"))

    for doc in load_yaml_documents(text):
        for _name, job in items(get(doc, "jobs")):
            rows = _matrix_rows(job)
            steps = seq(get(job, "steps"))
            for row in rows:
                # the workflow's and the job's `env:` (`BACKEND_API_IMAGE_NAME: ${{ github.repository_owner }}/api`,
                # used as `${{ env.BACKEND_API_IMAGE_NAME }}`); the account an image is pushed under is any owner:
                # only the image's own name says which code it holds
                outputs: dict[str, str] = {"github.repository_owner": "owner"}
                for scope in (doc, job):
                    for k, v in items(get(scope, "env")):
                        filled = _fill(scalar(v) or "", row, outputs)
                        if filled is not None and scalar(v):
                            outputs[f"env.{k.value}"] = filled
                for step in steps:
                    uses = scalar(get(step, "uses")) or ""
                    with_ = get(step, "with")
                    if uses.startswith("docker/metadata-action"):
                        images = _fill(scalar(get(with_, "images")) or "", row, outputs)
                        first = next((i for i in (images or "").split() if i and "=" not in i), "")
                        if first and scalar(get(step, "id")):
                            outputs[f"steps.{scalar(get(step, 'id'))}.outputs.tags"] = first
                    elif uses.startswith("docker/build-push-action"):
                        file = _fill(scalar(get(with_, "file")) or "", row, outputs)
                        context = _fill(scalar(get(with_, "context")) or ".", row, outputs)
                        tags_node = get(with_, "tags")
                        tags = [scalar(t) or "" for t in seq(tags_node)] or [scalar(tags_node) or ""]
                        if file is None or context is None:
                            continue
                        line = node_line(get(with_, "file") or tags_node or step)
                        first = next((t for text in tags for t in re.split(r"[\s,]+", _fill(text, row, outputs) or "")
                                      if t), "")
                        if first:  # (the tags of one image: the first names it)
                            emit(line, built_image(first, file, context))
                    for cmd_line, offset in _run_lines(step):
                        m = DOCKER_BUILD.search(cmd_line)
                        if not m:
                            continue
                        filled = _fill(m.group(1), row, outputs)
                        if filled is None:
                            continue
                        emit(node_line(get(step, "run")) + offset, command_image(filled))
    return facts


def _run_lines(step: yaml.Node) -> list[tuple[str, int]]:
    """The lines of a step's `run:` script (continuations joined), each with its offset in the block."""
    run = get(step, "run")
    text = scalar(run) or ""
    out: list[tuple[str, int]] = []
    buffer, start = "", 0
    for i, line in enumerate(text.split("\n")):
        if not buffer:
            start = i
        buffer += line.rstrip("\\").strip() + " "
        if not line.rstrip().endswith("\\"):
            out.append((buffer.strip(), start + (1 if getattr(run, "style", None) in ("|", ">") else 0)))
            buffer = ""
    if buffer:
        out.append((buffer.strip(), start))
    return out


READERS = (
    Reader("workflows", "descriptor", 20, read_workflow, patterns=(r"\.github/workflows/[^/]+\.ya?ml",)),
)
