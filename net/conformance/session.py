"""What the checker does once it holds a seat, whichever side hosts: the seed agreement,
the ``Start`` barrier, the whole game with its state hashes, the end report and the hostile
probes at the checker's turn.  `hosted` (the checker joins) and `hosting` (the checker
hosts) each add the seating of their side; both share these scenarios (`SHARED`):

* ``seeding`` (§3.2, §4.4): commit-reveal: every seat's `SeedCommit` of the round, its
  `SeedReveal` once it holds every commitment (the checker's own reveal held back), each
  share matching its commitment;
* ``seed-repeat`` (§3.2 step 2, §5.8 *Repeats*): the checker withholds its reveal; the peer,
  whose agreement then stands still, sends its `SeedCommit` and `SeedReveal` again,
  identical, after 3 heartbeats;
* ``start`` (§3.2 step 5, §4.2, §4.4): the peer's `Start` carries the header of the seed
  the shares give (the seeding vector's derivation) and the setup hash the rules give; the
  peer sends no action before it has the checker's `Start`;
* ``start-repeat`` and ``step-repeat`` (`stalls`): the `Start` barrier's and an open step's
  repeats after a stall;
* ``refuse-*`` (§2, §2.3, §3.3, §5.3, §5.4, §9): hostile probes, each sent once while the
  peer under test waits for the checker (at its first turn or step; the action probes at
  its first one-seat turn, the step probes at its first simultaneous step), each with the
  documented code, ``ref_seq`` and ``ref_index``; the peer must still answer the next
  envelope (it plays on), and the game that follows shows that none of them changed its
  table.  A probe the game gives no moment for does not apply (`MOMENTS`);
* ``play`` (§3.3, §4.2, §4.3, §4.5): the game to its end: every action of the peer's is its
  active seat's, at the checker's next index, chained to its head and legal; at a
  simultaneous step its commitments and reveals (one commitment per seat, no reveal
  before every commitment is in, each reveal matching its commitment and legal at the
  step's start); the checker's own actions (chosen from its legal ones by a generator
  seeded by the table) are taken (no Error), and every state hash the peer reports agrees
  with the checker's;
* ``end`` (§3.3 "The end", §5.8): the peer's end report, after which the checker holds its
  hash of every entry of the game.

In the middle of the game the checker comes back as a returning peer (``return``,
``catch-up``) and later departs, is taken over and reclaims its seat (`departures`).

The checker takes one seat of two.  It plays open-deck tables (§10.12); at a sealed table
(§10) `sealedplay` plays the game instead of `_play`.  It never sends a reveal that breaks
its commitment: the peer would halt the table (§3.3) and the rest of the game could not be
checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from hedgerow.core.actions import Action
from hedgerow.core.canon import digest
from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import commitment
from hedgerow.core.table import Applied, Table
from hedgerow.net import rulesmatch
from hedgerow.net.keys import generate
from hedgerow.net.logfile import LogReadResult, read_log
from hedgerow.net.logverify import verify
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    CatchUpReply,
    CatchUpRequest,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    LoggedEntry,
    LogHeader,
    SeatAssignment,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
    action_commitment,
)
from hedgerow.net.seedround import SeedRound, SeedRoundError
from hedgerow.net.startup import setup_hash

from .departures import MOMENTS as DEPARTURE_MOMENTS
from .departures import SCENARIOS as DEPARTURE_SCENARIOS
from .departures import Departures
from .driver import Driver, Incoming, body_is, describe, describe_error
from .ending import ENDING, AgreedEnd
from .ending import MOMENTS as ENDING_MOMENTS
from .report import Deviation, NotApplicable, Report, Result, Unsupported, Verdict
from .sealed import SEALED, SEALED_PROBES, SEALED_START
from .stalls import MOMENTS as STALL_MOMENTS
from .stalls import SCENARIOS as STALL_SCENARIOS
from .stalls import STALL_WAIT, Stalls

if TYPE_CHECKING:
    from .sealedplay import SealedGame

#: How long the checker holds its own `Start` back, to see that the peer waits for it.
BARRIER_WAIT = 1.0
#: The checker returns (§5.7) at its first turn or step once the log holds this many
#: entries, so that catch-up has a log to send.
RETURN_AT = 8
#: The scenarios both sides run once seated: name -> (section, what it checks).
SHARED: dict[str, tuple[str, str]] = {
    "seeding": ("3.2", "commitments, then reveals matching them"),
    "seed-repeat": ("3.2", "a stalled seed: SeedCommit, SeedReveal again"),
    "start": ("3.2", "Start: seed, setup hash, the barrier"),
    "start-repeat": STALL_SCENARIOS["start-repeat"],
    **SEALED_START,
    "refuse-illegal": ("3.3", "an illegal action: ILLEGAL, the rules' code"),
    "refuse-broken-chain": ("3.3", "an action with a wrong prev: BROKEN_CHAIN"),
    "refuse-wrong-seat": ("5.3", "an action for the peer's own seat: WRONG_SEAT"),
    "refuse-stranger": ("5.3", "a Heartbeat from a key with no seat: STRANGER"),
    "refuse-forged-sender": ("1", "a sender not the link's key: STRANGER"),
    "refuse-wrong-table": ("2", "an envelope with another table_id: WRONG_TABLE"),
    "refuse-malformed": ("2", "not an envelope: MALFORMED, no ref_seq"),
    "refuse-version": ("9", "protocol_version 3: PROTOCOL_MISMATCH"),
    "refuse-late-seed": ("5.4", "a SeedCommit once play started: WRONG_PHASE"),
    "silent-on-error": ("2.3", "an Error is never answered"),
    "refuse-out-of-turn": ("3.3", "an action out of turn: OUT_OF_TURN"),
    "refuse-step-action": ("3.3", "an ActionMsg at a step: OUT_OF_TURN"),
    "refuse-early-reveal": ("3.3", "a reveal before its commitment: BAD_REVEAL"),
    "refuse-second-commit": ("3.3", "a second, different commitment: BAD_REVEAL"),
    "step-repeat": STALL_SCENARIOS["step-repeat"],
    **SEALED_PROBES,
    "return": ("5.7", "the checker's Hello, Start again: taken"),
    "catch-up": ("5.6", "CatchUpReply: the whole log, none past it"),
    **DEPARTURE_SCENARIOS,
    **{k: v for k, v in ENDING.items() if k != "end-exit"},
    "play": ("3.3", "the game: turns, chain, legality, hashes"),
    "end": ("3.3", "the end report: the peer's hash of every entry"),
    "end-exit": ENDING["end-exit"],
    "log-file": ("6", "--log: the log file reads, agrees, verifies"),
}

_NO_TURN = "the checker's seat had no one-seat turn"
_NO_STEP = "the checker's seat had no simultaneous step"
#: The probes that need a moment a game may not have, and what the game lacked then (a
#: report line's reason: at most 46 characters, so that the line fits 80 columns).
MOMENTS: dict[str, str] = {
    "refuse-illegal": _NO_TURN, "refuse-broken-chain": _NO_TURN,
    "refuse-out-of-turn": "no turn of the peer's right after the checker's",
    "refuse-step-action": _NO_STEP, "refuse-early-reveal": _NO_STEP,
    "refuse-second-commit": _NO_STEP,
    "return": f"the game ended before {RETURN_AT} entries",
    "catch-up": f"the game ended before {RETURN_AT} entries",
    **DEPARTURE_MOMENTS,
    **ENDING_MOMENTS,
    **STALL_MOMENTS,
    # (FLOWERS and Mandala have turns, but their moves name a stack or a colour, never a
    # card; Flourish and Goofspiel give the checker no one-seat turn.)
    "halt-unheld-card": "no move of the checker's names a sealed card",
}


#: How long a peer that said Hello to the checker's table is kept waiting, to see it
#: sends nothing before it is answered.
QUIET_WAIT = 1.5

@dataclass(slots=True)
class Seats:
    """The seating as the checker holds it."""

    seat: int
    players: int
    fingerprint: str
    round: int
    holders: dict[int, bytes]  # seat -> key
    #: The keys of the checker's other seats (at a table of three, `ending`): never sent
    #: to or waited for as another peer's.
    helpers: tuple[bytes, ...] = ()

    def others(self, me: bytes) -> list[bytes]:
        """The other keys, each once, in seat order (the checker's own helpers aside)."""
        keys: list[bytes] = []
        for _, key in sorted(self.holders.items()):
            if key != me and key not in keys and key not in self.helpers:
                keys.append(key)
        return keys

    def seats_of(self, key: bytes) -> list[int]:
        """The seats ``key`` holds."""
        return sorted(s for s, k in self.holders.items() if k == key)



class Session:
    """One run of the checker against one peer under test (``peer``, its key, once known;
    ``peer_endpoint``, its ROUTER).  A side's subclass names its `scenarios` and seats the
    checker in `_seat`; the rest of the game is played here."""

    scenarios: ClassVar[dict[str, tuple[str, str]]] = SHARED

    def __init__(self, target: str, plugins: PluginHost, *, timeout: float = 10.0,
                 name: str = "check-peer", bind: str = "127.0.0.1",
                 log: Path | None = None) -> None:
        self.plugins = plugins
        self.timeout = timeout
        self.name = name
        self.bind = bind
        self.log_path = log  # the log file the peer under test writes, or its folder
        self.port = 0  # where the checker's ROUTER listens (0: a free port)
        self.report = Report(target)
        self.driver = Driver(timeout)
        self.peer = b""
        self.peer_endpoint = ""
        self.peer_is_host = False  # the peer under test hosts the table
        self.start_msg: Start | None = None  # the checker's Start
        self.seats: Seats | None = None
        self.table: Table | None = None
        self.table_rules: Ruleset | None = None
        self.rng: Rng | None = None
        self.seed_round: SeedRound | None = None
        #: Every SeedCommit and SeedReveal each key sent, as first received.
        self.seed_sent: dict[bytes, list[SeedCommit | SeedReveal]] = {}
        self.ours: list[bytes] = []  # the checker's state hash after each entry
        self.reported_to = 0  # the first entry whose hash the checker has not reported
        self.theirs: dict[bytes, dict[int, bytes]] = {}  # reports by key, by entry
        self.probed = False  # the probes at the checker's first turn or step ran
        self.turn_probed = False  # the action probes at its first one-seat turn ran
        self.step_probed = False  # the probes at its first simultaneous step ran
        self.returned = False  # the checker came back as a returning peer
        self.out_of_turn = False  # the out-of-turn probe ran
        self.silent = False  # the checker plays a departed seat: it sends nothing (§5.9)
        self.departures = Departures(self)
        self.stalls = Stalls(self)
        self.peer_starts: dict[bytes, Start] = {}  # each other key's first Start
        #: At a sealed table (§10): the sealed game and its scenarios (`sealedplay`).
        self.deck: SealedGame | None = None
        #: At a table of three (`ending`): the checker's second seat, its own driver, and
        #: the agreed end it drives.
        self.helpers: dict[int, Driver] = {}
        self.ending: AgreedEnd | None = None
        self.stopped = ""  # why the run ended early on purpose (a hostile fault's halt)
        self._checks = 0

    # -- running -----------------------------------------------------------------------

    async def _seat(self) -> bool:
        """The side's scenarios up to a seat at a full table; True when seated."""
        raise NotImplementedError

    async def _opened(self) -> None:
        """The driver's ROUTER is bound (before anything else runs)."""

    async def _midgame(self) -> None:
        """A side's scenarios in the middle of the game, while the peer waits for the
        checker (after ``return``)."""

    async def _after_end(self) -> None:
        """A side's scenarios once ``end`` passed."""

    async def _halt_shown(self, section: str, naming: Callable[[str], str]) -> str:
        """Once the peer halted on a hostile fault (``--halt``): what else shows the halt
        on a side's wire (a host's spectator feed, §3.4), for the scenario's summary
        (``naming(words)`` says whom the words name); a deviation of ``section`` when it
        does not."""
        return ""

    async def _close(self) -> None:
        """Free what a side's scenarios opened."""

    async def run(self) -> Report:
        """Every scenario, in order; the report."""
        await self.driver.start(self.bind, self.port)
        try:
            await self._opened()
            ok = await self._seat()
            if ok:
                self._beat()
            ok = ok and await self._scenario("seeding", self._seeding)
            if ok:
                await self._scenario("seed-repeat", self._seed_repeat)
                ok = await self._scenario("start", self._start)
                if ok:
                    try:
                        await self._scenario("start-repeat", self.stalls.start_repeat)
                    finally:
                        self._send_start()
            ok = ok and await self._scenario("play", self._play)
            ok = ok and not self.stopped and await self._scenario("end", self._end)
            if ok and self.deck is not None:
                ok = await self.deck.after_end() and not self.stopped
            if ok and self.ending is not None:
                await self.ending.after_end()
            if ok:
                await self._after_end()
            if ok and self.log_path is not None:
                await self._scenario("log-file", self._log_file)
        finally:
            await self._close()
            for helper in self.helpers.values():
                await helper.close()
            await self.driver.close()
        self._complete(any(r.name == "play" and r.verdict is Verdict.PASS
                           for r in self.report.results))
        if self.seats is not None:
            self.report.fingerprint = self.seats.fingerprint
        return self.report

    def _complete(self, played: bool) -> None:
        """The scenarios that did not run, each as skipped or, once the whole game was
        ``played``, not applying; the report in the scenarios' order."""
        ran = {r.name for r in self.report.results}
        for name, (section, _) in self.scenarios.items():
            if name in ran or not self._asked(name):
                pass  # ran, or not asked for
            elif self.stopped:
                self.report.results.append(Result(name, section, Verdict.NA, self.stopped))
            elif played and name in MOMENTS and not (
                    name in ENDING and self.ending is not None and self.ending.done):
                self.report.results.append(Result(
                    name, section, Verdict.NA, MOMENTS[name]))
            else:
                self.report.results.append(Result(
                    name, section, Verdict.SKIP, self._skip_reason(name)))
        order = list(self.scenarios)
        self.report.results.sort(key=lambda r: order.index(r.name))

    def _asked(self, name: str) -> bool:
        """True for a scenario this run reports: the log file's with ``--log``, the sealed
        deck's at a sealed table (each hostile fault's when asked for)."""
        if name == "log-file":
            return self.log_path is not None
        if name in SEALED:
            return self.deck is not None and self.deck.asked(name)
        if name in ENDING:
            return self.ending is not None
        if name in DEPARTURE_SCENARIOS:  # (a table of three drives the agreed end instead)
            return self.ending is None
        return True

    def _beat(self) -> None:
        """Heartbeats from the seat on (§5.8), with the checker's next index."""
        others = self._seats().others(self.driver.key)

        def next_index() -> int:
            return self.table.index if self.table is not None else 0

        self.driver.beat(lambda: [] if self.silent else others, next_index,
                         self.deck.held if self.deck is not None else None)
        for seat, helper in self.helpers.items():
            helper.beat(self._helper_keys(seat, others), next_index)

    def _helper_keys(self, seat: int, others: list[bytes]) -> Callable[[], list[bytes]]:
        """Whom the helper seat ``seat`` beats to: ``others``, until it has left."""
        return lambda: [] if self._helper_gone(seat) else others

    def _helper_gone(self, seat: int) -> bool:
        """True once the checker's helper seat ``seat`` has left (`ending`)."""
        return self.ending is not None and seat in self.ending.gone

    def _own_seats(self) -> set[int]:
        """Every seat the checker plays: its own and its helpers'."""
        return {self._seats().seat, *self.helpers}

    def _driver_of(self, seat: int) -> Driver:
        """The driver that speaks for the checker's seat ``seat``."""
        return self.helpers.get(seat, self.driver)

    def _skip_reason(self, name: str) -> str:
        failed = [r.name for r in self.report.results
                  if r.verdict not in (Verdict.PASS, Verdict.NA)]
        if name.startswith("refuse-") or name == "silent-on-error":
            if failed:
                return f"not reached: {failed[0]} did not pass"
            return "not provoked: the game gave the checker no such moment"
        return f"not reached: {failed[0]} did not pass" if failed else "not reached"

    async def _scenario(self, name: str, body: Callable[[], Awaitable[str]]) -> bool:
        """Run one scenario and keep its result; True when it passed.  A scenario run
        inside another (a probe during ``play``) counts its checks apart."""
        outer, self._checks = self._checks, 0
        try:
            return await self._run_scenario(name, body)
        finally:
            self._checks = outer

    async def _run_scenario(self, name: str, body: Callable[[], Awaitable[str]]) -> bool:
        section, what = self.scenarios[name]
        try:
            summary = await body()
        except Deviation as dev:
            self.report.results.append(Result(name, dev.section, Verdict.FAIL, what,
                                              dev.expected, dev.got, self._checks))
            return False
        except Unsupported as why:
            self.report.results.append(Result(name, section, Verdict.SKIP, str(why)))
            return False
        except NotApplicable as why:
            self._scenario_na(name, str(why))
            return False
        self.report.results.append(Result(name, section, Verdict.PASS, summary or what,
                                          checks=self._checks))
        return True

    def _scenario_na(self, name: str, why: str) -> None:
        """Keep ``name`` as not applying, for ``why``."""
        self.report.results.append(Result(name, self.scenarios[name][0], Verdict.NA, why))

    def _ensure(self, ok: bool, section: str, expected: str, got: object) -> None:
        if not ok:
            raise Deviation(section, expected, str(got))
        self._checks += 1

    # -- a Hello at the checker's own table (check-peer join, check-peer watch) ---------

    async def _first_hello(self, section: str, waited: str, wait: float
                           ) -> tuple[Incoming, object]:
        """The first message to the checker's table, within ``wait`` seconds, and its body
        (``waited`` names the `Hello` it should be); it must decode, and its sender becomes
        the peer under test."""
        d = self.driver
        item = await d.next(lambda it: True, section, f"{waited} (the checker's table "
                            f"waits {wait:g} s for one)", timeout=wait)
        if item.env is None:
            raise Deviation("2", "an envelope that decodes", describe(item))
        self.peer = item.rx.sender
        return item, item.env.body

    def _hello_fits(self, item: Incoming, hello: Hello, section: str, route: str,
                    table_id: str, ruleset: Ruleset, fingerprint: str) -> None:
        """What every `Hello` to the checker's table must be: over the peer's DEALER to the
        checker's ROUTER (``route`` says which link), with an empty table_id or the table's
        (``table_id`` says so), and for the table's rules (else `Unsupported`)."""
        self._ensure(item.rx.route is not None, section, route, "it came over a link the "
                     "checker dialed")
        assert item.env is not None
        self._ensure(item.env.table_id in (b"", self.driver.table_id), section, table_id,
                     item.env.table_id.hex())
        self._ensure(hello.fingerprint in (rulesmatch.ANY_RULES, fingerprint), section,
                     f"fingerprint '*' or the table's {fingerprint!r}",
                     repr(hello.fingerprint))
        mismatch = rulesmatch.mismatch(ruleset, hello.fingerprint, hello.plugins,
                                       table=fingerprint)
        if mismatch is not None:
            raise Unsupported(f"the peer does not run this table's rules: {mismatch}")

    async def _quiet_until_placed(self, section: str, who: str, placed: str,
                                  beat_section: str) -> None:
        """Nothing from the peer under test for `QUIET_WAIT` seconds after its `Hello`, not
        even a heartbeat, before the checker answers it (``who`` waits for ``placed``)."""
        d = self.driver
        with contextlib.suppress(Deviation):
            more = await d.next(lambda it: it.rx.sender == self.peer, section, "",
                                timeout=QUIET_WAIT)
            raise Deviation(section, f"nothing from {who} between its Hello and its "
                            f"{placed}", describe(more))
        self._ensure(self.peer not in d.beats, beat_section, f"no Heartbeat before {who}'s "
                     f"{placed}", "a Heartbeat")

    # -- seeding -----------------------------------------------------------------------

    async def _seeding(self) -> str:
        d, seats = self.driver, self._seats()
        others = seats.others(d.key)
        seed_round = SeedRound(seats.players, seats.seat)
        d.broadcast(others, SeedCommit(seats.seat, seed_round.own_commitment, seats.round))
        helper_shares: dict[int, bytes] = {}
        for seat, helper in self.helpers.items():  # the checker's other seats commit too
            theirs = SeedRound(seats.players, seat)
            helper.broadcast(others, SeedCommit(seat, theirs.own_commitment, seats.round))
            seed_round.commit(seat, theirs.own_commitment)
            helper_shares[seat] = theirs.share
        for key in others:
            for _ in seats.seats_of(key):
                body = await self._seed_message(SeedCommit, key, "a SeedCommit")
                assert isinstance(body, SeedCommit)
                self._ensure(body.seat in seats.seats_of(key), "5.3", "a SeedCommit for a "
                             f"seat the sender holds ({seats.seats_of(key)})", body.seat)
                try:
                    seed_round.commit(body.seat, body.commitment)
                except SeedRoundError as exc:
                    raise Deviation("3.2", "one commitment per seat", exc.message) from None
        self._ensure(seed_round.all_committed, "3.2", "a commitment from every seat",
                     sorted(seed_round.commits))
        # The peer reveals once it holds every commitment (§3.2 step 2): the checker's own
        # reveal is held back until `_seed_repeat` has seen the peer repeat its messages
        # (the checker's other seats reveal at once).
        seed_round.reveal(seats.seat, seed_round.share)
        for seat, share in helper_shares.items():
            self.helpers[seat].broadcast(others, SeedReveal(seat, share, seats.round))
            seed_round.reveal(seat, share)
        for key in others:
            for _ in seats.seats_of(key):
                body = await self._seed_message(SeedReveal, key, "a SeedReveal")
                assert isinstance(body, SeedReveal)
                want = seed_round.commits.get(body.seat)
                got = commitment(body.share)
                self._ensure(want == got, "4.4", f"seat {body.seat}'s share to match its "
                             f"commitment {want.hex() if want else None}",
                             f"digest(\"hedgerow-commit-v1\", share) = {got.hex()}")
                seed_round.reveal(body.seat, body.share)
        self.seed_round = seed_round
        seed = seed_round.seed()
        assert seed is not None
        assert self.table_rules is not None
        if self.deck is not None:
            self.table = self.deck.new_table(self.table_rules, seed)
        else:
            self.table = Table(self.table_rules, seats.players, seed,
                               fingerprint=seats.fingerprint)
        self.rng = Rng(digest(b"hedgerow-check-peer-v1", seed), "moves")
        return f"shares match commitments; seed {seed.hex()[:12]}"

    async def _seed_message(self, kind: type, key: bytes, what: str) -> SeedCommit | SeedReveal:
        item = await self.driver.next(body_is(kind, key), "3.2",
                                      f"{what} from {self._who(key)}")
        assert item.env is not None
        body = item.env.body
        assert isinstance(body, SeedCommit | SeedReveal)
        self._ensure(body.round == self._seats().round, "3.2", f"{what} of round "
                     f"{self._seats().round}", f"round {body.round}")
        self.seed_sent.setdefault(item.rx.sender, []).append(body)
        return body

    async def _seed_repeat(self) -> str:
        """Hold the checker's reveal back until the peer, whose agreement stands still
        (every commitment and its own reveal out, the checker's share missing), sends its
        `SeedCommit` and `SeedReveal` again, identical (§3.2 step 2); then reveal."""
        d, seats, seed_round = self.driver, self._seats(), self.seed_round
        assert seed_round is not None
        others = seats.others(d.key)
        wait = max(self.timeout, STALL_WAIT)
        try:
            for key in others:
                for kind in (SeedCommit, SeedReveal):
                    sent = [b for b in self.seed_sent.get(key, []) if isinstance(b, kind)]
                    for _ in sent:
                        item = await d.next(body_is(kind, key), "3.2", f"{self._who(key)}'s "
                                            f"{kind.__name__} again, 3 heartbeats after the "
                                            "seed agreement stood still (the checker "
                                            "withheld its SeedReveal)", timeout=wait)
                        assert item.env is not None
                        self._ensure(item.env.body in sent, "3.2", "an identical repeat of "
                                     f"{self._who(key)}'s {kind.__name__}",
                                     describe(item))
        finally:
            d.broadcast(others, SeedReveal(seats.seat, seed_round.share, seats.round))
        return "SeedCommit, SeedReveal again, identical"

    # -- start -------------------------------------------------------------------------

    async def _start(self) -> str:
        d, seats, table = self.driver, self._seats(), self._table()
        others = seats.others(d.key)
        mine = self.start_msg = Start(table.header, setup_hash(table), seats.round)
        for key in others:
            item = await d.next(body_is(Start, key), "3.2", f"a Start from {self._who(key)}")
            assert item.env is not None and isinstance(item.env.body, Start)
            start: Start = item.env.body
            self._ensure(start.header.seed == table.header.seed, "4.4",
                         f"the header's seed table_seed(shares in seat order) = "
                         f"{table.header.seed.hex()}", start.header.seed.hex())
            self._ensure(start.header == table.header, "3.2", f"the header {table.header}",
                         start.header)
            self._ensure(start.setup_hash == mine.setup_hash, "4.2", "the setup hash "
                         f"{mine.setup_hash.hex()} (the rules' initial state)",
                         start.setup_hash.hex())
            self._ensure(start.round == seats.round, "3.2", f"round {seats.round}", start.round)
            self.peer_starts[key] = start
        # The barrier: nobody acts before it holds every seat's Start, ours included.
        early = d.take(lambda it: it.env is not None
                       and isinstance(it.env.body, ActionMsg | ActionCommit))
        if not early:
            with contextlib.suppress(Deviation):
                early = [await d.next(lambda it: it.env is not None and isinstance(
                    it.env.body, ActionMsg | ActionCommit), "3.2", "", timeout=BARRIER_WAIT)]
        self._ensure(not early, "3.2", "no action before the checker's Start arrived "
                     "(the Start barrier)", describe(early[0]) if early else "")
        return "Start agrees; the peer waited at the barrier"

    def _send_start(self) -> None:
        """The checker's own `Start`, held back until ``start-repeat`` saw the repeats."""
        assert self.start_msg is not None
        others = self._seats().others(self.driver.key)
        for d in (self.driver, *self.helpers.values()):
            d.broadcast(others, self.start_msg)
        self._sealed(self._table().opening)

    # -- play --------------------------------------------------------------------------

    async def _play(self) -> str:
        if self.deck is not None:
            return await self.deck.play()
        table, seats = self._table(), self._seats()
        moves = {"theirs": 0, "steps": 0}
        while table.active_seats():
            active = table.active_seats()
            if seats.seat in active and not self.probed:
                self.probed = True
                await self._probes()
            if seats.seat in active and not self.returned and table.index >= RETURN_AT:
                self.returned = True
                if await self._scenario("return", self._return):
                    await self._scenario("catch-up", self._catch_up)
                await self._midgame()
            if self.ending is not None and self.ending.due(active):
                await self.ending.run()
                if self.ending.agreed is not None:
                    break
                continue
            if self.ending is None and seats.seat in active and self.departures.due():
                await self.departures.run()
                moves["theirs"] += self.departures.turns
                moves["steps"] += self.departures.steps
                continue
            if len(active) > 1:
                await self._step(active)
                moves["steps"] += 1
            elif active[0] in self.helpers:
                await self._our_move(active[0])
            elif active[0] == seats.seat:
                if not self.turn_probed:
                    self.turn_probed = True
                    await self._turn_probes()
                await self._our_move()
                if (not self.out_of_turn and table.active_seats()
                        and seats.seat not in table.active_seats()):
                    self.out_of_turn = True
                    await self._scenario("refuse-out-of-turn", self._probe_out_of_turn)
            else:
                await self._their_move(active[0])
                moves["theirs"] += 1
        if self.ending is not None and self.ending.agreed is not None:
            return f"{table.index} entries ({moves['theirs']} the peer's), then the agreed end"
        if moves["steps"]:
            return (f"{table.index} entries ({moves['theirs']} peer turns, {moves['steps']} "
                    "steps), all agree")
        return f"{table.index} entries ({moves['theirs']} the peer's), legal, hashes agree"

    async def _our_move(self, seat: int | None = None) -> None:
        """A move of the checker's seat (or of its helper's ``seat``: its actions carry no
        hashes; the checker's own report them)."""
        table, seats, rng = self._table(), self._seats(), self.rng
        assert rng is not None
        seat = seats.seat if seat is None else seat
        action = rng.choice(list(table.legal_actions(seat)))
        index = table.index
        hashes = self._unreported(index) if seat == seats.seat else None
        result = table.submit(seat, action)
        assert not isinstance(result, Refusal), result
        entry = result[0].entry
        self._driver_of(seat).broadcast(seats.others(self.driver.key),
                                        ActionMsg(entry.index, entry.prev, seat, action,
                                                  hashes=hashes))
        self._sealed(result)

    async def _their_move(self, seat: int) -> None:
        table, seats = self._table(), self._seats()
        key = seats.holders[seat]
        index = table.index
        item = await self._next_play(index, f"seat {seat}'s ActionMsg for entry #{index}")
        assert item.env is not None
        body = item.env.body
        self._ensure(isinstance(body, ActionMsg), "3.3", f"an ActionMsg at the one-seat turn "
                     f"#{index}", describe(item))
        assert isinstance(body, ActionMsg)
        self._ensure(body.seat == seat and item.rx.sender == key, "3.3",
                     f"an action of the active seat {seat} from its key",
                     f"seat {body.seat} from {self._who(item.rx.sender)}")
        self._ensure(body.index == index, "3.3", f"index {index} (the next index)", body.index)
        self._ensure(body.prev == table.head, "4.3", f"prev {table.head.hex()} (the digest of "
                     f"entry #{index - 1}, or the genesis)", body.prev.hex())
        if body.hashes is not None:
            self._reports(key, body.hashes)
        result = table.submit(seat, body.action, index=body.index, prev=body.prev)
        if isinstance(result, Refusal):
            raise Deviation("3.3", f"a legal action at #{index}",
                            f"{body.action} which the rules refuse: {result.code}: "
                            f"{result.message}")
        self._checks += 1
        self._sealed(result)

    async def _refused(self, key: bytes, error: ErrorMsg) -> None:
        """The peer refused one of the checker's honest envelopes: a deviation.  For a
        `DESYNC` the peer's own hash of that entry, which it sends with it (§3.3 *Speaking
        up*), says whose hash is wrong: a hash other than the rules' is the deviation."""
        if error.code == ErrorCode.DESYNC and error.ref_index is not None:
            index = error.ref_index
            with contextlib.suppress(Deviation):
                while index not in self.theirs.get(key, {}):
                    item = await self.driver.next(body_is(StateHash, key), "3.3", "")
                    assert item.env is not None and isinstance(item.env.body, StateHash)
                    self._reports(key, item.env.body)  # a hash not the rules' raises
            raise Deviation("5.5", f"no DESYNC: the checker's hash of entry #{index} is the "
                            "rules' (and the peer's own report of it agrees)",
                            describe_error(error))
        raise Deviation("3.3", "no Error: the checker's envelopes were in order (its actions "
                        "legal, its hashes the rules')", describe_error(error))

    # -- a returning peer and catch-up ------------------------------------------------

    async def _return(self) -> str:
        """The checker comes back as a peer whose process was lost does (§5.7 steps 2 and
        3): `Hello` with its seat and address, its `Start` again.  Neither is refused; the
        host answers the `Hello` with the current `SeatAssignment` (the same seats)."""
        d, seats = self.driver, self._seats()
        hello = Hello(seats.fingerprint, rulesmatch.installed(self.plugins), self.name,
                      seats.seat, False, d.endpoint)
        assert self.start_msg is not None
        for body in (hello, self.start_msg):
            _, data = d.envelope(body)
            errors = await d.answers(self.peer, data, "5.7")
            self._ensure(not errors, "5.7", f"no Error for the checker's returning "
                         f"{type(body).__name__}", "; ".join(describe_error(e)
                                                             for e in errors))
        if not self.peer_is_host:
            return "Hello, Start taken"
        item = await d.next(body_is(SeatAssignment, self.peer), "5.7", "the host's answer to "
                            "a returning Hello: the current SeatAssignment")
        assert item.env is not None and isinstance(item.env.body, SeatAssignment)
        got = item.env.body
        holders = {p.seat: p.public_key for p in got.peers}
        self._ensure(got.seat == seats.seat and holders == seats.holders, "5.7",
                     f"the same seats (the checker at seat {seats.seat})",
                     f"seat {got.seat}, {sorted(holders)}")
        return "Hello, Start taken; the host sent the same seats"

    async def _catch_up(self) -> str:
        """`CatchUpRequest` from 0: replies of at most 256 entries covering the peer's
        whole log, each entry the checker's own, its `state_hash` the rules'; then one from
        past the end: a reply without entries (§5.6)."""
        table = self._table()
        length = table.index
        at, replies = 0, 0
        while at < length:
            reply = await self._catch_up_reply(at)
            replies += 1
            self._ensure(reply.next_index == length, "5.6", f"next_index {length} (the log's "
                         "length: the peer waits for the checker)", reply.next_index)
            self._ensure(0 < len(reply.entries) <= 256, "5.6", f"1 to 256 entries from #{at}",
                         len(reply.entries))
            for item in reply.entries:
                i = item.entry.index
                self._ensure(item.entry == table.entries[i], "5.6", f"entry #{i} as the "
                             f"checker logged it: {table.entries[i]}", item.entry)
                self._ensure(item.state_hash == self.ours[i], "5.6", f"the state hash after "
                             f"entry #{i}: {self.ours[i].hex()} (the rules')",
                             item.state_hash.hex())
            at += len(reply.entries)
        past = await self._catch_up_reply(length + 5)
        self._ensure(not past.entries and past.next_index == length, "5.6", "a reply "
                     f"without entries and next_index {length} for from_index {length + 5}",
                     f"{len(past.entries)} entries, next_index {past.next_index}")
        return f"{length} entries in {replies} repl{'y' if replies == 1 else 'ies'}, all agree"

    async def _catch_up_reply(self, at: int) -> CatchUpReply:
        d, table = self.driver, self._table()
        d.send(self.peer, CatchUpRequest(at))
        item = await d.next(lambda it: it.rx.sender == self.peer and it.env is not None
                            and isinstance(it.env.body, CatchUpReply | ErrorMsg), "5.6",
                            f"a CatchUpReply for from_index {at}")
        assert item.env is not None
        reply = item.env.body
        if isinstance(reply, ErrorMsg):
            raise Deviation("5.6", f"a CatchUpReply for from_index {at}", describe(item))
        assert isinstance(reply, CatchUpReply)
        self._ensure(reply.header == table.header, "5.6", f"the table's header "
                     f"{table.header}", reply.header)
        self._ensure(reply.from_index == min(at, table.index), "5.6", "from_index "
                     f"min({at}, the log's length)", reply.from_index)
        return reply

    # -- simultaneous steps --------------------------------------------------------------

    async def _step(self, active: tuple[int, ...]) -> None:
        """A simultaneous step at the next index (§3.3 *Several active seats*, §4.5): the
        checker commits for its seat when it is active, takes the peer's commitments
        (checked), reveals once every commitment is in, takes the peer's reveals (each
        against its commitment and the rules at the step's start) and applies the step."""
        d, table, seats, rng = self.driver, self._table(), self._seats(), self.rng
        assert rng is not None
        index = table.index
        others = seats.others(d.key)
        commits: dict[int, bytes] = {}
        own: list[ActionReveal] = []
        if seats.seat in active and self.step_probed and not self.stalls.step_done:
            self.stalls.step_done = True
            await self._scenario("step-repeat", lambda: self.stalls.step_repeat(index, active))
        first = seats.seat in active and not self.step_probed
        if first:
            self.step_probed = True
            await self._step_probes(before_commit=True)
        for seat in sorted(self._own_seats().intersection(active)):
            action = rng.choice(list(table.legal_actions(seat)))
            salt = secrets.token_bytes(32)
            commits[seat] = action_commitment(index, seat, action, salt)
            hashes = self._unreported(index) if seat == seats.seat else None
            self._driver_of(seat).broadcast(others, ActionCommit(index, seat, commits[seat],
                                                                 hashes))
            own.append(ActionReveal(index, seat, action, salt))
        if first:
            await self._step_probes(before_commit=False)
        theirs = [s for s in active if s not in self._own_seats()]
        while any(s not in commits for s in theirs):
            body = await self._step_message(index, ActionCommit, "an ActionCommit from "
                                            f"seats {[s for s in theirs if s not in commits]}",
                                            commits)
            assert isinstance(body, ActionCommit)
            old = commits.setdefault(body.seat, body.commitment)
            self._ensure(old == body.commitment, "3.3", f"one commitment for seat {body.seat} "
                         f"at #{index} ({old.hex()})", body.commitment.hex())
            if body.hashes is not None:
                self._reports(seats.holders[body.seat], body.hashes)
        for reveal in own:
            self._driver_of(reveal.seat).broadcast(others, reveal)
        choices: dict[int, Action] = {r.seat: r.action for r in own}
        while any(s not in choices for s in theirs):
            body = await self._step_message(index, ActionReveal, "an ActionReveal from "
                                            f"seats {[s for s in theirs if s not in choices]}",
                                            commits)
            assert isinstance(body, ActionReveal)
            got = action_commitment(index, body.seat, body.action, body.salt)
            self._ensure(got == commits[body.seat], "4.5", f"seat {body.seat}'s reveal at "
                         f"#{index} to match its commitment {commits[body.seat].hex()}",
                         f"action_commitment({index}, {body.seat}, {body.action}, salt) = "
                         f"{got.hex()}")
            known = choices.setdefault(body.seat, body.action)
            self._ensure(known == body.action, "3.3", f"one reveal for seat {body.seat} at "
                         f"#{index} ({known})", body.action)
            refusal = table.check(body.seat, body.action)
            if isinstance(refusal, Refusal):
                raise Deviation("3.3", f"seat {body.seat}'s choice at #{index} legal at the "
                                "step's start", f"{body.action}, which the rules refuse: "
                                f"{refusal.code}: {refusal.message}")
        result = table.submit_step(choices, index=index)
        assert not isinstance(result, Refusal), result
        self._checks += 1
        self._sealed(result)

    async def _step_message(self, index: int, kind: type, what: str,
                            commits: dict[int, bytes]) -> ActionCommit | ActionReveal:
        """The peer's next commitment or reveal (``kind``) for the step at ``index``: its
        reports kept, a repeat of an earlier step ignored, a repeat of a commitment in
        ``commits`` checked, anything else a deviation."""
        seats = self._seats()
        while True:
            item = await self._next_play(index, f"{what} for the step at #{index}")
            assert item.env is not None
            body = item.env.body
            if isinstance(body, ActionMsg):
                raise Deviation("3.3", f"no ActionMsg at the simultaneous step #{index} "
                                "(commit, then reveal)", describe(item))
            assert isinstance(body, ActionCommit | ActionReveal)
            self._ensure(body.index == index, "3.3", f"the step's index {index}", body.index)
            held = seats.seats_of(item.rx.sender)
            self._ensure(body.seat in held and body.seat in self._table().active_seats(),
                         "5.3", f"a seat of the step the sender holds ({held})", body.seat)
            if isinstance(body, kind):
                return body
            if isinstance(body, ActionCommit) and body.seat in commits:
                self._ensure(body.commitment == commits[body.seat], "3.3", "one commitment "
                             f"for seat {body.seat} at #{index} "
                             f"({commits[body.seat].hex()})", body.commitment.hex())
                continue  # an identical repeat (§3.3 *Links that come back*)
            raise Deviation("3.3", f"no ActionReveal at #{index} before every commitment is "
                            "in (the checker's own included)", describe(item))

    async def _next_play(self, index: int, expected: str) -> Incoming:
        """The next play message from the other seats for the entry at ``index``
        (`ActionMsg`, `ActionCommit`, `ActionReveal`): their state hashes are kept on the
        way, a repeat of a step that is over is ignored (§3.3 *Links that come back*), an
        Error or bytes that do not decode are a deviation."""
        d = self.driver
        others = self._seats().others(d.key)

        def play_message(item: Incoming) -> bool:
            if item.rx.sender not in others:
                return False
            if item.env is None:
                return True
            body = item.env.body
            if isinstance(body, ActionCommit | ActionReveal) and body.index < index:
                return False
            return isinstance(body, ActionMsg | ActionCommit | ActionReveal | ErrorMsg
                              | StateHash)

        while True:
            item = await d.next(play_message, "3.3", expected)
            if item.env is None:
                raise Deviation("2", "an envelope that decodes", describe(item))
            body = item.env.body
            if isinstance(body, StateHash):
                self._reports(item.rx.sender, body)
                continue
            if isinstance(body, ErrorMsg):
                await self._refused(item.rx.sender, body)
            return item

    async def _step_probes(self, *, before_commit: bool) -> None:
        """At the checker's first simultaneous step: before its commitment, an `ActionMsg`
        (`OUT_OF_TURN`, §3.3 step 4) and a reveal with no commitment (`BAD_REVEAL`); after
        it, a second, different commitment (`BAD_REVEAL`; the first stands)."""
        d, table, seats = self.driver, self._table(), self._seats()
        index, key = table.index, self.peer
        legal = self._legal_action()

        async def probe(body: ActionMsg | ActionCommit | ActionReveal, code: ErrorCode) -> str:
            seq, data = d.envelope(body)
            await d.refusal(key, data, seq, code, "3.3", ref_index=index)
            return f"refused {code.name} at #{index}"

        if before_commit:
            await self._scenario("refuse-step-action", lambda: probe(
                ActionMsg(index, table.head, seats.seat, legal), ErrorCode.OUT_OF_TURN))
            await self._scenario("refuse-early-reveal", lambda: probe(
                ActionReveal(index, seats.seat, legal, bytes(32)), ErrorCode.BAD_REVEAL))
        else:
            other = digest(b"hedgerow-check-peer-v1", b"another commitment")
            await self._scenario("refuse-second-commit", lambda: probe(
                ActionCommit(index, seats.seat, other), ErrorCode.BAD_REVEAL))

    # -- hashes ------------------------------------------------------------------------

    def _sealed(self, applied: tuple[Applied, ...]) -> None:
        """The checker's hash of each entry just applied; reports that waited are compared."""
        table = self._table()
        for item in applied:
            self.ours.append(table.hash_of(item.after))
        for key, reports in self.theirs.items():
            for index in sorted(i for i in reports if i < len(self.ours)):
                self._compare(key, index, reports[index])

    def _unreported(self, before: int) -> StateHash | None:
        """The checker's hashes not reported yet (entries before ``before``), for an
        ActionMsg (one StateHash of at most 1024; the older ones go on their own)."""
        d = self.driver
        while before - self.reported_to > 1024:
            last = self.reported_to + 1023
            d.broadcast(self._seats().others(d.key), _state_hash(self.ours, self.reported_to,
                                                                  last))
            self.reported_to = last + 1
        if before <= self.reported_to:
            return None
        report = _state_hash(self.ours, self.reported_to, before - 1)
        self.reported_to = before
        return report

    def _reports(self, key: bytes, report: StateHash) -> None:
        """Keep and compare the hashes one `StateHash` reports."""
        k = len(report.earlier) // 32
        got = {report.index - k + j: report.earlier[32 * j:32 * j + 32] for j in range(k)}
        got[report.index] = report.state_hash
        reports = self.theirs.setdefault(key, {})
        for index, value in sorted(got.items()):
            old = reports.setdefault(index, value)
            self._ensure(old == value, "3.3", f"one state hash of entry #{index} from "
                         f"{self._who(key)} ({old.hex()})", value.hex())
            if index < len(self.ours):
                self._compare(key, index, value)

    def _compare(self, key: bytes, index: int, value: bytes) -> None:
        ours = self.ours[index]
        self._ensure(value == ours, "4.2", f"{self._who(key)}'s state hash after entry "
                     f"#{index} to be {ours.hex()} (the checker's, from the rules)",
                     value.hex())

    # -- the end -----------------------------------------------------------------------

    async def _end(self) -> str:
        d, table, seats = self.driver, self._table(), self._seats()
        last = table.index - 1
        others = seats.others(d.key)
        if self.reported_to <= last:
            d.broadcast(others, _state_hash(self.ours, self.reported_to, last))
            self.reported_to = last + 1
        for key in others:
            reports = self.theirs.setdefault(key, {})

            def report_from(it: Incoming, key: bytes = key) -> bool:
                return it.rx.sender == key and (
                    it.env is None or isinstance(it.env.body, StateHash | ErrorMsg))

            while missing := [i for i in range(last + 1) if i not in reports]:
                item = await d.next(
                    report_from, "3.3", f"{self._who(key)}'s end report: a StateHash with "
                    f"its hash of every entry it has not reported (missing: {_spans(missing)})")
                if item.env is None:
                    raise Deviation("2", "an envelope that decodes", describe(item))
                if isinstance(item.env.body, ErrorMsg):
                    raise Deviation("3.3", "no Error at the end", describe(item))
                assert isinstance(item.env.body, StateHash)
                self._reports(key, item.env.body)
        errors = d.take(lambda it: it.rx.sender in others and it.env is not None
                        and isinstance(it.env.body, ErrorMsg))
        self._ensure(not errors, "5.1", "no Error for the checker's envelopes",
                     describe(errors[0]) if errors else "")
        return f"the peer's hashes of all {last + 1} entries agree"

    # -- the peer's log file ----------------------------------------------------------

    async def _log_file(self) -> str:
        """The log the peer under test wrote (§6): it reads to its end, its header is this
        table's (game, fingerprint, players, seed, table id, the peer's seat), it holds
        every entry of the game with the rules' state hash, and it replays with the rules
        (`hedgerow.net.logverify.verify`, what ``hedgerow replay --verify`` runs).  Read
        again until it holds the whole game (the peer may still be writing), within the
        timeout."""
        table = self._table()
        assert self.log_path is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            path, result = self._find_log()
            whole = len(result.entries) >= table.index and (
                self.deck is None or self.deck.log_complete(result))
            if result.problem is not None or whole or loop.time() > deadline:
                break
            await asyncio.sleep(0.2)
        self._ensure(result.problem is None, "6", f"a log file that reads to its end ({path})",
                     result.problem)
        assert result.header is not None
        self._check_records(result.header, list(result.entries), "6")
        self.departures.check_log(result.events, "6")
        seals = self.deck.check_log(result) if self.deck is not None else ""
        mismatch = verify(lambda _: self._ruleset(), result)
        self._ensure(mismatch is None, "6", "a log that replays with the rules", mismatch)
        if seals:
            return f"{len(result.entries)} entries, {seals} agree; verified"
        return f"{len(result.entries)} entries and the header agree; verified"

    def _check_records(self, header: LogHeader, entries: list[LoggedEntry],
                       section: str) -> None:
        """A log's records (a file's, §6, or a spectator's stream, §3.4) against the game:
        the header is this table's, with the peer's seat; the entries are every entry of
        the game, each with the rules' state hash after it."""
        table, seats = self._table(), self._seats()
        want = (self._ruleset().spec.name, table.header.fingerprint, seats.players,
                table.header.seed, self.driver.table_id, seats.seats_of(self.peer)[0])
        got = (header.game, header.fingerprint, header.players, header.seed,
               header.table_id, header.own_seat)
        self._ensure(got == want, section, "the header (game, fingerprint, players, seed, "
                     f"table_id, own_seat) {want}", got)
        self._ensure(len(entries) == table.index, section, f"{table.index} entries (the "
                     "whole game)", len(entries))
        for i, item in enumerate(entries):
            self._ensure(item.entry == table.entries[i], section, f"entry #{i} as played: "
                         f"{table.entries[i]}", item.entry)
            self._ensure(item.state_hash == self.ours[i], section, f"the state hash after "
                         f"entry #{i}: {self.ours[i].hex()} (the rules')",
                         item.state_hash.hex())

    def _find_log(self) -> tuple[Path, LogReadResult]:
        """The peer's log: ``--log`` itself, or in that folder (or below it) the log of this
        table and the peer's seat (by its header); a deviation when there is none."""
        assert self.log_path is not None
        where = self.log_path
        if not where.is_dir():
            try:
                return where, read_log(where)
            except OSError as exc:
                raise Deviation("6", f"a log file at {where}", str(exc)) from None
        seat = self._seats().seats_of(self.peer)[0]
        for path in sorted(p for p in where.rglob("*") if p.is_file()):
            with contextlib.suppress(OSError):
                result = read_log(path)
                h = result.header
                if h is not None and h.table_id == self.driver.table_id and h.own_seat == seat:
                    return path, result
        raise Deviation("6", f"a log file of this table (table_id "
                        f"{self.driver.table_id.hex()}, seat {seat}) in {where}",
                        "none: no file there has that header")

    def _ruleset(self) -> Ruleset:
        assert self.table_rules is not None
        return self.table_rules

    # -- the probes at the checker's turn ----------------------------------------------

    async def _turn_probes(self) -> None:
        """The probes of an action at the checker's one-seat turn."""
        d, table, seats = self.driver, self._table(), self._seats()
        key = self.peer
        index, head = table.index, table.head
        legal = self._legal_action()

        async def action(msg: ActionMsg, code: ErrorCode, section: str,
                         refusal: bool = False) -> str:
            seq, data = d.envelope(msg)
            error = await d.refusal(key, data, seq, code, section, ref_index=msg.index,
                                    refusal=refusal)
            return f"refused {code.name}" + (f" ({error.refusal})" if error.refusal else "")

        if self.deck is None:  # (at a sealed table a refused action halts it, §10.7)
            await self._scenario("refuse-illegal", lambda: action(
                ActionMsg(index, head, seats.seat, Action("check-peer-no-such-action")),
                ErrorCode.ILLEGAL, "3.3", refusal=True))
        await self._scenario("refuse-broken-chain", lambda: action(
            ActionMsg(index, digest(b"hedgerow-check-peer-v1", head), seats.seat, legal),
            ErrorCode.BROKEN_CHAIN, "3.3"))

    async def _probes(self) -> None:
        """The probes that fit any moment the peer waits for the checker: a turn or a
        simultaneous step of the checker's seat."""
        d, table, seats = self.driver, self._table(), self._seats()
        key, index = self.peer, table.index
        theirs = next(s for s, k in sorted(seats.holders.items()) if k == key)
        wrong = ActionMsg(index, table.head, theirs, self._legal_action())

        async def wrong_seat() -> str:
            seq, data = d.envelope(wrong)
            await d.refusal(key, data, seq, ErrorCode.WRONG_SEAT, "5.3", ref_index=index)
            return "refused WRONG_SEAT"

        await self._scenario("refuse-wrong-seat", wrong_seat)
        await self._scenario("refuse-stranger", self._probe_stranger)

        async def simple(data: bytes, seq: int | None, code: ErrorCode, section: str) -> str:
            await d.refusal(key, data, seq, code, section)
            return f"refused {code.name}"

        forged = generate().public
        seq, data = d.envelope(Heartbeat(index), sender=forged)
        await self._scenario("refuse-forged-sender", lambda: simple(
            data, seq, ErrorCode.STRANGER, "1"))
        seq2, data2 = d.envelope(Heartbeat(index), table_id=b"\x01" * 16)
        await self._scenario("refuse-wrong-table", lambda: simple(
            data2, seq2, ErrorCode.WRONG_TABLE, "2"))
        await self._scenario("refuse-malformed", lambda: simple(
            b"\xff\xff check-peer: not an envelope", None, ErrorCode.MALFORMED, "2"))
        seq3, data3 = d.with_version(Heartbeat(index), 3)
        await self._scenario("refuse-version", lambda: simple(
            data3, seq3, ErrorCode.PROTOCOL_MISMATCH, "9"))
        seq4, data4 = d.envelope(SeedCommit(seats.seat, bytes(32), seats.round))
        await self._scenario("refuse-late-seed", lambda: simple(
            data4, seq4, ErrorCode.WRONG_PHASE, "5.4"))
        await self._scenario("silent-on-error", self._probe_error)

    async def _probe_stranger(self) -> str:
        stranger = await Driver(self.timeout).start(self.bind)
        try:
            stranger.table_id = self.driver.table_id
            stranger.connect(self.peer, self.peer_endpoint)
            seq, data = stranger.envelope(Heartbeat(self._table().index))
            await stranger.refusal(self.peer, data, seq, ErrorCode.STRANGER, "5.3")
        finally:
            await stranger.close()
        return "refused STRANGER"

    async def _probe_error(self) -> str:
        d = self.driver
        _, data = d.envelope(ErrorMsg(ErrorCode.UNKNOWN, "check-peer: an Error nobody asked "
                                      "for; it must not be answered"))
        errors = await d.answers(self.peer, data, "2.3")
        self._ensure(not errors, "2.3", "no answer to an Error",
                     "; ".join(describe_error(e) for e in errors))
        return "not answered"

    async def _probe_out_of_turn(self) -> str:
        d, table, seats = self.driver, self._table(), self._seats()
        msg = ActionMsg(table.index, table.head, seats.seat, Action("check-peer-out-of-turn"))
        seq, data = d.envelope(msg)
        await d.refusal(self.peer, data, seq, ErrorCode.OUT_OF_TURN, "3.3",
                        ref_index=table.index)
        return f"refused OUT_OF_TURN at #{table.index}"

    # -- small things ------------------------------------------------------------------

    def _seats(self) -> Seats:
        assert self.seats is not None
        return self.seats

    def _table(self) -> Table:
        assert self.table is not None
        return self.table

    def _legal_action(self) -> Action:
        """A legal action of the checker's seat now, as it travels (at a sealed table its
        cards as the sealed cards they are, §10.7)."""
        if self.deck is not None:
            return self.deck.wire_action()
        return self._table().legal_actions(self._seats().seat)[0]

    def _who(self, key: bytes) -> str:
        if self.seats is None:
            return "the host"
        held = self.seats.seats_of(key)
        return f"seat {held[0]}" if len(held) == 1 else f"seats {held}"


def _state_hash(ours: list[bytes], first: int, last: int) -> StateHash:
    """``StateHash`` reporting entries ``first`` .. ``last`` (§2.3)."""
    return StateHash(last, ours[last], b"".join(ours[first:last]))


def _spans(indices: list[int]) -> str:
    """``#3-#7, #9`` for a list of entry indices."""
    spans: list[str] = []
    start = prev = indices[0]
    for i in [*indices[1:], None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        spans.append(f"#{start}" if start == prev else f"#{start}-#{prev}")
        if i is not None:
            start = prev = i
    return ", ".join(spans)


