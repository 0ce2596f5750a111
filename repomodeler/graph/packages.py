"""Code packages of each repository and the imports between them.

A *package* is a folder holding code files (the unit every language's module system reduces to on
disk: a Go package, a Python package, a Java/Kotlin package, a JavaScript folder, a Rust module
folder, a C# namespace folder).  Each ``import`` fact is mapped to the folder it names, the way the
language finds it:

* Go: the module path of the nearest ``go.mod`` (``github.com/acme/shop/internal/cart`` -> ``internal/cart``);
* Python: dotted modules from any ancestor folder of the importing file (``src`` layouts, scripts
  beside their helpers), relative imports (``from .orders import router``) from the file's package;
* Java/Kotlin: the folder whose path ends with the package (``com.acme.billing.Invoice`` -> ``.../com/acme/billing``);
* JavaScript/TypeScript: relative paths, workspace package names (``package.json`` names), ``@/`` and ``~/`` to ``src``;
* Rust: ``crate::``, ``super::``, ``self::`` paths and the crates of the workspace;
* C#: namespaces below a project named like their first segments (``Acme.Billing.Services`` -> ``Acme.Billing/Services``);
* Ruby: ``require_relative`` paths.

Imports of code outside the repository (libraries) map to nothing.  Tests, examples, fixtures and
generated code (protobuf stubs, mocks, ``*_generated.*``) are not packages.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from repomodeler.graph.naming import norm_path
from repomodeler.records import Evidence, ExtractResult, Fact

# Files a generator wrote: protobuf/gRPC stubs, mocks, designer files, declaration files.
GENERATED_FILE = re.compile(
    r"(\.pb\.go|\.pb\.[a-z]+\.go|_grpc\.pb\.go|\.pb\.validate\.go|_gen\.go|_generated\.go|zz_generated[^/]*\.go|"
    r"_mock\.go|(^|/)mock_[^/]*\.go|_mocks?\.go|_pb2(_grpc)?\.pyi?|\.g\.cs|\.g\.i\.cs|\.designer\.cs|\.generated\.[cm]?[jt]sx?|"
    r"\.d\.ts|_pb\.[jt]s|_grpc_pb\.[jt]s|\.pb\.(cc|h)|(^|/)[^/]*\.gen\.[a-z]+)$", re.I)
GENERATED_DIRS = frozenset({"mock", "mocks", "gen", "generated", "genproto", "__generated__", "autogen", "migrations"})
JS_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte")
_GO_VERSION = re.compile(r"^v\d+$")


def is_generated(path: str) -> bool:
    if GENERATED_FILE.search(path):
        return True
    return any(p.lower() in GENERATED_DIRS for p in PurePosixPath(path).parts[:-1])


def folder(path: str) -> str:
    """The folder of a repository path ("" at the top); called some 20,000 times per large repository,
    so plain string work for the normalised paths git gives, pathlib for anything else."""
    if path.startswith(("/", "./")) or path.endswith(("/", "/.")) or "//" in path or "/./" in path or path == ".":
        parent = PurePosixPath(path).parent.as_posix()
        return "" if parent == "." else parent
    return path.rpartition("/")[0]


def go_package_name(import_path: str) -> str:
    """The name code uses for an imported Go package: its last path element, skipping ``/v2`` suffixes."""
    parts = [p for p in import_path.split("/") if p]
    while len(parts) > 1 and _GO_VERSION.match(parts[-1]):
        parts.pop()
    name = parts[-1] if parts else import_path
    return re.sub(r"^go-|[.-]go$", "", name).replace("-", "_")


@dataclass
class PackageIndex:
    """Code files by folder, per repository, and the imports between folders."""

    files: dict[tuple[str, str], str] = field(default_factory=dict)  # (repo, path) -> language
    packages: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))  # (repo, dir) -> paths
    # (repo, importing file) -> [(imported folder, evidence)]
    file_imports: dict[tuple[str, str], list[tuple[str, Evidence]]] = field(default_factory=lambda: defaultdict(list))
    # Go: (repo, file) -> {name the code uses for the package: folder}
    go_names: dict[tuple[str, str], dict[str, str]] = field(default_factory=lambda: defaultdict(dict))

    def package_of(self, repo: str, path: str) -> str | None:
        return folder(path) if (repo, path) in self.files else None

    def imports_of_package(self, repo: str, directory: str) -> dict[str, list[Evidence]]:
        out: dict[str, list[Evidence]] = defaultdict(list)
        for path in self.packages.get((repo, directory), []):
            for target, ev in self.file_imports.get((repo, path), []):
                if target != directory:
                    out[target].append(ev)
        return out

    def graph(self, repo: str) -> dict[str, set[str]]:
        """Folder -> folders it imports (one repository)."""
        g: dict[str, set[str]] = defaultdict(set)
        for (r, path), targets in self.file_imports.items():
            if r != repo:
                continue
            src = folder(path)
            for target, _ev in targets:
                if target != src:
                    g[src].add(target)
        return g


def build_index(results: list[ExtractResult], imports: Iterable[Fact], module_vars: Iterable[Fact],
                manifests: Iterable[Fact]) -> PackageIndex:
    index = PackageIndex()
    for r in results:
        repo = r.repository.name
        for f in r.inventory.files:
            if f.role == "source" and f.language and not is_generated(f.path):
                index.files[(repo, f.path)] = f.language
                index.packages[(repo, folder(f.path))].append(f.path)
    dirs_by_repo: dict[str, set[str]] = defaultdict(set)
    for repo, d in index.packages:
        dirs_by_repo[repo].add(d)
    resolver = _Resolver(index, dirs_by_repo, list(manifests))
    seen: set[tuple[str, str, int, str]] = set()
    for f in imports:
        lang = index.files.get((f.repository, f.path))
        if lang is None:
            continue
        module = f.get("module") or ""
        target = resolver.resolve(f.repository, f.path, lang, module)
        if lang == "go" and module:
            if target is not None:
                index.go_names[(f.repository, f.path)][go_package_name(module)] = target
        if target is None:
            continue
        key = (f.repository, f.path, f.line, target)
        if key not in seen:
            seen.add(key)
            index.file_imports[(f.repository, f.path)].append((target, f.evidence))
    for f in module_vars:
        lang = index.files.get((f.repository, f.path))
        if lang != "python":
            continue
        target = resolver.python_from(f.repository, f.path, f.get("module") or "", f.get("name") or "")
        if target is None:
            continue
        key = (f.repository, f.path, f.line, target)
        if key not in seen:
            seen.add(key)
            index.file_imports[(f.repository, f.path)].append((target, f.evidence))
    for k in index.file_imports:
        index.file_imports[k].sort(key=lambda t: (t[1], t[0]))
    return index


def go_import_folder(modules: list[tuple[str, str]], module: str) -> str | None:
    """The repository folder a Go import path names, given the repository's go.mod files as (module path, folder)
    longest path first (``example.com/ci/web`` under ``example.com/ci`` at the root -> ``web``); None for another
    module's package."""
    for mod, d in modules:
        if module == mod or module.startswith(mod + "/"):
            rest = module[len(mod):].strip("/")
            return norm_path("/".join(p for p in (d, rest) if p))
    return None


def go_modules_of(manifests: list[Fact]) -> dict[str, list[tuple[str, str]]]:
    """Repository -> (module path, folder) of each of its go.mod files, longest path first."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for m in manifests:
        if m.get("ecosystem") == "go" and m.get("name"):
            out[m.repository].append((m.get("name") or "", folder(m.path)))
    for mods in out.values():
        mods.sort(key=lambda t: (-len(t[0]), t))
    return out


class _Resolver:
    """Maps one import, as written, to the folder of the repository it names (or None)."""

    def __init__(self, index: PackageIndex, dirs: dict[str, set[str]], manifests: list[Fact]) -> None:
        self.index = index
        self.dirs = dirs
        self.go_modules = go_modules_of(manifests)
        self.npm: dict[str, dict[str, str]] = defaultdict(dict)
        self.dotnet: dict[str, dict[str, str]] = defaultdict(dict)
        self.crates: dict[str, list[str]] = defaultdict(list)
        for m in manifests:
            d = folder(m.path)
            eco = m.get("ecosystem")
            if eco == "npm" and m.get("name"):
                self.npm[m.repository].setdefault(m.get("name") or "", d)
            elif eco == "dotnet" and m.path.lower().endswith((".csproj", ".fsproj", ".vbproj")):
                self.dotnet[m.repository].setdefault(PurePosixPath(m.path).stem, d)
            elif eco == "cargo":
                self.crates[m.repository].append(d)
        # Java/Kotlin: folders by their last segment, to find the folder a package name ends with.
        self.by_last: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for repo, ds in dirs.items():
            for d in sorted(ds):
                if d:
                    self.by_last[repo][d.rsplit("/", 1)[-1]].append(d)
        self.file_set: dict[str, set[str]] = defaultdict(set)
        for repo, path in index.files:
            self.file_set[repo].add(path)

    def resolve(self, repo: str, path: str, lang: str, module: str) -> str | None:
        if not module:
            return None
        if lang == "go":
            return self.go(repo, module)
        if lang == "python":
            return self.python(repo, path, module)
        if lang in ("java", "kotlin"):
            return self.jvm(repo, path, module)
        if lang in ("javascript", "typescript", "tsx"):
            return self.js(repo, path, module)
        if lang == "rust":
            return self.rust(repo, path, module)
        if lang == "csharp":
            return self.csharp(repo, module)
        if lang == "ruby":
            return self.ruby(repo, path, module)
        return None

    def _dir(self, repo: str, d: str) -> str | None:
        d = norm_path(d)
        return d if d in self.dirs.get(repo, ()) else None

    # ------------------------------------------------------------------ Go
    def go(self, repo: str, module: str) -> str | None:
        target = go_import_folder(self.go_modules.get(repo, []), module)
        return self._dir(repo, target) if target is not None else None

    # ------------------------------------------------------------------ Python
    def _py_target(self, repo: str, base: str, parts: list[str]) -> str | None:
        """The deepest package folder `parts` names below `base`, or the folder of the module file it
        names; None when the first part is neither."""
        files = self.file_set.get(repo, set())
        dirs = self.dirs.get(repo, set())
        found: str | None = None
        cur = base
        for part in parts:
            nxt = f"{cur}/{part}" if cur else part
            if nxt in dirs:
                found = cur = nxt
                continue
            if f"{nxt}.py" in files:
                return cur if cur in dirs else found
            break
        return found

    def python(self, repo: str, path: str, module: str) -> str | None:
        if module.startswith("."):
            return self.python_from(repo, path, module, "")
        parts = [p for p in module.split(".") if p]
        if not parts:
            return None
        files = self.file_set.get(repo, set())
        dirs = self.dirs.get(repo, set())
        base = folder(path)
        while True:
            head = f"{base}/{parts[0]}" if base else parts[0]
            if head in dirs or f"{head}.py" in files:
                if head not in dirs:  # a module file beside the importer's ancestors
                    return base if base in dirs else None
                return self._py_target(repo, base, parts)
            if not base:
                return None
            base = folder(base)

    def python_from(self, repo: str, path: str, module: str, name: str) -> str | None:
        """``from .orders import router`` / ``from . import orders`` / ``from app.api import orders``."""
        if not module.startswith("."):
            target = self.python(repo, path, module)
            if target is not None and name:
                deeper = f"{target}/{name}" if target else name
                if deeper in self.dirs.get(repo, set()):
                    return deeper
            return target
        dots = len(module) - len(module.lstrip("."))
        base = folder(path)
        for _ in range(dots - 1):
            if not base:
                return None
            base = folder(base)
        parts = [p for p in module.lstrip(".").split(".") if p]
        if name:
            parts.append(name)
        if not parts:
            return base if base in self.dirs.get(repo, set()) else None
        target = self._py_target(repo, base, parts)
        if target is None and (f"{base}/{parts[0]}.py" if base else f"{parts[0]}.py") in self.file_set.get(repo, set()):
            return base
        return target if target is not None else (base if base in self.dirs.get(repo, set()) and name else None)

    # ------------------------------------------------------------------ Java / Kotlin
    def jvm(self, repo: str, path: str, module: str) -> str | None:
        segs = [s for s in module.replace("*", "").split(".") if s]
        for k in range(len(segs), max(0, len(segs) - 3), -1):
            pkg = "/".join(segs[:k])
            cands = [d for d in self.by_last[repo].get(segs[k - 1], ()) if d == pkg or d.endswith("/" + pkg)]
            if cands:
                return max(cands, key=lambda d: (_common_prefix(d, path), -len(d), d))
        return None

    # ------------------------------------------------------------------ JavaScript / TypeScript
    def js(self, repo: str, path: str, module: str) -> str | None:
        files = self.file_set.get(repo, set())
        if module.startswith("."):
            return self._js_path(repo, norm_path(f"{folder(path)}/{module}"), files)
        if module.startswith(("@/", "~/")):
            base = folder(path)
            while True:
                src = f"{base}/src" if base else "src"
                if src in self.dirs.get(repo, set()):
                    return self._js_path(repo, f"{src}/{module[2:]}", files)
                if not base:
                    return None
                base = folder(base)
        names = self.npm.get(repo, {})
        parts = module.split("/")
        name = "/".join(parts[:2]) if module.startswith("@") else parts[0]
        if name in names:
            rest = module[len(name):].strip("/")
            d = names[name]
            if not rest:
                return self._package_main(repo, d)
            return self._js_path(repo, "/".join(p for p in (d, rest) if p), files) or self._package_main(repo, d)
        return None

    def _package_main(self, repo: str, d: str) -> str | None:
        for sub in ("src", "lib", ""):
            cand = "/".join(p for p in (d, sub) if p)
            if cand in self.dirs.get(repo, set()):
                return cand
        return None

    def _js_path(self, repo: str, target: str, files: set[str]) -> str | None:
        target = norm_path(target)
        if target in files:
            return folder(target)
        for ext in JS_EXTENSIONS:
            if f"{target}{ext}" in files:
                return folder(target)
        if target in self.dirs.get(repo, set()):
            return target
        stem = re.sub(r"\.(js|mjs|cjs|jsx)$", "", target)
        if stem != target:
            for ext in JS_EXTENSIONS:
                if f"{stem}{ext}" in files:
                    return folder(stem)
        return None

    # ------------------------------------------------------------------ Rust
    def rust(self, repo: str, path: str, module: str) -> str | None:
        segs = [s for s in re.split(r"::", module.strip()) if s and s not in ("{", "}")]
        if not segs:
            return None
        root = self._crate_root(repo, path)
        if segs[0] == "crate" and root is not None:
            return self._rust_walk(repo, root, segs[1:])
        if segs[0] in ("super", "self"):
            base = folder(path)
            name = PurePosixPath(path).stem
            if name not in ("mod", "lib", "main"):  # a file module x.rs: its children live in x/
                base = f"{base}/{name}" if base else name
            while segs and segs[0] == "super":
                base, segs = folder(base), segs[1:]
            if segs and segs[0] == "self":
                segs = segs[1:]
            return self._rust_walk(repo, base, segs) if base in self.dirs.get(repo, set()) else None
        for d in self.crates.get(repo, ()):
            crate = PurePosixPath(d).name.replace("-", "_") if d else repo.replace("-", "_")
            if segs[0] == crate:
                src = f"{d}/src" if d else "src"
                if src in self.dirs.get(repo, set()):
                    return self._rust_walk(repo, src, segs[1:])
        return None

    def _crate_root(self, repo: str, path: str) -> str | None:
        best = None
        for d in self.crates.get(repo, ()):
            src = f"{d}/src" if d else "src"
            if path.startswith(src + "/") and (best is None or len(src) > len(best)):
                best = src
        return best

    def _rust_walk(self, repo: str, base: str, segs: list[str]) -> str:
        cur = base
        for s in segs:
            nxt = f"{cur}/{s}" if cur else s
            if nxt in self.dirs.get(repo, set()):
                cur = nxt
            else:
                break
        return cur

    # ------------------------------------------------------------------ C#
    def csharp(self, repo: str, module: str) -> str | None:
        segs = [s for s in module.split(".") if s]
        projects = self.dotnet.get(repo, {})
        for k in range(len(segs), 0, -1):
            name = ".".join(segs[:k])
            if name in projects:
                cur = projects[name]
                found = cur if cur in self.dirs.get(repo, set()) else None
                for s in segs[k:]:
                    nxt = f"{cur}/{s}" if cur else s
                    if nxt in self.dirs.get(repo, set()):
                        cur = found = nxt
                    else:
                        break
                return found
        return None

    # ------------------------------------------------------------------ Ruby
    def ruby(self, repo: str, path: str, module: str) -> str | None:
        files = self.file_set.get(repo, set())
        for base in (folder(path), "", "lib"):
            cand = norm_path(f"{base}/{module}" if base else module)
            if f"{cand}.rb" in files or cand in files:
                return folder(cand if cand in files else f"{cand}.rb")
        return None


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        n += 1
    return n


def language_of(index: PackageIndex, repo: str, paths: Iterable[str]) -> str | None:
    counts = Counter(index.files[(repo, p)] for p in paths if (repo, p) in index.files)
    if not counts:
        return None
    lang = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return {"tsx": "typescript"}.get(lang, lang)
