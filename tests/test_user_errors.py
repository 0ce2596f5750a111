"""User errors name the input or path instead of "internal error ... please report it" (issue #14,
part 8): malformed rules files, too-deep SysML or JSON, a full disk or a file-size limit."""

from __future__ import annotations

import errno

import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES


def cli(*args: str, cwd: Path = ROOT, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, **kw)  # type: ignore[call-overload]


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode in (1, 2) and "internal error" not in done.stderr, done.stderr  # check: usage = 2
    return lines[-1]


@pytest.fixture(scope="module")
def shop_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("ue")
    shutil.copytree(SAMPLES / "shop", tmp / "shop")
    done = cli("analyze", str(tmp / "shop"), "--out", str(tmp / "models" / "shop"), "--no-validate", "-q",
               env={"REPOMODELER_HOME": str(tmp / "home"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert cli("target", "init", str(tmp / "models" / "shop"), "--out", str(tmp / "t.sysml")).returncode == 0
    return tmp


@pytest.mark.parametrize("text,expected", [
    ("forbid: [\n  - {to: x\n", "bad.yml:2:3: the rules file is not valid YAML (expected the node content, but found '-')"),
    ("forbid: 5\n", "bad.yml: 'forbid' must be a list of rules (- {to: name})"),
    ("forbid:\n  - {to: [a, b], nope: 1}\n", "bad.yml: forbid #1: unknown key(s) nope"),
])
def test_malformed_rules_file_names_the_file_and_line(shop_model: Path, text: str, expected: str) -> None:
    (shop_model / "bad.yml").write_text(text)
    done = cli("check", "--target", "t.sysml", "--rules", "bad.yml", "shop", cwd=shop_model)
    assert one_line(done).startswith(f"error: {expected}"), done.stderr


def test_too_deep_sysml_names_the_file(shop_model: Path) -> None:
    depth = 20_000
    (shop_model / "deep.sysml").write_text("package P {\n" + "package Q {\n" * depth + "}\n" * depth + "}\n")
    expected = "error: deep.sysml: the SysML is nested too deeply to read; flatten the nesting"
    assert one_line(cli("diff", "models/shop", "deep.sysml", cwd=shop_model)) == expected
    assert one_line(cli("check", "--target", "deep.sysml", "shop", cwd=shop_model)) == expected


def test_too_deep_model_json_names_the_file(shop_model: Path) -> None:
    deep = shop_model / "deepmodel"
    deep.mkdir(exist_ok=True)
    (deep / "model.json").write_text("[" * 100_000 + "]" * 100_000)
    expected = "error: cannot read 'deepmodel/model.json': the JSON is nested too deeply"
    assert one_line(cli("diff", "deepmodel", "models/shop", cwd=shop_model)) == expected
    assert one_line(cli("export", "deepmodel", "--format", "mermaid", cwd=shop_model)) == expected


def test_file_size_limit_names_the_file_and_keeps_the_previous_model(shop_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "models" / "shop"
    shutil.copytree(shop_model / "models" / "shop", out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (shop_model / "shop" / "extra.py").write_text("import requests\nrequests.get('http://payments:8080/x')\n")

    def limit() -> None:  # Python ignores SIGXFSZ, so a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (8000, 8000))

    done = cli("analyze", str(shop_model / "shop"), "--out", str(out), "--no-validate", "--no-cache", "-q",
               preexec_fn=limit)
    line = one_line(done)
    assert line.startswith(f"error: cannot write '{out.parent}/.shop.staging-") and \
        "the file is larger than the system allows" in line, line
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["shop"]


def test_disk_full_names_the_path(shop_model: Path, tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from repomodeler import cli as cli_module
    from repomodeler import publish

    real_open = open

    def full(path, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if "w" in mode and str(path).endswith("model.sysml"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(publish, "open", full, raising=False)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli_module.cli, ["analyze", str(shop_model / "shop"), "--out", str(out),
                                                 "--no-validate", "-q"])
    assert result.exit_code == 1
    assert "no space left on the device" in result.output and ".staging-" in result.output
    assert "model.sysml" in result.output and "internal error" not in result.output
    assert not out.exists()


def test_os_errors_that_are_bugs_stay_internal_errors(monkeypatch, capsys) -> None:
    from repomodeler import cli as cli_module

    def boom(*a, **k):  # type: ignore[no-untyped-def]
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(cli_module, "cli", boom)
    monkeypatch.delenv("REPOMODELER_DEBUG", raising=False)
    with pytest.raises(SystemExit) as info:
        cli_module.main()
    assert info.value.code == 2
    assert "internal error (OSError" in capsys.readouterr().err



FULL_DB_PROBE = """
import runpy, sys
from repomodeler.extract.cache import FactCache

which = sys.argv.pop(1)
if which == "cache":
    real_open = FactCache._open

    def full_open(self):  # no page may be added: what a full disk does to SQLite (SQLITE_FULL)
        real_open(self)
        pages = self.db.execute("PRAGMA page_count").fetchone()[0]
        self.db.execute(f"PRAGMA max_page_count = {pages}")

    FactCache._open = full_open
else:
    from repomodeler.store import runs

    real_connect = runs._connect

    def full_connect(path):  # the new history database cannot grow past its first page
        db = real_connect(path)
        db.execute("PRAGMA max_page_count = 1")
        return db

    runs._connect = full_connect
sys.argv = ["repomodeler"] + sys.argv[1:]
runpy.run_module("repomodeler", run_name="__main__")
"""


@pytest.mark.parametrize("which", ["cache", "history"])
def test_full_disk_under_the_cache_or_history_names_the_file(shop_model: Path, tmp_path: Path, which: str) -> None:
    out = tmp_path / "models" / "shop"
    shutil.copytree(shop_model / "models" / "shop", out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    source = tmp_path / "shop"
    shutil.copytree(shop_model / "shop", source)
    (source / "extra.py").write_text("import requests\nrequests.get('http://payments:8080/x')\n")
    home = tmp_path / "home"
    done = subprocess.run([sys.executable, "-c", FULL_DB_PROBE, which, "analyze", str(source), "--out", str(out),
                           "--no-validate", "-q"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"REPOMODELER_HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    if which == "cache":  # before publishing: the run fails in one line, the previous model stays
        assert done.returncode == 1, done.stderr
        assert done.stderr.strip().splitlines()[-1] == (
            f"error: cannot write the fact cache '{home / 'cache.sqlite'}': the disk is full (or a file-size limit was "
            "reached); free some space (or "
            "set REPOMODELER_HOME to a folder on a disk with room) and rerun (the previous model, if any, was kept)")
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    else:  # after publishing: the new model stays published, the history warns in one line
        assert done.returncode == 0, done.stderr
        assert done.stderr.strip().splitlines() == [
            f"warning: the run was not recorded in the history '{home / 'runs.sqlite'}': the disk is full; free "
            "some space for the next runs (the model was published)"]
        assert (out / "run.json").read_bytes() != before["run.json"]  # the new run was published
    assert sorted(p.name for p in out.parent.iterdir()) == ["shop"]
