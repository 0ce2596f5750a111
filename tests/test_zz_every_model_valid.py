"""Every SysML model the test suite produced passes the strict SysML v2 check.

Runs last (file name): it collects every `model.sysml` written under this session's pytest
temporary folder, by the pipeline in-process or by the CLI in a subprocess, including those
written with --no-validate, plus the sample gallery, and checks each distinct structure once
(models that differ only in strings, comments and line numbers share a digest)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SAMPLES
from repomodeler.validate import structure_digest, validate_files


def test_every_emitted_model_and_the_sample_gallery_validate(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> None:
    from repomodeler.pipeline import AnalyzeOptions, analyze

    gallery = tmp_path / "gallery"
    for sample in sorted(p for p in SAMPLES.iterdir() if p.is_dir() and p.name not in ("hostile", "targets")):
        analyze([str(sample)], AnalyzeOptions(out=gallery / sample.name, validate=False))
    base = tmp_path_factory.getbasetemp()
    models = sorted(base.rglob("model.sysml"))
    assert models, "no models were produced"
    assert any(p.is_relative_to(gallery) for p in models)
    assert all((gallery / s / 'RepoModeler.sysml').is_file() for s in ('shop', 'grpc-mesh'))
    unique: dict[str, list[Path]] = {}
    for path in models:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        library = path.parent / "RepoModeler.sysml"
        if "package RepoModeler {" in text:  # a model from before the library had its own file
            files = [path]
        elif "private import RepoModeler::*;" in text and library.is_file() and _as_emitted(path, text):
            files = [library, path]
            text = library.read_text(encoding="utf-8") + text
        else:
            continue  # not emitted by repomodeler (hand-written fixtures, models a test broke on purpose)
        digest = structure_digest(text)
        if digest not in unique or files[-1].is_relative_to(gallery):  # the gallery's copy stands for its twins
            unique[digest] = files
    assert any(files[-1].is_relative_to(gallery) for files in unique.values()), "the gallery models were not checked"
    failures = []
    for digest, files in sorted(unique.items(), key=lambda kv: str(kv[1][-1])):
        path = files[-1]
        errors = [d for d in validate_files(files) if d.severity == "error"]
        if errors:
            failures.append(f"{path}: {errors[0].format()}")
    assert not failures, "\n".join(failures)


def _as_emitted(path: Path, text: str) -> bool:
    """Whether model.sysml is the emitter's output for the model.json beside it (not edited since)."""
    from repomodeler.emit.graph_io import load_model_dir
    from repomodeler.emit.sysml import render_sysml
    from repomodeler.records import RepomodelerError

    try:
        return render_sysml(load_model_dir(path.parent)) == text
    except (RepomodelerError, OSError, ValueError, KeyError, TypeError):
        return False
