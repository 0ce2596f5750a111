"""Run the viewer in a background thread on a free loopback port (tests, benchmarks, notebooks)."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from repomodeler.serve.app import create_app


@contextmanager
def background_server(models_dir: Path, *, timeout: float = 20.0,
                      source_roots: Iterable[Path | str] = ()) -> Iterator[str]:
    """Serve `models_dir` on 127.0.0.1 and yield the base URL; the server stops when the block ends.
    `source_roots` are the extra folders snippets may be read from (as `serve --source-root`)."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(uvicorn.Config(create_app(models_dir, source_roots=source_roots), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + timeout
    while not server.started:
        if time.time() > deadline:
            raise RuntimeError("the viewer did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
