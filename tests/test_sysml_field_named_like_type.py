"""An API schema whose property is named like its own type (Kubernetes' ``infDecAmount`` holds ``Dec: inf.Dec``):
under that name the type reference would find the property itself, which a strict SysML checker refuses."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from repomodeler.cli import cli
from repomodeler.validate import validate_files
from tests.conftest import make_repo

OPENAPI = """openapi: 3.0.3
info: {title: Quantities, version: "1"}
paths:
  /quantity:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Amount"}
components:
  schemas:
    Dec:
      type: object
      properties:
        scale: {type: integer}
    Amount:
      type: object
      properties:
        Dec: {$ref: "#/components/schemas/Dec"}
        unit: {type: string}
"""


MAIN = """from fastapi import FastAPI

app = FastAPI()


@app.get("/quantity")
def quantity():
    return {}
"""


def test_a_property_named_like_its_type_takes_another_name(tmp_path: Path, monkeypatch) -> None:
    repo = tmp_path / "quantities"
    make_repo(repo, files={"api/openapi.yaml": OPENAPI, "api/main.py": MAIN})
    monkeypatch.setenv("REPOMODELER_HOME", str(tmp_path / "home"))
    out = tmp_path / "model"
    result = CliRunner().invoke(cli, ["analyze", str(repo), "--out", str(out), "--quiet", "--no-validate"])
    assert result.exit_code == 0, result.output
    text = (out / "model.sysml").read_text(encoding="utf-8")
    assert "item Dec_value : Dec;" in text and "item Dec : Dec;" not in text
    assert [d.format() for d in validate_files([out / "RepoModeler.sysml", out / "model.sysml"], strict=True)] == []
