"""Issue 23, point 5: `publish` writes the site into a staging folder and swaps it in like a model:
a removed model's pages leave the site, and a kill at any step leaves the old or the new site
complete (with the user's own files in the site folder kept)."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

from repomodeler import publish
from repomodeler.pipeline import AnalyzeOptions, analyze
from repomodeler.serve.publish import publish_site

from conftest import SAMPLES, make_repo


def _tree(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(site.rglob("*")) if p.is_file() and p.name != publish.MANIFEST}


@pytest.fixture(scope="module")
def two_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("site")
    saved = os.environ.get("REPOMODELER_HOME")
    os.environ["REPOMODELER_HOME"] = str(tmp / "home")
    try:
        repo = tmp / "shop"
        make_repo(repo, source=SAMPLES / "shop")
        models = tmp / "models"
        for name in ("alpha", "beta"):
            analyze([str(repo)], AnalyzeOptions(out=models / name, name=name, validate=False, jobs=1))
        publish_site(models, tmp / "ref-old")
        shutil.rmtree(models / "beta")
        publish_site(models, tmp / "ref-new")
    finally:
        if saved is None:
            del os.environ["REPOMODELER_HOME"]
        else:
            os.environ["REPOMODELER_HOME"] = saved
    return {"models": models, "old": _tree(tmp / "ref-old"), "new": _tree(tmp / "ref-new"),
            "template": tmp / "ref-old", "home": tmp / "home"}


def test_safety_republish_drops_a_removed_model(two_sites, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REPOMODELER_HOME", str(two_sites["home"]))  # the history the reference sites read snippets by
    old, new = two_sites["old"], two_sites["new"]
    assert "models/beta.html" in old and "data/beta.js" in old
    assert not [k for k in new if "beta" in k], new
    site = tmp_path / "site"
    shutil.copytree(two_sites["template"], site)  # the site with beta; beta is gone from the models now
    assert (site / publish.MANIFEST).is_file()
    publish_site(two_sites["models"], site)
    assert _tree(site) == new


def test_safety_republish_over_an_old_site_without_manifest(two_sites, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REPOMODELER_HOME", str(two_sites["home"]))  # the history the reference sites read snippets by
    site = tmp_path / "site"
    shutil.copytree(two_sites["template"], site)
    (site / publish.MANIFEST).unlink()  # a site published before the manifest existed
    (site / "CNAME").write_text("models.example.org\n")
    publish_site(two_sites["models"], site)
    assert _tree(site) == {**two_sites["new"], "CNAME": _tree(site)["CNAME"]}
    assert (site / "CNAME").read_text() == "models.example.org\n"


def _crash_child(models: Path, site: Path, step: int, home: Path) -> int:
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.environ["REPOMODELER_HOME"] = str(home)
            os.environ[publish.CRASH_ENV] = str(step)
            publish._steps_seen = 0
            sys.stderr = open(os.devnull, "w")
            publish_site(models, site)
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return status


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_safety_kill_at_every_step_of_publish_leaves_old_or_new_site(two_sites, tmp_path, monkeypatch,
                                                                     exchange) -> None:
    monkeypatch.setattr(publish, "exchange_enabled", exchange)
    monkeypatch.setenv("REPOMODELER_HOME", str(two_sites["home"]))
    template = tmp_path / "template"
    shutil.copytree(two_sites["template"], template)
    (template / "CNAME").write_text("mine\n")
    expect = {label: {**two_sites[label], "CNAME": hashlib.sha256(b"mine\n").hexdigest()} for label in ("old", "new")}
    seen = set()
    step = 0
    while True:
        step += 1
        site = tmp_path / f"s{step}" / "site"
        shutil.copytree(template, site)
        status = _crash_child(two_sites["models"], site, step, two_sites["home"])
        if os.WIFEXITED(status):
            assert os.WEXITSTATUS(status) == 0
            assert _tree(site) == expect["new"]
            break
        assert os.WTERMSIG(status) == signal.SIGKILL
        with publish.output_lock(site):  # the next writer's recovery
            pass
        tree = _tree(site)
        label = next((k for k, v in expect.items() if v == tree), None)
        assert label is not None, (step, sorted(set(tree) ^ set(expect["old"])))
        seen.add(label)
        assert sorted(p.name for p in site.parent.iterdir()) == ["site"]
    assert step > 10 and seen == {"old", "new"}, (step, seen)
