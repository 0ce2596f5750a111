"""Where a name used in code gets its value: the constants and variables of a file, of the files its
scope reaches as the language sees it, and the local variables of the function it is used in.

Extraction gives ``const.string`` facts (a name bound to a literal), ``value.assign`` facts (a name bound
to an expression, with ``scope``: the lines of the enclosing function for a local variable) and the
imports that bind names (``module.var``, ``import.name``, ``import``). :class:`ConstantIndex` answers
``value_of(repository, path, name, line)`` with the bindings the name may have at that line, nearest
scope first:

* a local variable of the enclosing function assigned before the line (the latest assignment wins);
* a constant or field of the same file;
* a name the file imports from another module (Python ``from m import NAME``, JS/TS ``import { NAME }``);
* Go: the other files of the package (the same folder); Kotlin: top-level constants of the package;
* a qualified name ``Q.NAME`` / ``q::NAME``: the class or module ``Q`` of the repository (Java/Kotlin/C#
  ``Foo.BAR`` in ``Foo.java``; Python ``config.URL`` in ``config.py``; Go ``pkg.Name`` in folder
  ``pkg``; Rust ``module::NAME``), preferring the one in the same folder or named by an import.

Expressions are evaluated by :mod:`repomodeler.graph.expressions`; this module only knows scopes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Iterable

from repomodeler.graph.expressions import Binding
from repomodeler.graph.values import call_arguments
from repomodeler.paths import norm_path
from repomodeler.records import Evidence, Fact

JS_FAMILY = ("javascript", "typescript", "tsx")
JS_SUFFIXES = ("", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js")
SELF_PREFIXES = ("this.", "self.", "Self::", "self::", "static::")
MAX_CANDIDATE_FILES = 3  # a qualified name several unrelated files could answer is not guessed


VALUE_KINDS = frozenset({"const.string", "value.assign", "value.params", "value.invoke", "value.return", "value.field"})
ACTION_KINDS = frozenset({"http.client", "grpc.client", "grpc.server", "messaging.publish", "messaging.subscribe",
                          "config.read", "env.read", "feign.client", "service.lookup", "string.url", "string.hostport",
                          "string.dsn", "http.route"})
INDEXED_KINDS = VALUE_KINDS | ACTION_KINDS | {"module.var", "import.name", "import"}


@dataclass(frozen=True)
class LocalBinding:
    """A local variable's assignment: the binding and the lines of the function it belongs to."""

    binding: Binding
    start: int
    end: int


def _family(language: str) -> str:
    return "javascript" if language in JS_FAMILY else language


class ConstantIndex:
    """The bindings of names across a system's files, by scope (see the module docstring)."""

    def __init__(self, facts: Iterable[Fact]) -> None:
        # (repository, path) -> name -> bindings at file level (constants, fields, module variables)
        self.file_level: dict[tuple[str, str], dict[str, list[Binding]]] = defaultdict(lambda: defaultdict(list))
        self.locals: dict[tuple[str, str, str], list[LocalBinding]] = defaultdict(list)
        # (repository, path) -> local name -> (module as written, name in that module)
        self.imported: dict[tuple[str, str], dict[str, tuple[str, str]]] = defaultdict(dict)
        self.imports: dict[tuple[str, str], set[str]] = defaultdict(set)  # modules a file imports
        self.files_in_dir: dict[tuple[str, str, str], set[str]] = defaultdict(set)  # (repo, family, dir)
        self.files_by_stem: dict[tuple[str, str, str], set[str]] = defaultdict(set)  # (repo, family, stem)
        self.paths: set[tuple[str, str]] = set()
        # Value flow between functions: (repository, path) -> [(first line, last line, function, parameters)]
        self.params: dict[tuple[str, str], list[tuple[int, int, str, tuple[tuple[str, str | None], ...], str]]] = \
            defaultdict(list)
        # (repo, function) -> [(call site, arguments, language, the callee as written)]
        self.invokes: dict[tuple[str, str], list[tuple[Evidence, str, str, str]]] = defaultdict(list)
        self.returns: dict[tuple[str, str], list[tuple[str, Binding]]] = defaultdict(list)  # (repo, function)
        self.fields: dict[tuple[str, str], dict[str, list[Binding]]] = defaultdict(lambda: defaultdict(list))
        literal_lines: set[tuple[str, str, int, str]] = set()
        self.value_lines: set[Evidence] = set()  # lines that bind a value
        self.constant_lines: set[Evidence] = set()  # lines declaring a string constant
        self.settings_read: dict[tuple[str, str], set[str]] = defaultdict(set)  # keys a file's code reads
        self.action_lines: set[Evidence] = set()  # lines where code calls, reads or names an address
        for f in facts:  # in fact order (sorted: by kind first), so every list below is too
            kind = f.kind
            if kind not in INDEXED_KINDS:
                continue
            if kind in ACTION_KINDS:
                self.action_lines.add(f.evidence)
                if kind in ("config.read", "env.read"):
                    setting = f.get("expr") or f.get("name")
                    if setting:
                        self.settings_read[(f.repository, f.path)].add(setting)
                continue
            if kind == "import":  # the most numerous kind: one attribute, read directly
                module = f.get("module")
                if module:
                    self.imports[(f.repository, f.path)].add(module)
                continue
            a = dict(f.attrs)
            name = a.get("name") or ""
            key = (f.repository, f.path)
            if kind in VALUE_KINDS:
                self.value_lines.add(f.evidence)
            if kind == "const.string" and name:
                self.file_level[key][name].append(Binding(a.get("value") or "", True, f.evidence, f.language))
                literal_lines.add((f.repository, f.path, f.line, name))
                self.constant_lines.add(f.evidence)
                self._file(f)
            elif kind == "value.assign" and name:
                binding = Binding(a.get("expr") or "", False, f.evidence, f.language)
                if a.get("scope"):
                    start, _, end = (a.get("scope") or "").partition("-")
                    self.locals[(f.repository, f.path, name)].append(LocalBinding(binding, int(start), int(end or start)))
                elif (f.repository, f.path, f.line, name) not in literal_lines:
                    self.file_level[key][name].append(binding)
                self._file(f)
            elif kind == "value.params" and a.get("scope") and a.get("function"):
                start, _, end = (a.get("scope") or "").partition("-")
                self.params[key].append((int(start), int(end or start), a.get("function") or "",
                                         parameters(a.get("params") or "", f.language), f.language))
                # TypeScript parameter properties (constructor(private readonly baseUrl: string)) are fields
                for prop in PARAMETER_PROPERTY.findall(a.get("params") or "") if f.language in JS_FAMILY else ():
                    self.file_level[key][prop].append(Binding(prop, False, f.evidence, f.language))
                self._file(f)
            elif kind == "value.invoke" and a.get("callee"):
                written = a.get("callee") or ""
                callee = re.split(r"\.|::", written)[-1]
                self.invokes[(f.repository, callee)].append((f.evidence, a.get("args") or "", f.language, written))
            elif kind == "value.return" and a.get("function"):
                self.returns[(f.repository, a.get("function") or "")].append(
                    (f.path, Binding(a.get("expr") or "", False, f.evidence, f.language)))
            elif kind == "value.field" and name:
                self.fields[(f.repository, f.path.rpartition("/")[0])][name].append(
                    Binding(a.get("expr") or "", False, f.evidence, f.language))
            elif kind in ("module.var", "import.name") and name and a.get("module"):
                self.imported[key][name] = (a.get("module") or "", a.get("imported") or name)

    def _file(self, f: Fact) -> None:
        if (f.repository, f.path) in self.paths:
            return
        self.paths.add((f.repository, f.path))
        p = PurePosixPath(f.path)
        family = _family(f.language)
        self.files_in_dir[(f.repository, family, p.parent.as_posix())].add(f.path)
        # A Go package is its folder; a Python/Rust/JS package file stands for its folder.
        stem = p.parent.name if family == "go" or p.stem in ("__init__", "mod", "index") else p.stem
        self.files_by_stem[(f.repository, family, stem)].add(f.path)

    def gives_value(self, evidence: Evidence) -> bool:
        """Is this line only where a value came from (a constant, a variable, an argument handed on),
        not where code calls anything?  Such a line in a connection's evidence follows the call it served
        (a constant in a package several programs share is not a call of that package)."""
        return evidence in self.value_lines and evidence not in self.action_lines

    def declares_constant(self, evidence: Evidence) -> bool:
        """Is this line a string constant's declaration (not a line using one)?"""
        return evidence in self.constant_lines

    def reads_setting(self, repository: str, path: str, expr: str) -> bool:
        """Does the expression read a setting (``config('services.x.url')``, ``Configuration["A:B"]``,
        ``os.Getenv("X")``) the file's setting reads name?  Such a value is the configuration rules'
        to resolve, or to list."""
        return any(key in expr for key in self.settings_read.get((repository, path), ()))

    # ------------------------------------------------------------------ lookups
    def value_of(self, repository: str, path: str, name: str, line: int | None = None,
                 language: str = "") -> list[Binding]:
        """The bindings `name` may have at `line` of the file, nearest scope first; [] when unknown."""
        for prefix in SELF_PREFIXES:
            if name.startswith(prefix):
                name = name[len(prefix):]
        if name.endswith("()"):
            return self._returns(repository, path, name[:-2])
        if "." in name or "::" in name:
            found = self._qualified(repository, path, name, language)
            if not found and _family(language) == "go":  # cfg.Host: a field a struct literal of the package sets
                folder = PurePosixPath(path).parent.as_posix()
                found = list(self.fields.get((repository, folder), {}).get(re.split(r"\.|::", name)[-1], []))
            return found
        if line is not None:
            local = [lb for lb in self.locals.get((repository, path, name), [])
                     if lb.start <= line <= lb.end and lb.binding.evidence.line < line]
            if local:
                return [max(local, key=lambda lb: lb.binding.evidence.line).binding]
            parameter = self._parameter(repository, path, name, line)
            if parameter is not None:
                return parameter
        own = self.file_level.get((repository, path), {}).get(name)
        if own:
            return list(own)
        imported = self.imported.get((repository, path), {}).get(name)
        if imported:
            module, original = imported
            found = [b for p in self._module_files(repository, path, module, language)
                     for b in self.file_level.get((repository, p), {}).get(original, [])]
            if found:
                return found
        family = _family(language)
        if family in ("go", "kotlin"):  # a package's files share their top-level names
            folder = PurePosixPath(path).parent.as_posix()
            return [b for p in sorted(self.files_in_dir.get((repository, family, folder), ()))
                    if p != path and not p.endswith("_test.go")
                    for b in self.file_level.get((repository, p), {}).get(name, [])]
        return []

    def _parameter(self, repository: str, path: str, name: str, line: int) -> list[Binding] | None:
        """A parameter of the function `line` is in: the arguments the calls of that function hand it
        (by position or by keyword; the calls in the same folder first, else anywhere in the
        repository), else its default; None when `name` is no parameter there."""
        enclosing = [p for p in self.params.get((repository, path), [])
                     if p[0] <= line <= p[1] and name in (n for n, _d in p[3])]
        if not enclosing:
            return None
        innermost = max(p[0] for p in enclosing)
        out: list[Binding] = []
        for start, _end, function, params, own_language in enclosing:
            if start != innermost:
                continue
            names = [n for n, _d in params]
            index = names.index(name)
            calls = self.invokes.get((repository, function), [])
            folder = PurePosixPath(path).parent.as_posix()
            near = [c for c in calls if PurePosixPath(c[0].path).parent.as_posix() == folder]
            for evidence, args, language, _written in near or [c for c in calls if self._may_call(c, path)]:
                values = call_arguments(args.strip()[1:]) if args.strip()[:1] in "([" else []
                keyword = next((v.split("=", 1)[1] for v in values
                                if re.match(rf"\s*{re.escape(name)}\s*[=:](?!=)", v) and "=" in v), None)
                chosen = keyword if keyword is not None else (
                    values[index] if index < len(values) and not re.match(r"\s*[A-Za-z_]\w*\s*=(?!=)", values[index])
                    else None)
                if chosen is not None and chosen.strip():
                    out.append(Binding(chosen.strip(), False, evidence, language))
            default = params[index][1]
            if default:
                out.append(Binding(default, False, Evidence(repository, path, start), own_language))
        return out

    def _may_call(self, call: tuple[Evidence, str, str, str], path: str) -> bool:
        """Whether a call in another folder can reach the function defined in `path`: its file imports
        that file's module (or its package, for an index/__init__/Go package), or qualifies the call
        with it (``slack.post``, ``client.NewClient``). A call of a same-named method on some other
        object (``apiClient.post`` against a module's ``post``) is not one of the function's calls."""
        here = PurePosixPath(path)
        names = {here.stem.lower(), here.parent.name.lower()} - {"", "index", "__init__", "mod", "main"}
        site, _args, _language, written = call
        qualifier = re.split(r"\.|::", written)[-2:-1]
        if qualifier and qualifier[0].lower() in names:
            return True
        modules = self.imports.get((site.repository, site.path), set())
        return any(re.split(r"[./:\\]+", m.rstrip("/"))[-1].lower() in names for m in modules if m.strip("./"))

    def _returns(self, repository: str, path: str, callee: str) -> list[Binding]:
        """What a function of the repository returns (the one in the same folder first)."""
        function = re.split(r"\.|::", callee)[-1]
        found = self.returns.get((repository, function), [])
        folder = PurePosixPath(path).parent.as_posix()
        near = [b for p, b in found if PurePosixPath(p).parent.as_posix() == folder]
        if near:
            return near
        files = {p for p, _b in found}
        return [b for _p, b in found] if len(files) <= MAX_CANDIDATE_FILES else []

    def _qualified(self, repository: str, path: str, name: str, language: str) -> list[Binding]:
        """``Q.NAME``: NAME in the class/module/package Q (the last qualifier), the same file first
        (a class's own constant written with its class name)."""
        sep = "::" if "::" in name else "."
        qualifier, _, last = name.rpartition(sep)
        q = qualifier.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
        if q in ("crate", "super"):
            return self.value_of(repository, path, last, None, language)
        family = _family(language)
        here = PurePosixPath(path)
        if q == here.stem or (q[:1].isupper() and family not in ("go",)):
            own = self.file_level.get((repository, path), {}).get(last)
            if own:
                return list(own)
        imported = self.imported.get((repository, path), {}).get(q)
        if imported:  # import * as cfg from "./config" / from app import config
            module, original = imported
            files = []
            if family == "python":  # from app import config / from . import config: the module app.config
                files = self._module_files(repository, path, module + original if module.endswith(".")
                                           else f"{module}.{original}", language)
            files = files or self._module_files(repository, path, module, language)
            found = [b for p in files for b in self.file_level.get((repository, p), {}).get(last, [])]
            if found:
                return found
        candidates = sorted(p for p in self.files_by_stem.get((repository, family, q), ()) if p != path)
        if not candidates:
            return []
        folder = here.parent.as_posix()
        near = [p for p in candidates if PurePosixPath(p).parent.as_posix() == folder
                or PurePosixPath(p).parent.parent.as_posix() == folder]
        imported_files = [p for p in candidates if any(self._names_file(m, p) for m in self.imports.get((repository, path), ()))]
        chosen = near or imported_files or (candidates if len(candidates) <= MAX_CANDIDATE_FILES else [])
        return [b for p in chosen for b in self.file_level.get((repository, p), {}).get(last, [])]

    @staticmethod
    def _names_file(module: str, path: str) -> bool:
        """Does an import (``com.acme.Config``, ``github.com/acme/app/config``, ``app.config``) name this file?"""
        p = PurePosixPath(path)
        dotted = (p.parent / p.stem).as_posix().replace("/", ".")
        slashed = p.parent.as_posix()
        module = module.strip("\"'")
        return dotted.endswith(module) or module.endswith(slashed) or slashed.endswith(module.split("/")[-1]) and \
            module.split("/")[-1] == p.parent.name

    def _python_modules(self) -> dict[tuple[str, str], list[str]]:
        """(repository, a module's last name) -> the module paths without suffix (``app/config`` for
        ``app/config.py`` and ``app/config/__init__.py``): built once, since an absolute import may name a
        module anywhere in the repository and a scan of every path per import took seconds."""
        index = getattr(self, "_py_modules", None)
        if index is None:
            found: dict[tuple[str, str], set[str]] = defaultdict(set)
            for r, p in self.paths:
                base = p[: -len("/__init__.py")] if p.endswith("/__init__.py") else p[: -len(".py")] \
                    if p.endswith(".py") else None
                if base:
                    found[(r, base.rsplit("/", 1)[-1])].add(base)
            index = self._py_modules = {k: sorted(v) for k, v in found.items()}
        return index

    def _module_files(self, repository: str, path: str, module: str, language: str) -> list[str]:
        """The files of the repository a module name written in `path` means."""
        family = _family(language)
        here = PurePosixPath(path).parent
        if family == "javascript":
            if not module.startswith("."):
                return []
            base = norm_path((here / module).as_posix())
            return [base + s for s in JS_SUFFIXES if (repository, base + s) in self.paths][:1]
        if family == "python":
            dots = len(module) - len(module.lstrip("."))
            rel = module.lstrip(".").replace(".", "/")
            if dots:
                folder = here
                for _ in range(dots - 1):
                    folder = folder.parent
                bases = [norm_path((folder / rel).as_posix()) if rel else folder.as_posix()]
            else:  # an absolute import: any module of the repository whose path ends so (indexed by last name)
                tail = rel.rsplit("/", 1)[-1]
                bases = [b for b in self._python_modules().get((repository, tail), ())
                         if b == rel or b.endswith("/" + rel)]
            out = []
            for b in sorted(set(bases)):
                for candidate in (f"{b}.py", f"{b}/__init__.py"):
                    if (repository, candidate) in self.paths:
                        out.append(candidate)
            return out[:MAX_CANDIDATE_FILES]
        return []


PARAMETER_PROPERTY = re.compile(r"(?:^|[(,])\s*(?:private|public|protected|readonly)\s+(?:readonly\s+)?([A-Za-z_$][\w$]*)")
TYPE_FIRST = ("java", "csharp")  # String url / string url = "x": the name is the last word
MODIFIERS = re.compile(r"^(?:(?:private|public|protected|readonly|override|final|val|var|const|in|out|ref|params|this|mut)\s+)+")


def parameters(params: str, language: str) -> tuple[tuple[str, str | None], ...]:
    """(name, default expression or None) of a parameter list as written: ``(ctx context.Context, a, b
    string)`` -> ctx, a, b; ``(self, url: str = "x")`` -> url with "x" (a method's own object is not a
    parameter); ``(@Value("${u}") String baseUrl)`` -> baseUrl; ``(private readonly baseUrl: string)``."""
    text = params.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    out: list[tuple[str, str | None]] = []
    for part in call_arguments(text + ")") if text.strip() else []:
        part = re.sub(r"@[A-Za-z_][\w.]*(?:\([^()]*\))?\s*", "", part).strip()  # annotations
        head, eq, default = part.partition("=")
        head = MODIFIERS.sub("", head.strip().lstrip("*&").strip())
        words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", head.split(":")[0] if language not in TYPE_FIRST else head)
        if not words:
            continue
        name = words[-1] if language in TYPE_FIRST else words[0]
        if name not in ("self", "cls"):
            out.append((name, default.strip() if eq and default.strip() else None))
    return tuple(out)


def parameter_names(params: str, language: str = "go") -> tuple[str, ...]:
    return tuple(n for n, _d in parameters(params, language))


