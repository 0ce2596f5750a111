"""Where a README's printed compose file is the deployment, and where it only illustrates one.

The extract stage reads the first compose file a root README prints (:mod:`repomodeler.extract.
readers._doc_compose`).  A repository with no compose file, Kubernetes manifest or chart of its own
keeps nothing else that says how its image runs with its database and cache: the printed file is
the deployment its users copy.  Beside real deployment files the snippet repeats or simplifies them,
so its facts are set aside there.  Compose files kept only for developing and testing the project
(``docker/docker-compose.dev.yml``, ``docker-compose.ci.postgres.yml``, a ``dev/`` or ``test/`` folder's
file) are no deployment of it: beside them the printed file is still what users run, and they are set
aside instead.

Such a repository usually exists to build the image its README runs (``wallabag/docker`` builds
``wallabag/wallabag``): where the printed file runs one image of no known technology and the
repository keeps one recipe (Dockerfile), that recipe builds the image the service runs (the
service's ``recipe``): its evidence and the files it copies in are the service's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath

from repomodeler.extract.helm_charts import RULE as HELM_CHART_RULE
from repomodeler.extract.readers._doc_compose import is_doc_compose
from repomodeler.graph.catalog import tech_for_image
from repomodeler.records import Fact


def _deploys(fact: Fact) -> bool:
    """A fact of a deployment file the repository keeps (not a document printing one)."""
    if fact.kind == "compose.service":
        return not is_doc_compose(fact)
    return fact.kind.startswith("k8s.") or fact.rule == HELM_CHART_RULE or fact.kind == "helm.release"


# A compose file named for developing or testing the project: docker-compose.dev.yml, compose.ci.mysql.yaml.
DEVELOPER_COMPOSE = re.compile(r"(^|/)(docker-)?compose[._-](dev|devel|development|local|ci|test|tests|e2e|it)"
                               r"([._-][^/]*)?\.ya?ml$", re.I)


def _developer_recipe(path: str) -> bool:
    """A recipe named for a developer's or a test's container (dev.Dockerfile, Dockerfile.dev, Dockerfile-ci): its
    edition, as recipes are named (components.RECIPE_NAME), is one of a developer's machine or stage."""
    from repomodeler.graph.base import DEVELOPER_EDITIONS
    from repomodeler.graph.components import RECIPE_NAME  # (components reads base, which reads this module)

    m = RECIPE_NAME.match(PurePosixPath(path).name)
    return bool(m) and next(g for g in m.groups() if g).lower() in DEVELOPER_EDITIONS


def _developer_only(fact: Fact, developer_built: set[str]) -> bool:
    """A compose service of a file kept for developing or testing the project, by its name or folder, or of a
    file whose services build only a developer's recipe (`dockerfile: docker/dev.Dockerfile` mounting the
    source): the stack contributors work in, even when plainly named docker-compose.yml."""
    from repomodeler.graph.base import DEVELOPER_DIR, HARNESS_DIR  # (base reads this module)

    return fact.kind == "compose.service" and bool(
        DEVELOPER_COMPOSE.search(fact.path) or DEVELOPER_DIR.search(fact.path) or HARNESS_DIR.search(fact.path)
        or fact.path in developer_built)


def _developer_built(deploys: list[Fact]) -> set[str]:
    """Compose files whose every built service builds a developer's recipe (and at least one builds)."""
    built: dict[str, list[bool]] = {}
    for f in deploys:
        if f.kind == "compose.service" and (f.get("build_context") or f.get("dockerfile")):
            built.setdefault(f.path, []).append(_developer_recipe(f.get("dockerfile") or ""))
    return {path for path, dev in built.items() if all(dev)}


def printed_compose(facts: list[Fact]) -> list[Fact]:
    """One repository's facts, without the compose file its README prints when it keeps its own
    deployment files (or, when all it keeps are developers' and tests' compose files, without those)."""
    printed = {f.path for f in facts if is_doc_compose(f)}
    if not printed:
        return facts
    if len(printed) > 1:
        # the README's, else one guide: its translations (docs/fr/docker.mdx beside docs/en/docker.mdx) and the
        # guides of other ways to run it repeat it
        keep = min(printed, key=_guide_rank)
        facts = [f for f in facts if f.path == keep or f.path not in printed or not is_doc_compose(f)]
    deploys = [f for f in facts if _deploys(f)]
    developer_built = _developer_built(deploys)
    if deploys and all(_developer_only(f, developer_built) for f in deploys):
        developers = {f.path for f in deploys}
        return _built_here([f for f in facts if f.path not in developers])
    if deploys:
        return [f for f in facts if not is_doc_compose(f)]
    return _built_here(facts)


_TRANSLATED = re.compile(r"(^|/)(?!en/)[a-z]{2}([-_][a-zA-Z]{2,4})?/")


def _guide_rank(path: str) -> tuple[int, int, int, str]:
    """The README first, then a guide in no other language than English, the shallowest, by path."""
    return ("/" in path, bool(_TRANSLATED.search(path)), path.count("/"), path)


def _built_here(facts: list[Fact]) -> list[Fact]:
    """The printed file's one service of a custom image, built from the repository's one recipe."""
    custom = [f for f in facts if f.kind == "compose.service" and is_doc_compose(f) and f.get("image")
              and not f.get("build_context") and not tech_for_image(f.get("image"))]
    from repomodeler.graph.base import DEVELOPER_DIR, HARNESS_DIR

    # (a developer's or a test's recipe, docker/dev/Dockerfile or docker/dev.Dockerfile, builds no image users run)
    recipes = sorted({f.path for f in facts if f.kind == "docker.from"
                      and not DEVELOPER_DIR.search(f.path) and not HARNESS_DIR.search(f.path)
                      and not _developer_recipe(f.path)})
    if len(custom) != 1 or len(recipes) != 1:
        return facts
    built = replace(custom[0], attrs=tuple(sorted((*custom[0].attrs, ("recipe", recipes[0])))))
    return [built if f is custom[0] else f for f in facts]
