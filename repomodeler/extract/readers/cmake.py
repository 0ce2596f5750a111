"""``CMakeLists.txt``: the programs a C/C++ repository builds."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_cmake(repo: str, path: str, text: str) -> list[Fact]:
    """``add_executable(UserService UserService.cpp ...)``: a program the repository builds, named
    as a deployment starts it (compose ``entrypoint: UserService``); its code is this folder."""
    facts = []
    # project(typesense): the build names the project its programs belong to (a unit, like a go.mod or Cargo.toml)
    # (its programs are the commands it installs, like a Cargo package's [[bin]] targets; test and benchmark
    # programs are the developers')
    project = re.search(r"(?im)^\s*project\s*\(\s*([A-Za-z_][A-Za-z0-9_.+-]*)", text)
    programs = sorted({m.group(1) for m in re.finditer(r"(?im)^\s*add_executable\s*\(\s*([A-Za-z_][A-Za-z0-9_.+-]*)", text)
                       if not re.search(r"(?i)(^|[-_])(tests?|bench(mark)?s?|examples?)($|[-_])", m.group(1))})
    # (only the repository's root build: a CMakeLists.txt in a folder of a polyglot repository builds a native
    # extension or a tool beside the system's own code)
    if project and programs and path == "CMakeLists.txt":
        facts.append(fact("manifest", repo, path, text.count("\n", 0, project.start()) + 1, ecosystem="cmake",
                          name=project.group(1), commands=", ".join(programs)))
    for m in re.finditer(r"(?im)^\s*add_executable\s*\(\s*([A-Za-z_][A-Za-z0-9_.+-]*)", text):
        facts.append(fact("program.binary", repo, path, text.count("\n", 0, m.start()) + 1, name=m.group(1),
                           source="cmake"))
    # install(TARGETS ... COMPONENT llama-server): a program the build installs for the product to start
    shipped: set[str] = set()
    for m in re.finditer(r"\bCOMPONENT\s+\"?([A-Za-z_][A-Za-z0-9_.+-]*)", text):
        if m.group(1) not in shipped:
            shipped.add(m.group(1))
            facts.append(fact("program.shipped", repo, path, text.count("\n", 0, m.start()) + 1, name=m.group(1),
                               source="cmake"))
    return facts


READERS = (
    Reader("cmake", "descriptor", 230, read_cmake, names=frozenset({"CMakeLists.txt"})),
)
