"""SysML v2 validation with the OpenSysML engine shipped in the ``jupyter-opensysml-kernel`` wheel.

The engine resolves names against the embedded standard library, so this catches undefined types
and features, not just syntax.  It only speaks the Jupyter protocol, so we start it as a kernel on
loopback, turn on strict mode, ``%load`` all files together and parse the diagnostics it prints.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from repomodeler.records import RepomodelerError

_DIAG = re.compile(
    r"^(?P<path>.*?\.(?:sysml|kerml)):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[^\]]+)\]: (?P<msg>.*)$"
)


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    col: int
    severity: str
    code: str
    message: str

    def format(self, relative_to: Path | None = None) -> str:
        path = self.path
        if relative_to is not None and os.path.isabs(path):
            try:
                path = os.path.relpath(path, relative_to)
            except ValueError:
                pass
        return f"{path}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]"


def _run_cell(kc, code: str, timeout: float) -> tuple[str, str]:
    msg_id = kc.execute(code, store_history=False, stop_on_error=False)
    out: list[str] = []
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=timeout)
        except queue.Empty as exc:
            raise RepomodelerError(f"error: the SysML engine gave no answer within {timeout:.0f}s") from exc
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind in ("execute_result", "display_data"):
            out.append(content["data"].get("text/plain", ""))
        elif kind == "error":
            out.append(f"ERROR {content['ename']}: {content['evalue']}\n")
        elif kind == "status" and content["execution_state"] == "idle":
            break
    reply = kc.get_shell_msg(timeout=timeout)
    return reply["content"]["status"], "".join(out)


def _kernel_spec_dir() -> None:
    """Point Jupyter at this environment's kernelspec, not at another kernel also named 'sysml'."""
    os.environ["JUPYTER_PATH"] = os.path.join(sys.prefix, "share", "jupyter")


def validate_files(paths: list[Path], *, strict: bool = True, timeout: float = 300.0) -> list[Diagnostic]:
    """Load all files together (so references between them resolve) and return the diagnostics."""
    if not paths:
        return []
    try:
        import jupyter_opensysml_kernel  # noqa: F401
        from jupyter_client.manager import start_new_kernel
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise RepomodelerError("error: the SysML engine is missing; run 'pip install jupyter-opensysml-kernel'") from exc
    _kernel_spec_dir()
    abs_paths = [str(Path(p).resolve()) for p in paths]
    try:
        km, kc = start_new_kernel(kernel_name="sysml", startup_timeout=120)
    except Exception as exc:
        raise RepomodelerError(f"error: could not start the SysML engine: {exc}") from exc
    try:
        if strict:
            _run_cell(kc, "%strict on", timeout)
        status, out = _run_cell(kc, "%load " + " ".join(shlex.quote(p) for p in abs_paths), timeout)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    diags: list[Diagnostic] = []
    for line in out.splitlines():
        m = _DIAG.match(line)
        if m:
            diags.append(Diagnostic(m.group("path"), int(m.group("line")), int(m.group("col")), m.group("sev"),
                                    m.group("code"), m.group("msg")))
    if not diags and (status != "ok" or re.search(r"\berror\b|\bERROR\b", out)):
        diags.append(Diagnostic("", 0, 0, "error", "engine", out.strip()[:500]))
    return diags


def validate_text(text: str, name: str = "model.sysml") -> list[Diagnostic]:
    """Validate SysML text by writing it to a temporary file (used by the audit and tests)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="repomodeler-validate-") as tmp:
        path = Path(tmp) / name
        path.write_text(text, encoding="utf-8")
        diags = validate_files([path])
    return [Diagnostic(name if d.path.endswith(name) else d.path, d.line, d.col, d.severity, d.code, d.message)
            for d in diags]
