"""`repomodeler mcp`: driven through the MCP SDK's own client, over stdio and streamable HTTP.

The models folder holds the shop sample analysed in the test (cloned by file://, so its checkout is
in the clone cache and evidence snippets can be read), the two real-system fixtures, and three
models a hostile folder could hold: a forged model.json, an oversized one, and a symbolic link.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
import httpx
import pytest
from conftest import SAMPLES, make_repo
from mcp import Client, StdioServerParameters

from repomodeler.pipeline import AnalyzeOptions, analyze
from repomodeler.serve.store import ModelStore

FIXTURES = Path(__file__).parent / "fixtures" / "query"
QUESTION_TOOLS = {"list_models", "components", "callers", "callees", "impact", "path", "uses", "evidence",
                  "unresolved", "changes", "against", "source"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(models folder, REPOMODELER_HOME) shared by the module's servers."""
    home = tmp_path_factory.mktemp("mcphome")
    root = tmp_path_factory.mktemp("mcp")
    models = root / "models"
    repo = root / "shop"
    make_repo(repo, source=SAMPLES / "shop")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(home))
        analyze([f"file://{repo}"], AnalyzeOptions(name="shop", out=models / "shop", validate=False, jobs=1))
    shutil.copy(SAMPLES / "targets" / "shop-target.sysml", models / "shop" / "target.sysml")
    for name in ("online-boutique", "piggymetrics"):
        (models / name).mkdir()
        shutil.copy(FIXTURES / name / "model.json", models / name / "model.json")
    (models / "forged").mkdir()
    (models / "forged" / "model.json").write_text('{"schema": "repomodeler/model@1", "name": "x", "nodes": "all of them"}')
    (models / "huge").mkdir()
    with open(models / "huge" / "model.json", "wb") as fh:  # 33 MB by its size, sparse on disk
        fh.truncate(33 * 1024 * 1024)
    (models / "forgedrun").mkdir()  # cites /etc/passwd and claims its checkout is "/"
    model = json.loads((models / "shop" / "model.json").read_text())
    model["nodes"][0]["evidence"].append({"repository": "shop", "path": "etc/passwd", "line": 1})
    (models / "forgedrun" / "model.json").write_text(json.dumps(model))
    run = json.loads((models / "shop" / "run.json").read_text())
    run["repositories"][0].update(checkout="/", kind="dir")
    (models / "forgedrun" / "run.json").write_text(json.dumps(run))
    (models / "linked").mkdir()
    os.symlink(models / "shop" / "model.json", models / "linked" / "model.json")
    return models, home


def _env(home: Path) -> dict[str, str]:
    return {"REPOMODELER_HOME": str(home), "PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp")}


def over_stdio(folder: tuple[Path, Path], body: Callable[[Client], Awaitable[None]], *extra: str) -> None:
    models, home = folder
    params = StdioServerParameters(command=sys.executable, args=["-m", "repomodeler", "mcp", str(models), *extra],
                                   env=_env(home))

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            await body(client)

    anyio.run(main)


def data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    return result.structured_content


def error(result: Any) -> str:
    assert result.is_error, result.structured_content
    return result.content[0].text


# ------------------------------------------------------------------------------------------ stdio
def test_stdio_tools_answer_with_components_edges_and_evidence(folder):
    async def body(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == QUESTION_TOOLS  # read-only: no analyze tool unless allowed
        assert tools["callers"].annotations.read_only_hint is True
        assert "neighbours" in tools["callers"].output_schema["properties"]
        assert tools["path"].input_schema["properties"]["max_hops"]["maximum"] == 50

        models = data(await client.call_tool("list_models", {}))
        good = {m["name"]: m for m in models["models"] if not m["broken"]}
        assert good["shop"]["components"] == 9 and good["online-boutique"]["components"] == 14

        callers = data(await client.call_tool("callers", {"model": "shop", "component": "orders"}))
        link = callers["neighbours"][0]["links"][0]
        assert (callers["neighbours"][0]["component"]["id"], link["id"]) == ("frontend", "frontend->orders:http")
        assert "shop:frontend/server.js:5" in link["evidence"] and "code.client-calls" in link["rules"]
        assert any(r["id"] == "code.client-calls" and r["message"] for r in callers["rules"])

        callees = data(await client.call_tool("callees", {"model": "shop", "component": "payments"}))
        assert [n["component"]["id"] for n in callees["neighbours"]] == ["api.stripe.com"]

        impact = data(await client.call_tool("impact", {"model": "online-boutique", "component": "redis-cart"}))
        assert [(r["component"]["id"], r["distance"]) for r in impact["impacted"]] == [
            ("cartservice", 1), ("checkoutservice", 2), ("frontend", 2), ("loadgenerator", 3), ("user", 3)]

        route = data(await client.call_tool("path", {"model": "shop", "source": "user", "target": "inventory"}))
        assert [r["through"] for r in route["routes"]] == [["user", "frontend", "inventory"],
                                                          ["user", "frontend", "orders", "rabbitmq", "inventory"]]

        topic = data(await client.call_tool("uses", {"model": "shop", "subject": "topic:orders.created"}))
        assert [(u["role"], u["component"]["id"]) for u in topic["users"]] == [("publishes", "orders"),
                                                                              ("subscribes", "inventory")]

        ev = data(await client.call_tool("evidence", {"model": "piggymetrics", "element": "gateway->account-service"}))
        assert ev["evidence"] == ["piggymetrics:config/src/main/resources/shared/gateway.yml:28"]

        assert data(await client.call_tool("unresolved", {"model": "shop"}))["items"] == []
        stores = data(await client.call_tool("components", {"model": "shop", "kind": "database"}))
        assert [c["id"] for c in stores["components"]] == ["orders-db"]

        diff = data(await client.call_tool("against", {"model": "shop", "target": "target.sysml"}))
        assert {(c["element"], c["id"], c["status"]) for c in diff["changes"]} >= {
            ("component", "inventory", "removed"), ("component", "payments-cache", "added")}

        same = data(await client.call_tool("against", {"model": "shop", "target": "shop"}))
        assert same["changes"] == [] and same["b"] == "shop"

        snippet = data(await client.call_tool("source", {"model": "shop", "repository": "shop",
                                                          "path": "orders/main.py", "line": 28}))
        assert snippet["highlight"] == 28 and len(snippet["commit"]) == 40
        assert 'requests.post(f"{PAYMENTS_URL}/payments"' in snippet["lines"][28 - snippet["start"]]

        runs = data(await client.call_tool("changes", {"system": "shop", "run1": "1", "run2": "latest"}))
        assert (runs["a"], runs["b"], runs["changes"]) == ("run:shop:1", "run:shop:1", [])

    over_stdio(folder, body)


@pytest.mark.parametrize("tool, args, message", [
    ("callers", {"model": "nope", "component": "orders"}, "error: no model 'nope' in the models folder; models: "),
    ("callers", {"model": "../shop", "component": "orders"}, "error: no model '../shop'"),
    ("callers", {"model": "shop", "component": "nope"}, "error: no component 'nope' in shop"),
    ("callers", {"model": "shop"}, "component"),
    ("path", {"model": "shop", "source": "user", "target": "orders", "max_hops": "many"}, "max_hops"),
    ("path", {"model": "shop", "source": "user", "target": "orders", "max_routes": 0}, "max_routes"),
    ("uses", {"model": "shop", "subject": "nothing.here"}, "is no component, topic or endpoint of shop"),
    ("evidence", {"model": "shop", "element": "orders->nope"}, "error: no component 'nope'"),
    ("evidence", {"model": "shop", "element": "x" * 5000}, "element"),
    ("source", {"model": "shop", "repository": "shop", "path": "../../etc/passwd", "line": 1}, "error: path may not contain '..'"),
    ("source", {"model": "shop", "repository": "shop", "path": "/etc/passwd", "line": 1}, "error: absolute or unsafe path"),
    ("source", {"model": "shop", "repository": "shop", "path": "orders/Dockerfile", "line": 1}, "path is not cited by the model"),
    ("source", {"model": "shop", "repository": "shop", "path": "orders/main.py", "line": 0}, "line"),
    # a forged run.json naming / as the checkout: the server takes checkouts from the user's own run
    # history (or the clone cache), never from a models folder, so nothing outside is read
    ("source", {"model": "forgedrun", "repository": "shop", "path": "etc/passwd", "line": 1},
     "error: no source for shop:etc/passwd:1 (Source of 'shop' not available"),
    ("against", {"model": "shop", "target": "../../etc/passwd.sysml"}, "error: no file '../../etc/passwd.sysml'"),
    ("changes", {"system": "nobody"}, "error: no recorded runs for system 'nobody'"),
    ("analyze", {"inputs": ["https://github.com/acme/shop"], "name": "x"}, "analyze"),
])
def test_malformed_inputs_get_a_clear_error_result_not_a_crash(folder, tool, args, message):
    async def body(client: Client) -> None:
        text = error(await client.call_tool(tool, args))
        assert message in text and "Traceback" not in text
        # the server is still there and answers
        assert data(await client.call_tool("callers", {"model": "shop", "component": "payments"}))["neighbours"]

    over_stdio(folder, body)


def test_forged_oversized_and_linked_models_are_refused_as_the_viewer_refuses_them(folder):
    models, _home = folder
    viewer = {name: ModelStore(models).safe_summary(name)["error"] for name in ("forged", "huge", "linked")}
    assert "too large to show" in viewer["huge"] and "symbolic link" in viewer["linked"]

    async def body(client: Client) -> None:
        listed = {m["name"]: m for m in data(await client.call_tool("list_models", {}))["models"]}
        for name, reason in viewer.items():
            assert listed[name]["broken"] and listed[name]["error"] == reason
            text = error(await client.call_tool("impact", {"model": name, "component": "orders"}))
            assert text == f"Error executing tool impact: error: model '{name}' is refused: {reason}" or \
                text.endswith(f"error: model '{name}' is refused: {reason}")
            with pytest.raises(Exception, match="is refused"):
                await client.read_resource(f"repomodeler://models/{name}/model.json")

    over_stdio(folder, body)


def test_models_are_resources_and_the_prompt_explains_the_vocabulary(folder):
    models, _home = folder

    async def body(client: Client) -> None:
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        assert {"repomodeler://models", "repomodeler://models/shop/model.json",
                "repomodeler://models/shop/model.sysml"} <= uris
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert "repomodeler://models/{name}/source{?repository,path,line}" in templates
        text = (await client.read_resource("repomodeler://models/shop/model.json")).contents[0].text
        assert text == (models / "shop" / "model.json").read_text()
        sysml = (await client.read_resource("repomodeler://models/shop/model.sysml")).contents[0].text
        assert "part orders : Service" in sysml
        with pytest.raises(Exception, match="no readable model.sysml"):  # the fixture folder holds model.json only
            await client.read_resource("repomodeler://models/online-boutique/model.sysml")
        snippet = json.loads((await client.read_resource(
            "repomodeler://models/shop/source?repository=shop&path=orders/main.py&line=26")).contents[0].text)
        assert snippet["highlight"] == 26 and '@app.post("/orders")' in snippet["lines"][26 - snippet["start"]]
        with pytest.raises(Exception):
            await client.read_resource("repomodeler://models/shop/source?repository=shop&path=../../etc/passwd&line=1")
        listing = json.loads((await client.read_resource("repomodeler://models")).contents[0].text)
        assert "shop" in [m["name"] for m in listing["models"]]
        prompts = [p.name for p in (await client.list_prompts()).prompts]
        assert prompts == ["architecture-vocabulary"]
        prompt = (await client.get_prompt("architecture-vocabulary")).messages[0].content.text
        assert "evidence: repository:path:line" in prompt and "impact COMPONENT" in prompt

    over_stdio(folder, body)


# ------------------------------------------------------------------------------------------ HTTP
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_on_loopback(folder):
    models, home = folder
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "repomodeler", "mcp", str(models), "--http", "--port", str(port)],
                            env=_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                time.sleep(0.2)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
                answer = data(await client.call_tool("path", {"model": "piggymetrics", "source": "gateway",
                                                              "target": "statistics-mongodb"}))
                assert [r["through"][1] for r in answer["routes"]] == ["statistics-service", "account-service",
                                                                      "notification-service"]
                assert "error: no component 'nope'" in error(await client.call_tool(
                    "impact", {"model": "piggymetrics", "component": "nope"}))
                text = (await client.read_resource("repomodeler://models/piggymetrics/model.json")).contents[0].text
                assert json.loads(text)["name"] == "piggymetrics"

        anyio.run(main)
        # DNS rebinding: a page on another name that resolves to 127.0.0.1 cannot talk to the server
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        body = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
        refused = httpx.post(f"http://127.0.0.1:{port}/mcp", headers={**headers, "Host": "evil.example"}, content=body)
        assert (refused.status_code, refused.text) == (421, "Invalid Host header")
        allowed = httpx.post(f"http://127.0.0.1:{port}/mcp", headers=headers, content=body)
        assert allowed.status_code != 421 and "Invalid Host header" not in allowed.text
    finally:
        proc.terminate()
        proc.wait(timeout=20)


# ------------------------------------------------------------------------------------------ analyze
def test_analyze_is_a_tool_only_for_the_hosts_allowed(folder, tmp_path):
    models, _home = folder
    repo = tmp_path / "svc"
    make_repo(repo, {"app.py": 'import flask\napp = flask.Flask("svc")\n\n@app.route("/hello")\ndef hello():\n    return "hi"\n'})

    async def body(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "analyze" in tools and tools["analyze"].annotations.read_only_hint is False
        for bad, message in ((["https://github.com/acme/shop"], "is on host 'github.com', which this server may not analyse"),
                             ([str(repo)], "is not a git URL"),
                             ([f"ext::sh -c touch% {tmp_path}/pwned"], "remote helper"),
                             (["http://example.com/x.git"], "plain http://")):
            assert message in error(await client.call_tool("analyze", {"inputs": bad, "name": "bad"}))
        assert not (tmp_path / "pwned").exists() and not (models / "bad").exists()
        assert "name" in error(await client.call_tool("analyze", {"inputs": [f"file://{repo}"], "name": "../up"}))
        done = data(await client.call_tool("analyze", {"inputs": [f"file://{repo}"], "name": "svc", "validate": False}))
        assert done["resource"] == "repomodeler://models/svc/model.json"
        listed = data(await client.call_tool("components", {"model": "svc"}))["components"]
        assert done["components"] == len(listed) and "svc" in [c["id"] for c in listed]
        endpoint = data(await client.call_tool("uses", {"model": "svc", "subject": "GET /hello"}))
        assert [(u["role"], u["evidence"]) for u in endpoint["users"]] == [("provides", ["svc:app.py:4"])]

    try:
        over_stdio(folder, body, "--allow-analyze", "file")
    finally:
        shutil.rmtree(models / "svc", ignore_errors=True)


def test_cli_refuses_a_missing_folder_and_empty_hosts(tmp_path):
    from click.testing import CliRunner

    from repomodeler.cli import cli

    result = CliRunner().invoke(cli, ["mcp", str(tmp_path / "none")])
    assert result.exit_code == 1 and "is not a folder" in result.output
    result = CliRunner().invoke(cli, ["mcp", str(tmp_path), "--allow-analyze", " , "])
    assert result.exit_code == 1 and "--allow-analyze needs host names" in result.output
