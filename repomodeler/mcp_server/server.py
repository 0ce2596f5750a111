"""`repomodeler mcp`: the questions of :mod:`repomodeler.query` as an MCP server for coding agents.

Built on the official MCP Python SDK (:class:`mcp.server.mcpserver.MCPServer`).  Each question is a
tool with typed inputs and a typed, structured output (the records of
:mod:`repomodeler.query.records`), the models of the folder are resources (model.json,
model.sysml, and evidence snippets read through the viewer's safe source reader,
:mod:`repomodeler.serve.source`), and one prompt explains the vocabulary.

Read-only: nothing here clones, analyses or writes, unless the operator starts the server with
``--allow-analyze HOSTS``; then an ``analyze`` tool accepts git URLs of those hosts only (through
the same transport allow-list as ``repomodeler analyze``) and writes the model into the folder.

A question that cannot be answered (unknown model or component, a forged or oversized model, a bad
argument) returns a tool error with one line saying what to do; it never stops the server.
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Any, Callable, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from repomodeler import __version__, query
from repomodeler.mcp_server.folder import ModelsAnswer, ModelsFolder
from repomodeler.query.records import (
    ChangesAnswer,
    ComponentsAnswer,
    EvidenceAnswer,
    ImpactAnswer,
    NeighboursAnswer,
    PathAnswer,
    UnresolvedAnswer,
    UsesAnswer,
)
from repomodeler.records import RepomodelerError

_F = TypeVar("_F", bound=Callable[..., Any])

ModelName = Annotated[str, Field(description="A model of the folder, by name (list_models shows them).",
                                 min_length=1, max_length=128)]
ComponentName = Annotated[str, Field(description="A component id from the model (its name works too).",
                                     min_length=1, max_length=1000)]

AnalyzeInputs = Annotated[list[str], Field(min_length=1, max_length=20,
                                            description="git URLs (URL or URL@REF) on the hosts the server allows.")]
AnalyzeName = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$",
                                   description="The system's name; the model is written to MODELS/NAME.")]
AnalyzeValidate = Annotated[bool, Field(description="Check the SysML with the strict engine.")]

VOCABULARY = """\
You are looking at an evidence-backed architecture model made by repomodeler from source code.

Vocabulary:
- component: something that runs or stores (kind service, gateway, database, cache, broker, external,
  library, user). A part inside a component (kind subsystem, or a logical database) names it as parent.
- connection SOURCE->TARGET:PROTOCOL: SOURCE depends on TARGET. kind calls (http, grpc...), uses (a store:
  sql, mongodb, redis...), publishes / subscribes (a broker, with topics), depends_on (a library), spawns.
- evidence: repository:path:line, the place in the code or configuration that shows the element. Cite it.
- rules: ids of the analysis rules that made the element (e.g. compose.services, code.client-calls);
  every answer lists their messages.
- unresolved: addresses and clients the analysis saw but could not tie to a component.

Questions (tools): list_models; components [KIND]; callers / callees COMPONENT (direct dependants / dependencies);
impact COMPONENT (everything that depends on it, transitively, with the path from each); path FROM TO
(every route a request or message takes, through gateways and brokers); uses SUBJECT (a store's users,
a topic's publishers and subscribers, an endpoint's provider and callers; prefix store:, topic: or
endpoint: to say which); evidence ELEMENT (a component, SOURCE->TARGET[:PROTOCOL], COMPONENT.PORT or
COMPONENT:METHOD /path); unresolved; changes SYSTEM RUN1 RUN2 (run history); against MODEL TARGET
(target-state diff); source (the lines around an evidence location).
Resources: repomodeler://models, repomodeler://models/{name}/model.json, .../model.sysml,
.../source?repository=R&path=P&line=N.

Answer from the tools, not from memory, and cite evidence as repository:path:line with the rule ids.
"""


@dataclass(frozen=True)
class Snippet:
    """Lines of a cited file around one evidence location (``highlight`` is the cited line)."""

    model: str
    repository: str
    path: str
    line: int
    start: int
    highlight: int
    lines: tuple[str, ...]
    commit: str | None = None


@dataclass(frozen=True)
class AnalyzeAnswer:
    """What ``analyze`` published into the models folder."""

    name: str
    components: int
    connections: int
    failures: tuple[str, ...] = ()
    resource: str = ""


def _tool_errors(fn: _F) -> _F:
    """Turn the library's one-line errors into tool errors (is_error results), never a crash."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RepomodelerError as exc:
            raise ToolError(str(exc)) from None
        except RecursionError:
            raise ToolError("error: the model is nested too deeply to answer on") from None

    return wrapper  # type: ignore[return-value]


def _resource_errors(fn: _F) -> _F:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RepomodelerError as exc:
            raise ResourceError(str(exc)) from None

    return wrapper  # type: ignore[return-value]


def build_server(models_dir: Path, source_roots: tuple[Path, ...] = (), allow_analyze: tuple[str, ...] = (),
                 allow_http: bool = False) -> MCPServer:
    """The MCP server over `models_dir` (see the module doc)."""
    folder = ModelsFolder(models_dir)
    server = MCPServer("repomodeler", title="repomodeler architecture model", version=__version__,
                       instructions=VOCABULARY, log_level="WARNING")
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def tool(fn: _F) -> _F:
        server.add_tool(_tool_errors(fn), annotations=read_only, structured_output=True)
        return fn

    @tool
    def list_models() -> ModelsAnswer:
        """The models of the folder: name, title, component and connection counts; a model that cannot be
        read (forged, oversized) is listed as broken with the reason."""
        return folder.listing()

    @tool
    def components(model: ModelName,
                   kind: Annotated[str, Field(max_length=40, description="Only this kind (service, database, broker...).")] = "",
                   nested: Annotated[bool, Field(description="Also the parts inside components (subsystems...).")] = False,
                   limit: Annotated[int, Field(ge=0, le=1_000_000, description="The first N by id (0: all).")] = 500
                   ) -> ComponentsAnswer:
        """The components of MODEL with their kind, evidence and rule ids (``total`` counts them all)."""
        return query.components(folder.index(model), kind, nested, limit)

    @tool
    def callers(model: ModelName, component: ComponentName) -> NeighboursAnswer:
        """Who depends on COMPONENT directly (calls it, uses it, publishes or subscribes at it), with the
        connections, their file:line evidence and rule ids."""
        return query.callers(folder.index(model), component)

    @tool
    def callees(model: ModelName, component: ComponentName) -> NeighboursAnswer:
        """What COMPONENT depends on directly, with the connections, their evidence and rule ids."""
        return query.callees(folder.index(model), component)

    @tool
    def impact(model: ModelName, component: ComponentName,
               limit: Annotated[int, Field(ge=0, le=1_000_000, description="The nearest N (0: all).")] = 200
               ) -> ImpactAnswer:
        """Everything that depends on COMPONENT, transitively (what breaks if it goes), nearest first, each
        with the path of connection ids from it to COMPONENT (the connections' records, evidence and rules are
        in ``links``; through a broker a step is the subscription, then the publication); ``total`` counts all."""
        return query.impact(folder.index(model), component, limit)

    @tool
    def path(model: ModelName, source: ComponentName, target: ComponentName,
             max_routes: Annotated[int, Field(ge=1, le=1000, description="Routes listed at most.")] = 20,
             max_hops: Annotated[int, Field(ge=1, le=50, description="Connections per route at most.")] = 8) -> PathAnswer:
        """Every route a request or message takes from SOURCE to TARGET (shortest first), through gateways
        and brokers, each hop with its evidence."""
        return query.path(folder.index(model), source, target, max_routes=max_routes, max_hops=max_hops)

    @tool
    def uses(model: ModelName,
             subject: Annotated[str, Field(min_length=1, max_length=1000, description=(
                 "A store (component id), a topic, or an endpoint ('GET /orders/{id}', '/orders'); prefix "
                 "store:, topic: or endpoint: to say which."))]) -> UsesAnswer:
        """Who uses a store, publishes or subscribes a topic, provides or calls an endpoint."""
        return query.uses(folder.index(model), subject)

    @tool
    def evidence(model: ModelName,
                 element: Annotated[str, Field(min_length=1, max_length=1000, description=(
                     "A component id, SOURCE->TARGET[:PROTOCOL], COMPONENT.PORT or COMPONENT:METHOD /path."))]
                 ) -> EvidenceAnswer:
        """The file:line evidence and the rules (ids and messages) behind one element."""
        return query.evidence(folder.index(model), element)

    @tool
    def unresolved(model: ModelName) -> UnresolvedAnswer:
        """Addresses and clients the analysis saw but could not tie to a component, with their evidence."""
        return query.unresolved(folder.index(model))

    @tool
    def changes(system: Annotated[str, Field(min_length=1, max_length=128, description="The system's name in the run history.")],
                run1: Annotated[str, Field(max_length=64, description="N, latest or previous.")] = "previous",
                run2: Annotated[str, Field(max_length=64, description="N, latest or previous.")] = "latest") -> ChangesAnswer:
        """What changed between two recorded analyses of SYSTEM (components, ports, endpoints, connections)."""
        from repomodeler.query.load import run_reference

        a, b = run_reference(run1, system), run_reference(run2, system)
        return query.changes(query.QueryIndex(a.model, a.origin), query.QueryIndex(b.model, b.origin), "changes")

    @tool
    def against(model: ModelName,
                target: Annotated[str, Field(min_length=1, max_length=200, description=(
                    "Another model of the folder, or a .sysml target file directly inside MODEL's folder."))]
                ) -> ChangesAnswer:
        """How MODEL differs from a target architecture (what to add, remove or change to reach it)."""
        index = folder.index(model)
        goal = folder.target(model, target)
        return query.changes(index, query.QueryIndex(goal.model, goal.origin), "against", arch_b=goal.arch)

    @tool
    def source(model: ModelName,
               repository: Annotated[str, Field(min_length=1, max_length=200)],
               path: Annotated[str, Field(min_length=1, max_length=4096, description="Repository-relative path the model cites.")],
               line: Annotated[int, Field(ge=1, le=10_000_000)],
               context: Annotated[int, Field(ge=0, le=50)] = 5) -> Snippet:
        """The lines around an evidence location (only files the model cites, from the analysed checkout)."""
        return _snippet(folder, source_roots, model, repository, path, line, context)

    if allow_analyze:
        from repomodeler.mcp_server.analyze import AnalyzeGate

        gate = AnalyzeGate(tuple(allow_analyze), allow_http=allow_http)

        @_tool_errors
        def analyze(inputs: AnalyzeInputs, name: AnalyzeName, validate: AnalyzeValidate = True) -> AnalyzeAnswer:
            result = gate.analyze(inputs, name, folder.store.root, validate=validate)
            return AnalyzeAnswer(name=name, components=result[0], connections=result[1], failures=result[2],
                                 resource=f"repomodeler://models/{name}/model.json")

        server.add_tool(analyze, description=(
            "Clone and analyse INPUTS (git URLs, URL@REF) as one system into the models folder as NAME. Only "
            f"URLs on these hosts are accepted: {', '.join(gate.hosts)}."),
            annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=True),
            structured_output=True)

    # ---- resources ---------------------------------------------------------------------------------
    @server.resource("repomodeler://models", name="models", mime_type="application/json",
                     description="The models of the folder (name, title, counts; broken ones with the reason).")
    def models_resource() -> str:
        return json.dumps(asdict(folder.listing()), indent=2)

    @server.resource("repomodeler://models/{name}/model.json", name="model.json", mime_type="application/json",
                     description="A model's model.json (repomodeler/model@1), once the viewer's checks accept it.")
    @_resource_errors
    def model_json_resource(name: str) -> str:
        return folder.model_json(name)

    @server.resource("repomodeler://models/{name}/model.sysml", name="model.sysml", mime_type="text/plain",
                     description="A model's SysML v2 text.")
    @_resource_errors
    def model_sysml_resource(name: str) -> str:
        return folder.sysml(name)

    @server.resource("repomodeler://models/{name}/source{?repository,path,line}", name="evidence snippet",
                     mime_type="application/json",
                     description="Lines around an evidence location the model cites (repository, path, line).")
    @_resource_errors
    def source_resource(name: str, repository: str = "", path: str = "", line: str = "") -> str:
        try:
            number = int(line)
        except ValueError:
            raise RepomodelerError(f"error: line must be a number, not '{line[:40]}'") from None
        return json.dumps(asdict(_snippet(folder, source_roots, name, repository, path, number, 5)), indent=2)

    for name in folder.names():  # the models present at start, listed (the templates reach later ones)
        _register_model_resources(server, folder, name)

    @server.prompt(name="architecture-vocabulary", title="How to ask repomodeler's architecture model")
    def vocabulary() -> str:
        """The words of the model (component, connection, evidence, rules) and which tool answers what."""
        return VOCABULARY

    return server


def _register_model_resources(server: MCPServer, folder: ModelsFolder, name: str) -> None:
    from mcp.server.mcpserver.resources import FunctionResource

    def reader(read: Callable[[str], str]) -> Callable[[], str]:
        @_resource_errors
        def read_it() -> str:
            return read(name)

        return read_it

    for file, mime, read in (("model.json", "application/json", folder.model_json),
                             ("model.sysml", "text/plain", folder.sysml)):
        server.add_resource(FunctionResource.from_function(
            fn=reader(read), uri=f"repomodeler://models/{name}/{file}",
            name=f"{name}/{file}", mime_type=mime, description=f"{file} of model '{name}'"))


def _snippet(folder: ModelsFolder, roots: tuple[Path, ...], model: str, repository: str, path: str, line: int,
             context: int) -> Snippet:
    """serve/source.py's snippet: only cited files, checkouts only under the source roots."""
    from repomodeler.serve.source import BadRequest, snippet, source_roots
    from repomodeler.serve.store import NotFound

    folder.index(model)  # unknown, forged and oversized models are refused first
    try:
        got = snippet(folder.store.model(model), folder.store.run(model), repository, path, line, context,
                      roots=source_roots(roots))
    except BadRequest as exc:
        raise RepomodelerError(f"error: {exc}; give a repository-relative path the model cites") from None
    except NotFound as exc:
        raise RepomodelerError(f"error: no source for {repository}:{path}:{line} ({exc}); only files the model cites "
                               "are read, from a checkout in the clone cache or a --source-root") from None
    return Snippet(model=model, repository=repository, path=path, line=line, start=int(got["start"]),
                   highlight=int(got["highlight"]), lines=tuple(got["lines"]), commit=got.get("commit"))
