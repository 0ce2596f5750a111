"""Dockerfile reading: the monorepo package a build stage makes, and which stages each stage builds on."""

from repomodeler.extract.readers.compose import read_compose
from repomodeler.extract.readers.dockerfile import read_dockerfile

RECIPE = """FROM node:20-alpine AS base
WORKDIR /app
COPY package.json pnpm-lock.yaml ./
COPY apps/api ./apps/api
COPY ./ /src/
RUN pnpm install --frozen-lockfile

FROM base AS builder
ARG APP=@acme/api
RUN npx turbo prune --scope=$APP --docker && \\
    pnpm --filter "@acme/api..." build
WORKDIR apps/api

FROM node:20-alpine
COPY --from=builder /app/out /app
RUN --mount=type=cache,from=base,target=/cache npm ci -w apps/api
CMD ["node", "apps/api/dist/main.js"]
"""


def signals(text: str) -> set[tuple[int, str, str, str]]:
    return {(f.line, f.get("how") or "", f.get("target") or "", f.get("stage") or "")
            for f in read_dockerfile("acme", "Dockerfile", text) if f.kind == "docker.workspace_target"}


def test_package_selectors_working_folders_and_copied_folders_by_stage() -> None:
    assert signals(RECIPE) == {
        (2, "workdir", "/app", "base"),
        (3, "copy", "package.json", "base"), (3, "copy", "pnpm-lock.yaml", "base"),
        (4, "copy", "apps/api", "base"), (5, "copy", ".", "base"),  # the whole context
        (10, "package", "@acme/api", "builder"),       # the ARG filled in; pnpm's "with dependencies" dots dropped
        (12, "workdir", "/app/apps/api", "builder"),  # relative to the working folder of the stage built on
        (16, "package", "apps/api", "2"),            # an unnamed stage is known by its index
    }


def test_stages_and_what_they_build_on() -> None:
    stages = {(f.get("stage"), f.get("needs") or "") for f in read_dockerfile("acme", "Dockerfile", RECIPE)
              if f.kind == "docker.stage"}
    assert stages == {("base", ""), ("builder", "base"), ("2", "base,builder")}  # FROM, COPY --from, RUN --mount from


def test_each_tool_names_its_package() -> None:
    commands = {
        "turbo prune @acme/web": "@acme/web", "npx -q turbo@2.1.0 prune --scope=web --docker": "web", "turbo prune web --docker": "web",
        "pnpm -F api build": "api", "pnpm deploy --filter=@acme/api /out": "@acme/api",
        "npm run build -w apps/api": "apps/api", "npm ci --workspace=@acme/api": "@acme/api",
        "yarn workspace @acme/api build": "@acme/api", "yarn workspaces focus @acme/api --production": "@acme/api",
        "nx build api": "api", "npx nx run api:build": "api", "turbo run build --filter=web...": "web",
        "bun install --filter './apps/api'": "apps/api",
    }
    for command, package in commands.items():
        assert signals(f"FROM node:20\nRUN {command}\n") == {(2, "package", package, "0")}, command


def test_selectors_of_several_packages_name_none() -> None:
    for command in ("pnpm --filter '!web' build", "pnpm --filter './packages/*' build", "npm ci --workspaces",
                    "pnpm run build", "turbo run build", "nx run-many -t build", "yarn workspaces foreach run build"):
        assert signals(f"FROM node:20\nRUN {command}\n") == set(), command


def test_compose_records_the_build_target() -> None:
    text = "services:\n  api:\n    build:\n      context: .\n      target: backend\n  web:\n    build: ./web\n"
    services = {f.get("name"): f.get("build_target") for f in read_compose("acme", "docker-compose.yml", text)
                if f.kind == "compose.service"}
    assert services == {"api": "backend", "web": None}


def test_compose_long_port_syntax_reads_as_the_short_one() -> None:
    text = ("services:\n  chat:\n    image: acme/chat:1\n    ports:\n      - name: http\n        target: 80\n"
            "        published: 80\n        app_protocol: http\n      - target: 3478\n        published: \"3478\"\n"
            "        protocol: udp\n      - \"8443:443\"\n      - target: 9000\n")
    chat = next(f for f in read_compose("acme", "compose.yaml", text) if f.kind == "compose.service")
    assert chat.get("ports") == "80:80,3478:3478/udp,8443:443,9000"


def test_json_form_copy_after_flags_keeps_names_with_spaces() -> None:
    """`COPY --chown=node:node ["LICENSES/Community License.md", "LICENSE.md"]`: one source with a space in
    its name, one target; not words of the JSON text."""
    facts = read_dockerfile("acme", "Dockerfile",
                            'FROM node:22\nCOPY --chown=node:node ["LICENSES/Community License.md", "LICENSE.md"]\n')
    copies = [(f.get("sources"), f.get("target")) for f in facts if f.kind == "docker.copy"]
    assert copies == [("LICENSES/Community License.md", "LICENSE.md")]
    assert ("copy", "LICENSES/Community License.md") in {(f.get("how"), f.get("target")) for f in facts
                                                         if f.kind == "docker.workspace_target"}


def test_env_from_a_build_argument_holds_its_default() -> None:
    # `ARG DB_TYPE=sqlite` then `ENV DB_TYPE=$DB_TYPE`: the image's environment holds the argument's default; a
    # variable the recipe never sets stays as written
    recipe = "FROM node:20\nARG DB_TYPE=sqlite\nENV DB_TYPE=$DB_TYPE\nENV PATH=/app/bin:$PATH\n"
    env = {(f.get("name"), f.get("value")) for f in read_dockerfile("acme", "Dockerfile", recipe) if f.kind == "config.env"}
    assert env == {("DB_TYPE", "sqlite"), ("PATH", "/app/bin:$PATH")}


def test_base_image_behind_a_platform_flag() -> None:
    """A multi-architecture recipe names its base after `--platform=...`: the image is that name, not the flag
    (the base image says what a stage is: a Rust builder, a web server, a database)."""
    recipe = ("FROM --platform=$BUILDPLATFORM docker.io/library/rust:1.80-slim AS builder\n"
              "RUN cargo build --release\n"
              "FROM --platform=linux/amd64 nginx:1.27-alpine\n"
              "COPY --from=builder /build/dist /usr/share/nginx/html\n")
    froms = [(f.line, f.get("image")) for f in read_dockerfile("acme", "Dockerfile", recipe) if f.kind == "docker.from"]
    assert froms == [(1, "docker.io/library/rust:1.80-slim"), (3, "nginx:1.27-alpine")]
