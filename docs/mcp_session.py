"""Record a session with `repomodeler mcp` on the shop sample, through the MCP SDK's own client.

The README's transcript is this script's output: the shop sample is copied into a temporary git
repository, analysed by file:// URL (so its checkout is in a temporary clone cache and evidence
snippets can be read), and a client started the way an MCP host starts the server (stdio) asks
the questions an agent asks when it is told "we want to retire the inventory service's database
access: what depends on orders-db, and how does an order reach inventory?".

    python docs/mcp_session.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent


def compact(value: Any, indent: str = "") -> str:
    """JSON with one line per record: a list of scalars, or a record of scalars, stays on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) <= 100 or not isinstance(value, (dict, list)):
        return flat
    inner = indent + "  "
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + compact(v, inner) for v in value) + "\n" + indent + "]"
    return "{\n" + ",\n".join(f"{inner}{json.dumps(k)}: {compact(v, inner)}" for k, v in value.items()) + "\n" + indent + "}"


def show(direction: str, payload: Any) -> None:
    print(f"{direction} {payload if isinstance(payload, str) else compact(payload)}\n")


async def session(models: Path, home: Path) -> None:
    env = {"REPOMODELER_HOME": str(home), "PATH": os.environ.get("PATH", ""), "HOME": str(home)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "repomodeler", "mcp", str(models)], env=env)
    async with Client(params) as client:
        print(f"# connected to {client.server_info.name} {client.server_info.version}\n")
        tools = (await client.list_tools()).tools
        show("-> tools/list", "")
        show("<-", [t.name for t in tools])
        for name, args in (("impact", {"model": "shop", "component": "orders-db"}),
                           ("path", {"model": "shop", "source": "user", "target": "inventory"}),
                           ("evidence", {"model": "shop", "element": "inventory->rabbitmq"}),
                           ("source", {"model": "shop", "repository": "shop",
                                       "path": "inventory/src/main/java/com/acme/inventory/OrderEvents.java", "line": 9,
                                       "context": 2}),
                           ("callers", {"model": "shop", "component": "inventroy"})):
            show(f"-> tools/call {name}", args)
            result = await client.call_tool(name, args)
            show("<- (error)" if result.is_error else "<-",
                 result.content[0].text if result.is_error else result.structured_content)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        repo = work / "shop"
        shutil.copytree(ROOT / "samples" / "shop", repo)
        git = ["git", "-c", "user.name=demo", "-c", "user.email=demo@example.com", "-c", "init.defaultBranch=main"]
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "shop sample"]):
            subprocess.run([*git, *args], cwd=repo, check=True)
        home, models = work / "home", work / "models"
        env = {**os.environ, "REPOMODELER_HOME": str(home)}
        subprocess.run([sys.executable, "-m", "repomodeler", "analyze", f"file://{repo}", "--name", "shop",
                        "--out", str(models / "shop"), "-q", "--no-validate"], check=True, env=env)
        anyio.run(session, models, home)


if __name__ == "__main__":
    main()
