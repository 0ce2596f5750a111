"""Compose ``extends``: a service built on another one's definition.

Why a step of its own, before the rules: ``extends: {file: common.yml, service: server}`` makes the
service take from that definition what it does not say itself (image, build, ports, profiles, its
environment, mounts, env files, command), so every rule must see the merged service, as Compose
runs it. A definition that services of other files extend is a template those files instantiate
(zabbix's ``compose_zabbix_components.yaml``), not a container of its own: it is dropped, with the
definitions it extends in turn; unless the file is the default one (``docker-compose.yml``), the stack
that overlay files extend, or one a file includes (``include: [docker-compose.base.yml]``), loaded with it.
One file's services extending each other (``worker`` extending ``web``) are all containers. What a
service inherits keeps the base file's line as its evidence.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.paths import join_path, norm_path
from repomodeler.records import Fact

# compose.service fields a service takes from its base when it does not set them itself
INHERITED = ("image", "build_context", "dockerfile", "build_target", "ports", "expose", "working_dir", "profiles",
             "build_args", "network_mode", "hostname")
# facts a base definition owns that the extending service takes too, by the key that makes one its own
OWNED = {"config.env": "name", "compose.env_file": "file", "compose.mount": "target", "compose.label": "name",
         "program.command": None, "compose.network_alias": "alias"}


# Compose's default files: what `docker compose up` starts in its folder (the graph's rules use it too)
DEFAULT_COMPOSE = re.compile(r"(^|/)(docker-compose|compose)(\.override)?\.ya?ml$")


def _folder(path: str) -> str:
    parent = PurePosixPath(path).parent.as_posix()
    return "" if parent == "." else parent


def apply_compose_extends(facts: list[Fact]) -> list[Fact]:
    """The facts of one repository with every ``extends`` merged and the template definitions dropped."""
    extends = [f for f in facts if f.kind == "compose.extends"]
    if not extends:
        return facts
    services = {(f.path, f.get("name") or ""): f for f in facts if f.kind == "compose.service"}
    owned: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in facts:
        if f.kind in OWNED and f.get("owner"):
            owned[(f.path, f.get("owner") or "")].append(f)
    base_of: dict[tuple[str, str], tuple[str, str]] = {}
    for f in sorted(extends, key=Fact.order):
        file = f.get("file") or ""
        base_path = norm_path(join_path(_folder(f.path), file)) if file else f.path
        base = (base_path, f.get("service") or "")
        if base in services and (f.path, f.get("owner") or "") in services:
            base_of[(f.path, f.get("owner") or "")] = base
    # templates: definitions another file's services extend, and the ones those extend in turn; a file
    # named as Compose's default (docker-compose.yml, compose.yaml) is the stack itself, which overlays
    # (docker-compose.build.yml building the image it pulls, a developer's file) extend
    # (and so is a file another includes, `include: [docker-compose.base.yml]`: its services run with that stack)
    included = {norm_path(join_path(_folder(f.path), f.get("file") or ""))
                for f in facts if f.kind == "compose.include"}
    templates = {b for s, b in base_of.items()
                 if b[0] != s[0] and not DEFAULT_COMPOSE.search(b[0]) and b[0] not in included}
    grew = True
    while grew:
        more = {base_of[t] for t in templates if t in base_of} - templates
        templates |= more
        grew = bool(more)

    merged: dict[tuple[str, str], tuple[Fact, list[Fact]]] = {}

    def resolve(key: tuple[str, str], depth: int = 0) -> tuple[Fact, list[Fact]]:
        """The service's merged compose.service fact and the facts it owns, its bases' included."""
        if key in merged:
            return merged[key]
        own_fact, own = services[key], list(owned.get(key, ()))
        base = base_of.get(key)
        if base is None or depth > 8:
            merged[key] = (own_fact, own)
            return merged[key]
        base_fact, base_owned = resolve(base, depth + 1)
        attrs = dict(own_fact.attrs)
        for name in INHERITED:
            value = base_fact.get(name)
            if not attrs.get(name) and value:
                if name == "build_context" and base[0] != key[0]:
                    # a context written from the base file's folder, re-written from this file's
                    where = norm_path(join_path(base_fact.get("compose_dir") or _folder(base[0]), value))
                    value = os.path.relpath(where or ".", _folder(key[0]) or ".")
                attrs[name] = value
        fact_ = Fact(own_fact.kind, own_fact.repository, own_fact.path, own_fact.line, own_fact.language,
                     tuple(sorted((k, v) for k, v in attrs.items() if v is not None)), own_fact.rule)
        said = {(f.kind, f.get(OWNED[f.kind]) if OWNED[f.kind] else "") for f in own}
        taken = [Fact(f.kind, f.repository, f.path, f.line, f.language,
                      tuple(sorted((k, key[1] if k == "owner" else v) for k, v in f.attrs)), f.rule)
                 for f in base_owned if (f.kind, f.get(OWNED[f.kind]) if OWNED[f.kind] else "") not in said]
        merged[key] = (fact_, own + taken)
        return merged[key]

    for key in sorted(base_of):
        resolve(key)
    dropped = {services[key] for key in templates} | {
        f for f in facts if f.get("owner") and (f.path, f.get("owner") or "") in templates}
    replaced = {services[key]: merged[key] for key in merged if key in base_of and key not in templates}
    out: list[Fact] = []
    for f in facts:
        if f in dropped:
            continue
        if f in replaced:
            fact_, extra = replaced[f]
            out.append(fact_)
            mine = set(owned.get((f.path, f.get("name") or ""), ()))
            out.extend(e for e in extra if e not in mine)  # (its own are kept where they stand)
            continue
        out.append(f)
    return out
