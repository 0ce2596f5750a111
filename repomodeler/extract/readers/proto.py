"""Protocol Buffers: services with their rpcs (the contract of a gRPC API), messages and enums.

Which component provides a service is decided later by the resolver from server registrations
(``grpc.server`` facts)."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


_SERVICE = re.compile(r"^\s*service\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
_RPC = re.compile(r"^\s*rpc\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*(stream\s+)?([A-Za-z0-9_.]+)\s*\)\s*returns\s*\(\s*(stream\s+)?([A-Za-z0-9_.]+)")
_PACKAGE = re.compile(r"^\s*package\s+([A-Za-z0-9_.]+)\s*;")
_BLOCK = re.compile(r"^\s*(message|enum|oneof)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
_FIELD = re.compile(r"^\s*(?:(repeated|optional|required)\s+)?"
                    r"(map\s*<\s*[A-Za-z0-9_.]+\s*,\s*([A-Za-z0-9_.]+)\s*>|[A-Za-z_.][A-Za-z0-9_.]*)\s+"
                    r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\d+)")
_ENUM_VALUE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*-?(?:0x)?[0-9A-Fa-f]+")
_NOT_FIELDS = {"option", "reserved", "extensions", "extend", "message", "enum", "oneof", "rpc", "service"}


def read_proto(repo: str, path: str, text: str) -> list[Fact]:
    """Services, rpcs, messages (with their fields) and enums (with their values) of a ``.proto`` file.

    Line-oriented with a stack of open blocks: nested messages and enums are named ``Outer.Inner`` (the
    ``message`` attribute of their facts, the ``package`` apart), fields of a ``oneof`` belong to the
    message around it, a ``map<K, V>`` field is read as a repeated ``V``.  Types are kept as written; the
    resolver qualifies them (it knows every file's messages).
    """
    facts: list[Fact] = []
    package = ""
    service = None
    depth = 0
    stack: list[tuple[str, str]] = []  # (block kind, name): message / enum / oneof / other
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//", 1)[0]
        m = _PACKAGE.match(line)
        if m:
            package = m.group(1)
        m = _SERVICE.match(line)
        if m and service is None:
            service = m.group(1)
            depth = 0
            facts.append(fact("grpc.service", repo, path, i, service=service, package=package))
        if service is not None:
            m = _RPC.match(line)
            if m:
                stream = {(True, True): "both", (True, False): "request", (False, True): "response"}.get(
                    (bool(m.group(2)), bool(m.group(4))), "")
                facts.append(fact("grpc.rpc", repo, path, i, service=service, rpc=m.group(1), package=package,
                                   request=m.group(3), response=m.group(5), stream=stream))
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                service = None
            continue
        messages = [name for kind, name in stack if kind == "message"]
        top = stack[-1][0] if stack else ""
        opened = line.count("{")
        members = [line]
        m = _BLOCK.match(line)
        if m and (m.group(1) != "oneof" or top == "message"):
            kind, name = m.group(1), m.group(2)
            if kind == "oneof":
                stack.append(("oneof", messages[-1]))
            else:
                stack.append((kind, name))
                qualified = ".".join([*messages, name])
                messages = messages + [name] if kind == "message" else messages
                if kind == "message":
                    facts.append(fact("proto.message", repo, path, i, message=qualified, package=package))
                else:
                    facts.append(fact("proto.enum", repo, path, i, enum=qualified, package=package))
            opened -= 1
            top = stack[-1][0]
            members = line[m.end():].split(";")  # `message GetCartRequest { string user_id = 1; }`
        for member in members:
            if top in ("message", "oneof") and messages:
                f = _FIELD.match(member)
                if f and f.group(2).split("<")[0].strip() not in _NOT_FIELDS:
                    ftype = f.group(3) or f.group(2)
                    facts.append(fact("proto.field", repo, path, i, message=".".join(messages), package=package,
                                       name=f.group(4), type=ftype, number=f.group(5),
                                       repeated="true" if f.group(1) == "repeated" or f.group(3) else ""))
            elif top == "enum":
                v = _ENUM_VALUE.match(member)
                if v and v.group(1) not in _NOT_FIELDS:
                    enum = ".".join([*messages, stack[-1][1]])
                    facts.append(fact("proto.enum_value", repo, path, i, enum=enum, package=package,
                                       value=v.group(1)))
        stack.extend(("other", "") for _ in range(max(opened, 0)))
        for _ in range(line.count("}")):
            if stack:
                stack.pop()
    return facts


READERS = (
    Reader("proto", "api", 100, read_proto, patterns=(r"[^/]*\.proto",)),
)
