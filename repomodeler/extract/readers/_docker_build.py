"""`docker build` commands, read wherever a project writes them (a workflow's `run:` step, a Makefile recipe):
which image a build tags and which folder's code it takes."""

from __future__ import annotations

import posixpath
import re
import shlex
from typing import NamedTuple

DOCKER_BUILD = re.compile(r"\bdocker\s+(?:buildx\s+)?build\b(.*)")


def image_of(tag: str) -> str:
    """`ghcr.io/acme/api:1.2` -> `ghcr.io/acme/api` (a digest or tag dropped), `${REGISTRY}/api:${TAG}` -> `api`;
    '' for no image reference."""
    tag = tag.strip().strip("'\"").split("@")[0]
    last = tag.rsplit("/", 1)[-1]
    if ":" in last:
        tag = tag[: len(tag) - len(last)] + last.split(":", 1)[0]
    if "$" in tag and "$" not in tag.rsplit("/", 1)[-1] and "/" in tag:
        tag = tag.rsplit("/", 1)[-1]  # `$REGISTRY/api:$VERSION`: a registry a variable chooses, the image's own name
    return tag if re.fullmatch(r"[a-z0-9][a-z0-9._/:-]*", tag) else ""


def module_of(file: str, context: str) -> str:
    """The folder of the code a build takes: the recipe's own folder (its path is the repository's, from the
    job's working folder), else the context."""
    folder = posixpath.dirname(posixpath.normpath(file)) if file else posixpath.normpath(context or ".")
    return "" if folder in (".", "") else folder


# Shell operators ending a command (`docker build -t api . || exit 255`): what follows is no argument of it.
_CONTROL = frozenset({"&&", "||", ";", "|", "&"})


class BuildArgs(NamedTuple):
    """What one `docker build` command line says: the tag, the recipe, the context (the last positional word;
    None when there is none) and the stage it stops at (`--target`, '' when the whole recipe is built)."""
    image: str
    file: str
    context: str | None
    target: str


def build_args(args: str) -> BuildArgs:
    """The arguments of a `docker build`: `-t/--tag`, `-f/--file`, `--target`, the last positional word, read in
    one pass so that a value word (`--target api`) is never taken for the context."""
    try:
        words = shlex.split(args)
    except ValueError:
        return BuildArgs("", "", None, "")
    image, file, target, positional = "", "", "", []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("-t", "--tag") and i + 1 < len(words):
            image = image or words[i + 1]
            i += 2
            continue
        if w.startswith("--tag="):
            image = image or w.split("=", 1)[1]
        elif w in ("-f", "--file") and i + 1 < len(words):
            file = words[i + 1]
            i += 2
            continue
        elif w.startswith("--file="):
            file = w.split("=", 1)[1]
        elif w == "--target" and i + 1 < len(words):
            target = target or _stage(words[i + 1])
            i += 2
            continue
        elif w.startswith("--target="):
            target = target or _stage(w.split("=", 1)[1])
        elif w.startswith("-"):
            if w in ("--build-arg", "--platform", "--label", "--cache-from", "--cache-to", "--secret",
                     "--output", "-o", "--progress", "--network"):
                i += 1
        elif w in _CONTROL or w.startswith((">", "<", "2>", "1>", "&>")):
            break  # (the command ends: `docker build ... . || exit 255`, `... . > build.log`)
        else:
            positional.append(w)
        i += 1
    context = positional[-1] if positional else None
    return BuildArgs(image, file, context, target)


def _stage(word: str) -> str:
    """A stage name as written (`accountservice`), '' for one a variable chooses."""
    m = re.match(r"[A-Za-z0-9_.-]+", word)
    return m.group(0) if m else ""


def built_image(tag: str, file: str, context: str | None) -> tuple[str, str] | None:
    """(image, module folder) of a build tagging `tag` from recipe `file` in `context`; None when the build names
    no plain image or takes a folder a variable chooses or one outside the repository (`..`)."""
    if context is None:
        return None
    image, module = image_of(tag), module_of(file.removeprefix("./"), context.removeprefix("./"))
    if not image or "$" in module or module.startswith(".."):
        return None
    return image, module


def command_image(args: str) -> tuple[str, str] | None:
    """(image, module folder) the arguments of a `docker build` command build, as :func:`built_image`."""
    b = build_args(args)
    return built_image(b.image, b.file, b.context)
