"""Issue #13, portable text: every emitted model is read with zero errors by every SysML reader we can
install offline, not only by the OpenSysML engine the pipeline checks with.

Each bundled sample is committed to a local git repository and analysed with the CLI
(``repomodeler analyze REPO --out DIR --format sysml,kpar``).  The model folder holds ``model.sysml``
(the system package) and ``RepoModeler.sysml`` (the library package it imports); the exports add
``<system>.kpar`` and ``RepoModeler.kpar``.  Readers:

* OpenSysML engine, strict mode (``jupyter-opensysml-kernel``): zero errors;
* tree-sitter-sysml: no ERROR or MISSING node;
* longeron (PyPI ``longeron``): ``parse`` of each file and ``lint --strict`` of the folder: zero errors;
* mercurio (PyPI ``mercurio-sysml``): the files compile, and both packages are in the compiled model;
* sysand (PyPI ``sysand``): ``info`` reads both archives, ``lock`` resolves the system project's usage
  of the library project to ``RepoModeler.kpar`` (offline: ``--no-index``, standard libraries ignored).

A reader that is not installed skips its test with the reason (they are in the ``test`` extra).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from conftest import SAMPLES, make_repo
from repomodeler.cli import cli
from repomodeler.validate import validate_files
from tests.sysml_check import tree_sitter_errors

SAMPLE_NAMES = sorted(p.name for p in SAMPLES.iterdir() if p.is_dir() and p.name != "targets")


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """sample name -> model folder (analysed from a git repository of the sample, with exports)."""
    base = tmp_path_factory.mktemp("readers")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(base / "home"))
        out: dict[str, Path] = {}
        runner = CliRunner()
        for name in SAMPLE_NAMES:
            repo = base / "repos" / name
            make_repo(repo, source=SAMPLES / name)
            result = runner.invoke(cli, ["analyze", str(repo), "--out", str(base / "models" / name), "--quiet",
                                         "--no-validate", "--format", "sysml,kpar"])
            assert result.exit_code == 0, result.output
            out[name] = base / "models" / name
        yield out


def _files(model: Path) -> list[Path]:
    return [model / "RepoModeler.sysml", model / "model.sysml"]


def test_model_folder_has_one_package_per_file(models: dict[str, Path]) -> None:
    for name, model in models.items():
        library, system = (p.read_text(encoding="utf-8") for p in _files(model))
        assert library.startswith("library package RepoModeler {") and len(re.findall(r"^\S*\s*package ", library, re.M)) == 1
        # no short name on the package: mercurio rejects one there
        assert re.match(r"package \w+ \{", system) and len(re.findall(r"^package ", system, re.M)) == 1
        assert "private import RepoModeler::*;" in system
        assert (model / "export" / "RepoModeler.sysml").read_bytes() == library.encode("utf-8")


def test_names_are_basic_identifiers_and_hosts_keep_their_real_name(models: dict[str, Path]) -> None:
    for name, model in models.items():
        text = (model / "model.sysml").read_text(encoding="utf-8")
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', re.sub(r"/\*.*?\*/", "", text, flags=re.S))
        code = re.sub(r"<'[^'\s]*'>", "<>", code).replace("'language'", "")
        assert "'" not in code, f"{name}: a quoted name outside a short name"
        # connector ends are plain dotted paths of basic names
        for ends in re.findall(r"connect (.*?) \{", text):
            assert re.fullmatch(r"(client ::> )?\w+(\.\w+)? to (server ::> )?\w+(\.\w+)?", ends), ends
    shop = (models["shop"] / "model.sysml").read_text(encoding="utf-8")
    assert "part <'api.stripe.com'> api_stripe_com : ExternalSystem {" in shop
    assert "connect client ::> payments.to_api_stripe_com_http to server ::> api_stripe_com.http" in shop


def test_repository_and_commit_once_per_package_and_views_filter_on_markers(models: dict[str, Path]) -> None:
    for name, model in models.items():
        text = (model / "model.sysml").read_text(encoding="utf-8")
        commit = json.loads((model / "model.json").read_text(encoding="utf-8"))["repositories"][0]["commit"]
        assert len(commit) == 40 and text.count(commit) == 1
        assert re.search(rf'\n    @Repository {{ repository = "{name}"; commit = "{commit}"; }}\n', text)
        assert "'commit'" not in text and not re.search(r"@SourceRef \{[^}]*commit", text)
        # a typed top-level system def, the 'system' part typed by it
        sysdef = re.search(r"\n    part def (\w+) :> System \{", text)
        assert sysdef and f"\n    part system : {sysdef.group(1)} {{" in text
        # tree views: one view def usage, the whole system exposed, a per-repository metadata filter
        assert "expose system::" not in text.replace(f"expose {sysdef.group(1)}::**;", "")
        for view in re.findall(r"view \w+ : RepositoryView \{.*?\n    \}", text, re.S):
            marker = re.search(r"filter @(\w+);", view).group(1)
            assert f"metadata def {marker} :> RepositoryMember {{" in text and f"@{marker};" in text


def test_opensysml_strict_accepts_every_model(models: dict[str, Path]) -> None:
    for name, model in models.items():
        errors = [d.format() for d in validate_files(_files(model)) if d.severity == "error"]
        assert errors == [], name


def test_tree_sitter_parses_every_file(models: dict[str, Path]) -> None:
    for name, model in models.items():
        for path in _files(model):
            assert tree_sitter_errors(path.read_text(encoding="utf-8")) == [], (name, path.name)


def test_longeron_parses_and_lints_strict_every_model(models: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("longeron", reason="longeron is not installed (pip install longeron)")
    from longeron import load, parse_file
    from longeron.validation import validate

    for name, model in models.items():
        for path in _files(model):
            assert parse_file(path).language == "sysml"  # raises ParseError with the line on any syntax error
        folder = tmp_path / name
        folder.mkdir()
        for path in _files(model):
            shutil.copy(path, folder / path.name)
        diagnostics = validate(load(str(folder), cache=False), strict=True)
        errors = [str(d) for d in diagnostics if d.severity == "error"]
        assert errors == [], name


def test_mercurio_compiles_every_model_with_all_packages(models: dict[str, Path]) -> None:
    core = pytest.importorskip("mercurio._core", reason="mercurio-sysml is not installed (pip install mercurio-sysml)")
    for name, model in models.items():
        files = {p.name: p.read_text(encoding="utf-8") for p in _files(model)}
        compiled = core.ModelBuilder.from_sysml_files(files, True).compile_model()  # raises on any error
        names = {e.get_str("qualified_name") or "" for e in compiled.elements()}
        package = re.match(r"package (?:<'[^']+'> )?(\w+)", files["model.sysml"]).group(1)
        assert {"RepoModeler", package} <= {n.split(".")[0] for n in names}, name
        parts = re.findall(r"\n        part (?:<'[^']+'> )?(\w+) :", files["model.sysml"])
        system_def = re.search(r"part def (\w+) :> System", files["model.sysml"]).group(1)
        assert parts and all(f"{package}.{system_def}.{p}" in names for p in parts), name


@pytest.mark.skipif(shutil.which("sysand") is None, reason="sysand is not installed (pip install sysand)")
def test_sysand_reads_the_kpars_and_locks_the_library_usage(models: dict[str, Path], tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYSAND_")}  # --no-index: nothing remote
    for name, model in models.items():
        export = model / "export"
        system_kpar = export / f"{name}.kpar"
        info = subprocess.run(["sysand", "info", "--no-index", "-p", str(system_kpar)], capture_output=True,
                              text=True, env=env, timeout=120)
        assert info.returncode == 0, info.stderr
        assert f"Name: {name}" in info.stdout and "urn:kpar:repomodeler-library" in info.stdout
        lib = subprocess.run(["sysand", "info", "--no-index", "-p", str(export / "RepoModeler.kpar")],
                             capture_output=True, text=True, env=env, timeout=120)
        assert lib.returncode == 0 and "Name: RepoModeler" in lib.stdout and "Version: 2.2.0" in lib.stdout
        # the system project, unpacked, resolves its usage of the library to the archive beside it
        project = tmp_path / name
        project.mkdir()
        with zipfile.ZipFile(system_kpar) as zf:
            zf.extractall(project)
        (project / "sysand.toml").write_text(
            '[[project]]\nidentifiers = ["urn:kpar:repomodeler-library"]\n'
            f'sources = [{{ kpar_path = "{(export / "RepoModeler.kpar").as_posix()}" }}]\n', encoding="utf-8")
        lock = subprocess.run(["sysand", "lock", "--no-index"], cwd=project, capture_output=True, text=True, env=env,
                              timeout=120)
        assert lock.returncode == 0, lock.stderr
        locked = (project / "sysand-lock.toml").read_text(encoding="utf-8")
        assert 'name = "RepoModeler"' in locked and '"urn:kpar:repomodeler-library"' in locked
        assert re.search(r'exports = \[\s*"RepoModeler",\s*\]', locked)


def test_validate_loads_the_library_beside_a_model(models: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["validate", str(models["shop"] / "model.sysml")])
    assert result.exit_code == 0, result.output
    assert "OK: 2 file(s), 0 error(s)" in result.output  # model.sysml and the RepoModeler.sysml it imports


def test_deployment_workloads_and_allocations(models: dict[str, Path]) -> None:
    shop = (models["shop"] / "model.sysml").read_text(encoding="utf-8")
    assert "\n    part def ShopDeployment :> Deployment {" in shop and "\n    part deployment : ShopDeployment;" in shop
    workload = shop.split("\n        part <'orders-db'> orders_db : Workload {")[1].split("\n        }")[0]
    assert 'attribute :>> platform = "compose";' in workload and 'attribute :>> image = "postgres:16";' in workload
    assert 'path = "docker-compose.yml"' in workload
    assert "allocation orders_deployed : Deploys allocate system.orders to deployment.orders;" in shop
    assert "allocation orders_db_deployed : Deploys allocate system.orders_db to deployment.orders_db;" in shop
    assert "api_stripe_com_deployed" not in shop  # an external service is not deployed by the system
    mesh = (models["grpc-mesh"] / "model.sysml").read_text(encoding="utf-8")
    assert 'attribute :>> platform = "kubernetes";' in mesh
    assert re.search(r"allocation cart_deployed : Deploys allocate system\.cart to deployment\.cart;", mesh)


def test_every_model_reads_back_as_analysed(models: dict[str, Path]) -> None:
    """Issue #24, round trip: `diff model.sysml model.json` of every sample finds nothing."""
    for name, model in models.items():
        result = CliRunner().invoke(cli, ["diff", str(model / "model.sysml"), str(model / "model.json"),
                                          "--format", "json"])
        assert result.exit_code == 0, (name, result.output)
        report = json.loads(result.output)
        assert report["changes"] == [] and report["reader_notes"] == [], (name, report["changes"][:5])
        assert all(n == 0 for counts in report["counts"].values() for n in counts.values()), name
