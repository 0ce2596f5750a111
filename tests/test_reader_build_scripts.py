"""Image build scripts: the folder each `docker build` line's image is built from, as the shell resolves its
paths (the script's folder for paths that leave it or after `cd "$(dirname "$0")"`, else the repository
root), at the line of the command."""

from repomodeler.extract.readers.build_scripts import read_build_script


def built(path: str, text: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.get("image"), f.get("module")) for f in read_build_script("r", path, text)
            if f.kind == "manifest.image" and f.get("tool") == "script"]


def test_paths_leaving_the_scripts_folder_are_its_own() -> None:
    text = ("#!/bin/sh\n# build every image\n"
            "docker build -t community-api -f ../../Backend/Services/Community/Community.API/Dockerfile ../../Backend/\n"
            "docker build -t $REGISTRY/history-api:$TAG \\\n  -f ../../Backend/Services/History/History.API/Dockerfile \\\n"
            "  ../../Backend/\n")
    assert built("Deploy/scripts/build_images.sh", text) == [
        (3, "community-api", "Backend/Services/Community/Community.API"),
        (4, "history-api", "Backend/Services/History/History.API")]


def test_other_paths_are_the_repository_roots_unless_the_script_goes_to_its_folder() -> None:
    assert built("scripts/build.sh", "docker build -t acme/orders:1.0 services/orders\n") == [
        (1, "acme/orders", "services/orders")]
    assert built("scripts/build.sh", 'cd "$(dirname "$0")/.." && docker build -t web ./web\n') == [(1, "web", "web")]
    assert built("deploy/scripts/build.sh", 'cd "${BASH_SOURCE%/*}"\ndocker build -t web ../web\n') == [
        (2, "web", "deploy/web")]
    assert built("scripts/build.sh", 'cd "$(dirname "$0")"\ncd ../services\ndocker build -t web ./web\n') == [
        (3, "web", "services/web")]


def test_a_folder_the_script_does_not_spell_out_stops_the_reading() -> None:
    text = "docker build -t api api\ncd $WORKDIR\ndocker build -t web web\n"
    assert built("build.sh", text) == [(1, "api", "api")]


def test_an_image_a_variable_names_or_a_context_outside_the_repository_is_left_out() -> None:
    assert built("build.sh", "docker build -t $IMAGE .\ndocker build -t api ../../elsewhere\n") == []
