"""SysML v2 textual notation, rendered from the graph with jinja2 templates.

The output is one ``model.sysml`` holding the ``RepoModeler`` library package (kinds, protocol
ports and interfaces, the ``SourceRef`` provenance metadata) and the system package: a ``part
system`` with a typed part usage per component, its provided API ports with their endpoints, a
conjugated client port per outgoing connection, and one named ``interface`` usage per connection.
Names are derived from component ids, so the same commits always give the same text.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2
import networkx as nx

from repomodeler.emit.names import safe_member_name, sysml_doc, sysml_name, sysml_string
from repomodeler.records import NODE_KINDS, PROTOCOLS, Evidence

MAX_EVIDENCE = 8
KIND_DEF = {"service": "Service", "database": "Database", "cache": "Cache", "broker": "Broker",
            "gateway": "Gateway", "external": "ExternalSystem", "library": "Library", "user": "User"}
PROTOCOL_PORT = {"http": "HttpApi", "grpc": "GrpcApi", "sql": "SqlApi", "mongodb": "MongoApi", "redis": "RedisApi",
                 "amqp": "AmqpApi", "kafka": "KafkaApi", "nats": "NatsApi", "elasticsearch": "ElasticsearchApi",
                 "tcp": "TcpApi"}
PROTOCOL_LABEL = {"http": "HTTP", "grpc": "gRPC", "sql": "SQL", "mongodb": "the MongoDB protocol",
                  "redis": "the Redis protocol", "amqp": "AMQP", "kafka": "the Kafka protocol", "nats": "NATS",
                  "elasticsearch": "the Elasticsearch API", "tcp": "TCP (protocol not determined)"}
MESSAGING = {"kafka", "amqp", "nats"}


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
        autoescape=False, keep_trailing_newline=True, trim_blocks=False, lstrip_blocks=False,
        undefined=jinja2.StrictUndefined,
    )


def _evidence(items: tuple[Evidence, ...] | list[Evidence], commits: dict[str, str | None]) -> list[dict[str, object]]:
    return [{"repository": sysml_string(e.repository), "path": sysml_string(e.path), "line": e.line,
             "commit": sysml_string(commits[e.repository]) if commits.get(e.repository) else ""}
            for e in sorted(set(items))[:MAX_EVIDENCE]]


def render_library() -> str:
    protocols = [{"enum": p, "port": PROTOCOL_PORT[p], "link": PROTOCOL_PORT[p].replace("Api", "Link"),
                  "messaging": p in MESSAGING, "doc": f"An API reached over {PROTOCOL_LABEL[p]}."} for p in PROTOCOLS]
    kinds = [k for k in NODE_KINDS]
    return _env().get_template("library.sysml.j2").render(
        kinds=[sysml_name(k) for k in kinds], protocols=protocols,
        kind_defs=[{"def": KIND_DEF[k]} for k in kinds],
    )


def _member_names(g: nx.MultiDiGraph) -> dict[str, str]:
    return {cid: sysml_name(safe_member_name(cid, g.nodes[cid]["kind"])) for cid in g.nodes}


def render_system(g: nx.MultiDiGraph) -> str:
    commits = {r["name"]: r["commit"] for r in g.graph["repositories"]}
    names = _member_names(g)
    client_ports: dict[str, list[dict[str, str]]] = {cid: [] for cid in g.nodes}
    server_protocols: dict[str, set[str]] = {cid: set() for cid in g.nodes}
    connections = []
    for u, v, key, d in sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2])):
        proto = d["protocol"]
        client_port = sysml_name(f"to-{v}-{proto}")
        client_ports[u].append({"name": client_port, "type": "~" + PROTOCOL_PORT[proto], "endpoints": []})
        server_protocols[v].add(proto)
        via = d["attributes"].get("via", "")
        verb = {"calls": "Calls", "uses": "Uses", "depends_on": "Depends on"}.get(d["kind"], "Connects to")
        text = f"{verb} {g.nodes[v]['name']} over {PROTOCOL_LABEL[proto]}" + (f" ({via})" if via and via != "literal" else "") + "."
        connections.append({
            "name": sysml_name(f"{u}-{v}-{proto}"), "link": PROTOCOL_PORT[proto].replace("Api", "Link"),
            "client": f"{names[u]}.{client_port}", "server": f"{names[v]}.{sysml_name(proto)}",
            "doc": sysml_doc(f"{g.nodes[u]['name']} {text[0].lower() + text[1:]}"),
            "evidence": _evidence(d["evidence"], commits),
        })
    components = []
    for cid in sorted(g.nodes):
        d = g.nodes[cid]
        ports = []
        provided = {p.protocol: p for p in d["ports"]}
        for proto in sorted(server_protocols[cid] | set(provided)):
            port = provided.get(proto)
            eps = []
            for ep in sorted(port.endpoints, key=lambda e: (e.path, e.method)) if port else []:
                eps.append({"name": sysml_name(f"{ep.method} {ep.path}"), "method": sysml_string(ep.method),
                            "path": sysml_string(ep.path), "evidence": _evidence(ep.evidence, commits)})
            ports.append({"name": sysml_name(proto), "type": PROTOCOL_PORT[proto], "endpoints": eps})
        ports.extend(sorted(client_ports[cid], key=lambda p: p["name"]))
        attrs = []
        if d["repository"]:
            attrs.append({"name": "repository", "value": sysml_string(d["repository"])})
        if d["language"]:
            attrs.append({"name": "'language'", "value": sysml_string(d["language"])})
        for key, attr in (("technology", "technology"), ("image", "image"), ("ports", "exposedPorts")):
            if d["attributes"].get(key):
                attrs.append({"name": attr, "value": sysml_string(d["attributes"][key])})
        n_eps = sum(len(p["endpoints"]) for p in ports)
        where = ", ".join(sorted({f"{e.repository}:{e.path}" for e in d["evidence"]})[:3])
        doc = f"{d['kind'].capitalize()} '{d['name']}'"
        if d["language"]:
            doc += f" written in {d['language']}"
        if d["attributes"].get("technology"):
            doc += f" ({d['attributes']['technology']})"
        doc += f", found in {where}"
        if n_eps:
            doc += f"; provides {n_eps} HTTP endpoint{'s' if n_eps != 1 else ''}"
        if len(d["evidence"]) > MAX_EVIDENCE:
            doc += f"; {len(d['evidence']) - MAX_EVIDENCE} more source locations in model.json"
        components.append({"name": names[cid], "def": KIND_DEF[d["kind"]], "doc": sysml_doc(doc + "."),
                           "evidence": _evidence(d["evidence"], commits), "attributes": attrs, "ports": ports})
    repo_views = []
    for repo in g.graph["repositories"]:
        members = sorted(names[cid] for cid in g.nodes if g.nodes[cid]["repository"] == repo["name"])
        if members:
            repo_views.append({"name": sysml_name(f"tree-{repo['name']}"), "repository": sysml_doc(repo["name"]),
                               "members": members})
    repos = g.graph["repositories"]
    doc = "Architecture of " + g.graph["name"] + " recovered by repomodeler from " + ", ".join(
        f"{r['name']}@{(r['commit'] or 'working tree')[:12]}" for r in repos) + "."
    return _env().get_template("system.sysml.j2").render(
        package=sysml_name(g.graph["name"]), doc=sysml_doc(doc), components=components, connections=connections,
        repo_count=len(repos), repo_views=repo_views,
    )


def render_sysml(g: nx.MultiDiGraph) -> str:
    """The single-file model: library package followed by the system package."""
    return render_library() + "\n" + render_system(g)
