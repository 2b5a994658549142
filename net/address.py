"""Table addresses: what `hedgerow host` prints and `hedgerow join` takes.

A ZeroMQ CURVE client must know the server's public key before it connects, so the address
of a table carries the host's key: ``HOST:PORT/KEY`` with KEY in base64url (43 characters,
see `hedgerow.net.keys.key_text`).  The key pins the table: nobody else on the LAN can
pretend to be it.  Tables found by LAN discovery carry the same three facts.

A socket bound to every interface is advertised at one of this machine's own addresses
(`advertised_host`); `lan_addresses` lists them (LAN discovery announces each interface's
own on that interface, `hedgerow.net.discovery`).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass

from hedgerow.net.keys import key_from_text, key_text

log = logging.getLogger(__name__)


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


@dataclass(frozen=True, slots=True)
class LocalAddress:
    """One address of one of this machine's network interfaces."""

    interface: str  # its name, e.g. ``eth0``
    address: str  # e.g. ``192.168.1.20``
    prefix: int  # the length of its network's prefix, e.g. 24

    def reaches(self, host: str) -> bool:
        """Whether ``host`` (an IP address) is on this address's own network."""
        try:
            network = ipaddress.ip_network(f"{self.address}/{self.prefix}", strict=False)
            return ipaddress.ip_address(host.split("%")[0]) in network
        except ValueError:
            return False


def lan_addresses(family: int = socket.AF_INET) -> list[LocalAddress]:
    """This machine's addresses other peers may reach: every interface's own addresses of
    ``family``, loopback left out, link-local ones (169.254/16, fe80::/10) after the others;
    in the operating system's order of interfaces."""
    import ifaddr  # (zeroconf's own way to list interfaces; pure Python)

    found: list[LocalAddress] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                parsed = ipaddress.ip_address(text)
            except ValueError:
                continue
            if parsed.is_loopback or (parsed.version == 6) != (family == socket.AF_INET6):
                continue
            found.append(LocalAddress(adapter.nice_name, text, ip.network_prefix))
    return sorted(found, key=lambda a: ipaddress.ip_address(a.address).is_link_local)


def route_source(toward: str, family: int = socket.AF_INET) -> str | None:
    """This machine's address on the route toward ``toward``; None without such a route.
    (A UDP connect sends nothing: it only asks the kernel for the route.)"""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((toward, 9))
            return str(s.getsockname()[0])
    except OSError:
        return None


def advertised_host(bind_host: str, toward: str | None = None) -> str:
    """The host name others should use to reach a socket bound to ``bind_host``.

    A specific bind is itself.  A wildcard bind (0.0.0.0, ::) is reached through this
    machine's address on the route toward ``toward`` (another peer's host); else, in
    order: its address on the default route, on the multicast route (where LAN discovery
    announces), or the first address of an interface that has one (a host with no route at
    all); only when no interface but loopback has an address is it loopback, with a warning
    (then only this machine can reach it).
    """
    try:
        wildcard = ipaddress.ip_address(bind_host).is_unspecified
    except ValueError:
        return bind_host  # a host name
    if not wildcard:
        return bind_host
    family = socket.AF_INET6 if ":" in bind_host else socket.AF_INET
    if toward is not None and (found := route_source(toward, family)) is not None:
        return found
    probes = ("2001:db8::1", "ff02::fb") if family == socket.AF_INET6 else (
        "192.0.2.1", "224.0.0.251")  # a documentation address (the default route); mDNS
    for probe in probes:
        found = route_source(probe, family)
        if found is not None and not ipaddress.ip_address(found.split("%")[0]).is_loopback:
            return found
    addresses = lan_addresses(family)
    if addresses:
        return addresses[0].address
    loopback = "::1" if family == socket.AF_INET6 else "127.0.0.1"
    log.warning("this machine has no network address but loopback (is it connected to a "
                "network?): only programs on this machine can reach it, at %s", loopback)
    return loopback


def endpoint_toward(bound: str, advertised: str, peer: str) -> str:
    """The endpoint ``peer`` (``tcp://HOST:PORT``) should dial to reach a socket bound at
    ``bound`` and advertised at ``advertised``: for a socket bound to every interface, this
    machine's address on the route toward that peer (a host on two subnets is reached by
    each peer at its address on that peer's subnet); else ``advertised``."""
    try:
        bound_host, port = split_endpoint(bound)
        peer_host = split_endpoint(peer)[0]
        if not ipaddress.ip_address(bound_host).is_unspecified:
            return advertised
        family = socket.AF_INET6 if ":" in bound_host else socket.AF_INET
        found = route_source(peer_host, family)
    except ValueError:
        return advertised
    return advertised if found is None else endpoint(found, port)
