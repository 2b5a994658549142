"""Starting a networked seat: host a table, join one, resume one, start bot peers.

These are what the commands (``hedgerow host/join/resume/play``) and the seat client use;
each returns a `Peer` typed as the `hedgerow.net.seat.Seat` it is, the only thing a caller
holds: the caller plays it (the seat client, or `hedgerow.clients.botrunner.BotRunner`)
and closes it.

* `host_table` opens a table and returns at once, seats still empty; the table is
  announced on the LAN (`hedgerow.net.discovery.Announcer`) until play starts.
* `join_table` takes a table address (``HOST:PORT/KEY``), a bare ``HOST:PORT`` (its key is
  then looked up on the LAN) or a table name (LAN discovery), and returns once seated.
* `resume_table` comes back to a table from this seat's log file; `reopen_table` brings
  back a host lost before its seed was agreed, from its open-table file.

Starting bot peers as processes (``hedgerow join ADDRESS --bot S``) is the client's job:
`hedgerow.clients.spawn` (net/ never starts a ``hedgerow.clients`` process).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hedgerow.core.datadir import bot_logs_dir, logs_dir
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.net.address import (
    TableAddress,
    host_port,
    looks_like_address,
    parse_address,
    split_endpoint,
)
from hedgerow.net.discoverysettings import ENV_DISABLE, discovery_disabled, resolve_interfaces
from hedgerow.net.keys import Identity, key_text, load_identity, parse_key
from hedgerow.net.logfile import check_room
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Link, Phase, Seat

if TYPE_CHECKING:
    from hedgerow.net.watching import Spectator

log = logging.getLogger(__name__)

DISCOVERY_TIMEOUT = 3.0


def _identity(identity: Identity | None, key_file: str | Path | None) -> Identity:
    return identity if identity is not None else load_identity(key_file)


def _new_peer(identity: Identity | None, key_file: str | Path | None, *,
              room: Path | None = None, **kwargs: Any) -> Peer:
    """A peer, once its log can be kept: in ``room`` (a resumed log's folder), else in its
    logs folder (`check_room`: a seat that cannot write its log does not sit down)."""
    if kwargs.get("bot"):  # a bot's log stays out of the person's logs folder
        kwargs.setdefault("log_dir", bot_logs_dir())
    check_room(room or kwargs.get("log_dir") or logs_dir())
    return Peer(_identity(identity, key_file),
                key_file=str(key_file) if key_file is not None else None, **kwargs)


async def host_table(ruleset: Ruleset, players: int, *, name: str = "",
                     bind: str = "127.0.0.1", port: int = 0, bot: str | None = None,
                     seat_name: str = "", seed: int | bytes | None = None,
                     identity: Identity | None = None, key_file: str | Path | None = None,
                     announce: bool = True, plugins: PluginHost | None = None,
                     open_deck: bool = False, spectators: bool = True) -> Seat:
    """Open a table on ``bind:port`` (0: any free port) and take seat 0.

    Returns as soon as the table listens; ``peer.address`` is what others join with.
    ``name`` is the table's name on the LAN; ``seat_name`` this player's name; ``bot`` the
    strategy playing this seat, if a bot does.  ``seed`` (an int as ``hedgerow simulate
    --seed`` takes, or raw bytes) dictates the deal instead of the commit-reveal; only bot
    peers started by `hedgerow.clients.spawn.spawn_bot_peers` (which accept it) can then join.
    ``plugins``, when given, is where the rules came from: a joiner that lacks a game or a
    variant is then told which package to install (`rulesmatch.packages`).  ``spectators``:
    whether the table takes spectators (docs/protocol.md §3.4).
    """
    peer = _new_peer(identity, key_file, seat_name=seat_name, bot=bot, plugins=plugins)
    peer.spectators.allowed = spectators
    fixed = seed_from_int(seed) if isinstance(seed, int) else seed
    name = name or f"{seat_name or 'hedgerow'}'s {ruleset.spec.name}"
    await peer.open(ruleset, players, bind=bind, port=port, seed=fixed, name=name,
                    open_deck=open_deck or fixed is not None)
    if announce:
        await _announce(peer, name, bind)
    return peer


async def reopen_table(path: str | Path, *, bot: str | None = None, bind: str | None = None,
                       seat_name: str = "", identity: Identity | None = None,
                       key_file: str | Path | None = None, plugins: PluginHost | None = None,
                       announce: bool = True) -> Seat:
    """Re-open, as its host, the table of an open-table file (`hedgerow.net.openfile`):
    the host was lost before the seed was agreed, and its joiners wait for it."""
    from hedgerow.net import openfile

    saved = openfile.load(Path(path))
    key_file = key_file if key_file is not None else saved.key_file
    peer = _new_peer(identity, key_file, seat_name=seat_name, bot=bot,
                     plugins=plugins or PluginHost())
    try:
        await peer.reopen(Path(path), bind=bind)
    except BaseException:
        await peer.close()
        raise
    if announce:
        await _announce(peer, saved.name, bind or split_endpoint(peer.endpoint)[0])
    return peer


async def _announce(peer: Peer, name: str, bind: str) -> None:
    """Announce the table on the LAN until play starts (until the game is over, at a table
    that takes spectators: `hedgerow watch` lists it) or the peer closes."""
    if discovery_disabled():  # before zeroconf is imported: this peer never needs it
        log.info("LAN discovery is off (%s); table %r is not announced", ENV_DISABLE, name)
        return
    host, port = split_endpoint(peer.endpoint)
    if _loopback(host):
        # Only this machine can join (hedgerow play): announce it only where discovery
        # itself is confined to the loopback (tests, demos on one machine).
        interfaces = resolve_interfaces()
        if not interfaces or not all(_loopback(i) for i in interfaces):
            if not _loopback(bind):  # it was to listen everywhere, but there is no network
                log.warning("table %r is not announced on the LAN: this machine has no "
                            "network address but loopback", name)
            return
    try:
        from hedgerow.net.discovery import OPEN, SEALED, Announcer, TableAd
        from hedgerow.net.messages import PROTOCOL_VERSION
    except ImportError:  # discovery is optional
        return

    def ad() -> TableAd:
        free = sum(1 for s in peer.seats() if s.link == Link.WAITING)
        return TableAd(name[:40], peer.ruleset.spec.name, peer.ruleset.variant_names, free,
                       peer.players, PROTOCOL_VERSION, key_text(peer.identity.public),
                       bind if bind in ("0.0.0.0", "::") else host, port,
                       deck=SEALED if peer.sealed else OPEN, watch=peer.spectators.allowed)

    announcer = Announcer()
    try:
        await announcer.start(ad())
    except HedgerowError as exc:
        log.warning("the table is not announced on the LAN: %s", exc.message)
        return
    pending: set[asyncio.Future[None]] = set()
    last = [ad()]
    done = [False]

    def changed() -> None:
        if done[0]:
            return
        watched = peer.spectators.allowed and peer.phase() in (Phase.SEEDING, Phase.PLAYING)
        if (peer.phase() != Phase.SEATING and not watched) or peer.closed:
            done[0] = True
            task = asyncio.ensure_future(announcer.close())
        elif ad() != last[0]:
            last[0] = ad()
            task = asyncio.ensure_future(announcer.update(last[0]))
        else:
            return
        pending.add(task)
        task.add_done_callback(pending.discard)

    peer.subscribe(changed)
    peer.on_close(announcer.close)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


async def find_address(text: str, *, timeout: float = DISCOVERY_TIMEOUT) -> TableAddress:
    """The table ``text`` names: ``HOST:PORT/KEY``, ``HOST:PORT`` or a name on the LAN."""
    if looks_like_address(text) and "/" in text:
        try:
            return parse_address(text)
        except ValueError as exc:
            raise HedgerowError(str(exc), code="bad_address") from None
    from hedgerow.net.discovery import browse, find_table

    if looks_like_address(text):
        try:
            wanted = host_port(text)
        except ValueError as exc:
            raise HedgerowError(str(exc), code="bad_address") from None
        for ad in await browse(timeout):
            if (ad.host, ad.port) == wanted:
                return TableAddress(ad.host, ad.port, parse_key(ad.host_key))
        raise HedgerowError(
            f"{text} has no table key, and no table at that address is announced on the LAN; "
            "use the whole address `hedgerow host` printed (HOST:PORT/KEY)", code="bad_address")
    ad = await find_table(text, timeout)
    try:
        return TableAddress(ad.host, ad.port, parse_key(ad.host_key))
    except ValueError:
        raise HedgerowError(f"table {text!r} announces an unreadable key") from None


async def join_table(address: str | TableAddress, *, bot: str | None = None,
                     seat_name: str = "", bind: str | None = None,
                     identity: Identity | None = None, key_file: str | Path | None = None,
                     plugins: PluginHost | None = None, wanted_seat: int | None = None,
                     accept_host_seed: bool = False, timeout: float = 10.0) -> Seat:
    """Join the table at ``address`` (see `find_address`); returns once seated.

    Raises `JoinRefused` (a `HedgerowError`) with the host's reason, e.g. rules that differ.
    ``bind`` defaults to loopback for a table on loopback, else every interface.
    """
    where = address if isinstance(address, TableAddress) else await find_address(address)
    if bind is None:
        bind = "127.0.0.1" if _loopback(where.host) else "0.0.0.0"
    peer = _new_peer(identity, key_file, seat_name=seat_name, bot=bot,
                     plugins=plugins or PluginHost(), accept_host_seed=accept_host_seed)
    try:
        await peer.join(where, bind=bind, wanted_seat=wanted_seat, timeout=timeout)
    except BaseException:
        await peer.close()
        raise
    return peer


async def resume_table(log_path: str | Path, *, bot: str | None = None, bind: str | None = None,
                       identity: Identity | None = None, key_file: str | Path | None = None,
                       plugins: PluginHost | None = None) -> Seat:
    """Come back to the table of ``log_path`` (this seat's log) and catch up."""
    from hedgerow.net import tablefile

    path = Path(log_path)
    if not path.exists():
        raise HedgerowError(f"no such log file: {path}")
    saved = tablefile.load(path)
    key_file = key_file if key_file is not None else saved.key_file
    peer = _new_peer(identity, key_file, room=path.parent, bot=bot,
                     plugins=plugins or PluginHost())
    try:
        await peer.resume(path, bind=bind)
    except BaseException:
        await peer.close()
        raise
    return peer


async def watch_table(address: str | TableAddress, *, plugins: PluginHost | None = None,
                      name: str = "", bind: str | None = None,
                      timeout: float = 10.0) -> Spectator:
    """Watch the table at ``address`` (see `find_address`) as a spectator (docs/protocol.md
    §3.4); returns once the host answered.  The spectator has a key of its own, made for
    this watch (a player's own key would be taken for its seat's return), and no log.
    Raises `JoinRefused` with the host's reason (no spectators, too many, other rules)."""
    from hedgerow.net.keys import generate
    from hedgerow.net.watching import Spectator

    where = address if isinstance(address, TableAddress) else await find_address(address)
    if bind is None:
        bind = "127.0.0.1" if _loopback(where.host) else "0.0.0.0"
    spectator = Spectator(generate(), plugins or PluginHost(), name=name)
    await spectator.watch(where, bind=bind, timeout=timeout)
    return spectator
