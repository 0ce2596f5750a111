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
