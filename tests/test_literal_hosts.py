"""code.literal-hosts: an outside host only the code's own URLs name is listed, not drawn; one a setting names stays.

The rule's fixture cases can only show what it takes out (a case credits the rule under test); these tests
show, on the same repositories, what it leaves drawn and that what it takes out is still in the model."""

from pathlib import Path

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory, load_case

CASES = Path(__file__).resolve().parents[1] / "repomodeler" / "rules" / "code" / "cases"


def _model(case_file: str, rule: str = "code.literal-hosts"):
    case = load_case(rule, CASES / case_file)
    return resolve_system("case", extract_in_memory(case.repositories))


def test_settings_module_url_stays_and_literal_lookup_is_listed() -> None:
    model = _model("code.literal-hosts--settings-module.yml")
    assert ("triage", "bugzilla.example-tracker.org", "http") in model.connections
    assert "api.frankfurter.app" not in model.components
    listed = [u for u in model.unresolved if u.value.startswith("api.frankfurter.app:")]
    assert [(u.component, u.evidence.path) for u in listed] == [("triage", "triage/rates.py")]


def test_configured_host_stays_and_literal_host_is_listed() -> None:
    model = _model("code.literal-hosts.yml")
    assert model.components["api.weatherapi.com"].kind == "external"
    assert ("notifier", "api.weatherapi.com", "http") in model.connections
    listed = [u for u in model.unresolved if u.value.startswith("api.telegram.org:")]
    assert [(u.component, u.evidence.path) for u in listed] == [("notifier", "notifier/telegram.py")]


def test_host_whose_vendor_key_the_deployment_hands_stays() -> None:
    model = _model("code.client-calls--handed-vendor-key.yml", "code.client-calls")
    assert ("notifier", "api.telegram.org", "http") in model.connections
