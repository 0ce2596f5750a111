"""Names and paths: component ids, build-unit names, source folders, package keys."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from repomodeler.paths import is_under, join_path, norm_path  # noqa: F401  (re-exported: graph modules import them here)

if TYPE_CHECKING:
    from repomodeler.records import Component


def slug(name: str) -> str:
    """A stable identifier for a component name (lowercase, safe characters)."""
    s = re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-.")
    return s or "component"


def language_family(language: str) -> str:
    return {"tsx": "typescript"}.get(language, language)


GENERIC_DIRS = frozenset({"src", "app", "server", "service", "main", "source", "code", "api", "web", "backend", "cmd",
                          # the folder a recipe copies in as the image's file system (images/certgen/rootfs/)
                          "rootfs"})
BASE_LANGUAGE = (("python", "python"), ("pypy", "python"), ("node", "javascript"), ("golang", "go"),
                  ("openjdk", "java"), ("eclipse-temurin", "java"), ("amazoncorretto", "java"), ("maven", "java"),
                  ("gradle", "java"), ("dotnet", "csharp"), ("mcr.microsoft.com/dotnet", "csharp"), ("ruby", "ruby"),
                  ("php", "php"), ("rust", "rust"),
                  # end-to-end test runners' images are Node images (mcr.microsoft.com/playwright, cypress/included)
                  ("playwright", "javascript"), ("cypress", "javascript"))


# Operating-system and distroless base images: a recipe starting from one builds its own program.
OS_IMAGE = re.compile(r"^(?:docker\.io/)?(?:library/)?(?:alpine|ubuntu|debian|busybox|centos|fedora|rockylinux|"
                      r"almalinux|amazonlinux|oraclelinux|archlinux|opensuse|buildpack-deps|scratch)(?::|$)|distroless|"
                      r"/ubi\d*[-/:]|/ubi\d*$", re.I)


def image_language(image: str) -> str | None:
    name = image.lower().split(":")[0]
    last = name.split("/")[-1]
    for prefix, lang in BASE_LANGUAGE:
        if last.startswith(prefix) or name.startswith(prefix):
            return lang
    return None


def unit_name(repo: str, folder: str, manifest_name: str | None, manifest_paths: list[str]) -> str:
    """Name of a build unit: its folder, unless the folder name is generic ('src', 'app'): then the
    project file's name (cartservice.csproj) or the manifest's, or the parent folder."""
    if folder == "":
        # a repository named for a major version (Go's `/v2` convention: github.com/miniflux/v2) is named by
        # its module (`miniflux.app/v2`: miniflux), not by the folder it was put in
        if re.fullmatch(r"v\d+", repo.lower()) and manifest_name:
            parts = [p for p in manifest_name.strip().split("/") if p and not re.fullmatch(r"v\d+", p)]
            if parts:
                last = parts[-1]
                name = last.split(".")[0] if len(parts) == 1 and "." in last else last
                if re.fullmatch(r"[A-Za-z0-9][\w-]*", name):
                    return name
        return repo
    base = PurePosixPath(folder).name
    if manifest_name and "." in base and base.lower().endswith("." + manifest_name.lower()):
        return manifest_name  # tools.acme.shop.auth/ holding the module `auth`: reverse-domain folder names
    if base.lower() == "bin" and manifest_name and re.fullmatch(r"[A-Za-z0-9][\w.-]*", manifest_name):
        return manifest_name  # a package kept in a bin/ folder (a Rust workspace's src/bin crate `rauthy`)
    if base.lower() not in GENERIC_DIRS:
        return base
    for p in sorted(manifest_paths):
        if p.endswith((".csproj", ".fsproj")):
            return PurePosixPath(p).stem
    if manifest_name and re.match(r"^[A-Za-z0-9._@/-]+$", manifest_name) and "." not in manifest_name.rsplit("/", 1)[-1]:
        return manifest_name.rsplit("/", 1)[-1]
    parent = PurePosixPath(folder).parent.name
    return parent or repo


def infra_role(comp: "Component") -> str:
    """The platform roles of a component other than serving a user interface (registry, config...)."""
    return ",".join(r for r in comp.attributes.get("platform_role", "").split(",") if r and r != "ui")


def subcommand(command: str) -> str | None:
    """The subcommand a deployment starts its image's binary with: the first word of its arguments, or the
    word after the binary its command names (``destination -addr=:8086``, ``/controller identity``); a flag
    or a value is none."""
    for w in command.split()[:2]:
        if w.startswith("-") or "=" in w or "{" in w or "$" in w:
            return None
        if "/" not in w:
            return w.lower()
    return None


def dependency_key(name: str) -> str:
    """Normalise a package name for matching manifests to dependencies (PEP 503-like)."""
    return re.sub(r"[-_.]+", "-", name.strip().lower())


# A compose variable with a default (`${AUTH-key}`, `${TAG:-latest}`): the value used when it is unset.
COMPOSE_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^}]*)\}")
