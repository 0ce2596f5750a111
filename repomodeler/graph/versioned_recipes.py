"""Recipe folders kept per release of one image (``image/seafile_12.0/``, ``image/seafile_13.0/``,
``image/seafile_13.0_arm/``): a repository that builds a product's image keeps the recipe of each
release it still publishes, and of each processor architecture, side by side.  They are one program
at several versions, not one component per folder: the newest release's recipe is the program, named
without the version, and the other folders are its history.  A folder some deployment runs is left
alone (its deployment names it)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase

# <name><separator><release>[<separator><architecture>]: seafile_13.0, pro-seafile-9.0, php7.4_arm64.  A
# dotted release only: numbered folders (service1/, service2/, node-2/) are instances, not releases.
VERSIONED_FOLDER = re.compile(r"^(?P<stem>[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z][A-Za-z0-9]*)*?)[-_.]?v?"
                              r"(?P<version>\d+(?:\.\d+)+)"
                              r"(?:[-_](?P<arch>arm|arm64|aarch64|amd64|x86_64|x64|armhf|armv7|i386))?$", re.I)


def version_key(version: str) -> tuple[int, ...]:
    """``13.0`` -> (13, 0): releases compare by number, not as text (``9.0`` < ``10.0``)."""
    return tuple(int(p) for p in version.split("."))


class VersionedRecipeRules(ResolverBase):
    def versioned_recipes(self) -> None:
        # (repository, stem) -> (release, native architecture, component id, stem as its folder writes it)
        groups: dict[tuple[str, str], list[tuple[tuple[int, ...], bool, str, str]]] = defaultdict(list)
        for comp in self.model.components.values():
            if comp.kind != "service" or comp.attributes.get("deployment") or not comp.source_roots \
                    or self.created_by.get(comp.id) != "build_units":
                continue
            parsed = [VERSIONED_FOLDER.match(PurePosixPath(root).name) for _r, root in comp.source_roots]
            if not all(parsed) or comp.repository is None:
                continue
            stems = {m.group("stem").lower() for m in parsed if m}
            versions = {m.group("version") for m in parsed if m}
            if len(stems) != 1 or len(versions) != 1:
                continue
            arch = any(m.group("arch") for m in parsed if m)
            written = min(m.group("stem") for m in parsed if m)
            groups[(comp.repository, stems.pop())].append((version_key(versions.pop()), not arch, comp.id, written))
        for (repo, stem), members in sorted(groups.items()):
            if len({m[0] for m in members}) < 2:
                continue  # one release (in two architectures, say): nothing to choose between
            members.sort(reverse=True)  # newest release first, its native-architecture recipe before others
            newest, name = self.model.components[members[0][2]], members[0][3]
            if self.alias.get(name.lower()) not in (None, newest.id):
                continue  # the name is another component's
            kept = self.add_component(name, newest.kind, repo, min(newest.evidence),
                                      attributes={"version_folder": PurePosixPath(min(
                                          root for _r, root in newest.source_roots)).name})
            for _v, _native, cid, _written in members:
                if cid != kept.id and cid in self.model.components:
                    self.fold_component(cid, kept.id)
