"""``hedgerow check-peer join GAME``: the checker opens a table of 2 seats (sealed, or with
``--open-deck`` an open deck), holds seat 0 as a strict host and waits for the peer under
test to join it; then it plays a whole game with it, checking every message against
docs/protocol.md.

The scenarios, in the order they run (`SCENARIOS`; each names its section):

* ``hello`` (§3.1 step 1, §1, §5.8): the joiner's `Hello` comes on its join link (the
  checker's ROUTER) with an empty `table_id` or the table's, a fingerprint of ``*`` or the
  table's, the table's game and variants at their versions in ``plugins``, not as a
  spectator, with a ROUTER endpoint in ``address``; and nothing else comes from it, no
  heartbeat either, while the checker keeps it waiting for its seat (1.5 s);
* ``seating`` (§3.1 steps 3 and 5, §1): the checker dials ``Hello.address`` (a wildcard
  host replaced by the address the `Hello` came from) with a DEALER pinned to the key the
  `Hello` came from and sends the final `SeatAssignment` there; the joiner takes it (no
  Error) and begins seeding with the assignment's ``table_id`` and round;
* the scenarios every side shares (`session.SHARED`): seeding and its repeats, the ``Start``
  barrier, the hostile probes at the checker's turn, the game and the end report;
* ``refuse-seat-moved`` (§5.3): once seating is over, a `SeatAssignment` from the host that
  gives seat 0 to another key is refused ``WRONG_PHASE`` ("the seats are already
  settled");
* ``refuse-seat-count`` (§5.3): a `SeatAssignment` from the host with another
  seat count than the first is refused ``WRONG_SEAT`` ("the seating contradicts the first
  one").

The two seating probes run with the others, at the checker's first turn.  The table's
``table_id`` is random (§2); the checker's moves come from the generator keyed by the seed.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.net import rulesmatch
from hedgerow.net.address import TableAddress, advertised_host, endpoint, split_endpoint
from hedgerow.net.keys import generate
from hedgerow.net.messages import ErrorCode, ErrorMsg, Hello, PeerInfo, SeatAssignment

from .driver import Driver, Incoming, describe
from .ending import HELPER_SEAT, AgreedEnd
from .report import Deviation, Report
from .sealed import SEALED_END
from .sealedplay import SealedGame
from .session import SHARED, Seats, Session, Unsupported

#: The seats of the checker's table: the checker's and the peer under test's.
PLAYERS = 2
#: The checker's seat (the host's).
OUR_SEAT = 0
#: The seed round of the checker's table.
ROUND = 1
#: Every scenario of ``check-peer join``: name -> (section, what it checks).
SCENARIOS: dict[str, tuple[str, str]] = {
    "hello": ("3.1", "the joiner's Hello, nothing before its seat"),
    "seating": ("3.1", "its SeatAssignment taken, then seeding"),
    **{k: v for k, v in SHARED.items() if k not in ("play", "end", "end-exit", "log-file")},
    "refuse-seat-moved": ("5.3", "a seat moved once seated: WRONG_PHASE"),
    "refuse-seat-count": ("5.3", "another seat count: WRONG_SEAT"),
    "play": SHARED["play"],
    "end": SHARED["end"],
    "end-exit": SHARED["end-exit"],
    **SEALED_END,
    "log-file": SHARED["log-file"],
}


class HostingCheck(Session):
    """One run of the checker as the host of a table of ``ruleset``."""

    scenarios = SCENARIOS

    def __init__(self, ruleset: Ruleset, plugins: PluginHost, *, bind: str = "127.0.0.1",
                 port: int = 0, timeout: float = 10.0, wait: float = 300.0,
                 name: str = "check-peer", log: Path | None = None,
                 opened: Callable[[TableAddress, str], None] | None = None,
                 open_deck: bool = False, halt: str = "", players: int = PLAYERS) -> None:
        super().__init__("", plugins, timeout=timeout, name=name, bind=bind, log=log)
        if players not in (PLAYERS, PLAYERS + 1):
            raise ValueError(f"the checker's table has {PLAYERS} or {PLAYERS + 1} seats, "
                             f"not {players}")
        if players > PLAYERS and not open_deck:
            raise ValueError("a sealed table of three needs the escrow (§10.11), which the "
                             "checker does not drive yet: use --open-deck")
        self.players = players
        self.ruleset = ruleset
        self.table_rules = ruleset
        self.fingerprint = rulesmatch.table_fingerprint(ruleset, open_deck=open_deck)
        if not open_deck:
            self.deck = SealedGame(self, halt)  # a sealed table (§10)
        elif halt:
            raise ValueError(f"--halt {halt} needs a sealed table, not --open-deck")
        self.port = port
        self.wait = wait
        self.on_open = opened
        self.address: TableAddress | None = None
        self.driver.table_id = secrets.token_bytes(16)
        if players > PLAYERS:  # the checker's second seat, which departs (`ending`)
            self.helpers[HELPER_SEAT] = Driver(timeout)
            self.helpers[HELPER_SEAT].table_id = self.driver.table_id
            self.ending = AgreedEnd(self)
        self.hello: Hello | None = None
        self.hello_ip: str | None = None

    async def _opened(self) -> None:
        for helper in self.helpers.values():
            await helper.start(self.bind)
        _, port = split_endpoint(self.driver.endpoint)
        self.address = TableAddress(advertised_host(self.bind), port, self.driver.key)
        self.report.target = f"join {self.address}"
        if self.on_open is not None:
            self.on_open(self.address, self.fingerprint)

    async def _seat(self) -> bool:
        return (await self._scenario("hello", self._hello)
                and await self._scenario("seating", self._seating))

    # -- the joiner's Hello ------------------------------------------------------------

    async def _hello(self) -> str:
        item, hello = await self._first_hello("3.1", "the joiner's Hello", self.wait)
        self._ensure(isinstance(hello, Hello), "3.1", "a Hello, before anything else "
                     "(§3.1 step 1)", describe(item))
        assert isinstance(hello, Hello)
        self._hello_fits(item, hello, "3.1", "the Hello over the joiner's DEALER to the "
                         "host's ROUTER (its join link)", "an empty table_id (the joiner "
                         "knows only the address) or the table's", self.ruleset,
                         self.fingerprint)
        if hello.spectator:
            raise Unsupported("the peer asked to watch, not to play: join without "
                              "spectating")
        if hello.wanted_seat not in (None, 1):
            raise Unsupported(f"the peer asked for seat {hello.wanted_seat}; the checker "
                              "holds seat 0 and leaves seat 1: ask for none or for seat 1")
        try:
            split_endpoint(hello.address)
        except ValueError:
            raise Deviation("3.1", "the joiner's ROUTER endpoint tcp://HOST:PORT in "
                            "Hello.address", repr(hello.address)) from None
        self.hello, self.hello_ip = hello, item.rx.peer_ip
        # Nothing else from the joiner before its seat: not even a heartbeat (§3.1 step 1).
        await self._quiet_until_placed("3.1", "the joiner", "SeatAssignment", "5.8")
        return f"from {hello.display_name!r}, nothing before its seat"

    # -- seating -----------------------------------------------------------------------

    async def _seating(self) -> str:
        d, hello = self.driver, self.hello
        assert hello is not None
        host, port = split_endpoint(hello.address)
        if host in ("0.0.0.0", "::") and self.hello_ip:
            host = self.hello_ip
        self.peer_endpoint = endpoint(host, port)
        ours = d.endpoint
        our_host, our_port = split_endpoint(ours)
        if our_host in ("0.0.0.0", "::"):
            ours = endpoint(advertised_host(our_host, host), our_port)
        peers = [PeerInfo(OUR_SEAT, d.key, ours, self.name, False),
                 PeerInfo(1, self.peer, self.peer_endpoint, hello.display_name, hello.bot)]
        holders = {OUR_SEAT: d.key, 1: self.peer}
        for seat, helper in self.helpers.items():
            theirs = helper.endpoint
            if our_host in ("0.0.0.0", "::"):
                theirs = endpoint(advertised_host(our_host, host), split_endpoint(theirs)[1])
            peers.append(PeerInfo(seat, helper.key, theirs, f"{self.name}-{seat}", False))
            holders[seat] = helper.key
            helper.connect(self.peer, self.peer_endpoint)
        self.assignment = SeatAssignment(1, self.players, self.fingerprint, tuple(peers),
                                         ROUND)
        d.connect(self.peer, self.peer_endpoint)
        d.send(self.peer, self.assignment)
        self.seats = Seats(OUR_SEAT, self.players, self.fingerprint, ROUND, holders,
                           tuple(h.key for h in self.helpers.values()))

        def answer(it: Incoming) -> bool:
            return it.rx.sender == self.peer

        first = await d.next(answer, "3.1", "the joiner's first message once seated "
                             "(its SeedCommit, §3.2 step 1)")
        if first.env is None:
            raise Deviation("2", "an envelope that decodes", describe(first))
        self._ensure(first.env.table_id == d.table_id, "3.1", "the SeatAssignment's "
                     f"table_id {d.table_id.hex()} on everything once seated",
                     first.env.table_id.hex())
        self._ensure(not isinstance(first.env.body, ErrorMsg), "3.1",
                     "the SeatAssignment taken (no Error)", describe(first))
        d.backlog.insert(0, first)  # seeding reads it
        return f"seat 1 of {self.players}, round {ROUND}"

    # -- the seating probes ------------------------------------------------------------

    async def _probes(self) -> None:
        await super()._probes()  # then the seating's, at the same moment
        d, a = self.driver, self.assignment
        other = PeerInfo(OUR_SEAT, generate().public, a.peers[0].address, "someone else")
        moved = SeatAssignment(1, self.players, self.fingerprint, (other, *a.peers[1:]),
                               ROUND)
        grown = SeatAssignment(1, self.players + 1, self.fingerprint, a.peers, ROUND)
        for name, body, code in (("refuse-seat-moved", moved, ErrorCode.WRONG_PHASE),
                                 ("refuse-seat-count", grown,
                                  ErrorCode.WRONG_SEAT)):
            async def probe(body: SeatAssignment = body, code: ErrorCode = code) -> str:
                seq, data = d.envelope(body)
                await d.refusal(self.peer, data, seq, code, "5.3")
                return f"refused {code.name}"
            await self._scenario(name, probe)


async def check_joining(ruleset: Ruleset, plugins: PluginHost, *, bind: str = "127.0.0.1",
                        port: int = 0, timeout: float = 10.0, wait: float = 300.0,
                        name: str = "check-peer", log: Path | None = None,
                        opened: Callable[[TableAddress, str], None] | None = None,
                        open_deck: bool = False, halt: str = "",
                        players: int = PLAYERS) -> Report:
    """Open the checker's table of ``ruleset`` (sealed, or with ``open_deck`` an open deck;
    ``halt``: the hostile fault to provoke there; ``players``: 2, or 3 with the checker at
    seats 0 and 2, for the agreed end, `ending`), call ``opened(address, fingerprint)``,
    wait for the peer under test to join and run every scenario; the report."""
    ruleset.check_players(players)
    check = HostingCheck(ruleset, plugins, bind=bind, port=port, timeout=timeout, wait=wait,
                         name=name, log=log, opened=opened, open_deck=open_deck, halt=halt,
                         players=players)
    report = await check.run()
    await asyncio.sleep(0)
    return report
