"""check: CI drift check against a target and a rules file, with file:line evidence."""

from __future__ import annotations

from conftest import SAMPLES

from repomodeler.cli import cli

TARGET = str(SAMPLES / "targets" / "shop-target.sysml")


def test_check_against_sample_target_lists_violations_with_evidence(runner, shop_repo):
    repo, _sha = shop_repo
    result = runner.invoke(cli, ["check", str(repo), "--target", TARGET])
    assert result.exit_code == 1
    out = result.output
    assert "VIOLATION [missing-component] 'payments-cache' is required by the target" in out
    assert f"at {TARGET}:27" in out  # where the target declares it
    assert "VIOLATION [unexpected-component] service 'inventory' is in the code but not in the target" in out
    block = out.split("VIOLATION [unexpected-connection] inventory -> rabbitmq:amqp", 1)[1].split("VIOLATION", 1)[0]
    assert "at shop:docker-compose.yml:35" in block
    assert "VIOLATION [wrong-protocol] orders -> payments:http should be grpc per the target (found http)" in out
    assert "FAILED: 7 violation(s)" in out


def test_check_passes_against_scaffolded_target_and_publishes_nothing(runner, shop_repo, tmp_path):
    repo, _sha = shop_repo
    models = tmp_path / "models"
    assert runner.invoke(cli, ["analyze", str(repo), "--out", str(models / "shop"), "-q", "--no-validate"]).exit_code == 0
    target = tmp_path / "target.sysml"
    assert runner.invoke(cli, ["target", "init", str(models / "shop"), "--out", str(target)]).exit_code == 0
    result = runner.invoke(cli, ["check", str(repo), "--target", str(target)])
    assert result.exit_code == 0, result.output
    assert "OK: shop (" in result.output
    # the check recorded no run (only the analyze above did) and left no model behind
    runs = runner.invoke(cli, ["runs", "list", "shop", "--format", "json"])
    assert runs.output.count('"number"') == 1
    assert sorted(p.name for p in models.iterdir()) == ["shop"]


def test_check_rules_file(runner, shop_repo, tmp_path):
    repo, _sha = shop_repo
    rules = tmp_path / "rules.yml"
    rules.write_text("forbid:\n  - to: orders-db\n    except: [orders]\n  - from: frontend\n    to: '*-db'\n"
                     "  - from: payments\n    to: api.stripe.com\n    protocol: grpc\n")
    result = runner.invoke(cli, ["check", str(repo), "--rules", str(rules)])
    assert result.exit_code == 1
    lines = [l for l in result.output.splitlines() if l.startswith("VIOLATION")]
    assert lines == [(f"VIOLATION [forbidden-dependency] inventory -> orders-db (sql) is forbidden by {rules}: forbid #1 "
                      "(from anything to orders-db except orders)")]
    assert "at shop:inventory/src/main/resources/application.yml:5" in result.output


def test_check_ignore_and_json(runner, shop_repo, tmp_path):
    import json

    repo, _sha = shop_repo
    rules = tmp_path / "rules.yml"
    rules.write_text("ignore: [inventory, 'payments-*']\n")
    result = runner.invoke(cli, ["check", str(repo), "--target", TARGET, "--rules", str(rules), "--format", "json"])
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["ok"] is False
    subjects = {v["subject"] for v in data["violations"]}
    assert "inventory" not in subjects and "payments-cache" not in subjects
    assert subjects == {"orders->payments:http"}


def test_check_usage_errors_exit_2(runner, shop_repo, tmp_path):
    repo, _sha = shop_repo
    assert runner.invoke(cli, ["check", str(repo)]).exit_code == 2
    bad = tmp_path / "rules.yml"
    bad.write_text("forbid:\n  - never: x\n")
    result = runner.invoke(cli, ["check", str(repo), "--rules", str(bad)])
    assert result.exit_code == 2 and "each rule needs 'from' and/or 'to'" in result.output


def test_sample_rules_file(runner, shop_repo):
    repo, _sha = shop_repo
    result = runner.invoke(cli, ["check", str(repo), "--rules", str(SAMPLES / "targets" / "shop-rules.yml")])
    assert result.exit_code == 1
    violations = [l for l in result.output.splitlines() if l.startswith("VIOLATION")]
    assert len(violations) == 1 and "inventory -> orders-db (sql) is forbidden" in violations[0]
