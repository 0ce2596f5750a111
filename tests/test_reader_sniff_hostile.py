"""Every reader decides quickly whether it wants a file, whatever the file's first lines.

A sniffing pattern with nested repetition (``(\\s*...\\n)*``) backtracks exponentially on a file
opening with a few dozen blank lines: one such YAML file in a repository stalled a whole analysis.
These heads would make such a pattern run for hours, so a regression shows as a test that never ends.
"""

from __future__ import annotations

import pytest

from repomodeler.extract.readers.registry import READERS, reader_for

HOSTILE_HEADS = [
    "\n" * 60 + "x",
    " \n" * 60 + "x",
    "\t\n" * 60 + "x",
    "#\n" * 60 + "x",
    "---\n" * 60 + "x",
    "# a  \n" * 60 + "x",
    " # b\n --- \n" * 60 + "x",
    "\r\n" * 60 + "x",
    " " * 5000 + "x",
    "- " * 3000 + "x",
    "a: " * 3000,
    "{" * 3000,
    "[" * 3000,
]


@pytest.mark.parametrize("head", HOSTILE_HEADS, ids=range(len(HOSTILE_HEADS)))
def test_every_reader_rules_out_a_hostile_head(head: str) -> None:
    for path in ("deploy/config.yml", "prometheus/targets.yaml", "docker-compose.yml", "app/settings.json",
                 "conf/app.conf", "Caddyfile", "main.tf", "values.yaml"):
        for r in READERS:
            r.recognises(path, head)
        reader_for(path, head)


def test_a_targets_file_after_blank_and_comment_lines_is_still_read() -> None:
    r = reader_for("sd/targets.yml", "\n# scraped by prometheus\n---\n  \n- targets: ['api:9100']\n")
    assert r is not None and r.id == "prometheus"
