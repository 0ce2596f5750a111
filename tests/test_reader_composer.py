"""composer.json: the package's name, what it requires (the runtime and its extensions are no packages), what its
developers require apart, and the commands it installs, each at its line."""

from repomodeler.extract.readers.composer import read_composer

COMPOSER = """{
    "name": "wintercms/winter",
    "type": "project",
    "bin": ["bin/winter"],
    "require": {
        "php": "^8.0.2",
        "ext-redis": "*",
        "winter/wn-cms-module": "dev-develop",
        "predis/predis": "^2.0"
    },
    "require-dev": {
        "phpunit/phpunit": "^9.5.8"
    }
}
"""


def test_name_requirements_and_commands() -> None:
    facts = read_composer("winter", "composer.json", COMPOSER)
    manifest = next(f for f in facts if f.kind == "manifest")
    assert (manifest.get("ecosystem"), manifest.get("name"), manifest.get("commands"), manifest.line) == \
        ("php", "wintercms/winter", "winter", 2)
    deps = {(f.get("name"), f.line) for f in facts if f.kind == "manifest.dependency"}
    assert deps == {("winter/wn-cms-module", 8), ("predis/predis", 9)}
    assert {(f.get("name"), f.line) for f in facts if f.kind == "manifest.dev_dependency"} == {("phpunit/phpunit", 12)}


def test_a_package_without_a_name_is_still_a_manifest() -> None:
    facts = read_composer("app", "composer.json", '{"require": {"laravel/framework": "^11"}}')
    assert [(f.kind, f.get("name")) for f in facts] == [("manifest", None), ("manifest.dependency", "laravel/framework")]
