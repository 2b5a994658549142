"""`Seating`: who sits where — opening and joining a table, the host's answer to a `Hello`,
the roster, returning peers.

The host opens the table (`Seating.open_table`: a new table id, seat 0, an open-table file
to re-open it from after a crash); a joiner (`Seating.join`) dials the host's table address
and sends ``Hello`` (its rules, name and ROUTER address).  The host checks a joiner's rules
and seat in the order of docs/protocol.md §3.1 and sends
every seated peer the roster (``SeatAssignment``); a joiner binds the table's rules from
the fingerprint and keeps a DEALER to every peer it learns of.  Envelopes from keys not
seated yet are held while seats fill (§3.1 step 6) and handed back once the roster names
their sender.  A seated key that says ``Hello`` again is a returning peer (§5.7): its new
address is taken, and the host answers with the current seating.

This phase reads and writes the shared `PeerContext` as a `SeatingContext` (the seating,
the roster, the table file); from the other phases it needs only what its constructor takes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.net import openfile, rulesmatch
from hedgerow.net.address import TableAddress, endpoint, endpoint_toward, split_endpoint
from hedgerow.net.context import HELD_LIMIT, Decked, JoinRefused, Keyed, Seated, Speaking
from hedgerow.net.keys import key_text
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    Body,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Hello,
    PeerInfo,
    SeatAssignment,
)
from hedgerow.net.seat import Link, Phase
from hedgerow.net.shown import shown
from hedgerow.net.transport import Received, unreachable

log = logging.getLogger(__name__)

#: The refusal of a Hello signed with this peer's own key: another program of the same user.
OWN_IDENTITY = ("that is this table's own identity (the same user data folder): join as "
                "another local player, `hedgerow join ADDRESS --as NAME`")


class SeatingContext(Speaking, Keyed, Seated, Decked, Protocol):
    """What seating reads and writes of the peer's shared state
    (`hedgerow.net.context.PeerContext`): who this peer is, the table it opens or joins, the
    seating (`seated`) and the files that keep it."""

    is_host: bool
    host_key: bytes | None
    table_id: bytes
    table_name: str
    open_path: Path | None
    watchers: tuple[str, ...]

    @property
    def seat_name(self) -> str: ...

    @property
    def bot(self) -> str | None: ...

    @property
    def log_dir(self) -> Path | None: ...

    @property
    def round(self) -> int: ...

    @property
    def phase(self) -> Phase: ...

    def seated(self, ruleset: Ruleset, players: int, seat: int) -> None: ...

    def encode(self, body: Body, *, table_id: bytes | None = None) -> bytes: ...

    def save_table_file(self) -> None: ...

    def save_open_table(self) -> None: ...


class Seating:
    """Seating and returning peers.

    ``plugins`` binds the table's rules from a host's fingerprint (a joiner needs it);
    ``begin_seeding()`` is called once every seat is taken; ``enter_round(n)`` follows the
    host's seed round (§3.2); ``redeliver(rx, env)`` hands a
    held envelope back to the peer's intake; ``peer_back(member)`` tells play that a seated
    peer returned (§5.7); ``restartable(seat)`` says whether the seed agreement may still
    start over without that seat, and ``restart()`` goes back to seating (§3.2).
    """

    def __init__(self, ctx: SeatingContext, *, plugins: PluginHost | None,
                 begin_seeding: Callable[[], None],
                 redeliver: Callable[[Received, Envelope], None],
                 peer_back: Callable[[Member], None],
                 restartable: Callable[[int | None], bool],
                 restart: Callable[[int | None], None],
                 enter_round: Callable[[int], None],
                 spectate: Callable[[Received, Envelope, Hello, str], None] | None = None
                 ) -> None:
        self.ctx = ctx
        self._spectate = spectate
        self._enter_round = enter_round
        self.plugins = plugins
        self._restartable = restartable
        self._restart = restart
        self._begin_seeding = begin_seeding
        self._redeliver = redeliver
        self._peer_back = peer_back
        self.held: list[tuple[Received, Envelope]] = []
        self.joined: asyncio.Future[None] | None = None  # a joiner's wait for its seat

    @property
    def joining(self) -> bool:
        """True while this joiner waits for the host's answer."""
        return self.joined is not None and not self.joined.done()

    def hold(self, rx: Received, env: Envelope) -> bool:
        """Keep ``env`` until the roster names its sender; False when the hold is full."""
        if len(self.held) >= HELD_LIMIT:
            return False
        self.held.append((rx, env))
        return True

    def _release(self) -> None:
        held, self.held = self.held, []
        for rx, env in held:
            self._redeliver(rx, env)  # held again while the sender is still unknown

    def _full(self) -> None:
        """Every seat is taken: seeding begins, and a sender still unknown is a stranger."""
        self._begin_seeding()
        self._release()

    # -- the host -----------------------------------------------------------------------

    def open_table(self, ruleset: Ruleset, players: int, *, name: str, where: str,
                   reopenable: bool = True, open_deck: bool = False) -> None:
        """This peer opens a table of ``ruleset`` for ``players`` seats, listening at
        ``where`` (its endpoint), and takes seat 0 (the host).  ``name`` is the table's name
        on the LAN; a ``reopenable`` table is saved in an open-table file until the seed is
        agreed (``ctx.open_path``), from which `hedgerow.net.returning.Returning.reopen`
        brings it back after a crash.  The deck is sealed unless ``open_deck``."""
        ctx = self.ctx
        ctx.open_deck = open_deck
        ctx.is_host = True
        ctx.host_key = ctx.identity.public
        ctx.table_id = secrets.token_bytes(16)
        ctx.table_name = name
        ctx.seated(ruleset, players, 0)
        assert ctx.roster is not None
        ctx.roster.add(PeerInfo(0, ctx.identity.public, where, ctx.seat_name[:64],
                                ctx.bot is not None), ctx.now(), ctx.bot)
        if reopenable:
            ctx.open_path = openfile.path_for(ctx.log_dir or logs_dir(), ruleset.spec.name,
                                              time.strftime("%Y%m%d-%H%M%S"), ctx.table_id)
            ctx.save_open_table()
        if ctx.roster.full:
            self._begin_seeding()
        ctx.notify()

    def on_hello(self, rx: Received, env: Envelope, hello: Hello) -> None:
        """A joiner's ``Hello`` (the host seats it) or a seated peer's return."""
        ctx = self.ctx
        if env.table_id not in (b"", ctx.table_id):
            ctx.refuse(rx, env, ErrorCode.WRONG_TABLE, "this is not the table of that id")
            return
        if rx.sender == ctx.identity.public:  # another process with this very key (§3.1)
            ctx.refuse(rx, env, ErrorCode.STRANGER, OWN_IDENTITY)
            return
        member = ctx.roster.by_key(rx.sender) if ctx.roster is not None else None
        if member is not None and ctx.is_host and self._restartable(member.seat):
            # A seat back before play began: its share died with its process, so the seed
            # agreement starts over, and it is seated like any joiner (§3.2).
            self.lost_before_play(member)
            member = None
        if member is not None:
            self._on_rejoin(rx, env, member, hello)
            return
        if not ctx.is_host:
            ctx.refuse(rx, env, ErrorCode.STRANGER, "this peer does not seat anyone")
            return
        # The host's checks, in the order of docs/protocol.md §3.1.
        assert ctx.roster is not None
        name = hello.display_name or f"peer {key_text(rx.sender)[:8]}"
        package = rulesmatch.packages(self.plugins) if self.plugins is not None else None
        problem = rulesmatch.mismatch(ctx.ruleset, hello.fingerprint, hello.plugins, package,
                                      table=ctx.fingerprint)
        if problem is not None:
            ctx.refuse(rx, env, ErrorCode.RULES_MISMATCH, problem)
            return
        if hello.spectator:  # a spectator (§3.4): any phase, no seat
            address = self._hello_address(rx, env, hello)
            if self._spectate is None:
                ctx.refuse(rx, env, ErrorCode.WRONG_PHASE, "this table takes no spectators")
            elif address is not None:
                self._spectate(rx, env, hello, address)
            return
        if ctx.phase != Phase.SEATING:
            ctx.refuse(rx, env, ErrorCode.WRONG_PHASE, "the table has started; no seat is free")
            return
        wanted = hello.wanted_seat
        if wanted is not None and wanted >= ctx.players:
            ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                       f"seat {wanted} does not exist at a {ctx.players}-seat table")
            return
        seat = ctx.roster.free_seat(wanted)
        if seat is None:
            code = ErrorCode.SEAT_TAKEN if wanted is not None else ErrorCode.TABLE_FULL
            ctx.refuse(rx, env, code, f"seat {wanted} is taken" if wanted is not None
                       else "every seat is taken")
            return
        address = self._hello_address(rx, env, hello)
        if address is None:
            return
        info = PeerInfo(seat, rx.sender, address, hello.display_name, hello.bot)
        ctx.roster.add(info, ctx.now(), "bot" if hello.bot else None)
        ctx.node.connect(rx.sender, info.address)
        log.info("%s took seat %d", name, seat)
        self.send_roster()
        if ctx.roster.full:
            self._full()
        ctx.notify()

    def _hello_address(self, rx: Received, env: Envelope, hello: Hello) -> str | None:
        """Where the sender of ``hello`` listens; None after refusing a bad address.

        A wildcard host (a peer that listens on every interface) is replaced by the
        address its connection came from.
        """
        try:
            host, port = split_endpoint(hello.address)
        except ValueError:
            self.ctx.refuse(rx, env, ErrorCode.MALFORMED, f"bad address {hello.address!r}")
            return None
        if host in ("0.0.0.0", "::") and rx.peer_ip:
            host = rx.peer_ip
        return endpoint(host, port)

    def send_roster(self) -> None:
        """Send every other seated peer the seating, each with its own seat."""
        ctx = self.ctx
        assert ctx.roster is not None
        for m in ctx.roster.others():
            ctx.send(m, SeatAssignment(m.seat, ctx.players, ctx.fingerprint,
                                       self._peers_for(m), ctx.round, ctx.watchers))
        ctx.save_open_table()  # a host that crashes now can re-open the table as it is

    def _peers_for(self, member: Member) -> tuple[PeerInfo, ...]:
        """The seating as ``member`` gets it: the host listed at the address ``member`` can
        reach it at (a host on two subnets, listening on both, is at another address on
        each, docs/protocol.md §3.1)."""
        ctx = self.ctx
        assert ctx.roster is not None
        peers = ctx.roster.peer_infos()
        bound = ctx.node.endpoint
        if bound is None:
            return peers
        return tuple(
            dataclasses.replace(p, address=endpoint_toward(bound, p.address, member.info.address))
            if p.public_key == ctx.identity.public else p for p in peers)

    def free_seat(self, member: Member) -> None:
        """The host frees the seat of a peer that left or was lost while seating."""
        ctx = self.ctx
        assert ctx.roster is not None
        ctx.roster.remove(member.seat)
        ctx.node.disconnect(member.key)
        self.send_roster()

    def seat_gone(self, member: Member) -> None:
        """The host hears that ``member`` left or was lost: while seating its seat is
        freed; during the seed agreement (before anyone can have acted) the table goes
        back to seating without it (§3.2); later the table waits for it.  A joiner that
        loses the host before play waits for it to re-open the table (§3.2)."""
        if not self.ctx.is_host:
            if member.key == self.ctx.host_key and self.ctx.phase in (Phase.SEATING,
                                                                       Phase.SEEDING):
                log.warning("the host is gone before play began; waiting for it to re-open "
                            "the table (hedgerow resume on the host's machine)")
            return
        if self.ctx.phase == Phase.SEATING:
            self.free_seat(member)
        elif self._restartable(member.seat):
            self.lost_before_play(member)

    def lost_before_play(self, member: Member) -> None:
        """The host takes the table back to seating without ``member`` (§3.2)."""
        log.warning("%s is gone before play began", member.label())
        self._restart(None)
        self.free_seat(member)
        self.ctx.notify()

    # -- a joiner -----------------------------------------------------------------------

    async def join(self, address: TableAddress, *, where: str, fingerprint: str,
                   wanted_seat: int | None, timeout: float) -> None:
        """Ask the table at ``address`` for a seat (this peer listens at ``where``);
        returns once seated.  Raises `JoinRefused` with the host's reason (rules that
        differ, a full table...), within a few seconds when nothing at ``address`` holds
        its key or nothing listens there (`hedgerow.net.transport.unreachable`), or when no
        answer comes within ``timeout`` seconds."""
        ctx = self.ctx
        assert self.plugins is not None
        ctx.host_key = address.key
        loop = asyncio.get_running_loop()
        joined = self.joined = loop.create_future()
        ctx.node.connect(address.key, address.endpoint, watch=True)
        hello = Hello(fingerprint, rulesmatch.installed(self.plugins), ctx.seat_name[:64],
                      wanted_seat, ctx.bot is not None, where)
        ctx.node.send(address.key, ctx.encode(hello, table_id=b""))
        deadline = loop.time() + timeout
        shaken = loop.create_task(ctx.node.handshake(address.key, timeout))
        try:
            await asyncio.wait({joined, shaken}, timeout=timeout,
                               return_when=asyncio.FIRST_COMPLETED)
            if not joined.done() and shaken.done():
                problem = unreachable(address, shaken.result())
                if problem is not None:
                    raise JoinRefused(problem)
            await asyncio.wait_for(asyncio.shield(joined), max(deadline - loop.time(), 0))
        except TimeoutError:
            raise JoinRefused(
                f"no answer from the table at {address.host}:{address.port} within {timeout:g} s "
                f"(is it running, and can it reach this machine at {where}?)"
            ) from None
        finally:
            shaken.cancel()

    def on_join_answer(self, rx: Received, env: Envelope,
                       body: SeatAssignment | ErrorMsg) -> None:
        """The host's answer to our ``Hello``: a seat, or why not."""
        ctx = self.ctx
        assert self.joined is not None
        if isinstance(body, ErrorMsg):
            self.joined.set_exception(JoinRefused(f"the table refused: "
                                                  f"{shown(body.message, None)}"))
            return
        if body.seat is None:
            self.joined.set_exception(JoinRefused("the table offered no seat"))
            return
        assert self.plugins is not None
        try:
            ruleset = rulesmatch.ruleset_for(self.plugins, body.fingerprint, body.players)
        except HedgerowError as exc:
            self.joined.set_exception(JoinRefused(exc.message))
            return
        ctx.table_id = env.table_id
        ctx.watchers = body.watchers
        ctx.open_deck = rulesmatch.split_deck(body.fingerprint)[1]
        ctx.seated(ruleset, body.players, body.seat)
        self._enter_round(body.round)
        self.joined.set_result(None)
        self._apply_roster(body)

    def on_seat_assignment(self, rx: Received, env: Envelope, member: Member,
                           body: SeatAssignment) -> None:
        """A ``SeatAssignment`` after our first: the seating as it fills, or new addresses."""
        ctx = self.ctx
        if rx.sender != ctx.host_key or ctx.is_host:
            ctx.refuse(rx, env, ErrorCode.WRONG_SEAT, "only the host assigns seats")
            return
        if (body.seat != ctx.seat or body.players != ctx.players
                or body.fingerprint != ctx.fingerprint):
            ctx.refuse(rx, env, ErrorCode.WRONG_SEAT, "the seating contradicts the first one")
            return
        if body.watchers != ctx.watchers:  # who watches the table (§3.4)
            ctx.watchers = body.watchers
            ctx.notify()
        if ctx.phase != Phase.SEATING and (len(body.peers) < body.players
                                            or body.round > ctx.round) \
                and self._restartable(None):
            # The host went back to seating (a seat was lost), or re-opened the table after
            # it was lost itself: this round is abandoned, the next one begins (§3.2).
            self._restart(body.round)
        if ctx.phase != Phase.SEATING:
            self._refresh_addresses(rx, env, body)
            return
        self._apply_roster(body)

    def _refresh_addresses(self, rx: Received, env: Envelope, body: SeatAssignment) -> None:
        """The host's answer to our return (§5.7): the same seats, perhaps new addresses."""
        ctx = self.ctx
        assert ctx.roster is not None
        keys = {m.seat: m.key for m in ctx.roster}
        if {p.seat: p.public_key for p in body.peers} != keys:
            ctx.refuse(rx, env, ErrorCode.WRONG_PHASE, "the seats are already settled")
            return
        for info in body.peers:
            member = ctx.roster.by_seat(info.seat)
            if member is not None and member.key != ctx.identity.public \
                    and info.address != member.info.address:
                ctx.roster.set_address(member, info.address)
                ctx.node.connect(member.key, info.address)
                ctx.save_table_file()

    def _apply_roster(self, body: SeatAssignment) -> None:
        ctx = self.ctx
        assert ctx.roster is not None
        mine = next((p for p in body.peers if p.seat == ctx.seat), None)
        if mine is None or mine.public_key != ctx.identity.public:
            log.warning("the host's roster does not seat this peer at seat %d", ctx.seat)
            return
        self._enter_round(body.round)
        before = {m.seat: m.key for m in ctx.roster}
        changed, freed = ctx.roster.update(body.peers, ctx.now())
        for seat in freed:
            if before[seat] != ctx.identity.public:
                ctx.node.disconnect(before[seat])
        for m in changed:
            if m.key != ctx.identity.public:
                ctx.node.connect(m.key, m.info.address)
                log.info("%s is at the table", m.label())
        me = ctx.roster.by_seat(ctx.seat)
        if me is not None:
            me.bot_name = ctx.bot
        self._release()
        if ctx.roster.full:
            self._full()
        ctx.notify()

    # -- returning peers ----------------------------------------------------------------

    def _on_rejoin(self, rx: Received, env: Envelope, member: Member, hello: Hello) -> None:
        ctx = self.ctx
        if hello.fingerprint != ctx.fingerprint:
            ctx.refuse(rx, env, ErrorCode.RULES_MISMATCH,
                       f"{member.label()} now runs {hello.fingerprint}, the table runs "
                       f"{ctx.fingerprint}")
            return
        address = self._hello_address(rx, env, hello)
        if address is None:
            return
        assert ctx.roster is not None
        if address != member.info.address:
            ctx.roster.set_address(member, address)
            ctx.save_table_file()
        ctx.node.connect(member.key, address)  # a no-op when unchanged
        was = member.link
        member.link = Link.CONNECTED
        member.last_seen = ctx.now()
        log.info("%s is back at %s (was %s)", member.label(), address, was.value)
        self._peer_back(member)
        if ctx.is_host:  # the current seating, and everyone's address (§5.7)
            if ctx.phase == Phase.SEATING:
                self.send_roster()
            else:
                ctx.send(member, SeatAssignment(member.seat, ctx.players,
                                                ctx.fingerprint,
                                                self._peers_for(member), ctx.round))
        ctx.notify()
