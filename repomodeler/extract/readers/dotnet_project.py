""".NET project files (``*.csproj``): the build unit, its package and project references."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_csproj(repo: str, path: str, text: str) -> list[Fact]:
    """A .NET project: one build unit named after the file, its package and project references.
    An Aspire app host (``Aspire.AppHost.Sdk`` / ``IsAspireHost``) is a deployment descriptor: its
    project references are the services it runs, not libraries it links.  An Azure Functions project
    (``<AzureFunctionsVersion>``, the Functions SDK or worker package) is a function app: the
    Functions host starts it, so it deploys whatever its classes are called (``functions``).
    The image the SDK's container publishing builds of it (``<ContainerRepository>``, formerly
    ``<ContainerImageName>``) is a ``manifest.image``: a deployment running that image runs this
    project, though no Dockerfile builds it."""
    if "<!ENTITY" in text:
        raise ValueError("project file declares entities; refusing to expand them")
    name = PurePosixPath(path).stem
    host = bool(re.search(r"Aspire\.AppHost\.Sdk|<IsAspireHost>\s*true", text, re.I))
    functions = bool(re.search(r"<AzureFunctionsVersion>|Include\s*=\s*\"Microsoft\.(NET\.Sdk\.Functions|Azure\.Functions\.Worker)\"",
                               text, re.I))
    facts = [fact("manifest", repo, path, 1, ecosystem="dotnet", name=name, aspire_host="true" if host else None,
                  functions="true" if functions else None)]
    for i, raw in enumerate(text.splitlines(), start=1):
        for kind, ref in re.findall(r"<(PackageReference|ProjectReference)\s+Include\s*=\s*\"([^\"]+)\"", raw):
            if kind == "ProjectReference":
                if host:
                    continue
                ref = PurePosixPath(ref.replace("\\", "/")).stem
            facts.append(fact("manifest.dependency", repo, path, i, ecosystem="dotnet", name=ref))
        for image in CONTAINER_IMAGE.findall(raw):
            # `$(AssemblyName)`: an MSBuild property this reader does not evaluate names no image
            if image and "$(" not in image.split("/")[-1]:
                facts.append(fact("manifest.image", repo, path, i, ecosystem="dotnet", image=image, tool="dotnet-sdk"))
    return facts


# The image `dotnet publish /t:PublishContainer` builds (the SDK's container support).
CONTAINER_IMAGE = re.compile(r"<(?:ContainerRepository|ContainerImageName)(?:\s[^>]*)?>\s*([^<\s]+)\s*</", re.I)


READERS = (
    Reader("dotnet_project", "descriptor", 180, read_csproj, patterns=(r"[^/]*\.csproj",)),
)
