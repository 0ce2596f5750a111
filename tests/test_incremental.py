"""Incremental, parallel, audited analysis: cache hits, --jobs determinism, write-audit-publish."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, commit_all, make_repo
from repomodeler.pipeline import AnalyzeOptions, analyze
from repomodeler.records import RepomodelerError


def _run(inputs: list[str], out: Path, **kw) -> dict:
    analyze(inputs, AnalyzeOptions(out=out, validate=kw.pop("validate", False), **kw))
    return json.loads((out / "run.json").read_text())


def _many_services(root: Path, n: int = 30) -> dict[str, str]:
    files = {"docker-compose.yml": "services:\n" + "".join(
        f"  svc{i}:\n    build: ./svc{i}\n    environment:\n      NEXT_URL: http://svc{(i + 1) % n}:8080\n"
        for i in range(n))}
    for i in range(n):
        files[f"svc{i}/requirements.txt"] = "flask\nrequests\n"
        files[f"svc{i}/app.py"] = (f'import os\nimport requests\nfrom flask import Flask\napp = Flask("svc{i}")\n\n'
                                   f'@app.route("/items/{i}")\ndef item():\n'
                                   f'    return requests.get(os.getenv("NEXT_URL") + "/items").text\n')
    return files


def test_rerun_without_change_parses_nothing(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "o"
    first = _run([f"file://{repo}"], out)
    assert first["parsed_files"] > 0 and first["cached_files"] == 0
    model_before = (out / "model.json").read_bytes()
    model_mtime = (out / "model.json").stat().st_mtime_ns
    second = _run([f"file://{repo}"], out)
    assert second["parsed_files"] == 0
    assert second["unchanged"] is True and second["fingerprint"] == first["fingerprint"]
    assert (out / "model.json").stat().st_mtime_ns == model_mtime  # the published model was not rewritten
    assert second["cached_files"] >= first["parsed_files"]
    assert (out / "model.json").read_bytes() == model_before


def test_one_line_change_reparses_exactly_that_file(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "o"
    _run([f"file://{repo}"], out)
    main = repo / "orders" / "main.py"
    main.write_text(main.read_text() + '\n\n@app.delete("/orders/{order_id}")\ndef cancel(order_id: int):\n    return None\n')
    commit_all(repo)
    run = _run([f"file://{repo}"], out)
    assert run["parsed_files"] == 1
    model = json.loads((out / "model.json").read_text())
    orders = next(n for n in model["nodes"] if n["id"] == "orders")
    assert ("DELETE", "/orders/{order_id}") in {(e["method"], e["path"]) for p in orders["ports"] for e in p["endpoints"]}


def test_jobs_1_and_jobs_2_give_identical_output(tmp_path) -> None:
    repo = tmp_path / "many"
    make_repo(repo, _many_services(repo))
    a, b = tmp_path / "a", tmp_path / "b"
    _run([str(repo)], a, jobs=1, use_cache=False)
    run_b = _run([str(repo)], b, jobs=2, use_cache=False)
    assert run_b["jobs"] == 2 and run_b["parsed_files"] == 30
    for name in ("model.json", "model.sysml"):
        assert (a / name).read_bytes() == (b / name).read_bytes()
    model = json.loads((a / "model.json").read_text())
    assert len([n for n in model["nodes"] if n["kind"] == "service"]) == 30
    assert ("svc7", "svc8") in {(e["source"], e["target"]) for e in model["edges"]}


def test_crash_at_emit_keeps_previous_model_and_cache_usable(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "o"
    _run([f"file://{repo}"], out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def crash(_staging: Path) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyze([f"file://{repo}"], AnalyzeOptions(out=out, validate=False), before_publish=crash)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    again = _run([f"file://{repo}"], out)
    assert again["parsed_files"] == 0


def test_audit_refuses_a_collapsed_model_unless_accepted(tmp_path) -> None:
    repo = tmp_path / "many"
    make_repo(repo, _many_services(repo, n=6))
    out = tmp_path / "o"
    _run([str(repo)], out)
    before = (out / "model.json").read_bytes()
    (repo / "docker-compose.yml").write_text("services:\n  svc0:\n    build: ./svc0\n")
    for i in range(1, 6):
        shutil.rmtree(repo / f"svc{i}")
    commit_all(repo)
    with pytest.raises(RepomodelerError, match=r"components dropped from 6 to 2 .*--accept-drop"):
        _run([str(repo)], out)
    assert (out / "model.json").read_bytes() == before
    _run([str(repo)], out, accept_drop=True)
    assert [n["id"] for n in json.loads((out / "model.json").read_text())["nodes"] if not n.get("parent")] == ["svc0", "user"]


def test_audit_rejects_evidence_that_does_not_exist(shop_repo, tmp_path, monkeypatch) -> None:
    from repomodeler.graph import build
    from repomodeler.records import Evidence

    repo, _ = shop_repo
    original = build.Resolver.deployment_components

    def with_bogus_evidence(self) -> None:
        original(self)
        self.model.components["orders"].evidence.add(Evidence("shop", "docker-compose.yml", 9999))

    monkeypatch.setattr(build.Resolver, "deployment_components", with_bogus_evidence)
    with pytest.raises(RepomodelerError, match=r"evidence shop:docker-compose.yml:9999 of component orders"):
        _run([f"file://{repo}"], tmp_path / "o")
    assert not (tmp_path / "o").exists()


def test_changing_one_languages_queries_invalidates_only_that_language(tmp_path, monkeypatch) -> None:
    import repomodeler.extract.cache as cache_mod
    import repomodeler.languages as languages
    import repomodeler.resources as resources

    pkg = tmp_path / "pkg"
    shutil.copytree(ROOT / "grammars", pkg / "_data" / "grammars")
    monkeypatch.setattr(resources, "_PACKAGE_DIR", pkg)

    def clear() -> None:
        for fn in (resources.data_dir, languages.all_languages, languages._extension_map,
                   cache_mod.language_version):
            fn.cache_clear()

    clear()
    try:
        before = {lang: cache_mod.language_version(lang) for lang in ("python", "go", "javascript", "typescript")}
        scm = pkg / "_data" / "grammars" / "javascript" / "imports.scm"
        scm.write_text(scm.read_text() + "\n; a comment changes the query set version\n")
        clear()
        after = {lang: cache_mod.language_version(lang) for lang in before}
    finally:
        monkeypatch.undo()
        clear()
    assert after["python"] == before["python"] and after["go"] == before["go"]
    assert after["javascript"] != before["javascript"]
    assert after["typescript"] != before["typescript"]  # typescript inherits javascript's queries


def test_no_cache_and_cache_clear(shop_repo, tmp_path, _isolated_home) -> None:
    from click.testing import CliRunner

    from repomodeler.cli import cli

    repo, _ = shop_repo
    out = tmp_path / "o"
    _run([f"file://{repo}"], out)
    assert _run([f"file://{repo}"], out, use_cache=False)["parsed_files"] > 0
    result = CliRunner().invoke(cli, ["cache", "clear"])
    assert result.exit_code == 0 and "cleared" in result.output
    assert _run([f"file://{repo}"], out)["cached_files"] == 0


def test_an_upgrade_forgets_the_old_extractors_results_and_keeps_its_own(shop_repo, tmp_path, _isolated_home) -> None:
    """The cache must not grow by a copy of every repository per installed version: results keyed
    by an extractor version this code does not have are dropped when the new code first opens it."""
    import sqlite3

    from click.testing import CliRunner

    from repomodeler.cli import cli
    from repomodeler.extract.cache import default_cache_path

    repo, _ = shop_repo
    out = tmp_path / "o"
    _run([f"file://{repo}"], out)
    path = default_cache_path()
    db = sqlite3.connect(str(path))
    current = db.execute("SELECT COUNT(*) FROM facts").fetchone()[0]
    assert current > 0
    with db:  # what an older release left: its rows, and its record of the versions it wrote
        db.executemany("INSERT INTO facts (key, data) VALUES (?, ?)",
                       [(f"{i:040x}:00000000deadbeef:old/f{i}.py", "{}") for i in range(5)])
        db.execute("UPDATE meta SET v = 'older versions' WHERE k = 'versions'")
    db.close()
    assert _run([f"file://{repo}"], out)["cached_files"] > 0  # its own results still serve the rerun
    db = sqlite3.connect(str(path))
    assert db.execute("SELECT COUNT(*) FROM facts WHERE key LIKE '%:00000000deadbeef:%'").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == current
    with db:
        db.execute("INSERT INTO facts (key, data) VALUES ('ab:00000000deadbeef:x.py', '{}')")
        db.execute("UPDATE meta SET v = 'older versions' WHERE k = 'versions'")
    db.close()
    result = CliRunner().invoke(cli, ["cache", "prune"])
    assert result.exit_code == 0, result.output
    assert f"{current} current file result(s) kept, 1 more removed" in result.output


def test_timings_flag_prints_each_stage(shop_repo, tmp_path) -> None:
    from conftest import run_cli

    repo, _ = shop_repo
    proc = run_cli(["analyze", "-q", "--timings", "--no-validate", str(repo), "--out", str(tmp_path / "o")])
    assert proc.returncode == 0, proc.stderr
    for stage in ("clone", "inventory", "parse", "resolve", "emit", "audit", "total"):
        assert f"timing {stage}" in proc.stderr


def test_a_parser_crash_in_a_worker_loses_only_that_file(tmp_path, monkeypatch) -> None:
    """A native crash (segfault) in a pool worker: the other files are still read, the bad one is named."""
    import os

    import repomodeler.extract as extract_mod

    repo = tmp_path / "many"
    files = _many_services(repo)
    files["svc3/crash.py"] = "CRASH = True\n"
    make_repo(repo, files)
    original = extract_mod.file_outcome

    def crashing(repository, f, content):
        if f.path == "svc3/crash.py":
            os._exit(139)  # what a segfault looks like to the pool
        return original(repository, f, content)

    monkeypatch.setattr(extract_mod, "file_outcome", crashing)
    out = tmp_path / "o"
    _run([str(repo)], out, jobs=2, use_cache=False)
    model = json.loads((out / "model.json").read_text())
    assert len([n for n in model["nodes"] if n["kind"] == "service"]) == 30
    assert {"repository": "many", "path": "svc3/crash.py", "line": 0,
            "message": "the parser crashed on this file; skipped"} in model["warnings"]


def test_two_concurrent_runs_share_the_cache_and_clones(shop_repo, tmp_path) -> None:
    """Two analyses of the same repository at once (same REPOMODELER_HOME): both publish, same model."""
    import subprocess
    import sys

    repo, _ = shop_repo
    procs = [subprocess.Popen([sys.executable, "-m", "repomodeler", "analyze", "-q", "--no-validate", f"file://{repo}",
                               "--out", str(tmp_path / f"o{i}")], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(2)]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert (tmp_path / "o0" / "model.json").read_bytes() == (tmp_path / "o1" / "model.json").read_bytes()
    third = _run([f"file://{repo}"], tmp_path / "o2")
    assert third["parsed_files"] == 0  # the shared cache is intact and complete
