"""Table addresses: what `hedgerow host` prints and `hedgerow join` takes.

A ZeroMQ CURVE client must know the server's public key before it connects, so the address
of a table carries the host's key: ``HOST:PORT/KEY`` with KEY in base64url (43 characters,
see `hedgerow.net.keys.key_text`).  The key pins the table: nobody else on the LAN can
pretend to be it.  Tables found by LAN discovery carry the same three facts.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from hedgerow.net.keys import key_from_text, key_text


@dataclass(frozen=True, slots=True)
class TableAddress:
    """Where a table's host listens and the public key it proves it holds."""

    host: str
    port: int
    key: bytes

    @property
    def endpoint(self) -> str:
        """The ZeroMQ endpoint, ``tcp://HOST:PORT``."""
        return endpoint(self.host, self.port)

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}/{key_text(self.key)}"


def endpoint(host: str, port: int) -> str:
    """``tcp://HOST:PORT`` (IPv6 hosts in brackets)."""
    return f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"


def split_endpoint(text: str) -> tuple[str, int]:
    """(host, port) of ``tcp://HOST:PORT``; `ValueError` for anything else."""
    if not text.startswith("tcp://"):
        raise ValueError(f"not a tcp endpoint: {text!r}")
    return host_port(text[len("tcp://"):])


def host_port(text: str) -> tuple[str, int]:
    """(host, port) of ``HOST:PORT`` (``[HOST]:PORT`` for IPv6); `ValueError` otherwise."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT, not {text!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, int(port)


def parse_address(text: str) -> TableAddress:
    """A `TableAddress` from ``HOST:PORT/KEY``; `ValueError` with a readable message otherwise."""
    where, sep, key = text.strip().rpartition("/")
    if not sep:
        raise ValueError(
            f"{text!r} has no table key: use the whole address `hedgerow host` printed "
            "(HOST:PORT/KEY), or the table's name"
        )
    host, port = host_port(where)
    try:
        raw = key_from_text(key)
    except ValueError:
        raise ValueError(f"{key!r} is not a table key (43 characters of base64url)") from None
    return TableAddress(host, port, raw)


def looks_like_address(text: str) -> bool:
    """True when ``text`` is meant as an address (HOST:PORT...) rather than a table name."""
    head = text.split("/", 1)[0]
    return ":" in head and head.rsplit(":", 1)[1].isdigit()


def advertised_host(bind_host: str, toward: str | None = None) -> str:
    """The host name others should use to reach a socket bound to ``bind_host``.

    A wildcard bind (0.0.0.0, ::) is reached through this machine's address on the route
    toward ``toward`` (another peer's host), or its LAN address; a specific bind is itself.
    """
    try:
        wildcard = ipaddress.ip_address(bind_host).is_unspecified
    except ValueError:
        return bind_host  # a host name
    if not wildcard:
        return bind_host
    family = socket.AF_INET6 if ":" in bind_host else socket.AF_INET
    probe = toward or ("2001:db8::1" if family == socket.AF_INET6 else "192.0.2.1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))  # UDP connect sends nothing; it only picks a route
            return s.getsockname()[0]
    except OSError:
        return "::1" if family == socket.AF_INET6 else "127.0.0.1"
