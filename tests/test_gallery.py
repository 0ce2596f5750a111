"""`repomodeler gallery build`: the list format (pinned commits, local folders, one-line errors) and
the whole build, offline: systems cloned from local file:// repositories at their commits, one
failing system that does not stop the others, --skip-existing, and the published static site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import SAMPLES, make_repo

from repomodeler.cli import cli
from repomodeler.gallery import is_current, load_list
from repomodeler.records import RepomodelerError

ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ the lists
def test_shipped_lists_parse_and_pin_every_remote_commit() -> None:
    real = load_list(SAMPLES / "real-systems.yml")
    names = [s.name for s in real]
    assert {"online-boutique", "ollama", "temporal"} <= set(names) and len(names) == len(set(names)) >= 6
    urls = {s.url for system in real for s in system.sources}
    assert "https://github.com/GoogleCloudPlatform/microservices-demo" in urls
    assert "https://github.com/ollama/ollama" in urls and "https://github.com/temporalio/temporal" in urls
    for system in real:
        for source in system.sources:
            assert source.url and source.url.startswith("https://github.com/") and len(source.commit or "") == 40
            assert source.input == f"{source.url}@{source.commit}"
    assert len(next(s for s in real if s.name == "sock-shop").sources) == 8  # one system, many repositories
    bundled = load_list(SAMPLES / "gallery.yml")
    assert [s.name for s in bundled] == ["shop", "spring-cloud", "grpc-mesh", "polyglot-events", "node-python"]
    for system in bundled:  # the offline default: local folders only
        assert all(s.url is None and s.path is not None and s.path.is_dir() for s in system.sources)


@pytest.mark.parametrize(
    "text,message",
    [
        ("systems: []\n", "the 'systems' list is empty"),
        ("- a\n", "expected a mapping with a 'systems' list"),
        ("systems:\n  - name: x\n    repositories:\n      - url: https://github.com/a/b\n        commit: main\n",
         "system 1 ('x'), repository 1: 'commit' must be a full 40-character commit SHA"),
        ("systems:\n  - name: x\n    repositories:\n      - url: https://github.com/a/b@" + "a" * 40 + "\n        commit: " + "a" * 40 + "\n",
         "put the commit in 'commit', not in the URL"),
        ("systems:\n  - name: x\n    repositories:\n      - url: http://example.com/a\n        commit: " + "a" * 40 + "\n",
         "'url' must be an https://, ssh://, git:// or file:// git URL"),
        ("systems:\n  - name: ../x\n    repositories:\n      - path: shop\n", "'name' must be letters, digits"),
        ("systems:\n  - name: x\n    repositories: []\n", "'repositories' must be a non-empty list"),
        ("systems:\n  - name: x\n    repositories:\n      - path: a\n  - name: X\n    repositories:\n      - path: b\n",
         "system 2 ('X'): the name is used twice"),
        ("systems:\n  - name: x\n    repo: a\n    repositories:\n      - path: a\n", "unknown key(s) repo"),
        ("systems:\n  - name: x\n    repositories:\n      - path: a\n        commit: " + "a" * 40 + "\n",
         "give either 'path' or 'url' with 'commit', not both"),
        ("systems: [\n", "not valid YAML"),
        ("systems:\n  - name: x\n    repositories:\n      - url: https://github.com/a/b\n        commit: " + "1" * 40 + "\n",
         "YAML read 'commit' as a number; put the SHA in quotes"),
    ],
)
def test_list_errors_are_one_line_naming_the_entry(tmp_path: Path, text: str, message: str) -> None:
    listed = write(tmp_path / "list.yml", text)
    with pytest.raises(RepomodelerError) as info:
        load_list(listed)
    assert message in str(info.value) and str(listed) in str(info.value) and "\n" not in str(info.value)


def test_missing_list_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["gallery", "build", str(tmp_path / "nope.yml"), "--models", str(tmp_path / "m")])
    assert result.exit_code == 1 and "does not exist" in result.output


# ------------------------------------------------------------------------------------ building
@pytest.fixture()
def repos(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Local git repositories standing in for the forge: name -> (file:// URL, commit)."""
    found = {}
    for name in ("shop", "grpc-mesh"):
        sha = make_repo(tmp_path / "forge" / name, source=SAMPLES / name)
        found[name] = ((tmp_path / "forge" / name).as_uri(), sha)
    return found


def test_build_clones_pinned_commits_and_publishes_the_site(tmp_path: Path, repos: dict[str, tuple[str, str]]) -> None:
    shop_url, shop_sha = repos["shop"]
    mesh_url, mesh_sha = repos["grpc-mesh"]
    # a later commit on the forge must not be what the gallery shows: the list pins the first one
    (tmp_path / "forge" / "shop" / "LATER.md").write_text("later\n")
    from conftest import commit_all

    later = commit_all(tmp_path / "forge" / "shop", "later")
    assert later != shop_sha
    (tmp_path / "local").mkdir()
    listed = write(tmp_path / "list.yml", f"""
systems:
  - name: shop
    about: the shop sample from a local forge
    repositories:
      - url: {shop_url}
        commit: {shop_sha}
  - name: mesh
    repositories:
      - url: {mesh_url}
        commit: {mesh_sha}
  - name: broken
    repositories:
      - url: {shop_url}
        commit: {"dead" * 10}
  - name: events
    repositories:
      - path: {SAMPLES / "polyglot-events"}
""")
    models, site = tmp_path / "models", tmp_path / "site"
    result = CliRunner().invoke(cli, ["gallery", "build", str(listed), "--models", str(models), "--site", str(site),
                                      "--no-validate", "-j", "1"])
    assert result.exit_code == 1, result.output  # one system failed ...
    assert "broken: FAILED" in result.output and "1 system(s) failed: broken" in result.output
    # ... and the others were built and published
    assert "[1/4] shop:" in result.output and "components" in result.output
    assert sorted(p.name for p in models.iterdir() if (p / "model.json").exists()) == ["events", "mesh", "shop"]
    shop = json.loads((models / "shop" / "model.json").read_text())
    assert [r["commit"] for r in shop["repositories"]] == [shop_sha]
    assert {n["id"] for n in shop["nodes"]} >= {"orders", "payments"}
    assert (site / "index.html").is_file() and (site / "models" / "mesh.html").is_file()
    index = (site / "index.html").read_text()
    for name in ("shop", "mesh", "events"):
        assert f'data-name="{name}"' in index
    assert shop_sha[:7] in index  # the card names the pinned commit
    assert "published 3 model(s)" in result.output

    # a second build with --skip-existing leaves the pinned systems alone (no clone needed)
    systems = {s.name: s for s in load_list(listed)}
    assert is_current(systems["shop"], models / "shop") and not is_current(systems["events"], models / "events")
    again = CliRunner().invoke(cli, ["gallery", "build", str(listed), "--models", str(models), "--site", str(site),
                                     "--no-validate", "-j", "1", "--skip-existing", "--only", "shop", "--only", "mesh"])
    assert again.exit_code == 0, again.output
    assert "shop: already analysed at the listed commits, skipped" in again.output
    assert "mesh: already analysed at the listed commits, skipped" in again.output


def test_a_bug_in_one_system_does_not_lose_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import repomodeler.pipeline as pipeline

    def analyze(inputs: list[str], options: object) -> object:
        if "broken" in str(getattr(options, "name", "")):
            raise KeyError("boom")
        out = getattr(options, "out")
        out.mkdir(parents=True)
        (out / "model.json").write_text(json.dumps({"name": "fine", "repositories": [], "nodes": [], "edges": []}))
        return type("R", (), {"out": out})()

    monkeypatch.setattr(pipeline, "analyze", analyze)
    listed = write(tmp_path / "list.yml", "systems:\n  - name: broken\n    repositories:\n      - path: a\n"
                                          "  - name: fine\n    repositories:\n      - path: b\n")
    result = CliRunner().invoke(cli, ["gallery", "build", str(listed), "--models", str(tmp_path / "m"), "--site", str(tmp_path / "s")])
    assert result.exit_code == 1
    assert "[1/2] broken: FAILED: internal error (KeyError: 'boom')" in result.output
    assert "[2/2] fine: 0 components, 0 connections" in result.output and "published 1 model(s)" in result.output


def test_only_must_name_a_system(tmp_path: Path) -> None:
    listed = write(tmp_path / "list.yml", f"systems:\n  - name: shop\n    repositories:\n      - path: {SAMPLES / 'shop'}\n")
    result = CliRunner().invoke(cli, ["gallery", "build", str(listed), "--models", str(tmp_path / "m"), "--only", "nope"])
    assert result.exit_code == 1 and "--only names no system of the list: nope" in result.output


def test_readme_documents_the_gallery_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "repomodeler gallery build samples/real-systems.yml" in readme
