"""Gradle build scripts: the build unit, the artifacts it depends on, and the image a container
build plugin makes of it without a Dockerfile (Jib, Spring Boot's ``bootBuildImage``)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import image_named
from repomodeler.records import Fact


def read_gradle(repo: str, path: str, text: str) -> list[Fact]:
    project = PurePosixPath(path).parent.name  # a subproject's name, by default its folder's
    facts = [fact("manifest", repo, path, 1, ecosystem="gradle", name=None)]
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.search(r"(?:implementation|api|compile|runtimeOnly)\s*\(?\s*['\"]([^:'\"]+):([^:'\"]+)", raw)
        if m:
            facts.append(fact("manifest.dependency", repo, path, i, ecosystem="maven", name=m.group(2)))
        # another project of the build: `implementation project(":customer-service:customer-service-restapi")`
        p = re.search(r"(?:implementation|api|compile|runtimeOnly)\s*\(?\s*project\s*\(\s*(?:path\s*:\s*)?['\"]:?([^'\"]+)['\"]",
                      raw)
        if p:
            facts.append(fact("manifest.dependency", repo, path, i, ecosystem="gradle",
                              name=p.group(1).rsplit(":", 1)[-1]))
    for line, tool, image in _plugin_images(text):
        if project:
            image = re.sub(r"\$\{\s*project\.name\s*\}|\$project\.name\b", project, image)
        if image_named(image):
            facts.append(fact("manifest.image", repo, path, line, ecosystem="gradle", image=image, tool=tool))
    return facts


# A setting and the string it is given: `image = "x"`, `image.set("x")`, `image 'x'`, `jib.to.image = 'x'`.
_SETTING = re.compile(r"""^\s*([A-Za-z_][\w.]*?)\s*(?:=|\.set\s*\(|\(|(?=['"]))\s*(?:'''|\"\"\"|'|")([^'"\n]*)['"]""")


def _plugin_images(text: str) -> list[tuple[int, str, str]]:
    """(line, tool, image) of the image settings of Jib (``jib { to { image = ... } }``,
    ``jib.to.image = ...``) and of Spring Boot's ``bootBuildImage { imageName = ... }`` (also
    ``imageName.set(...)``, ``tasks.named("bootBuildImage") { ... }``).  Blocks are followed by
    their braces, skipping strings (whose ``${...}`` hold braces) and comments."""
    out: list[tuple[int, str, str]] = []
    if not re.search(r"\bjib\b|bootBuildImage", text, re.I):
        return out  # the common case: no container plugin configured
    stack: list[list[str]] = []  # the path of each open block: ["jib"], ["to"], ['tasks.named("bootBuildImage")']
    stmt_start, line, stmt_line, i, n = 0, 1, 1, 0, len(text)

    def statement(end: int) -> str:
        return text[stmt_start:end]

    def setting(stmt: str, at: int) -> None:
        m = _SETTING.match(stmt)
        if not m:
            return
        parts = [p for p in m.group(1).split(".") if p]
        path = [p for block in stack for p in block] + parts
        labels = " ".join(path).lower()
        if [p.lower() for p in path[-3:]] == ["jib", "to", "image"]:
            out.append((at, "jib", m.group(2).strip()))
        elif path[-1] == "imageName" and "bootbuildimage" in labels:
            out.append((at, "spring-boot", m.group(2).strip()))

    while i < n:
        c = text[i]
        if c == "\n":
            setting(statement(i), stmt_line)
            line += 1
            i += 1
            stmt_start, stmt_line = i, line
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            setting(statement(i), stmt_line)
            i = n if end < 0 else end
            stmt_start = i
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = stmt_start = end
            stmt_line = line
            continue
        if c in "'\"":
            quote = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                j += 2 if text[j] == "\\" else 1
            j = min(j + len(quote), n)
            line += text.count("\n", i, j)
            i = j
            continue
        if c == "{":
            label = statement(i).strip()
            stack.append(label.split(".") if re.fullmatch(r"[\w.]+", label) else [label])
            i += 1
            stmt_start, stmt_line = i, line
            continue
        if c in "};":
            setting(statement(i), stmt_line)
            if c == "}" and stack:
                stack.pop()
            i += 1
            stmt_start, stmt_line = i, line
            continue
        i += 1
    setting(statement(n), stmt_line)
    return out


READERS = (
    Reader("gradle", "descriptor", 170, read_gradle, patterns=(r"build\.gradle(?:\.kts)?",), line_based=True),
    # settings.gradle lists the build's modules; listed, not read.
    Reader("gradle.settings", "descriptor", 171, None, patterns=(r"settings\.gradle(?:\.kts)?",)),
)
