"""Which settings a component's code reads, and which handed settings therefore are not its calls.

A deployment often hands the same settings to several of its processes alike: one ``environment:``
list copied into every service, a YAML anchor (``<<: *env``), one ``env_file`` for all. The addresses in
them are connections only of the processes whose code (or framework) reads them; drawing them for
every process that is handed them is the largest class of false links. Settings whose names say they
name the component's callers or where browsers are sent (allowed CORS origins, OAuth redirect URIs,
an ACME certificate authority) are no calls at all.

Both rules run before ``config.address-values`` and fill the shared ``withheld_settings``: the
(component, setting line) pairs the value rules must not turn into connections. An allowed origin
still says something true, the other way round: the browser app published there calls the component.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import LOCAL_HOSTS, SCHEME_TECH
from repomodeler.graph.naming import join_path, norm_path
from repomodeler.graph.packages import folder
from repomodeler.graph.values import expand_placeholders, parse_hosts
from repomodeler.records import Evidence, Fact, Unresolved

# Setting names that name who calls the component, or where a browser is sent, never whom it calls:
# allowed (CORS) origins, trusted origins and hosts, OAuth/OIDC redirect, callback and post-logout
# URIs, an identity server's registered clients' root URLs, and the certificate authority an ACME client asks
# for certificates (its own, not a dependency of the application).
CALLER_KEY = re.compile(
    r"(allowed[-_:.]?origins?|cors([-_:.]?(allowed|allow))?[-_:.]?(origins?|hosts?|domains?|whitelist|allow[-_:.]?list)"
    r"|(^|[-_:.])cors$|trusted[-_:.]?origins?|csrf[-_:.]?trusted|allowed[-_:.]?hosts"
    r"|redirect[-_:.]?ur[il]s?|callback[-_:.]?ur[il]s?|post[-_:.]?logout|logout[-_:.]?redirect"
    r"|acme[-_:.]?(ca|server|directory)|(^|[-_:.])acme$"
    # an identity server's registered clients and where they live (IdentityServerClients__Web__RootUrl,
    # Clients:PublicWeb:RootUrl): the applications that sign in through it, not ones it calls
    r"|(^|[-_:.])(identity[-_]?server[-_]?)?clients?([-_:.]+|__)[^-_:.]+([-_:.]+|__)(root[-_]?url|client[-_]?uri|home[-_]?url))", re.I)

# Of those, the settings listing the origins whose browser pages may call the component (CORS): a browser
# app of the system at such an origin is a caller of the component.
ORIGIN_KEY = re.compile(r"(allowed[-_:.]?origins?|cors[-_:.]?(allowed[-_:.]?)?origins?|trusted[-_:.]?origins?)", re.I)

# Properties of an OAuth/OIDC client registration (IdentityServer ``Client``, OpenIddict descriptors)
# that list the client's own addresses the identity server sends browsers to.
CALLER_PROPERTY = re.compile(r"^(RedirectUris|PostLogoutRedirectUris|FrontChannelLogoutUri|AllowedCorsOrigins"
                             r"|RedirectUri|PostLogoutRedirectUri|ClientUri)$")

# Settings a framework reads by itself (Spring Boot's relaxed binding of SPRING_*, SERVER_*...).
FRAMEWORK_PREFIXES = ("SPRING_", "SERVER_", "MANAGEMENT_", "EUREKA_", "LOGGING_", "ASPNETCORE_", "DOTNET_",
                      "DJANGO_", "CELERY_", "OTEL_")


# A string literal spelled like an environment variable's name (UPPER_SNAKE_CASE with one underscore or more).
ENV_NAME_LITERAL = re.compile(r"[\"'`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[\"'`]")


def canonical(name: str) -> str:
    """One spelling for a setting's name however it is written: ``ConnectionStrings__Db`` (the
    environment), ``ConnectionStrings:Db`` (.NET configuration), ``spring.datasource.url`` and
    ``SPRING_DATASOURCE_URL`` (Spring's relaxed binding) are each one name."""
    return re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_")


def _reads_setting(reads: set[str], name: str) -> bool:
    """Do these canonical reads take the setting `name` (itself, or a section above it: ``REDIS_``)?"""
    if name in reads:
        return True
    parts = name.split("_")
    return any("_".join(parts[:i]) + "_" in reads for i in range(1, len(parts)))



def env_file_candidates(path: str) -> tuple[str, ...]:
    """An env file compose is handed, then the committed templates standing for it when it is kept out
    of git (``.env.example``, ``.env.sample``, ``.env-dist``, ``TEMPLATE.env``; ``.env.dev-sample`` for ``.env.dev``).  The
    template kept for the container deployment (``.env.example_docker``, ``.env.docker.example``) goes
    before the plain one, which a host install copies."""
    here, _, name = path.rpartition("/")
    # (and last, one named without the dot: `env.example`, `env_template` a script renders into the .env)
    bare = f"{here}/{name[1:]}" if here else name[1:]
    return (path, *(f"{path}{s}{sep}docker" for s in (".example", ".sample", ".dist", ".template") for sep in "_.-"),
            *(f"{path}.docker{s}" for s in (".example", ".sample", ".dist", ".template")),
            *(f"{path}{s}" for s in (".example", ".sample", ".dist", ".template")),
            *(f"{path}{sep}{s}" for sep in "-_" for s in ("dist", "example", "sample", "template")),
            *((f"{bare}{sep}{s}" for sep in "._-" for s in ("example", "sample", "dist", "template", "tmpl"))
              if name.startswith(".") and len(name) > 1 else ()),
            # (named the other way round: `TEMPLATE.env`, `example.env` for the `.env`)
            *((f"{here}/{s}{name}" if here else f"{s}{name}" for s in ("TEMPLATE", "template", "example", "sample"))
              if name == ".env" else ()))


class SettingReadRules(ResolverBase):
    """``config.unread-settings`` and ``config.caller-settings``."""

    # ------------------------------------------------------------------ what code reads
    def _constant_values(self) -> dict[tuple[str, str], set[str]]:
        """(repository, constant name) -> the string values declared for it anywhere in the repository."""
        out: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in self.by_kind["const.string"]:
            if f.get("name") and f.get("value"):
                out[(f.repository, f.get("name") or "")].add(f.get("value") or "")
        return out

    def _code_reads(self) -> list[tuple[Fact, set[str]]]:
        """Each line of code reading settings, with the canonical names it reads: environment reads (by
        literal name, or by a constant holding the name), configuration reads (.NET keys, viper; a
        section read also as a prefix ending in ``_``), and helpers handed the variable's name."""
        consts = self._constant_values()
        out: list[tuple[Fact, set[str]]] = []
        for f in self.by_kind["env.read"]:
            if f.get("name"):
                out.append((f, {canonical(f.get("name") or "")}))
        for f in self.by_kind["env.read_ref"]:
            last = re.split(r"[.:]", f.get("expr") or "")[-1]
            out.append((f, {canonical(value) for value in consts.get((f.repository, last), ())}))
        for f in self.by_kind["config.read"]:
            names: set[str] = set()
            for word in re.findall(r"[A-Za-z_][A-Za-z0-9_.:\-]*", f.get("expr") or ""):
                names.add(canonical(word))
                # a section read (GetSection("Redis"), GetConnectionString("Orders")) takes every key under
                # it: kept as a prefix ending in "_" (see _reads_setting)
                names.add(canonical(word) + "_")
                if f.language == "csharp":
                    names.add("CONNECTIONSTRINGS_" + canonical(word))
            out.append((f, names))
        # A helper handed the variable's name (``mustMapEnv(&svc.addr, "CART_SERVICE_ADDR")``,
        # ``getEnv("ORDERS_URL", default)``): a literal spelled like an environment variable is read there.
        # (A constant declared with the name is no read: the code using the constant is, see env.read_ref.)
        for f in [*self.by_kind["value.invoke"], *self.by_kind["value.assign"]]:
            text = f.get("args") if f.kind == "value.invoke" else f.get("expr")
            if f.kind == "value.assign" and not re.match(r"^[\w.]+\s*\(", text or ""):
                continue
            out.append((f, {m.group(1) for m in ENV_NAME_LITERAL.finditer(text or "")}))
        return [(f, names) for f, names in out if names]

    def _reads_by_file(self) -> dict[tuple[str, str], set[str]]:
        """(repository, path) -> canonical names of the settings the file's code reads: environment
        reads (by literal name, or by a constant holding the name, or a helper handed the name),
        configuration reads (.NET keys, viper),
        fields filled from the environment (Go ``env:"X"`` / ``envconfig:"X"`` struct tags, pydantic
        ``BaseSettings`` fields), and ``${NAME}`` placeholders of configuration files (a Spring
        ``application.yml`` taking ``${DB_HOST}``)."""
        reads: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f, names in self._code_reads():
            reads[(f.repository, f.path)].update(names)
        for f in self.by_kind["config.tag"]:  # Go struct tags: `env:"POSTGRES_HOST"`, `envconfig:"BROKERS"`
            for m in re.finditer(r"\b(?:env|envconfig):\"([A-Za-z_][A-Za-z0-9_]*)", f.get("expr") or ""):
                reads[(f.repository, f.path)].add(canonical(m.group(1)))
        for f in self.by_kind["config.field"]:  # pydantic settings: a field `database_url` reads DATABASE_URL
            if f.get("name"):
                reads[(f.repository, f.path)].add(canonical(f.get("name") or ""))
        for f in self.by_kind["config.property"]:
            for m in re.finditer(r"\$\{([A-Za-z_][A-Za-z0-9_.\-]*)", f.get("value") or ""):
                reads[(f.repository, f.path)].add(canonical(m.group(1)))
            if f.get("name"):  # a property an environment variable of the same name overrides
                reads[(f.repository, f.path)].add(canonical(f.get("name") or ""))
        return reads

    def _imported_folders(self) -> dict[str, set[tuple[str, str]]]:
        """component -> (repository, folder) of the modules its code imports (Go import paths, Python
        dotted modules, relative JavaScript imports), to count reads made in shared library code."""
        out: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for f in self.by_kind["import"]:
            owner = self.owner_of(f.repository, f.path)
            module = f.get("module") or ""
            if not owner or not module:
                continue
            if module.startswith("."):
                path = norm_path(join_path(folder(f.path), module))
            elif f.language == "python":
                path = module.replace(".", "/")
            else:
                path = module
            out[owner].add((f.repository, path))
        return out

    def _member_tails(self) -> dict[tuple[str, str], dict[str, set[tuple[str, ...]]]]:
        """(repository, path) -> setting -> the keys of the configuration object it is read into (``("ORDERS_SERVICE",
        "SERVER_ORIGIN")`` for ``const SERVER_CONFIG = { ORDERS_SERVICE: { SERVER_ORIGIN: process.env.X } }``), the
        section above the member where it is known."""
        out: dict[tuple[str, str], dict[str, set[tuple[str, ...]]]] = defaultdict(lambda: defaultdict(set))
        sectioned = {(f.repository, f.path, f.line, f.get("name")) for f in self.by_kind["env.read_member"] if f.get("section")}
        for f in self.by_kind["env.read_member"]:
            if not f.get("name") or not f.get("member"):
                continue
            if not f.get("section") and (f.repository, f.path, f.line, f.get("name")) in sectioned:
                continue  # (the same read with its section known)
            keys = (f.get("section"), f.get("member")) if f.get("section") else (f.get("member"),)
            out[(f.repository, f.path)][canonical(f.get("name") or "")].add(tuple(k.strip("\"'`") for k in keys if k))
        return out

    def _member_refs(self) -> dict[str, set[tuple[str, ...]]]:
        """component -> the members of settings objects its own code uses (``SERVER_CONFIG.ORDERS_SERVICE.PORT``:
        ``("ORDERS_SERVICE", "PORT")``, the object's own name left out: it is imported under any name)."""
        out: dict[str, set[tuple[str, ...]]] = defaultdict(set)
        for f in self.by_kind["config.member_ref"]:
            owner = self.owner_of(f.repository, f.path)
            parts = tuple((f.get("expr") or "").split(".")[1:])
            if owner and parts:
                out[owner].add(parts)
        return out

    @staticmethod
    def _uses_member(refs: set[tuple[str, ...]], keys: set[tuple[str, ...]]) -> bool:
        """Does code using these members read a setting kept under one of these keys?  The member itself, the
        object holding it (``SERVER_CONFIG.ORDERS_SERVICE``), or a longer path ending in its keys."""
        return any(ref == k or k[:len(ref)] == ref or ref[-len(k):] == k for ref in refs for k in keys)

    def names_read_by(self) -> dict[str, set[str]]:
        """component -> canonical names of the settings its own code, its configuration files, and the
        modules of the system it imports read.  Of a shared module filling a configuration object from the
        environment, a component importing it reads the settings kept in the members its code uses, when its
        code uses members of such objects at all (every service importing one `server-config.ts` reads its own
        address from it, the gateway the addresses of all)."""
        by_file = self._reads_by_file()
        tails = self._member_tails()
        refs = self._member_refs()
        names: dict[str, set[str]] = defaultdict(set)
        library: dict[tuple[str, str], set[str]] = defaultdict(set)  # (repository, folder) -> names read there
        kept: dict[tuple[str, str], dict[str, set[tuple[str, ...]]]] = defaultdict(lambda: defaultdict(set))
        for (repo, path), read in by_file.items():
            owner = self.owner_of(repo, path)
            if owner:
                names[owner].update(read)
            for place in ((repo, folder(path)), (repo, path.rsplit(".", 1)[0])):  # (and a Python module file)
                library[place].update(read)
                for name, keys in tails.get((repo, path), {}).items():
                    kept[place][name].update(keys)
        for owner, imported in self._imported_folders().items():
            for repo, module in imported:
                parts = module.split("/")
                for i in range(len(parts)):  # the module path's tails: a Go import path ends in the folder
                    place = (repo, "/".join(parts[i:]))
                    read = library.get(place)
                    if read and owner in refs and place in kept:
                        read = {n for n in read if n not in kept[place] or self._uses_member(refs[owner], kept[place][n])}
                    if read:
                        names[owner].update(read)
        return names

    @staticmethod
    def _framework_reads(name: str) -> bool:
        """Is the setting one a framework reads by convention (Spring's SPRING_*, .NET's ASPNETCORE_*)?"""
        return canonical(name).startswith(FRAMEWORK_PREFIXES)

    # ------------------------------------------------------------------ config.unread-settings
    def _handed_settings(self) -> list[tuple[str, Fact]]:
        """(component, setting) pairs a deployment hands over: environment entries of compose services and
        workloads, and the lines of an ``env_file`` each service is given."""
        pairs: list[tuple[str, Fact]] = []
        for f in self.by_kind["config.env"]:
            if f.get("owner") and f.get("source") != "dockerfile":
                owner = self.config_owner(f)
                if owner:
                    pairs.append((owner, f))
        dotenv: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["config.env"]:
            if f.get("source") == "dotenv":
                dotenv[(f.repository, f.path)].append(f)
        for f in self.by_kind["compose.env_file"]:
            owner = self.alias.get((f.get("owner") or "").lower())
            if owner is None:
                continue
            path = self.env_file_path(f)  # type: ignore[attr-defined]
            for candidate in env_file_candidates(path):
                if (f.repository, candidate) in dotenv:
                    pairs.extend((owner, s) for s in dotenv[(f.repository, candidate)])
                    break
        return pairs

    def unread_settings(self) -> None:
        """A setting (same name, same value) one deployment file hands to several components whose code
        is in the system connects only those whose code reads it; the others, when their code reads
        settings we can see but not this one, keep no link from it and list it as unresolved."""
        groups: dict[tuple[str, str, str, str], set[tuple[str, Fact]]] = defaultdict(set)
        for owner, f in self._handed_settings():
            name, value = f.get("name") or "", (f.get("value") or "").strip()
            if name and value and (parse_hosts(value) or value.lower() in self.alias):
                groups[(f.repository, f.path, canonical(name), value)].add((owner, f))
        shared: list[tuple[str, str, set[tuple[str, Fact]], set[str]]] = []
        with_code: dict[str, bool] = {}
        for owner in sorted({o for handed in groups.values() for o, _f in handed}):
            comp = self.model.components[owner]
            with_code[owner] = comp.kind not in ("database", "cache", "broker") and self.has_code(comp)
        for (_repo, _path, name, value), handed in sorted(groups.items()):
            coded = {o for o, _f in handed if with_code[o]}
            if len(coded) >= 2:  # given to one process only: the deployment says it is that process's
                shared.append((name, value, handed, coded))
        if not shared:
            return
        reads = self.names_read_by()
        for name, value, handed, coded in shared:
            readers = {o for o in coded if _reads_setting(reads.get(o, set()), name) or self._framework_reads(name)}
            if not readers:
                continue  # no code we can see reads it: nothing tells the processes apart
            store = any(SCHEME_TECH.get(r.scheme or "") for r in parse_hosts(value))
            for owner, f in sorted(handed, key=lambda p: (p[0], p[1].order())):
                if owner not in coded or owner in readers or not reads.get(owner):
                    continue  # a third-party image, a reader, or code whose reads we cannot see
                if store and self._imports_store_client(owner, value):
                    continue  # a driver the component imports takes a store URL as it is
                self.withheld_settings[(owner, f.evidence)] = "unread"
                # the value stays out of the entry: later rules read addresses in unresolved values
                self.model.unresolved.append(Unresolved(
                    owner, f"setting {f.get('name')} handed to it, not read by its code", f.evidence))

    def _imports_store_client(self, owner: str, value: str) -> bool:
        techs = {SCHEME_TECH.get(r.scheme or "") for r in parse_hosts(value)} - {None, ""}
        return any(self.uses_technology(owner, t) for t in techs if t)

    # ------------------------------------------------------------------ config.secret-files
    def secret_files(self) -> None:
        """A secrets file (what a local-file secret store serves: Dapr's ``secretstores.local.file``,
        .NET user secrets) belongs to no component; the connection strings in it are the connections of
        the components whose code reads their keys (``Configuration["ConnectionStrings:CatalogDB"]``,
        ``GetConnectionString("CatalogDB")``), with the reading line and the secret's line as evidence."""
        secrets: dict[str, list[Fact]] = defaultdict(list)
        for f in self.by_kind["config.secret"]:
            secrets[canonical(f.get("name") or "")].append(f)
        if not secrets:
            return
        for f, names in sorted(self._code_reads(), key=lambda p: p[0].order()):
            owner = self.owner_of(f.repository, f.path)
            if owner is None or self.model.components[owner].kind not in ("service", "gateway"):
                continue
            for name in sorted(n for n in names if n in secrets):
                for s in secrets[name]:
                    if s.repository != f.repository:
                        continue
                    self._resolve_value(owner, s.get("value") or "", [f.evidence, s.evidence],
                                        env_name=s.get("name") or "", allow_external=False, origin=f.evidence,
                                        introduce=False)

    # ------------------------------------------------------------------ config.caller-settings
    def caller_settings(self) -> None:
        """Settings and code literals that name the component's callers or browser destinations (CORS
        allowed origins, redirect and post-logout URIs, an ACME CA) are withheld from the value rules."""
        for f in [*self.by_kind["config.env"], *self.by_kind["config.property"]]:
            name = f.get("name") or ""
            if CALLER_KEY.search(name) and (f.get("value") or "").strip():  # (`${CERT_ACME_CA}`: expanded later)
                self.withheld_settings[("", f.evidence)] = "names callers"
        self._origin_callers()
        # Code: a literal assigned to a variable used only to build an OAuth client's redirect and
        # post-logout URIs (``var clientUrl = config.GetValue("ClientUrl", "https://web:5000")`` then
        # ``RedirectUris = { $"{clientUrl}/signin-oidc" }``), or assigned to such a property itself.
        assigns: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["value.assign"]:
            assigns[(f.repository, f.path)].append(f)
        uses: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["value.invoke"]:
            uses[(f.repository, f.path)].append(f)
        for f in [*self.by_kind["string.url"], *self.by_kind["string.hostport"]]:
            here = assigns.get((f.repository, f.path), [])
            for a in here:
                if a.line != f.line or (f.get("value") or "") not in (a.get("expr") or ""):
                    continue
                var = a.get("name") or ""
                if CALLER_PROPERTY.match(var):
                    self.withheld_settings[("", f.evidence)] = "names callers"
                    continue
                word = re.compile(rf"(?<![\w.]){re.escape(var)}(?!\w)")
                holders = [b for b in here if b is not a and word.search(b.get("expr") or "")]
                called = [u for u in uses.get((f.repository, f.path), []) if word.search(u.get("args") or "")]
                if holders and not called and all(CALLER_PROPERTY.match(b.get("name") or "") for b in holders):
                    self.withheld_settings[("", f.evidence)] = "names callers"

    def _origin_callers(self) -> None:
        """A browser app of the system at an origin a component allows (``CORS_ALLOWED_ORIGINS=
        http://localhost:8080``, the port the web app publishes) calls that component: the setting's line
        is the evidence. Only for components whose own code reads the setting or reads nothing we can see
        (a shared ``env_file`` counts as the value rules count it: not for stores and third-party images)."""
        read = self.names_read()
        pairs = [(o, f) for o, f in self._handed_settings() if f.get("source") != "dotenv"]
        pairs += self.env_file_settings()
        self.index_served_ports()
        for owner, f in sorted(set(pairs), key=lambda p: (p[0], p[1].order())):
            name = f.get("name") or ""
            comp = self.model.components[owner]
            if not ORIGIN_KEY.search(name) or comp.kind not in ("service", "gateway"):
                continue
            if owner in read and name not in read[owner]:
                continue  # its code reads settings, not this one
            value = f.get("value") or ""
            if "${" in value:  # CORS_ALLOWED_ORIGINS: ${WEB_URL}, set by the stack's variables
                value = expand_placeholders(value, lambda n: self.setting(owner, f.repository, n))
            for ref in parse_hosts(value):
                target = self.alias.get(ref.host)
                if target is None and ref.host in LOCAL_HOSTS:
                    target = self.served_on(ref.port, owner)
                if target and target != owner and self.model.components[target].kind == "webapp":
                    self.connect(target, owner, "http", [f.evidence], attributes={"via": f"allowed origin ({name})"})

    def withheld(self, owner: str, evidence: Evidence) -> bool:
        """Must the value rules leave this setting (or literal) of `owner` out?"""
        return (owner, evidence) in self.withheld_settings or ("", evidence) in self.withheld_settings
