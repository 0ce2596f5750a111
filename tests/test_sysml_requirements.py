"""Issue #13, requirements: ``check --rules ... --sysml-out DIR`` writes the rules as SysML requirement
defs (the kept ones satisfied by the system) and every violation as CheckViolation metadata about the
element that breaks it; the three files are accepted by every reader, and the same inputs give the same bytes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import SAMPLES
from repomodeler.cli import cli
from repomodeler.validate import validate_files
from tests.sysml_check import tree_sitter_errors

FILES = ("RepoModeler.sysml", "model.sysml", "rules.sysml")


def _check(runner: CliRunner, repo: Path, rules: Path, out: Path, *extra: str):  # type: ignore[no-untyped-def]
    return runner.invoke(cli, ["check", "--rules", str(rules), *extra, str(repo), "--sysml-out", str(out)])


@pytest.fixture
def rules_dir(shop_repo: tuple[Path, str], tmp_path: Path, runner: CliRunner) -> Path:
    repo, _sha = shop_repo
    rules = tmp_path / "rules.yml"
    shutil.copy(SAMPLES / "targets" / "shop-rules.yml", rules)
    result = _check(runner, repo, rules, tmp_path / "out", "--target", str(SAMPLES / "targets" / "shop-target.sysml"))
    assert result.exit_code == 1, result.output  # the sample breaks a rule and the target
    again = _check(runner, repo, rules, tmp_path / "again", "--target", str(SAMPLES / "targets" / "shop-target.sysml"))
    assert again.exit_code == 1
    for name in FILES:
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "again" / name).read_bytes(), name
    return tmp_path / "out"


def test_rules_are_requirement_defs_and_violations_are_metadata_on_the_elements(rules_dir: Path) -> None:
    text = (rules_dir / "rules.sysml").read_text(encoding="utf-8")
    assert text.startswith("package shop_rules {") and "private import shop::*;" in text
    for i in (1, 2, 3):  # the rule's id is the requirement's short name
        assert f"requirement def <'forbid-{i}'> forbid_{i} :> DependencyRule {{" in text
    assert 'attribute :>> toPattern = "orders-db";' in text and 'attribute :>> allowedSources = "orders";' in text
    # the rules the code keeps are satisfied by the system; the one it breaks is not claimed
    kept = text.split("requirement kept_rules {")[1].split("    }")[0]
    broken = text.split("requirement broken_rules {")[1].split("    }")[0]
    assert "forbid_2_req : forbid_2 { attribute :>> violations = 0; }" in kept and "forbid_3_req : forbid_3 {" in kept
    assert "forbid_1_req : forbid_1 { attribute :>> violations = 1; }" in broken  # DependencyRule requires 0
    assert re.findall(r"\n    satisfy (\w+) by system;", text) == ["kept_rules"]
    assert re.findall(r"\n    assert not satisfy (\w+) by system;", text) == ["broken_rules"]
    # inventory reaching into orders-db breaks rule 1: the metadata is about that connector
    forbidden = re.search(r"metadata \w+ : CheckViolation about shop::ShopSystem::inventory_orders_db_sql \{\n"
                          r"\s+rule = \"forbidden-dependency\";\n\s+violates = \"broken_rules::forbid_1_req\";", text)
    assert forbidden
    # target comparison: about the connector or part concerned, or the system def for what is missing
    assert re.search(r"about shop::ShopSystem::orders_payments_http \{\n\s+rule = \"wrong-protocol\";", text)
    assert re.search(r"about shop::ShopSystem::inventory \{\n\s+rule = \"unexpected-component\";", text)
    assert re.search(r"about shop::ShopSystem \{\n\s+rule = \"missing-component\";", text)
    assert "shop:docker-compose.yml:34" in text  # the evidence goes with the violation
    # every element named in an 'about' exists in the model
    model = (rules_dir / "model.sysml").read_text(encoding="utf-8")
    for name in re.findall(r"about shop::ShopSystem::(\w+)", text):
        assert re.search(rf"\n        (part|interface|connection) (<'[^']+'> )?{name} :", model), name


def test_rules_package_is_accepted_by_every_reader(rules_dir: Path, tmp_path: Path) -> None:
    paths = [rules_dir / n for n in FILES]
    assert [d.format() for d in validate_files(paths) if d.severity == "error"] == []
    for path in paths:
        assert tree_sitter_errors(path.read_text(encoding="utf-8")) == [], path.name
    core = pytest.importorskip("mercurio._core", reason="mercurio-sysml is not installed")
    compiled = core.ModelBuilder.from_sysml_files({p.name: p.read_text(encoding="utf-8") for p in paths}, True)
    tops = {(e.get_str("qualified_name") or "").split(".")[0] for e in compiled.compile_model().elements()}
    assert {"RepoModeler", "shop", "shop_rules"} <= tops
    pytest.importorskip("longeron", reason="longeron is not installed")
    from longeron import load
    from longeron.validation import validate

    diagnostics = validate(load(str(rules_dir), cache=False), strict=True)
    assert [str(d) for d in diagnostics if d.severity == "error"] == []


def test_rules_the_code_keeps_are_all_satisfied(shop_repo: tuple[Path, str], tmp_path: Path, runner: CliRunner) -> None:
    repo, _sha = shop_repo
    rules = tmp_path / "rules.yml"
    rules.write_text("forbid:\n  - from: payments\n    to: orders-db\n    protocol: sql\n", encoding="utf-8")
    result = _check(runner, repo, rules, tmp_path / "out")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "out" / "rules.sysml").read_text(encoding="utf-8")
    assert 'attribute :>> protocol = "sql";' in text and "satisfy kept_rules by system;" in text
    assert "broken_rules" not in text and "CheckViolation about" not in text
    assert [d for d in validate_files([tmp_path / "out" / n for n in FILES]) if d.severity == "error"] == []
