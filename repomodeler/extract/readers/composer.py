"""``composer.json``: a PHP package, what it requires, and the commands it installs.

Why: a PHP application is often a root project requiring packages kept in its own repository
(``"require": {"winter/wn-cms-module": "dev-develop"}`` with ``modules/cms/composer.json`` named
``winter/wn-cms-module``): those are the application's modules, libraries it loads, not programs of their own,
and only the package's name and requirements say so.  Its requirements are also the client libraries
(``predis/predis``, ``aws/aws-sdk-php``) that name what it talks to.  ``require-dev`` is what developers
install to build and test it (PHPUnit, linters), kept apart like npm's devDependencies.
"""

from __future__ import annotations

import json
import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import first_line, section_index
from repomodeler.records import Fact

# Requirements that are the PHP runtime or its extensions, not packages (`php`, `ext-redis`, `lib-curl`).
_PLATFORM = re.compile(r"^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|composer(-plugin|-runtime)?-api|ext-.+|lib-.+)$", re.I)


def read_composer(repo: str, path: str, text: str) -> list[Fact]:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("composer.json is not an object")
    name = data.get("name") if isinstance(data.get("name"), str) else None
    bins = data.get("bin")
    bins = [bins] if isinstance(bins, str) else [b for b in bins if isinstance(b, str)] if isinstance(bins, list) else []
    commands = sorted({b.rsplit("/", 1)[-1] for b in bins})
    facts = [fact("manifest", repo, path, first_line(text, '"name"'), ecosystem="php", name=name,
                   commands=", ".join(commands) or None)]
    for section, kind in (("require", "manifest.dependency"), ("require-dev", "manifest.dev_dependency")):
        deps = data.get(section)
        if not isinstance(deps, dict):
            continue
        index, base = section_index(text, section)
        for dep in sorted(str(d) for d in deps):
            if not _PLATFORM.match(dep):
                facts.append(fact(kind, repo, path, base + index.line(dep), ecosystem="php", name=dep))
    return facts


READERS = (
    Reader("composer", "descriptor", 240, read_composer, names=frozenset({"composer.json"})),
)
