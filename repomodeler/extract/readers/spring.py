"""Spring configuration (``application*.yml``/``.properties``, ``bootstrap*``, Spring Cloud Config
repositories): every property flattened to its dotted key, with the profile it applies to."""

from __future__ import annotations

import re

from repomodeler.extract.readers.openapi import OPENAPI_DOCUMENT
from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import flatten_yaml, load_yaml_documents
from repomodeler.records import Fact

# Top-level keys of Spring configuration, nested (`spring:`) or dotted (`spring.data.mongodb:`, `server.port: 7001`).
_SPRING_HINT = re.compile(r"^((spring|eureka|zuul|ribbon|hystrix|feign|security|management)(\.[\w.-]+)?"
                          r"|(server|logging)\.[\w.-]+)\s*:", re.M)


# A message catalogue (Symfony's `translations/messages.ja.yml`, Rails' `config/locales/en.yml`): the user
# interface's text in one language, whose keys may read like Spring's (`security:`, `server:`) and whose
# values hold sample addresses (`http://website.dk`), never a setting.
MESSAGE_CATALOGUE = re.compile(r"(^|/)(translations?|locales?|i18n|l10n|lang|langs|languages)/"
                               r"|(^|/)(messages|validators|security|translations?)\.[a-z]{2,3}([-_][A-Za-z]{2,4})?\.ya?ml$")


# A value Maven's (or Gradle's) resource filtering fills in at build time (``name: @artifactId@``): Spring Boot's
# own convention, but `@` cannot start a plain YAML scalar, so the file would not parse at all.
_BUILD_PLACEHOLDER = re.compile(r"^(\s*(?:-\s+)?(?:[^\s#:][^#:]*:\s+)?)(@[A-Za-z0-9_.\-]+@)(\s*(?:#.*)?)$", re.M)


def _quote_build_placeholders(text: str) -> str:
    """Quote ``@token@`` values (line for line, so line numbers stay) for the YAML parser."""
    if "@" not in text:
        return text
    return _BUILD_PLACEHOLDER.sub(lambda m: f'{m.group(1)}"{m.group(2)}"{m.group(3)}', text)


def read_spring_config(repo: str, path: str, text: str) -> list[Fact]:
    entries: list[tuple[str, str, int]] = []
    if path.endswith(".properties"):
        for i, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith(("#", "!")):
                continue
            m = re.match(r"^([^=:\s]+)\s*[=:]\s*(.*)$", line)
            if m:
                entries.append((m.group(1), m.group(2).strip(), i))
        documents = [entries]
    else:
        documents = []
        for doc in load_yaml_documents(_quote_build_placeholders(text)):
            part: list[tuple[str, str, int]] = []
            flatten_yaml(doc, "", part)
            documents.append(part)
    profile = ""
    m = re.search(r"(?:application|bootstrap)-([^/.]+)\.(?:ya?ml|properties)$", path)
    if m:
        profile = m.group(1)
    facts: list[Fact] = []
    active = _file_active_profiles(documents)
    for part in documents:
        doc_profile = _document_profile(part, active)
        for key, value, line in part:
            facts.append(fact("config.property", repo, path, line, name=key, value=value, profile=profile or doc_profile,
                               **({"profile_document": "true"} if doc_profile and not profile else {})))
    return facts


_PROFILE_KEYS = ("spring.profiles", "spring.config.activate.on-profile")


def _profile_names(value: str) -> list[str]:
    return [t for t in re.split(r"[\s,|&()]+", value) if t]


def _file_active_profiles(documents: list[list[tuple[str, str, int]]]) -> set[str]:
    """Profiles a file activates itself: ``spring.profiles.active``/``include`` in a document that
    belongs to no profile."""
    active: set[str] = set()
    for part in documents:
        if any(k in _PROFILE_KEYS or re.match(r"^spring\.profiles\[\d+\]$", k) for k, _v, _l in part):
            continue
        for key, value, _line in part:
            if re.match(r"^spring\.profiles\.(active|include)(\[\d+\])?$", key):
                active.update(_profile_names(value))
    return active


def _document_profile(part: list[tuple[str, str, int]], active: set[str]) -> str:
    """The profile a ``---`` document of a Spring YAML file applies to (``spring.config.activate.on-profile``,
    legacy ``spring.profiles``), or "" when it always applies: no profile, a negation (``!test``), the
    ``default`` profile, or a profile the file activates itself."""
    names = [n for k, v, _l in part if k in _PROFILE_KEYS or re.match(r"^(spring\.profiles|spring\.config\.activate"
                                                                       r"\.on-profile)\[\d+\]$", k)
             for n in _profile_names(v)]
    if not names or any(n.startswith("!") or n == "default" or n in active for n in names):
        return ""
    return ",".join(names)


READERS = (
    Reader("spring.name", "descriptor", 250, read_spring_config,
           patterns=(r"(?:application|bootstrap)[^/]*\.ya?ml", r"(?:application|bootstrap)[^/]*\.properties"),
           # an OpenAPI document named like a Spring file (a `bootstrap.yml` API of a bootstrap service) is none
           sniff=lambda path, head: not OPENAPI_DOCUMENT.search(head),
           line_based=True, shadows=("helm.template", "helm.values", "beats", "prometheus", "otel_collector", "grafana",
                                     "compose", "kubernetes", "spring.content")),
    # Any YAML whose top-level keys are Spring's (spring:, eureka:, server.port:): Spring Cloud Config
    # repositories (<app>.yml, shared/application.yml). An OpenAPI document is none (its `servers:` and
    # `info:` are the API's, its license URL no connection).
    Reader("spring.content", "descriptor", 450, read_spring_config, patterns=(r"[^/]*\.ya?ml",),
           sniff=lambda path, head: bool(_SPRING_HINT.search(head)) and not OPENAPI_DOCUMENT.search(head)
           and not MESSAGE_CATALOGUE.search(path),
           line_based=True),
)
