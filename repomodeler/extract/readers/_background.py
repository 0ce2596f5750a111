"""Programs a container's start script runs in the background beside the application.

An image whose command is a shell script (``CMD ["sh", "run.sh"]``) often packs a web server or a store into the
application's container: ``nginx -g 'daemon off;' &``, ``caddy start --config Caddyfile &``, ``redis-server
/app/redis.conf &``, then the application in the foreground or in the background with ``wait``.  The script is a
small process manager: each such line is a ``program.command`` fact (``source`` ``script``), named for the program
(``nginx``, ``caddy``) or the store it serves (``redis``), which ``process.supervised`` reads as it reads
supervisord's or s6's programs: the web server is the container's front door, the store one the application uses.
Only web servers and stores are read: the application's own line names a runtime (``node server.js``), not a
process of its own.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import fact
from repomodeler.records import Fact

# Programs a start script runs beside the application, by the name the process goes by.
BACKGROUND_PROGRAMS = {
    "nginx": "nginx", "openresty": "nginx", "caddy": "caddy", "haproxy": "haproxy", "httpd": "httpd",
    "apache2ctl": "apache2ctl", "lighttpd": "lighttpd", "traefik": "traefik",
    "redis-server": "redis", "valkey-server": "valkey", "memcached": "memcached", "mongod": "mongod",
}
# `[exec] [VAR=value ...] program args &` (one `&`, not `&&`), optionally followed by a comment.
_BACKGROUND = re.compile(r"^\s*(?:exec\s+)?(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?P<cmd>[^\s&|#].*?)(?<!&)\s*&\s*(?:#[^'\"]*)?$")


def _background_word(line: str) -> tuple[str, str] | None:
    """(program word, command) of a line starting one program in the background, else None (a chain with `&&`,
    `||` or a pipe is a step of the script, not a process it keeps)."""
    if line.lstrip().startswith("#"):
        return None
    m = _BACKGROUND.match(line)
    if not m:
        return None
    command = m.group("cmd").strip()
    if re.search(r"&&|\|\||\s\|\s", command):
        return None
    return PurePosixPath(command.split()[0].strip("\"'")).name.lower(), command


def background_programs(repo: str, path: str, text: str) -> list[Fact]:
    """One ``program.command`` fact for each web server or store the script starts in the background (first line
    of each), when it starts one at all."""
    facts: list[Fact] = []
    seen: set[str] = set()
    for i, line in enumerate(text.splitlines(), start=1):
        found = _background_word(line)
        owner = BACKGROUND_PROGRAMS.get(found[0]) if found else None
        if found is None or owner is None or owner in seen:
            continue
        seen.add(owner)
        facts.append(fact("program.command", repo, path, i, owner=owner, command=found[1][:500], source="script"))
    return facts


def starts_in_background(path: str, head: str) -> bool:
    """Does the script (its first part) start a web server or a store in the background?"""
    return any((found := _background_word(line)) is not None and found[0] in BACKGROUND_PROGRAMS
               for line in head.splitlines())
