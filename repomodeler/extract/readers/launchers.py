"""How a repository's programs are started when no compose file or manifest says so: launcher scripts
in ``bin/`` naming the Java class they run, and the process supervisors of an image or a host
(supervisord ``[program:x]``, systemd ``*.service`` units, s6-overlay ``run`` scripts, uWSGI's
``attach-daemon`` lines, modd's ``daemon:`` programs).

Each becomes what the resolver already knows how to read: ``program.launch`` (a script starting a
Java main class: ``sh bin/runserver.sh org.apache.rocketmq.namesrv.NamesrvStartup``) or
``program.command`` (a named program and its command line, as a Procfile line is).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import joined_shell_lines
from repomodeler.records import Fact

# A fully qualified Java class: two or more lower-case package segments, then a CamelCase class.
JAVA_CLASS = re.compile(r"(?<![\w.$/-])((?:[a-z_][a-z0-9_]*\.){2,}[A-Z][A-Za-z0-9_]*)(?![\w.])")
# Lines that name a class without starting it: finding or stopping a running process, messages.
NOT_A_LAUNCH = re.compile(r"^\s*(#|echo\b|printf\b)|\bgrep\b|\bpkill\b|\bkill\b|\bps\s+-?[a-z]*\b|\bjps\b")
# Environment switches that turn an optional program on (PAPERLESS_ENABLE_FLOWER, ENABLE_METRICS).
FEATURE_SWITCH = re.compile(r"(^|_)(ENABLE|ENABLED|USE|WITH)(_|$)", re.I)
# A condition testing a development switch (`if [ "$DEVELOPMENT" = 'true' ]`, `[[ $NODE_ENV == development ]]`):
# what it starts is the developer's (a file watcher, a dev server), its `else` what the image runs.
DEV_SWITCH = re.compile(r"\$\{?((DEVELOPMENT|DEV|DEV_MODE|DEVMODE|DEBUG)\b|NODE_ENV\}?\"?\s*={1,2}\s*[\"']?dev)", re.I)
# Wrappers in front of the real command of a supervised process.
WRAPPERS = re.compile(r"^(?:(?:exec|s6-setuidgid\s+\S+|s6-envuidgid\s+\S+|s6-notifyoncheck(?:\s+-\S+)*|"
                      r"with-contenv|gosu\s+\S+|su-exec\s+\S+|chpst(?:\s+-\S+\s+\S+)*|runuser\s+-u\s+\S+\s+--|"
                      r"sudo\s+-u\s+\S+|(?:/sbin/)?setuser\s+\S+)\s+)+")  # (setuser: runit's, the baseimage-docker images')


def read_launch_script(repo: str, path: str, text: str) -> list[Fact]:
    """A script in ``bin/`` that starts a Java class: one fact a class (the first line naming it)."""
    facts: list[Fact] = []
    seen: set[str] = set()
    script = PurePosixPath(path).name
    for i, line in enumerate(text.splitlines(), start=1):
        if NOT_A_LAUNCH.search(line):
            continue
        for m in JAVA_CLASS.finditer(line):
            cls = m.group(1)
            if cls in seen or "=" in line[max(0, m.start() - 1):m.start()]:
                continue  # a -Dkey=org.acme.Value setting, not the class started
            seen.add(cls)
            facts.append(fact("program.launch", repo, path, i, java_class=cls, script=script.removesuffix(".sh")))
    return facts


def read_supervisord(repo: str, path: str, text: str) -> list[Fact]:
    """``[program:consumer]`` sections with their ``command=`` (continuation lines joined)."""
    facts: list[Fact] = []
    program: str | None = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        header = re.match(r"^\s*\[(program|fcgi-program):([^\]]+)\]", raw)
        if header:
            program = header.group(2).strip()
        elif re.match(r"^\s*\[", raw):
            program = None
        elif program:
            m = re.match(r"^\s*command\s*=\s*(.+)$", raw)
            if m:
                command, start = m.group(1).strip(), i + 1
                while i + 1 < len(lines) and re.match(r"^[ \t]+\S", lines[i + 1]):
                    i += 1
                    command += " " + lines[i].strip()
                facts.append(fact("program.command", repo, path, start, owner=program,
                                  command=_command(command)[:500], source="supervisord"))
        i += 1
    return facts


def read_uwsgi_ini(repo: str, path: str, text: str) -> list[Fact]:
    """uWSGI's ``attach-daemon`` (and ``attach-daemon2 = cmd=...``, ``smart-attach-daemon``) lines: the
    programs the application server keeps running beside the web app it serves (a Django app's
    ``./manage.py sendalerts``), named after the management command or the program. Lines inside an
    ``if-env``/``if-exists`` block run only when that is set: optional."""
    facts: list[Fact] = []
    depth = 0
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if re.match(r"^(if-[a-z-]+|for-[a-z-]+)\s*=", line):
            depth += 1
            continue
        if re.match(r"^end(if|for)\s*=", line):
            depth = max(0, depth - 1)
            continue
        m = re.match(r"^(?:smart-|legion-)?attach-daemon2?\s*=\s*(.+)$", line)
        if not m:
            continue
        command = m.group(1).strip()
        if line.split("=", 1)[0].strip().endswith("daemon2"):  # key=value list: cmd=...,
            cmd = re.search(r"(?:^|,)\s*cmd\s*=\s*([^,]+)", command)
            if not cmd:
                continue
            command = cmd.group(1).strip()
        words = _command(command).split()
        if not words:
            continue
        name = PurePosixPath(words[0]).name
        if name in ("manage.py", "django-admin") or (name.startswith("python") and len(words) > 2 and words[1].endswith("manage.py")):
            rest = words[1:] if name in ("manage.py", "django-admin") else words[2:]
            name = next((w for w in rest if not w.startswith("-")), name)
        facts.append(fact("program.command", repo, path, i, owner=name, command=_command(command)[:500],
                          source="uwsgi", optional="true" if depth else ""))
    return facts


def read_systemd_unit(repo: str, path: str, text: str) -> list[Fact]:
    """A systemd service unit: ``ExecStart=`` of its ``[Service]`` section, named after the unit (a template
    unit, ``opentsdb@.service``, by the service it starts instances of: ``opentsdb``)."""
    unit = PurePosixPath(path).name.removesuffix(".service").removesuffix("@")
    section = ""
    for i, raw in enumerate(text.splitlines(), start=1):
        header = re.match(r"^\s*\[([^\]]+)\]", raw)
        if header:
            section = header.group(1).strip()
            continue
        m = re.match(r"^\s*ExecStart\s*=\s*[-@:+!]*(.+)$", raw)
        if section == "Service" and m:
            return [fact("program.command", repo, path, i, owner=unit, command=_command(m.group(1))[:500],
                         source="systemd")]
    return []


def read_s6_run(repo: str, path: str, text: str) -> list[Fact]:
    """An s6 service's ``run`` script (``s6-rc.d/svc-consumer/run``, ``services.d/worker/run``), or a runit
    service's (``runit/chat/run``, the same form): the
    program it ``exec``s into is the long-running process, named after the service folder.  One started
    only when a feature switch is set (``if [[ -n "${APP_ENABLE_FLOWER}" ]]``), or in development (``if [
    "$DEVELOPMENT" = 'true' ]``), is marked ``optional``; a program a restart loop keeps running (``while :; do
    node index.js; sleep 1; done``) is the process as an ``exec`` is."""
    service = PurePosixPath(path).parent.name
    name = re.sub(r"^(svc|service)[-_]", "", service)
    found: list[Fact] = []
    switches: list[str | None] = []  # per open `if`: the feature switch it tests (None: another condition)
    variables: dict[str, str] = {}
    looping = 0
    for i, line in joined_shell_lines(text):
        if line.startswith("#"):
            continue
        if re.match(r"^if\b", line):
            m = re.search(r"-n\s+\"?\$\{?([A-Za-z_][A-Za-z0-9_]*)", line)
            dev = DEV_SWITCH.search(line)
            switches.append(m.group(1) if m and FEATURE_SWITCH.search(m.group(1))
                            else dev.group(1).strip("${}\"' =") if dev else None)
            continue
        if re.match(r"^while\s+(:|true)\s*(;\s*do)?$", line):
            looping += 1  # a restart loop (`while :; do node index.js; sleep 1; done`) keeps its program running
            continue
        if re.match(r"^done\b", line) and looping:
            looping -= 1
            continue
        if looping and not line.startswith("exec ") and not re.match(r"^(do|sleep|echo|printf|set|cd|export)\b", line):
            command = _command(line)
            if command and not command.startswith(("s6-", "sleep", "true", "/bin/true")):
                switch = next((sw for sw in reversed(switches) if sw), None)
                found.append(fact("program.command", repo, path, i, owner=name, command=command[:500], source="s6",
                                  optional=switch))
            continue
        if re.match(r"^(else|elif)\b", line) and switches:
            switches[-1] = None
            continue
        if re.match(r"^fi\b", line) and switches:
            switches.pop()
            continue
        assigned = re.match(r"^(?:readonly\s+|local\s+|export\s+|declare\s+)?([A-Za-z_]\w*)=(\"[^\"$`]*\"|'[^']*'|[^\s$`;|&]+)$",
                            line)
        if assigned:
            # `readonly binary_path="/usr/local/go2rtc/bin/go2rtc"`: what `exec "${binary_path}"` starts (the
            # last value set: the default after an override's branch)
            variables[assigned.group(1)] = assigned.group(2).strip("'\"")
            continue
        m = re.match(r"^exec\s+(.+)$", line)
        if m:
            command = _command(_expand_first_word(m.group(1), variables))
            if command and not command.startswith(("s6-", "sleep", "true", "/bin/true")):
                switch = next((sw for sw in reversed(switches) if sw), None)
                found.append(fact("program.command", repo, path, i, owner=name, command=command[:500], source="s6",
                                  optional=switch))
    if not found:
        # An execline script (`#!/bin/execlineb -P` then `nginx -g "daemon off;"`) chains into its one command;
        # a shell script with no `exec` keeps running its last command in the foreground: that is the process.
        last = _foreground_command(text)
        if last is not None:
            i, command = last
            found.append(fact("program.command", repo, path, i, owner=name, command=command[:500], source="s6"))
    kept = [f for f in found if not f.get("optional")] or found
    return kept[-1:]  # `exec a` under an if, `exec s6-setuidgid x a` under the else: the same program


# Shell words that prepare, test or report rather than run the service (a script's set-up lines).
_SETUP_WORDS = frozenset({"set", "cd", "echo", "printf", "export", "source", ".", "sleep", "test", "[", "[[", "true",
                          "mkdir", "chown", "chmod", "rm", "cp", "mv", "ln", "touch", "cat", "sed", "umask", "ulimit",
                          "trap", "wait", "local", "readonly", "declare", "unset", "shift", "return", "exit", "fi",
                          "done", "esac", "then", "else", "elif", "do", "if", "for", "while", "until", "case", "}",
                          "{", "function", "with-contenv", "s6-svc", "s6-svwait", "s6-setuidgid", "foreground",
                          "background", "importas", "fdmove", "redirfd", "multisubstitute", "define", "backtick"})


def _foreground_command(text: str) -> tuple[int, str] | None:
    """The command a run script without ``exec`` ends in, outside any ``if``/loop/function: (line, command);
    None when its last top-level line prepares or tests something instead."""
    depth = 0
    last: tuple[int, str] | None = None
    for i, line in joined_shell_lines(text):
        if not line or line.startswith("#"):
            continue
        word = line.split()[0]
        if re.match(r"^(if|for|while|until|case)\b", line) or line.endswith("{") or re.match(r"^\w+\s*\(\)", line):
            depth += 1
            last = None
            continue
        if re.match(r"^(fi|done|esac|})\b", line):
            depth = max(0, depth - 1)
            last = None
            continue
        if depth:
            continue
        if "=" in word or word in _SETUP_WORDS or word.startswith("s6-") or not re.match(r"^[\w./-]+$", word) \
                or "$" in word or word.startswith("/etc/"):
            # (/etc/s6-overlay/scripts/nginx: a wrapper script of the image, whose program it does not say)
            last = None
            continue
        last = (i, _command(line))
    return last if last and last[1] else None


def _expand_first_word(command: str, variables: dict[str, str]) -> str:
    """The command with its first word, a variable the script set (``"${binary_path}" -config=x``), replaced by
    its value; unchanged when the first word is no such variable."""
    m = re.match(r"^\"?\$\{?([A-Za-z_]\w*)\}?\"?(?=\s|$)", command)
    if m and variables.get(m.group(1)):
        return variables[m.group(1)] + command[m.end():]
    return command


def read_s6_type(repo: str, path: str, text: str) -> list[Fact]:
    """An s6-rc service's ``type`` file: ``longrun`` (kept running) or ``oneshot`` (a step run once at
    start-up: migrations, folder setup), which is no process of the running system."""
    kind = text.strip().split()[0] if text.strip() else ""
    if kind not in ("longrun", "oneshot", "bundle"):
        return []
    service = PurePosixPath(path).parent.name
    return [fact("program.lifecycle", repo, path, 1, owner=re.sub(r"^(svc|service)[-_]", "", service), lifecycle=kind,
                 source="s6")]


def read_modd(repo: str, path: str, text: str) -> list[Fact]:
    """modd's ``modd.conf``: blocks of file patterns, each with ``prep:`` steps and ``daemon:`` programs it keeps
    running (the way a development container starts a Go monorepo's services). One fact a daemon, named after
    the binary it runs (``./data/server/order-rpc -f ...``: order-rpc), with the package a ``go build -o`` of that
    binary in the same block compiles (``code``: app/order/cmd/rpc), so the program is known by its code."""
    facts: list[Fact] = []
    builds: dict[str, str] = {}  # binary name -> package folder, in the current block
    daemons: list[tuple[int, str]] = []

    def flush() -> None:
        for line, command in daemons:
            words = command.split()
            binary = PurePosixPath(words[0]).name if words else ""
            if binary:
                facts.append(fact("program.command", repo, path, line, owner=binary, command=command[:500],
                                   source="modd", code=builds.get(binary)))
        builds.clear()
        daemons.clear()

    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.endswith("{") or line == "}":
            flush()
            continue
        m = re.match(r"^(prep|daemon)(?:\s*\+\w+)*\s*:\s*(.+)$", line)
        if not m:
            continue
        if m.group(1) == "daemon":
            daemons.append((i, _command(m.group(2))))
            continue
        build = re.search(r"\bgo\s+build\b.*?-o\s+(\S+)(.*)$", m.group(2))
        if build:
            target = next((w for w in build.group(2).split() if not w.startswith("-")), "")
            if target:
                code = str(PurePosixPath(target.lstrip("./")).parent) if target.endswith(".go") else target.strip("./")
                builds[PurePosixPath(build.group(1)).name] = "" if code == "." else code
    flush()
    return facts


def _command(text: str) -> str:
    return WRAPPERS.sub("", text.strip()).strip()


def _is_supervisord(path: str, head: str) -> bool:
    return "[program:" in head or "[supervisord]" in head


def _is_uwsgi(path: str, head: str) -> bool:
    return "[uwsgi]" in head


def _is_systemd(path: str, head: str) -> bool:
    return "[Service]" in head and "ExecStart" in head


def _is_launch_script(path: str, head: str) -> bool:
    return bool(JAVA_CLASS.search(head)) or head.startswith("#!")


READERS = (
    Reader("launchers.script", "descriptor", 220, read_launch_script, patterns=(r"bin/[^/.]+", r"bin/[^/]+\.sh"),
           sniff=_is_launch_script, line_based=True, ignore_case=False),
    Reader("launchers.supervisord", "descriptor", 221, read_supervisord,
           # (and the program files its [include] section loads: supervisord.d/*.ini, supervisor/conf.d/*.conf)
           patterns=(r"supervisord[^/]*\.conf", r"supervisor/(?:[^/]+/)?[^/]+\.(?:conf|ini)",
                     r"supervisord?\.d/[^/]+\.(?:conf|ini)"), sniff=_is_supervisord,
           line_based=True, shadows=("settings_files.ini",)),
    Reader("launchers.systemd", "descriptor", 222, read_systemd_unit, patterns=(r"[^/]+\.service",),
           sniff=_is_systemd, line_based=True),
    Reader("launchers.uwsgi", "descriptor", 225, read_uwsgi_ini, patterns=(r"[^/]*uwsgi[^/]*\.ini",),
           sniff=_is_uwsgi, line_based=True, shadows=("settings_files.ini",)),
    Reader("launchers.s6", "descriptor", 223, read_s6_run,
           patterns=(r"s6-rc\.d/[^/]+/run", r"services\.d/[^/]+/run", r"runit/[^/]+/run"), line_based=True,
           ignore_case=False),
    Reader("launchers.s6-type", "descriptor", 224, read_s6_type, patterns=(r"s6-rc\.d/[^/]+/type",),
           line_based=True, ignore_case=False),
    Reader("launchers.modd", "descriptor", 226, read_modd, names=frozenset({"modd.conf"}), line_based=True),
)
