"""SysML v2 naming: when to quote, how to escape, which names collide with inherited features."""

from __future__ import annotations

import re
import unicodedata

# SysML v2 textual notation reserved words (SysML v2 spec, 8.2.2.1.2 "Reserved words", with KerML's).
RESERVED_WORDS: frozenset[str] = frozenset("""
about abstract accept action actor after alias all allocate allocation analysis and as assert assign assume at
attribute bind binding by calc case comment concern connect connection constant constraint crosses decide def
default defined dependency derived do doc else end entry enum event exhibit exit expose false filter first flow
for fork frame from hastype if implies import in include individual inout interface istype item join language
library locale loop merge message meta metadata new nonunique not null objective occurrence of or ordered out
package parallel part perform port private protected public redefines ref references render rendering rep
require requirement return satisfy send snapshot specializes stakeholder standard state subject subsets
succession terminate then timeslice to transition true until use variant variation verification verify
via view viewpoint when while xor
""".split())

# Not reserved by the OpenSysML engine (it accepts them unquoted) but keywords in some tools' grammars
# (``this`` is a KerML expression keyword): quoting them costs nothing and keeps every reader happy.
QUOTE_ANYWAY: frozenset[str] = frozenset({"this"})

# Features a part, item, port or occurrence usage inherits from the standard library (Occurrences::Occurrence,
# Objects::Object, Items::Item, Parts::Part, Ports::Port, Links::Link...), listed with the engine's
# ``%search <Type>::`` and checked by loading a nested usage of each name: a member with one of these names
# is a "duplicate of inherited member name" error even when quoted.  Compared case-insensitively (lowercase).
INHERITED_NAMES: frozenset[str] = frozenset(n.lower() for n in """
boundingShapes checkedConstraints differencesOf dispatchScope done enactedPerformances endShot envelopingShapes
exhibitedStates immediatePredecessors immediateSuccessors incomingTransferSort incomingTransfers
incomingTransfersToSelf innerSpaceDimension innerSpaceOccurrences interfacingPorts intersectionsOf
involvingPerformances isClosed isDispatch isRunToCompletion isSolid justOutsideOfOccurrences localClock
matingOccurrences middleTimeSlice outerSpaceDimension outgoingTransfers outgoingTransfersFromSelf
outsideOfOccurrences ownedActions ownedPerformances ownedPorts ownedStates participant performedActions portionOf
portionOfLife portions predecessors runToCompletionScope sameLifeOccurrences self shape snapshotOf snapshots source
spaceBoundary spaceBoundaryOf spaceEnclosedOccurrences spaceInterior spaceInteriorOf spaceShotOf spaceShots
spaceSliceOf spaceSlices spaceTimeCoincidentOccurrences spaceTimeEnclosedOccurrences spaceTimeEnclosedPoints start
startShot structuredSpaceBoundary subactions subitems subobjects suboccurrences subparts subports successors
superoccurrence surroundedByOccurrences target that this timeCoincidentOccurrences timeEnclosedOccurrences
timeSliceOf timeSlices unionsOf voids withoutOccurrences
""".split())

# Top-level packages of the standard library the engine embeds (``%search`` of kind package).  A system package
# with one of these names would hide the library package (``Views::asTreeDiagram`` would no longer resolve).
LIBRARY_PACKAGES: frozenset[str] = frozenset("""
Actions Allocations AnalysisCases AnalysisRecords AnalysisTooling Attributes Base BaseFunctions BooleanFunctions
Calculations Cases CausationConnections CauseAndEffect Clocks CollectionFunctions Collections ComplexFunctions
Connections Constraints ControlFunctions ControlPerformances DataFunctions DerivationConnections DiagramLayout
DocumentQueries FeatureReferencingPerformances Flows ISQ ISQAcoustics ISQAtomicNuclear ISQBase
ISQCharacteristicNumbers ISQChemistryMolecular ISQCondensedMatter ISQElectromagnetism ISQInformation ISQLight
ISQMechanics ISQSpaceTime ISQThermodynamics IdentityMetadata ImageMetadata IntegerFunctions Interfaces Items KerML
Links MOSA MeasurementRefCalculations MeasurementReferences Metadata Metaobjects MigrationMetadata ModelingMetadata
NaturalFunctions NumericalFunctions OOSEM Objects Observation OccurrenceFunctions Occurrences
OpenSysMLMathFunctions OpenSysMLRenderings ParametersOfInterestMetadata Parts Performances Ports Quantities
QuantityCalculations RandomFunctions RationalFunctions RealFunctions RequirementDerivation Requirements
RiskMetadata SI SIPrefixes SampledFunctions ScalarFunctions ScalarValues SequenceFunctions ShapeItems Simulation
SpatialFrames SpatialItems StandardViewDefinitions StateActivity StateMachines StatePerformances
StateSpaceIntegration StateSpaceRepresentation States Stochastic StringFunctions SysML SysMLValidation
TensorCalculations Time TradeStudies Transfers TransitionPerformances TrigFunctions Triggers USCustomaryUnits
UseCases VectorCalculations VectorFunctions VectorValues VerificationCases Views
""".split())

_BASIC = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def is_basic_name(name: str) -> bool:
    return bool(_BASIC.match(name)) and name not in RESERVED_WORDS and name not in QUOTE_ANYWAY


def without_controls(text: str) -> str:
    """`text` with every control character (C0, DEL, C1: escape sequences, bells, carriage returns)
    turned into a space, so nothing read from a repository can drive a terminal or an editor."""
    if text.isprintable():
        return text
    return "".join(" " if unicodedata.category(ch) == "Cc" and ch != "\t" else ch for ch in text)


def sysml_name(name: str) -> str:
    """A name as it must be written: bare when it is a basic name, else as an unrestricted 'name'."""
    if is_basic_name(name):
        return name
    name = without_controls(name)
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def safe_member_name(name: str, suffix: str) -> str:
    """Rename a nested member that would clash with an inherited library feature (e.g. 'start')."""
    return f"{name}-{suffix}" if name.lower() in INHERITED_NAMES else name


class NameAllocator:
    """Unique member names within one namespace, assigned in the (sorted) order they are asked for.

    Names are case-sensitive (as in SysML); inherited feature names are matched case-insensitively to be safe.
    A name already taken (by an inherited feature, an imported definition or an earlier member) gets
    ``-<suffix>`` and then a counter appended, so the same input always gives the same names.
    """

    def __init__(self, taken: set[str] | frozenset[str] = frozenset(), inherited: bool = True) -> None:
        self._taken = set(taken)
        self._inherited = inherited

    def _free(self, name: str) -> bool:
        return name not in self._taken and not (self._inherited and name.lower() in INHERITED_NAMES)

    def take(self, name: str, suffix: str = "") -> str:
        """Reserve and return `name` (unquoted) or the first free variant of it."""
        candidates = [name] + ([f"{name}-{suffix}"] if suffix else [])
        for cand in candidates:
            if self._free(cand):
                break
        else:
            base, i = candidates[-1], 2
            while not self._free(f"{base}-{i}"):
                i += 1
            cand = f"{base}-{i}"
        self._taken.add(cand)
        return cand


def sysml_string(value: object) -> str:
    text = without_controls(str(value))  # control characters become spaces
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sysml_doc(text: str) -> str:
    """Body of a doc comment: no comment terminator, no control characters, one line."""
    clean = " ".join(without_controls(text).replace("*/", "* /").replace("/*", "/ *").split())
    return clean


# ------------------------------------------------------------------------------ portable identifiers
_NON_IDENT = re.compile(r"[^A-Za-z0-9]+")


def sysml_ident(text: str, fallback: str = "x") -> str:
    """A basic SysML name (``[A-Za-z_][A-Za-z0-9_]*``, no reserved word) derived from any text.

    Basic names pass through; everything else has each run of other characters replaced by one ``_``
    (``api.stripe.com`` -> ``api_stripe_com``, ``GET /orders/{id}`` -> ``GET_orders_id``); a leading
    digit gets a ``_`` in front and a reserved word a ``_`` after.  Readers that mis-resolve quoted
    names with dots in connector ends or references (seen in longeron) never see such a name.
    """
    if is_basic_name(text):
        return text
    ident = _NON_IDENT.sub("_", text).strip("_") or fallback
    if ident[0].isdigit():
        ident = "_" + ident
    if ident in RESERVED_WORDS or ident in QUOTE_ANYWAY:
        ident += "_"
    return ident


def short_name_ok(text: str, ident: str) -> bool:
    """Whether ``text`` may be written as the short name ``<'text'>`` of an element named ``ident``.

    Only when it says more than the name, has no white space (mercurio mis-resolves references to an
    element whose short name holds a space), no quote or backslash, and is no inherited feature name
    (the OpenSysML engine counts short names as member names).
    """
    return (text != ident and bool(text) and not any(ch.isspace() for ch in text) and "'" not in text
            and "\\" not in text and text.lower() not in INHERITED_NAMES and len(text) <= 200)


def stable_suffix(text: str) -> str:
    """Six hex digits that depend on ``text`` alone (a collision suffix that does not move when others change)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]


class IdentAllocator:
    """Unique basic names in one namespace, each depending on its own source text as far as possible.

    ``take(text, suffix)`` returns :func:`sysml_ident` of ``text``; a name that clashes with an inherited
    feature (case-insensitively) or a name given at construction gets ``_<suffix>`` (``start`` -> ``start_service``);
    two texts that map to the same identifier are told apart by a suffix computed from the text itself
    (``orders-db`` -> ``orders_db_1a2b3c`` when ``orders_db`` exists too), not by a counter, so a name does
    not change because another element appeared.  Call :meth:`take_all` to give exact basic names
    priority over derived ones.
    """

    def __init__(self, taken: set[str] | frozenset[str] = frozenset(), inherited: bool = True) -> None:
        self._fixed = set(taken)  # library definitions and the like: never ours to move
        self._taken = set(taken)
        self._inherited = inherited

    def _clash_fixed(self, name: str) -> bool:
        return name in self._fixed or (self._inherited and name.lower() in INHERITED_NAMES)

    def _free(self, name: str) -> bool:
        # names are case-sensitive, as in SysML; inherited features are matched case-insensitively to be safe
        return name not in self._taken and not (self._inherited and name.lower() in INHERITED_NAMES)

    def _claim(self, name: str) -> str:
        self._taken.add(name)
        return name

    def take(self, text: str, suffix: str = "") -> str:
        base = sysml_ident(text)
        if self._free(base):
            return self._claim(base)
        if suffix and self._clash_fixed(base) and self._free(f"{base}_{sysml_ident(suffix)}"):
            return self._claim(f"{base}_{sysml_ident(suffix)}")
        cand, i = f"{base}_{stable_suffix(text)}", 2
        while not self._free(cand):
            cand, i = f"{base}_{stable_suffix(text)}_{i}", i + 1
        return self._claim(cand)

    def taken(self) -> frozenset[str]:
        """Every name this namespace holds or keeps out."""
        return frozenset(self._taken)

    def reserve(self, names: set[str] | frozenset[str]) -> None:
        """Keep `names` out of this namespace from now on, as if given at construction (names already
        handed out stay as they are): a nested part may not take the name of a definition its siblings
        are typed by."""
        self._fixed |= names
        self._taken |= names

    def take_all(self, items: list[tuple[str, str]]) -> dict[str, str]:
        """Names for (text, suffix) pairs: texts that are already basic names first, then the rest, each in order."""
        out: dict[str, str] = {}
        for text, suffix in [i for i in items if is_basic_name(i[0])] + [i for i in items if not is_basic_name(i[0])]:
            out[text] = self.take(text, suffix)
        return out
