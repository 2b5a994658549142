"""``hedgerow check-peer host HOST:PORT/KEY``: the checker joins the peer under test's table
as a strict joiner and plays a whole game with it, checking every message against
docs/protocol.md.

The scenarios, in the order they run (`SCENARIOS`; each names its section):

* ``hello-*`` (§3.1 step 2): three `Hello`s the host must refuse, each with its code;
* ``seating`` (§3.1, §1): the `SeatAssignment`s: on which link, the fields, our own entry,
  the final seating, and a DEALER to every other seat;
* then the scenarios every side shares (`session.SHARED`): seeding and its repeats, the
  ``Start`` barrier, the hostile probes at the checker's turn, a return and catch-up, the
  game and the end report (and with ``--log`` the peer's log file);
* ``spectator`` (§3.4), right after the return: a second key of the checker's says `Hello`
  as a spectator; the host dials it and sends a `SeatAssignment` without seat, with it
  among the ``watchers``, and tells the seated checker the new ``watchers``;
* ``spectator-refused`` (§3.4): an `ActionMsg` from the spectator is refused
  ``WRONG_SEAT``;
* ``spectator-feed`` (§3.4), once the game is over: the spectator's stream (the
  `SpectatorFeed` records it heartbeats its count of) is the host's log: the header and
  every entry with the rules' state hash, and the seat events of the departures
  (`departures`).

The checker takes one seat of a table of 2 seats (the peer under test fills any others
itself), or two of a table of 3 (an open deck): its second key says `Hello` too, and the
table agrees to end the game (`ending`; the departure scenarios of a table of two do not
run there).  It plays open-deck tables (§10.12) and sealed ones (§10, `sealedplay`),
turns and simultaneous steps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net import rulesmatch
from hedgerow.net.address import TableAddress, split_endpoint
from hedgerow.net.codec import CodecError, decode_log_record
from hedgerow.net.messages import (
    ActionMsg,
    ErrorCode,
    Hello,
    Leave,
    LeaveReason,
    LoggedEntry,
    LogHeader,
    SealRecord,
    SeatAssignment,
    SeatEvent,
    SpectatorFeed,
)

from .driver import Driver, body_is
from .ending import AgreedEnd
from .report import Deviation, Report, Verdict
from .sealed import SEALED_END
from .sealedplay import SealedGame
from .session import SHARED, Seats, Session, Unsupported

#: Every scenario of ``check-peer host``: name -> (section, what it checks).
SCENARIOS: dict[str, tuple[str, str]] = {
    "hello-wrong-table": ("3.1", "another table's id: refused WRONG_TABLE"),
    "hello-rules-mismatch": ("3.1", "other rules: refused RULES_MISMATCH"),
    "hello-wrong-seat": ("3.1", "seat 31 asked for: refused WRONG_SEAT"),
    "seating": ("3.1", "SeatAssignments: link, fields, seats"),
    **{k: v for k, v in SHARED.items() if k not in ("play", "end", "end-exit", "log-file")},
    "spectator": ("3.4", "a spectator seated without a seat, announced"),
    "spectator-refused": ("3.4", "an ActionMsg from the spectator: WRONG_SEAT"),
    "play": SHARED["play"],
    "end": SHARED["end"],
    "end-exit": SHARED["end-exit"],
    **SEALED_END,
    "spectator-feed": ("3.4", "the spectator's stream: header, every entry"),
    "log-file": SHARED["log-file"],
}
#: The display name of the checker's spectator.
WATCHER = "check-peer-watcher"


class HostedCheck(Session):
    """One run of the checker against the table at ``address``."""

    scenarios = SCENARIOS

    def __init__(self, address: TableAddress, plugins: PluginHost, *, timeout: float = 10.0,
                 name: str = "check-peer", log: Path | None = None, halt: str = "") -> None:
        super().__init__(str(address), plugins, timeout=timeout, name=name,
                         bind=_bind_host(address.host), log=log)
        self.address = address
        self.peer = address.key
        self.peer_endpoint = address.endpoint
        self.peer_is_host = True
        self.watcher: Driver | None = None  # the checker's spectator
        self.second: Driver | None = None  # the checker's second seat at a table of three
        self.feed: list[bytes] = []  # the records of the stream it holds
        self.halted = ""  # why the table halted at the host, as its feeds first said
        self.halt = halt  # the hostile fault to provoke at a sealed table (sealed.FAULTS)

    async def _midgame(self) -> None:
        if await self._scenario("spectator", self._spectator):
            await self._scenario("spectator-refused", self._spectator_refused)

    async def _after_end(self) -> None:
        if self.watcher is not None and self._passed("spectator"):
            await self._scenario("spectator-feed", self._spectator_feed)

    async def _close(self) -> None:
        if self.watcher is not None:
            await self.watcher.close()
        if self.second is not None and self.second not in self.helpers.values():
            await self.second.close()  # (seated, it is closed with the helpers)

    def _passed(self, name: str) -> bool:
        return any(r.name == name and r.verdict is Verdict.PASS for r in self.report.results)

    async def _seat(self) -> bool:
        await self._hello_probes()  # the seating is checked whatever these gave
        return await self._scenario("seating", self._seating)

    # -- before a seat: the Hello refusals ---------------------------------------------

    async def _hello_probes(self) -> bool:
        d = self.driver
        d.connect(self.peer, self.peer_endpoint)
        base = Hello("*", rulesmatch.installed(self.plugins), self.name, None, False,
                     d.endpoint)
        probes = [("hello-wrong-table", base, b"\x01" * 16, ErrorCode.WRONG_TABLE),
                  ("hello-rules-mismatch", _with(base, fingerprint="check-peer-none@0.0.0"),
                   b"", ErrorCode.RULES_MISMATCH),
                  ("hello-wrong-seat", _with(base, wanted_seat=31), b"", ErrorCode.WRONG_SEAT)]
        ok = True
        for name, hello, table_id, code in probes:
            async def probe(hello: Hello = hello, table_id: bytes = table_id,
                            code: ErrorCode = code) -> str:
                seq, data = d.envelope(hello, table_id=table_id)
                await d.refusal(self.peer, data, seq, code, "3.1")
                return f"refused {code.name}"
            ok = await self._scenario(name, probe) and ok
        return True  # the seating is checked whatever these gave

    # -- seating -----------------------------------------------------------------------

    async def _seating(self) -> str:
        d = self.driver
        d.send(self.peer, Hello("*", rulesmatch.installed(self.plugins), self.name, None,
                                False, d.endpoint), table_id=b"")
        item = await d.next(body_is(SeatAssignment), "3.1",
                            "a SeatAssignment from the host answering the Hello")
        self._ensure(item.rx.sender == self.peer, "5.3", "the SeatAssignment from the host's "
                     "key", "it came from another key")
        self._ensure(item.rx.route is not None, "1", "the SeatAssignment over a DEALER the "
                     "host dialed to Hello.address (on the checker's ROUTER)",
                     "it came back on the checker's join link")
        assert item.env is not None and isinstance(item.env.body, SeatAssignment)
        first: SeatAssignment = item.env.body
        self._ensure(len(item.env.table_id) == 16, "2", "a 16-byte table_id",
                     item.env.table_id.hex())
        d.table_id = item.env.table_id
        self._ensure(first.seat is not None, "2.3", "the checker's seat in the SeatAssignment",
                     "no seat (a spectator's assignment)")
        assert first.seat is not None
        self._check_assignment(first, first)
        if not rulesmatch.split_deck(first.fingerprint)[1]:
            self.deck = SealedGame(self, self.halt)  # a sealed table (§10)
        elif self.halt:
            raise Unsupported(f"--halt {self.halt} needs a sealed table; this one has an open "
                              "deck")
        try:
            ruleset = rulesmatch.ruleset_for(self.plugins, first.fingerprint, first.players)
        except HedgerowError as exc:
            raise Unsupported(f"the table's rules are not installed here: {exc.message}") \
                from None
        if first.players == 3:  # the checker takes a second seat: the agreed end (`ending`)
            await self._second_seat(first)
        elif first.players != 2:
            raise Unsupported(f"a table of {first.players} seats: the checker takes one seat "
                              "of 2, or two of 3 (open a table of 2 or 3 seats)")
        seating = first
        while len(seating.peers) < seating.players:
            item = await d.next(body_is(SeatAssignment, self.peer), "3.1",
                                "the final SeatAssignment, every seat taken (the checker "
                                f"takes {seating.players - 1} of {seating.players})")
            assert item.env is not None and isinstance(item.env.body, SeatAssignment)
            self._ensure(item.env.body.round >= seating.round, "3.2", "a round that never "
                         f"goes back (was {seating.round})", item.env.body.round)
            seating = item.env.body
            self._check_assignment(first, seating)
        holders = {p.seat: p.public_key for p in seating.peers}
        helpers: tuple[bytes, ...] = ()
        if self.second is not None:
            seat = next((s for s, k in holders.items() if k == self.second.key), None)
            self._ensure(seat is not None, "3.1", "the checker's second key seated in the "
                         "final seating", sorted(holders))
            assert seat is not None
            self.helpers[seat] = self.second
            self.ending = AgreedEnd(self, seat)
            helpers = (self.second.key,)
        self.seats = Seats(first.seat, first.players, first.fingerprint, seating.round, holders,
                           helpers)
        for p in seating.peers:
            if p.public_key not in (d.key, self.peer, *helpers):
                d.connect(p.public_key, p.address)
        self.table_rules = ruleset
        return f"seat {first.seat} of {first.players}, round {seating.round}"

    async def _second_seat(self, first: SeatAssignment) -> None:
        """At a table of three the checker's second key says `Hello` too and takes the last
        seat: its `SeatAssignment` comes over a DEALER the host dialed, with its own seat,
        the table's seat count, fingerprint and id."""
        if self.deck is not None:
            raise Unsupported("a sealed table of three escrows each party's secret (§10.11), "
                              "which the checker does not drive yet: open the table of three "
                              "with an open deck")
        h = self.second = await Driver(self.timeout).start(self.bind)
        h.table_id = self.driver.table_id
        h.connect(self.peer, self.peer_endpoint)
        h.send(self.peer, Hello("*", rulesmatch.installed(self.plugins), f"{self.name}-2",
                                None, False, h.endpoint), table_id=b"")
        item = await h.next(body_is(SeatAssignment, self.peer), "3.1", "a SeatAssignment "
                            "answering the checker's second Hello (a table of three)")
        assert item.env is not None and isinstance(item.env.body, SeatAssignment)
        got = item.env.body
        self._ensure(item.rx.route is not None and item.env.table_id == h.table_id
                     and got.seat is not None and got.seat != first.seat
                     and (got.players, got.fingerprint) == (first.players, first.fingerprint),
                     "3.1", "over a DEALER to the second key's Hello.address: another seat of "
                     f"the same table ({first.players} seats, {first.fingerprint})",
                     f"seat {got.seat}, {got.players} seats, {got.fingerprint}")

    def _check_assignment(self, first: SeatAssignment, got: SeatAssignment) -> None:
        """A SeatAssignment against the first one and the rules of §2.3 and §5.3."""
        same = (got.seat, got.players, got.fingerprint) == (first.seat, first.players,
                                                            first.fingerprint)
        self._ensure(same, "5.3", f"the seat, seat count and fingerprint of the first "
                     f"assignment ({first.seat}, {first.players}, {first.fingerprint})",
                     f"({got.seat}, {got.players}, {got.fingerprint})")
        seats = [p.seat for p in got.peers]
        self._ensure(seats == sorted(set(seats)) and all(s < got.players for s in seats),
                     "2.3", "peers in ascending seat order, each seat once, below players",
                     seats)
        mine = [p for p in got.peers if p.public_key == self.driver.key]
        self._ensure(len(mine) == 1 and mine[0].seat == got.seat
                     and _same_endpoint(mine[0].address, self.driver.endpoint), "3.1",
                     f"the checker listed once, at seat {got.seat}, at its Hello.address "
                     f"{self.driver.endpoint}", [(p.seat, p.address) for p in mine])
        self._ensure(any(p.public_key == self.peer for p in got.peers), "3.1",
                     "the host listed among the peers", "no peer with the host's key")
        self._ensure(1 <= got.round <= 2 ** 20, "2.3", "a round in 1..2^20", got.round)


    # -- a spectator (§3.4) -------------------------------------------------------------

    async def _spectator(self) -> str:
        """A second key of the checker's says `Hello` as a spectator in the middle of the
        game: the host dials its address and sends a `SeatAssignment` without a seat (the
        seats, the round, the spectator among the `watchers`), and tells the seated
        checker the new `watchers`."""
        seats, table_id = self._seats(), self.driver.table_id
        w = self.watcher = await Driver(self.timeout).start(self.bind)
        w.connect(self.peer, self.peer_endpoint)
        w.send(self.peer, Hello(seats.fingerprint, rulesmatch.installed(self.plugins), WATCHER,
                                None, False, w.endpoint, spectator=True), table_id=table_id)
        item = await w.next(body_is(SeatAssignment, self.peer), "3.4", "a SeatAssignment "
                            "for the spectator")
        assert item.env is not None and isinstance(item.env.body, SeatAssignment)
        got = item.env.body
        self._ensure(item.rx.route is not None, "3.4", "the SeatAssignment over a DEALER the "
                     "host dialed to the spectator's Hello.address", "it came back on the "
                     "spectator's own link")
        self._ensure(item.env.table_id == table_id, "3.4", f"the table's id {table_id.hex()}",
                     item.env.table_id.hex())
        holders = {p.seat: p.public_key for p in got.peers}
        self._ensure((got.seat, got.players, got.fingerprint, holders, got.round)
                     == (None, seats.players, seats.fingerprint, seats.holders, seats.round),
                     "3.4", "no seat, and the table's seat count, fingerprint, seats and round",
                     f"seat {got.seat}, {got.players}, {got.fingerprint}, {sorted(holders)}, "
                     f"round {got.round}")
        self._ensure(WATCHER in got.watchers, "3.4", f"{WATCHER!r} among the watchers",
                     got.watchers)
        w.table_id = table_id
        w.beat(lambda: [self.peer], self._drain_feed)
        told = await self.driver.next(
            lambda it: body_is(SeatAssignment, self.peer)(it) and it.env is not None
            and WATCHER in getattr(it.env.body, "watchers", ()), "3.4",
            f"the seating again, to the checker's seat, with {WATCHER!r} among the watchers")
        assert told.env is not None and isinstance(told.env.body, SeatAssignment)
        self._ensure(told.env.body.seat == seats.seat, "3.4", f"the checker's seat "
                     f"{seats.seat}", told.env.body.seat)
        return "a SeatAssignment without seat; the seats told"

    async def _spectator_refused(self) -> str:
        w, table = self.watcher, self._table()
        assert w is not None
        action = self._legal_action()
        seq, data = w.envelope(ActionMsg(table.index, table.head, self._seats().seat, action))
        await w.refusal(self.peer, data, seq, ErrorCode.WRONG_SEAT, "3.4",
                        ref_index=table.index)
        return "refused WRONG_SEAT"

    def _drain_feed(self) -> int:
        """Take the feeds the spectator received into `feed` (a feed from beyond what it
        holds is ignored; one that overlaps is taken from where it is); how many records
        it holds (its Heartbeat's ``next_index``, §3.4)."""
        assert self.watcher is not None
        for item in self.watcher.take(body_is(SpectatorFeed, self.peer)):
            assert item.env is not None and isinstance(item.env.body, SpectatorFeed)
            feed = item.env.body
            self.halted = self.halted or feed.halted
            if feed.first == 0 and feed.records:
                self.feed = []
            if feed.first <= len(self.feed):
                self.feed[feed.first:] = feed.records
        return len(self.feed)

    async def _halt_shown(self, section: str, naming: Callable[[str], str]) -> str:
        """The spectator's feeds say why the table halted (`SpectatorFeed.halted`, §3.4: a
        feed at every heartbeat), naming the checker's seat (§10.10), within the timeout;
        nothing to show when no spectator is seated (``spectator`` did not pass)."""
        if self.watcher is None or not self._passed("spectator"):
            return ""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while not self._drain_feed_halted() and loop.time() < deadline:
            await asyncio.sleep(0.2)
        self._ensure(bool(self.halted), section, "a SpectatorFeed to the checker's spectator "
                     "whose halted says why the table halted at the host (§3.4: a feed at "
                     "every heartbeat)", f"none with halted within {self.timeout:g} s")
        return f"feed: halted{naming(self.halted)}"

    def _drain_feed_halted(self) -> str:
        self._drain_feed()
        return self.halted

    async def _spectator_feed(self) -> str:
        """By the end, the spectator holds the host's log as a stream: the header and
        every entry of the game with the rules' state hash, and the seat events of the
        departure scenarios (§5.9 "How it is logged")."""
        table = self._table()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        due = table.index + self.departures.events_due()  # entries and seat events
        while True:  # (at a sealed table the stream holds seal records too, §3.4)
            self._drain_feed()
            try:
                records = [decode_log_record(r) for r in self.feed]
            except CodecError as exc:
                raise Deviation("3.4", "records that decode as LogRecord", str(exc)) from None
            held = sum(isinstance(r, LoggedEntry | SeatEvent) for r in records)
            if held >= due or loop.time() > deadline:
                break
            await asyncio.sleep(0.2)
        private = [r for r in records if isinstance(r, SealRecord) and r.keys is not None
                   and not r.keys.public]
        self._ensure(not private, "3.4", "no private record in a spectator's stream (never "
                     "a CardKeys without public, §10.1)", f"{len(private)} of them")
        self._ensure(bool(records) and isinstance(records[0], LogHeader), "3.4",
                     "record 0 of the stream: the log's header",
                     type(records[0]).__name__ if records else "no record")
        header = records[0]
        assert isinstance(header, LogHeader)
        entries = [r for r in records[1:] if isinstance(r, LoggedEntry)]
        self._check_records(header, entries, "3.4")
        self.departures.check_log([r for r in records if isinstance(r, SeatEvent)], "3.4")
        kinds = LoggedEntry | SeatEvent | SealRecord if self.deck else LoggedEntry | SeatEvent
        self._ensure(all(isinstance(r, kinds) for r in records[1:]), "3.4",
                     "after the header, entries and seat events (and at a sealed table seal "
                     "records)", [type(r).__name__ for r in records[1:]])
        assert self.watcher is not None
        self.watcher.send(self.peer, Leave("check-peer: done watching", LeaveReason.QUIT))
        events = sum(isinstance(r, SeatEvent) for r in records)
        seals = sum(isinstance(r, SealRecord) for r in records)
        return (f"the header, all {len(entries)} entries"
                + (f", {events} seat events" if events else "")
                + (f", {seals} seal records" if seals else ""))


def _same_endpoint(listed: str, ours: str) -> bool:
    """``listed`` is the checker's endpoint ``ours`` (a wildcard host replaced by the
    address the Hello came from, §1: then the port alone must agree)."""
    host, port = split_endpoint(ours)
    if host in ("0.0.0.0", "::"):
        return split_endpoint(listed)[1] == port
    return listed == ours


def _with(hello: Hello, **changes: object) -> Hello:
    from dataclasses import replace

    return replace(hello, **changes)  # type: ignore[arg-type]


def _bind_host(host: str) -> str:
    """Where the checker binds: loopback for a peer on this machine, else every interface
    (the peer under test dials the checker's Hello.address)."""
    return "127.0.0.1" if host in ("127.0.0.1", "localhost", "::1") else "0.0.0.0"


async def check_hosted(address: TableAddress, plugins: PluginHost, *, timeout: float = 10.0,
                       name: str = "check-peer", log: Path | None = None,
                       halt: str = "") -> Report:
    """Run every hosted scenario against the table at ``address`` (with ``log``, the log
    file the peer writes, or its folder, is checked too); the report."""
    check = HostedCheck(address, plugins, timeout=timeout, name=name, log=log, halt=halt)
    report = await check.run()
    await asyncio.sleep(0)
    return report
