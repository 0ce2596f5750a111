"""Gradle build scripts: the build unit and the artifacts it depends on."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_gradle(repo: str, path: str, text: str) -> list[Fact]:
    facts = [fact("manifest", repo, path, 1, ecosystem="gradle", name=None)]
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.search(r"(?:implementation|api|compile|runtimeOnly)\s*\(?\s*['\"]([^:'\"]+):([^:'\"]+)", raw)
        if m:
            facts.append(fact("manifest.dependency", repo, path, i, ecosystem="maven", name=m.group(2)))
    return facts


READERS = (
    Reader("gradle", "descriptor", 170, read_gradle, patterns=(r"build\.gradle(?:\.kts)?",), line_based=True),
    # settings.gradle lists the build's modules; listed, not read.
    Reader("gradle.settings", "descriptor", 171, None, patterns=(r"settings\.gradle(?:\.kts)?",)),
)
