""".NET Aspire app hosts as deployment descriptors.

An Aspire AppHost's ``Program.cs`` declares the system in C#: ``AddProject<Projects.Catalog_API>("catalog-api")``
is a service built from ``Catalog.API.csproj`` whose service-discovery host is ``catalog-api``;
``AddRedis``/``AddRabbitMQ``/``AddPostgres(...).AddDatabase("catalogdb")`` are stores and brokers;
``WithReference(x)`` gives the resource a connection to ``x``; ``WithEnvironment("K", x.GetEndpoint(..))``
passes it x's address; ``WithExternalHttpEndpoints()`` publishes it.  ``WaitFor`` only orders start-up.

Facts are ``aspire.statement`` (one per C# statement of an AppHost, with its text); this module reads
the builder calls in that text.  A server that only hosts databases (``AddPostgres`` with
``AddDatabase`` children) is represented by its databases, which is what the services connect to.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import TECH_KIND, TECH_PROTOCOL, tech_for_image
from repomodeler.graph.identity import key
from repomodeler.graph.naming import is_under, norm_path
from repomodeler.records import Component, Evidence, Fact

# Aspire hosting methods and the technology they add.
ASPIRE_TECH: dict[str, str] = {
    "AddRedis": "redis", "AddGarnet": "redis", "AddValkey": "redis", "AddRabbitMQ": "rabbitmq", "AddKafka": "kafka",
    "AddNats": "nats", "AddPostgres": "postgres", "AddSqlServer": "sqlserver", "AddMySql": "mysql",
    "AddMongoDB": "mongodb", "AddOracle": "database", "AddElasticsearch": "elasticsearch", "AddQdrant": "database",
    "AddMilvus": "database", "AddAzureServiceBus": "servicebus", "AddAzureCosmosDB": "database",
    "AddAzureStorage": "s3", "AddMemcached": "memcached", "AddAzureEventHubs": "eventhubs",
    # (the Azure-hosted servers, run as local containers in run mode: the same technology)
    "AddAzurePostgresFlexibleServer": "postgres", "AddAzureRedis": "redis", "AddAzureManagedRedis": "redis",
    "AddAzureSqlServer": "sqlserver",
}
# Azure services an AppHost provisions (in publish mode; run mode often takes a connection string to one):
# managed services outside the system's own processes, drawn as the external systems they are.
ASPIRE_AZURE_SERVICES: dict[str, str] = {
    "AddAzureApplicationInsights": "applicationinsights", "AddAzureKeyVault": "keyvault",
    "AddAzureSignalR": "signalr", "AddAzureOpenAI": "openai", "AddAzureSearch": "search",
    "AddAzureAISearch": "search", "AddAzureWebPubSub": "webpubsub",
}
# Aspire hosting methods adding a server program of a known product (the Community Toolkit's and
# Aspire's own): its technology and kind.
ASPIRE_SERVERS: dict[str, tuple[str, str]] = {
    "AddOllama": ("ollama", "service"), "AddKeycloak": ("keycloak", "service"), "AddSeq": ("seq", "service"),
    "AddMailPit": ("mailpit", "service"), "AddMinio": ("minio", "database"), "AddMeilisearch": ("meilisearch", "database"),
    "AddOpenTelemetryCollector": ("otel-collector", "service"),
}
# Methods adding an app the AppHost starts from a folder of code (AddPythonUvicornApp, AddGolangApp,
# AddJavaApp, AddBunApp...): a service of the code in the folder the second argument names.
APP_METHOD = re.compile(r"^Add\w*(App|Executable)$")
CALL = re.compile(r"\.(?P<method>[A-Z][A-Za-z]*)\s*(?:<(?P<generic>[^>]*)>)?\s*\((?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\)")
STRING = re.compile(r'"([^"\\]*)"')
IDENT = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\b")
ORDER_ONLY = frozenset({"WaitFor", "WaitForCompletion", "WithParentRelationship", "WithLifetime", "WithImage",
                        "WithImageTag", "WithDataVolume", "WithBindMount", "WithArgs", "WithHttpHealthCheck",
                        "WithReplicas", "WithUrls", "WithUrl", "PublishAsDockerFile", "WithPgAdmin", "WithManagementPlugin"})


class AspireRules(ResolverBase):
    """Components and connections declared by .NET Aspire app hosts."""

    def aspire_components(self) -> None:
        statements = sorted(self.by_kind["aspire.statement"], key=lambda f: (f.repository, f.path, f.line))
        if not statements:
            return
        self.aspire_vars: dict[tuple[str, str, str], str] = {}  # (repo, file, variable) -> component id
        # Servers represented by their databases: (repo, file, variable) -> technology, and -> resource name.
        self.aspire_tech: dict[tuple[str, str, str], str] = {}
        self.aspire_server_names: dict[tuple[str, str, str], str] = {}
        servers_with_databases: set[tuple[str, str, str]] = set()
        for f in statements:
            calls = list(CALL.finditer(f.get("text") or ""))
            if any(c.group("method") == "AddDatabase" for c in calls):
                receiver = (f.get("text") or "").split(".AddDatabase")[0].split("=")[-1].strip()
                if IDENT.fullmatch(receiver):
                    servers_with_databases.add((f.repository, f.path, receiver))
        for f in statements:
            self._aspire_resource(f, servers_with_databases)
        for f in statements:
            self._aspire_references(f)

    def _aspire_resource(self, f: Fact, servers_with_databases: set[tuple[str, str, str]]) -> None:
        text = f.get("text") or ""
        var = f.get("var")
        calls = list(CALL.finditer(text))
        first = next((c for c in calls if c.group("method").startswith("Add")), None)
        if first is None:
            if var and calls and calls[0].group("method") == "GetEndpoint":
                receiver = text.split("=", 1)[-1].split(".GetEndpoint")[0].strip()
                target = self.aspire_vars.get((f.repository, f.path, receiver))
                if target:  # var identityEndpoint = identityApi.GetEndpoint("https")
                    self.aspire_vars[(f.repository, f.path, var)] = target
            return
        method = first.group("method")
        names = self._aspire_names(f.repository, first.group("args"))
        if not names:
            return
        name = names[0]
        ev = f.evidence
        if var and (f.repository, f.path, var) in servers_with_databases and method in ASPIRE_TECH:
            self.aspire_vars[(f.repository, f.path, var)] = ""  # represented by its databases
            self.aspire_tech[(f.repository, f.path, var)] = ASPIRE_TECH[method]
            self.aspire_server_names[(f.repository, f.path, var)] = name
            return
        attrs = {"deployment": "aspire"}
        if method == "AddProject":
            project = (first.group("generic") or "").rsplit(".", 1)[-1]
            root = self._csproj_folder(f.repository, project)
            # The same project deployed by compose too (`flight` building src/Services/Flight, the
            # AppHost's `flight-service` being src/Services/Flight/src/Flight.Api): one component.
            deployed = self._deployment_building(f.repository, root) if root is not None else None
            comp = self.add_component(name, "service", f.repository, ev, attributes=attrs) if deployed is None \
                else deployed
            if deployed is not None:
                comp.evidence.add(ev)
                comp.aliases.add(name.lower())
                self.alias.setdefault(name.lower(), comp.id)
            if root is not None:
                comp.source_roots.add((f.repository, root))
        elif method == "AddDatabase":
            server = text.split(".AddDatabase")[0].split("=")[-1].strip()
            tech = self.aspire_tech.get((f.repository, f.path, server), "database")
            server_name = self.aspire_server_names.get((f.repository, f.path, server), "")
            deployed = self.model.components.get(self.alias.get(server_name.lower(), "")) if server_name else None
            if deployed is not None and deployed.kind in ("database", "cache"):
                # The server is deployed by compose too (`postgres`): the database is a logical
                # database on it (a part of the server, see logical_databases), not a component.
                deployed.evidence.add(ev)
                self.databases_named[(deployed.id, name)].add(ev)
                if var:
                    self.aspire_vars[(f.repository, f.path, var)] = deployed.id
                return
            taken = self.model.components.get(self.alias.get(name.lower(), ""))
            if taken is not None and taken.kind in ("service", "gateway"):
                name = f"{name}-db"  # a database named like a service compose deploys (`flight`)
            comp = self.add_component(name, "database", f.repository, ev,
                                      attributes={**attrs, "technology": tech, "server": server})
        elif method in ASPIRE_TECH:
            tech = ASPIRE_TECH[method]
            comp = self.add_component(name, TECH_KIND.get(tech, "database"), f.repository, ev,
                                      attributes={**attrs, "technology": tech})
        elif method in ASPIRE_AZURE_SERVICES:
            comp = self.add_component(name, "external", None, ev,
                                      attributes={**attrs, "technology": ASPIRE_AZURE_SERVICES[method]})
        elif method in ("AddContainer", "AddDockerfile"):
            image = names[1] if len(names) > 1 else ""
            tech = tech_for_image(image)
            comp = self.add_component(name, tech[1] if tech else "service", f.repository, ev,
                                      attributes={**attrs, "image": image, "technology": tech[0] if tech else ""})
        elif method in ("AddYarp", "AddReverseProxy"):
            comp = self.add_component(name, "gateway", f.repository, ev, attributes={**attrs, "technology": "yarp"})
        elif method in ASPIRE_SERVERS:
            tech, kind = ASPIRE_SERVERS[method]
            comp = self.add_component(name, kind, f.repository, ev, attributes={**attrs, "technology": tech})
        elif APP_METHOD.match(method):
            combined = re.search(r"Path\.Combine\s*\(([^()]*)\)", first.group("args"))
            where = "/".join(STRING.findall(combined.group(1))) if combined else names[1] if len(names) > 1 else ""
            folder = norm_path(PurePosixPath(f.path).parent.joinpath(where).as_posix()) if where else None
            # a front end kept inside a project the AppHost adds (Exceptionless.Web/ClientApp, started here by its
            # own dev server, AddViteApp): the UI that project's build serves, not a component beside it
            hosts = {cid for (r, p, _v), cid in self.aspire_vars.items() if r == f.repository and p == f.path and cid
                     and folder and any(r2 == f.repository and root and folder != root and is_under(folder, root)
                                        for r2, root in self.model.components[cid].source_roots)}
            if len(hosts) == 1:
                host = self.model.components[hosts.pop()]
                host.evidence.add(ev)
                if var:
                    self.aspire_vars[(f.repository, f.path, var)] = host.id
                return
            comp = self.add_component(name, "service", f.repository, ev, attributes=attrs)
            if folder is not None:  # the app's folder: "../web", or Path.Combine("..", "PythonInference")
                comp.source_roots.add((f.repository, folder))
        else:
            # a resource of another resource (storage.AddBlobs("blobs"), servicebus.AddQueue("orders")): a
            # reference to it is a reference to the resource that holds it
            receiver = text.split(f".{method}")[0].split("=")[-1].strip()
            parent = self.aspire_vars.get((f.repository, f.path, receiver)) if re.fullmatch(r"[A-Za-z_]\w*", receiver) else None
            if var and parent:
                self.aspire_vars[(f.repository, f.path, var)] = parent
                self.model.components[parent].aliases.add(name.lower())
                self.alias.setdefault(name.lower(), parent)
            return
        if "WithExternalHttpEndpoints" in text:
            comp.attributes["published"] = "true"
            comp.evidence.add(ev)
        if var:
            self.aspire_vars[(f.repository, f.path, var)] = comp.id

    def _aspire_names(self, repo: str, args: str) -> list[str]:
        """The string arguments of a builder call; a first argument naming a constant (``Components.Postgres``,
        ``Services.Catalog``, ``Components.Database.Catalog``: a class of names the AppHost shares with the
        services) stands for the constant's value, where the repository's constants of that name agree or those
        in a file named for one of the classes on the way (Components.cs, Database.cs) do."""
        names = STRING.findall(args)
        if names:
            return names
        first = args.split(",")[0].strip()
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", first):
            return []
        parts = first.split(".")
        found = self._constants().get((repo, parts[-1]), [])
        values = {v for _stem, v in found}
        if len(values) > 1:
            classes = {p.lower() for p in parts[:-1]}
            values = {v for stem, v in found if stem in classes}
        return [values.pop()] if len(values) == 1 else []

    def _constants(self) -> dict[tuple[str, str], list[tuple[str, str]]]:
        """(repository, constant name) -> (the stem of the file declaring it, its value), indexed once."""
        index = getattr(self, "_aspire_constants", None)
        if index is None:
            index = defaultdict(list)
            for g in self.by_kind["const.string"]:
                if g.get("name") and g.get("value"):
                    index[(g.repository, g.get("name") or "")].append((PurePosixPath(g.path).stem.lower(), g.get("value") or ""))
            self._aspire_constants = index = dict(index)
        return index

    def _deployment_building(self, repo: str, root: str) -> Component | None:
        """The one service a compose file or manifest builds from a folder holding `root`."""
        found = {cid for cid, c in self.model.components.items() if c.kind in ("service", "gateway")
                 and c.attributes.get("deployment") in ("compose", "kubernetes")
                 for r, croot in c.source_roots if r == repo and croot and is_under(root, croot)}
        return self.model.components[found.pop()] if len(found) == 1 else None

    def _csproj_folder(self, repo: str, project: str) -> str | None:
        """``Projects.Catalog_API`` is generated from ``Catalog.API.csproj``: the folder that holds it."""
        want = key(project)
        found = sorted({str(PurePosixPath(m.path).parent) for m in self.by_kind["manifest"]
                        if m.repository == repo and m.path.endswith(".csproj") and key(PurePosixPath(m.path).stem) == want})
        if len(found) != 1:
            return None
        return "" if found[0] == "." else found[0]

    def _aspire_references(self, f: Fact) -> None:
        text = f.get("text") or ""
        calls = list(CALL.finditer(text))
        first_add = next((c for c in calls if c.group("method").startswith("Add")), None)
        if first_add is not None:
            source = self.aspire_vars.get((f.repository, f.path, f.get("var") or ""))
            if not f.get("var"):
                names = self._aspire_names(f.repository, first_add.group("args"))
                source = self.alias.get(names[0].lower()) if names else None
            wired = [c for c in calls if c.start() > first_add.start()]
        else:
            receiver = text.split(".", 1)[0].strip()
            source = self.aspire_vars.get((f.repository, f.path, receiver))
            wired = [c for c in calls if c.group("method") == "WithReference"]  # later statements: references only
        if not source:
            return
        if first_add is not None and any(c.group("method") == "WithAppForwarding" for c in wired):
            # the Community Toolkit's collector with app forwarding: every project the AppHost adds sends it its
            # telemetry (OTEL_EXPORTER_OTLP_ENDPOINT set to the collector)
            for g in self.by_kind["aspire.statement"]:
                if g.repository == f.repository and g.path == f.path and ".AddProject" in (g.get("text") or ""):
                    project = self.aspire_vars.get((g.repository, g.path, g.get("var") or "")) or next(
                        (self.alias.get(n.lower()) for c in CALL.finditer(g.get("text") or "")
                         if c.group("method") == "AddProject" for n in STRING.findall(c.group("args"))[:1]), None)
                    if project and project != source:
                        self.connect(project, source, "http", [Evidence(f.repository, f.path, f.line)],
                                     attributes={"via": "aspire WithAppForwarding"})
        for c in wired:
            method = c.group("method")
            if method in ORDER_ONLY or method.startswith("Add"):
                continue
            for ident in IDENT.findall(re.sub(r'"[^"]*"', "", c.group("args"))):
                target = self.aspire_vars.get((f.repository, f.path, ident))
                if not target or target == source:
                    continue
                tcomp = self.model.components[target]
                protocol = TECH_PROTOCOL.get(tcomp.attributes.get("technology", ""), "http")
                self.connect(source, target, protocol, [Evidence(f.repository, f.path, f.line)],
                             attributes={"via": f"aspire {method}"})
