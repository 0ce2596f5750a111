"""ASP.NET Core settings (``appsettings[.Environment].json``) and Ocelot API gateway routes
(``ocelot[.Environment].json``): every setting as a property named the .NET way."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import flatten_yaml, load_yaml_documents
from repomodeler.records import Fact

# ASP.NET Core loads appsettings.json, then appsettings.{Environment}.json; the environment is
# "Production" unless ASPNETCORE_ENVIRONMENT/DOTNET_ENVIRONMENT says otherwise, so both are what a
# deployed service reads.  Other environments (Development, Docker, Staging...) are profiles: like a
# Spring profile they may link to components the system has, never introduce new ones.
DOTNET_DEFAULT_ENVIRONMENTS = frozenset({"", "production"})
# A string (kept), or what YAML would not read: a comment, a comma before a closing bracket.
_JSON_COMMENT_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|,(?=(?:\s|//[^\n]*|/\*.*?\*/)*[}\]])', re.S)


def _json_as_yaml(text: str) -> str:
    """JSON as the .NET configuration reader accepts it (comments, trailing commas, a byte-order
    mark, tabs) turned into YAML flow text with every value on the line it was written on."""
    def blank(m: re.Match[str]) -> str:
        token = m.group()
        return token if token.startswith('"') else re.sub(r"[^\n]", " ", token)

    return _JSON_COMMENT_OR_STRING.sub(blank, text.lstrip("\ufeff")).replace("\t", " ")


def json_settings(text: str, sep: str) -> list[tuple[str, str, int]]:
    """(flattened key, value, line) of every setting of a JSON configuration document."""
    entries: list[tuple[str, str, int]] = []
    for doc in load_yaml_documents(_json_as_yaml(text)):
        flatten_yaml(doc, "", entries, sep)
    return entries


def read_dotnet_settings(repo: str, path: str, text: str) -> list[Fact]:
    """``appsettings[.Environment].json`` (and Ocelot's ``ocelot[.Environment].json`` routes): every
    setting as a property named the .NET way (``ConnectionStrings:OrdersDb``, ``RabbitMQ:Host``,
    ``Routes[0]:DownstreamHostAndPorts[0]:Host``), at its line."""
    m = re.match(r"^(?:appsettings|ocelot)\.(.+)\.json$", PurePosixPath(path).name, re.I)
    environment = m.group(1) if m else ""
    profile = "" if environment.lower() in DOTNET_DEFAULT_ENVIRONMENTS else environment
    return [fact("config.property", repo, path, line, name=key, value=value, profile=profile)
            for key, value, line in json_settings(text, ":")]


READERS = (
    Reader("appsettings", "descriptor", 340, read_dotnet_settings,
           patterns=(r"(?:appsettings|ocelot)(?:\.[^/]+)?\.json",), shadows=("appsettings.other",)),
    # appsettings-local.json, ocelot-routes.json: listed, never read as settings.
    Reader("appsettings.other", "descriptor", 341, None, patterns=(r"appsettings[^/]*\.json", r"ocelot[^/]*\.json")),
)
