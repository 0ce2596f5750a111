"""AWS CloudFormation and SAM templates: the resources of a stack and what its functions use.

A serverless system is declared here rather than in compose files or manifests: each template is a
stack (usually one service), its ``AWS::Serverless::Function``/``AWS::Lambda::Function`` resources are
the service's code (``CodeUri``), its tables, queues, topics, buses and user pools are the stores
and brokers, and the functions' environment variables, policies, IAM statements and event sources
say which of them each function uses.  Stacks reach each other's resources through SSM parameters
(``AWS::SSM::Parameter`` in one, a parameter typed ``AWS::SSM::Parameter::Value<String>`` or a
``{{resolve:ssm:...}}`` in another) and through ``Export``/``Fn::ImportValue``.

YAML templates use short tags (``!Ref``, ``!GetAtt``, ``!Sub``...); the composed nodes keep them, so
no constructor is needed and an unknown tag is read like any other value.  Facts:

- ``cfn.resource``: ``stack`` (the template's folder), ``id``, ``type``; functions add ``code_uri``,
  ``handler``, ``runtime`` (and ``implicit_api`` when an ``Api`` event makes SAM create the stack's
  API); APIs add ``auth`` (``AWS_IAM`` when callers must sign requests), routes and methods their
  ``api`` and ``auth``; nested stacks add ``template_url``.
- ``cfn.reference``: ``source`` (the resource that uses), ``target`` (a logical id or parameter of the
  same template, ``ssm:<name>`` or ``import:<name>``), ``via`` (``env NAME``, ``policy X``, ``iam``,
  ``event TYPE``, ``datasource``, ``rule``).
- ``cfn.parameter``: a template parameter (``name``, ``type``, ``default``).
- ``cfn.ssm``: an SSM parameter the stack writes (``name``, its ``target`` resource).
- ``cfn.export``: an output the stack exports (``name``, ``target``).
- ``cfn.parameter.value``: a value given to a template parameter by a parameters file beside it
  (a top-level ``parameters:`` mapping, as deployment tools keep per stack).

Names of SSM parameters and exports are kept with their placeholders folded to ``{}``
(``/shop/${Environment}/orders/table`` and ``/shop/{Environment}/orders/table`` are the same name).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Iterator

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar, seq, yaml
from repomodeler.records import Fact

_HINT = re.compile(r"AWSTemplateFormatVersion|AWS::Serverless-2016-10-31|^Resources\s*:|"
                   r"""^\s+Type\s*:\s*['"]?AWS::[A-Za-z0-9]+::|"Type"\s*:\s*"AWS::[A-Za-z0-9]+::""", re.M)
_PARAMETERS_FILE = re.compile(r"^parameters\s*:\s*$", re.M)
FUNCTIONS = frozenset({"AWS::Serverless::Function", "AWS::Lambda::Function"})
DEFAULT_BUS = "default-event-bus"  # the account's EventBridge bus that rules and PutEvents use unless told
STATE_MACHINES = frozenset({"AWS::Serverless::StateMachine", "AWS::StepFunctions::StateMachine"})
APIS = frozenset({"AWS::Serverless::Api", "AWS::Serverless::HttpApi", "AWS::ApiGateway::RestApi",
                  "AWS::ApiGatewayV2::Api", "AWS::AppSync::GraphQLApi"})
_SUB_VAR = re.compile(r"\$\{(?!!)([A-Za-z0-9_:.]+)\}")
_RESOLVE_SSM = re.compile(r"\{\{resolve:ssm(?:-secure)?:(.+?)(?::\d+)?\}\}")
_PLACEHOLDER = re.compile(r"\$?\{[^{}]*\}")


def fold_name(name: str) -> str:
    """An SSM parameter or export name with its placeholders folded (``${Env}``, ``{Env}`` -> ``{}``)."""
    return _PLACEHOLDER.sub("{}", name.strip())


def _tag(node: yaml.Node) -> str:
    return node.tag if node.tag.startswith("!") else ""


def _json_to_yaml(text: str) -> yaml.Node:
    """A JSON template as the same composed nodes (JSON is YAML; lines are kept, and a syntax
    error names its line like a YAML one)."""
    docs = load_yaml_documents(text)
    return docs[0] if docs else None


def _sub_text(node: yaml.Node) -> str | None:
    """The template string of a ``!Sub``/``Fn::Sub`` (the first element of the list form)."""
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    if isinstance(node, yaml.SequenceNode) and node.value:
        return scalar(node.value[0])
    return None


def _name_text(node: yaml.Node | None) -> str | None:
    """A name written as a literal, a ``!Sub``/``Fn::Sub`` string or a ``!Join``/``Fn::Join`` (its
    parts that are no literal, ``!Ref Environment``, become placeholders)."""
    if node is None:
        return None
    if isinstance(node, yaml.ScalarNode):
        if _tag(node) == "!Ref":
            return "{}"
        return str(node.value) if _tag(node) in ("", "!Sub") else None
    if isinstance(node, yaml.SequenceNode) and _tag(node) == "!Sub":
        return _sub_text(node)
    join = node if isinstance(node, yaml.SequenceNode) and _tag(node) == "!Join" else get(node, "Fn::Join")
    if isinstance(join, yaml.SequenceNode) and len(join.value) == 2:
        delimiter = scalar(join.value[0]) or ""
        parts = [_name_text(part) for part in seq(join.value[1])]
        return delimiter.join("{}" if part is None else part for part in parts)
    if isinstance(node, yaml.MappingNode):
        sub = get(node, "Fn::Sub")
        if sub is not None:
            return _sub_text(sub)
        if get(node, "Ref") is not None:
            return "{}"
    return None


def references(node: yaml.Node | None) -> Iterator[tuple[str, int]]:
    """(target, line) of every reference inside `node`: ``!Ref X``, ``!GetAtt X.Attr``, ``${X}`` in a
    ``!Sub``, ``!ImportValue name`` (``import:<name>``) and ``{{resolve:ssm:name}}`` (``ssm:<name>``).
    Pseudo parameters (``AWS::Region``) are no reference."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        tag = _tag(n)
        line = node_line(n)
        if isinstance(n, yaml.ScalarNode):
            value = str(n.value)
            if tag == "!Ref":
                yield value, line
            elif tag == "!GetAtt":
                yield value.split(".", 1)[0], line
            elif tag == "!ImportValue":
                yield f"import:{fold_name(value)}", line
            elif tag == "!Sub":
                yield from ((v.split(".", 1)[0], line) for v in _SUB_VAR.findall(value))
            for ssm in _RESOLVE_SSM.findall(value):
                yield f"ssm:{fold_name(ssm)}", line
            continue
        if isinstance(n, yaml.SequenceNode):
            if tag == "!GetAtt" and n.value:
                yield (scalar(n.value[0]) or ""), line
                continue
            if tag == "!ImportValue" and n.value:
                continue
            if tag == "!Sub" and n.value:
                text = scalar(n.value[0]) or ""
                local = {k.value for k, _v in items(n.value[1])} if len(n.value) > 1 else set()
                yield from ((v.split(".", 1)[0], line) for v in _SUB_VAR.findall(text) if v not in local)
                stack.extend(n.value[1:])
                continue
            stack.extend(reversed(n.value))
            continue
        if isinstance(n, yaml.MappingNode):
            if tag == "!ImportValue":
                name = _name_text(n)
                if name:
                    yield f"import:{fold_name(name)}", line
                continue
            handled = False
            for k, v in items(n):
                if k.value == "Ref" and scalar(v):
                    yield scalar(v) or "", line
                    handled = True
                elif k.value == "Fn::GetAtt":
                    target = scalar(v) or (scalar(v.value[0]) if isinstance(v, yaml.SequenceNode) and v.value else "")
                    yield (target or "").split(".", 1)[0], line
                    handled = True
                elif k.value == "Fn::ImportValue":
                    name = _name_text(v)
                    if name:
                        yield f"import:{fold_name(name)}", line
                    handled = True
                elif k.value == "Fn::Sub":
                    text = _sub_text(v) or ""
                    yield from ((x.split(".", 1)[0], line) for x in _SUB_VAR.findall(text))
                    handled = True
            if not handled:
                stack.extend(v for _k, v in reversed(list(items(n))))


def _ref_facts(repo: str, path: str, stack: str, source: str, via: str, node: yaml.Node | None,
               known: set[str]) -> list[Fact]:
    out = []
    for target, line in references(node):
        if not target or target.startswith("AWS::") or target == source:
            continue
        if ":" not in target and target not in known:
            continue  # a name the template does not declare (a mapping key, a typo): nothing to resolve
        out.append(fact("cfn.reference", repo, path, line, stack=stack, source=source, target=target, via=via))
    return out


# Properties that give a resource its physical name, which code and settings may use instead of a !Ref.
NAME_PROPERTIES = ("TableName", "BucketName", "QueueName", "TopicName", "FunctionName", "DomainName", "StreamName",
                   "ClusterName", "CacheClusterId", "ReplicationGroupId", "DBClusterIdentifier",
                   "DBInstanceIdentifier", "EventBusName", "StateMachineName", "UserPoolName")


def _physical_names(resources: yaml.Node | None) -> dict[str, str]:
    """Folded physical name (``{}-Books`` of ``TableName: !Sub '${ProjectName}-Books'``) -> logical id,
    for names that say more than their placeholders."""
    out: dict[str, str] = {}
    for k, res in items(resources):
        props = get(res, "Properties")
        for key in NAME_PROPERTIES:
            if key == "DomainName" and not (scalar(get(res, "Type")) or "").endswith("::Domain"):
                continue  # a certificate's or distribution's DomainName is an address, not its name
            name = _name_text(get(props, key))
            if name and re.sub(r"[{}\W_]", "", name):
                out.setdefault(fold_name(name), k.value)
    return out


def _function_facts(repo: str, path: str, stack: str, rid: str, props: yaml.Node | None, globals_fn: yaml.Node | None,
                    known: set[str], names: dict[str, str] | None = None) -> list[Fact]:
    """What a function uses: environment variables (its own and the template's ``Globals``),
    policies (SAM policy templates and IAM statements), its role's policies, and its event sources.
    An environment variable holding a resource's physical name (``TABLE_NAME: !Sub '${ProjectName}-Books'``
    beside ``TableName: !Sub '${ProjectName}-Books'``) names that resource as a ``!Ref`` would."""
    out: list[Fact] = []
    for env_owner in (globals_fn, props):
        for k, v in items(get(get(env_owner, "Environment"), "Variables")):
            out += _ref_facts(repo, path, stack, rid, f"env {k.value}", v, known)
            named = (names or {}).get(fold_name(_name_text(v) or "")) if isinstance(v, yaml.Node) else None
            if named and named != rid:
                out.append(fact("cfn.reference", repo, path, node_line(v), stack=stack, source=rid, target=named,
                                via=f"env {k.value}"))
    policies = get(props, "Policies")
    for p in seq(policies) or ([policies] if policies is not None else []):
        if isinstance(p, yaml.MappingNode) and get(p, "Statement") is None:
            for k, v in items(p):  # SAM policy templates: DynamoDBCrudPolicy: {TableName: !Ref Table}
                out += _ref_facts(repo, path, stack, rid, f"policy {k.value}", v, known)
                bus = get(v, "EventBusName")
                if k.value == "EventBridgePutEventsPolicy" and scalar(bus) == "default" and not _tag(bus):
                    out.append(fact("cfn.reference", repo, path, node_line(bus), stack=stack, source=rid,
                                    target=DEFAULT_BUS, via=f"policy {k.value}"))
        else:
            out += _ref_facts(repo, path, stack, rid, "iam", get(p, "Statement"), known)
    for k, event in items(get(props, "Events")):
        etype = scalar(get(event, "Type")) or "event"
        eprops = get(event, "Properties")
        if etype == "Api" or etype == "HttpApi":
            continue  # the function serves its stack's API: no other resource
        for key, v in items(eprops):
            if key.value in ("Pattern", "DestinationConfig", "FilterCriteria", "Input", "InputPath", "RetryPolicy",
                             "DeadLetterConfig", "Filter", "Trigger", "Events", "StartingPosition"):
                continue
            out += _ref_facts(repo, path, stack, rid, f"event {etype}", v, known)
        if etype in ("EventBridgeRule", "CloudWatchEvent") and get(eprops, "EventBusName") is None:
            out.append(fact("cfn.reference", repo, path, node_line(event), stack=stack, source=rid,
                            target=DEFAULT_BUS, via=f"event {etype}"))
    return out


def _connector_facts(repo: str, path: str, stack: str, props: yaml.Node | None, known: set[str],
                     source: str | None) -> list[Fact]:
    """A SAM connector (``AWS::Serverless::Connector``, or ``Connectors:`` on its source resource):
    the source may read or write the destination."""
    src = source or scalar(get(get(props, "Source"), "Id")) or ""
    if not src:
        return []
    out: list[Fact] = []
    for dest in seq(get(props, "Destination")) or [get(props, "Destination")]:
        target = scalar(get(dest, "Id"))
        if target in known:
            out.append(fact("cfn.reference", repo, path, node_line(dest), stack=stack, source=src, target=target,
                            via="connector"))
        else:
            out += _ref_facts(repo, path, stack, src, "connector", get(dest, "Arn"), known)
    return out


def read_cloudformation(repo: str, path: str, text: str) -> list[Fact]:
    if path.endswith(".json") or text.lstrip().startswith("{"):
        doc = _json_to_yaml(text)
    else:
        docs = load_yaml_documents(text)
        doc = docs[0] if docs else None
    folder = PurePosixPath(path).parent.as_posix()
    stack = "" if folder == "." else folder
    resources = get(doc, "Resources")
    if not isinstance(resources, yaml.MappingNode):
        return _parameter_values(repo, path, doc, stack)
    facts: list[Fact] = []
    parameters = get(doc, "Parameters")
    known = {k.value for k, _v in items(resources)} | {k.value for k, _v in items(parameters)}
    names = _physical_names(resources)
    # Functions a custom resource runs while the stack deploys (ServiceToken): deployment helpers.
    helpers = {t for _k, res in items(resources) if (scalar(get(res, "Type")) or "").startswith("Custom::")
               or scalar(get(res, "Type")) == "AWS::CloudFormation::CustomResource"
               for t, _l in references(get(get(res, "Properties"), "ServiceToken")) if t in known}
    for k, v in items(parameters):
        ptype = scalar(get(v, "Type")) or ""
        facts.append(fact("cfn.parameter", repo, path, node_line(k), stack=stack, name=k.value, type=ptype,
                          default=scalar(get(v, "Default")) or ""))
    globals_fn = get(get(doc, "Globals"), "Function")
    globals_api = get(get(doc, "Globals"), "Api")
    for k, res in items(resources):
        rid, rtype = k.value, scalar(get(res, "Type")) or ""
        if not rtype:
            continue
        props = get(res, "Properties")
        attrs: dict[str, str] = {}
        if rtype in FUNCTIONS:
            for key in ("CodeUri", "Handler", "Runtime"):
                value = scalar(get(props, key)) or scalar(get(globals_fn, key))
                attrs[{"CodeUri": "code_uri", "Handler": "handler", "Runtime": "runtime"}[key]] = value or ""
            facts += _function_facts(repo, path, stack, rid, props, globals_fn, known, names)
            if rid in helpers:
                attrs["custom_resource"] = "true"
            role = get(props, "Role")
            for target, _line in references(role):
                facts.append(fact("cfn.reference", repo, path, node_line(role), stack=stack, source=rid,
                                  target=target, via="role"))
            implicit_api = any(scalar(get(e, "Type")) in ("Api", "HttpApi")
                               and get(get(e, "Properties"), "RestApiId") is None
                               and get(get(e, "Properties"), "ApiId") is None for _k, e in items(get(props, "Events")))
            if implicit_api:
                attrs["implicit_api"] = "true"
        elif rtype in STATE_MACHINES:
            # A workflow uses what its policies, events and definition substitutions name, as a function does.
            facts += _function_facts(repo, path, stack, rid, props, None, known)
            for k2, v in items(get(props, "DefinitionSubstitutions")):
                facts += _ref_facts(repo, path, stack, rid, f"definition {k2.value}", v, known)
            role = get(props, "RoleArn") or get(props, "Role")
            for target, _line in references(role):
                facts.append(fact("cfn.reference", repo, path, node_line(role), stack=stack, source=rid,
                                  target=target, via="role"))
        elif rtype == "AWS::Serverless::Connector":
            facts += _connector_facts(repo, path, stack, props, known, None)
        elif rtype == "AWS::SNS::Subscription":
            # A function or queue subscribed to a topic: the topic feeds it.
            for endpoint, _line in references(get(props, "Endpoint")):
                if endpoint in known:
                    facts += _ref_facts(repo, path, stack, endpoint, "event SNS", get(props, "TopicArn"), known)
        elif rtype in APIS:
            auth = " ".join(filter(None, (scalar(get(props, "AuthenticationType")), scalar(get(props, "AuthorizationType")),
                                          scalar(get(get(props, "Auth"), "DefaultAuthorizer")),
                                          scalar(get(get(globals_api, "Auth"), "DefaultAuthorizer")))))
            attrs["auth"] = "AWS_IAM" if auth and set(auth.split()) <= {"AWS_IAM"} else auth
        elif rtype == "AWS::IAM::Role" or rtype == "AWS::IAM::Policy":
            for p in seq(get(props, "Policies")):
                facts += _ref_facts(repo, path, stack, rid, "iam", get(get(p, "PolicyDocument"), "Statement"), known)
            facts += _ref_facts(repo, path, stack, rid, "iam", get(get(props, "PolicyDocument"), "Statement"), known)
        elif rtype == "AWS::AppSync::DataSource":
            api = next((t for t, _l in references(get(props, "ApiId"))), "")
            if api:
                for key, v in items(props):
                    if key.value not in ("ApiId", "ServiceRoleArn", "Name", "Type", "Description"):
                        facts += _ref_facts(repo, path, stack, api, "datasource", v, known)
        elif rtype == "AWS::Lambda::EventSourceMapping":
            for fn, _l in references(get(props, "FunctionName")):
                facts += _ref_facts(repo, path, stack, fn, "event EventSourceMapping", get(props, "EventSourceArn"), known)
        elif rtype == "AWS::Events::Rule":
            bus = get(props, "EventBusName")
            for t in seq(get(props, "Targets")):
                for fn, _l in references(get(t, "Arn")):
                    if fn in known:
                        if bus is None:
                            facts.append(fact("cfn.reference", repo, path, node_line(k), stack=stack, source=fn,
                                              target=DEFAULT_BUS, via="rule"))
                        facts += _ref_facts(repo, path, stack, fn, "rule", bus, known)
        elif rtype in ("AWS::ApiGatewayV2::Route", "AWS::ApiGateway::Method"):
            # How callers of an API's route authenticate (an API whose every route wants AWS_IAM is
            # called by other AWS principals, not by users).
            attrs["api"] = next((t for t, _l in references(get(props, "ApiId") or get(props, "RestApiId"))), "")
            attrs["auth"] = scalar(get(props, "AuthorizationType")) or "NONE"
            attrs["route"] = scalar(get(props, "RouteKey")) or ""
            if attrs["api"]:  # the function a method's integration invokes: the API routes to it
                facts += _ref_facts(repo, path, stack, attrs["api"], "integration",
                                    get(get(props, "Integration"), "Uri"), known)
        elif rtype == "AWS::ApiGatewayV2::Integration":
            api = next((t for t, _l in references(get(props, "ApiId"))), "")
            if api:
                facts += _ref_facts(repo, path, stack, api, "integration", get(props, "IntegrationUri"), known)
        elif rtype == "AWS::Cognito::IdentityPoolRoleAttachment":
            # The roles signed-in (and guest) users of an identity pool act with: what they may call,
            # users call (an API wanting AWS_IAM signed by the browser).
            for _k, v in items(get(props, "Roles")):
                for target, line in references(v):
                    if target in known:
                        facts.append(fact("cfn.reference", repo, path, line, stack=stack, source=rid, target=target,
                                          via="identity role"))
        elif rtype == "AWS::CloudFront::Distribution":
            # The origins a CDN serves: buckets (and APIs) behind it.
            for origin in seq(get(get(props, "DistributionConfig"), "Origins")):
                facts += _ref_facts(repo, path, stack, rid, "origin", get(origin, "DomainName"), known)
        elif rtype in ("AWS::CloudFormation::Stack", "AWS::Serverless::Application"):
            attrs["template_url"] = scalar(get(props, "TemplateURL")) or scalar(get(props, "Location")) or ""
        elif rtype == "AWS::SSM::Parameter":
            name = _name_text(get(props, "Name"))
            target = next((t for t, _l in references(get(props, "Value")) if t in known), "")
            if name and target:
                facts.append(fact("cfn.ssm", repo, path, node_line(k), stack=stack, name=fold_name(name), target=target))
        for _name, connector in items(get(res, "Connectors")):  # SAM's embedded connectors
            facts += _connector_facts(repo, path, stack, get(connector, "Properties"), known, rid)
        facts.append(fact("cfn.resource", repo, path, node_line(k), stack=stack, id=rid, type=rtype, **attrs))
    for k, out in items(get(doc, "Outputs")):
        name = _name_text(get(get(out, "Export"), "Name"))
        target = next((t for t, _l in references(get(out, "Value")) if t in known), "")
        if name and target:
            facts.append(fact("cfn.export", repo, path, node_line(k), stack=stack, name=fold_name(name), target=target))
    return facts


def _parameter_values(repo: str, path: str, doc: yaml.Node | None, stack: str) -> list[Fact]:
    """A parameters file (a top-level ``parameters:`` mapping of names to string values): the values
    a deployment tool hands the template in the same folder."""
    out = []
    for k, v in items(get(doc, "parameters")):
        value = scalar(v)
        if value:
            out.append(fact("cfn.parameter.value", repo, path, node_line(k), stack=stack, name=k.value, value=value))
    return out


_K8S = re.compile(r"^apiVersion\s*:", re.M)


def _is_template(path: str, head: str) -> bool:
    """A template by its content; a Kubernetes document (an OpenShift ``Template`` has a
    ``parameters:`` list too) is never one."""
    return bool(_HINT.search(head)) and not _K8S.search(head)


READERS = (
    # A YAML file that reads as a template (or a parameters file beside one); goes before the
    # Kubernetes and Spring readers, whose hints a template does not have.
    Reader("cloudformation", "descriptor", 430, read_cloudformation, patterns=(r"[^/]*\.ya?ml",),
           sniff=lambda path, head: _is_template(path, head) or (bool(_PARAMETERS_FILE.search(head))
                                                                 and not _K8S.search(head)),
           shadows=("kubernetes", "spring.content")),
    # JSON templates by their conventional names (other JSON files are data, not listed).
    Reader("cloudformation.json", "descriptor", 430, read_cloudformation,
           patterns=(r"[^/]*(?:template|cfn|cloudformation|stack)[^/]*\.json",), sniff=_is_template),
)
