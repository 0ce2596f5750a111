"""Local stand-ins for remote git hosts (127.0.0.1 only, free ports, stopped by the tests).

* :class:`GitHttpServer` serves bare repositories over smart HTTP by running ``git http-backend``
  as a CGI program, optionally demanding HTTP basic auth with a given password: the private
  repository of the credential tests.  It records every Authorization header it saw, and can be
  told to hang (to hold a fetch while a test presses Ctrl-C).
* :class:`SilentServer` accepts TCP connections and never answers: a host that hangs a clone
  until ``--timeout`` (or Ctrl-C) ends it.
"""

from __future__ import annotations

import base64
import os
import socket
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass

    def _authorised(self) -> bool:
        header = self.headers.get("Authorization")
        if header:
            self.server.seen_auth.append(header)
        if self.server.password is None:
            return True
        if not header or not header.startswith("Basic "):
            return False
        try:
            _user, _, password = base64.b64decode(header[6:]).decode().partition(":")
        except Exception:
            return False
        return password == self.server.password

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _serve(self, method: str) -> None:
        body = self._body() if method == "POST" else b""
        if self.server.hang.is_set():  # play a host that accepted the request and went silent
            self.server.hanging.set()
            self.server.stopping.wait(60)
            return
        if not self._authorised():
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="private"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        path, _, query = self.path.partition("?")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": str(self.server.root),
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": path,
            "REQUEST_METHOD": method,
            "QUERY_STRING": query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_ADDR": "127.0.0.1",
        }
        if self.headers.get("Content-Encoding"):
            env["HTTP_CONTENT_ENCODING"] = self.headers["Content-Encoding"]
        if self.headers.get("Git-Protocol"):
            env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        proc = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True, check=False)
        head, sep, payload = proc.stdout.partition(b"\r\n\r\n")
        if not sep:
            head, _, payload = proc.stdout.partition(b"\n\n")
        status = 200
        headers: list[tuple[str, str]] = []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        self._serve("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._serve("POST")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    root: Path
    password: str | None
    seen_auth: list[str]
    hang: threading.Event
    hanging: threading.Event
    stopping: threading.Event


class GitHttpServer:
    """`with GitHttpServer(root, password=...) as srv: srv.url("repo.git")`."""

    def __init__(self, root: Path, password: str | None = None) -> None:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.root = root
        self._server.password = password
        self._server.seen_auth = []
        self._server.hang = threading.Event()
        self._server.hanging = threading.Event()
        self._server.stopping = threading.Event()
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def seen_auth(self) -> list[str]:
        return self._server.seen_auth

    @property
    def hang(self) -> threading.Event:
        """Set it to make every request hang (until the server stops) instead of being answered."""
        return self._server.hang

    @property
    def hanging(self) -> threading.Event:
        """Set once a request is being held by `hang`."""
        return self._server.hanging

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{name}"

    def __enter__(self) -> "GitHttpServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.stopping.set()
        self._server.shutdown()
        self._server.server_close()


class SilentServer:
    """Accepts connections on 127.0.0.1 and never sends a byte."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.2)
        self._held: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    @property
    def port(self) -> int:
        return self._sock.getsockname()[1]

    @property
    def accepted(self) -> int:
        """How many connections it has accepted (and left hanging)."""
        return len(self._held)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            self._held.append(conn)

    def __enter__(self) -> "SilentServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for conn in self._held:
            conn.close()
        self._sock.close()


def bare_copy(work_repo: Path, root: Path, name: str) -> Path:
    """A bare clone of a local work tree under `root` (the server's project root)."""
    dest = root / name
    subprocess.run(["git", "clone", "--quiet", "--bare", str(work_repo), str(dest)], check=True, capture_output=True)
    return dest
