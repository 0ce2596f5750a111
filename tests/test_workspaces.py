"""Monorepos decomposed into their packages: a TypeScript workspace and a Maven multi-module build.

The shapes follow real repositories checked by hand (README, "Monorepos"): a pnpm workspace with
apps, API/database/UI packages and shared tooling configs (create-t3-turbo), and a Maven
reactor of Spring Boot applications over common, persistence and security modules (macrozheng/mall).
"""

from __future__ import annotations

import json

from rules_harness import resolve_files


def _pkg(name: str, deps: dict[str, str] | None = None, dev: dict[str, str] | None = None, **extra: object) -> str:
    data: dict[str, object] = {"name": name, "private": True, **extra}
    if deps:
        data["dependencies"] = deps
    if dev:
        data["devDependencies"] = dev
    return json.dumps(data, indent=2) + "\n"


def edges(model) -> dict[tuple[str, str], list[tuple[str, int]]]:
    names = {cid: c.name for cid, c in model.components.items()}
    return {(names[c.source], names[c.target]): sorted((e.path, e.line) for e in c.evidence)
            for c in model.connections.values() if c.protocol == "library"}


def ts_workspace() -> dict[str, str]:
    tooling = {"@acme/eslint-config": "workspace:*", "@acme/prettier-config": "workspace:*"}
    return {
        "package.json": _pkg("acme", dev={"turbo": "^2"}),
        "pnpm-workspace.yaml": "packages:\n  - apps/*\n  - packages/*\n  - tooling/*\n",
        "apps/web/package.json": _pkg("@acme/web", {"@acme/api": "workspace:*", "@acme/db": "workspace:*",
                                                   "@acme/ui": "workspace:*", "next": "15"},
                                      tooling, scripts={"dev": "next dev", "start": "next start"}),
        "apps/web/src/app/page.tsx": ('import { Button } from "@acme/ui";\nimport { appRouter } from "@acme/api";\n'
                                      "export default function Page() { return <Button />; }\n"),
        # a mobile app that imports only the API's types: a devDependency, still a build-time edge
        "apps/mobile/package.json": _pkg("@acme/mobile", {"@acme/ui": "workspace:*", "expo": "54"},
                                         {"@acme/api": "workspace:*", **tooling},
                                         scripts={"dev": "expo start"}, main="index.ts"),
        "apps/mobile/index.ts": 'import type { AppRouter } from "@acme/api";\nexport const x = 1;\n',
        "packages/api/package.json": _pkg("@acme/api", {"@acme/db": "workspace:*"}, tooling, main="src/index.ts"),
        "packages/api/src/index.ts": 'import { db } from "@acme/db";\nexport const appRouter = { db };\n',
        "packages/api/src/router/post.ts": 'import { db } from "@acme/db";\nexport const post = () => db;\n',
        "packages/db/package.json": _pkg("@acme/db", {"pg": "8"}, tooling, main="src/index.ts"),
        "packages/db/src/index.ts": "export const db = {};\n",
        "packages/ui/package.json": _pkg("@acme/ui", {"react": "19"}, tooling),
        "packages/ui/src/button.tsx": "export function Button() { return <button />; }\n",
        # shared configs: named only in devDependencies, nothing starts them (index.js is the exported config)
        "tooling/prettier/package.json": _pkg("@acme/prettier-config", {"prettier": "3"}, exports={".": "./index.js"}),
        "tooling/prettier/index.js": "export default { singleQuote: false };\n",
        "tooling/eslint/package.json": _pkg("@acme/eslint-config", {"eslint": "9"}),
        "tooling/eslint/base.ts": "export default [];\n",
    }


def test_typescript_workspace_packages_and_their_dependency_edges() -> None:
    model = resolve_files({"acme": ts_workspace()})
    kinds = {c.name: c.kind for c in model.components.values() if c.kind != "user"}
    assert kinds == {"web": "service", "mobile": "service", "api": "library", "db": "library", "ui": "library"}
    got = edges(model)
    assert set(got) == {("web", "api"), ("web", "db"), ("web", "ui"), ("mobile", "api"), ("mobile", "ui"), ("api", "db")}
    assert got[("mobile", "api")] == [("apps/mobile/package.json", 13)]  # its line in devDependencies
    assert got[("api", "db")] == [("packages/api/package.json", 6)]


def test_a_package_named_only_in_dev_dependencies_but_started_is_still_a_component() -> None:
    files = ts_workspace()
    files["tooling/prettier/package.json"] = _pkg("@acme/prettier-config", scripts={"start": "node index.js"})
    model = resolve_files({"acme": files})
    assert any(c.name == "prettier" and c.kind == "service" for c in model.components.values())


def _pom(artifact: str, deps: list[str] = (), modules: list[str] = ()) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<project>", "  <modelVersion>4.0.0</modelVersion>",
             "  <groupId>com.example.shop</groupId>", f"  <artifactId>{artifact}</artifactId>"]
    if modules:
        lines += ["  <packaging>pom</packaging>", "  <modules>", *[f"    <module>{m}</module>" for m in modules],
                  "  </modules>"]
    if deps:
        lines.append("  <dependencies>")
        for d in deps:
            lines += ["    <dependency>", "      <groupId>com.example.shop</groupId>", f"      <artifactId>{d}</artifactId>",
                      "    </dependency>"]
        lines.append("  </dependencies>")
    return "\n".join([*lines, "</project>"]) + "\n"


def _boot(module: str, package: str, cls: str) -> dict[str, str]:
    return {f"{module}/src/main/java/com/example/shop/{package}/{cls}.java":
            f"package com.example.shop.{package};\n\nimport org.springframework.boot.autoconfigure.SpringBootApplication;\n\n"
            f"@SpringBootApplication\npublic class {cls} {{\n    public static void main(String[] args) {{}}\n}}\n"}


def _class(module: str, package: str, cls: str, imports: list[str] = ()) -> dict[str, str]:
    body = "".join(f"import com.example.shop.{i};\n" for i in imports)
    return {f"{module}/src/main/java/com/example/shop/{package}/{cls}.java":
            f"package com.example.shop.{package};\n\n{body}\npublic class {cls} {{}}\n"}


def maven_reactor() -> dict[str, str]:
    return {
        "pom.xml": _pom("shop", modules=["shop-common", "shop-model", "shop-security", "shop-admin", "shop-portal"]),
        "shop-common/pom.xml": _pom("shop-common"),
        **_class("shop-common", "common/api", "CommonResult"),
        "shop-model/pom.xml": _pom("shop-model", ["shop-common"]),
        **_class("shop-model", "model", "Order", ["common.api.CommonResult"]),
        "shop-security/pom.xml": _pom("shop-security", ["shop-common"]),
        **_class("shop-security", "security/config", "SecurityConfig", ["common.api.CommonResult"]),
        "shop-admin/pom.xml": _pom("shop-admin", ["shop-model", "shop-security"]),
        **_boot("shop-admin", "admin", "AdminApplication"),
        **_class("shop-admin", "admin/service", "OrderService", ["model.Order", "security.config.SecurityConfig"]),
        "shop-portal/pom.xml": _pom("shop-portal", ["shop-model", "shop-security"]),
        **_boot("shop-portal", "portal", "PortalApplication"),
        **_class("shop-portal", "portal/service", "CartService", ["model.Order"]),
    }


def test_maven_modules_applications_libraries_and_dependency_edges() -> None:
    model = resolve_files({"shop": maven_reactor()})
    kinds = {c.name: c.kind for c in model.components.values() if c.kind != "user"}
    assert kinds == {"shop-admin": "service", "shop-portal": "service", "shop-common": "library",
                     "shop-model": "library", "shop-security": "library"}
    got = edges(model)
    assert set(got) == {("shop-model", "shop-common"), ("shop-security", "shop-common"), ("shop-admin", "shop-model"),
                        ("shop-admin", "shop-security"), ("shop-portal", "shop-model"), ("shop-portal", "shop-security")}
    assert got[("shop-admin", "shop-security")] == [("shop-admin/pom.xml", 13)]  # its <artifactId> line


def test_a_chain_of_single_use_libraries_folds_into_the_application() -> None:
    files = ts_workspace()
    # api used only by web, db only by api, ui only by web: all three are parts of web
    files["apps/web/package.json"] = _pkg("@acme/web", {"@acme/api": "workspace:*", "@acme/ui": "workspace:*"},
                                          scripts={"start": "next start"})
    files["apps/mobile/package.json"] = _pkg("@acme/mobile", {"expo": "54"}, scripts={"start": "expo start"})
    model = resolve_files({"acme": files})
    kinds = {c.name: c.kind for c in model.components.values() if c.kind != "user"}
    assert kinds == {"web": "service", "mobile": "service"}
    web = next(cid for cid, c in model.components.items() if c.name == "web")
    parts = {p.attributes["path"]: p.attributes.get("package") for p in model.parts.values() if p.parent == web}
    assert {"packages/api": "@acme/api", "packages/db": "@acme/db", "packages/ui": "@acme/ui"}.items() <= parts.items()
    assert not edges(model)


def test_packages_that_install_commands_are_programs() -> None:
    files = ts_workspace()
    # a workspace CLI: `bin` installs the command, no start script and no index file
    files["apps/cli/package.json"] = _pkg("@acme/cli", {"@acme/api": "workspace:*"}, bin={"acme": "dist/main.js"})
    files["apps/cli/src/commands.ts"] = 'import { appRouter } from "@acme/api";\nexport const run = () => appRouter;\n'
    model = resolve_files({"acme": files})
    assert any(c.name == "cli" and c.kind == "service" for c in model.components.values())
    assert ("cli", "api") in edges(model)
    # a Python project whose only way in is its console scripts
    py = {"tool/pyproject.toml": '[project]\nname = "acme-tool"\ndependencies = ["click"]\n\n'
                                 '[project.scripts]\nacme-tool = "acme_tool.cli:main"\n',
          "tool/acme_tool/__init__.py": "", "tool/acme_tool/cli.py": "import click\n\ndef main():\n    pass\n",
          "tool/acme_tool/core.py": "def work():\n    return 1\n"}
    model = resolve_files({"tools": py})
    assert [c.name for c in model.components.values() if c.kind == "service"] == ["tool"]  # named by its folder


def test_a_dev_tool_with_a_command_is_still_tooling() -> None:
    files = ts_workspace()
    files["tooling/prettier/package.json"] = _pkg("@acme/prettier-config", bin={"fmt": "index.js"})
    model = resolve_files({"acme": files})
    assert not any(c.name == "prettier" for c in model.components.values())
