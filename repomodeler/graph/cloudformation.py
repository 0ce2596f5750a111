"""AWS CloudFormation and SAM stacks as deployment descriptors.

A serverless system has no containers: its deployment is a set of templates, one stack each, and a
stack is what its team calls a service.  So a stack that holds functions is a service component
named after its folder (its functions' ``CodeUri`` folders are its code); a stack that only holds an
API (an AppSync GraphQL API, an API Gateway) is a gateway.  The tables, buckets, queues, topics,
event buses and user pools its functions use are stores and brokers of their own, named after the
stack when their logical id says no more than their type (``Table`` of ``orders`` is
``orders-table``).  A function's references (environment variables, policies, IAM statements, event
sources) connect its stack to what they name, in its stack or, through an SSM parameter or an
exported output, in another stack: the evidence is the template line of the reference.

Facts come from :mod:`repomodeler.extract.readers.cloudformation`.  Templates used as nested stacks
(``TemplateURL``) are parts of the stacks that include them, not stacks of their own.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath

from repomodeler.extract.readers.cloudformation import DEFAULT_BUS
from repomodeler.graph.base import ResolverBase
from repomodeler.graph.naming import norm_path
from repomodeler.records import Evidence, Fact, Unresolved

FUNCTIONS = frozenset({"AWS::Serverless::Function", "AWS::Lambda::Function"})
APIS = frozenset({"AWS::Serverless::Api", "AWS::Serverless::HttpApi", "AWS::ApiGateway::RestApi",
                  "AWS::ApiGatewayV2::Api", "AWS::AppSync::GraphQLApi"})
STATE_MACHINES = frozenset({"AWS::Serverless::StateMachine", "AWS::StepFunctions::StateMachine"})
SSM_TYPED = "AWS::SSM::Parameter::Value<"
ACCOUNT = "*"  # the "stack" of what the account has without any template (its default event bus)

# Resource types that are stores and brokers: (component kind, technology).
DATA_TYPES: dict[str, tuple[str, str]] = {
    "AWS::DynamoDB::Table": ("database", "dynamodb"), "AWS::DynamoDB::GlobalTable": ("database", "dynamodb"),
    "AWS::Serverless::SimpleTable": ("database", "dynamodb"), "AWS::S3::Bucket": ("database", "s3"),
    "AWS::RDS::DBInstance": ("database", "database"), "AWS::RDS::DBCluster": ("database", "database"),
    "AWS::OpenSearchService::Domain": ("database", "elasticsearch"),
    "AWS::Elasticsearch::Domain": ("database", "elasticsearch"),
    "AWS::ElastiCache::CacheCluster": ("cache", "redis"), "AWS::ElastiCache::ReplicationGroup": ("cache", "redis"),
    "AWS::SQS::Queue": ("broker", "sqs"), "AWS::SNS::Topic": ("broker", "sns"),
    "AWS::Events::EventBus": ("broker", "eventbridge"), "AWS::Kinesis::Stream": ("broker", "kinesis"),
    "AWS::MSK::Cluster": ("broker", "kafka"), "AWS::AmazonMQ::Broker": ("broker", "activemq"),
    "AWS::Cognito::UserPool": ("service", "cognito"),
    "AWS::Neptune::DBCluster": ("database", "neptune"), "AWS::Neptune::DBInstance": ("database", "neptune"),
    "AWS::DocDB::DBCluster": ("database", "mongodb"), "AWS::MemoryDB::Cluster": ("cache", "redis"),
    "AWS::ElastiCache::ServerlessCache": ("cache", "redis"),
}
CDN = "AWS::CloudFront::Distribution"
# A stack holding at least this many functions, alone in the system, has them drawn one by one.
FUNCTIONS_DRAWN = 2
# Event sources that call the function (the resource is the caller), rather than being read by it.
INVOKING_EVENTS = frozenset({"event Cognito", "event S3"})
# Words of a logical id that only repeat its type: ``Table``, ``EventBus``, ``UserPool`` say nothing more.
_TYPE_WORDS = frozenset({"table", "dynamo", "dynamodb", "db", "bucket", "s3", "queue", "sqs", "topic", "sns",
                         "event", "events", "bus", "eventbus", "user", "pool", "userpool", "cognito", "stream",
                         "kinesis", "database", "cluster", "instance", "cache", "redis", "domain", "search",
                         "broker", "kafka", "main", "primary", "default", "my", "the"})
# Folders that hold a service's templates rather than name it (``orders/infra/template.yaml``).
_TEMPLATE_FOLDERS = frozenset({"infra", "infrastructure", "cfn", "cloudformation", "sam", "template", "templates",
                               "deploy", "deployment", "iac", "aws", "stack", "stacks"})
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")

StackKey = tuple[str, str]  # (repository, template folder)
ResourceKey = tuple[str, str, str]  # (repository, template folder, logical id)


@dataclass
class _Stack:
    resources: dict[str, Fact] = field(default_factory=dict)
    parameters: dict[str, Fact] = field(default_factory=dict)
    parameter_values: dict[str, str] = field(default_factory=dict)
    references: list[Fact] = field(default_factory=list)

    @property
    def functions(self) -> list[Fact]:
        return [f for f in self.resources.values() if f.get("type") in FUNCTIONS]

    @property
    def running_functions(self) -> list[Fact]:
        """Functions other than those a custom resource runs while the stack deploys."""
        return [f for f in self.functions if f.get("custom_resource") != "true"]

    @property
    def cdns(self) -> list[Fact]:
        return [f for f in self.resources.values() if f.get("type") == CDN]

    @property
    def workflows(self) -> list[Fact]:
        return [f for f in self.resources.values() if f.get("type") in STATE_MACHINES]

    @property
    def apis(self) -> list[Fact]:
        return [f for f in self.resources.values() if f.get("type") in APIS]


@lru_cache(maxsize=4096)
def _placeholders(name: str) -> re.Pattern[str]:
    """A folded name as a pattern: each ``{}`` matches any text within a path segment."""
    return re.compile("[^/]+?".join(re.escape(part) for part in name.split("{}")))


def _words(logical_id: str) -> list[str]:
    return [w.lower() for w in _CAMEL.findall(logical_id)]


def _kebab(logical_id: str) -> str:
    return "-".join(_words(logical_id)) or logical_id.lower()


def _template_path(key: str) -> bool:
    """Is a stack key a template's path (one of several templates in its folder), not a folder?"""
    return key.endswith((".yaml", ".yml", ".json", ".template"))


class CloudFormationRules(ResolverBase):
    """Components and connections declared by CloudFormation/SAM templates."""

    # ------------------------------------------------------------------ the templates, from facts
    def _cfn(self) -> dict[StackKey, _Stack]:
        """Every stack's resources, parameters and references (templates used as nested stacks left
        out).  Derived from facts only, so each rule reads the same thing."""
        cached = getattr(self, "_cfn_stacks", None)
        if cached is not None:
            return cached
        stacks: dict[StackKey, _Stack] = {}
        # Several templates in one folder (backend/auth.yaml, backend/cart-service.yaml), each deployed
        # as a stack of its own: each template is a stack, keyed by its path instead of its folder.
        templates: dict[StackKey, set[str]] = defaultdict(set)
        ids: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in self.by_kind["cfn.resource"]:
            templates[(f.repository, f.get("stack") or "")].add(f.path)
            ids[(f.repository, f.path)].add(f.get("id") or "")
        # Templates of one folder declaring mostly the same resources are versions of one stack
        # (master.yaml and master-with-warmers.yaml): the one whose name the others extend stands.
        dropped: set[tuple[str, str]] = set()
        for (repo, _folder), paths in sorted(templates.items()):
            for a in sorted(paths, key=lambda p: (len(p), p)):
                if (repo, a) in dropped:
                    continue
                for b in sorted(paths):
                    if b == a or (repo, b) in dropped:
                        continue
                    mine, theirs = ids[(repo, a)], ids[(repo, b)]
                    if len(mine & theirs) >= 0.8 * max(len(mine), len(theirs)) and \
                            PurePosixPath(b).stem.startswith(PurePosixPath(a).stem):
                        dropped.add((repo, b))
        # A template whose functions' code is already uploaded (``CodeUri: s3://bucket/5f35...``) beside one
        # whose code is in the repository is the output of ``sam package`` / ``aws cloudformation package``
        # (output.yaml, packaged.yaml): a copy built from the other, not a stack of its own.
        packaged = {(f.repository, f.path) for f in self.by_kind["cfn.resource"]
                    if (f.get("code_uri") or "").startswith("s3://")}
        local = {(f.repository, f.path) for f in self.by_kind["cfn.resource"]
                 if f.get("code_uri") and not (f.get("code_uri") or "").startswith("s3://")}
        for (repo, _folder), paths in sorted(templates.items()):
            if any((repo, p) in local and (repo, p) not in packaged for p in paths):
                dropped |= {(repo, p) for p in paths if (repo, p) in packaged and (repo, p) not in local}
        for key in list(templates):
            templates[key] -= {p for r, p in dropped if r == key[0]}

        def keys(f: Fact) -> list[StackKey]:
            folder_key = (f.repository, f.get("stack") or "")
            paths = templates.get(folder_key, set())
            if len(paths) < 2:
                return [folder_key]
            return [(f.repository, f.path)] if f.path in paths else [(f.repository, p) for p in sorted(paths)]

        for f in sorted(self.by_kind["cfn.resource"], key=Fact.order):
            if (f.repository, f.path) in dropped:
                continue
            for k in keys(f):
                stacks.setdefault(k, _Stack()).resources.setdefault(f.get("id") or "", f)
        for f in sorted(self.by_kind["cfn.parameter"], key=Fact.order):
            if (f.repository, f.path) in dropped:
                continue
            for k in keys(f):
                if k in stacks:
                    stacks[k].parameters.setdefault(f.get("name") or "", f)
        for f in sorted(self.by_kind["cfn.parameter.value"], key=Fact.order):
            for k in keys(f):
                if k in stacks:
                    stacks[k].parameter_values.setdefault(f.get("name") or "", f.get("value") or "")
        for f in sorted(self.by_kind["cfn.reference"], key=Fact.order):
            if (f.repository, f.path) in dropped:
                continue
            for k in keys(f):
                if k in stacks:
                    stacks[k].references.append(f)
        nested = {(f.repository, norm_path(f.get("template_url") or "")) for s in stacks.values()
                  for f in s.resources.values() if f.get("template_url")}
        for key in list(stacks):
            paths = {f.path for f in stacks[key].resources.values()}
            if any(r == key[0] and url and (p == url or p.endswith("/" + url)) for r, url in nested for p in paths):
                del stacks[key]  # a nested stack's template: part of each stack that includes it
        self._cfn_stacks = stacks
        return stacks

    def _cfn_named(self, kind: str) -> dict[str, list[Fact]]:
        """SSM parameters (kind ``cfn.ssm``) or exports (``cfn.export``) by their folded name
        (made once: every reference across stacks looks names up here)."""
        memo: dict[str, dict[str, list[Fact]]] | None = getattr(self, "_cfn_names", None)
        if memo is None:
            memo = self._cfn_names = {}
        if kind in memo:
            return memo[kind]
        out: dict[str, list[Fact]] = {}
        stacks = self._cfn()
        for f in sorted(self.by_kind[kind], key=Fact.order):
            if (f.repository, f.get("stack") or "") in stacks:
                out.setdefault(f.get("name") or "", []).append(f)
        memo[kind] = out
        return out

    def _cfn_lookup(self, kind: str, name: str) -> list[Fact]:
        """The SSM parameters or exports called `name`; a placeholder (``{}``, the environment, the
        stack name) on either side stands for any text within one path segment, so a parameter's
        default ``/shop/dev/bus`` finds the parameter the defining template names
        ``/shop/${Environment}/bus``.  An exact name wins over a match through placeholders."""
        named = self._cfn_named(kind)
        if name in named:
            return named[name]
        mine = _placeholders(name)
        return [f for other in self._cfn_candidates(kind, name)
                if mine.fullmatch(other) or _placeholders(other).fullmatch(name) for f in named[other]]

    def _cfn_candidates(self, kind: str, name: str) -> list[str]:
        """The names of `kind` that could match `name` through placeholders: as many path segments,
        each equal or a placeholder on one side (an index by segment, so that resolving every
        reference of many stacks stays near linear)."""
        memo: dict[str, dict[tuple[int, int, str], set[str]]] | None = getattr(self, "_cfn_shapes", None)
        if memo is None:
            memo = self._cfn_shapes = {}
        if kind not in memo:
            shapes: dict[tuple[int, int, str], set[str]] = {}
            for other in self._cfn_named(kind):
                segments = other.split("/")
                for at, segment in enumerate(segments):  # "{}" marks a segment with a placeholder
                    shapes.setdefault((len(segments), at, "{}" if "{}" in segment else segment), set()).add(other)
            memo[kind] = shapes
        segments = name.split("/")
        n, shapes = len(segments), memo[kind]
        # The literal segment of `name` that fewest names could match there narrows the candidates;
        # the placeholder check in _cfn_lookup decides.
        best: tuple[int, int, str] | None = None
        for at, segment in enumerate(segments):
            if "{}" not in segment:
                size = len(shapes.get((n, at, segment), ())) + len(shapes.get((n, at, "{}"), ()))
                if best is None or size < best[0]:
                    best = (size, at, segment)
        if best is None:
            return sorted({o for (m, _a, _s), names in shapes.items() if m == n for o in names})
        _size, at, segment = best
        return sorted(shapes.get((n, at, segment), set()) | shapes.get((n, at, "{}"), set()))

    def _cfn_resolve(self, key: StackKey, target: str) -> ResourceKey | None:
        """The resource a reference in stack `key` names: a resource of the stack, or one of another
        stack reached through an SSM parameter (a parameter typed ``AWS::SSM::Parameter::Value`` whose
        name is its default or is given by a parameters file, or ``{{resolve:ssm:...}}``) or an export."""
        from repomodeler.extract.readers.cloudformation import fold_name

        stack = self._cfn()[key]
        if target in stack.resources:
            return (key[0], key[1], target)
        if target == DEFAULT_BUS:  # the account's default bus: one per repository's account, no stack
            return (key[0], ACCOUNT, DEFAULT_BUS)
        via: list[Fact] = []
        if target.startswith("ssm:"):
            via = self._cfn_lookup("cfn.ssm", target[4:])
        elif target.startswith("import:"):
            via = self._cfn_lookup("cfn.export", target[7:])
        elif target in stack.parameters:
            p = stack.parameters[target]
            if not (p.get("type") or "").startswith(SSM_TYPED):
                return None
            name = stack.parameter_values.get(target) or p.get("default") or ""
            if name:
                via = self._cfn_lookup("cfn.ssm", fold_name(name))
        found = {(f.repository, f.get("stack") or "", f.get("target") or "") for f in via}
        return found.pop() if len(found) == 1 else None

    def _cfn_made(self) -> tuple[dict[StackKey, str], dict[ResourceKey, str]]:
        """The components the stack and resource rules made, read from the model (by the
        ``deployment``, ``stack`` and ``resource`` attributes they set), so a rule switched off
        leaves nothing behind for the others to read."""
        stacks: dict[StackKey, str] = {}
        resources: dict[ResourceKey, str] = {}
        for cid, c in sorted(self.model.components.items()):
            if c.attributes.get("deployment") != "cloudformation" or c.repository is None:
                continue
            folder = c.attributes.get("stack", ".")
            folder = "" if folder == "." else folder
            if c.attributes.get("resource"):
                resources[(c.repository, folder, c.attributes["resource"])] = cid
            else:
                stacks[(c.repository, folder)] = cid
        return stacks, resources

    def _cfn_uses(self) -> list[tuple[StackKey, Fact, ResourceKey]]:
        """(stack, reference, resource it reaches) of every reference made by a function, by an API
        (its data sources) or by a role a function runs with."""
        return [(key, r, reached) for key, r, reached in self._cfn_references() if reached is not None]

    def _cfn_cross_stack_value(self, key: StackKey, target: str) -> str | None:
        """What a reference hands over from outside the stack (an SSM parameter's name, an export's),
        None for a reference inside the stack or to a plain parameter."""
        if target.startswith(("ssm:", "import:")):
            return target
        p = self._cfn()[key].parameters.get(target)
        if p is None or not (p.get("type") or "").startswith(SSM_TYPED):
            return None
        name = self._cfn()[key].parameter_values.get(target) or p.get("default") or ""
        return f"ssm:{name}" if name else f"ssm parameter {target} (no name given)"

    def _cfn_references(self) -> list[tuple[StackKey, Fact, ResourceKey | None]]:
        """(stack, reference, resource it reaches or None) of every reference made by a function, a
        workflow, an API or a role one of them runs with (made once, from facts only)."""
        cached: list[tuple[StackKey, Fact, ResourceKey | None]] | None = getattr(self, "_cfn_refs", None)
        if cached is not None:
            return cached
        out: list[tuple[StackKey, Fact, ResourceKey | None]] = []
        for key, stack in sorted(self._cfn().items()):
            # (a custom resource's helper runs while the stack deploys: what it touches is no use of the system)
            users = {f.get("id") for f in stack.running_functions + stack.apis + stack.workflows + stack.cdns}
            roles: set[str] = {r.get("target") or "" for r in stack.references
                               if r.get("via") == "role" and r.get("source") in users}
            for r in stack.references:
                if r.get("via") == "role" or not (r.get("source") in users or r.get("source") in roles):
                    continue
                out.append((key, r, self._cfn_resolve(key, r.get("target") or "")))
        self._cfn_refs = out
        return out

    def _cfn_per_function(self) -> set[StackKey]:
        """Stacks whose functions are drawn one by one: the system's only stack with functions, when it
        holds several.  A serverless application of one template is drawn function by function (each
        its own handler, role and tables), where a system of many stacks calls each stack a service."""
        with_functions = [k for k, st in self._cfn().items() if st.running_functions]
        if len(with_functions) == 1 and len(self._cfn()[with_functions[0]].running_functions) >= FUNCTIONS_DRAWN:
            return set(with_functions)
        return set()

    def _cfn_signed_by_users(self, stack: _Stack) -> set[str]:
        """APIs the roles of a Cognito identity pool may call: the browser signs its requests (AWS_IAM)
        with the signed-in user's credentials, so users call them."""
        roles = {r.get("target") for r in stack.references if r.get("via") == "identity role"}
        return {r.get("target") or "" for r in stack.references if r.get("via") == "iam" and r.get("source") in roles}

    # ------------------------------------------------------------------ rules
    def cfn_functions(self) -> None:
        """In the system's only stack with several functions, each function (not a custom resource's
        deployment helper) is a service named after its logical id, and each API a gateway."""
        for key in sorted(self._cfn_per_function()):
            stack, (repo, folder) = self._cfn()[key], key
            code_folder = norm_path(str(PurePosixPath(folder).parent)) if _template_path(folder) else folder
            for f in sorted(stack.running_functions + stack.workflows, key=Fact.order):
                comp = self.add_component(_kebab(f.get("id") or ""), "service", repo, f.evidence, attributes={
                    "deployment": "cloudformation", "stack": folder or ".", "resource": f.get("id") or "",
                    "runtime": f.get("runtime") or ""})
                if f.get("code_uri"):
                    comp.source_roots.add((repo, norm_path(f"{code_folder}/{f.get('code_uri')}")))
            for f in sorted(stack.apis, key=Fact.order):
                self.add_component(_kebab(f.get("id") or ""), "gateway", repo, f.evidence, attributes={
                    "deployment": "cloudformation", "stack": folder or ".", "resource": f.get("id") or "",
                    "technology": "api"})

    def cfn_stacks(self) -> None:
        """A stack with functions is a service named after its folder; a stack with only an API is a
        gateway.  Its functions' code folders (and the template's folder) are the component's source."""
        per_function = self._cfn_per_function()
        for key, stack in sorted(self._cfn().items()):
            # a stack whose only functions serve its custom resources while it deploys runs nothing
            functions, apis = stack.running_functions + stack.workflows, stack.apis
            if not functions and not apis or key in per_function:
                continue
            repo, folder = key
            template = _template_path(folder)
            if template:  # one of several templates in a folder: named after the template
                name, folder = PurePosixPath(folder).stem, norm_path(str(PurePosixPath(folder).parent))
            else:
                parts = PurePosixPath(folder).parts
                while parts and parts[-1].lower() in _TEMPLATE_FOLDERS:
                    parts = parts[:-1]
                name = parts[-1] if parts else repo
            first, *rest = sorted(functions + apis, key=Fact.order)
            runtimes = sorted({f.get("runtime") or "" for f in functions} - {""})
            comp = self.add_component(name, "service" if functions else "gateway", repo, first.evidence,
                                      attributes={"deployment": "cloudformation", "stack": key[1] or ".",
                                                  "runtime": ",".join(runtimes),
                                                  "technology": "" if functions else "api"})
            for f in rest:
                comp.evidence.add(f.evidence)
            comp.source_roots.add((repo, norm_path(key[1] if template else folder)))
            for f in functions:
                if f.get("code_uri"):
                    comp.source_roots.add((repo, norm_path(f"{folder}/{f.get('code_uri')}")))

    def cfn_resources(self) -> None:
        """The stores and brokers the stacks' functions use are components, named after their stack
        when their logical id only repeats their type (``Table`` of ``orders`` is ``orders-table``)."""
        stacks = self._cfn()
        stack_ids, _ = self._cfn_made()
        uses = self._cfn_uses()
        # a user pool an app client signs users into: users reach it
        pools = {(key[0], key[1], rid) for key, st in stacks.items()
                 if any(f.get("type") == "AWS::Cognito::UserPoolClient" for f in st.resources.values())
                 for rid, f in st.resources.items() if f.get("type") == "AWS::Cognito::UserPool"}
        used = sorted({reached for _key, _r, reached in uses} | pools)
        for key, st in sorted(stacks.items()):  # a CDN serving a bucket or an API is the users' front door
            for f in st.cdns:
                if any(k == key and r.get("source") == f.get("id") for k, r, _reached in uses):
                    self.add_component(_kebab(f.get("id") or ""), "gateway", key[0], f.evidence, attributes={
                        "deployment": "cloudformation", "stack": key[1] or ".", "resource": f.get("id") or "",
                        "technology": "cloudfront", "published": "true"})
        for repo, folder, rid in used:
            if folder == ACCOUNT:
                first = min(r.evidence for _key, r, reached in uses if reached == (repo, folder, rid))
                self.add_component(DEFAULT_BUS, "broker", repo, first, attributes={
                    "deployment": "cloudformation", "stack": ACCOUNT, "resource": rid, "technology": "eventbridge"})
                continue
            f = stacks[(repo, folder)].resources.get(rid)
            if f is None or f.get("type") not in DATA_TYPES:
                continue
            if f.get("type") == "AWS::Cognito::UserPool" and (repo, folder, rid) not in pools \
                    and not any(reached == (repo, folder, rid) for _k, _r, reached in uses):
                continue
            kind, tech = DATA_TYPES[f.get("type") or ""]
            stack_name = self.model.components[stack_ids[(repo, folder)]].name \
                if (repo, folder) in stack_ids else (
                    PurePosixPath(folder).stem if _template_path(folder) else PurePosixPath(folder).name) or repo
            words = _words(rid)
            name = _kebab(rid)
            if not words or set(words) <= _TYPE_WORDS or name in self.alias:
                name = f"{stack_name}-{name}"
            attrs = {"deployment": "cloudformation", "stack": folder or ".", "resource": rid, "technology": tech}
            if tech == "cognito":
                attrs["published"] = "true"  # the users sign in at the user pool
            self.add_component(name, kind, repo, f.evidence, attributes=attrs)

    def cfn_references(self) -> None:
        """A function's references connect its stack to what they reach: a store or broker, or
        another stack (its API, its function) through an SSM parameter or an export.  What another
        stack should hand over but none of the inputs defines is listed as unresolved."""
        stack_ids, resource_ids = self._cfn_made()
        unresolved: set[tuple[str, str, Evidence]] = set()
        # Drawn one by one, a function reaches what its role allows only when it names nothing itself
        # (a role shared by many functions grants each every table; the variables say which it uses).
        role_users: dict[tuple[StackKey, str], list[str]] = defaultdict(list)
        naming: set[tuple[StackKey, str]] = set()
        per_function = self._cfn_per_function()
        for key, r, _reached in self._cfn_references():
            if key in per_function and r.get("via") != "role":
                naming.add((key, r.get("source") or ""))
        for key in per_function:
            for r in self._cfn()[key].references:
                if r.get("via") == "role":
                    role_users[(key, r.get("target") or "")].append(r.get("source") or "")
        for key, r, reached in self._cfn_references():
            if reached is None:
                value = self._cfn_cross_stack_value(key, r.get("target") or "")
                if value is not None and key in stack_ids:  # handed over from a stack the inputs do not hold
                    unresolved.add((stack_ids[key], value, r.evidence))
                continue
            sources = [resource_ids.get((key[0], key[1], r.get("source") or "")) or stack_ids.get(key)]
            if key in per_function and (key, r.get("source") or "") in role_users:
                sources = [resource_ids.get((key[0], key[1], fn)) for fn in role_users[(key, r.get("source") or "")]
                           if (key, fn) not in naming]
            target = resource_ids.get(reached) or stack_ids.get(reached[:2])
            for source in sources:
                if not source or not target or source == target:
                    continue
                src, dst = source, target
                via = r.get("via") or ""
                if via in INVOKING_EVENTS:
                    src, dst = target, source
                self.connect(src, dst, "http", [r.evidence], attributes={"via": f"cloudformation {via}"})
        for cid, value, ev in sorted(unresolved):
            self.model.unresolved.append(Unresolved(cid, value, ev))

    def cfn_front_doors(self) -> None:
        """A stack's API is a front door the user reaches, unless callers must sign their requests
        (``AWS_IAM`` on the API or on every route of it) or another stack calls it (its address is handed over by SSM or an export)."""
        called = {reached[:2] for key, _r, reached in self._cfn_uses() if reached[:2] != key
                  and reached[1] != ACCOUNT and self._cfn()[reached[:2]].resources[reached[2]].get("type") in APIS}
        stack_ids, resource_ids = self._cfn_made()
        for key, stack in sorted(self._cfn().items()):
            cid = stack_ids.get(key)
            if key in called:
                continue
            routes: dict[str, set[str]] = {}
            connect = {f.get("api") for f in stack.resources.values() if f.get("route") == "$connect"}
            for f in stack.resources.values():
                # A WebSocket API authorises once, on its $connect route; the other routes follow.
                if f.get("api") and (f.get("api") not in connect or f.get("route") == "$connect"):
                    routes.setdefault(f.get("api") or "", set()).add(f.get("auth") or "NONE")
            signed = self._cfn_signed_by_users(stack)
            doors = [f for f in stack.apis if f.get("auth") != "AWS_IAM"
                     and routes.get(f.get("id") or "", set()) != {"AWS_IAM"} or f.get("id") in signed]
            doors += [f for f in stack.functions if f.get("implicit_api") == "true"]
            for f in doors:  # drawn one by one: the API itself is the door
                rid = resource_ids.get((key[0], key[1], f.get("id") or ""))
                if rid is not None:
                    self.model.components[rid].attributes["published"] = "true"
                    self.credit(self.model.components[rid].rules)
            if doors and cid is not None:
                comp = self.model.components[cid]
                comp.attributes["published"] = "true"
                comp.evidence.add(min(f.evidence for f in doors))
                self.credit(comp.rules)
