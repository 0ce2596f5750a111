"""Typed values for the SysML text: ports, replica counts, CPU and memory as numbers with their units.

model.json keeps what the descriptors say as written (``ports: "5672:5672,15672:15672"``,
``memory_limit: "128Mi"``), which is what a reader of the descriptor recognises.  A SysML model
states values by type: a published port is a ``PortMapping`` (its container port, the host or
Service port it is published on, the transport) with ``Natural`` ports; replicas are a
``Natural``; CPU is a ``Real`` number of cores (Kubernetes CPU units); memory is a ``MemorySize``
quantity in ``SI::byte`` (IEC 80000-13 storage capacity).  A value that does not parse (a port
range, an environment variable) is left out of the typed attributes and named in the element's
doc instead, never written as a string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# Kubernetes quantity suffixes (k8s.io/apimachinery resource.Quantity): binary and decimal multiples.
_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL = {"k": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}
_QUANTITY = re.compile(r"^([0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E|m)?$")
_PORT = re.compile(r"^[0-9]{1,5}$")


@dataclass(frozen=True)
class PortMapping:
    """One published port: the port the container listens on, the port it is published on (a compose
    host port, absent when only the container port is given) and the transport when written."""

    container: int
    host: int | None = None
    transport: str = ""

    @property
    def label(self) -> str:
        return (f"{self.host}-{self.container}" if self.host is not None and self.host != self.container
                else str(self.container))


def port_mappings(text: str) -> tuple[list[PortMapping], list[str]]:
    """``"8080:80/tcp,9090"`` -> ([PortMapping(80, 8080, "tcp"), PortMapping(9090)], not understood).

    Compose short syntax (``[ip:][host:]container[/protocol]``), Kubernetes container ports and
    Dockerfile ``EXPOSE`` values; a range (``8000-8010``) or a variable is returned as not understood."""
    mappings, other = [], []
    for raw in re.split(r"[,\s]+", text or ""):
        item = raw.strip().strip("\"'")
        if not item:
            continue
        body, _, transport = item.partition("/")
        fields = body.split(":")
        container = fields[-1]
        host = fields[-2] if len(fields) >= 2 else ""
        if not _PORT.match(container) or (host and not _PORT.match(host)) or int(container) > 65535 or \
                (host and int(host) > 65535) or (transport and not transport.isalpha()):
            other.append(item)
            continue
        mapping = PortMapping(int(container), int(host) if host else None, transport.lower())
        if mapping not in mappings:
            mappings.append(mapping)
    return mappings, other


def _decimal(text: str) -> Decimal | None:
    m = _QUANTITY.match(text.strip())
    if not m:
        return None
    try:
        number = Decimal(m.group(1))
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        return None
    suffix = m.group(2) or ""
    if suffix in _BINARY:
        number *= Decimal(1024) ** _BINARY[suffix]
    elif suffix in _DECIMAL:
        number *= Decimal(1000) ** _DECIMAL[suffix]
    elif suffix == "m":
        number /= 1000
    return number


def _literal(number: Decimal) -> str:
    """A SysML number literal: an integer when whole, else a plain decimal (no exponent)."""
    if number == number.to_integral_value():
        return str(int(number))
    text = format(number.normalize(), "f")
    return text


def cpu_cores(text: str) -> str | None:
    """A Kubernetes CPU quantity as a number of cores: ``100m`` -> ``0.1``, ``2`` -> ``2``."""
    number = _decimal(str(text))
    return _literal(number) if number is not None else None


def memory_bytes(text: str) -> str | None:
    """A Kubernetes memory quantity in bytes: ``64Mi`` -> ``67108864``, ``1G`` -> ``1000000000``
    (a fraction of a byte, from ``m``, is no memory size: None)."""
    number = _decimal(str(text))
    if number is None or number != number.to_integral_value():
        return None
    return str(int(number))


def natural(text: str) -> str | None:
    """A non-negative integer as written (``"3"``), else None (``"{{ .Values.replicas }}"``)."""
    text = str(text).strip()
    return str(int(text)) if text.isdigit() else None
