"""``repomodeler push MODEL_DIR --api URL [--project NAME]``: the model as a commit on a Systems Modeling API server.

The model folder's graph (model.json) becomes OMG Systems Modeling API element records with stable
``@id``s (:mod:`repomodeler.emit.api_records`).  The push finds the project (by ``@id``, by name, or by
a name the server suffixed with a timestamp, as the pilot implementation does), creates it when the
server allows ``POST /projects`` and it does not exist, reads the elements of its head commit and posts
one commit (``POST /projects/{id}/commits``, pilot ``DataVersion`` change form) holding only what
differs: new and changed records, and a deletion for every element of an earlier push (one owned by
the library or system package) that is gone.  Pushing an unchanged model posts nothing; a changed
model is a new commit.  Only ``http``/``https`` URLs; no credentials are stored (``--token`` or
``REPOMODELER_API_TOKEN`` is sent as a bearer token).
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import click

from repomodeler.records import RepomodelerError

TIMEOUT = 600.0  # a server may parse the whole project on the first read (longeron: minutes when cold)


class ApiClient:
    """The few Systems Modeling API calls a push needs (stdlib HTTP, JSON in and out)."""

    def __init__(self, base: str, token: str | None = None, timeout: float = TIMEOUT) -> None:
        parsed = urllib.parse.urlsplit(base)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise RepomodelerError(f"error: --api '{base}' is not an http(s) URL (e.g. http://127.0.0.1:9000)")
        self.base = base.rstrip("/") + "/"
        self.token = token
        self.timeout = timeout

    def request(self, method: str, path: str, body: object | None = None,
                params: dict[str, str] | None = None) -> tuple[int, Any, dict[str, str]]:
        url = urllib.parse.urljoin(self.base, path.lstrip("/"))
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data = json.dumps(body).encode("utf-8") if body is not None else None
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 - http(s) only, checked above
                raw = resp.read()
                return resp.status, json.loads(raw) if raw else None, dict(resp.headers)
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                detail = json.loads(raw)
            except ValueError:
                detail = raw.decode("utf-8", "replace")[:300]
            return exc.code, detail, dict(exc.headers or {})
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise RepomodelerError(f"error: cannot reach the API server at {self.base} ({reason})") from exc

    def get(self, path: str, params: dict[str, str] | None = None) -> Any:
        status, body, _ = self.request("GET", path, params=params)
        if status >= 400:
            raise RepomodelerError(f"error: GET {path} failed with HTTP {status}: {_detail(body)}")
        return body

    def elements(self, project: str, commit: str) -> list[dict[str, Any]]:
        """Every element record at a commit, following ``page[after]`` paging when the server pages."""
        out: list[dict[str, Any]] = []
        params = {"page[size]": "1000"}
        while True:
            status, body, headers = self.request("GET", f"projects/{project}/commits/{commit}/elements", params=params)
            if status == 404 and not out:
                return out  # an empty project (longeron serve: no .sysml file yet)
            if status >= 400:
                raise RepomodelerError(f"error: reading the elements of commit {commit} failed with HTTP {status}: "
                                       f"{_detail(body)}")
            page = body or []
            out.extend(page)
            link = headers.get("Link") or headers.get("link") or ""
            if 'rel="next"' not in link or not page:
                return out
            params = {"page[size]": "1000", "page[after]": str(page[-1]["@id"])}


def _detail(body: object) -> str:
    if isinstance(body, dict):
        return str(body.get("detail") or body.get("message") or body)[:300]
    return str(body)[:300]


def find_project(client: ApiClient, project: str, create: bool = True) -> dict[str, Any]:
    """The project named (or with the ``@id``) ``project``; created when missing and the server allows it."""
    projects = client.get("projects") or []
    for p in projects:
        if project in (p.get("@id"), p.get("name")):
            return p
    # pilot-style servers suffix the name with the creation time: 'shop Mon Nov 30 ...'
    suffixed = [p for p in projects if str(p.get("name", "")).startswith(project + " ")]
    if len(suffixed) == 1:
        return suffixed[0]
    if create:
        status, body, _ = client.request("POST", "projects", {"@type": "Project", "name": project,
                                                              "description": "pushed by repomodeler"})
        if status < 300 and isinstance(body, dict):
            return body
    names = ", ".join(sorted(str(p.get("name")) for p in projects)) or "none"
    raise RepomodelerError(f"error: the server has no project '{project}' and does not create one "
                           f"(its projects: {names}); pass --project with one of them")


def head_commit(client: ApiClient, project: dict[str, Any]) -> str | None:
    """The id of the project's newest commit (its default branch head when the server says so)."""
    branch = project.get("defaultBranch")
    if isinstance(branch, dict) and branch.get("@id"):
        status, body, _ = client.request("GET", f"projects/{project['@id']}/branches/{branch['@id']}")
        if status < 300 and isinstance(body, dict) and isinstance(body.get("head"), dict):
            return str(body["head"]["@id"])
    commits = client.get(f"projects/{project['@id']}/commits") or []
    return str(commits[-1]["@id"]) if commits else None


def _owned_closure(records: dict[str, dict[str, Any]], roots: list[str]) -> set[str]:
    """Ids owned (transitively, through relationships and memberships) by ``roots``, roots included."""
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        eid = stack.pop()
        if eid in seen or eid not in records:
            continue
        seen.add(eid)
        rec = records[eid]
        for field in ("ownedRelationship", "ownedRelatedElement"):
            stack.extend(ref["@id"] for ref in rec.get(field) or [] if isinstance(ref, dict) and "@id" in ref)
    return seen


def plan_changes(new: list[dict[str, Any]], head: list[dict[str, Any]], subtrees: bool = False) -> list[dict[str, Any]]:
    """The commit's change list: records that are new or differ from the head, and deletions of what an
    earlier push wrote (owned by a package of the same name) that the new model no longer has: every
    such record, or with ``subtrees`` only the topmost elements (a server that deletes an element with
    everything it owns and refuses to delete a membership on its own, as longeron does)."""
    by_id = {r["@id"]: r for r in head}
    new_ids = {r["@id"] for r in new}
    ours = {r["declaredName"] for r in new if r["@type"] in ("Package", "LibraryPackage") and "owningRelationship" not in r}
    roots = [r["@id"] for r in head if r.get("@type") in ("Package", "LibraryPackage") and r.get("declaredName") in ours]
    change = [{"@type": "DataVersion", "identity": {"@id": r["@id"]}, "payload": r}
              for r in new if by_id.get(r["@id"]) != r and not _same(by_id.get(r["@id"]), r)]
    gone = sorted(_owned_closure(by_id, roots) - new_ids)
    if subtrees:
        elements = [eid for eid in gone if "source" not in by_id[eid] and "target" not in by_id[eid]]
        below = set().union(*(_owned_closure(by_id, [e]) - {e} for e in elements)) if elements else set()
        gone = [eid for eid in elements if eid not in below]
    change += [{"@type": "DataVersion", "identity": {"@id": eid}, "payload": None} for eid in gone]
    return change


def _same(old: dict[str, Any] | None, new: dict[str, Any]) -> bool:
    """Whether the server's record says what ours says (servers add derived fields; compare ours only)."""
    if old is None:
        return False
    return all(old.get(k) == v for k, v in new.items() if k != "elementId")


def server_kind(client: ApiClient) -> str:
    """'longeron' when the server says it is ``longeron serve`` (GET / names it), else 'api'."""
    status, body, _ = client.request("GET", "")
    return "longeron" if status < 300 and isinstance(body, dict) and body.get("server") == "longeron" else "api"


def push_model(model_dir: Path, api: str, project: str | None, token: str | None = None, create: bool = True,
               notes: list[str] | None = None) -> tuple[dict[str, Any] | None, int, str]:
    """(the commit posted or None when nothing changed, number of changes, project id); ``notes`` collects
    what the user should know about the server's handling."""
    from repomodeler.emit.api_records import api_records, structural
    from repomodeler.emit.graph_io import load_model_dir

    notes = notes if notes is not None else []
    graph = load_model_dir(model_dir)
    records = api_records(graph)
    client = ApiClient(api, token)
    kind = server_kind(client)
    if kind == "longeron":
        # longeron serve materializes commits as .sysml text through an import that takes structure
        # (packages, definitions, usages, typing, specialization) but not metadata usages or values
        records = structural(records)
        notes.append("longeron serve keeps structure only: the SourceRef/Repository metadata and attribute values "
                     "stay in the SysML text (a pilot or Flexo server stores them)")
    proj = find_project(client, project or str(graph.graph["name"]), create=create)
    head = head_commit(client, proj)
    existing = client.elements(proj["@id"], head) if head else []
    change = plan_changes(records, existing, subtrees=kind == "longeron")
    if not change:
        return None, 0, str(proj["@id"])
    repos = ", ".join(f"{r['name']}@{(r.get('commit') or 'working tree')[:12]}" for r in graph.graph["repositories"])
    body: dict[str, Any] = {"@type": "Commit", "description": f"repomodeler: {graph.graph['name']} from {repos}",
                            "change": change}
    if head and head != "working":
        body["previousCommit"] = {"@id": head}
    status, commit, _ = client.request("POST", f"projects/{proj['@id']}/commits", body)
    if status >= 300 or not isinstance(commit, dict):
        raise RepomodelerError(f"error: the server refused the commit (HTTP {status}): {_detail(commit)}")
    return commit, len(change), str(proj["@id"])


@click.command("push")
@click.argument("model_dir", type=click.Path(path_type=Path))
@click.option("--api", "api", required=True, help="Base URL of a Systems Modeling API server "
              "(e.g. http://127.0.0.1:9000 for 'longeron serve', http://localhost:9000 for the pilot's sysml-v2-api-services).")
@click.option("--project", help="Project name or @id on the server (default: the system name; created if the server allows).")
@click.option("--token", envvar="REPOMODELER_API_TOKEN", help="Bearer token for servers that need one "
              "(default: $REPOMODELER_API_TOKEN).", show_envvar=True)
def push(model_dir: Path, api: str, project: str | None, token: str | None) -> None:
    """Post the model in MODEL_DIR (from analyze) as a commit to a Systems Modeling API server."""
    notes: list[str] = []
    try:
        commit, changes, project_id = push_model(model_dir, api, project, token, notes=notes)
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if commit is None:
        click.echo(f"up to date: project {project_id} already holds this model; nothing pushed")
        return
    click.echo(f"pushed {changes} change(s) to project {project_id} as commit {commit.get('@id')}")


COMMANDS = [push]
