"""Loopback addresses whose port is where another program of the system listens:
``namesrvAddr=127.0.0.1:9876`` in the broker's settings file, while the name server's own code says
``nettyServerConfig.setListenPort(9876)``, connects the broker to the name server.

Why: programs of one repository run side by side on one machine in the documented set-up (the quick
start, a settings file per program) and reach each other on the loopback.  A loopback address names
no component; its port does, when exactly one other program listens there by its own word: a
``setListenPort(9876)``/``new ServerSocket(9876)`` in its code, a ``listenPort``/``listen-port``/
``server.port`` setting in its own configuration, a container port its deployment declares.  Both
lines are the evidence.  A program's settings file in a configuration folder belongs to the program
it is named after (``conf/broker-a.conf`` is the broker's) when no program's folder holds it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import BROWSER_URL_KEY, LOCAL_HOSTS, SCHEME_PROTOCOL, is_private_address
from repomodeler.graph.values import parse_hosts
from repomodeler.inventory import classify_role
from repomodeler.records import Evidence, Fact

# Setting keys saying where their own program listens (listenPort, master.listen-port, server.port).
LISTEN_KEY = re.compile(r"(?i)(^|[._-])(listen[-_]?port|server[-_.]port|bind[-_]?port|rpc[-_]?port)$")
# Setting or constant names that hold an address (namesrvAddr, NAMESRV_ADDR, broker.url, peer-host).
ADDRESS_KEY = re.compile(r"(?i)(addr|address|addresses|addrs|host|hosts|url|uri|endpoints?|servers?|connect)$")
RUNNING_KINDS = ("service", "gateway")
# A port a setting gives, written or as a placeholder's default (`port: ${SERVICE_PORT:8081}`); not
# `${SERVICE_PORT:-1}` (-1, 0: a random port).
PORT_VALUE = re.compile(r"^(?:(\d{2,5})|\$\{[A-Za-z0-9_.\-]+:-?(\d{2,5})\})$")
# A bind address: all interfaces or the loopback, and a port (`0.0.0.0:2001`, `[::]:8080`, `:9000`).
BIND_VALUE = re.compile(r"^(?:0\.0\.0\.0|127\.0\.0\.1|localhost|\[::\]|\[::1\])?:(\d{2,5})()$")


def listen_port_value(value: str) -> int | None:
    """The port a listen setting's value gives, directly or as its placeholder's default, or as the port of a
    bind address (``0.0.0.0:2001``)."""
    m = PORT_VALUE.match(value.strip()) or BIND_VALUE.match(value.strip())
    return int(m.group(1) or m.group(2)) if m else None


def listens_by_key(name: str, path: str) -> bool:
    """Does the setting say where its own program listens?  A listen key (``listenPort``,
    ``micronaut.server.port``), or ``<name>.port`` in the settings file named ``<name>``
    (``canal.port`` in ``canal.properties``: the program's own namespace, not another's)."""
    stem = PurePosixPath(path).stem.lower()
    # (a program's own top-level `ListenOn: 0.0.0.0:2001` or `Port: 1001`, go-zero's service settings)
    return bool(LISTEN_KEY.search(name)) or name.lower() in (f"{stem}.port", "listenon", "port")


class ListenPortRules(ResolverBase):
    """Holders of a loopback address connected to the program listening on its port."""

    def listen_port_addresses(self) -> None:
        listeners = self._listeners()
        if not listeners:
            return
        links: dict[tuple[str, str], list[str]] = defaultdict(list)
        for s, t, protocol in self.model.connections:
            if protocol != "library":
                links[(s, t)].append(protocol)
        for f in sorted([*self.by_kind["config.setting"], *self.by_kind["config.property"],
                         *self.by_kind["const.string"]], key=Fact.order):
            name = re.sub(r"\[\d+\]$", "", f.get("name") or "")  # (a list's item: OrderRpcConf.Endpoints[0])
            if f.get("profile") or listens_by_key(name, f.path) or not ADDRESS_KEY.search(name) or BROWSER_URL_KEY.search(name):
                continue  # (where a browser is sent, an OAuth redirect, is no call)
            owner = self._settings_owner(f)
            if owner is None:
                continue
            for part in re.split(r"[;,\s]+", f.get("value") or ""):
                for ref in parse_hosts(part if "://" in part else f"tcp://{part}"):
                    if ref.port is None or not (ref.host in LOCAL_HOSTS or is_private_address(ref.host)):
                        continue
                    there = {c: ev for c, ev in listeners.get(ref.port, {}).items() if c != owner}
                    if len(there) != 1 or owner in listeners.get(ref.port, {}):
                        continue  # nobody, several programs, or the holder itself listens there
                    (target, listen_ev), = there.items()
                    # the link other rules found for this address (http://localhost:8110) is this one
                    scheme = SCHEME_PROTOCOL.get(ref.scheme or "", "tcp") if "://" in part else "tcp"
                    protocol = min(links.get((owner, target), [scheme]))
                    links[(owner, target)].append(protocol)
                    self.connect(owner, target, protocol, [f.evidence, listen_ev],
                                 attributes={"via": f"{name} = {part} (the port {self.model.components[target].name} "
                                                    f"listens on)"})

    def _listeners(self) -> dict[int, dict[str, Evidence]]:
        """port -> {program listening there by its own code or settings: the first line saying so}."""
        out: dict[int, dict[str, Evidence]] = defaultdict(dict)
        said: list[tuple[Fact, str]] = [(f, f.get("port") or "") for f in self.by_kind["server.listen_port"]]
        said += [(f, str(listen_port_value(f.get("value") or "") or ""))
                 for f in [*self.by_kind["config.setting"], *self.by_kind["config.property"]]
                 if listens_by_key(f.get("name") or "", f.path) and not f.get("profile")]
        for f, port in sorted(said, key=lambda p: Fact.order(p[0])):
            if not port.isdigit() or int(port) == 0:
                continue
            owner = self._settings_owner(f)
            if owner is not None:
                out[int(port)].setdefault(owner, f.evidence)
        return out

    def _settings_owner(self, f: Fact) -> str | None:
        """The running program whose code or settings the fact is in (a settings file named for it)."""
        if classify_role(f.path) != "source":
            return None
        owner = self.owner_of(f.repository, f.path)
        process_of = getattr(self, "process_of_file", None)  # (none when the process rules are off)
        process = process_of(f.repository, f.path) if process_of is not None and owner is not None else None
        if process is not None and process in self.model.components:
            owner = process  # the process whose program folder holds the settings (app/order/cmd/api/etc/order.yaml)
        if f.get("program"):  # a program's configuration file (an Alloy receiver): the container running it
            owner = self.config_runner(f.get("program") or "", owner)  # type: ignore[attr-defined]
        if owner is not None and self.model.components[owner].kind in RUNNING_KINDS:
            return owner
        if owner is not None or f.kind != "config.setting":
            return None
        stem = PurePosixPath(f.path).stem.lower()
        parts = re.split(r"[-_.]", stem)
        for i in range(len(parts), 0, -1):  # broker-a-in-container1 -> broker-a-in ... -> broker
            cid = self.alias.get("-".join(parts[:i])) or self.alias.get("".join(parts[:i]))
            if cid is not None and self.model.components[cid].kind in RUNNING_KINDS:
                return cid
        return None
