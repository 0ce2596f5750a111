"""Issue #13, push: ``repomodeler push MODEL_DIR --api URL`` posts the model to a Systems Modeling API
server as a commit of element records with stable ``@id``s; a changed model is a new commit.

The server is a real one: ``longeron serve`` (PyPI ``longeron[server]``), started here on a free
loopback port over a git work tree.  longeron materializes a posted commit as ``.sysml`` text in the
work tree (it never runs ``git commit`` itself; the test commits, as its user would), so the pushed
model is read back through the API (``/commits/{id}/elements``) at each commit.  The record-level
guarantees (stable ids, provenance as metadata usages, only changes in a second commit) are checked
on the records themselves, which is what a pilot or Flexo server stores.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from conftest import SAMPLES, git, make_repo
from repomodeler.cli import cli
from repomodeler.commands.push import plan_changes
from repomodeler.emit.api_records import api_records, element_id, structural
from repomodeler.emit.graph_io import load_model_dir
from repomodeler.pipeline import AnalyzeOptions, analyze


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float = 600) -> object:
    with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - loopback only
        return json.loads(resp.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(base URL, served git work tree) of a `longeron serve` on a free loopback port."""
    pytest.importorskip("fastapi")
    if shutil.which("longeron") is None and not (Path(sys.executable).parent / "longeron").exists():
        pytest.skip("longeron is not installed (pip install 'longeron[server]')")
    served = tmp_path_factory.mktemp("served") / "shop"
    served.mkdir()
    make_repo(served, {"README.md": "pushed models\n"})
    port = _free_port()
    exe = shutil.which("longeron") or str(Path(sys.executable).parent / "longeron")
    log = open(served.parent / "serve.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([exe, "serve", "--host", "127.0.0.1", "--port", str(port), str(served)],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                _get(url + "/", timeout=5)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("longeron serve did not start: " + (served.parent / "serve.log").read_text())
                time.sleep(0.3)
        yield url, served
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two model folders of the shop sample: as analysed, and the same model without the cache service."""
    base = tmp_path_factory.mktemp("push-models")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(base / "home"))
        repo = base / "shop"
        make_repo(repo, source=SAMPLES / "shop")
        first = analyze([str(repo)], AnalyzeOptions(out=base / "v1", validate=False)).out
    second = base / "v2"
    second.mkdir()
    data = json.loads((first / "model.json").read_text(encoding="utf-8"))
    data["nodes"] = [n for n in data["nodes"] if n["id"] != "cache"]
    data["edges"] = [e for e in data["edges"] if "cache" not in (e["source"], e["target"])]
    (second / "model.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    return first, second


# ------------------------------------------------------------------------------ records, no server
def test_ids_are_stable_across_commits_and_derived_from_qualified_names(versions: tuple[Path, Path]) -> None:
    one, two = (api_records(load_model_dir(v)) for v in versions)
    named = {r["@id"]: r for r in one}
    orders = element_id("shop::ShopSystem::orders")
    port = element_id("shop::ShopSystem::payments::to_api_stripe_com_http")
    assert named[orders]["declaredName"] == "orders" and named[port]["@type"] == "PortUsage"
    stripe = named[element_id("shop::ShopSystem::api_stripe_com")]
    assert stripe["declaredShortName"] == "api.stripe.com"
    both = {r["@id"] for r in one} & {r["@id"] for r in two}
    assert orders in both and port in both and element_id("shop::ShopSystem::orders_payments_http") in both
    assert element_id("shop::ShopSystem::cache") not in {r["@id"] for r in two}
    assert len({r["@id"] for r in one}) == len(one)  # unique
    # records are the same for the same commit (deterministic, no time)
    assert json.dumps(api_records(load_model_dir(versions[0]))) == json.dumps(one)


def test_provenance_is_kept_as_metadata_usages(versions: tuple[Path, Path]) -> None:
    records = {r["@id"]: r for r in api_records(load_model_dir(versions[0]))}
    orders = records[element_id("shop::ShopSystem::orders")]
    owned = [records[records[m["@id"]]["target"][0]["@id"]] for m in orders["ownedRelationship"]
             if records[m["@id"]]["@type"] == "FeatureMembership"]
    refs = [o for o in owned if o["@type"] == "MetadataUsage"]
    assert refs
    typing = [records[m["@id"]] for m in refs[0]["ownedRelationship"] if records[m["@id"]]["@type"] == "FeatureTyping"]
    assert typing[0]["type"]["@id"] == element_id("RepoModeler::SourceRef")
    values = {}
    for m in refs[0]["ownedRelationship"]:
        rel = records[m["@id"]]
        if rel["@type"] == "FeatureMembership":
            feature = records[rel["target"][0]["@id"]]
            fv = next(records[x["@id"]] for x in feature["ownedRelationship"] if records[x["@id"]]["@type"] == "FeatureValue")
            values[feature["declaredName"]] = records[fv["value"]["@id"]]["value"]
    assert values == {"repository": "shop", "path": "docker-compose.yml", "line": values["line"]}
    assert isinstance(values["line"], int)
    package = records[element_id("shop")]
    repo_meta = [records[records[m["@id"]]["target"][0]["@id"]] for m in package["ownedRelationship"]]
    assert any(m["@type"] == "MetadataUsage" for m in repo_meta)  # @Repository { repository; commit }


def test_a_second_push_carries_only_the_changes(versions: tuple[Path, Path]) -> None:
    one, two = (api_records(load_model_dir(v)) for v in versions)
    assert plan_changes(one, one) == []  # nothing changed: nothing to push
    change = plan_changes(two, one)
    deleted = {c["identity"]["@id"] for c in change if c["payload"] is None}
    assert element_id("shop::ShopSystem::cache") in deleted
    assert element_id("shop::ShopSystem::orders_cache_redis") in deleted
    assert all(c["payload"] is None or c["payload"]["@id"] == c["identity"]["@id"] for c in change)
    assert len(change) < len(two) / 2  # the unchanged bulk of the model is not sent again
    assert not any(c["payload"] and c["payload"].get("declaredName") == "payments" for c in change)


# ----------------------------------------------------------------------------- a real API server
def _elements(url: str, project: str, commit: str) -> list[dict]:
    return _get(f"{url}/projects/{project}/commits/{commit}/elements")  # type: ignore[return-value]


def test_push_to_a_real_api_server_and_a_changed_model_is_a_new_commit(
        server: tuple[str, Path], versions: tuple[Path, Path]) -> None:
    url, served = server
    runner = CliRunner()
    first = runner.invoke(cli, ["push", str(versions[0]), "--api", url, "--project", "shop"])
    assert first.exit_code == 0, first.output
    assert "pushed " in first.output and "longeron serve keeps structure only" in first.output
    project = _get(url + "/projects")[0]["@id"]  # type: ignore[index]
    head = {r.get("declaredName"): r for r in _elements(url, project, "working")}
    assert {"shop", "RepoModeler", "ShopSystem", "orders", "cache", "orders_payments_http"} <= set(head)
    assert head["api_stripe_com"]["declaredShortName"] == "api.stripe.com"
    git(served, "add", "-A")
    git(served, "commit", "-q", "-m", "first push")

    second = runner.invoke(cli, ["push", str(versions[1]), "--api", url, "--project", "shop"])
    assert second.exit_code == 0, second.output
    git(served, "add", "-A")
    git(served, "commit", "-q", "-m", "second push")
    commits = [c for c in _get(f"{url}/projects/{project}/commits") if c["@id"] != "working"]  # type: ignore[union-attr]
    assert [c["description"] for c in commits][-2:] == ["first push", "second push"]
    at_first = {r.get("declaredName") for r in _elements(url, project, commits[-2]["@id"])}
    at_second = {r.get("declaredName") for r in _elements(url, project, commits[-1]["@id"])}
    assert "cache" in at_first and "cache" not in at_second
    assert {"orders", "payments", "orders_payments_http"} <= at_second


def test_push_errors_are_one_line(tmp_path: Path, versions: tuple[Path, Path]) -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, ["push", str(versions[0]), "--api", "ftp://example.invalid"])
    assert bad.exit_code == 1 and bad.output.startswith("error: --api 'ftp://example.invalid' is not an http(s) URL")
    down = runner.invoke(cli, ["push", str(versions[0]), "--api", f"http://127.0.0.1:{_free_port()}"])
    assert down.exit_code == 1 and "cannot reach the API server" in down.output
    missing = runner.invoke(cli, ["push", str(tmp_path / "nope"), "--api", "http://127.0.0.1:1"])
    assert missing.exit_code == 1 and "model.json" in missing.output


def test_structural_records_are_self_contained(versions: tuple[Path, Path]) -> None:
    records = structural(api_records(load_model_dir(versions[0])))
    ids = {r["@id"] for r in records}
    assert not any(r["@type"] in ("MetadataUsage", "FeatureValue", "LiteralString") for r in records)
    for r in records:
        for ref in r.get("ownedRelationship") or []:
            assert ref["@id"] in ids
