"""The explorer's ES modules joined into one classic script, for sites opened from `file://`.

The live server loads `web/static/js/explorer/main.js` with `<script type="module">`. Chromium
refuses module scripts from `file://` pages (their origin is opaque, so the module fetch fails
CORS), and a published site must work when opened from disk; so `repomodeler publish` writes
`static/js/explorer.bundle.js`: the same modules, dependencies first, with their import lines
removed and the `export` keywords dropped, inside one function scope. No build tool is involved.

That simple join is correct only because the modules keep to a small subset, which
:func:`bundle` checks and refuses otherwise (one line naming the file and the line):

- imports are single-line named imports from a sibling module, `import { a, b } from "./x.js";`,
  without renaming (`as`), default or namespace imports;
- exports are `export function`, `export let` and `export const` declarations (no `export default`,
  `export { ... }` lists or re-exports);
- no two modules declare the same top-level name (in one scope the later would win);
- every imported name is exported by the module it is imported from (what the browser's module
  linker checks, and a plain script would not).
"""

from __future__ import annotations

import re
from pathlib import Path

from repomodeler.records import RepomodelerError

#: Where the modules live under web/static, the entry module, and the bundle's path.
MODULES = Path("js") / "explorer"
ENTRY = "main.js"
BUNDLE = Path("js") / "explorer.bundle.js"

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([A-Za-z0-9_-]+\.js)";\s*$')
_EXPORT = re.compile(r"^export\s+(?=(?:async\s+)?function\b|let\b|const\b)")
_FUNCTION = re.compile(r"^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)")
_BINDING = re.compile(r"^(?:export\s+)?(?:let|const|var)\s+(.*)$")


def _names_of_binding(rest: str) -> list[str]:
    """Names declared by `let a = 1, b = f(x, y), c;` (top-level commas only, first line)."""
    names, depth, current = [], 0, ""
    for ch in rest:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            names.append(current)
            current = ""
            continue
        current += ch
    names.append(current)
    found = []
    for part in names:
        m = re.match(r"\s*([A-Za-z_$][\w$]*)\s*(?:=|;|$)", part)
        if m:
            found.append(m.group(1))
    return found


class _Module:
    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.imports: dict[str, list[str]] = {}
        self.exports: set[str] = set()
        self.declared: set[str] = set()
        body: list[str] = []
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.name}:{no}"
            m = _IMPORT.match(line)
            if m:
                names = [n.strip() for n in m.group(1).split(",") if n.strip()]
                if any(" as " in n or not re.fullmatch(r"[A-Za-z_$][\w$]*", n) for n in names):
                    raise RepomodelerError(f"error: {where}: the explorer bundle does not support renamed imports")
                self.imports.setdefault(m.group(2), []).extend(names)
                continue
            if re.match(r"^import\b", line):
                raise RepomodelerError(f"error: {where}: only `import {{ a, b }} from \"./x.js\";` on one line can be bundled")
            if re.match(r"^export\b", line) and not _EXPORT.match(line):
                raise RepomodelerError(f"error: {where}: only `export function/let/const` declarations can be bundled")
            exported = bool(_EXPORT.match(line))
            line = _EXPORT.sub("", line)
            fn = _FUNCTION.match(line)
            declared = [fn.group(1)] if fn else []
            binding = _BINDING.match(line) if not fn else None
            if binding:
                declared = _names_of_binding(binding.group(1))
            self.declared.update(declared)
            if exported:
                self.exports.update(declared)
            body.append(line)
        self.body = "\n".join(body).strip("\n")


def bundle(static_dir: Path) -> str:
    """The classic script joining the explorer's modules (see the module doc for the rules)."""
    folder = Path(static_dir) / MODULES
    modules = {p.name: _Module(p) for p in sorted(folder.glob("*.js"))}
    if ENTRY not in modules:
        raise RepomodelerError(f"error: {folder / ENTRY} is missing")
    owner: dict[str, str] = {}
    for mod in modules.values():
        for name in mod.declared:
            if name in owner:
                raise RepomodelerError(f"error: {name} is declared at the top of both {owner[name]} and {mod.name}; "
                                       "the explorer bundle needs distinct names")
            owner[name] = mod.name
    for mod in modules.values():
        for source, names in mod.imports.items():
            if source not in modules:
                raise RepomodelerError(f"error: {mod.name} imports ./{source}, which does not exist")
            missing = [n for n in names if n not in modules[source].exports]
            if missing:
                raise RepomodelerError(f"error: {mod.name} imports {', '.join(missing)} from {source}, which does not export it")
    order: list[str] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:  # dependencies first; a cycle is fine (only functions cross it)
        if name in order or name in visiting:
            return
        visiting.add(name)
        for dep in modules[name].imports:
            visit(dep)
        visiting.discard(name)
        order.append(name)

    visit(ENTRY)
    unused = sorted(set(modules) - set(order))
    order = [n for n in order if n != ENTRY] + unused + [ENTRY]
    parts = ["/* Generated by repomodeler publish from web/static/js/explorer/*.js (ES modules) for pages opened",
             "   from file://, where module scripts do not load. Do not edit: edit the modules. */",
             "(function () {", '"use strict";']
    for name in order:
        parts.append(f"\n// ==== {name}")
        parts.append(modules[name].body)
    parts.append("})();\n")
    return "\n".join(parts)


def write_bundle(static_dir: Path, out_static_dir: Path) -> Path:
    """Write the bundle of `static_dir`'s modules into `out_static_dir` (a published site's static/)."""
    target = Path(out_static_dir) / BUNDLE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(bundle(static_dir), encoding="utf-8")
    return target
