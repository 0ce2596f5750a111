"""``repomodeler push MODEL_DIR --api URL [--project NAME]``: the model as a commit on a Systems Modeling API server.

What is pushed is what the model folder's SysML files hold, read from the text
(:mod:`repomodeler.emit.sysml_records`): every package, definition, nested usage, port, item, interface,
connection with its ends wired to its ports, flow, allocation, view, metadata usage and value, the
library included, each with an ``@id`` derived from its qualified name.  ``MODEL_DIR/push-state.json``
(:mod:`repomodeler.push_state`) remembers what each push sent to each server project, so an unchanged
model pushes nothing and a change pushes only the records that differ and the deletion of what is gone,
as one commit (``POST /projects/{id}/commits``, pilot ``DataVersion`` change form, on the project's
default branch when it names one).  The project is found by ``@id``, by name, or by a name the server
suffixed with a timestamp, and created when the server allows ``POST /projects``.  Only ``http``/``https``
URLs; a token (``--token`` or ``REPOMODELER_API_TOKEN``) is sent as a bearer token and written nowhere.

``longeron serve`` materialises a commit into ``.sysml`` text through an import that keeps structure
only and gives elements ids of its own: the push sends it what that import stores
(:func:`for_longeron`) and matches its elements by qualified name (:func:`translate_ids`).
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

from repomodeler import push_state
from repomodeler.emit.sysml_records import Records, records_from_model_dir
from repomodeler.credentials import redact
from repomodeler.records import RepomodelerError

TIMEOUT = 600.0  # a server may parse the whole project on the first read (longeron: minutes when cold)


class ApiClient:
    """The few Systems Modeling API calls a push needs (stdlib HTTP, JSON in and out)."""

    def __init__(self, base: str, token: str | None = None, timeout: float = TIMEOUT) -> None:
        parsed = urllib.parse.urlsplit(base)
        shown = redact(base)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise RepomodelerError(f"error: --api '{shown}' is not an http(s) URL (e.g. http://127.0.0.1:9000)")
        if "@" in parsed.netloc:
            raise RepomodelerError(f"error: --api '{shown}' holds credentials; give the URL without them and the "
                                   "token with --token or REPOMODELER_API_TOKEN")
        # the base is scheme, host, port and path: a query or fragment would end up inside every request path
        self.base = urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, parsed.path.rstrip("/") + "/", "", ""))
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


def _owner(record: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> str | None:
    """The ``@id`` of what owns a record: through its owning membership, or a relationship's owner."""
    owning = record.get("owningRelationship")
    if isinstance(owning, dict) and owning.get("@id") in by_id:
        owner = by_id[owning["@id"]].get("owningRelatedElement")
        return str(owner["@id"]) if isinstance(owner, dict) else None
    owner = record.get("owningRelatedElement")
    return str(owner["@id"]) if isinstance(owner, dict) else None


def _is_relationship(record: dict[str, Any]) -> bool:
    return "source" in record or "target" in record or str(record.get("@type", "")).endswith(("Membership", "Import",
                                                                                              "Expose"))


def plan_changes(records: Records, previous: push_state.TargetState | None,
                 subtrees: bool = False) -> tuple[list[dict[str, Any]], push_state.TargetState]:
    """(the commit's change list, the state after it): the records that are new or differ from what the
    last push to this target sent, and the deletion of what it sent that the model no longer has.  With
    ``subtrees`` (a server that deletes an element with everything it owns and refuses to delete a
    membership on its own, as longeron does) only the topmost gone elements and the gone relationships
    whose owner stays are deleted."""
    by_id = {str(r["@id"]): r for r in records.records}
    state = push_state.TargetState(previous.commit if previous else None)
    for eid, r in by_id.items():
        state.records[eid] = push_state.PushedRecord(push_state.record_hash(r), _owner(r, by_id),
                                                     records.keys.get(eid),
                                                     str(r["@type"]) if _is_relationship(r) else None,
                                                     str(r["target"][0]["@id"]) if r.get("target") else None)
    before = previous.records if previous else {}
    change = [{"@type": "DataVersion", "identity": {"@id": eid}, "payload": r}
              for eid, r in by_id.items() if eid not in before or before[eid].hash != state.records[eid].hash]
    gone = sorted(set(before) - set(by_id))
    if subtrees:
        gone_set = set(gone)
        gone = [eid for eid in gone if before[eid].owner not in gone_set
                and not (before[eid].relationship or "").endswith("Membership")]
    change += [{"@type": "DataVersion", "identity": {"@id": eid}, "payload": None} for eid in gone]
    return change, state


#: what ``longeron serve``'s import re-creates from records (its ``POST /commits`` materialises them as text)
LONGERON_ELEMENTS = frozenset({
    "Package", "LibraryPackage", "Documentation", "Comment", "TextualRepresentation", "EnumerationDefinition"})
LONGERON_RELATIONSHIPS = frozenset({"FeatureTyping", "Subclassification", "Subsetting", "Redefinition"})


def _longeron_storable(record: dict[str, Any]) -> bool:
    t = str(record.get("@type", ""))
    if t in LONGERON_ELEMENTS:
        return True
    return t.endswith(("Definition", "Usage")) and t not in ("MetadataUsage", "ConjugatedPortDefinition")


def for_longeron(records: Records) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The records ``longeron serve`` can store, and how many of each kind it cannot (said to the user).

    Its import keeps elements, memberships, typing, specialisation, subsetting and redefinition; it drops
    metadata usages, values and expressions, a conjugated typing (``~T``), feature chains and a connector
    end's reference subsetting, which it has no place for.  A connector end goes as a plain
    ``Subsetting`` of the feature its chain ends with, so the end stays wired to its port in the text it
    writes; an element owned by something it drops is dropped with it (it would otherwise land at the
    top level of a new file)."""
    by_id = {str(r["@id"]): r for r in records.records}
    keep: set[str] = set()
    for r in records.records:  # document order: owners before what they own
        eid = str(r["@id"])
        if _is_relationship(r) or not _longeron_storable(r):
            continue
        owner = _owner(r, by_id)
        if owner is None or owner in keep:
            keep.add(eid)
    dropped: dict[str, int] = {}
    redefined = {r["redefiningFeature"]["@id"]: by_id[r["redefinedFeature"]["@id"]].get("declaredName")
                 for r in records.records if r["@type"] == "Redefinition"}
    chain_end: dict[str, str] = {}  # a feature chain -> the feature it ends with (document order: the last)
    for r in records.records:
        if r["@type"] == "FeatureChaining":
            chain_end[r["featureChained"]["@id"]] = r["chainingFeature"]["@id"]
    relationships: dict[str, dict[str, Any]] = {}
    for r in records.records:
        if not _is_relationship(r):
            continue
        t = str(r["@type"])
        if t == "ReferenceSubsetting":
            # longeron has no feature chains: the end subsets the chain's last feature (the port of `a.p`)
            target = chain_end.get(r["referencedFeature"]["@id"], r["referencedFeature"]["@id"])
            r = {k: v for k, v in r.items() if k not in ("referencingFeature", "referencedFeature", "ownedRelatedElement")}
            r.update({"@type": "Subsetting", "subsettingFeature": r["source"][0], "subsettedFeature": {"@id": target},
                      "target": [{"@id": target}]})
        if _kept_relationship(r, keep):
            relationships[str(r["@id"])] = r
        else:
            dropped[t] = dropped.get(t, 0) + 1
    out: list[dict[str, Any]] = []
    for r in records.records:
        eid, t = str(r["@id"]), str(r["@type"])
        if _is_relationship(r):
            if eid in relationships:
                out.append(relationships[eid])
            continue
        if eid not in keep:
            dropped[t] = dropped.get(t, 0) + 1
            continue
        r = {**r, "ownedRelationship": [x for x in r.get("ownedRelationship", []) if x["@id"] in relationships]}
        if t in ("Documentation", "Comment"):
            # longeron keeps a comment's body with its delimiters: an update patches the body as sent, so
            # it goes the way its own records and its import expect it
            r["body"] = f"/* {r.get('body', '')} */"
        if r.get("isEnd") and "declaredName" not in r:
            # longeron re-reads an unnamed `end ref :> a.p;` as a bare `end;`: the end goes with its
            # effective name, that of the definition's end it redefines (or source/target by position)
            r["declaredName"] = redefined.get(eid) or records.keys[eid].rsplit("::", 1)[-1]
        out.append(r)
    return out, dict(sorted(dropped.items()))


def _kept_relationship(r: dict[str, Any] | None, keep: set[str]) -> bool:
    if r is None:
        return False
    t = str(r["@type"])
    if not (t.endswith("Membership") or t in LONGERON_RELATIONSHIPS or t == "ReferenceSubsetting"):
        return False
    ends = [x["@id"] for x in (r.get("source") or []) + (r.get("target") or [])]
    return bool(ends) and all(e in keep for e in ends)


def server_names(server: list[dict[str, Any]]) -> dict[str, str]:
    """Qualified name -> ``@id`` of every named element a server holds (walking its memberships)."""
    by_id = {str(r["@id"]): r for r in server}
    names: dict[str, str] = {}
    memo: dict[str, str | None] = {}

    def qname(eid: str, depth: int = 0) -> str | None:
        if eid in memo:
            return memo[eid]
        r = by_id.get(eid)
        name = r.get("declaredName") or r.get("declaredShortName") if r else None
        if r is None or depth > 64:
            return None
        owner = _owner(r, by_id)
        parent = qname(owner, depth + 1) if owner and by_id.get(owner, {}).get("declaredName") else ""
        memo[eid] = None if name is None or parent is None else (f"{parent}::{name}" if parent else str(name))
        return memo[eid]

    for eid, r in by_id.items():
        if not _is_relationship(r):
            q = qname(eid)
            if q is not None:
                names.setdefault(q, eid)
    return names


def translate_ids(change: list[dict[str, Any]], records: Records, server: list[dict[str, Any]],
                  previous: push_state.TargetState | None = None) -> list[dict[str, Any]]:
    """Our ids -> the ids a server gave the same elements (matched by qualified name; a relationship by
    its kind and ends; a documentation by its owner), for a server that derives ids of its own.  What
    the model no longer has is found through what the last push recorded of it (``previous``)."""
    names = server_names(server)
    keys = {eid: r.key for eid, r in (previous.records if previous else {}).items() if r.key}
    keys.update(records.keys)
    ours = {eid: names[key] for eid, key in keys.items() if "#" not in key and key in names}
    server_by_id = {str(r["@id"]): r for r in server}
    rels: dict[tuple[str, str, str], str] = {}
    docs: dict[str, str] = {}
    for r in server:
        if _is_relationship(r) and r.get("source") and r.get("target"):
            rels.setdefault((str(r["@type"]), r["source"][0]["@id"], r["target"][0]["@id"]), str(r["@id"]))
        elif r.get("@type") == "Documentation":
            owner = _owner(r, server_by_id)
            if owner:
                docs.setdefault(owner, str(r["@id"]))
    for eid, key in keys.items():
        if key.endswith("#doc"):
            owner_key = key[: -len("#doc")]
            owner = names.get(owner_key)
            if owner in docs:
                ours[eid] = docs[owner]
    by_id = {str(r["@id"]): r for r in records.records}
    for eid, r in by_id.items():
        if _is_relationship(r) and r.get("source") and r.get("target"):
            src, tgt = ours.get(r["source"][0]["@id"]), ours.get(r["target"][0]["@id"])
            t = "Subsetting" if r["@type"] == "ReferenceSubsetting" else str(r["@type"])
            if src and tgt and (t, src, tgt) in rels:
                ours[eid] = rels[(t, src, tgt)]
    for eid, old in (previous.records if previous else {}).items():
        if old.relationship and eid not in by_id and old.owner and old.target:
            src, tgt = ours.get(old.owner), ours.get(old.target)
            t = "Subsetting" if old.relationship == "ReferenceSubsetting" else old.relationship
            if src and tgt and (t, src, tgt) in rels:
                ours[eid] = rels[(t, src, tgt)]

    def swap(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"@id"}:
                return {"@id": ours.get(value["@id"], value["@id"])}
            return {k: (ours.get(v, v) if k in ("@id", "elementId") else swap(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    return [swap(c) for c in change]


def _same(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    """Whether a server's record says what ours says (servers add derived fields: compare ours only)."""
    if old is None or new is None:
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
    notes = notes if notes is not None else []
    if not model_dir.is_dir():
        raise RepomodelerError(f"error: '{model_dir}' is not a model folder (no model.sysml, model.json); "
                               "run 'repomodeler analyze' first or name the folder it wrote")
    records = records_from_model_dir(model_dir)
    system = next((r for r in records.records if r["@type"] == "Package" and "owningRelationship" not in r), None)
    client = ApiClient(api, token)
    kind = server_kind(client)
    proj = find_project(client, project or str((system or {}).get("declaredName") or model_dir.name), create=create)
    project_id = str(proj["@id"])
    states = push_state.load(model_dir)
    target = push_state.target_key(api, project_id)
    change, state = plan_changes(records, states.get(target), subtrees=kind == "longeron")
    if not change:
        return None, 0, project_id
    head = head_commit(client, proj)
    previous = states.get(target)
    if kind == "longeron":
        storable, dropped = for_longeron(records)
        sent = {str(r["@id"]): r for r in storable}
        for eid, pushed in state.records.items():
            pushed.sent = eid in sent
        change = [{**c, "payload": sent[c["identity"]["@id"]]} if c["payload"] is not None else c
                  for c in change if c["payload"] is None or c["identity"]["@id"] in sent]
        # delete only what the server was sent (it never stored the rest)
        change = [c for c in change if c["payload"] is not None
                  or (previous is not None and previous.records[c["identity"]["@id"]].sent)]
        server = client.elements(project_id, head) if head else []
        if previous is None and system is not None and system.get("declaredName") in server_names(server):
            raise RepomodelerError(
                f"error: project {project_id} already holds package {system['declaredName']} but {model_dir} has no "
                f"{push_state.FILE_NAME} for it (pushed from another folder?); copy that folder's "
                f"{push_state.FILE_NAME} here, or push to a project without it")
        change = translate_ids(change, records, server, previous)
        if dropped:
            notes.append("longeron serve stores structure only; not sent: "
                         + ", ".join(f"{n} {t}" for t, n in dropped.items())
                         + " (metadata, values and conjugated typings stay in model.sysml)")
    elif previous is None and head:
        # no record of an earlier push: what the server already holds with our ids is not sent again
        held = {str(r["@id"]): r for r in client.elements(project_id, head)}
        change = [c for c in change if not _same(held.get(c["identity"]["@id"]), c["payload"])]
    if records.unresolved:
        notes.append("references outside the model (standard library) are not sent: " + ", ".join(records.unresolved))
    if change:
        body: dict[str, Any] = {"@type": "Commit", "description": f"repomodeler: {(system or {}).get('declaredName')}",
                                "change": change}
        if head and head != "working":
            body["previousCommit"] = {"@id": head}
        branch = proj.get("defaultBranch")
        params = {"branchId": str(branch["@id"])} if isinstance(branch, dict) and branch.get("@id") else None
        status, commit, _ = client.request("POST", f"projects/{project_id}/commits", body, params=params)
        if status >= 300 or not isinstance(commit, dict):
            hint = (f"; if the project changed since the last push from here, delete {model_dir / push_state.FILE_NAME} "
                    "and push to an empty project") if previous is not None and status < 500 else ""
            raise RepomodelerError(f"error: the server refused the commit (HTTP {status}): {_detail(commit)}{hint}")
    else:
        commit = None
    state.commit = str(commit.get("@id")) if commit else state.commit
    states[target] = state
    push_state.save(model_dir, states)
    return commit, len(change), project_id


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
