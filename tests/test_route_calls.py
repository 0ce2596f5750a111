"""Calls inside one repository to routes its own components serve, when the call names no host: a
browser app's API client and realtime clients, and a repository's own client package whose server
address is a flag (rules routes.browser-calls and routes.client-packages), analysed end to end from a
local git repository."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_repo, run_cli

GO_MOD = "module example.com/ci\n\ngo 1.22\n"
SERVER = ('package server\n\nimport "net/http"\n\nfunc Serve() error {\n\tmux := http.NewServeMux()\n'
          '\tmux.HandleFunc("GET /api/repos/{repo}", func(w http.ResponseWriter, r *http.Request) {})\n'
          '\tmux.HandleFunc("POST /api/repos/{repo}/builds", func(w http.ResponseWriter, r *http.Request) {})\n'
          '\treturn http.ListenAndServe(":8000", mux)\n}\n')
AGENT = ('package agent\n\nimport "net/http"\n\nfunc Health() error {\n'
         '\thttp.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {})\n'
         '\treturn http.ListenAndServe(":3000", nil)\n}\n')
MAINS = {
    "cmd/server/main.go": 'package main\n\nimport "example.com/ci/server"\n\nfunc main() { server.Serve() }\n',
    "cmd/agent/main.go": 'package main\n\nimport "example.com/ci/agent"\n\nfunc main() { agent.Health() }\n',
}


def analyze(tmp_path: Path, files: dict[str, str]) -> dict:
    repo = tmp_path / "ci"
    make_repo(repo, files)
    out = tmp_path / "out"
    proc = run_cli(["analyze", "--quiet", "--no-validate", f"file://{repo}", "--name", "ci", "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    return json.loads((out / "model.json").read_text())


def edge(model: dict, source: str, target: str) -> dict:
    found = [e for e in model["edges"] if e["source"] == source and e["target"] == target]
    assert found, f"no edge {source} -> {target}: {sorted((e['source'], e['target']) for e in model['edges'])}"
    return found[0]


def lines(e: dict) -> set[tuple[str, int]]:
    return {(ev["path"], ev["line"]) for ev in e["evidence"]}


def test_a_browser_apps_api_client_calls_the_program_serving_its_relative_paths(tmp_path: Path) -> None:
    model = analyze(tmp_path, {
        "go.mod": GO_MOD, "server/router.go": SERVER, "agent/health.go": AGENT, **MAINS,
        "web/package.json": ('{"name": "ci-web", "dependencies": {"vue": "^3.4.0"}, '
                             '"devDependencies": {"vite": "^5.0.0"}}\n'),
        "web/src/main.ts": "import { createApp } from 'vue';\ncreateApp({}).mount('#app');\n",
        "web/src/client.ts": ("export default class ApiClient {\n  server = '';\n"
                              "  async _request(method: string, path: string) {\n"
                              "    return fetch(`${this.server}${path}`, { method });\n  }\n"
                              "  _get(path: string) { return this._request('GET', path); }\n"
                              "  _post(path: string) { return this._request('POST', path); }\n}\n"),
        "web/src/api.ts": ("import ApiClient from './client';\n\nexport class CiClient extends ApiClient {\n"
                           "  repo(id: number) { return this._get(`/api/repos/${id}`); }\n"
                           "  build(id: number) { return this._post(`/api/repos/${id}/builds`); }\n"
                           "  health() { return this._get('/healthz'); }\n}\n"),
        # a base that is the development server's address, empty in the built app
        "web/src/config.ts": ('const DEV_API_URL = "http://127.0.0.1:3001";\n'
                              'export const API_BASE = import.meta.env.DEV ? DEV_API_URL : "";\n'),
        "web/src/builds.ts": ("import { API_BASE } from './config';\n\n"
                              "export const builds = (id: number) => fetch(`${API_BASE}/api/repos/${id}/builds`);\n"),
    })
    call = edge(model, "web", "ci-server")
    # the call's line and the route's line
    assert {("web/src/api.ts", 4), ("server/router.go", 7)} <= lines(call)
    # the fetch through a base that is empty in the built app is a call to the same server
    assert call["attributes"]["endpoints"] == "ANY /api/repos/{}/builds, GET /api/repos/{}, POST /api/repos/{}/builds"
    assert call["attributes"]["same_origin"] == "true"
    assert "routes.browser-calls" in call["rules"]
    # a probe path every server answers tells nothing: the agent is not called
    assert not [e for e in model["edges"] if e["source"] == "web" and e["target"] == "agent"]
    # people open the app from the server answering its paths
    assert ("web/src/api.ts", 4) in lines(edge(model, "user", "ci-server"))


def test_a_realtime_client_reaches_the_server_running_its_server_library(tmp_path: Path) -> None:
    model = analyze(tmp_path, {
        "web/package.json": ('{"name": "chat-web", "dependencies": {"react-dom": "^18.0.0", "react": "^18.0.0", '
                             '"socket.io-client": "^4.7.0"}, "devDependencies": {"vite": "^5.0.0"}}\n'),
        "web/src/main.tsx": ("import { io } from 'socket.io-client';\n\n"
                             "export const socket = io(window.location.origin, { path: '/realtime' });\n"),
        "api/package.json": '{"name": "api", "scripts": {"start": "node index.js"}, "dependencies": {"express": "^4.18.0"}}\n',
        "api/index.js": ("const express = require('express');\nconst app = express();\n"
                         "app.get('/api/rooms', (req, res) => res.json([]));\napp.listen(3000);\n"),
        "realtime/package.json": '{"name": "realtime", "scripts": {"start": "node index.js"}, "dependencies": {"socket.io": "^4.7.0"}}\n',
        "realtime/index.js": "const { Server } = require('socket.io');\nnew Server(4000, { path: '/realtime' });\n",
    })
    e = edge(model, "web", "realtime")
    assert {("web/src/main.tsx", 1), ("realtime/index.js", 1)} <= lines(e)
    assert not [x for x in model["edges"] if x["source"] == "web" and x["target"] == "api"]


def test_the_cli_making_the_repositorys_client_package_calls_the_server_of_its_paths(tmp_path: Path) -> None:
    client = ('package client\n\nimport (\n\t"fmt"\n\t"net/http"\n)\n\n'
              'const (\n\tpathRepo   = "%s/api/repos/%d"\n\tpathBuilds = "%s/api/repos/%d/builds"\n)\n\n'
              'type Client struct{ addr string }\n\n'
              'func NewClient(addr string) *Client { return &Client{addr: addr} }\n\n'
              'func (c *Client) do(method, rawurl string) error {\n'
              '\treq, err := http.NewRequest(method, rawurl, nil)\n\tif err != nil {\n\t\treturn err\n\t}\n'
              '\t_, err = http.DefaultClient.Do(req)\n\treturn err\n}\n\n'
              'func (c *Client) Repo(id int) error {\n\turi := fmt.Sprintf(pathRepo, c.addr, id)\n'
              '\treturn c.do("GET", uri)\n}\n')
    cli = ('package main\n\nimport (\n\t"flag"\n\n\t"example.com/ci/sdk/client"\n)\n\n'
           'func main() {\n\tserver := flag.String("server", "", "server address")\n\tflag.Parse()\n'
           '\tc := client.NewClient(*server)\n\tc.Repo(1)\n}\n')
    # a client of another product's API (a forge) whose address is a setting: one of its paths looks like
    # this server's, the others nothing here serves
    forge = client.replace("package client", "package forge").replace(
        'pathRepo   = "%s/api/repos/%d"\n\tpathBuilds = "%s/api/repos/%d/builds"',
        'pathRepo   = "%s/api/repos/%d"\n\tpathHooks = "%s/api/v1/repos/%d/hooks"\n\tpathUser = "%s/api/v1/user"').replace(
        "func (c *Client) Repo(id int) error {",
        "func (c *Client) Hooks(id int) error {\n\turi := fmt.Sprintf(pathHooks, c.addr, id)\n\treturn c.do(\"GET\", uri)\n}\n\n"
        "func (c *Client) User() error {\n\turi := fmt.Sprintf(pathUser, c.addr)\n\treturn c.do(\"GET\", uri)\n}\n\n"
        "func (c *Client) Repo(id int) error {")
    sync = ('package agent\n\nimport (\n\t"os"\n\n\t"example.com/ci/forge"\n)\n\n'
            'func Sync() { forge.NewClient(os.Getenv("FORGE_URL")).Hooks(1) }\n')
    model = analyze(tmp_path, {"go.mod": GO_MOD, "server/router.go": SERVER, "agent/health.go": AGENT, **MAINS,
                               "sdk/client/client.go": client, "cmd/cli/main.go": cli, "forge/forge.go": forge,
                               "agent/sync.go": sync})
    e = edge(model, "cli", "ci-server")
    # where the program makes the client, where the package builds the path, and the route it reaches
    assert {("cmd/cli/main.go", 12), ("sdk/client/client.go", 27), ("server/router.go", 7)} <= lines(e)
    assert "routes.client-packages" in e["rules"]
    assert not [x for x in model["edges"] if x["source"] == "cli" and x["target"] == "agent"]
    ids = {n["id"] for n in model["nodes"]}
    assert {"agent", "cli", "ci-server"} <= ids
    # the forge client's one look-alike path does not make the agent a caller of the server
    assert not [x for x in model["edges"] if x["source"] == "agent" and x["target"] == "ci-server"]
