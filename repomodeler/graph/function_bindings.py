"""Azure Functions bindings: the queues, topics, databases and hubs a function app is wired to.

A function app does not open connections in code: the Functions host does, from the trigger and
bindings each function declares (C# attributes such as ``[QueueTrigger("%OrdersQueue%", Connection =
"AzureWebJobsStorage")]`` and ``[CosmosDB(...)] out Item item``, grammars/csharp/azure_functions.scm;
the ``bindings`` of a ``function.json``, extract/readers/azure_functions.py).  Each binding of a
technology connects the app to the one store or broker of that technology: the one a rule already
made, else the one resource of it the infrastructure code deploys (Bicep, Terraform), else one named
after the technology.  Triggers are flows from the store to the app, output bindings from the app.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Fact

# binding name (lower case, without Attribute/Trigger/Output) -> (technology, kind, IaC resource types)
BINDINGS: dict[str, tuple[str, str, str]] = {
    "queue": ("azure-storage", "broker", r"^(Microsoft\.Storage/storageAccounts|azurerm_storage_account)$"),
    "blob": ("azure-storage", "database", r"^(Microsoft\.Storage/storageAccounts|azurerm_storage_account)$"),
    "table": ("azure-storage", "database", r"^(Microsoft\.Storage/storageAccounts|azurerm_storage_account)$"),
    "servicebus": ("servicebus", "broker", r"^(Microsoft\.ServiceBus/namespaces|azurerm_servicebus_namespace)$"),
    "eventgrid": ("eventgrid", "broker", r"^(Microsoft\.EventGrid/(topics|domains)|azurerm_eventgrid_(topic|domain))$"),
    "eventhub": ("eventhubs", "broker", r"^(Microsoft\.EventHub/namespaces|azurerm_eventhub_namespace)$"),
    "cosmosdb": ("cosmosdb", "database", r"^(Microsoft\.DocumentDB/databaseAccounts|azurerm_cosmosdb_account)$"),
    "signalr": ("signalr", "broker", r"^(Microsoft\.SignalRService/signalR|azurerm_signalr_service)$"),
    "signalrconnectioninfo": ("signalr", "broker", r"^(Microsoft\.SignalRService/signalR|azurerm_signalr_service)$"),
    "sql": ("sqlserver", "database", r"^(Microsoft\.Sql/servers|azurerm_(mssql|sql)_server)$"),
    "rabbitmq": ("rabbitmq", "broker", r"^$"),
    "kafka": ("kafka", "broker", r"^$"),
    "redispubsub": ("redis", "cache", r"^(Microsoft\.Cache/redis|azurerm_redis_cache)$"),
}
# App settings named after an Azure service's client setting -> the BINDINGS entry of that service.
# (``AzureWebJobsStorage`` is the Functions runtime's own storage, not a store the app uses.)
SERVICE_SETTINGS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.I), b) for p, b in (
    (r"(cosmos|docdb|documentdb).*(endpoint|uri|url|connection)", "cosmosdb"),
    (r"(^|[^a-z])?(sql|mssql)(db)?_?connection_?string$", "sql"),
    (r"signalr.*connection", "signalr"),
    (r"event_?grid.*(topic|domain).*(url|uri|endpoint)|event_?grid.*(url|uri|endpoint)", "eventgrid"),
    (r"service_?bus.*connection", "servicebus"),
    (r"event_?hubs?.*connection", "eventhub"),
))
# Services that push each event to the function (a webhook), rather than the host pulling them.
PUSHED = frozenset({"eventgrid", "signalr"})
# Settings that name the target through an app setting (``%OrdersQueue%``) keep the setting's name.
_SETTING_REF = re.compile(r"^%([^%]+)%$")


def binding_key(name: str) -> str:
    """``QueueTriggerAttribute`` -> ``queue``, ``CosmosDBOutput`` -> ``cosmosdb``, ``eventGridTrigger`` -> ``eventgrid``."""
    low = name.lower()
    low = re.sub(r"attribute$", "", low)
    return re.sub(r"(trigger|output)$", "", low)


def binding_target(f: Fact) -> str:
    """The queue, topic or container a binding names: the ``target`` of a function.json, else the
    first string of the attribute's arguments (``"%TripsQueue%"``, ``"orders"``)."""
    if f.get("target"):
        return f.get("target") or ""
    m = re.search(r'\(\s*"([^"]*)"', f.get("args") or "")
    return m.group(1) if m else ""


class FunctionBindingRules(ResolverBase):
    """Connections of Azure Functions apps through their triggers and bindings."""

    def _function_apps(self) -> set[str]:
        """Components holding a Functions project or a Functions host.json."""
        out: set[str] = set()
        for f in [*self.by_kind["manifest"], *self.by_kind["functions.host"]]:
            if f.kind == "manifest" and not f.get("functions"):
                continue
            owner = self.owner_of(f.repository, f.path)
            if owner:
                out.add(owner)
        return out

    def _binding_store(self, tech: str, kind: str, types: str, f: Fact, introduce: bool = True) -> str | None:
        """The store or broker of the technology: the one already made, else the one the infrastructure
        code deploys, else one named after the technology."""
        made = sorted(cid for cid, c in self.model.components.items() if c.attributes.get("technology") == tech)
        if len(made) == 1:
            return made[0]
        deployed = []
        iac = getattr(self, "_iac", None)
        if iac is not None:
            for inst in iac.instances:
                for r in iac.resources(inst):
                    if re.match(types, r.get("type") or "") and not r.get("existing"):
                        deployed.append((inst, r))
        attrs = {"technology": tech}
        if len(deployed) == 1:
            inst, r = deployed[0]
            store = self._iac_store((inst, r.get("address") or ""))  # type: ignore[attr-defined]
            if store is not None and store.name:
                comp = self.add_component(store.name, kind, inst.repo, r.evidence, (tech,), {
                    **attrs, "deployment": iac.module_of(inst).fmt, "iac_type": r.get("type") or "",
                    "iac_module": inst.module, "iac_resource": r.get("address") or ""})
                return comp.id
        if not introduce:
            return None
        return self.add_component(tech, kind, f.repository, f.evidence, (), attrs).id

    def function_app_settings(self) -> None:
        """A setting handed to a service of the system (Kubernetes or compose environment, a function
        app's local.settings.json) named after an Azure service's client setting (``DocDbEndpointUri``,
        ``SqlConnectionString``, ``AzureSignalRConnectionString``, ``...EventGridTopicUrl``) and left for
        deployment to fill connects it to that service: the one store of it the system already has or its
        infrastructure code deploys (none is introduced on a name alone)."""
        for f in sorted(self.by_kind["config.env"], key=Fact.order):
            name = f.get("name") or ""
            spec_key = next((b for p, b in SERVICE_SETTINGS if p.search(name)), None)
            if spec_key is None or (f.get("value") or "").strip():
                continue  # a value is an address (or a local emulator) the address rules read
            owner = self.alias.get((f.get("owner") or "").lower()) if f.get("owner") else self.owner_of(
                f.repository, f.path)
            if owner is None or self.model.components[owner].kind != "service":
                continue
            tech, kind, types = BINDINGS[spec_key]
            store = self._binding_store(tech, kind, types, f, introduce=False)
            if store and store != owner:
                self.connect(owner, store, "https" if tech in PUSHED else "tcp", [f.evidence],
                             attributes={"via": f"setting {name}"})

    def function_bindings(self) -> None:
        """Each trigger or binding of a function app to a store or broker connects the app to it."""
        apps = self._function_apps()
        for f in sorted(self.by_kind["functions.binding"], key=Fact.order):
            owner = self.owner_of(f.repository, f.path)
            spec = BINDINGS.get(binding_key(f.get("binding") or ""))
            if owner is None or owner not in apps or spec is None:
                continue
            tech, kind, types = spec
            store = self._binding_store(tech, kind, types, f)
            if store is None or store == owner:
                continue
            name = binding_key(f.get("binding") or "")
            trigger = "trigger" in (f.get("binding") or "").lower() or (f.get("direction") == "in" and tech != "signalr"
                                                                        and name in ("queue", "servicebus", "eventgrid",
                                                                                     "eventhub"))
            role = "subscribes" if trigger else "publishes" if kind == "broker" else "uses"
            target = binding_target(f)
            m = _SETTING_REF.match(target)
            attrs = {"via": f"functions binding {f.get('binding')}"}
            if target and kind == "broker":
                attrs["topic"] = m.group(1) if m else target
            protocol = "https" if tech in ("eventgrid", "signalr") else "tcp"
            if trigger and tech in PUSHED:
                # the service delivers each event to the function's endpoint: a flow from it to the app
                self.connect(store, owner, protocol, [f.evidence], kind="flows", attributes=attrs)
            else:
                self.connect(owner, store, protocol, [f.evidence], kind=role, attributes=attrs)
