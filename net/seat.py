"""`Seat`: one seat at a table, as the seat client or the headless bot runner holds it.

This is the whole seam between the network layer and its callers: a caller holds a `Seat`
and nothing else (a test, tests/clients/test_seat_seam.py, fails when code outside net/
reaches past it with ``getattr`` or types a seat ``Any``).  The network peer
(`hedgerow.net.peer.Peer`, which `hedgerow.net.launch` returns typed as a `Seat`) implements
it for real tables; `hedgerow.clients.app.local.LocalSeat` implements it in-process, with
the local form of what only a network seat has (no address, a host never gone, nobody
departs).  A caller never touches sockets or the game's state: it reads the seat's view,
the legal actions and the table's public facts, submits actions, and is called back
whenever anything changes (so it can redraw).

What a network seat adds is declared here too, so that the type checker sees every use:
its ``address``, whether its host is gone before play (`Seat.host_gone`), the seats whose
choice for a simultaneous step is in (`Seat.chosen_seats`), and `Seat.departures`, a
`DepartureBoard`: the departed seats and the motions about them (docs/protocol.md §5.9) as
a read model, plus the commands to propose and vote.  `Changes` is the watchers' part
(`subscribe`, `changed`, `wait_until`) that every seat implements alike.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.game import Outcome
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import LogEntry
from hedgerow.net.messages import LeaveReason, MotionKind, SeatEvent, SeatMotion

log = logging.getLogger(__name__)


class Link(StrEnum):
    """The state of a seat's link, as shown on the table screen."""

    YOU = "you"
    CONNECTED = "connected"
    WAITING = "waiting"  # seat not taken yet, or the table is waiting for it to return
    LOST = "lost"  # no heartbeat for a while; the table waits for it to resume
    LEFT = "left"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Public facts about one seat: who sits there and how their link is."""

    seat: int
    name: str
    link: Link
    bot: str | None = None  # the bot strategy, for a bot seat
    left_why: str = ""  # once LEFT: why, as its Leave said ("quit", "game_over", "gave_up" ...)
    run_by: int | None = None  # the seat whose bot plays this seat now (a takeover, §5.9)


class Phase(StrEnum):
    """Where the table is in its life."""

    SEATING = "seating"  # waiting for seats to fill
    SEEDING = "seeding"  # commit-reveal of the seed under way
    PLAYING = "playing"
    FINISHED = "finished"
    HALTED = "halted"  # stopped: desync or a fatal protocol error (see `Seat.problem`)


class DeckWaits(StrEnum):
    """What a sealed deck holds the table up for (docs/protocol.md §10)."""

    SHUFFLE = "shuffle"  # the peers shuffle a deck together, one pass each
    DEAL = "deal"  # cards this seat is shown are on their way: every other peer's key for them
    SHOW = "show"  # cards every seat is shown (turned face up) are being opened


@dataclass(frozen=True, slots=True)
class DeckWait:
    """The sealed deck holds the table up: for what, whose peers it waits for (seats, in
    order; empty when nothing is overdue, only on its way), and whether no seat may act
    meanwhile (``stops_play``: a shuffle, or a card the rules must read first) or the table
    goes on while this seat waits (the next seat plays while this seat's card opens)."""

    what: DeckWaits
    seats: tuple[int, ...] = ()
    stops_play: bool = True


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One accepted action in plain words."""

    index: int
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class Departed:
    """A seat the table is without: its link (lost or left) and why it left, if it said.

    ``number`` tells one departure from the next: every time a seat's player goes (again),
    the seat is departed under a new number, so a client that chose to wait the last time
    is told of this one.  ``unheard`` is True for a seat this peer has not heard from since
    it came back itself (``hedgerow resume``): its player is away and must resume too."""

    seat: int
    name: str
    link: Link
    why: str = ""
    number: int = 0
    unheard: bool = False


@dataclass(slots=True)
class Motion:
    """A motion a seat holds (docs/protocol.md §5.9), and the votes it has seen for it."""

    proposer: int
    body: SeatMotion
    votes: dict[int, bool] = field(default_factory=dict)
    since: float = 0.0  # when this peer first held it (the event loop's clock)


class DepartureBoard(Protocol):
    """What a table does about seats whose player left or was lost (docs/protocol.md §5.9):
    a read model (departed seats, open motions, seat events) and the commands (propose,
    vote, and answering alone when nobody is there to ask)."""

    def departed(self) -> Sequence[Departed]:
        """Seats whose peer is lost or left while play is on and that no bot runs."""

    @property
    def asked(self) -> Sequence[Motion]:
        """The motions waiting for this seat's player to vote (`vote`), oldest first."""

    @property
    def motions(self) -> Mapping[tuple[int, int], Motion]:
        """The open motions, by (proposer's seat, number)."""

    @property
    def ended(self) -> SeatEvent | None:
        """The agreed end of the game, once the table agreed on it."""

    @property
    def events(self) -> Sequence[SeatEvent]:
        """Every seat event (a takeover, a reclaim, an agreed end) in force here, in order."""

    def voters(self, seat: int) -> tuple[int, ...]:
        """The seats that must agree on a motion about ``seat``."""

    def takeover_problem(self, seat: int) -> str | None:
        """Why no bot can take departed ``seat`` over here now (a sealed table of two, a
        seat not caught up with the table), in words; None when a takeover may be
        proposed."""

    def end_problem(self, seat: int) -> str | None:
        """Why this seat cannot propose ending the game without departed ``seat`` here now
        (it is on the smaller side of a cut: the quorum of docs/protocol.md §5.9), in
        words; None when it may."""

    def propose(self, kind: MotionKind, seat: int, bot: str = "") -> SeatMotion | Refusal:
        """Propose that ``bot`` takes departed ``seat`` over, or the end of the game; the
        motion sent, or why it cannot be proposed."""

    def vote(self, motion: Motion, accept: bool, reason: str = "") -> None:
        """This seat's player's vote on ``motion`` (one of `asked`)."""

    def run_headless(self, delay: float) -> None:
        """Nobody is at this seat to ask (a headless bot plays it): accept every motion that
        passes this seat's checks, and let a bot this seat runs for a departed one pause
        ``delay`` seconds before each move, as its own bot does."""


class Changes:
    """The watchers of one seat: callbacks after every change (`Seat.subscribe`) and the
    awaitable next change (`Seat.changed`, `Seat.wait_until`)."""

    def __init__(self) -> None:
        self.subscribers: list[Callable[[], None]] = []
        self.tick = asyncio.Event()

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change."""
        self.subscribers.append(callback)

    def notify(self) -> None:
        """Tell every watcher that something changed (a failing callback is logged)."""
        self.wake()
        for callback in list(self.subscribers):
            try:
                callback()
            except Exception:
                log.exception("a subscriber failed")

    def wake(self) -> None:
        """Wake the waiters only (`changed`, `wait_until`), not the subscribers."""
        tick, self.tick = self.tick, asyncio.Event()
        tick.set()

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change (bound now, so no change slips in between)."""
        return self.tick.wait()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not predicate():
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                return False
            if not await within(self.tick.wait(), remaining):
                return predicate()
        return True


async def within(awaitable: Awaitable[Any], timeout: float | None) -> bool:
    """Await ``awaitable`` for at most ``timeout`` seconds; False when it did not come.

    Not `asyncio.wait_for`: in Python 3.11 it returns the result and drops a cancel that
    comes in the same turn of the loop, so a cancelled bot at a busy table played on
    (tests/net/test_sealed_wait_resend.py hung so in its clean-up).  A cancel here always
    reaches the caller."""
    waiter = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait((waiter,), timeout=timeout)
    finally:
        waiter.cancel()
    return bool(done)


def still_to_act(seat: Seat) -> tuple[int, ...]:
    """The seats the table still waits for: `Seat.active_seats`, less those whose choice for
    a simultaneous step is already in (`Seat.chosen_seats`)."""
    active = tuple(seat.active_seats())
    if len(active) < 2:
        return active
    done = set(seat.chosen_seats())
    return tuple(s for s in active if s not in done)


class Seat(Protocol):
    """A seat at a table.  All methods are called from the event loop's thread."""

    @property
    def seat(self) -> int:
        """This seat's number."""

    @property
    def ruleset(self) -> Ruleset:
        """The rules the table runs."""

    @property
    def players(self) -> int:
        """The number of seats."""

    def phase(self) -> Phase:
        """Where the table is now."""

    def view(self) -> Any:
        """This seat's view of the current state (None before the game starts)."""

    def active_seats(self) -> tuple[int, ...]:
        """Seats that must act now."""

    def chosen_seats(self) -> tuple[int, ...]:
        """The seats whose choice for the open simultaneous step is in, in seat order."""

    def legal_actions(self) -> Sequence[Action]:
        """What this seat may do now (empty when it is not its turn)."""

    def held_back(self) -> Refusal | None:
        """Why this seat may not act now while play is on, though it may be its turn: its
        ``code`` is "syncing" (it is catching up with the table), "starting" (a peer has
        not started the table yet), "taken_over" (a bot plays it until it hands it back),
        "asking" (resumed after a bot played it, it asks the others which of its own moves
        they hold, naming whom it still waits for, docs/protocol.md §5.9), "move_waits" (at
        a sealed table: its own last move is sent and waits for the cards it turns face up,
        opened with every player's key; the seat's next action, if the rules give it one,
        comes once they are open), "deck" (the sealed deck holds the whole table: a
        shuffle, cards being turned face up) or "dealing" (its cards are being shown to it,
        a moment); None when nothing holds it back.  `submit` refuses with the same
        `Refusal` meanwhile, and nothing is sent or queued (each of these passes by itself:
        a bot waits for the next change and looks again)."""

    def outcome(self) -> Outcome | None:
        """The result, once the game is over."""

    def seats(self) -> Sequence[SeatInfo]:
        """Every seat, with its player's name and link."""

    def history(self) -> Sequence[HistoryLine]:
        """Every accepted action so far, in plain words."""

    def problem(self) -> str | None:
        """Why the table halted (desync naming the divergent peer and action), or None."""

    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators watching the table (docs/protocol.md §3.4); none at
        a table of one process or a replay."""

    def log_path(self) -> Path | None:
        """Where this seat's copy of the table log is saved."""

    async def submit(self, action: Action) -> Refusal | None:
        """Play ``action`` for this seat: None once accepted locally and sent, or why not."""

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change (action applied, link change, phase)."""

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change (bound now, so no change slips in between)."""

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""

    async def close(self, reason: str = "left the table", why: LeaveReason | None = None
                    ) -> None:
        """Leave the table (telling the others ``reason`` and ``why``) and release every
        socket and file."""

    @property
    def closed(self) -> bool:
        """True once `close` ran."""

    # -- the table's record ---------------------------------------------------------------

    @property
    def seed(self) -> bytes | None:
        """The table seed, once agreed."""

    @property
    def sealed(self) -> bool:
        """True at a sealed table (docs/protocol.md §10): this seat's process holds only
        its seat's information state; the seed names no card (the local form: False)."""

    def verdict(self) -> str | None:
        """At a sealed table once every secret is in: what the verification of every
        shuffle, key and action found, in words (docs/protocol.md §10.9); else None."""

    def deck_wait(self) -> DeckWait | None:
        """While play is on at a sealed table and its deck holds the table up (a shuffle,
        cards on their way to this seat, cards being turned face up): what for and whose
        peers it waits for; else None (the local form: always None)."""

    @property
    def index(self) -> int:
        """The number of log entries so far (0 before play)."""

    def entries(self) -> Sequence[LogEntry]:
        """Every log entry so far, in order."""

    def state_hash(self) -> bytes | None:
        """The canonical hash of the current state (None before play)."""

    @property
    def ready(self) -> bool:
        """True once every seat started the table (the local form: always)."""

    def confirmed_end(self) -> bool:
        """True when the game is over here and no connected seat still owes its final hash."""

    def desync_settled(self) -> bool:
        """False while a desync's naming may still change (reports for it are on the way)."""

    # -- what a network seat adds (each with a local form) --------------------------------

    @property
    def address(self) -> str:
        """What others join this table with (``HOST:PORT/KEY``); "" for a local seat."""

    @property
    def is_host(self) -> bool:
        """True for the seat that opened the table on the network."""

    def host_gone(self) -> bool:
        """True while the host is lost or left before play began (a joiner waits for it to
        re-open the table, docs/protocol.md §3.2); never for a local seat."""

    @property
    def departures(self) -> DepartureBoard:
        """Departed seats and what the table does about them."""
