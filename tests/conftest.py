"""Shared fixtures: local git repositories built at test time (never the network) and CLI runners."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
# Every resolver rule may read only the fact kinds, write only the parts of the model and use only the shared
# state it declares (repomodeler/rules/); strict runs refuse anything else.
os.environ.setdefault("REPOMODELER_STRICT_PASSES", "1")


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z"}
    return subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def local_repository(path: Path, kind: str):
    """A Repository record for a folder built by a test: a git commit (`kind` "git") or a plain folder ("dir")."""
    from repomodeler.records import RepoSpec, Repository

    spec = RepoSpec(raw=str(path), kind="path", location=str(path), ref=None, name=path.name)
    return Repository(name=path.name, spec=spec, checkout=path, kind=kind,
                      commit=git(path, "rev-parse", "HEAD") if kind == "git" else None, url=None)


def make_repo(path: Path, files: dict[str, str] | None = None, source: Path | None = None) -> str:
    """Create a git repository at `path` from a folder and/or a dict of files; return the commit SHA."""
    path.mkdir(parents=True, exist_ok=True)
    if source is not None:
        shutil.copytree(source, path, dirs_exist_ok=True)
    for rel, text in (files or {}).items():
        target = path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    git(path, "init", "-q")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return git(path, "rev-parse", "HEAD")


def commit_all(path: Path, message: str = "change") -> str:
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", message)
    return git(path, "rev-parse", "HEAD")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own clone cache so tests never share state."""
    home = tmp_path_factory.mktemp("rmhome")
    monkeypatch.setenv("REPOMODELER_HOME", str(home))
    return home


@pytest.fixture
def shop_repo(tmp_path: Path) -> tuple[Path, str]:
    """The shop sample as a git repository; returns (path, commit)."""
    repo = tmp_path / "shop"
    sha = make_repo(repo, source=SAMPLES / "shop")
    return repo, sha


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run_cli(args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run the real console entry point in a subprocess (what a user runs)."""
    return subprocess.run(["python", "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT)
