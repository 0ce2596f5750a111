"""Run history: every analyze records a run; list/show; diff between stored runs; failures only warn."""

from __future__ import annotations

import json
import threading

from conftest import commit_all

from repomodeler.cli import cli
from repomodeler.store import RunStore


def _analyze(runner, repo, out):
    result = runner.invoke(cli, ["analyze", str(repo), "--out", str(out), "-q", "--no-validate"])
    assert result.exit_code == 0, result.output
    return result


def test_runs_recorded_listed_shown_and_diffed(runner, shop_repo, tmp_path):
    repo, first = shop_repo
    out = tmp_path / "models" / "shop"
    _analyze(runner, repo, out)
    main_py = repo / "orders" / "main.py"
    main_py.write_text(main_py.read_text() + '\n\n@app.delete("/orders/{order_id}")\ndef cancel(order_id: str):\n'
                       '    return {"cancelled": order_id}\n')
    second = commit_all(repo, "cancel orders")
    _analyze(runner, repo, out)

    listed = runner.invoke(cli, ["runs", "list", "shop"])
    assert listed.exit_code == 0
    rows = [l for l in listed.output.splitlines() if l.startswith("shop")]
    assert len(rows) == 2 and f"shop@{first[:12]}" in rows[0] and f"shop@{second[:12]}" in rows[1]

    shown = runner.invoke(cli, ["runs", "show", "shop", "1"])
    assert shown.exit_code == 0 and f"shop  {first}" in shown.output and "components    9" in shown.output
    stored = json.loads(runner.invoke(cli, ["runs", "show", "shop", "previous", "--model"]).output)
    assert stored["name"] == "shop" and stored["repositories"][0]["commit"] == first

    # the folder now holds run 2 only, yet run 1 is still comparable
    diff = runner.invoke(cli, ["diff", "run:shop:previous", "run:shop:latest", "--format", "json"])
    changes = json.loads(diff.output)["changes"]
    assert {"endpoint": "orders.http:DELETE /orders/{order_id}"} == {c["element"]: c["id"] for c in changes}
    assert changes[0]["status"] == "added"
    same = runner.invoke(cli, ["diff", "run:shop:2", str(out)])
    assert "no differences" in same.output


def test_store_failure_warns_and_keeps_the_model(runner, shop_repo, tmp_path, monkeypatch):
    import repomodeler.store.runs as runs_mod

    broken = tmp_path / "db-is-a-folder"
    broken.mkdir()
    monkeypatch.setattr(runs_mod, "store_path", lambda: broken)
    repo, _sha = shop_repo
    out = tmp_path / "m"
    result = runner.invoke(cli, ["analyze", str(repo), "--out", str(out), "-q", "--no-validate"])
    assert result.exit_code == 0
    assert "warning: the run was not recorded in the history" in result.output
    assert (out / "model.json").is_file() and (out / "model.sysml").is_file()


def test_concurrent_records_get_distinct_numbers(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite")
    model = json.dumps({"name": "sys", "nodes": [], "edges": [], "stats": {}})
    errors: list[Exception] = []

    def record(i: int) -> None:
        try:
            store.record(model, {"analysed_at": f"2024-01-01T00:00:0{i}", "repositories": []})
        except Exception as exc:  # noqa: BLE001 - the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=record, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [r.number for r in store.list("sys")] == list(range(1, 9))
    assert store.get("sys", "previous").number == 7
    assert store.get("sys", -3).number == 6


def test_runs_empty_and_unknown(runner):
    assert "no recorded runs" in runner.invoke(cli, ["runs", "list"]).output
    result = runner.invoke(cli, ["runs", "show", "ghost", "1"])
    assert result.exit_code == 1 and "no recorded runs for system 'ghost'" in result.output
