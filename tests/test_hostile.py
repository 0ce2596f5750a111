"""A repository that tries to hurt the analyser: bad files never sink a run, nothing outside the
repository is read, no hook or filter runs, submodules and LFS content are never fetched.

samples/hostile holds what can be committed; everything else (symlinks out of the repository,
a 50 MB file, binary and invalid UTF-8 files, odd file names, a submodule, an LFS pointer, hooks)
is written here at run time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES, git
from repomodeler.languages import all_languages

SECRET_HOST = "secret-outside-host"
MARKER = "HOOK-RAN"

SYNTAX_FILES = {  # language -> the committed file with a syntax error in samples/hostile
    "python": "broken/syntax/bad.py", "javascript": "broken/syntax/bad.js", "typescript": "broken/syntax/bad.ts",
    "tsx": "broken/syntax/bad.tsx", "go": "broken/syntax/bad.go", "java": "broken/syntax/Bad.java",
    "kotlin": "broken/syntax/bad.kt", "csharp": "broken/syntax/Bad.cs", "rust": "broken/syntax/bad.rs",
    "ruby": "broken/syntax/bad.rb", "php": "broken/syntax/bad.php",
}

CONFIG_WARNINGS = {
    "broken/config/compose.bomb.yml": (0, "malformed compose.bomb.yml: more than 200000 YAML nodes once aliases are "
                                         "expanded (too large, or an alias bomb); skipped"),
    "broken/config/docker-compose.yml": (5, "malformed docker-compose.yml: expected ',' or ']', but got '<scalar>' "
                                            "at line 5; skipped"),
    "broken/config/deployment.yaml": (5, "malformed deployment.yaml: expected <block end>, but found "
                                         "'<block mapping start>' at line 5; skipped"),
    "broken/config/package.json": (0, "malformed package.json: nested too deeply; skipped"),
    "deploy/application.yml": (4, "malformed application.yml: expected ',' or ']', but got '<stream end>' at line 4; "
                                  "skipped"),
    "legacy/pom.xml": (0, "malformed pom.xml: pom.xml declares entities; refusing to expand them; skipped"),
}


def _outside(tmp: Path) -> Path:
    """Files outside the repository that links point at: none of their content may appear."""
    out = tmp / "outside"
    (out / "pkg").mkdir(parents=True, exist_ok=True)
    (out / "secret.py").write_text(f'import requests\nrequests.get("http://{SECRET_HOST}:9000/x")\n')
    (out / "pkg" / "app.py").write_text(f'import requests\nrequests.get("http://{SECRET_HOST}:9001/y")\n')
    return out


def build_tree(root: Path, outside: Path, *, huge_yaml: bool) -> None:
    """samples/hostile plus everything that cannot be committed."""
    shutil.copytree(SAMPLES / "hostile", root, symlinks=True)
    (root / "api" / "huge.py").write_bytes(b"# padding\n" * 5_000_000)  # 50 MB: over the size limit
    (root / "broken" / "binary.py").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 8)
    (root / "broken" / "latin1.py").write_bytes('import requests\n\nrequests.get("http://api:5000/caf\xe9")\n'
                                                .encode("latin-1"))
    (root / "broken" / "longline.js").write_text("var data = [" + "1, " * 240_000 + "1];\n")  # one 720 kB line
    (root / "data").mkdir()
    (root / "data" / "table.py").write_text("version https://git-lfs.github.com/spec/v1\n"
                                            "oid sha256:" + "ab" * 32 + "\nsize 104857600\n")
    if huge_yaml:
        (root / "deploy" / "huge.yaml").write_text("apiVersion: v1\nkind: List\nitems: [" + "1," * 210_000 + "1]\n")
    (root / "weird\nname.py").write_text('import requests\nrequests.get("http://newline-host:1/")\n')
    with open(os.path.join(os.fsencode(root), b"caf\xe9.py"), "wb") as fh:
        fh.write(b'import requests\nrequests.get("http://latin-name-host:1/")\n')
    # Symlinks: to /etc/passwd, out of the repository, a chain of links, a linked folder.
    os.symlink("/etc/passwd", root / "passwd.py")
    os.symlink(outside / "secret.py", root / "chain2.py")
    os.symlink("chain2.py", root / "chain1.py")
    os.symlink("../" * 12 + str(outside / "secret.py").lstrip("/"), root / "api" / "relative.py")
    os.symlink(outside / "pkg", root / "linked")
    os.symlink("/etc", root / "etc")


def install_hooks(repo: Path, marker: Path) -> None:
    """Every hook, an fsmonitor and a filter driver that would write `marker` if git ever ran them."""
    script = f"#!/bin/sh\necho {MARKER} >> {marker}\n"
    hooks = repo / ".git" / "hooks"
    for name in ("pre-commit", "post-checkout", "post-merge", "post-rewrite", "reference-transaction",
                 "post-index-change", "pre-auto-gc", "fsmonitor-watchman", "pre-push", "post-update", "update",
                 "pre-receive", "post-receive", "push-to-checkout", "sendemail-validate", "p4-pre-submit"):
        (hooks / name).write_text(script)
        (hooks / name).chmod(0o755)
    evil = repo.parent / "evil.sh"
    evil.write_text(script + "cat\n")
    evil.chmod(0o755)
    git(repo, "config", "core.fsmonitor", str(evil))
    git(repo, "config", "core.hooksPath", str(hooks))
    git(repo, "config", "filter.evil.smudge", str(evil))
    git(repo, "config", "filter.evil.clean", str(evil))
    git(repo, "config", "filter.evil.process", str(evil))
    git(repo, "config", "uploadpack.packObjectsHook", str(evil))


def add_submodule(repo: Path, tmp: Path) -> None:
    """A gitlink plus .gitmodules pointing at a local repository whose content must never be read."""
    sub = tmp / "subrepo"
    sub.mkdir()
    (sub / "client.py").write_text('import requests\nrequests.get("http://submodule-host:7/")\n')
    git(sub, "init", "-q")
    git(sub, "add", "-A")
    git(sub, "commit", "-q", "-m", "sub")
    sha = git(sub, "rev-parse", "HEAD")
    (repo / ".gitmodules").write_text(f'[submodule "vendored-lib"]\n\tpath = libs/sub\n\turl = file://{sub}\n')
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},libs/sub")


def dotdot_commit(repo: Path) -> str:
    """A commit whose tree has an entry named '..' (git refuses to check it out; we must not trip)."""
    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo, input=b'print("dotdot")\n',
                          capture_output=True, check=True).stdout.decode().strip()
    head_tree = git(repo, "rev-parse", "HEAD^{tree}")
    listing = subprocess.run(["git", "ls-tree", "-z", head_tree], cwd=repo, capture_output=True, check=True).stdout
    listing += f"100644 blob {blob}\t...py\0".encode() + f"100644 blob {blob}\t..\0".encode()
    tree = subprocess.run(["git", "mktree", "-z", "--missing"], cwd=repo, input=listing, capture_output=True,
                          check=True).stdout.decode().strip()
    sha = git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "dotdot")
    git(repo, "update-ref", "refs/heads/main", sha)
    return sha


def analyze(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["python", "-m", "repomodeler", "analyze", *args, "--no-validate"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


@pytest.fixture(scope="module")
def hostile_git(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("hostile")
    outside = _outside(tmp)
    repo = tmp / "hostile"
    build_tree(repo, outside, huge_yaml=True)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    add_submodule(repo, tmp)
    git(repo, "commit", "-q", "-m", "hostile")
    dotdot_commit(repo)
    marker = tmp / "marker.txt"
    install_hooks(repo, marker)
    (repo / ".gitattributes").write_text("* filter=evil\n")
    return {"repo": repo, "marker": marker, "tmp": tmp}


@pytest.fixture(scope="module")
def git_run(hostile_git: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict:
    home = tmp_path_factory.mktemp("home")
    out = hostile_git["tmp"] / "out-path"
    env_home = {**os.environ, "REPOMODELER_HOME": str(home)}
    proc = subprocess.run(["python", "-m", "repomodeler", "analyze", str(hostile_git["repo"]), "--out", str(out),
                           "--no-validate"], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env_home)
    url_out = hostile_git["tmp"] / "out-url"
    url_proc = subprocess.run(["python", "-m", "repomodeler", "analyze", f"file://{hostile_git['repo']}", "--out",
                               str(url_out), "--no-validate"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                              env=env_home)
    return {"proc": proc, "out": out, "url_proc": url_proc, "url_out": url_out, "home": home}


def model(out: Path) -> dict:
    return json.loads((out / "model.json").read_text())


def warnings_by_path(m: dict) -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {}
    for w in m["warnings"]:
        found.setdefault(w["path"], []).append((w["line"], w["message"]))
    return found


def assert_good_part_survives(m: dict) -> None:
    """The Flask service in api/ is in the model with its route (whatever the resolver names it)."""
    services = [n for n in m["nodes"] if n["kind"] == "service"]
    assert [(n["language"], [e["path"] for p in n["ports"] for e in p["endpoints"]]) for n in services] == \
        [("python", ["/orders"])]


def assert_nothing_from_outside(out: Path) -> None:
    text = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file())
    for needle in (SECRET_HOST, "root:x:0:0", "submodule-host", "newline-host", "latin-name-host", "dotdot"):
        assert needle not in text


def test_git_repository_bad_files_are_warnings_and_the_good_service_survives(git_run) -> None:
    assert git_run["proc"].returncode == 0, git_run["proc"].stderr
    m = model(git_run["out"])
    assert_good_part_survives(m)
    found = warnings_by_path(m)
    for path, expected in CONFIG_WARNINGS.items():
        assert found.get(path) == [expected], path
    assert found["broken/binary.py"] == [(0, "binary content; skipped")]
    assert (3, "not valid UTF-8 near line 3; read with replacement characters") in found["broken/latin1.py"]
    assert found["deploy/huge.yaml"] == [(0, "malformed huge.yaml: more than 200000 YAML nodes once aliases are "
                                             "expanded (too large, or an alias bomb); skipped")]
    assert "broken/longline.js" not in found  # a long line is fine: read, no warning needed
    assert "data/table.py" not in found or all("LFS" in msg for _l, msg in found["data/table.py"])


@pytest.mark.parametrize("language", sorted(SYNTAX_FILES))
def test_syntax_error_in_every_language_is_a_warning(git_run, language: str) -> None:
    if language not in all_languages():
        pytest.skip(f"no grammars/{language} folder")
    found = warnings_by_path(model(git_run["out"]))
    messages = [msg for _line, msg in found.get(SYNTAX_FILES[language], [])]
    assert messages and all(msg.startswith("syntax error near line ") and msg.endswith("read what could be parsed")
                            for msg in messages), messages


def test_git_repository_hazards_are_skipped_and_counted(git_run) -> None:
    skipped = model(git_run["out"])["stats"]["skipped"]
    assert skipped["symlink"] == 6  # passwd.py, chain1.py, chain2.py, api/relative.py, linked, etc
    assert skipped["too_large"] == 1
    assert skipped["binary"] == 1
    assert skipped["submodule"] == 1
    assert skipped["lfs_pointer"] == 1
    assert skipped["bad_name"] == 3  # newline, non-UTF-8 bytes, '..'
    assert_nothing_from_outside(git_run["out"])


def test_summary_reports_skips(git_run) -> None:
    line = next(ln for ln in git_run["proc"].stdout.splitlines() if ln.startswith("files:"))
    for part in ("bad_name 3", "binary 1", "lfs_pointer 1", "submodule 1", "symlink 6", "too_large 1"):
        assert part in line


def test_same_repository_as_url_clone_gives_the_same_model(git_run) -> None:
    assert git_run["url_proc"].returncode == 0, git_run["url_proc"].stderr
    by_path, by_url = model(git_run["out"]), model(git_run["url_out"])
    assert by_url["nodes"] == by_path["nodes"] and by_url["stats"] == by_path["stats"]
    assert_nothing_from_outside(git_run["url_out"])


def test_no_hook_fsmonitor_or_filter_ever_ran(git_run, hostile_git) -> None:
    assert not hostile_git["marker"].exists()


def test_submodule_never_fetched(git_run) -> None:
    clones = list((git_run["home"] / "repos").iterdir())
    assert len(clones) == 1
    assert not (clones[0] / "modules").exists()
    objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch-check"], cwd=clones[0],
                             capture_output=True, text=True, check=True).stdout
    gitlink = subprocess.run(["git", "ls-tree", "-r", "HEAD", "libs/sub"], cwd=clones[0], capture_output=True,
                             text=True, check=True).stdout.split()[2]
    assert gitlink not in objects  # the submodule's commit was never fetched


def test_plain_directory_hazards(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    root = tmp_path / "plain"
    build_tree(root, outside, huge_yaml=False)
    os.mkfifo(root / "api" / "pipe.py")  # a FIFO named like source: must not hang the run
    out = tmp_path / "out"
    proc = analyze([str(root), "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    m = model(out)
    assert_good_part_survives(m)
    found = warnings_by_path(m)
    for path, expected in CONFIG_WARNINGS.items():
        assert found.get(path) == [expected], path
    skipped = m["stats"]["skipped"]
    assert skipped["symlink"] == 6
    assert skipped["bad_name"] == 2  # newline, non-UTF-8 bytes
    assert skipped["too_large"] == 1 and skipped["binary"] == 1 and skipped["lfs_pointer"] == 1
    assert_nothing_from_outside(out)
