"""Text predicates reordered cheap-first: the same patterns, offsets, rule lines and matches."""

from __future__ import annotations

import re

import pytest
import tree_sitter

from repomodeler.extract.engine import compiled_queries, extract_source
from repomodeler.extract.query_order import cheap_predicates_first
from repomodeler.languages import load_language, query_files
from repomodeler.records import Fact

LANGUAGES = ("csharp", "go", "java", "javascript", "kotlin", "php", "python", "ruby", "rust", "tsx", "typescript")


def test_regular_expressions_move_after_the_comparisons_of_their_pattern() -> None:
    src = ('((call_expression function: (selector_expression operand: (_) @_obj field: (field_identifier) @_fn)) @fact\n'
           ' (#match? @_obj "(?i)(nats|conn$)") (#eq? @_fn "Publish")\n'
           ' (#set! fact "messaging.publish"))\n')
    out = cheap_predicates_first(src)
    assert len(out) == len(src)
    assert out.index('(#eq? @_fn "Publish")') < out.index("(#match? @_obj")
    assert out.splitlines()[0] == src.splitlines()[0]  # the pattern starts where it did


def test_parentheses_inside_strings_and_comments_do_not_confuse_it() -> None:
    src = ('; a comment with ( and [\n((identifier) @x (#match? @x "^(a|b)\\\\($") (#not-eq? @x "c)") (#set! fact "f"))\n')
    out = cheap_predicates_first(src)
    assert out.index('(#not-eq? @x "c)")') < out.index("(#match?")
    assert sorted(out) == sorted(src)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_query_set_keeps_its_patterns_and_their_lines(language: str) -> None:
    lang = load_language(language)
    source = "\n".join(p.read_text(encoding="utf-8") for p in query_files(language))
    before, after = tree_sitter.Query(lang, source), tree_sitter.Query(lang, cheap_predicates_first(source))
    assert before.pattern_count == after.pattern_count
    for i in range(before.pattern_count):
        assert before.start_byte_for_pattern(i) == after.start_byte_for_pattern(i)
        assert before.pattern_settings(i) == after.pattern_settings(i)
    # in the reordered text no pattern checks a regular expression before a string comparison
    text = cheap_predicates_first(source).encode()
    for i in range(after.pattern_count):
        preds = re.findall(rb"\(#((?:not-)?(?:match|eq|any-of))\?", text[after.start_byte_for_pattern(i):after.end_byte_for_pattern(i)])
        kinds = [b"match" in p for p in preds]
        assert kinds == sorted(kinds), (language, i)


def test_facts_are_those_of_the_query_as_written() -> None:
    code = (b'package main\n\nimport "github.com/nats-io/nats.go"\n\nfunc main() {\n'
            b'\tnc, _ := nats.Connect("nats://nats:4222")\n\tnc.Publish("orders.created", nil)\n'
            b'\tcache.Publish("x", nil)\n\tnc.Subscribe("orders.paid", nil)\n}\n')
    facts, _ = extract_source("r", "main.go", "go", code)
    lang = load_language("go")
    written = tree_sitter.Query(lang, "\n".join(p.read_text(encoding="utf-8") for p in query_files("go")))
    reordered = compiled_queries("go")[0].query
    root = tree_sitter.Parser(lang).parse(code).root_node

    def matches(q):
        return sorted((i, sorted((k, [n.start_byte for n in v]) for k, v in c.items()))
                      for i, c in tree_sitter.QueryCursor(q).matches(root))
    assert matches(written) == matches(reordered)
    assert {(f.kind, f.get("topic")) for f in facts if f.kind.startswith("messaging")} >= {
        ("messaging.publish", "orders.created"), ("messaging.subscribe", "orders.paid")}


def test_facts_sort_by_their_order_key_as_by_the_dataclass() -> None:
    facts = [Fact("b", "r", "p", 2, "go", (("a", "1"),)), Fact("a", "r", "q", 1, "go"), Fact("a", "r", "p", 3, "go"),
             Fact("a", "r", "p", 3, "go", (("x", "y"),)), Fact("a", "q", "z", 9, "python")]
    assert sorted(facts, key=Fact.order) == sorted(facts)
