"""Makefile recipes building Go programs: the binary name each package is built as."""

from repomodeler.extract.readers.makefile import read_makefile
from repomodeler.graph.values import parse_hosts

MAKEFILE = """GO_BUILD_VARS= GO111MODULE=on CGO_ENABLED=0

manager: generate
\t${GO_BUILD_VARS} go build -ldflags $(GO_LDFLAGS) -o bin/keda cmd/operator/main.go

adapter: generate
\t@${GO_BUILD_VARS} go build -o bin/keda-adapter ./cmd/adapter

plugins:
\tgo build -buildmode=plugin -o bin/ext.so ./plugins/ext

tools:
\tgo build -o bin/tool github.com/acme/tool

binary:
\t@CGO_ENABLED=0 GOOS=linux go build -trimpath --ldflags $(LDFLAGS) -o minio-operator ./cmd/operator
"""


def builds():
    return {(f.get("binary"), f.get("code"), f.line) for f in read_makefile("r", "Makefile", MAKEFILE)
            if f.kind == "program.build"}


def test_go_builds_name_their_packages_binaries_with_the_recipe_line():
    assert ("keda", "cmd/operator", 4) in builds()
    assert ("keda-adapter", "cmd/adapter", 7) in builds()
    assert ("minio-operator", "cmd/operator", 16) in builds()  # (Go's --flag spelling: --ldflags takes a value)


def test_plugins_and_import_paths_are_not_programs_of_the_repository():
    names = {b for b, _c, _l in builds()}
    assert "ext" not in names and "ext.so" not in names
    assert "tool" not in names  # an import path, not a folder of this repository


def test_a_cluster_dns_name_with_the_namespace_filled_in_at_run_time_names_its_service():
    assert [(r.host, r.port) for r in parse_hosts("keda-operator.%s.svc.cluster.local:9666")] == \
        [("keda-operator.namespace.svc.cluster.local", 9666)]
    assert [r.host for r in parse_hosts("http://api.{ns}.svc:80/x")] == ["api.namespace.svc"]


def test_a_build_of_the_current_folder_names_no_package_and_breaks_nothing():
    # `go build -ldflags "..."` with no package builds the folder it runs in: nothing to name, and the rest of the
    # Makefile is still read
    text = ('local:\n\tCGO_ENABLED=0 go build -ldflags "-s -w -X main.Version=local"\n'
            'agent:\n\tgo build -o bin/agent ./cmd/agent\n')
    found = {(f.get("binary"), f.get("code")) for f in read_makefile("r", "Makefile", text) if f.kind == "program.build"}
    assert found == {("agent", "cmd/agent")}


def test_docker_build_recipes_name_the_image_and_the_folder_of_its_code() -> None:
    text = ("build:\n"
            "\tdocker build --tag shop_worker --target worker --cache-from shop_base:latest .\n"
            "\tdocker build -t ghcr.io/acme/api:1.2 -f services/api/Dockerfile .\n"
            "\tdocker build -t $(IMAGE) .\n")
    images = [(f.get("image"), f.get("module"), f.get("tool"), f.line)
              for f in read_makefile("shop", "Makefile", text) if f.kind == "manifest.image"]
    assert images == [("shop_worker", None, "makefile", 2), ("ghcr.io/acme/api", "services/api", "makefile", 3)]


def test_a_build_followed_by_another_command_takes_its_context_from_its_own_words() -> None:
    # `|| exit 255` (and a redirection) follow the build: the context is the folder before them, not `255`
    text = ("images:\n"
            "\tDOCKER_BUILDKIT=1 docker build --pull --network host -t $(REGISTRY)/tator_online:$(GIT_VERSION) "
            "services/api || exit 255\n"
            "\tdocker build -t acme/ui ui > build.log 2>&1\n")
    images = [(f.get("image"), f.get("module")) for f in read_makefile("r", "Makefile", text)
              if f.kind == "manifest.image"]
    assert images == [("tator_online", "services/api"), ("acme/ui", "ui")]
