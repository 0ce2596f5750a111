"""YAML as the readers see it: composed nodes (every value keeps its line, aliases are never
expanded: a "billion laughs" file costs one pass over its nodes) and small helpers over them."""

from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from typing import Iterator

MAX_YAML_NODES = 200_000


def _lazy_yaml():  # type: ignore[no-untyped-def]
    """PyYAML, executed when a reader first uses it.  The inventory imports every reader module for
    the files it claims, and a run that keeps its model reads no YAML: loading PyYAML up front would
    cost every such run ~8 ms."""
    if "yaml" in sys.modules:
        return sys.modules["yaml"]
    spec = importlib.util.find_spec("yaml")
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["yaml"] = module
    spec.loader.exec_module(module)
    return module


yaml = _lazy_yaml()  # readers take it from here (``from ..._yaml import yaml``)


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise ValueError(f"more than {MAX_YAML_NODES} YAML nodes once aliases are expanded "
                             "(too large, or an alias bomb)")


def node_line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def scalar(node: yaml.Node | None) -> str | None:
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    return None


MERGE_DEPTH = 8  # merge keys that merge mappings that merge mappings...: deeper is no real file


def _merged(node: yaml.MappingNode) -> list[yaml.MappingNode]:
    """The mappings a YAML merge key brings in (``<<: *defaults``, ``<<: [*a, *b]``), in precedence order:
    compose files share environment blocks this way (``x-env: &env``)."""
    out: list[yaml.MappingNode] = []
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == "<<":
            for m in (v.value if isinstance(v, yaml.SequenceNode) else [v]):
                if isinstance(m, yaml.MappingNode):
                    out.append(m)
    return out


def get(node: yaml.Node | None, key: str, _depth: int = 0) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key and key != "<<":
                return v
        if _depth < MERGE_DEPTH:
            for m in _merged(node):
                found = get(m, key, _depth + 1)
                if found is not None:
                    return found
    return None


def items(node: yaml.Node | None, _depth: int = 0) -> Iterator[tuple[yaml.ScalarNode, yaml.Node]]:
    """A mapping's keys and values, those merged in by ``<<`` after its own (a key it sets itself wins)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value != "<<":
                seen.add(k.value)
                yield k, v
        if _depth < MERGE_DEPTH:
            for m in _merged(node):
                for k, v in items(m, _depth + 1):
                    if k.value not in seen:
                        seen.add(k.value)
                        yield k, v


def seq(node: yaml.Node | None) -> list[yaml.Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _count_nodes(node: yaml.Node, budget: _Budget) -> None:
    """Count nodes as the readers will visit them, i.e. with every alias expanded.

    Counting the expanded tree (bounded by the budget, so a "billion laughs" file stops after
    MAX_YAML_NODES steps, and a recursive alias too) guarantees that no reader below can do more
    work than the budget allows, however the aliases are nested.
    """
    stack = [node]
    while stack:
        n = stack.pop()
        budget.spend()
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.append(k)
                stack.append(v)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)


MAX_YAML_DEPTH = 400  # deeper nesting is refused like Python's recursion limit used to refuse it


def _compose(text: str, budget: _Budget) -> list[yaml.Node | None]:
    """Compose every document from libyaml's events, without recursion.

    PyYAML's composers are slow (pure Python: 6 s for a 1.4 MB compose file of 10,000 services) or
    unsafe (libyaml's, CSafeLoader's ``compose``, recurses in C and crashes the process with a
    segmentation fault on deeply nested flow collections, "[[[[..."). libyaml's *parser* keeps its
    state on the heap, so its events are read here and the nodes built with an explicit stack:
    the same nodes (value, start and end marks, style) as ``yaml.compose_all``, at C speed, each
    node counted against the budget as it is made.
    """
    loader = yaml.CSafeLoader(text)
    docs: list[yaml.Node | None] = []
    stack: list[yaml.Node] = []  # open collections
    pending: list[yaml.Node | None] = []  # per open mapping: its key waiting for a value
    anchors: dict[str, yaml.Node] = {}
    root: yaml.Node | None = None

    def attach(node: yaml.Node) -> None:
        nonlocal root
        if not stack:
            root = node
        elif isinstance(stack[-1], yaml.SequenceNode):
            stack[-1].value.append(node)
        elif pending[-1] is None:
            pending[-1] = node
        else:
            stack[-1].value.append((pending[-1], node))
            pending[-1] = None

    try:
        while True:
            event = loader.get_event()
            if event is None or type(event) is yaml.StreamEndEvent:
                break
            kind = type(event)
            if kind is yaml.ScalarEvent:
                budget.spend()
                node: yaml.Node = yaml.ScalarNode(event.tag or "tag:yaml.org,2002:str", event.value,
                                                  event.start_mark, event.end_mark, style=event.style or None)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                budget.spend()
                if len(stack) >= MAX_YAML_DEPTH:
                    raise RecursionError(f"YAML nested deeper than {MAX_YAML_DEPTH} levels")
                cls = yaml.MappingNode if kind is yaml.MappingStartEvent else yaml.SequenceNode
                node = cls(event.tag or ("tag:yaml.org,2002:map" if cls is yaml.MappingNode else "tag:yaml.org,2002:seq"),
                           [], event.start_mark, None, flow_style=event.flow_style)
                if event.anchor is not None:
                    anchors[event.anchor] = node
                attach(node)
                stack.append(node)
                pending.append(None)
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                closed = stack.pop()
                pending.pop()
                closed.end_mark = event.end_mark
                continue
            elif kind is yaml.AliasEvent:
                if event.anchor not in anchors:
                    raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}",
                                                      event.start_mark)
                node = anchors[event.anchor]
            elif kind is yaml.DocumentStartEvent:
                root = None
                anchors = {}
                continue
            elif kind is yaml.DocumentEndEvent:
                docs.append(root)
                continue
            else:  # stream start
                continue
            if kind is yaml.ScalarEvent and event.anchor is not None:
                anchors[event.anchor] = node
            attach(node)
    finally:
        loader.dispose()
    return docs


@lru_cache(maxsize=None)
def _budget_loader():  # type: ignore[no-untyped-def]
    class _BudgetLoader(yaml.SafeLoader):
        """Pure-Python SafeLoader that stops composing once a file has made MAX_YAML_NODES nodes; used
        only to describe a syntax error the way users of this tool have always seen it."""

        budget: _Budget

        def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
            self.budget.spend()
            return super().compose_node(parent, index)

    return _BudgetLoader


def _describe_error(text: str, error: yaml.YAMLError) -> yaml.YAMLError:
    """The pure-Python parser's error for `text` (its wording names what it expected and what it
    found), or `error` if that parser finds none."""
    loader = _budget_loader()(text)
    loader.budget = _Budget(MAX_YAML_NODES)
    try:
        while loader.check_node():
            loader.get_node()
    except yaml.YAMLError as exc:
        return exc
    finally:
        loader.dispose()
    return error


def load_yaml_documents(text: str) -> list[yaml.Node]:
    """Compose (not construct) every document; raise ValueError on a bomb or a huge document."""
    budget = _Budget(MAX_YAML_NODES)
    docs: list[yaml.Node] = []
    try:
        composed = _compose(text, _Budget(MAX_YAML_NODES))
    except yaml.YAMLError as exc:
        raise _describe_error(text, exc) from None
    for doc in composed:
        if doc is None:
            continue
        _count_nodes(doc, budget)
        docs.append(doc)
    return docs


def flatten_yaml(node: yaml.Node, prefix: str, out: list[tuple[str, str, int]], sep: str = ".") -> None:
    for k, v in items(node):
        key = f"{prefix}{sep}{k.value}" if prefix else str(k.value)
        if isinstance(v, yaml.MappingNode):
            flatten_yaml(v, key, out, sep)
        elif isinstance(v, yaml.ScalarNode):
            out.append((key, str(v.value), node_line(k)))
        elif isinstance(v, yaml.SequenceNode):
            for idx, item in enumerate(v.value):
                if isinstance(item, yaml.ScalarNode):
                    out.append((f"{key}[{idx}]", str(item.value), node_line(item)))
                elif isinstance(item, yaml.MappingNode):
                    flatten_yaml(item, f"{key}[{idx}]", out, sep)
