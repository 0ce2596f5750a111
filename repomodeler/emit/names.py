"""SysML v2 naming: when to quote, how to escape, which names collide with inherited features."""

from __future__ import annotations

import re

# SysML v2 textual notation reserved words (SysML v2 spec, 8.2.2.1.2 "Reserved words", with KerML's).
RESERVED_WORDS: frozenset[str] = frozenset("""
about abstract accept action actor after alias all allocate allocation analysis and as assert assign assume at
attribute bind binding by calc case comment concern connect connection constant constraint crosses decide def
default defined dependency derived do doc else end entry enum event exhibit exit expose false filter first flow
for fork frame from hastype if implies import in include individual inout interface istype item join language
library locale loop merge message meta metadata new nonunique not null objective occurrence of or ordered out
package parallel part perform port private protected public redefines ref references render rendering rep
require requirement return satisfy send snapshot specializes stakeholder standard state subject subsets
succession terminate then this timeslice to transition true until use variant variation verification verify
via view viewpoint when while xor
""".split())

# Features every part usage inherits from the standard library (Part, Item, Occurrence, Object...):
# a nested usage with one of these names is a duplicate-name error even when quoted.
INHERITED_NAMES: frozenset[str] = frozenset("""
self start done this that snapshots timeslices portionof subparts localclock spaceslices spaceshots
dispatchscope incomingtransfers outgoingtransfers suboccurrences shape voids subitems subactions subobjects
successors predecessors envelopingshapes boundingshapes isclosed issolid ownedperformances
""".split())

_BASIC = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def is_basic_name(name: str) -> bool:
    return bool(_BASIC.match(name)) and name not in RESERVED_WORDS


def sysml_name(name: str) -> str:
    """A name as it must be written: bare when it is a basic name, else as an unrestricted 'name'."""
    if is_basic_name(name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def safe_member_name(name: str, suffix: str) -> str:
    """Rename a nested member that would clash with an inherited library feature (e.g. 'start')."""
    return f"{name}-{suffix}" if name.lower() in INHERITED_NAMES else name


def sysml_string(value: object) -> str:
    text = str(value)
    text = "".join(ch if ch >= " " or ch == "\t" else " " for ch in text)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sysml_doc(text: str) -> str:
    """Body of a doc comment: no comment terminator, no control characters, one line."""
    clean = " ".join(text.replace("*/", "* /").replace("/*", "/ *").split())
    return clean
