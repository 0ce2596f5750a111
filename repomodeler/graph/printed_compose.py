"""Where a README's printed compose file is the deployment, and where it only illustrates one.

The extract stage reads the first compose file a root README prints (:mod:`repomodeler.extract.
readers._doc_compose`).  A repository with no compose file, Kubernetes manifest or chart of its own
keeps nothing else that says how its image runs with its database and cache: the printed file is
the deployment its users copy.  Beside real deployment files the snippet repeats or simplifies them,
so its facts are set aside there.

Such a repository usually exists to build the image its README runs (``wallabag/docker`` builds
``wallabag/wallabag``): where the printed file runs one image of no known technology and the
repository keeps one recipe (Dockerfile), that recipe builds the image the service runs (the
service's ``recipe``): its evidence and the files it copies in are the service's.
"""

from __future__ import annotations

from dataclasses import replace

from repomodeler.extract.helm_charts import RULE as HELM_CHART_RULE
from repomodeler.extract.readers._doc_compose import is_doc_compose
from repomodeler.graph.catalog import tech_for_image
from repomodeler.records import Fact


def _deploys(fact: Fact) -> bool:
    """A fact of a deployment file the repository keeps (not a document printing one)."""
    if fact.kind == "compose.service":
        return not is_doc_compose(fact)
    return fact.kind.startswith("k8s.") or fact.rule == HELM_CHART_RULE or fact.kind == "helm.release"


def printed_compose(facts: list[Fact]) -> list[Fact]:
    """One repository's facts, without the compose file its README prints when it keeps its own
    deployment files."""
    if not any(is_doc_compose(f) for f in facts):
        return facts
    if any(_deploys(f) for f in facts):
        return [f for f in facts if not is_doc_compose(f)]
    return _built_here(facts)


def _built_here(facts: list[Fact]) -> list[Fact]:
    """The printed file's one service of a custom image, built from the repository's one recipe."""
    custom = [f for f in facts if f.kind == "compose.service" and is_doc_compose(f) and f.get("image")
              and not f.get("build_context") and not tech_for_image(f.get("image"))]
    recipes = sorted({f.path for f in facts if f.kind == "docker.from"})
    if len(custom) != 1 or len(recipes) != 1:
        return facts
    built = replace(custom[0], attrs=tuple(sorted((*custom[0].attrs, ("recipe", recipes[0])))))
    return [built if f is custom[0] else f for f in facts]
