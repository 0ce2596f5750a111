"""The driver reads a work tree's HEAD from its files exactly as git answers it, or asks git."""

from __future__ import annotations

import os
from pathlib import Path

from repomodeler.acquire import _worktree_head
from repomodeler.landscape.heads import read_head
from tests.conftest import commit_all, git, make_repo


def _same_as_git(path: Path) -> tuple[Path, str]:
    mine, gits = read_head(path), _worktree_head(path)
    assert mine is not None and gits is not None
    assert mine == (gits[0].resolve(), gits[1])
    return mine


def test_branch_loose_packed_and_detached(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    first = make_repo(repo, {"a.py": "a = 1\n"})
    assert _same_as_git(repo)[1] == first  # a loose ref
    git(repo, "pack-refs", "--all")
    assert not any((repo / ".git" / "refs" / "heads").iterdir())
    assert _same_as_git(repo)[1] == first  # only in packed-refs
    (repo / "a.py").write_text("a = 2\n")
    second = commit_all(repo)
    assert _same_as_git(repo)[1] == second  # a loose ref newer than the packed one
    git(repo, "checkout", "-q", "--detach", first)
    assert _same_as_git(repo)[1] == first  # detached HEAD
    git(repo, "checkout", "-q", "-b", "feature/x", second)  # a branch name with a slash, loose
    assert _same_as_git(repo)[1] == second


def test_symbolic_ref_chain_is_followed(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    commit = make_repo(repo, {"a.py": "a = 1\n"})
    branch = git(repo, "symbolic-ref", "--short", "HEAD")
    git(repo, "symbolic-ref", "refs/heads/alias", f"refs/heads/{branch}")
    git(repo, "symbolic-ref", "HEAD", "refs/heads/alias")
    assert _same_as_git(repo)[1] == commit


def test_layouts_only_git_should_read_are_left_to_git(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    make_repo(repo, {"a.py": "a = 1\n"})
    # a linked work tree (.git is a file)
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"))
    assert read_head(tmp_path / "linked") is None and _worktree_head(tmp_path / "linked") is not None
    # an unborn branch
    branch = git(repo, "symbolic-ref", "HEAD")
    git(repo, "symbolic-ref", "HEAD", "refs/heads/unborn")
    assert read_head(repo) is None and _worktree_head(repo) is None
    git(repo, "symbolic-ref", "HEAD", branch)
    # config that moves the work tree or includes other files
    config = repo / ".git" / "config"
    base = config.read_text()
    for extra in ("[core]\n\tworktree = /elsewhere\n", "[include]\n\tpath = other.cfg\n",
                  "[extensions]\n\trefStorage = reftable\n", "[core]\n\tbare = true\n",
                  "[core]\n\tbare\n", "[core]\n\tbare = YES ; set by hand\n", "[core]\n\tworktree=../x\n"):
        config.write_text(base + extra)
        assert read_head(repo) is None, extra
    config.write_text(base + "[core]\n\tbare = false\n")  # what git init writes: an ordinary work tree
    assert read_head(repo) is not None
    config.write_text(base)
    assert read_head(repo) is not None
    # not a repository, or a .git symlink
    plain = tmp_path / "plain"
    plain.mkdir()
    assert read_head(plain) is None
    other = tmp_path / "other"
    other.mkdir()
    os.symlink(repo / ".git", other / ".git")
    assert read_head(other) is None


def test_a_missing_ref_file_is_no_answer(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    make_repo(repo, {"a.py": "a = 1\n"})
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/nowhere\n")
    assert read_head(repo) is None
