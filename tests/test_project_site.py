"""The project's own site (update checks, telemetry) is listed, not drawn; other vendors stay."""

from pathlib import Path

from repomodeler.graph.build import resolve_system
from repomodeler.graph.vendors import project_names
from repomodeler.rules.cases import extract_in_memory, load_case

CASES = Path(__file__).resolve().parent.parent / "repomodeler" / "rules" / "code" / "cases"


def test_project_names_from_root_manifests():
    assert project_names([("npm", "outline")]) == {"outline"}
    assert project_names([("npm", "@acme/outline")]) == {"acme", "outline"}
    assert project_names([("go", "go.woodpecker-ci.org/woodpecker/v3")]) == {"woodpecker", "woodpeckerci"}
    # a code host names nobody's project; short and generic names say nothing
    assert project_names([("go", "github.com/acme/shop")]) == set()
    assert project_names([("npm", "server"), ("python", "api")]) == set()


def test_project_name_before_a_role_word():
    # unleash-server, growthbook-app: the project is the name before the package's role
    assert project_names([("npm", "unleash-server")]) == {"unleash", "unleashserver"}
    assert project_names([("npm", "growthbook-app")]) == {"growthbook", "growthbookapp"}
    # a name whose last word is no role keeps only itself
    assert project_names([("npm", "react-scheduler")]) == {"reactscheduler"}


def test_update_host_listed_and_vendor_kept():
    case = load_case("code.project-site", CASES / "code.project-site.yml")
    model = resolve_system("case", extract_in_memory(case.repositories), frozenset())
    assert "updates.getoutline.com" not in model.components
    assert "api.stripe.com" in model.components
    assert any(k[1] == "api.stripe.com" for k in model.connections)
    listed = [u for u in model.unresolved if "updates.getoutline.com" in u.value]
    assert listed and listed[0].evidence.path == "server/index.js" and listed[0].evidence.line == 5


def test_project_names_from_scopes():
    # a workspace root named "root": the project is the scope its packages share
    assert project_names([("npm", "@karakeep/root")]) == {"karakeep"}
    assert project_names([("npm", "root")], ["@novu/api", "@novu/ws", "@novu/worker", "left-pad"]) == {"novu"}
    assert project_names([("npm", "root")], ["@novu/api", "@novu/ws"]) == set()  # two packages: not yet a project


def test_repository_name_marks_its_sites_and_only_whole_labels_of_a_short_name():
    case = load_case("code.project-site", CASES / "code.project-site--repository-name.yml")
    model = resolve_system("case", extract_in_memory(case.repositories), frozenset())
    assert "app.lago.dev" not in model.components
    # another vendor, and a host whose label only contains the short name, stay
    assert {"api.stripe.com", "api.lagoon.io"} <= set(model.components)
    assert any("app.lago.dev" in u.value for u in model.unresolved)


def test_release_checks_of_its_own_repository_are_listed_and_other_repositories_stay():
    case = load_case("code.own-repository", CASES / "code.own-repository.yml")
    model = resolve_system("case", extract_in_memory(case.repositories), frozenset())
    assert not {"api.github.com", "raw.githubusercontent.com", "github.com"} & set(model.components)
    listed = sorted((u.evidence.path, u.evidence.line) for u in model.unresolved if "own repository" in u.value)
    assert ("pkg/update/check.go", 6) in listed or ("pkg/update/check.go", 11) in listed
    # a plugin index in another organisation's repository on a code host is a real dependency
    assert "gitlab.com" in model.components and ("flowd", "gitlab.com", "http") in model.connections


def test_a_code_host_the_code_also_calls_as_a_service_stays():
    # the release check of its own repository beside a forge client whose default API is the code host's
    case = load_case("code.own-repository", CASES / "code.own-repository.yml")
    repos = {k: dict(v) for k, v in case.repositories.items()}
    repos["flowd"]["pkg/forge/github.go"] = (
        'package forge\n\nimport "net/http"\n\nconst defaultAPI = "https://api.github.com/"\n\n'
        'func Repos() {\n\thttp.Get(defaultAPI + "user/repos")\n}\n')
    # (a link to its own releases page on the bare domain: github.com, with api.github.com folded into it)
    repos["flowd"]["pkg/update/page.go"] = (
        'package update\n\nimport "net/http"\n\nfunc Page() {\n\thttp.Get("https://github.com/flowd/flowd/releases")\n}\n')
    model = resolve_system("case", extract_in_memory(repos), frozenset())
    assert "api.github.com" in model.components or "github.com" in model.components
