"""Maven ``pom.xml``: the artifact, its packaging and dependencies, and the image a container build
plugin makes of it (Jib and Spring Boot's build-image without a Dockerfile; the Spotify, fabric8 and JKube
plugins from the module's Dockerfile)."""

from __future__ import annotations

import re
from typing import Any, Callable

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import LineIndex, first_line, image_named
from repomodeler.paths import norm_path
from repomodeler.records import Fact


def read_pom(repo: str, path: str, text: str) -> list[Fact]:
    if "<!ENTITY" in text:
        raise ValueError("pom.xml declares entities; refusing to expand them")
    import xml.etree.ElementTree as ET  # loaded when a pom is read, not when the inventory imports the readers

    root = ET.fromstring(text)
    ns = {"m": root.tag[1:].split("}")[0]} if root.tag.startswith("{") else {}
    q = (lambda t: f"m:{t}") if ns else (lambda t: t)
    artifact = root.findtext(q("artifactId"), namespaces=ns)
    packaging = (root.findtext(q("packaging"), namespaces=ns) or "").strip().lower() or None
    # the parent whose build it inherits, and the application framework's build plugin the pom applies (Quarkus
    # builds an application of a module with no main method: its plugin, here or inherited, says it is one)
    parent = (root.findtext(f"{q('parent')}/{q('artifactId')}", namespaces=ns) or "").strip() or None
    plugins = sorted({(p.findtext(q("artifactId"), namespaces=ns) or "").strip()
                      for p in root.findall(f"{q('build')}/{q('plugins')}/{q('plugin')}", ns)} & APP_PLUGINS)
    facts = [fact("manifest", repo, path, first_line(text, "<artifactId>"), ecosystem="maven", name=artifact,
                   packaging=packaging, parent_pom=parent, app_plugin=",".join(plugins) or None)]
    artifacts = LineIndex(text, r"<artifactId>([^<]*)</artifactId>")
    # (and those of a profile the default build activates: `<activeByDefault>true`, or a property's absence,
    # `<name>!skipLens</name>`, as zipkin-server packages its UI module unless told to skip it)
    default_profiles = [p for p in root.findall(f"{q('profiles')}/{q('profile')}", ns)
                        if (p.findtext(f"{q('activation')}/{q('activeByDefault')}", namespaces=ns) or "").strip() == "true"
                        or (p.findtext(f"{q('activation')}/{q('property')}/{q('name')}", namespaces=ns) or "")
                        .strip().startswith("!")]
    deps = [*root.findall(f"{q('dependencies')}/{q('dependency')}", ns),
            *(d for p in default_profiles for d in p.findall(f"{q('dependencies')}/{q('dependency')}", ns))]
    for dep in deps:
        aid = dep.findtext(q("artifactId"), namespaces=ns)
        if aid:
            # A dependency of type war/ear bundles a deployable web application (an all-in-one image's
            # module); it is not a library the module links against.
            bundled = (dep.findtext(q("type"), namespaces=ns) or "").strip().lower() in ("war", "ear")
            facts.append(fact("manifest.bundle" if bundled else "manifest.dependency", repo, path,
                               artifacts.line(aid), ecosystem="maven", name=aid))
    facts.extend(_plugin_images(repo, path, text, root, q, ns))
    return facts


# Build plugins that package a module as a runnable application whatever its classes (Quarkus has no main method;
# Vert.x's plugin starts the verticle the pom names through Vert.x's launcher), or deploy it to a cluster as one
# (fabric8's and JKube's Kubernetes and OpenShift plugins: `mvn fabric8:deploy` runs the module as a workload).
APP_PLUGINS = frozenset({"quarkus-maven-plugin", "vertx-maven-plugin", "fabric8-maven-plugin", "kubernetes-maven-plugin",
                         "openshift-maven-plugin"})
# Container build plugins and where their configuration names the image they build: Jib's <to><image>,
# Spring Boot's build-image goal's <image><name>; and those building the module's Dockerfile: Spotify's
# docker-maven-plugin <imageName>, its dockerfile-maven-plugin <repository>, and fabric8's docker-maven-plugin
# (same artifact id) and Eclipse JKube's <images><image><name>.
IMAGE_PLUGINS: dict[str, tuple[str, tuple[tuple[str, ...], ...]]] = {
    "jib-maven-plugin": ("jib", (("to", "image"),)),
    "spring-boot-maven-plugin": ("spring-boot", (("image", "name"),)),
    "docker-maven-plugin": ("docker-maven", (("imageName",), ("images", "image", "name"))),
    "dockerfile-maven-plugin": ("docker-maven", (("repository",),)),
    "kubernetes-maven-plugin": ("docker-maven", (("images", "image", "name"),)),
    "openshift-maven-plugin": ("docker-maven", (("images", "image", "name"),)),
}


def _plugin_images(repo: str, path: str, text: str, root: Any, q: Callable[[str], str], ns: dict[str, str]) -> list[Fact]:
    """``manifest.image`` facts of the images the pom's container plugins build (in <build> or a
    profile's <build>; plugin management only configures plugins the modules declare).  Placeholders
    of the pom itself are filled in (``${project.artifactId}``, ``${artifactId}``, ``${project.name}``,
    ``${project.version}``, its <properties>); an image whose name still holds one is left out."""
    values: dict[str, str] = {}
    for tag in ("artifactId", "version", "groupId", "name"):
        v = (root.findtext(q(tag), namespaces=ns) or root.findtext(f"{q('parent')}/{q(tag)}", namespaces=ns)
             if tag in ("version", "groupId") else root.findtext(q(tag), namespaces=ns))
        if v and v.strip():
            values[f"project.{tag}"] = v.strip()
            if tag != "name":
                values[tag] = v.strip()
    props = root.find(q("properties"), ns)
    for p in list(props) if props is not None else []:
        if isinstance(p.tag, str) and p.text and p.text.strip():
            values.setdefault(p.tag.split("}")[-1], p.text.strip())

    def fill(value: str) -> str:
        for _ in range(5):  # a property naming another, a few levels deep
            done = re.sub(r"\$\{([^}]+)\}", lambda m: values.get(m.group(1).strip(), m.group(0)), value)
            if done == value:
                break
            if len(done) > 1000:
                return ""  # properties naming each other over and over (a hostile pom): no image name
            value = done
        return value

    out: list[Fact] = []
    plugins = [*root.findall(f"{q('build')}/{q('plugins')}/{q('plugin')}", ns),
               *root.findall(f"{q('profiles')}/{q('profile')}/{q('build')}/{q('plugins')}/{q('plugin')}", ns)]
    for plugin in plugins:
        aid = (plugin.findtext(q("artifactId"), namespaces=ns) or "").strip()
        if aid not in IMAGE_PLUGINS:
            continue
        tool, settings = IMAGE_PLUGINS[aid]
        configs = [*plugin.findall(q("configuration"), ns),
                   *plugin.findall(f"{q('executions')}/{q('execution')}/{q('configuration')}", ns)]
        for config in configs:
            for setting in settings:
                # (the element holding the name: fabric8 names one image per <image>, its recipe in its own <build>)
                scopes = config.findall("/".join(q(t) for t in setting[:-1]), ns) if len(setting) > 1 else [config]
                for scope in scopes:
                    element = scope.find(q(setting[-1]), ns)
                    raw = ((element.text if element is not None else "") or "").strip()
                    image = fill(raw)
                    if raw and image_named(image):
                        inner = setting[-1]
                        start = max(text.find(aid), 0)
                        line = first_line(text[start:], f"<{inner}>{raw}</{inner}>", 0)
                        line = text.count("\n", 0, start) + line if line else first_line(text, aid)
                        recipe = _recipe_folder(path, scope, q, ns, fill, aid) if tool == "docker-maven" else None
                        out.append(fact("manifest.image", repo, path, line, ecosystem="maven", image=image, tool=tool,
                                        recipe=recipe))
    return out


# Where a Dockerfile-building plugin finds its recipe: Spotify's <dockerDirectory>, its dockerfile plugin's
# <contextDirectory> and <dockerfile>, fabric8's and JKube's <build><dockerFile>, <dockerFileDir>, <contextDir>.
RECIPE_SETTINGS = (("dockerDirectory",), ("contextDirectory",), ("dockerfile",), ("build", "dockerFile"),
                   ("build", "dockerFileDir"), ("build", "contextDir"))


def _recipe_folder(path: str, scope: Any, q: Callable[[str], str], ns: dict[str, str],
                   fill: Callable[[str], str], plugin: str) -> str | None:
    """The repository folder of the Dockerfile a plugin builds the image from, when its configuration says
    where (relative to the module, or under ``${project.basedir}``; Spotify's dockerfile plugin builds the
    module's own folder unless told otherwise); None when it does not say, or points into the build's
    output (``${project.build.directory}``: a file the build writes, not one of the repository)."""
    module = path.rsplit("/", 1)[0] if "/" in path else ""
    for setting in RECIPE_SETTINGS:
        raw = (scope.findtext("/".join(q(t) for t in setting), namespaces=ns) or "").strip()
        if not raw:
            continue
        value = re.sub(r"\$\{(project\.)?basedir\}/?", "", fill(raw))
        if "$" in value or value.startswith("/") or value.split("/")[0] == "target":
            return None
        target = norm_path(f"{module}/{value}" if module else value)
        return (target.rsplit("/", 1)[0] if "/" in target else "") if setting[-1] in ("dockerfile", "dockerFile") \
            else target
    return module if plugin == "dockerfile-maven-plugin" else None


READERS = (
    Reader("maven", "descriptor", 160, read_pom, names=frozenset({"pom.xml"})),
)
