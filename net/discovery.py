"""LAN discovery: open tables announced and found with zeroconf (mDNS / DNS-SD).

A host announces each open table as a DNS-SD service of type ``_hedgerow._tcp.local.``;
the service's SRV/A records carry the address of the table's socket and its TXT record
carries the table's public facts:

==========  ==========================================================
``proto``   wire protocol version (decimal integer)
``game``    game name
``variants`` variant names, comma separated (empty: none)
``free``    free seats (decimal integer, ``0 <= free <= seats``)
``seats``   seats at the table (decimal integer, at least 1)
``name``    table name, as people type it in ``hedgerow join NAME``
``key``     the host's public key (z85 or hex text)
``deck``    ``sealed`` or ``open`` (docs/protocol.md §10.12); absent: not said
``watch``   ``yes`` or ``no``: whether the table takes spectators (§3.4); absent: not said
==========  ==========================================================

A table is announced while it is seating, and, when it takes spectators, on while it is
played (``free`` is then 0), so that ``hedgerow watch`` finds it; it goes once the game is
over or its host leaves.

Unknown TXT keys are ignored, so later versions may add keys.  Records come from strangers:
`decode_txt` checks every field, and the `Browser` skips (and logs) any table whose record
does not decode instead of failing.

Discovery is a convenience, never a requirement: joining by ``HOST:PORT/KEY`` always works.
``HEDGEROW_NO_DISCOVERY=1`` turns discovery off (the `Announcer` does nothing, `browse`
finds nothing) for networks that block multicast, and ``HEDGEROW_DISCOVERY_INTERFACES``
(comma-separated IP addresses, e.g. ``127.0.0.1``) restricts it to some interfaces; an
explicit ``interfaces=[...]`` argument takes precedence over the variable.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import re
import socket
import unicodedata
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Self

from zeroconf import DNSQuestionType, InterfaceChoice, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from hedgerow.core.errors import HedgerowError
from hedgerow.net.discoverysettings import (
    ENV_DISABLE,
    discovery_disabled,
    resolve_interfaces,
)

log = logging.getLogger(__name__)

SERVICE_TYPE = "_hedgerow._tcp.local."

#: Longest table name, in UTF-8 bytes (one DNS label).
MAX_NAME_BYTES = 63
#: Longest game or variant name, host key, in characters.
MAX_FIELD_CHARS = 128
#: Most seats a record may claim (a sanity bound for strangers' records, not a game rule).
MAX_SEATS = 255
#: Most tables a browser lists (a bound on what strangers can make it hold).
MAX_TABLES = 256
#: Longest TXT entry (``key=value``), in bytes (RFC 6763 section 6.1).
MAX_TXT_ENTRY = 255

#: Lifetime (s) of a table's DNS records in browsers' caches (they re-ask before it ends).
RECORD_TTL = 120

#: How long (ms) the browser waits for a table's SRV/TXT/A records once it is seen.
RESOLVE_TIMEOUT_MS = 3000

_DIGITS = re.compile(r"[0-9]{1,5}")
#: The ``deck`` TXT value: a word (a later version may add kinds of deck; shown as it is).
_DECK = re.compile(r"[a-z][a-z0-9-]{0,15}")
#: The decks this version plays (`TableAd.deck`).
SEALED, OPEN = "sealed", "open"
_KEY_CHARS = re.compile(r"[!-~]+")  # printable ASCII, no space: covers z85 and hex
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")
_WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "*"})

TableCallback = Callable[[list["TableAd"]], None]


class BadTableAd(HedgerowError):
    """A table advertisement breaks a rule of the TXT format (ours to fix, or a stranger's)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="discovery.bad_ad")


def _check_text(what: str, value: object, *, max_chars: int = MAX_FIELD_CHARS,
                allow_empty: bool = False) -> str:
    """``value`` if it is printable text of a sane length, else `BadTableAd`."""
    if not isinstance(value, str):
        raise BadTableAd(f"{what} must be text, not {type(value).__name__}")
    if not value and not allow_empty:
        raise BadTableAd(f"{what} is empty")
    if len(value) > max_chars:
        raise BadTableAd(f"{what} is longer than {max_chars} characters")
    for ch in value:
        # Control characters (C0, DEL, C1, surrogates) and bidi overrides could rewrite a
        # terminal or disguise a name; a stranger's record must not carry them.
        if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI_CONTROLS:
            raise BadTableAd(f"{what} contains the control character U+{ord(ch):04X}")
    return value


def _check_int(what: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadTableAd(f"{what} must be an integer, not {type(value).__name__}")
    if not lo <= value <= hi:
        raise BadTableAd(f"{what} must be between {lo} and {hi}, not {value}")
    return value


@dataclass(frozen=True, slots=True)
class TableAd:
    """One open table as announced on the LAN.

    ``host``/``port`` are where the table's socket listens; ``host`` is an IP address (for an
    `Announcer`, a wildcard such as ``0.0.0.0`` means "this machine's address on the LAN").
    ``deck`` is the table's deck, `SEALED` or `OPEN` (docs/protocol.md §10.12), or None for
    a record that does not say (a host of an earlier version).
    Construction checks every field and raises `BadTableAd` (a `HedgerowError`).
    """

    name: str
    game: str
    variants: tuple[str, ...]
    free_seats: int
    seats: int
    protocol: int
    host_key: str
    host: str
    port: int
    deck: str | None = None
    #: Whether the table takes spectators (docs/protocol.md §3.4); None: not said.
    watch: bool | None = None

    def __post_init__(self) -> None:
        _check_text("table name", self.name)
        if len(self.name.encode("utf-8")) > MAX_NAME_BYTES:
            raise BadTableAd(f"table name {self.name!r} is longer than {MAX_NAME_BYTES} bytes")
        _check_text("game name", self.game)
        if not isinstance(self.variants, tuple):
            raise BadTableAd("variants must be a tuple of names")
        for v in self.variants:
            _check_text("variant name", v)
            if "," in v:
                raise BadTableAd(f"variant name {v!r} contains a comma")
        _check_int("seats", self.seats, 1, MAX_SEATS)
        _check_int("free seats", self.free_seats, 0, self.seats)
        _check_int("protocol version", self.protocol, 0, 65535)
        _check_text("host key", self.host_key)
        if not _KEY_CHARS.fullmatch(self.host_key):
            raise BadTableAd("host key must be printable ASCII without spaces (z85 or hex)")
        _check_text("host", self.host, allow_empty=True)
        if any(ch.isspace() for ch in self.host):
            raise BadTableAd(f"host {self.host!r} contains a space")
        _check_int("port", self.port, 1, 65535)
        if self.deck is not None and (not isinstance(self.deck, str)
                                      or not _DECK.fullmatch(self.deck)):
            raise BadTableAd(f"deck must be a short lowercase word, not {self.deck!r:.24}")

    @property
    def address(self) -> str:
        """``HOST:PORT`` (``[HOST]:PORT`` for IPv6); `join_address` adds the host key."""
        if ":" in self.host:
            return f"[{self.host}]:{self.port}"
        return f"{self.host}:{self.port}"

    @property
    def join_address(self) -> str:
        """``HOST:PORT/KEY``: what ``hedgerow join`` needs to reach the table without discovery
        (a CURVE client must know the host's key before it connects)."""
        return f"{self.address}/{self.host_key}"

    def sort_key(self) -> tuple[str, str, str, int, str, str]:
        """The order of `Browser.tables`: by name (case-insensitive), then address."""
        return (self.name.casefold(), self.name, self.host, self.port, self.game, self.host_key)

    def to_json(self) -> dict[str, object]:
        """Plain JSON-ready data (the fields, plus ``address``)."""
        return {
            "name": self.name,
            "game": self.game,
            "variants": list(self.variants),
            "free_seats": self.free_seats,
            "seats": self.seats,
            "protocol": self.protocol,
            "host_key": self.host_key,
            "host": self.host,
            "port": self.port,
            "address": self.address,
            "join_address": self.join_address,
            "deck": self.deck,
            "watch": self.watch,
        }


# --------------------------------------------------------------------------- TXT records


def encode_txt(ad: TableAd) -> dict[str, str]:
    """The TXT record of ``ad``; `BadTableAd` if an entry exceeds 255 bytes."""
    txt = {
        "proto": str(ad.protocol),
        "game": ad.game,
        "variants": ",".join(ad.variants),
        "free": str(ad.free_seats),
        "seats": str(ad.seats),
        "name": ad.name,
        "key": ad.host_key,
    }
    if ad.deck is not None:
        txt["deck"] = ad.deck
    if ad.watch is not None:
        txt["watch"] = "yes" if ad.watch else "no"
    for key, value in txt.items():
        if len(key) + 1 + len(value.encode("utf-8")) > MAX_TXT_ENTRY:
            raise BadTableAd(f"TXT entry {key!r} is longer than {MAX_TXT_ENTRY} bytes")
    return txt


def decode_txt(properties: Mapping[bytes, bytes | None], *, host: str, port: int) -> TableAd:
    """The `TableAd` a TXT record describes; `BadTableAd` if the record is malformed.

    ``properties`` maps raw keys to raw values as zeroconf parses them (``None`` for a key
    without ``=``).  Every value must be strict UTF-8; integers are plain ASCII digits.
    """

    def text(key: str) -> str:
        raw = properties.get(key.encode("ascii"))
        if raw is None:
            missing = key.encode("ascii") not in properties
            raise BadTableAd(f"TXT key {key!r} is {'missing' if missing else 'without a value'}")
        if not isinstance(raw, bytes | bytearray):
            raise BadTableAd(f"TXT key {key!r} is not bytes")
        try:
            return bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise BadTableAd(f"TXT key {key!r} is not valid UTF-8") from None

    def number(key: str) -> int:
        value = text(key)
        if not _DIGITS.fullmatch(value):
            raise BadTableAd(f"TXT key {key!r} is not a decimal number: {value[:20]!r}")
        return int(value)

    variants_text = text("variants") if b"variants" in properties else ""
    variants = tuple(variants_text.split(",")) if variants_text else ()
    deck = (text("deck") or None) if properties.get(b"deck") is not None else None
    watch = {"yes": True, "no": False}.get(text("watch")) if properties.get(b"watch") \
        is not None else None
    return TableAd(
        name=text("name"),
        game=text("game"),
        variants=variants,
        free_seats=number("free"),
        seats=number("seats"),
        protocol=number("proto"),
        host_key=text("key"),
        host=host,
        port=port,
        deck=deck,
        watch=watch,
    )


def ad_from_info(info: AsyncServiceInfo) -> TableAd:
    """The `TableAd` of a resolved service; `BadTableAd` if any part of it is malformed."""
    if info.port is None:
        raise BadTableAd("no SRV record (port)")
    addresses = info.parsed_scoped_addresses()
    if not addresses:
        raise BadTableAd("no address record")
    return decode_txt(info.properties, host=_reachable(addresses), port=info.port)


def _reachable(addresses: Sequence[str]) -> str:
    """Which of a table's addresses to dial: one on a network this machine is on (a host on
    two subnets may announce both), else the first that is not loopback, else the first.
    (IPv4 addresses come first.)"""
    from hedgerow.net.address import lan_addresses

    if len(addresses) > 1:
        with contextlib.suppress(Exception):  # (interfaces unreadable: choose as below)
            local = lan_addresses(socket.AF_INET) + lan_addresses(socket.AF_INET6)
            for address in addresses:
                if any(mine.reaches(address) for mine in local):
                    return address
    usable = [a for a in addresses if not ipaddress.ip_address(a.split("%")[0]).is_loopback]
    return (usable or addresses)[0]


def _new_zeroconf(interfaces: list[str] | None) -> AsyncZeroconf:
    """An `AsyncZeroconf` on ``interfaces`` (all IPv4 interfaces when ``None``)."""
    if interfaces is None:
        return AsyncZeroconf(interfaces=InterfaceChoice.All)
    return AsyncZeroconf(interfaces=list(interfaces))


def _announce_addresses(host: str, interfaces: list[str] | None) -> list[str]:
    """The addresses to put in a table's A/AAAA records."""
    if host not in _WILDCARD_HOSTS:
        return [host]
    if interfaces:
        return list(interfaces)
    from hedgerow.net.address import advertised_host

    return [advertised_host("0.0.0.0")]  # this machine's address on the LAN


def _instance_label(ad: TableAd) -> str:
    """A DNS-SD instance label for ``ad``: its name made label-safe and cut to fit, plus a
    digest of its full name, key and port (so two tables never share a label, even when
    their names differ only past the cut)."""
    base = ad.name.replace(".", " ").strip() or "table"
    digest = hashlib.sha256(f"{ad.name}\0{ad.host_key}\0{ad.port}".encode()).hexdigest()
    suffix = "-" + digest[:10]
    # Keep room for zeroconf's "-N" on a name conflict (labels are at most 63 bytes).
    budget = 55 - len(suffix)
    while len(base.encode("utf-8")) > budget:
        base = base[:-1]
    return base + suffix


# --------------------------------------------------------------------------- Announcer


class _ZeroconfUser:
    """An `AsyncZeroconf` on some interfaces: made on first use, or shared and then not ours.

    The shared part of `Announcer` and `Browser`: a shared instance (``zeroconf=``) is
    never closed here; one made here is closed by `_close_zc`.
    """

    def __init__(self, interfaces: Sequence[str] | None,
                 zeroconf: AsyncZeroconf | None) -> None:
        self._interfaces = resolve_interfaces(interfaces)
        self._zc = zeroconf
        self._own_zc = zeroconf is None

    def _zeroconf(self) -> AsyncZeroconf:
        if self._zc is None:
            self._zc = _new_zeroconf(self._interfaces)
        return self._zc

    async def _close_zc(self) -> None:
        if self._zc is not None and self._own_zc:
            await self._zc.async_close()
        if self._own_zc:
            self._zc = None


@dataclass(slots=True)
class _OnAir:
    """One announcement of a table: on some interfaces (one, when announcing each
    interface's own address there), with the addresses valid there."""

    zc: AsyncZeroconf
    own: bool  # made for this announcement alone (else the announcer's own, or shared)
    interfaces: list[str] | None  # the zeroconf's interfaces (None: all of them)
    addresses: list[str]
    info: AsyncServiceInfo | None = None
    broadcast: Awaitable[None] | None = None

    def cancel_broadcast(self) -> None:
        if isinstance(self.broadcast, asyncio.Future):
            self.broadcast.cancel()
        self.broadcast = None


class Announcer(_ZeroconfUser):
    """Announces one open table on the LAN until closed.

    A table listening on every interface (a wildcard host) is announced on each interface
    with that interface's own address (RFC 6762 §6.2): a host on two subnets is found on
    both, each at the address its peers there can reach.  Each interface then gets a
    zeroconf of its own; the first one probes the service name, the others announce the
    same name as its cooperating responders.  A table on one address is announced with it.

    A no-op when discovery is off (``HEDGEROW_NO_DISCOVERY=1``) or cannot start here (a
    warning is logged): hosting never fails because of discovery.  Pass ``zeroconf`` to
    share one `AsyncZeroconf` with a `Browser`; it is then not closed by `close` (and the
    table is announced on that zeroconf's interfaces only, with one address).
    """

    def __init__(self, interfaces: Sequence[str] | None = None, *,
                 zeroconf: AsyncZeroconf | None = None) -> None:
        super().__init__(interfaces, zeroconf)
        self._air: list[_OnAir] = []
        self._ad: TableAd | None = None
        self._closed = False

    @property
    def ad(self) -> TableAd | None:
        """The table currently announced (or that would be, when discovery is off)."""
        return self._ad

    @property
    def announcing(self) -> bool:
        """Whether the table is really on the air (false when discovery is off or failed)."""
        return any(air.info is not None for air in self._air)

    @property
    def addresses(self) -> list[list[str]]:
        """The addresses announced, per announcement (one per interface for a wildcard)."""
        return [air.addresses for air in self._air if air.info is not None]

    def _make_info(self, ad: TableAd, instance: str, server: str,
                   addresses: list[str]) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            f"{instance}.{SERVICE_TYPE}",
            port=ad.port,
            properties=encode_txt(ad),
            server=server,
            # Two minutes, not mDNS's default 75 for service records: a table whose goodbye
            # is lost (a crash, a dropped packet) vanishes from long-lived browsers soon.
            host_ttl=RECORD_TTL,
            other_ttl=RECORD_TTL,
            parsed_addresses=addresses,
        )

    def _plan(self, host: str) -> list[_OnAir]:
        """Where to announce a table listening on ``host``: each interface with its own
        address for a wildcard host on several interfaces, else once."""
        if host in _WILDCARD_HOSTS and not (self._zc is not None and not self._own_zc):
            from hedgerow.net.address import lan_addresses

            each = self._interfaces or [a.address for a in lan_addresses()]
            if len(each) > 1:
                plan = []
                for where in each:
                    try:
                        plan.append(_OnAir(_new_zeroconf([where]), True, [where], [where]))
                    except (OSError, RuntimeError) as exc:
                        log.warning("LAN discovery cannot use the interface at %s: %s",
                                    where, exc)
                if plan:
                    return plan
        return [_OnAir(self._zeroconf(), False, self._interfaces,
                       _announce_addresses(host, self._interfaces))]

    async def start(self, ad: TableAd) -> bool:
        """Announce ``ad``; returns whether it is on the air (see `announcing`)."""
        if self._closed:
            raise RuntimeError("Announcer is closed")
        if self._ad is not None:
            raise RuntimeError("Announcer already started; use update()")
        encode_txt(ad)  # a bad ad is the caller's mistake, reported even when discovery is off
        self._ad = ad
        if discovery_disabled():
            log.info("LAN discovery is off (%s); table %r is not announced", ENV_DISABLE, ad.name)
            return False
        instance = _instance_label(ad)
        # A host name of our own per announcement (one short ASCII label), so withdrawing one
        # table never says goodbye to the address records of another.
        key_part = re.sub(r"[^0-9A-Za-z]", "", ad.host_key)[:8] or "table"
        server = f"hedgerow-{key_part}-{ad.port}-{uuid.uuid4().hex[:8]}.local."
        try:
            self._air = self._plan(ad.host)
        except (OSError, RuntimeError) as exc:
            return await self._unavailable(ad, exc)
        name: str | None = None
        for air in list(self._air):
            info = self._make_info(ad, instance, server, air.addresses)
            if name is not None:
                info.name = name  # the name the first interface settled on
            try:
                air.broadcast = await air.zc.async_register_service(
                    info, allow_name_change=name is None, cooperating_responders=name is not None)
            except (OSError, RuntimeError) as exc:
                if len(self._air) == 1:
                    return await self._unavailable(ad, exc)
                log.warning("table %r is not announced on %s: %s", ad.name,
                            ", ".join(air.interfaces or ()), exc)
                self._air.remove(air)
                await _close_air(air)
                continue
            air.info = info
            name = info.name
        if not self.announcing:
            return False
        log.info("announcing table %r as %s (%s)", ad.name, name,
                 "; ".join(", ".join(a) for a in self.addresses))
        return True

    async def _unavailable(self, ad: TableAd, exc: Exception) -> bool:
        log.warning("LAN discovery unavailable (%s); table %r can still be joined at %s",
                    exc, ad.name, ad.address)
        for air in self._air:
            await _close_air(air)
        self._air = []
        await self._close_zc()
        return False

    async def update(self, ad: TableAd) -> None:
        """Announce a change to the table (typically its free seats)."""
        if self._ad is None:
            raise RuntimeError("Announcer not started")
        encode_txt(ad)
        old, self._ad = self._ad, ad
        if not self.announcing:
            return
        if (ad.name, ad.host, ad.port, ad.host_key) != (old.name, old.host, old.port,
                                                        old.host_key):
            # A different identity is a different service: withdraw and announce afresh.
            await self._withdraw_all()
            self._ad = None
            await self.start(ad)
            return
        for air in self._air:
            if air.info is None:
                continue
            instance = air.info.name[: -len(SERVICE_TYPE) - 1]
            info = self._make_info(ad, instance, air.info.server or "", air.addresses)
            air.cancel_broadcast()
            air.broadcast = await air.zc.async_update_service(info)
            air.info = info

    async def close(self) -> None:
        """Withdraw the table (goodbye packets) and release the sockets."""
        if self._closed:
            return
        self._closed = True
        await self._withdraw_all()
        await self._close_zc()

    async def _withdraw_all(self) -> None:
        """Say goodbye on every interface (at once: about 0.25 s) and close the zeroconfs
        made for one interface each (`_close_zc` closes the announcer's own)."""
        await asyncio.gather(*(_withdraw(air) for air in self._air))
        for air in self._air:
            await _close_air(air)
        self._air = []

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()


async def _withdraw(air: _OnAir) -> None:
    """Send the goodbye packets of ``air`` (about 0.25 s), so browsers drop it at once."""
    info, air.info = air.info, None
    air.cancel_broadcast()
    if info is None:
        return
    try:
        goodbyes = await air.zc.async_unregister_service(info)
        await asyncio.wait_for(goodbyes, 1.0)
    except Exception as exc:  # closing must not fail because the network went away
        log.debug("goodbye for %s failed: %s", info.name, exc)


async def _close_air(air: _OnAir) -> None:
    """Close an announcement's zeroconf when it was made for it alone."""
    if air.own:
        with contextlib.suppress(Exception):
            await air.zc.async_close()


# --------------------------------------------------------------------------- Browser


class Browser(_ZeroconfUser):
    """Watches the LAN for open tables.

    `tables` is the current list; `on_change` callbacks run (in the event loop) whenever it
    changes.  When discovery is off the browser stays empty.  `start` raises `HedgerowError`
    when discovery cannot start here (no usable interface, port 5353 unavailable).
    """

    def __init__(self, interfaces: Sequence[str] | None = None, *,
                 zeroconf: AsyncZeroconf | None = None) -> None:
        super().__init__(interfaces, zeroconf)
        self._browser: AsyncServiceBrowser | None = None
        self._tables: dict[str, TableAd] = {}
        # Service name -> number of its latest event (counting over all services), so a
        # resolution that finishes after a newer event for the same service is dropped.
        self._generation: dict[str, int] = {}
        self._events = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._callbacks: list[TableCallback] = []
        self._closed = False

    async def start(self) -> None:
        """Start listening (a no-op when discovery is off)."""
        if self._browser is not None or self._closed:
            return
        if discovery_disabled():
            log.info("LAN discovery is off (%s)", ENV_DISABLE)
            return
        try:
            zc = self._zeroconf()
            # QM questions: answers are multicast, so several peers on one machine (which
            # share port 5353) all hear them.
            self._browser = AsyncServiceBrowser(
                zc.zeroconf, SERVICE_TYPE, handlers=[self._on_service],
                question_type=DNSQuestionType.QM,
            )
        except (OSError, RuntimeError) as exc:
            await self._close_zc()
            raise HedgerowError(
                f"LAN discovery could not start ({exc}); join by address instead "
                f"(hedgerow join HOST:PORT/KEY), or set {ENV_DISABLE}=1"
            ) from exc

    def tables(self) -> list[TableAd]:
        """The tables seen so far, by name (case-insensitive) then address."""
        return sorted(self._tables.values(), key=TableAd.sort_key)

    def on_change(self, callback: TableCallback) -> Callable[[], None]:
        """Call ``callback(tables)`` whenever the list changes; returns an unsubscribe function."""
        self._callbacks.append(callback)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._callbacks.remove(callback)

        return unsubscribe

    async def wait_for(self, predicate: Callable[[TableAd], bool],
                       timeout: float) -> TableAd | None:
        """The first table (in `tables` order) matching ``predicate``, waiting up to
        ``timeout`` seconds for one to appear; ``None`` if none did."""
        changed = asyncio.Event()
        unsubscribe = self.on_change(lambda _tables: changed.set())
        try:
            async with asyncio.timeout(timeout):
                while True:
                    changed.clear()
                    for ad in self.tables():
                        if predicate(ad):
                            return ad
                    await changed.wait()
        except TimeoutError:
            return None
        finally:
            unsubscribe()

    async def settle(self, timeout: float = 0.5) -> None:
        """Wait up to ``timeout`` seconds for tables seen but not yet resolved."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    async def close(self) -> None:
        """Stop listening and release the sockets."""
        if self._closed:
            return
        self._closed = True
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._close_zc()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    # zeroconf calls handlers with these keyword names, in the event loop.
    def _on_service(self, zeroconf: Zeroconf, service_type: str, name: str,
                    state_change: ServiceStateChange) -> None:
        if self._closed:
            return
        key = name.lower()
        if state_change is ServiceStateChange.Removed:
            self._generation.pop(key, None)
            if self._tables.pop(key, None) is not None:
                self._notify()
            return
        self._events += 1
        generation = self._generation[key] = self._events
        task = asyncio.get_running_loop().create_task(self._resolve(name, key, generation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str, key: str, generation: int) -> None:
        assert self._zc is not None
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            found = await info.async_request(self._zc.zeroconf, RESOLVE_TIMEOUT_MS,
                                             question_type=DNSQuestionType.QM)
        except Exception as exc:  # a stranger's records must never break the browser
            log.warning("could not resolve table %r: %s", name, exc)
            return
        if self._generation.get(key) != generation or self._closed:
            return  # removed or changed while resolving; a newer event decides
        if not found:
            log.info("table %r did not answer with its address and TXT record; skipped", name)
            return
        try:
            ad = ad_from_info(info)
        except (BadTableAd, ValueError) as exc:
            log.warning("skipping table %r with a malformed record: %s", name, exc)
            if self._tables.pop(key, None) is not None:
                self._notify()
            return
        if key not in self._tables and len(self._tables) >= MAX_TABLES:
            log.warning("more than %d tables on the LAN; skipping %r", MAX_TABLES, name)
            return
        if self._tables.get(key) != ad:
            self._tables[key] = ad
            self._notify()

    def _notify(self) -> None:
        tables = self.tables()
        for callback in list(self._callbacks):
            try:
                callback(tables)
            except Exception:
                log.exception("table list callback failed")


# --------------------------------------------------------------------------- one-shot helpers


def _check_timeout(timeout: float) -> float:
    if not timeout > 0:  # also rejects NaN
        raise HedgerowError(f"the discovery timeout must be more than 0 seconds, not {timeout}")
    return float(timeout)


async def browse(timeout: float = 2.0, *, interfaces: Sequence[str] | None = None
                 ) -> list[TableAd]:
    """The tables seen on the LAN within ``timeout`` seconds ([] when discovery is off)."""
    timeout = _check_timeout(timeout)
    if discovery_disabled():
        return []
    browser = Browser(interfaces)
    await browser.start()
    try:
        await asyncio.sleep(timeout)  # listening is the point: answers arrive in this window
        await browser.settle()
        return browser.tables()
    finally:
        await browser.close()


async def find_table(name: str, timeout: float = 3.0, *,
                     interfaces: Sequence[str] | None = None) -> TableAd:
    """The table called ``name`` (an exact match, else one ignoring case), as soon as it is
    seen; `HedgerowError` listing the tables seen if none appears within ``timeout`` seconds."""
    timeout = _check_timeout(timeout)
    if discovery_disabled():
        raise HedgerowError(
            f"LAN discovery is off ({ENV_DISABLE}=1), so tables cannot be found by name; "
            f"join by address instead: hedgerow join HOST:PORT/KEY"
        )
    wanted = name.casefold()
    async with Browser(interfaces) as browser:
        found = await browser.wait_for(lambda t: t.name.casefold() == wanted, timeout)
        if found is not None:
            exact = [t for t in browser.tables() if t.name == name]
            return exact[0] if exact else found
        seen = sorted({t.name for t in browser.tables()}, key=str.casefold)
    listing = ", ".join(repr(n) for n in seen) if seen else "none"
    raise HedgerowError(
        f"no table named {name!r} seen on the LAN within {timeout:g} s "
        f"(tables seen: {listing}); join by address with: hedgerow join HOST:PORT/KEY",
        code="discovery.not_found",
    )
