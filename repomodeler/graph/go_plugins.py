"""Go main packages that are plugins, not programs.

Why: Go's plugin mode needs ``package main`` (``package main // must be main for plugin entry point``),
and such packages often keep a ``func main()`` for debugging; yet what the build makes of them is a
shared object the host program loads with ``plugin.Open``, no process of its own.  Read as programs,
a folder of forty plugins becomes forty command-line tools people run.  A main package is a plugin when

* the repository's build compiles it with ``go build -buildmode=plugin`` (or ``c-shared``, a library
  other code loads): a Dockerfile ``RUN`` or a Makefile recipe naming its folder; or
* it declares the exported package-level variable a host looks up in the plugins it opens
  (``plug.Lookup("PluginEntry")`` in a file importing ``plugin``; ``var PluginEntry impl.AE``), which
  finds plugins however the build names them (a script looping over ``plugins/*``); or
* it is a plugin binary its host starts as a subprocess (HashiCorp's go-plugin): a main package of one
  or two files whose main file imports the plugin-serving package (``go-plugin``, an SDK's ``.../plugin``).

Their ``program.main`` facts are dropped before any rule reads them: the packages stay code of the
component whose folder holds them (the host's), with their packages as its subsystems.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers.makefile import GO_FLAGS_WITH_VALUE
from repomodeler.graph.naming import norm_path
from repomodeler.graph.packages import folder
from repomodeler.records import Fact

# The packages a subprocess plugin serves itself with: HashiCorp's go-plugin, and SDKs' plugin packages
# (github.com/hashicorp/go-kms-wrapping/plugin/v2, .../terraform-plugin-go/..., packer-plugin-sdk/plugin).
SUBPROCESS_PLUGIN_SDK = re.compile(r"^github\.com/hashicorp/(go-plugin|[^/]+(/[^/]+)*/plugin(/v\d+)?)$")
# go build ... -buildmode=plugin ... ./plugins/x  (up to the end of the shell command)
GO_SHARED_BUILD = re.compile(r"\bgo\s+build\b([^;&|]*?-buildmode[= ]\s*(?:plugin|c-shared)\b[^;&|]*)")


def built_targets(command: str) -> list[str]:
    """The package folders a ``go build -buildmode=plugin`` command names (``./plugins/x``,
    ``plugins/x/*.go``), without those built from a variable (``$PLUG/*.go``)."""
    out: list[str] = []
    for m in GO_SHARED_BUILD.finditer(re.sub(r"[\"'\[\],]", " ", command)):
        words = m.group(1).split()
        for k, w in enumerate(words):
            if w.startswith("-") or (k and words[k - 1] in GO_FLAGS_WITH_VALUE) or "$" in w:
                continue
            d = w.rsplit("/", 1)[0] if w.endswith(".go") else w.removesuffix("/...")
            out.append(norm_path(d))
    return out


def plugin_folders(facts: list[Fact]) -> set[tuple[str, str]]:
    """(repository, folder) of the main packages the build or a host treats as plugins."""
    mains = {(f.repository, folder(f.path)) for f in facts if f.kind == "program.main" and f.get("part") == "func"}
    if not mains:
        return set()
    out: set[tuple[str, str]] = set()
    for f in facts:
        for target in built_targets(f.get("command") or "") if f.kind == "program.plugin_build" else ():
            out |= {(r, d) for r, d in mains if r == f.repository and target not in ("", ".")
                    and (d == target or d.endswith("/" + target))}
    # a plugin binary a host starts as a subprocess (HashiCorp's go-plugin and the SDKs built on it: a small
    # main package whose main file imports the plugin-serving package, `gkwp.ServePlugin(awskms.NewWrapper())`)
    main_files = {(f.repository, f.path) for f in facts if f.kind == "program.main" and f.get("part") == "func"}
    go_files: dict[tuple[str, str], set[str]] = {}
    for f in facts:
        if f.path.endswith(".go") and not f.path.endswith("_test.go"):
            go_files.setdefault((f.repository, folder(f.path)), set()).add(f.path)
    out |= {(f.repository, folder(f.path)) for f in facts if f.kind == "import" and (f.repository, f.path) in main_files
            and SUBPROCESS_PLUGIN_SDK.match(f.get("module") or "")
            and len(go_files.get((f.repository, folder(f.path)), ())) <= 2}
    hosts = {(f.repository, f.path) for f in facts if f.kind == "import" and f.get("module") == "plugin"}
    symbols = {(f.repository, f.get("name")) for f in facts if f.kind == "plugin.lookup" and (f.repository, f.path) in hosts}
    out |= {(f.repository, folder(f.path)) for f in facts if f.kind == "code.exported_var"
            and (f.repository, f.get("name")) in symbols and (f.repository, folder(f.path)) in mains}
    return out


def _without_mains_in(facts: list[Fact], folders: set[tuple[str, str]]) -> list[Fact]:
    """The facts without the ``program.main`` facts of the main packages in `folders` (repository, folder)."""
    if not folders:
        return facts
    return [f for f in facts if not (f.kind == "program.main" and (f.repository, folder(f.path)) in folders)]


def without_plugin_mains(facts: list[Fact]) -> list[Fact]:
    """The facts without the ``program.main`` facts of plugin packages (see the module's docstring)."""
    return _without_mains_in(facts, plugin_folders(facts))



def library_module_folders(facts: list[Fact]) -> set[tuple[str, str]]:
    """(repository, folder) of the local modules a go.mod replaces a dependency with (``replace
    github.com/acme/x => ./x``): libraries the program is built against, kept in the repository."""
    out: set[tuple[str, str]] = set()
    for f in facts:
        if f.kind == "go.replace" and f.get("target"):
            target = norm_path(f"{folder(f.path)}/{f.get('target')}" if folder(f.path) else f.get("target") or "")
            if target not in ("", "."):
                out.add((f.repository, target))
    return out


def without_library_module_mains(facts: list[Fact]) -> list[Fact]:
    """The facts without the Go ``program.main`` facts inside a library module the root module replaces
    a dependency with: that library's own tools and demos (``oryx/randx/strength``) are not programs of
    the system, whose build compiles the library into its own binary."""
    libraries = library_module_folders(facts)
    if not libraries:
        return facts
    return [f for f in facts if not (f.kind == "program.main" and f.path.endswith(".go") and any(
        r == f.repository and (f.path.startswith(d + "/")) for r, d in libraries))]


def _generate_runs(facts: list[Fact]) -> list[tuple[Fact, str]]:
    """(directive, target) of each ``//go:generate go run <target> ...``: the first argument that is no flag."""
    out: list[tuple[Fact, str]] = []
    for f in facts:
        if f.kind != "go.generate":
            continue
        words = (f.get("command") or "").split()
        if len(words) >= 4 and words[1:3] == ["go", "run"]:
            out.append((f, next((w for w in words[3:] if not w.startswith("-")), "")))
    return out


def generator_folders(facts: list[Fact]) -> set[tuple[str, str]]:
    """(repository, folder) of the main packages a ``//go:generate go run ./tagdata ...`` directive runs:
    code generators run while developing, whose output is checked in."""
    out: set[tuple[str, str]] = set()
    for f, target in _generate_runs(facts):
        if not target.startswith("."):
            continue  # a module path (golang.org/x/tools/cmd/stringer): a tool from outside the repository
        target = target.rsplit("/", 1)[0] if target.endswith(".go") else target
        base = folder(f.path)
        path = norm_path(f"{base}/{target}" if base else target)
        if path not in ("", "."):
            out.add((f.repository, path))
    return out


def generator_files(facts: list[Fact]) -> set[tuple[str, str]]:
    """(repository, path) of the single files a ``//go:generate go run entc.go`` directive runs: a
    ``package main`` file kept out of the build (``//go:build ignore``) beside the package it generates."""
    out: set[tuple[str, str]] = set()
    for f, target in _generate_runs(facts):
        if target.endswith(".go") and "/" not in target.removeprefix("./"):
            base = folder(f.path)
            out.add((f.repository, norm_path(f"{base}/{target}" if base else target)))
    return out


def without_generator_mains(facts: list[Fact]) -> list[Fact]:
    """The facts without the ``program.main`` facts of code generators (see generator_folders and
    generator_files), nor of files kept out of the build (``//go:build ignore``, ``//go:build tools``: a
    ``build.go`` run with ``go run``)."""
    files = generator_files(facts) | {(f.repository, f.path) for f in facts if f.kind == "go.build_excluded"}
    return [f for f in _without_mains_in(facts, generator_folders(facts))
            if not (f.kind == "program.main" and (f.repository, f.path) in files)]
