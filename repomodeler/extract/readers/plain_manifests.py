"""Manifests read for their presence only (Composer): one build unit each."""

from __future__ import annotations


from repomodeler.extract.readers._base import ReadFn, Reader, fact
from repomodeler.records import Fact


def _generic_manifest(ecosystem: str) -> ReadFn:
    def read(repo: str, path: str, text: str) -> list[Fact]:
        return [fact("manifest", repo, path, 1, ecosystem=ecosystem, name=None)]
    return read


# Each reader is named "read" on its facts (the name its function has always had).
READERS = (
    Reader("plain_manifests.composer", "descriptor", 240, _generic_manifest("php"), names=frozenset({"composer.json"})),
)
