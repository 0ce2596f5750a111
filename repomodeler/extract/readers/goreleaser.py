"""GoReleaser configurations (``.goreleaser.yaml``): the binaries a Go repository releases.

Each ``builds`` entry compiles one ``main`` package (``./cli``, ``./cmd/api/main.go``; the module's
root when left out) into a ``binary`` (``nmctl``).  Go names a binary after its folder, so a program
kept in a generic folder (``cli/``, ``cmd/``) is known to its users by the name the release gives it:
each entry becomes a ``program.build`` fact (binary, code folder).  A templated name
(``{{ .ProjectName }}``) names nothing here and is left out.

The ``dockers`` (and ``dockers_v2``) entries say which image a release builds from which Dockerfile
with which of those binaries in its context: an ``image.recipe`` fact (image without its tag,
Dockerfile, binaries).  A chart or manifest deploying that image runs the program its recipe starts
(``ENTRYPOINT /usr/local/bin/acme-agent``), not the one merely named like the image (the CLI released
as ``acme``).  Image templates are resolved through the configuration's own ``env`` defaults
(``IMAGE_REPOSITORY={{ if index .Env "IMAGE_REPOSITORY" }}...{{ else }}acme/agent{{ end }}``) and its
``project_name``; a repository part left templated names nothing.  ``kos`` entries build an image
straight from a build's package (no Dockerfile): an ``image.recipe`` naming that package's folder.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


def _code_folder(path: str, main: str) -> str:
    """The package folder a ``main`` names, from the repository's root (the file's folder is GoReleaser's)."""
    base = str(PurePosixPath(path).parent)
    target = posixpath.normpath(posixpath.join("" if base == "." else base, main or "."))
    if target.endswith(".go"):
        target = posixpath.dirname(target)
    return "" if target in (".", "") else target.strip("/")


# `NAME={{ if index .Env "NAME" }}{{ .Env.NAME }}{{ else }}default{{ end }}`: the default is the value
_ENV_DEFAULT = re.compile(r"^\{\{\s*if\s+index\s+\.Env\s+\"(\w+)\"\s*\}\}\{\{\s*\.Env\.\1\s*\}\}"
                          r"\{\{\s*else\s*\}\}(.*?)\{\{\s*end\s*\}\}$")
_TEMPLATE_VAR = re.compile(r"\{\{\s*\.(Env\.(\w+)|ProjectName)\s*\}\}")


def _env_defaults(doc) -> dict[str, str]:
    """The configuration's ``env`` list as it resolves with nothing set in the environment."""
    out: dict[str, str] = {}
    for item in seq(get(doc, "env")):
        name, sep, value = (scalar(item) or "").partition("=")
        if not sep or not re.fullmatch(r"\w+", name.strip()):
            continue
        m = _ENV_DEFAULT.match(value.strip())
        value = m.group(2) if m and m.group(1) == name.strip() else value.strip()
        if "{{" not in value:
            out[name.strip()] = value
    return out


def _image(template: str, env: dict[str, str], project: str) -> str | None:
    """An image template resolved to its repository (no tag); None when a template is left in it."""
    def sub(m: re.Match[str]) -> str:
        value = project if m.group(1) == "ProjectName" else env.get(m.group(2) or "")
        return value if value else m.group(0)
    image = _TEMPLATE_VAR.sub(sub, template.strip().strip("'\""))
    last = image.rsplit("/", 1)[-1]
    if ":" in last:  # the tag (`:{{ .Tag }}-amd64`) names no other image
        image = image[: len(image) - len(last)] + last.split(":", 1)[0]
    if not image or "{{" in image or " " in image:
        return None
    return image


def _docker_entries(doc, repo: str, path: str, binaries: dict[str, str], env: dict[str, str], project: str) -> list[Fact]:
    """``dockers``/``dockers_v2`` entries: the images a release builds from a Dockerfile."""
    facts: list[Fact] = []
    base = str(PurePosixPath(path).parent)
    for section, images_key in (("dockers", "image_templates"), ("dockers_v2", "images")):
        for entry in seq(get(doc, section)):
            dockerfile = scalar(get(entry, "dockerfile")) or "Dockerfile"
            if "{{" in dockerfile or dockerfile.startswith("/") or ".." in dockerfile.split("/"):
                continue
            ids = [scalar(i) or "" for i in seq(get(entry, "ids"))]
            packaged = sorted({b for i, b in binaries.items() if not ids or i in ids})
            recipe = posixpath.normpath(posixpath.join("" if base == "." else base, dockerfile))
            tags = [scalar(t) or "" for t in seq(get(entry, "tags"))]
            for item in seq(get(entry, images_key)):
                image = _image(scalar(item) or "", env, project)
                if image is None:
                    continue
                if section == "dockers_v2" and tags:
                    image = image.rsplit(":", 1)[0] if ":" in image.rsplit("/", 1)[-1] else image
                facts.append(fact("image.recipe", repo, path, node_line(item), image=image, dockerfile=recipe,
                                  binaries=",".join(packaged), source="goreleaser"))
    return facts


def _ko_entries(doc, repo: str, path: str, folders: dict[str, str], env: dict[str, str], project: str) -> list[Fact]:
    """``kos`` entries: an image ko builds from a build's package, with no Dockerfile."""
    facts: list[Fact] = []
    for entry in seq(get(doc, "kos")):
        image = _image(scalar(get(entry, "repository")) or "", env, project)
        build = scalar(get(entry, "build")) or ""
        main = scalar(get(entry, "main"))
        code = _code_folder(path, main) if main and "{{" not in main and not main.startswith(("/", "..")) \
            else folders.get(build) if build else (next(iter(folders.values())) if len(folders) == 1 else None)
        if image is None or code is None:
            continue
        facts.append(fact("image.recipe", repo, path, node_line(entry), image=image, code=code, source="goreleaser-ko"))
    return facts


def read_goreleaser(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        env = _env_defaults(doc)
        project = (scalar(get(doc, "project_name")) or "").strip()
        project = "" if "{{" in project else project
        binaries: dict[str, str] = {}  # build id -> its binary
        folders: dict[str, str] = {}  # build id -> its package folder
        for build in seq(get(doc, "builds")):
            bid = scalar(get(build, "id")) or project or ""
            binary = scalar(get(build, "binary")) or ""
            main = scalar(get(build, "main")) or "."
            if bid and binary and "{{" not in binary:
                binaries[bid] = PurePosixPath(binary.strip()).name
            if bid and "{{" not in main and not main.startswith(("/", "..")):
                folders[bid] = _code_folder(path, main)
        facts += _docker_entries(doc, repo, path, binaries, env, project)
        facts += _ko_entries(doc, repo, path, folders, env, project)
        for build in seq(get(doc, "builds")):
            binary = scalar(get(build, "binary")) or ""
            if not binary or "{{" in binary or "/" in binary.strip("./"):
                continue
            main = scalar(get(build, "main")) or "."
            if "{{" in main or main.startswith("/") or main.startswith(".."):
                continue
            facts.append(fact("program.build", repo, path, node_line(build), binary=binary.strip(),
                              code=_code_folder(path, main), source="goreleaser"))
    return facts


READERS = (
    Reader("goreleaser", "descriptor", 214, read_goreleaser, patterns=(r"\.?goreleaser(?:[.-][^/]*)?\.ya?ml",)),
)
