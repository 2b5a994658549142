"""``hedgerow check-peer watch GAME``: the peer under test as a spectator (docs/protocol.md
§3.4).  The checker opens an open-deck table of 2 seats, holds both seats itself (one key,
listed once per seat, §2.3), prints its address and waits for the peer under test to watch
it (ours: ``hedgerow watch ADDRESS``); then it plays a whole game by itself and streams its
public records to the spectator, checking what the spectator says (its `Heartbeat`'s
``next_index``: the stream records it holds, §3.4 "What a spectator may send") and that it
says nothing else.

The scenarios, in the order they run (`SCENARIOS`; each names its section):

* ``watch-hello`` (§3.4 *Handshake*, §3.1 step 1): a `Hello` with ``spectator`` set on the
  spectator's join link, an empty ``table_id`` or the table's, a fingerprint of ``*`` or
  the table's, the table's game in ``plugins``, a ROUTER endpoint in ``address``; and
  nothing else, no heartbeat either, before its `SeatAssignment` (1.5 s);
* ``watch-seating`` (§3.4): the checker dials ``Hello.address`` and sends a
  `SeatAssignment` without ``seat`` (the spectator among the ``watchers``) and the stream's
  header: the spectator takes them (no `Error`) and heartbeats, with the table's id, that
  it holds 1 record;
* ``watch-stream`` (§3.4): every record the checker streams as it plays (a feed a move,
  and a feed without records at each heartbeat) is taken: the spectator's count reaches the
  stream's length (the last move's records held back for ``watch-end``);
* ``watch-gap`` (§3.4): a feed whose ``first`` is beyond the records the spectator holds
  is ignored (a feed before it was lost): its count does not move;
* ``watch-overlap`` (§3.4): a feed that begins before where the spectator is, with the
  records it lacks after, is taken from where it is;
* ``watch-restart`` (§3.4): a feed with ``first = 0`` and records starts the replay over
  (the host began a new log): its count is what that feed holds, and the stream sent again
  brings it back;
* ``watch-wrong-body`` (§3.4): an `ActionMsg` from the host (no spectator's business):
  refused ``WRONG_PHASE``;
* ``watch-malformed`` (§2): bytes that are not an envelope: ``MALFORMED``, no ``ref_seq``;
* ``watch-stranger`` (§3.4): a `Heartbeat` from a key that is not the host's, over a link
  to the spectator's ROUTER: refused ``STRANGER`` (a spectator listens to the host alone);
* ``watch-bad-record`` (§3.4): a feed whose next record does not decode as a `LogRecord`:
  nothing from it on is taken (the count stays where it was);
* ``watch-quiet`` (§3.4): across the run the spectator sent the host nothing but its
  heartbeats and the refusals asked for (no action, no vote, no report, nothing of a seat);
* ``watch-end`` (§3.4, §5.8): the last move's records: taken (the count reaches the whole
  stream), or the spectator, the game over, stops watching (its `Leave`: ours does); then,
  if it still watches, the host's `Leave`: the spectator stops watching, no heartbeat
  after it.

The hostile probes run in the middle of the game (after `PROBE_AT` entries), the bad
record once every entry but the last move's was taken.  The spectator's own replay (each
entry against the chain, the rules and the state hash) is not visible on the wire, so it
is not checked here; the records the checker streams are all correct but the one of
``watch-bad-record``.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from hedgerow.core.canon import digest
from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, Table
from hedgerow.net import rulesmatch
from hedgerow.net.address import TableAddress, advertised_host, endpoint, split_endpoint
from hedgerow.net.codec import encode_log_record
from hedgerow.net.messages import (
    ActionMsg,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    LeaveReason,
    LoggedEntry,
    LogHeader,
    PeerInfo,
    SeatAssignment,
    SpectatorFeed,
)

from .driver import Driver, Incoming, body_is, describe, describe_error
from .report import Deviation, Report, Unsupported
from .session import Seats, Session

#: The checker's table: 2 seats, both its own.
PLAYERS = 2
#: How long the checker waits to see a count that must not move: two heartbeats and a margin
#: (a spectator beats once a second, §3.4).
STILL_WAIT = 2.5
#: The probes run once the stream holds this many entries.
PROBE_AT = 8
#: The checker's spectator-facing name for the two seats it holds.
SEAT_NAMES = ("check-peer-0", "check-peer-1")
#: Every scenario of ``check-peer watch``: name -> (section, what it checks).
SCENARIOS: dict[str, tuple[str, str]] = {
    "watch-hello": ("3.4", "its Hello as a spectator, nothing before seating"),
    "watch-seating": ("3.4", "a seating without seat, the header: it beats 1"),
    "watch-gap": ("3.4", "a feed beyond what it holds: ignored"),
    "watch-overlap": ("3.4", "a feed overlapping: taken from where it is"),
    "watch-restart": ("3.4", "a feed from record 0: the replay starts over"),
    "watch-wrong-body": ("3.4", "an ActionMsg from the host: WRONG_PHASE"),
    "watch-malformed": ("2", "not an envelope: MALFORMED, no ref_seq"),
    "watch-stranger": ("3.4", "a Heartbeat from another key: STRANGER"),
    "watch-stream": ("3.4", "the game's records taken, counted"),
    "watch-bad-record": ("3.4", "a record that does not decode: none taken on"),
    "watch-quiet": ("3.4", "nothing sent but heartbeats and refusals"),
    "watch-end": ("3.4", "the last move taken; the host's Leave: it stops"),
}


class WatchedCheck(Session):
    """One run of the checker as the host of a table the peer under test watches."""

    scenarios = SCENARIOS

    def __init__(self, ruleset: Ruleset, plugins: PluginHost, *, bind: str = "127.0.0.1",
                 port: int = 0, timeout: float = 10.0, wait: float = 300.0,
                 name: str = "check-peer",
                 opened: Callable[[TableAddress, str], None] | None = None) -> None:
        super().__init__("", plugins, timeout=timeout, name=name, bind=bind)
        self.ruleset = self.table_rules = ruleset
        self.fingerprint = rulesmatch.table_fingerprint(ruleset, open_deck=True)
        self.port = port
        self.wait = wait
        self.on_open = opened
        self.driver.table_id = secrets.token_bytes(16)
        self.hello: Hello | None = None
        self.stream: list[bytes] = []  # the public record stream: header, entries
        self.sent = 0  # how many of them the spectator was sent
        self.left = False  # the spectator said Leave (a probe took it)

    # -- running -----------------------------------------------------------------------

    async def run(self) -> Report:
        """Every scenario, in order; the report."""
        d = self.driver
        await d.start(self.bind, self.port)
        try:
            _, port = split_endpoint(d.endpoint)
            address = TableAddress(advertised_host(self.bind), port, d.key)
            self.report.target = f"watch {address}"
            if self.on_open is not None:
                self.on_open(address, self.fingerprint)
            ok = (await self._scenario("watch-hello", self._hello)
                  and await self._scenario("watch-seating", self._seating))
            if ok:
                d.beat(lambda: [self.peer], lambda: 0)  # the host beats too (§5.8)
                self._feeding()
                ok = await self._scenario("watch-stream", self._stream)
            if ok:
                await self._scenario("watch-bad-record", self._bad_record)
                await self._scenario("watch-quiet", self._quiet)
                await self._scenario("watch-end", self._end_of_game)
        finally:
            await d.close()
        self._complete(played=False)
        self.report.fingerprint = self.fingerprint
        return self.report

    # -- the spectator's Hello and seating -----------------------------------------------

    async def _hello(self) -> str:
        item, hello = await self._first_hello("3.4", "a spectator's Hello", self.wait)
        self._ensure(isinstance(hello, Hello), "3.4", "a Hello, before anything else",
                     describe(item))
        assert isinstance(hello, Hello)
        if not hello.spectator:
            raise Unsupported("the peer asked for a seat: watch the table (hedgerow watch "
                              "ADDRESS), or check a joiner with check-peer join")
        self._hello_fits(item, hello, "3.4", "the Hello over the spectator's DEALER to the "
                         "host's ROUTER (as a joiner's)", "an empty table_id or the table's",
                         self.ruleset, self.fingerprint)
        try:
            split_endpoint(hello.address)
        except ValueError:
            raise Deviation("3.4", "the spectator's ROUTER endpoint tcp://HOST:PORT in "
                            "Hello.address", repr(hello.address)) from None
        self.hello = hello
        host, port = split_endpoint(hello.address)
        if host in ("0.0.0.0", "::") and item.rx.peer_ip:
            host = item.rx.peer_ip
        self.peer_endpoint = endpoint(host, port)
        await self._quiet_until_placed("3.4", "the spectator", "SeatAssignment", "3.4")
        return f"from {hello.display_name!r}, nothing before its seating"

    async def _seating(self) -> str:
        """The seating without a seat, then the stream's header: the spectator heartbeats
        that it holds it, with the table's id, and refuses neither."""
        d, hello = self.driver, self.hello
        assert hello is not None
        seed = secrets.token_bytes(32)
        self.table = Table(self.ruleset, PLAYERS, seed, fingerprint=self.fingerprint)
        self.rng = Rng(digest(b"hedgerow-check-peer-v1", seed), "moves")
        self.seats = Seats(0, PLAYERS, self.fingerprint, 1, {0: d.key, 1: d.key})
        ours = d.endpoint
        our_host, our_port = split_endpoint(ours)
        if our_host in ("0.0.0.0", "::"):
            ours = endpoint(advertised_host(our_host, split_endpoint(self.peer_endpoint)[0]),
                            our_port)
        peers = tuple(PeerInfo(s, d.key, ours, SEAT_NAMES[s], True) for s in range(PLAYERS))
        name = hello.display_name or "spectator"
        d.connect(self.peer, self.peer_endpoint)
        d.send(self.peer, SeatAssignment(None, PLAYERS, self.fingerprint, peers, 1, (name,)))
        header = LogHeader.for_table(self.ruleset, PLAYERS, seed, table_id=d.table_id,
                                     own_seat=0, seat_names=SEAT_NAMES,
                                     fingerprint=self.fingerprint)
        self.stream.append(encode_log_record(header))
        self._record(self.table.opening)
        self._send_feed(0, self.stream[:1])
        self.sent = 1
        await self._count(1, "3.4", "a Heartbeat saying it holds 1 record (the header)")
        self._no_error()
        return "no seat, the header taken: it heartbeats 1"

    # -- the game, streamed --------------------------------------------------------------

    def _record(self, applied: tuple[Applied, ...]) -> None:
        table = self._table()
        for item in applied:
            self.stream.append(encode_log_record(LoggedEntry(item.entry,
                                                             table.hash_of(item.after))))

    def _move(self) -> None:
        """One turn or step of the checker's two seats, recorded."""
        table, rng = self._table(), self.rng
        assert rng is not None
        active = table.active_seats()
        choices = {s: rng.choice(list(table.legal_actions(s))) for s in active}
        result = table.submit_step(choices)
        assert not isinstance(result, Refusal), result
        self._record(result)

    def _feeding(self) -> None:
        """A feed without records at every heartbeat (§3.4), from where the spectator is."""
        async def loop() -> None:
            while True:
                await asyncio.sleep(1.0)
                self._send_feed(self.sent, ())

        self.driver._tasks.append(asyncio.create_task(loop()))

    def _send_feed(self, first: int, records: tuple[bytes, ...] | list[bytes]) -> int:
        return self.driver.send(self.peer, SpectatorFeed(first, tuple(records)))

    async def _stream(self) -> str:
        """The game move by move, a feed a move; the probes in the middle; the spectator's
        count reaches the stream's length."""
        table = self._table()
        probed = False
        while table.active_seats():
            self._move()
            if not table.active_seats():
                break  # the last move's records wait for ``watch-end``
            self._send_feed(self.sent, self.stream[self.sent:])
            self.sent = len(self.stream)
            if not probed and table.index >= PROBE_AT:
                probed = True
                await self._count(self.sent, "3.4", f"its count at {self.sent} (the records "
                                  "streamed so far)")
                await self._probes()
                self._ensure(not self._gone(), "3.4", "the spectator watching on to the end "
                             "of the game", "its Leave: it stopped watching")
            await asyncio.sleep(0.05)
        await self._count(self.sent, "3.4", f"its count at {self.sent}: the header and "
                          "every entry but the last move's")
        self._no_error()
        return f"the header and {self.sent - 1} entries, counted"

    async def _probes(self) -> None:
        for name, probe in (("watch-gap", self._gap), ("watch-overlap", self._overlap),
                            ("watch-restart", self._restart),
                            ("watch-wrong-body", self._wrong_body),
                            ("watch-malformed", self._malformed),
                            ("watch-stranger", self._stranger)):
            if self._gone():
                return  # the rest is not reached: nobody watches any more
            await self._scenario(name, probe)

    def _gone(self) -> bool:
        """True once the spectator said `Leave` (kept for ``watch-quiet``, where it may)."""
        d = self.driver
        while not d.inbox.empty():
            d.backlog.append(d.inbox.get_nowait())
        return self.left or any(self._from_peer(it) and it.env is not None
                                and isinstance(it.env.body, Leave) for it in d.backlog)

    async def _gap(self) -> str:
        """Two moves on, a feed that leaves out the first record the spectator lacks."""
        held = self.sent
        self._move()
        self._move()
        self._send_feed(held + 1, self.stream[held + 1:])
        await self._still(held, "3.4", f"its count still {held}: a feed from #{held + 1} "
                          f"is beyond the {held} records it holds")
        return f"ignored: still {held}"

    async def _overlap(self) -> str:
        """A move on, a feed from the record before the spectator's count."""
        held = self.sent
        self._move()
        self._send_feed(held - 1, self.stream[held - 1:])
        self.sent = len(self.stream)
        await self._count(self.sent, "3.4", f"its count at {self.sent}: the feed from "
                          f"#{held - 1} taken from #{held}")
        return f"taken from #{held}: {self.sent} records"

    async def _restart(self) -> str:
        self._send_feed(0, self.stream[:1])
        self.sent = 1
        await self._count(1, "3.4", "its count at 1: a feed with first 0 and records starts "
                          "the replay over")
        self._send_feed(1, self.stream[1:])
        self.sent = len(self.stream)
        await self._count(self.sent, "3.4", f"its count back at {self.sent}")
        return f"over from 1, back to {self.sent}"

    async def _wrong_body(self) -> str:
        d, table = self.driver, self._table()
        action = table.legal_actions(table.active_seats()[0])[0]
        seq, data = d.envelope(ActionMsg(table.index, table.head, table.active_seats()[0],
                                         action))
        await d.refusal(self.peer, data, seq, ErrorCode.WRONG_PHASE, "3.4")
        return "refused WRONG_PHASE"

    async def _malformed(self) -> str:
        await self.driver.refusal(self.peer, b"\xff\xff check-peer: not an envelope", None,
                                  ErrorCode.MALFORMED, "2")
        return "refused MALFORMED"

    async def _stranger(self) -> str:
        """A key that is not the host's dials the spectator's ROUTER: its Heartbeat is
        refused `STRANGER` (the sentinel cannot be used here: a stranger's every envelope is
        refused so)."""
        stranger = await Driver(self.timeout).start(self.bind)
        try:
            stranger.table_id = self.driver.table_id
            stranger.connect(self.peer, self.peer_endpoint)
            seq = stranger.send(self.peer, Heartbeat(0))
            item = await stranger.next(body_is(ErrorMsg, self.peer), "3.4", "an Error "
                                       "(STRANGER) for a Heartbeat from a key not the host's")
            assert item.env is not None and isinstance(item.env.body, ErrorMsg)
            error = item.env.body
            self._ensure(error.code == ErrorCode.STRANGER and error.ref_seq == seq, "3.4",
                         f"Error(STRANGER) with ref_seq={seq}", describe_error(error))
        finally:
            await stranger.close()
        return "refused STRANGER"

    async def _bad_record(self) -> str:
        """A feed from where the spectator is whose first record does not decode, with a
        good one after it: neither is taken."""
        held = self.sent
        self._send_feed(held, [b"\xff\xff check-peer: not a LogRecord", self.stream[held]])
        await self._still(held, "3.4", f"its count still {held}: nothing taken from a record "
                          "that does not decode", resend=False)
        return f"nothing taken: still {held}"

    async def _quiet(self) -> str:
        kept = self.driver.take(self._from_peer)
        self._ensure(not kept, "3.4", "nothing from the spectator but Heartbeats and the "
                     "refusals the probes asked for", describe(kept[0]) if kept else "")
        return "heartbeats and the refusals asked for only"

    async def _end_of_game(self) -> str:
        """The last move's records: the spectator takes them (its count reaches the
        stream's length) or, the game over, stops watching (its `Leave`); then the host's
        `Leave`, after which the spectator, if it still watches, heartbeats no more."""
        d, total = self.driver, len(self.stream)
        self._send_feed(self.sent, self.stream[self.sent:])
        self.sent = total
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        left: list[Incoming] = []
        while self._held() != total and not left and loop.time() < deadline:
            await asyncio.sleep(0.1)
            left = d.take(lambda it: self._from_peer(it) and it.env is not None
                          and isinstance(it.env.body, Leave))
        self._ensure(self._held() == total or bool(left), "3.4", f"its count at {total} "
                     "(the whole game), or its Leave once the game is over",
                     f"a count of {self._held()} after {self.timeout:g} s")
        if left:
            return f"it left once the game was over (count {self._held()})"
        for task in d._tasks:
            task.cancel()
        d.send(self.peer, Leave("check-peer: the game is over", LeaveReason.GAME_OVER))
        await asyncio.sleep(0.5)  # a heartbeat already on its way
        d.beats.pop(self.peer, None)
        await asyncio.sleep(STILL_WAIT)
        self._ensure(self.peer not in d.beats, "3.4", "no Heartbeat once the host left "
                     "(the spectator stops watching)", f"a Heartbeat "
                     f"{d.beats.get(self.peer)}")
        return f"all {total} records; no heartbeat after the host's Leave"

    # -- the spectator's count -----------------------------------------------------------

    def _from_peer(self, item: Incoming) -> bool:
        return item.rx.sender == self.peer

    def _held(self) -> int | None:
        beat = self.driver.beats.get(self.peer)
        return None if beat is None else beat.next_index

    async def _count(self, want: int, section: str, expected: str) -> None:
        """Wait until the spectator's heartbeat says it holds ``want`` records."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while self._held() != want and loop.time() < deadline:
            await asyncio.sleep(0.1)
        self._ensure(self._held() == want, section, expected, f"a count of {self._held()} "
                     f"after {self.timeout:g} s")

    async def _still(self, held: int, section: str, expected: str, *,
                     resend: bool = True) -> None:
        """The spectator watches on, its heartbeats saying ``held`` for `STILL_WAIT` (a
        heartbeat already on its way when the probe went is let through first); then, with
        ``resend``, it gets the records it lacks (from where it says it is)."""
        await asyncio.sleep(0.5)
        self.driver.beats.pop(self.peer, None)
        await asyncio.sleep(STILL_WAIT - 0.5)
        left = self.driver.take(lambda it: self._from_peer(it) and it.env is not None
                                and isinstance(it.env.body, Leave))
        self.left = self.left or bool(left)
        self._ensure(not left, section, f"{expected}, watching on",
                     describe(left[0]) if left else "")
        held_now = self._held()
        self._ensure(held_now == held, section, f"{expected}, watching on",
                     "no Heartbeat (it stopped watching)" if held_now is None
                     else f"a count of {held_now}")
        if resend:
            self._send_feed(held, self.stream[held:])
            self.sent = len(self.stream)

    def _no_error(self) -> None:
        errors = self.driver.take(body_is(ErrorMsg, self.peer))
        self._ensure(not errors, "3.4", "no Error for the host's honest feeds",
                     describe(errors[0]) if errors else "")


async def check_watching(ruleset: Ruleset, plugins: PluginHost, *, bind: str = "127.0.0.1",
                         port: int = 0, timeout: float = 10.0, wait: float = 300.0,
                         name: str = "check-peer",
                         opened: Callable[[TableAddress, str], None] | None = None,
                         ) -> Report:
    """Open the checker's table of ``ruleset``, call ``opened(address, fingerprint)``, wait
    for the peer under test to watch it and run every scenario; the report."""
    ruleset.check_players(PLAYERS)
    check = WatchedCheck(ruleset, plugins, bind=bind, port=port, timeout=timeout, wait=wait,
                         name=name, opened=opened)
    report = await check.run()
    await asyncio.sleep(0)
    return report

