"""AWS CDK stacks written in TypeScript, JavaScript or Python, read as the CloudFormation they synthesise.

A CDK app declares the same resources as a template, in code: ``new dynamodb.Table(this, "Table",
{...})``, ``new lambda.Function(this, "Fn", {code: lambda.Code.fromAsset("src/fn"), ...})``,
``new sam.CfnFunction(this, "Fn", {codeUri: "src/fn/", ...})``.  This reader finds those constructor
calls (``this`` as scope, a literal id) and writes the facts the CloudFormation reader writes
(:mod:`.cloudformation`), so the ``iac`` rules treat a CDK stack like a template: ``cfn.resource``
for each construct of a known type, ``cfn.reference`` for the constructs (and object literals
holding them, ``const envVars = {TABLE_NAME: table.tableName}``) a function's properties name and
for ``table.grantReadWriteData(fn)`` grants, ``cfn.ssm`` for ``ssm.StringParameter`` it writes.

The stack's folder is the app's (a ``lib/`` or ``bin/`` folder holding the stack file is left out,
and so is the package folder of a Python stack module unless the module creates the ``App``),
so ``codeUri`` and asset paths resolve as ``cdk synth`` resolves them, from the app's folder.  No code
runs: what is computed at synthesis time beyond literals and variable names is not seen.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.cloudformation import APIS, fold_name
from repomodeler.records import Fact

_HINT = re.compile(r"""from\s+['"](?:aws-cdk-lib|@aws-cdk/)|require\(\s*['"](?:aws-cdk-lib|@aws-cdk/)|"""
                   r"""^\s*(?:from\s+aws_cdk\b|import\s+aws_cdk\b)""", re.M)
_NEW = re.compile(r"""(?:(?:(?:const|let|var)\s+)?(?P<var>\w+)(?:\s*:\s*[\w.<>\[\]]+)?\s*=\s*|"""
                  r"""(?:this|self)\.(?P<field>\w+)\s*=\s*)?"""
                  r"""(?:new\s+)?(?P<cls>[\w.]+)\s*\(\s*(?:this|self)\s*,\s*(?P<q>["'`])(?P<id>[^"'`]+)(?P=q)""")
_OBJECT = re.compile(r"(?:(?:const|let|var)\s+)?(?P<var>\w+)(?:\s*:\s*[\w.<>\[\]]+)?\s*=\s*\{")
_GRANT = re.compile(r"\b(?P<res>\w+)\.grant\w*\(\s*(?P<fn>\w+)\b")
_EVENT_SOURCE = re.compile(r"\b(?P<fn>\w+)\.(?:addEventSource|add_event_source)\(\s*(?:new\s+)?[\w.]+\(\s*(?P<res>\w+)\b")
_SSM_READ = re.compile(r"""(?:(?:const|let|var)\s+)?(?P<var>\w+)(?:\s*:\s*[\w.<>]+)?\s*=\s*[\w.]*StringParameter\."""
                       r"""(?:valueForStringParameter|valueFromLookup|fromStringParameterName|value_for_string_parameter|"""
                       r"""value_from_lookup|from_string_parameter_name)\(\s*(?:this|self)\s*,\s*"""
                       r"""(?:["'][^"']*["']\s*,\s*)?(?P<name>[^)]+)\)""")
_IMPORT = re.compile(r"""(?:(?:const|let|var)\s+)?(?P<var>\w+)(?:\s*:\s*[\w.<>]+)?\s*=\s*[\w.]*Fn\."""
                     r"""(?:importValue|import_value)\(\s*(?P<name>[^)]+)\)""")
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")

# Construct class (last part of its name) -> CloudFormation type; a namespace qualifies names that
# several libraries use (``lambda.Function``, ``dynamodb.Table``).
_TYPES: dict[str, str] = {
    "CfnFunction": "AWS::Serverless::Function", "NodejsFunction": "AWS::Lambda::Function",
    "PythonFunction": "AWS::Lambda::Function", "GoFunction": "AWS::Lambda::Function",
    "DockerImageFunction": "AWS::Lambda::Function", "Function": "AWS::Lambda::Function",
    "Table": "AWS::DynamoDB::Table", "TableV2": "AWS::DynamoDB::Table", "CfnTable": "AWS::DynamoDB::Table",
    "Bucket": "AWS::S3::Bucket", "Queue": "AWS::SQS::Queue", "Topic": "AWS::SNS::Topic",
    "EventBus": "AWS::Events::EventBus", "UserPool": "AWS::Cognito::UserPool", "Stream": "AWS::Kinesis::Stream",
    "CfnApi": "AWS::Serverless::Api", "RestApi": "AWS::ApiGateway::RestApi",
    "LambdaRestApi": "AWS::ApiGateway::RestApi", "SpecRestApi": "AWS::ApiGateway::RestApi",
    "HttpApi": "AWS::ApiGatewayV2::Api", "WebSocketApi": "AWS::ApiGatewayV2::Api",
    "GraphqlApi": "AWS::AppSync::GraphQLApi", "StringParameter": "AWS::SSM::Parameter",
}
_NAMESPACES: dict[str, frozenset[str]] = {
    "Function": frozenset({"lambda", "lambda_", "_lambda", "awslambda", "aws_lambda"}),
    "CfnFunction": frozenset({"sam"}), "CfnApi": frozenset({"sam"}),
    "Table": frozenset({"dynamodb", "ddb", "dynamo", "aws_dynamodb"}), "CfnTable": frozenset({"dynamodb", "aws_dynamodb"}),
    "Stream": frozenset({"kinesis", "aws_kinesis"}),
}
_STACK_FOLDERS = frozenset({"lib", "bin", "src", "stacks", "stack", "infra", "infrastructure", "cdk", "constructs"})


def _call_body(text: str, start: int) -> str:
    """The text of a call's arguments from `start` (just after its opening parenthesis) to the
    parenthesis that closes it; strings are skipped when counting (comments are blanked before)."""
    depth, i, n = 1, start, len(text)
    while i < n and depth:
        c = text[i]
        if c in "\"'`":
            end = text.find(c, i + 1)
            while end != -1 and text[end - 1] == "\\":
                end = text.find(c, end + 1)
            i = n if end == -1 else end + 1
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        i += 1
    return text[start:i - 1]


def _without_comments(text: str, python: bool) -> str:
    """`text` with its comments (``//`` and ``/* */``, Python's ``#``) blanked, same length and
    lines, strings kept."""
    out, i, n = list(text), 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'`":
            end = text.find(c, i + 1)
            while end != -1 and text[end - 1] == "\\":
                end = text.find(c, end + 1)
            i = n if end == -1 else end + 1
            continue
        if (c == "#" if python else (text.startswith("//", i) or text.startswith("/*", i))):
            end = text.find("\n", i) if python or text[i + 1] == "/" else text.find("*/", i + 2) + 2
            end = n if end < i + 2 else end
            for j in range(i, end):
                if out[j] != "\n":
                    out[j] = " "
            i = end
            continue
        i += 1
    return "".join(out)


def _folded(expr: str) -> str:
    """A name built from literals and expressions (``"/shop/" + env.valueAsString + "/table"`` or a
    template literal) with every non-literal part folded to ``{}``."""
    expr = expr.strip().rstrip(",")
    if expr.startswith("`") and expr.endswith("`"):
        return fold_name(expr[1:-1])
    if re.fullmatch(r"""[fF](["']).*\1""", expr):  # a Python f-string: its {fields} are placeholders
        return fold_name(expr[2:-1])
    parts = []
    for piece in expr.split("+"):
        m = _STRING.fullmatch(piece.strip())
        parts.append(m.group(2) if m else "{}")
    return fold_name("".join(parts))


def _property(body: str, *keys: str) -> str | None:
    """The expression given to a property (``key: value`` in an object literal, ``key=value`` as a
    Python keyword argument), up to the comma that ends it."""
    m = re.search(rf"\b(?:{'|'.join(keys)})\s*(?::|=(?!=))\s*([^\n]+)", body)
    if m is None:
        return None
    value = m.group(1).strip()
    depth, out = 0, []
    for c in value:  # up to the comma that ends the property
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        out.append(c)
    return "".join(out).strip()


def _literal(expr: str | None) -> str:
    m = _STRING.fullmatch((expr or "").strip())
    return m.group(2) if m else ""


def read_cdk(repo: str, path: str, text: str) -> list[Fact]:
    text = _without_comments(text, path.endswith(".py"))
    folder = PurePosixPath(path).parent
    if path.endswith(".py") and not re.search(r"\bApp\(", text) and folder.name not in _STACK_FOLDERS:
        folder = folder.parent  # a Python stack module sits in a package beside the app's app.py
    while folder.name in _STACK_FOLDERS:
        folder = folder.parent
    stack = "" if str(folder) == "." else folder.as_posix()

    def line_of(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    consts = {m.group(1): m.group(3) for m in re.finditer(r"""const\s+(\w+)\s*=\s*(["'])([^"'\n]*)\2\s*;?\s*$""", text, re.M)}
    constructs: dict[str, str] = {}  # variable -> construct id
    types: dict[str, str] = {}  # construct id -> type
    facts: list[Fact] = []
    bodies: list[tuple[str, str, int, int, str]] = []  # (construct id, type, call start, body start, body)
    for m in _NEW.finditer(text):
        cls = m.group("cls").rsplit(".", 1)
        name, ns = cls[-1], (cls[0].lower() if len(cls) > 1 else "")
        rtype = _TYPES.get(name)
        if rtype is None or (name in _NAMESPACES and ns and ns not in _NAMESPACES[name]):
            continue
        rid = m.group("id")
        var = m.group("var") or m.group("field")
        if var:
            constructs[var] = rid
        types[rid] = rtype
        body = _call_body(text, m.end())
        bodies.append((rid, rtype, m.start(), m.end(), body))
    aliases: dict[str, set[str]] = {}  # variable -> references it stands for (object literals, SSM reads, imports)
    for m in _SSM_READ.finditer(text):
        aliases[m.group("var")] = {f"ssm:{_folded(m.group('name'))}"}
    for m in _IMPORT.finditer(text):
        aliases[m.group("var")] = {f"import:{_folded(m.group('name'))}"}
    for m in _OBJECT.finditer(text):
        inner = _call_body(text, m.end())
        refs = {constructs[i] for i in _IDENT.findall(_STRING.sub("", inner)) if i in constructs}
        refs |= {t for i in _IDENT.findall(_STRING.sub("", inner)) for t in aliases.get(i, ())}
        if refs:
            aliases.setdefault(m.group("var"), set()).update(refs)

    def named(body: str) -> set[str]:
        idents = set(_IDENT.findall(_STRING.sub("", body)))
        return {constructs[i] for i in idents if i in constructs} | {t for i in idents for t in aliases.get(i, ())}

    def named_at(body: str, offset: int) -> dict[str, int]:
        """What `body` names, each at the line where it is first named (strings blanked, same length)."""
        blank = _STRING.sub(lambda m: " " * len(m.group(0)), body)
        out: dict[str, int] = {}
        for m in _IDENT.finditer(blank):
            for t in ({constructs[m.group(0)]} if m.group(0) in constructs else set()) | aliases.get(m.group(0), set()):
                out.setdefault(t, line_of(offset + m.start()))
        return out

    for rid, rtype, start, body_start, body in bodies:
        line = line_of(start)
        attrs: dict[str, str] = {}
        if rtype in ("AWS::Serverless::Function", "AWS::Lambda::Function"):
            code = _literal(_property(body, "codeUri", "code_uri"))
            asset = re.search(r"""Code\.(?:fromAsset|from_asset)\(\s*(?:path\.join\(\s*__dirname\s*,\s*)?["'`]([^"'`]+)""", body)
            entry = _literal(_property(body, "entry"))
            if not code and asset:
                code = asset.group(1)
            if not code and entry:
                code = PurePosixPath(entry).parent.as_posix()
            if code and asset and "__dirname" in asset.group(0):
                code = (PurePosixPath(path).parent / code).as_posix()[len(stack) + 1 if stack else 0:]
            runtime = _property(body, "runtime") or ""
            attrs = {"code_uri": code, "handler": _literal(_property(body, "handler")),
                     "runtime": _literal(runtime) or consts.get(runtime) or runtime.rsplit(".", 1)[-1]}
            for target, at in sorted(named_at(body, body_start).items()):
                if target != rid and (":" in target or types.get(target) not in APIS):
                    facts.append(fact("cfn.reference", repo, path, at, stack=stack, source=rid, target=target, via="cdk"))
        elif rtype == "AWS::SSM::Parameter":
            name = _property(body, "parameterName", "parameter_name")
            targets = sorted(t for t in named(_property(body, "stringValue", "string_value") or "") if ":" not in t)
            if name and targets:
                facts.append(fact("cfn.ssm", repo, path, line, stack=stack, name=_folded(name), target=targets[0]))
        elif rtype in APIS:
            attrs = {"auth": "AWS_IAM" if re.search(r"AWS_IAM|AuthorizationType\.IAM", body) else ""}
            handler = _property(body, "handler")  # LambdaRestApi: the function behind it
            if handler and handler in constructs:
                facts.append(fact("cfn.reference", repo, path, line, stack=stack, source=constructs[handler],
                                  target=rid, via="cdk api"))
        facts.append(fact("cfn.resource", repo, path, line, stack=stack, id=rid, type=rtype, **attrs))
    for m in _GRANT.finditer(text):
        res, fn = constructs.get(m.group("res")), constructs.get(m.group("fn"))
        if res and fn and types.get(fn) in ("AWS::Serverless::Function", "AWS::Lambda::Function"):
            facts.append(fact("cfn.reference", repo, path, line_of(m.start()), stack=stack, source=fn, target=res,
                              via="cdk grant"))
    for m in _EVENT_SOURCE.finditer(text):
        res, fn = constructs.get(m.group("res")), constructs.get(m.group("fn"))
        if res and fn:
            facts.append(fact("cfn.reference", repo, path, line_of(m.start()), stack=stack, source=fn, target=res,
                              via="event cdk"))
    return facts


READERS = (
    # TypeScript/JavaScript files are listed as source code; this reader reads those that import the CDK.
    Reader("cdk", "descriptor", 600, read_cdk, patterns=(r"[^/]*\.(?:ts|js|mjs|py)",),
           sniff=lambda path, head: ("aws-cdk" in head or "aws_cdk" in head)  # a quick no for most source files
           and bool(_HINT.search(head)) and not path.endswith(".d.ts"), lists=False,
           line_based=True),
)
