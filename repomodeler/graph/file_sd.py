"""Prometheus file-based discovery: the scrape targets kept in files a configuration's pattern names.

``file_sd_configs: [{files: ['/sg_prometheus_add_ons/*_targets.yml']}]`` has Prometheus read its targets
from every file the pattern matches, where the configuration is mounted with its folder; such files are
kept beside the configuration (``prometheus/prometheus_targets.yml``).  A targets file of that folder whose
name the pattern's last part matches gives Prometheus's scrape targets, as ``static_configs`` would; one
no pattern names scrapes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from repomodeler.records import Fact


def file_sd_targets(facts: list[Fact]) -> list[Fact]:
    """One repository's facts, with the targets of the discovery files a configuration names as its
    scrape targets (``monitoring.target``)."""
    patterns = [f for f in facts if f.kind == "monitoring.sd_files"]
    if not patterns:
        return facts
    out = list(facts)
    for f in facts:
        if f.kind != "monitoring.sd_target":
            continue
        here, name = PurePosixPath(f.path).parent, PurePosixPath(f.path).name
        named = [p for p in patterns if PurePosixPath(p.path).parent == here
                 and fnmatchcase(name, PurePosixPath(p.get("pattern") or "").name or "")]
        if named:
            attrs = {"value": f.get("value") or "", "job": f.get("job") or named[0].get("job") or "",
                     "via": "prometheus scrape"}
            out.append(replace(f, kind="monitoring.target", attrs=tuple(sorted(attrs.items()))))
    return out
