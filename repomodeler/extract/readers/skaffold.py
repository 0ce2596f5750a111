"""Skaffold configurations (``skaffold.yaml``): the Kubernetes manifests a ``skaffold dev`` / ``skaffold
run`` applies, and the images it builds from which folders.

Why: a repository keeps more manifests than it deploys (an Ingress left commented out of the list, a
debugging pod, an alternative database); where Skaffold is how the project is run, the list of manifest
files (``manifests.rawYaml`` from schema v2beta on, ``deploy.kubectl.manifests`` before) says which are
the deployment.  Each glob becomes a ``skaffold.manifests`` fact, relative to the configuration's folder;
the profiles' lists count too (a guide often applies several in turn), so only a manifest no list names is
left out.
"""

from __future__ import annotations

import posixpath
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


def read_skaffold(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    base = str(PurePosixPath(path).parent)
    for doc in load_yaml_documents(text):
        if not (scalar(get(doc, "apiVersion")) or "").startswith("skaffold/"):
            continue
        # (the default lists and the profiles', which a project's guide applies one after another:
        # `skaffold run -p local1` for the secrets and ingress, then the services)
        sections = [doc, *(p for p in seq(get(doc, "profiles")))]
        globs = [g for sec in sections for g in (*seq(get(get(sec, "manifests"), "rawYaml")),
                                                 *seq(get(get(get(sec, "deploy"), "kubectl"), "manifests")))]
        for item in globs:
            pattern = (scalar(item) or "").strip()
            if not pattern or pattern.startswith(("http://", "https://", "/")) or ".." in pattern.split("/"):
                continue
            full = posixpath.normpath(posixpath.join("" if base == "." else base, pattern))
            facts.append(fact("skaffold.manifests", repo, path, node_line(item), pattern=full))
        # The images it builds (`build.artifacts`: `image: unguard-frontend`, `context: src/frontend-nextjs`): the
        # code each image holds, as an image build script's line says (a manifest or chart then runs the image
        # under a registry and owner, ghcr.io/acme/unguard-frontend)
        for sec in sections:
            for art in seq(get(get(sec, "build"), "artifacts")):
                image = (scalar(get(art, "image")) or "").strip()
                context = (scalar(get(art, "context")) or ".").strip()
                if not image or "{{" in image or context.startswith("/") or ".." in context.split("/"):
                    continue
                module = posixpath.normpath(posixpath.join("" if base == "." else base, context))
                facts.append(fact("manifest.image", repo, path, node_line(get(art, "image")), ecosystem="docker",
                                  image=image, module="" if module == "." else module, tool="skaffold"))
    return facts


READERS = (
    Reader("skaffold", "descriptor", 212, read_skaffold, patterns=(r"skaffold(?:[.-][^/]*)?\.ya?ml",)),
)
