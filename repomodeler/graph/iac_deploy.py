"""Terraform and Bicep deployments: workloads, the stores and gateways they use, and their links.

A system deployed only through infrastructure as code has no compose file nor manifest to read its
services from: its Cloud Run services, ECS task definitions, Container Apps, Kubernetes deployments
and functions are resources of Terraform modules or Bicep files, often of one module called once per
service.  Evaluated per module instance (:mod:`repomodeler.graph.iac_eval`):

- each container workload is a component named after the workload (its ``name`` with the parts no one
  can know left out), or, when its image is the one image of a component that already exists, or its
  name's core (``node`` of ``node-app``) is that of exactly one code component, that component; one
  image run as several workloads (one binary started with different roles) gives one component per
  workload;
- the databases, buckets, topics, queues and API gateways they use are components named after the
  resource (the store of the same technology the code already talks to, when it is the only one);
- a workload's environment (and secrets, command and arguments) naming another workload, by
  reference (``google_cloud_run_service.api.status[0].url``, a Bicep module's ``outputs.fqdn``) or by
  its name or host, or a store (directly, or through a parameter or secret holding its address)
  connects the two, with the ``.tf``/``.bicep`` line as evidence; the values are also the settings
  the code's environment reads see;
- a Dapr component declared as a resource connects the apps in its scopes to the store it points at;
  a Pub/Sub push subscription to a workload's URL is a flow from the topic to that workload; an API
  gateway (API Management, API Gateway) whose APIs point at a workload is a front door to it, and a
  workload with external ingress is reached by the user.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from pathlib import PurePosixPath

from repomodeler.extract.readers._text import name_words
from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import AZURE_SERVICE_HOST, AZURE_SERVICE_TECH, image_basename, tech_for_image
from repomodeler.graph.iac_eval import Deployment, Instance, ResourceRef, Value, clean_name, plain_key
from repomodeler.graph.identity import image_repo as image_repo_of, key
from repomodeler.records import Evidence, Fact

# Resource types that run containers or functions (a prefix of the type is enough).
WORKLOAD_TYPES = ("google_cloud_run_service", "google_cloud_run_v2_service", "google_cloud_run_v2_job",
                  "aws_ecs_task_definition", "azurerm_container_app", "Microsoft.App/containerApps",
                  "kubernetes_deployment", "kubernetes_stateful_set", "kubernetes_daemonset",
                  "kubernetes_daemon_set", "azurerm_container_group", "Microsoft.ContainerInstance/containerGroups",
                  "google_cloudfunctions_function", "google_cloudfunctions2_function", "aws_lambda_function",
                  "azurerm_linux_function_app", "azurerm_windows_function_app", "azurerm_function_app",
                  "azurerm_linux_web_app", "Microsoft.Web/sites", "google_app_engine_flexible_app_version",
                  "google_app_engine_standard_app_version")


# Jobs a platform runs to completion (Cloud Run jobs, Container Apps jobs): tasks, unless a scheduler runs them.
RUN_ONCE_TYPES = re.compile(r"^(google_cloud_run(_v2)?_job|azurerm_container_app_job|Microsoft\.App/jobs)$")
SCHEDULER_TYPES = re.compile(r"^(google_cloud_scheduler_job|aws_scheduler_schedule|aws_cloudwatch_event_target)$")
# A key outside a workload's containers attaching a database to it (Cloud Run's Cloud SQL volume or annotation).
ATTACHED_STORE_KEY = re.compile(r"cloud_?sql|cloudsql", re.I)
# Keys of a site module (Azure Verified Modules' web/site) naming a resource the site uses: its Application Insights.
# (Its settings handed as one map, `union(appSettings, {...})`, lose their names: a CORS origin among them is no call.)
SITE_LINKS = re.compile(r"^(appInsightResourceId|applicationInsightResourceId)$")
# Azure Verified Modules (Bicep's public registry, `br/public:avm/res/document-db/database-account:0.6.0`): each makes
# one resource of a type, by which the tables here know it (azd's monitoring pattern makes Application Insights).
AVM_TYPES: dict[str, str] = {
    "res/web/site": "Microsoft.Web/sites", "res/app/container-app": "Microsoft.App/containerApps",
    "res/container-instance/container-group": "Microsoft.ContainerInstance/containerGroups",
    "res/document-db/database-account": "Microsoft.DocumentDB/databaseAccounts", "res/cache/redis": "Microsoft.Cache/redis",
    "res/db-for-postgre-sql/flexible-server": "Microsoft.DBforPostgreSQL/flexibleServers",
    "res/db-for-my-sql/flexible-server": "Microsoft.DBforMySQL/flexibleServers", "res/sql/server": "Microsoft.Sql/servers",
    "res/storage/storage-account": "Microsoft.Storage/storageAccounts",
    "res/service-bus/namespace": "Microsoft.ServiceBus/namespaces", "res/event-hub/namespace": "Microsoft.EventHub/namespaces",
    "res/cognitive-services/account": "Microsoft.CognitiveServices/accounts",
    "res/search/search-service": "Microsoft.Search/searchServices", "res/insights/component": "Microsoft.Insights/components",
    "ptn/azd/monitoring": "Microsoft.Insights/components", "res/key-vault/vault": "Microsoft.KeyVault/vaults",
}
AVM_SOURCE = re.compile(r"^br/public:avm/([a-z0-9/-]+):[^:]+$")


def resource_type(f: Fact) -> str:
    """A block's resource type: its own, or for an Azure Verified Module call the type of the resource it makes."""
    rtype = f.get("type") or ""
    m = AVM_SOURCE.match(rtype) if f.get("block") == "module" else None
    return AVM_TYPES.get(m.group(1), rtype) if m else rtype


def _workload_type(rtype: str) -> bool:
    """A resource type that runs a workload.  An Azure type (`Microsoft.Web/sites`) is that type exactly: its
    child resources (`Microsoft.Web/sites/extensions`, `.../virtualNetworkConnections`, `.../config`) are
    settings of the site, not workloads of their own."""
    base = rtype.split("@", 1)[0]
    if "/" in base:
        return base in WORKLOAD_TYPES
    return base.startswith(WORKLOAD_TYPES)


# Stores and brokers by resource type (or registry module source): (pattern, kind, technology).
DATA_TYPES: tuple[tuple[re.Pattern[str], str, str], ...] = tuple((re.compile(p, re.I), k, t) for p, k, t in (
    (r"^google_firestore_database$|^google_firestore_", "database", "firestore"),
    (r"^google_sql_database_instance$", "database", "cloudsql"),
    (r"^google_spanner_instance$", "database", "spanner"),
    (r"^google_bigtable_instance$", "database", "bigtable"),
    # (ElastiCache's clusters and replication groups; its users, user groups, parameter and subnet groups are
    # settings of one)
    (r"^google_redis_instance$|^azurerm_redis_cache$|^aws_elasticache_(cluster|replication_group|serverless_cache)$"
     r"|^Microsoft\.Cache/redis$", "cache", "redis"),
    (r"^aws_db_instance$|^aws_rds_cluster$|rds(/aws)?$|/rds/|terraform-aws-modules/rds", "database", "database"),
    (r"^aws_dynamodb_table$|dynamodb-table", "database", "dynamodb"),
    (r"^azurerm_cosmosdb_account$|^Microsoft\.DocumentDB/databaseAccounts$", "database", "cosmosdb"),
    (r"^azurerm_(postgresql|mysql|mssql|sql)_(flexible_)?server$|^Microsoft\.DBfor(PostgreSQL|MySQL)/"
     r"(flexibleServers|servers)$|^Microsoft\.Sql/servers$", "database", "database"),
    (r"^google_storage_bucket$|^aws_s3_bucket$|s3-bucket", "database", "object-storage"),
    # (an Azure storage account holds blobs, queues and tables: the store Azurite emulates in a local run)
    (r"^azurerm_storage_account$|^Microsoft\.Storage/storageAccounts$", "database", "azure-storage"),
    (r"^google_pubsub_topic$", "broker", "pubsub"),
    (r"^aws_sqs_queue$|/sqs/", "broker", "sqs"), (r"^aws_sns_topic$|/sns/", "broker", "sns"),
    (r"^aws_kinesis_stream$", "broker", "kinesis"), (r"^aws_msk_cluster$", "broker", "kafka"),
    (r"^azurerm_servicebus_namespace$|^Microsoft\.ServiceBus/namespaces$", "broker", "servicebus"),
    (r"^azurerm_eventhub_namespace$|^Microsoft\.EventHub/namespaces$", "broker", "eventhubs"),
    (r"^azurerm_eventgrid_(topic|domain)$|^Microsoft\.EventGrid/(topics|domains)$", "broker", "eventgrid"),
    (r"^azurerm_signalr_service$|^Microsoft\.SignalRService/signalR$", "broker", "signalr"),
    # a hosted AI service account (Azure OpenAI is one of its kinds): an external system the workload calls
    (r"^azurerm_cognitive_account$|^Microsoft\.CognitiveServices/accounts$", "external", "cognitive-services"),
    # a hosted search index (Azure AI Search): the workload queries and fills it
    (r"^azurerm_search_service$|^Microsoft\.Search/searchServices$", "database", "azure-search"),
    # the hosted telemetry service a workload handed its connection string sends traces and logs to
    (r"^azurerm_application_insights$|^Microsoft\.Insights/components$", "external", "application-insights"),
    # the hosted secret store a workload reads its connection strings from
    (r"^azurerm_key_vault$|^Microsoft\.KeyVault/vaults$", "external", "key-vault"),
))
# The hosted service an object store, document database or topic of a cloud is reached at by its SDK
# (the external the code rules introduce for the client library): one resource of the type is that one.
SDK_HOSTS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), h) for p, h in (
    (r"^aws_s3_bucket$|s3-bucket", "s3.amazonaws.com"), (r"^google_storage_bucket$", "storage.googleapis.com"),
    (r"^azurerm_storage_account$|^Microsoft\.Storage/storageAccounts$", "blob.core.windows.net"),
    (r"^azurerm_key_vault$|^Microsoft\.KeyVault/vaults$", "vault.azure.net"),
    (r"^google_firestore_database$", "firestore.googleapis.com"), (r"^google_pubsub_topic$", "pubsub.googleapis.com"),
))
GATEWAY_TYPES = re.compile(r"^(azurerm_api_management|Microsoft\.ApiManagement/service|google_api_gateway_gateway|"
                           r"aws_apigatewayv2_api|aws_api_gateway_rest_api)$")
# Child resources of a gateway (its APIs, routes, integrations, backends) by type prefix.
GATEWAY_PARTS = re.compile(r"^(azurerm_api_management_|Microsoft\.ApiManagement/service/|google_api_gateway_|"
                           r"aws_apigatewayv2_|aws_api_gateway_)")
DAPR_COMPONENTS = re.compile(r"^(Microsoft\.App/managedEnvironments/daprComponents|"
                             r"azurerm_container_app_environment_dapr_component)$")
PUSH_SUBSCRIPTIONS = re.compile(r"^google_pubsub_subscription$")
# Database engines an input names (``engine = "postgres"``): the technology of an RDS module or instance.
ENGINES = re.compile(r"^(aurora-)?(postgres(ql)?|mysql|mariadb|sqlserver|oracle)", re.I)
# Keys of a container (or function) whose values are its settings.
_ENV_LIST = re.compile(r"^(env|environment|secrets?|secret_environment_variables)\[\d+\]\.(name|value|valueFrom|"
                       r"secretRef|value_from)$")
_ENV_MAP = re.compile(r"^(env|environment|environment_variables|environment\.variables|app_settings|appSettingsKeyValuePairs|"
                      r"environment\[\d+\]\.variables|appSettings|secret_environment_variables|"
                      r"service_config\[\d+\]\.environment_variables|site_config\[\d+\]\.app_settings)"
                      r"\.([A-Za-z_][A-Za-z0-9_.-]*)$")
# An environment's name inside a resource name (polar-sandbox-worker, api-prod, staging_orders).
ENVIRONMENT = re.compile(r"(^|[-_.])(?:production|prod|sandbox|staging|stage|stg|preprod|development|dev|testing|test|"
                         r"qa|uat|preview)(?=[-_.]|$)", re.I)
PRODUCTION = re.compile(r"(^|[-_.])(production|prod)([-_.]|$)", re.I)
_IMAGE_KEY = re.compile(r"^(?:(.*)\.)?(?:image|image_uri|imageUri)$")  # group 1: the container's key
_ARGS = re.compile(r"^(command|args|entrypoint|entry_point)(\[\d+\])?$")
_TYPE_WORDS = frozenset({"db", "database", "databases", "bucket", "buckets", "store", "storage", "queue", "topic", "instance",
                         "cluster", "server", "account", "main", "primary", "default", "this", "the", "my", "sql",
                         "cosmos", "cosmosdb", "rds", "redis", "cache", "resource", "name"})
_SERVICE_WORDS = frozenset({"app", "service", "svc", "server", "container", "image", "api", "deployment", "function",
                            "func", "worker", "run"})


@dataclass(frozen=True)
class Workload:
    ref: ResourceRef
    type: str
    name: str
    image: str
    settings: tuple[tuple[str, Value], ...]  # (setting name, value) of its environment and secrets
    arguments: tuple[Value, ...]
    external: bool  # external ingress: the user reaches it
    evidence: tuple[Evidence, ...]


@dataclass(frozen=True)
class Store:
    ref: ResourceRef
    type: str
    name: str
    kind: str
    technology: str
    evidence: Evidence


def _kebab(name: str) -> str:
    return "-".join(name_words(name)) or name.lower()


class IacDeployRules(ResolverBase):
    """Components and connections of Terraform and Bicep deployments."""

    @cached_property
    def _iac(self) -> Deployment:
        return Deployment(list(self.by_kind["iac.block"]), list(self.by_kind["iac.value"]))

    # ------------------------------------------------------------------ what the deployment declares
    def _iac_values(self, ref: ResourceRef) -> list[Value]:
        inst, address = ref
        return self._iac.owner_values(inst, address)

    def _iac_block(self, ref: ResourceRef) -> Fact:
        return self._iac.module_of(ref[0]).blocks[ref[1]]

    def _iac_evidence(self, ref: ResourceRef) -> tuple[Evidence, ...]:
        """The resource's line, then the lines of the module calls that made its instance (outermost last)."""
        out = [self._iac_block(ref).evidence]
        inst: Instance | None = ref[0]
        while inst is not None and inst.calls:
            call = self._iac.call_fact(inst)
            if call is not None:
                out.append(call.evidence)
            inst = inst.parent
        return tuple(out)

    @cached_property
    def _iac_workloads(self) -> list[Workload]:
        out: list[Workload] = []
        for inst in self._iac.instances:
            for f in self._iac.resources(inst):
                rtype = resource_type(f)
                # (a registry module of no known type: an opaque resource, whose containers are its workloads)
                opaque = f.get("block") == "module" and rtype == (f.get("type") or "")
                if not (_workload_type(rtype) or opaque) or f.get("existing"):
                    continue
                ref = (inst, f.get("address") or "")
                if RUN_ONCE_TYPES.match(rtype) and ref not in self._iac_scheduled:
                    continue  # a job run to completion by hand or at deploy time (a migration, a setup): a task
                values = self._iac_values(ref)
                out.extend(self._iac_containers(ref, rtype, values, opaque))
        return out

    def _iac_containers(self, ref: ResourceRef, rtype: str, values: list[Value], opaque: bool) -> list[Workload]:
        """The workloads of one resource: one per container (``...image``), or the function itself."""
        prefixes = sorted({m.group(1) or "" for v in values if (m := _IMAGE_KEY.match(v.key))})
        if opaque:
            prefixes = [p for p in prefixes if "container" in p.lower()]
        elif not prefixes and rtype.startswith(("google_cloudfunctions", "aws_lambda_function", "azurerm_linux_function",
                                                "azurerm_windows_function", "azurerm_function_app", "Microsoft.Web/sites")):
            prefixes = [""]  # (a site's code deployed to it, no image: the site itself)
        if not prefixes:
            return []
        by_key = {v.key: v for v in values}
        runner = self._iac_runner(ref)  # the ECS service running a task definition names it
        # the Azure Developer CLI ties a resource to the service of azure.yaml it deploys by this tag
        azd_service = next((v for v in values if plain_key(v.key) == "tags.azd-service-name" and clean_name(v.text)), None)
        name_value = (runner or azd_service or by_key.get("name") or by_key.get("function_name") or by_key.get("family")
                      or by_key.get("metadata[0].name") or by_key.get("metadata.name"))
        base_name = clean_name(name_value.text) if name_value else ""
        external = any(plain_key(v.key) in ("properties.configuration.ingress.external", "ingress.external_enabled",
                                           "ingress[0].external_enabled") and v.text == "true" for v in values) \
            or self._iac_public(ref)
        if name_value is not None and not base_name and not any(
                clean_name(v.text) for v in values for p in prefixes if v.key == _join_key(p, "name")):
            return []  # one workload per item of a collection (for_each) whose names no one can know
        if name_value is not None and "{}" in name_value.text and self._iac_block(ref).get("each"):
            # one workload per item of a Bicep `[for ...]` loop, each named after its item: not one
            # workload named after what the names share (the prefix of `'${prefix}${app}'`)
            return []
        if len(prefixes) > 1 and base_name:
            # a task of several containers (the service and its sidecars): the workload is the task,
            # running the container named like it (else the first)
            named = [p for p in prefixes if key(clean_name(by_key[_join_key(p, "name")].text)) == key(base_name)
                     ] if all(_join_key(p, "name") in by_key for p in prefixes) else []
            prefixes = named[:1] or prefixes[:1]
        out = []
        for p in prefixes:
            inner = [v for v in values if not p or v.key == p or v.key.startswith((p + ".", p + "["))]
            rel = [(v.key[len(p):].lstrip("."), v) for v in inner]
            image = next((v.text for k, v in rel if plain_key(k) in ("image", "image_uri", "imageUri")), "")
            if not image:  # an App Service running a container: `linuxFxVersion: 'DOCKER|qdrant/qdrant:latest'`
                image = next((v.text.split("|", 1)[1] for k, v in rel if plain_key(k).rsplit(".", 1)[-1] in (
                    "linuxFxVersion", "linux_fx_version") and v.text.upper().startswith("DOCKER|")), "")
            container = next((v.text for k, v in rel if k == "name"), "")
            name = base_name if base_name and len(prefixes) == 1 else clean_name(container) or base_name
            name = _kebab(name or self._iac_block(ref).get("label") or "")
            settings: list[tuple[str, Value]] = []
            pairs: dict[str, dict[str, Value]] = defaultdict(dict)
            for k, v in rel:
                m = _ENV_LIST.match(k)
                if m:
                    pairs[k[:k.index("]") + 1]][m.group(2)] = v
                    continue
                m = _ENV_MAP.match(k)
                if m:
                    settings.append((m.group(2), v))
                elif SITE_LINKS.match(k) and v.resources:
                    # a site's Application Insights (`appInsightResourceId: monitoring.outputs.applicationInsightsResourceId`)
                    settings.append((k, v))
            for item in pairs.values():
                n = item.get("name")
                v = item.get("value") or item.get("valueFrom") or item.get("value_from")
                if n is not None and v is not None and n.text:
                    settings.append((n.text, v))
            arguments = tuple(v for k, v in rel if _ARGS.match(k))
            # (a database the platform attaches to the workload outside its containers: Cloud Run's Cloud SQL
            # volume, `volumes.cloud_sql_instance.instances = [google_sql_database_instance.db.connection_name]`,
            # or its `run.googleapis.com/cloudsql-instances` annotation)
            arguments += tuple(v for v in values if v not in inner and v.resources and ATTACHED_STORE_KEY.search(v.key))
            out.append(Workload(ref, rtype, name, image, tuple(settings), arguments, external,
                                self._iac_evidence(ref)))
        return out

    def _iac_public(self, ref: ResourceRef) -> bool:
        """Does anyone on the internet reach the workload: a Cloud Run service whose invoker is
        ``allUsers``, an ECS service behind a load balancer that is not internal."""
        inst, address = ref
        resources = self._iac.resources(inst)
        for f in resources:
            rtype = f.get("type") or ""
            if re.match(r"^google_cloud_run(_v2)?_service_iam_(member|binding)$", rtype):
                values = self._iac_values((inst, f.get("address") or ""))
                if any(v.key in ("service", "name") and ref in v.resources for v in values) and any(
                        v.key.startswith("member") and v.text == "allUsers" for v in values):
                    return True
            if rtype == "aws_ecs_service":
                values = self._iac_values((inst, f.get("address") or ""))
                if not any(v.key == "task_definition" and ref in v.resources for v in values):
                    continue
                groups = {r for v in values if plain_key(v.key) == "load_balancer.target_group_arn" for r in v.resources}
                for lb in self._iac_load_balancers(groups):
                    if not any(v.key == "internal" and v.text == "true" for v in self._iac_values(lb)):
                        return True
        return False

    def _iac_load_balancers(self, groups: set[ResourceRef]) -> set[ResourceRef]:
        """The load balancers whose listeners forward to the target groups."""
        out: set[ResourceRef] = set()
        for inst in {g[0] for g in groups}:
            for f in self._iac.resources(inst):
                if f.get("type") in ("aws_lb_listener", "aws_alb_listener", "aws_lb_listener_rule"):
                    values = self._iac_values((inst, f.get("address") or ""))
                    if any(r in groups for v in values for r in v.resources):
                        out |= {r for v in values if v.key in ("load_balancer_arn", "listener_arn") for r in v.resources}
        return {r for r in out if (self._iac_block(r).get("type") or "") in ("aws_lb", "aws_alb")}

    def _iac_runner(self, ref: ResourceRef) -> Value | None:
        """The name of the service that runs a task definition (``aws_ecs_service`` whose
        ``task_definition`` is it), if exactly one of the instance does."""
        inst, address = ref
        if not address.startswith("aws_ecs_task_definition."):
            return None
        names = []
        for f in self._iac.resources(inst):
            if f.get("type") == "aws_ecs_service":
                values = self._iac_values((inst, f.get("address") or ""))
                if any(v.key == "task_definition" and ref in v.resources for v in values):
                    names += [v for v in values if v.key == "name" and clean_name(v.text)]
        return names[0] if len(names) == 1 else None

    def _iac_store(self, ref: ResourceRef) -> Store | None:
        f = self._iac_block(ref)
        rtype = resource_type(f)
        for pattern, kind, tech in DATA_TYPES:
            if pattern.search(rtype):
                break
        else:
            if GATEWAY_TYPES.match(rtype):
                kind, tech = "gateway", "api-gateway"
            else:
                return None
        values = self._iac_values(ref)
        by_key = {v.key: v for v in values}
        if tech == "cognitive-services" and any(by_key[k].text.lower() == "openai" for k in ("kind",) if k in by_key):
            tech = "openai"  # kind: 'OpenAI': the Azure OpenAI service the OpenAI SDK calls
        if tech in ("database", "cloudsql"):
            engine = next((v.text for k in ("engine", "database_version") if (v := by_key.get(k)) and ENGINES.match(v.text)), "")
            m = ENGINES.match(engine)
            tech = ("postgres" if m.group(2).lower().startswith("postgres") else m.group(2).lower()) if m else (
                "postgres" if "postgres" in rtype.lower() else "mysql" if "mysql" in rtype.lower() else tech)
        name_value = next((by_key[k] for k in ("name", "bucket", "identifier", "cluster_identifier", "topic", "db_name")
                           if k in by_key and clean_name(by_key[k].text)), None)
        name = _kebab(clean_name(name_value.text)) if name_value else ""
        repo_words = self._project_words(ref[0].repo)
        label_words = [w for w in name_words(f.get("label") or "") if w not in repo_words]
        by_label = "-".join(label_words) if label_words and not set(label_words) <= _TYPE_WORDS else ""
        by_tech = tech if tech != "database" else _kebab(f.get("label") or "database")
        candidates = [n for n in (name if name and not set(name_words(name)) - repo_words <= _TYPE_WORDS else "",
                                  by_label, by_tech) if n]
        # A name a workload already answers to (``quickwit-metastore`` for the metastore's database)
        # is not the store's: the next name that is free or already a store's.
        for candidate in candidates:
            holder = self.alias.get(candidate.lower())
            if holder is None or self.model.components[holder].kind not in ("service", "webapp", "user"):
                return Store(ref, rtype, candidate, kind, tech, f.evidence)
        return Store(ref, rtype, f"{candidates[-1]}-{kind}", kind, tech, f.evidence)

    def _iac_reached(self, resources: frozenset[ResourceRef]) -> list[ResourceRef]:
        return sorted(resources, key=lambda r: (r[0].module, r[0].calls, r[1]))

    @cached_property
    def _iac_scheduled(self) -> set[ResourceRef]:
        """Resources a scheduler resource names (a Cloud Scheduler job running a Cloud Run job): recurring."""
        out: set[ResourceRef] = set()
        for inst in self._iac.instances:
            for f in self._iac.resources(inst):
                if SCHEDULER_TYPES.match(resource_type(f)):
                    for v in self._iac_values((inst, f.get("address") or "")):
                        out.update(v.resources)
        return out

    @cached_property
    def _iac_uses(self) -> list[tuple[Workload, str, Value, ResourceRef]]:
        """(workload, setting or argument, value, resource it names) of every reference a workload's
        settings and arguments make to a resource."""
        out = []
        for w in self._iac_workloads:
            for name, v in [*w.settings, *(("argument", a) for a in w.arguments)]:
                for r in self._iac_reached(v.resources):
                    if r != w.ref:
                        out.append((w, name, v, r))
        return out

    # ------------------------------------------------------------------ rules
    def iac_workloads(self) -> None:
        """Each container workload is a component named after the workload; one whose image a
        component already runs (or a module's build tool makes: Jib, the .NET SDK), or whose name's
        core is that of exactly one code component, is that component.  Its settings become the
        values the code's environment reads see."""
        workloads = self._iac_workloads
        modules = self.image_modules() if workloads else {}
        images = defaultdict(set)
        for w in workloads:
            if w.image and "{}" not in w.image:
                images[w.image.split("@")[0].rsplit(":", 1)[0]].add(w.name)
        cores: dict[str, list[str]] = defaultdict(list)
        for cid, c in sorted(self.model.components.items()):
            if c.kind in ("service", "webapp") and not c.attributes.get("deployment") and c.repository:
                core = _core(c.name, self._project_words(c.repository))
                if core:
                    cores[core].append(cid)
        # One module instantiated once per environment (polar-production-worker, polar-sandbox-worker):
        # one component, named after its production instance, the others its aliases.
        groups: dict[tuple[str, str], set[str]] = defaultdict(set)
        for w in workloads:
            groups[(w.ref[0].repo, ENVIRONMENT.sub(r"\1", w.name).lower())].add(w.name)
        primary: dict[tuple[str, str], str] = {}
        for (repo, _bare), names in groups.items():
            if len(names) > 1 and all(ENVIRONMENT.search(n) for n in names):
                first = sorted(names, key=lambda n: (not PRODUCTION.search(n), n))[0]
                primary.update({(repo, n): first for n in names})
        # image repository -> (name, component) of what another platform (compose, Kubernetes) deploys running that
        # image: `tracecat-api` on Fargate is the compose service `api` of the tracecat image
        deployed: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for cid, c in sorted(self.model.components.items()):
            image = c.attributes.get("image") or ""
            if c.attributes.get("deployment") in ("compose", "kubernetes", "helm") and image and "$" not in image \
                    and c.kind in ("service", "webapp", "gateway"):
                deployed[image_repo_of(image)].append((c.name.lower(), cid))
        for w in workloads:
            image_repo = w.image.split("@")[0].rsplit(":", 1)[0] if w.image and "{}" not in w.image else ""
            tech = tech_for_image(w.image) if image_repo else None
            if tech:
                continue  # a database or broker image run as a workload: the store rules name it
            main_name = primary.get((w.ref[0].repo, w.name), w.name)
            attrs = {"deployment": self._iac.module_of(w.ref[0]).fmt, "iac_type": w.type, "image": w.image if image_repo else "",
                     "iac_module": w.ref[0].module, "iac_resource": w.ref[1], "iac_calls": _calls(w.ref[0])}
            name = main_name
            aliases: tuple[str, ...] = (w.name,) if main_name != w.name else ()
            shared_image = image_repo and len(images[image_repo]) > 1 and main_name == w.name
            if not shared_image:
                basename = image_basename(w.image.replace("{}", "\0")) if w.image else ""
                existing = self.alias.get(basename.lower()) if basename and "\0" not in basename else None
                built = self.component_of_built_image(basename, modules) \
                    if existing is None and basename and "\0" not in basename and modules else None
                if built is not None:
                    # the image a module's build tool makes (Jib, the .NET SDK's container publishing):
                    # the component running that module's code, known by the line naming the image too
                    existing = built[0]
                    if self.model.components[existing].kind in ("service", "webapp", "gateway"):
                        self.model.components[existing].evidence.add(built[1])
                core = _core(w.name, self._project_words(w.ref[0].repo))
                candidates = cores.get(core, []) if core else []
                if existing is None and len(candidates) == 1:
                    existing = candidates[0]
                if existing is not None and self.model.components[existing].kind in ("service", "webapp", "gateway"):
                    aliases, name = tuple(sorted({w.name, main_name})), self.model.components[existing].name
            if name == main_name == w.name and not image_repo:
                # a platform running the code of a component compose deploys, named `app-<prefix>-webapi`
                # after it (App Service, Functions: code shipped, no image): that component
                ends = sorted({cid for cid, c in self.model.components.items()
                               if c.attributes.get("deployment") in ("compose", "kubernetes", "helm")
                               and c.kind in ("service", "webapp", "gateway") and c.source_roots
                               for a in {c.name.lower(), *c.aliases,  # (its code's folder: webapi/)
                                         *(PurePosixPath(r).name.lower() for _rp, r in c.source_roots if r)}
                               if len(a) >= 4
                               and w.name.lower().endswith("-" + a)})
                if len(ends) == 1:
                    aliases, name = (w.name,), self.model.components[ends[0]].name
            if name == main_name == w.name and image_repo:
                # a name ending in a deployed service's name (`tracecat-agent-executor`: the project's name before
                # compose's `agent-executor`), running its image: that service (the longest such name)
                ends = sorted(((len(n), cid) for n, cid in deployed.get(image_repo_of(w.image or ""), ())
                               if w.name.lower().endswith("-" + n)), reverse=True)
                if ends and (len(ends) == 1 or ends[0][0] > ends[1][0]):
                    aliases, name = (w.name,), self.model.components[ends[0][1]].name
            if name == main_name == w.name and image_repo:
                # a resource named with the platform's prefix (`ca-api`, an Azure container app) running the
                # project's image of that name (`physer/microshop-api`) where compose builds the service `api` from
                # code: the name and the image both end in the service's name, which no other service shares
                base = image_basename(w.image or "").lower()
                ends2 = sorted({cid for cid, c in self.model.components.items()
                                if c.attributes.get("deployment") in ("compose", "kubernetes", "helm")
                                and c.kind in ("service", "webapp", "gateway") and c.source_roots
                                and not c.attributes.get("image")
                                and w.name.lower().endswith("-" + c.name.lower()) and base.endswith("-" + c.name.lower())})
                if len(ends2) == 1:
                    aliases, name = (w.name,), self.model.components[ends2[0]].name
            comp = self.add_component(name, "service", w.ref[0].repo, w.evidence[-1], aliases, attrs)
            for ev in w.evidence:
                comp.evidence.add(ev)
            for setting, v in w.settings:
                if v.text and "{}" not in v.text:
                    self.env_values[(comp.id, setting)].append((v.text, v.evidence[0]))

    def _iac_made(self) -> dict[str, str]:
        """The components the workload and store rules made, by the resource each runs or is (read
        from the model, so a rule switched off leaves nothing behind for the others)."""
        out: dict[str, str] = {}
        for cid, c in sorted(self.model.components.items()):
            if c.attributes.get("iac_resource"):
                out.setdefault(f"{c.attributes.get('iac_module')}|{c.attributes.get('iac_calls', '')}|"
                               f"{c.attributes['iac_resource']}", cid)
        return out

    def _iac_component(self, ref: ResourceRef | None, made: dict[str, str]) -> str | None:
        if ref is None:
            return None
        return made.get(f"{ref[0].module}|{_calls(ref[0])}|{ref[1]}")

    def _project_words(self, repo: str) -> set[str]:
        """The words of the names the repository's project goes by, from its commit (:meth:`project_names`): never
        its label, which for a local checkout is only what its folder is called."""
        return {w for n in self.project_names(repo) for w in name_words(n)}

    def iac_stores(self) -> None:
        """The databases, buckets, topics, queues and gateways workloads use (or that front them) are
        components; the only store of its technology the code already talks to is that one."""
        wanted: dict[ResourceRef, Store] = {}
        for _w, _n, _v, r in self._iac_uses:
            s = self._iac_store(r)
            if s is not None and s.kind != "gateway":
                wanted[r] = s
        for r, _target, _ev in self._iac_dapr_links() + self._iac_push_links():
            s = self._iac_store(r)
            if s is not None:
                wanted[r] = s
        for g in self._iac_gateways():
            s = self._iac_store(g)
            if s is not None:
                wanted[g] = s
        by_tech: dict[str, list[str]] = defaultdict(list)
        for cid, c in sorted(self.model.components.items()):
            tech = c.attributes.get("technology") or ""
            if c.kind in ("database", "cache", "broker") and tech:
                # (a Dapr component's `azure.servicebus` is the template's `servicebus`)
                by_tech[tech.removeprefix("azure.")].append(cid)
        counts: dict[str, int] = defaultdict(int)
        for s in wanted.values():
            counts[s.technology] += 1
            counts[s.type] += 1
        # technology -> the externals named by an account's host of a managed Azure service
        # (taskstracker-state-store.documents.azure.com): the one store of that technology the templates declare
        accounts: dict[str, list[str]] = defaultdict(list)
        for cid, c in sorted(self.model.components.items()):
            if c.kind == "external" and (m := AZURE_SERVICE_HOST.search(c.name)):
                accounts[AZURE_SERVICE_TECH[m.group(1)]].append(cid)
        for r, s in sorted(wanted.items(), key=lambda kv: (kv[1].name, kv[0][0].module, kv[0][0].calls)):
            attrs = {"deployment": self._iac.module_of(r[0]).fmt, "iac_type": s.type, "technology": s.technology,
                     "iac_module": r[0].module, "iac_resource": r[1], "iac_calls": _calls(r[0])}
            if s.kind == "gateway":
                attrs["published"] = "true"
            name, aliases = s.name, ()
            same = by_tech.get(s.technology, [])
            host = next((h for p, h in SDK_HOSTS if p.search(s.type)), None) if s.technology != "openai" else "api.openai.com"
            if len(same) == 1 and counts[s.technology] == 1:
                aliases, name = (s.name,), self.model.components[same[0]].name
            elif host and counts[s.type] == 1 and self.alias.get(host):
                aliases, name = (s.name,), self.model.components[self.alias[host]].name
            comp = self.add_component(name, s.kind, r[0].repo, s.evidence, aliases, attrs)
            named = accounts.get(s.technology, [])
            if len(named) == 1 and counts[s.technology] == 1 and named[0] != comp.id and named[0] in self.model.components:
                self.fold_component(named[0], comp.id)
            if comp.attributes.get("iac_resource") != r[1] or comp.attributes.get("iac_module") != r[0].module:
                comp.attributes["iac_module"], comp.attributes["iac_resource"] = r[0].module, r[1]
                comp.attributes["iac_calls"] = _calls(r[0])

    def _iac_gateways(self) -> list[ResourceRef]:
        """API gateways deployed (not ``existing`` references to one declared elsewhere)."""
        return [(inst, f.get("address") or "") for inst in self._iac.instances for f in self._iac.resources(inst)
                if GATEWAY_TYPES.match(f.get("type") or "") and not f.get("existing")]

    def _iac_gateway_of(self, part: ResourceRef) -> ResourceRef | None:
        """The gateway a gateway part (an API, a route) belongs to: the one of its family the
        repository deploys with the name its parent has, else the only one."""
        f = self._iac_block(part)
        family = (f.get("type") or "").split("/")[0] if "/" in (f.get("type") or "") else ""
        gateways = [g for g in self._iac_gateways() if g[0].repo == part[0].repo
                    and (not family or (self._iac_block(g).get("type") or "").startswith(family))]
        parents = self._iac_parents(part)
        direct = [g for g in gateways if g in parents]
        if len(direct) == 1:
            return direct[0]
        if len(gateways) == 1:
            return gateways[0]
        names = {v.text for r in parents for v in self._iac_values(r) if v.key == "name"}
        named = [g for g in gateways if any(v.key == "name" and v.text in names for v in self._iac_values(g))]
        return named[0] if len(named) == 1 else None

    def _iac_parents(self, part: ResourceRef) -> list[ResourceRef]:
        return [r for v in self._iac_values(part) if v.key in ("parent", "api_management_name", "api_id", "rest_api_id")
                for r in v.resources]

    def _iac_dapr_links(self) -> list[tuple[ResourceRef, str, list[Evidence]]]:
        """(store resource, app id, evidence) of Dapr components declared as resources."""
        out = []
        for inst in self._iac.instances:
            for f in self._iac.resources(inst):
                if not DAPR_COMPONENTS.match(f.get("type") or ""):
                    continue
                values = self._iac_values((inst, f.get("address") or ""))
                scopes = [v for v in values if re.match(r"^(properties\.)?scopes(\[\d+\])?$", v.key)]
                stores = {r for v in values if "metadata" in v.key or "secrets" in v.key for r in v.resources}
                for r in sorted(stores, key=lambda x: (x[0].module, x[0].calls, x[1])):
                    if self._iac_store(r) is None:
                        continue
                    for s in scopes:
                        if s.text and "{}" not in s.text:
                            out.append((r, s.text, [f.evidence, *s.evidence]))
        return out

    def _iac_push_links(self) -> list[tuple[ResourceRef, ResourceRef, list[Evidence]]]:
        """(topic, workload resource, evidence) of push subscriptions whose endpoint is a workload's URL."""
        out = []
        for inst in self._iac.instances:
            for f in self._iac.resources(inst):
                if not PUSH_SUBSCRIPTIONS.match(f.get("type") or ""):
                    continue
                values = self._iac_values((inst, f.get("address") or ""))
                topics = [r for v in values if v.key == "topic" for r in v.resources]
                pushes = [(r, v) for v in values if plain_key(v.key) == "push_config.push_endpoint" for r in v.resources]
                for t in topics:
                    for r, v in pushes:
                        out.append((t, r, [f.evidence, *v.evidence]))
        return out

    def iac_links(self) -> None:
        """A workload's settings and arguments naming another workload or a store connect them; a Dapr
        component connects the apps in its scopes to its store; a push subscription is a flow from its
        topic to the workload its endpoint names.  Evidence: the .tf/.bicep lines the value came through."""
        workloads = self._iac_workloads
        made = self._iac_made()
        by_name: dict[str, str] = {}
        for w in workloads:
            cid = self._iac_component(w.ref, made)
            if cid:
                by_name.setdefault(w.name.lower(), cid)
        roles = self._iac_roles()
        for w, setting, v, r in self._iac_uses:
            source, target = self._iac_component(w.ref, made), self._iac_component(r, made)
            owner = self._iac_setting_owner(w, setting, roles)
            if owner is not None and owner is not w:
                # the setting of one role's store handed to every role: the others reach that role
                target = self._iac_component(owner.ref, made)
            if source and target and source != target:
                self.connect(source, target, "http" if self.model.components[target].kind == "service" else "tcp",
                             list(v.evidence), attributes={"via": f"iac {setting}"})
        for w in workloads:
            source = self._iac_component(w.ref, made)
            if not source:
                continue
            for setting, v in w.settings:
                text = v.text.strip().lower()
                host = re.sub(r"^[a-z]+://", "", text).split("/")[0].split(":")[0]
                target = by_name.get(text) or by_name.get(host)
                if target and target != source:
                    self.connect(source, target, "http", list(v.evidence), attributes={"via": f"iac {setting}"})
        for r, app, evidence in self._iac_dapr_links():
            source, target = by_name.get(app.lower()) or self.alias.get(app.lower()), self._iac_component(r, made)
            if source and target:
                self.connect(source, target, "tcp", evidence, attributes={"via": "iac dapr component"})
        for topic, workload, evidence in self._iac_push_links():
            source, target = self._iac_component(topic, made), self._iac_component(workload, made)
            if source and target:
                self.connect(source, target, "http", evidence, kind="flows", attributes={"via": "iac push subscription"})

    def _iac_roles(self) -> dict[Workload, frozenset[str]]:
        """The role words of workloads running one image under several names (``indexer`` of
        ``quickwit-indexer`` beside ``quickwit-searcher``): the words of its name the others lack."""
        by_image: dict[str, list[Workload]] = defaultdict(list)
        for w in self._iac_workloads:
            if w.image and "{}" not in w.image:
                by_image[w.image].append(w)
        out: dict[Workload, frozenset[str]] = {}
        for group in by_image.values():
            if len({w.name for w in group}) < 2:
                continue
            common = set.intersection(*(set(name_words(w.name)) for w in group))
            for w in group:
                out[w] = frozenset(set(name_words(w.name)) - common)
        return out

    @staticmethod
    def _iac_setting_owner(w: Workload, setting: str, roles: dict[Workload, frozenset[str]]) -> Workload | None:
        """The workload of the same image whose role the setting names (``QW_METASTORE_URI`` given to
        every role names the metastore's), if exactly one does."""
        if w not in roles:
            return None
        words = set(name_words(setting))
        named = [o for o, role in roles.items() if o.image == w.image and role and role <= words]
        return named[0] if len(named) == 1 else None

    def iac_front_doors(self) -> None:
        """An API gateway whose APIs point at a workload is a front door to it; a workload with
        external ingress is reached by the user."""
        made = self._iac_made()
        for inst in self._iac.instances:
            for f in self._iac.resources(inst):
                if not GATEWAY_PARTS.match(f.get("type") or ""):
                    continue
                part = (inst, f.get("address") or "")
                gateway = self._iac_gateway_of(part)
                source = self._iac_component(gateway, made)
                if not source:
                    continue
                for v in self._iac_values(part):
                    if v.key in ("parent", "api_management_name", "api_id", "rest_api_id", "name"):
                        continue
                    for r in self._iac_reached(v.resources):
                        target = self._iac_component(r, made)
                        if target and target != source and self.model.components[target].kind in ("service", "webapp"):
                            self.connect(source, target, "http", [f.evidence, *v.evidence],
                                         attributes={"via": "iac api gateway"})
        proxied = {c.target for c in self.model.connections.values()
                   if self.model.components[c.source].kind in ("gateway", "proxy")
                   and self.model.components[c.source].attributes.get("deployment") not in ("terraform", "bicep")}
        for w in self._iac_workloads:
            cid = self._iac_component(w.ref, made)
            if cid and w.external and cid not in proxied:
                # (a component another deployment of the system puts behind its reverse proxy is
                # reached through that proxy: the cloud's load balancer stands in for it)
                comp = self.model.components[cid]
                comp.attributes["published"] = "true"
                self.credit(comp.rules)


def _join_key(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _core(name: str, project_words: set[str]) -> str:
    """What a name says beyond the system's name and the words every service has: ``node`` of
    ``node-app`` and of ``node-service``, ``order`` of ``shop-orders`` in the shop project (a
    plural is its singular: ``carts`` and ``cart``)."""
    words = [x for x in name_words(name) if x not in _SERVICE_WORDS and x not in project_words]
    return "-".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


def _calls(inst: Instance) -> str:
    return ",".join(address for _m, address in inst.calls)
