"""`repomodeler rules` and `repomodeler explain`: a user can ask which rule made an element."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from repomodeler.cli import cli
from repomodeler.rules import RULES

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_rules_lists_every_rule_with_a_message_and_a_case() -> None:
    result = CliRunner().invoke(cli, ["rules", "--format", "json"])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.output)["rules"]
    assert [r["id"] for r in listing] == [r.id for r in RULES]
    for r in listing:
        assert r["message"] and r["cases"], r["id"]
        assert all(c["file"].startswith(f"rules/{r['group']}/cases/") for c in r["cases"]), r["id"]
    table = CliRunner().invoke(cli, ["rules"]).output
    assert "compose.depends-on" in table and "links" in table


def test_every_element_of_a_model_names_rules_that_exist(tmp_path: Path) -> None:
    out = tmp_path / "shop"
    result = CliRunner().invoke(cli, ["analyze", str(SAMPLES / "shop"), "--out", str(out), "--quiet", "--no-validate"])
    assert result.exit_code == 0, result.output
    model = json.loads((out / "model.json").read_text())
    known = {r.id: r.message for r in RULES}
    assert {c["id"]: c["message"] for c in model["rules"]} == {r: known[r] for r in {c["id"] for c in model["rules"]}}
    for element in [*model["nodes"], *model["edges"]]:
        assert element.get("rules"), element["id"]
        assert set(element["rules"]) <= set(known), element["id"]
    stripe = next(e for e in model["edges"] if e["id"] == "payments->api.stripe.com:http")
    assert "code.client-calls" in stripe["rules"]

    text = CliRunner().invoke(cli, ["explain", str(out), "payments->api.stripe.com"])
    assert text.exit_code == 0, text.output
    assert "code.client-calls: " + known["code.client-calls"] in text.output
    assert "shop:payments/main.go:9" in text.output  # the evidence line
    made = next(line for line in text.output.splitlines() if line.strip().startswith("target api.stripe.com: made by"))
    assert "config.address-values" in made  # the setting STRIPE_API introduced it (code.vendor-domains names it too)
    data = json.loads(CliRunner().invoke(cli, ["explain", str(out / "model.json"), "cache", "--format", "json"]).output)
    assert data["type"] == "component" and [r["id"] for r in data["rules"]] == ["compose.services"]


def test_explain_names_what_it_could_not_find(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["explain", str(tmp_path), "web"])
    assert result.exit_code == 1 and "holds no model.json" in result.output
    (tmp_path / "model.json").write_text('{"nodes": [], "edges": []}')
    result = CliRunner().invoke(cli, ["explain", str(tmp_path), "web"])
    assert result.exit_code == 1 and "no component or connection 'web'" in result.output
