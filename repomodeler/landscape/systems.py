"""Which repositories form one system, when the user did not say.

Repositories joined by a call (one needs a host another provides), a topic (one publishes what
another subscribes to), a library (one depends on a package another publishes) or a shared store
(two need the same host nobody in the organisation provides) are one system: the connected
components of those joins.  A name, topic or package that more than ``hub_limit`` repositories
share is a platform everyone uses (a common library, an event bus, the company's Postgres), not a
reason to merge their systems: it joins nobody, and shows as cross-system links instead.

A system is named after the longest common dash-separated prefix of its repositories' names
(``payments-api`` + ``payments-worker`` -> ``payments``), else the owner they share in their URLs,
else its most depended-on repository.  Everything is sorted, so the grouping and the names do not
depend on the order of the inputs.
"""

from __future__ import annotations

import math
from collections import defaultdict

from repomodeler.landscape.signature import Ref


def hub_limit(repositories: int) -> int:
    return max(4, int(math.sqrt(repositories)) + 1)


class _UnionFind:
    def __init__(self, items: list[str]) -> None:
        self.parent = {i: i for i in items}

    def find(self, x: str) -> str:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            lo, hi = sorted((ra, rb))
            self.parent[hi] = lo


def infer_systems(refs: dict[str, tuple[tuple[Ref, ...], tuple[Ref, ...]]],
                  owners: dict[str, str]) -> dict[str, str]:
    """Repository -> system name, for repositories given as ``name -> (provides, needs)``."""
    repos = sorted(refs)
    limit = hub_limit(len(repos))
    providers: dict[tuple[str, str], set[str]] = defaultdict(set)
    needers: dict[tuple[str, str], set[str]] = defaultdict(set)
    for repo in repos:
        provides, needs = refs[repo]
        for r in provides:
            providers[(r.kind, r.key)].add(repo)
        for r in needs:
            if r.kind != "route":  # an operation's path joins nothing by itself (GET /health is everywhere)
                needers[(r.kind, r.key)].add(repo)
    uf = _UnionFind(repos)
    in_links: dict[str, int] = defaultdict(int)
    for key in sorted(needers):
        users = needers[key]
        answer = providers.get(key, set())
        if len(users) + len(answer) > limit:
            continue  # a platform many share
        group = sorted(users | answer) if (answer or key[0] == "host") else []
        for other in group[1:]:
            uf.union(group[0], other)
        for p in answer:
            in_links[p] += len(users)
    members: dict[str, list[str]] = defaultdict(list)
    for repo in repos:
        members[uf.find(repo)].append(repo)
    names: dict[str, str] = {}
    taken: set[str] = set()
    for root in sorted(members, key=lambda r: (-len(members[r]), r)):
        group = sorted(members[root])
        name = system_name(group, owners, in_links)
        base, n = name, 2
        while name in taken:
            name, n = f"{base}-{n}", n + 1
        taken.add(name)
        for repo in group:
            names[repo] = name
    return names


def system_name(group: list[str], owners: dict[str, str], in_links: dict[str, int]) -> str:
    """Common dash-separated prefix of the names, else a shared owner, else the most used repository."""
    if len(group) == 1:
        return group[0]
    split = [g.split("-") for g in group]
    prefix: list[str] = []
    for parts in zip(*split):
        if len(set(parts)) != 1:
            break
        prefix.append(parts[0])
    if prefix and "-".join(prefix).strip("-_."):
        return "-".join(prefix)
    shared = {owners.get(g, "") for g in group}
    if len(shared) == 1 and "" not in shared:
        return next(iter(shared))
    return sorted(group, key=lambda g: (-in_links.get(g, 0), g))[0]
