"""`repomodeler validate`: the strict SysML v2 check as a user runs it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from repomodeler.cli import cli

VALID = """package Demo {
    part def Pump;
    part pump : Pump;
}
"""

UNDEFINED_TYPE = """package Demo {
    part def Pump;
    part pump : Pump;
    part valve : Valve;
}
"""


def test_valid_file_exits_zero(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "ok.sysml"
    path.write_text(VALID, encoding="utf-8")
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "OK: 1 file(s), 0 error(s)" in result.output


def test_undefined_type_exits_one_and_names_the_line(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "bad.sysml"
    path.write_text(UNDEFINED_TYPE, encoding="utf-8")
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if ": error: " in line]
    assert len(lines) == 1, result.output
    where, _, message = lines[0].partition(": error: ")
    path_part, line, col = where.rsplit(":", 2)
    assert path_part.endswith("bad.sysml") and line == "4" and col.isdigit()
    assert "Valve" in message and message.rstrip().endswith("]")  # the engine's code in brackets
    assert "INVALID: 1 file(s), 1 error(s)" in result.output


def test_folder_is_checked_as_one_model(tmp_path: Path, runner: CliRunner) -> None:
    """Files in a folder are loaded together, so a type defined in one file resolves in another."""
    (tmp_path / "defs.sysml").write_text("package Defs { part def Valve; }\n", encoding="utf-8")
    (tmp_path / "use.sysml").write_text("package Use { private import Defs::*; part v : Valve; }\n", encoding="utf-8")
    result = runner.invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "OK: 2 file(s)" in result.output


def test_missing_path_is_an_error(tmp_path: Path, runner: CliRunner) -> None:
    result = runner.invoke(cli, ["validate", str(tmp_path / "nope.sysml")])
    assert result.exit_code == 1
    assert "does not exist" in result.output
