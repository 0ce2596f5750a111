"""GoReleaser builds name the binaries a Go repository releases: the package folder -> binary name."""

from repomodeler.extract.readers.goreleaser import read_goreleaser

CONFIG = """\
builds:
  - main: ./
    binary: '{{ .ProjectName }}'
  - main: ./cli
    id: 'nmctl'
    binary: 'nmctl'
  - main: ./cmd/agent/main.go
    binary: mesh-agent
  - binary: rootbin
  - main: ../elsewhere
    binary: outside
"""


def test_each_build_names_its_package_folder() -> None:
    facts = read_goreleaser("mesh", "deploy/.goreleaser.yaml", CONFIG)
    got = [(f.get("code"), f.get("binary"), f.line) for f in facts]
    # the main is relative to the configuration's folder; a .go file names its folder; a templated name and
    # a main leaving the configuration's folder upwards name nothing
    assert got == [("deploy/cli", "nmctl", 4), ("deploy/cmd/agent", "mesh-agent", 7), ("deploy", "rootbin", 9)]
    assert all(f.kind == "program.build" for f in facts)


def test_a_malformed_file_names_nothing() -> None:
    assert read_goreleaser("mesh", ".goreleaser.yaml", "builds: {main: ./cli}\n") == []


RELEASE = """\
project_name: acme
env:
  - IMAGE_REGISTRY={{ if index .Env "IMAGE_REGISTRY" }}{{ .Env.IMAGE_REGISTRY }}{{ else }}ghcr.io{{ end }}
  - IMAGE_REPOSITORY=acme/agent
builds:
  - id: agent
    binary: acme-agent
    main: ./cmd/agent
  - id: cli
    binary: acme
    main: ./cmd/cli
dockers:
  - image_templates:
      - "{{.Env.IMAGE_REGISTRY}}/{{.Env.IMAGE_REPOSITORY}}:{{ .Tag }}-amd64"
    dockerfile: build/Dockerfile
    ids: [agent]
  - image_templates:
      - "{{ .Env.UNSET }}/other:{{ .Tag }}"
  - image_templates:
      - "ghcr.io/acme/{{ .ProjectName }}-cli:latest"
kos:
  - repository: ghcr.io/acme/webhook
    main: ./cmd/webhook
"""


def test_release_images_name_their_recipe_and_binaries() -> None:
    facts = [f for f in read_goreleaser("acme", ".goreleaser.yaml", RELEASE) if f.kind == "image.recipe"]
    got = [(f.get("image"), f.get("dockerfile"), f.get("binaries"), f.get("code")) for f in facts]
    # the env defaults and the project's name resolve the templates, the tag goes; an entry's `ids` choose the
    # binaries in its context (all of them without); a variable with no default names nothing; ko builds a package
    assert got == [("ghcr.io/acme/agent", "build/Dockerfile", "acme-agent", None),
                   ("ghcr.io/acme/acme-cli", "Dockerfile", "acme,acme-agent", None),
                   ("ghcr.io/acme/webhook", None, None, "cmd/webhook")]
    assert facts[0].line == 14
