"""`Seat`: one seat at a table as a seat client or a headless bot runner sees it.

This is the seam between the network layer and the clients.  The network peer
(`hedgerow.net.peer`) implements it for real tables; `LocalSeat` in the client tests
implements it in-process.  A client never touches sockets or the `State`: it reads the
seat's `View`, the legal actions and the table's public facts, submits actions, and is
called back whenever anything changes (so it can redraw).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.game import Outcome
from hedgerow.core.ruleset import Ruleset


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


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One accepted action in plain words."""

    index: int
    seat: int
    text: str


def still_to_act(seat: Seat) -> tuple[int, ...]:
    """The seats the table still waits for: `Seat.active_seats`, less those whose choice for
    a simultaneous step is already in.

    A seat that knows it says so with a ``chosen_seats()`` method (seats whose choice is
    in); a network peer is asked through its step round (``sync.committed()``: §4.5's
    commitments).  `LocalSeat` already leaves chosen seats out of `Seat.active_seats`.
    """
    active = tuple(seat.active_seats())
    chosen = getattr(seat, "chosen_seats", None)
    if chosen is None:
        chosen = getattr(getattr(seat, "sync", None), "committed", None)
    if chosen is None or len(active) < 2:
        return active
    done = set(chosen())
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

    def legal_actions(self) -> Sequence[Action]:
        """What this seat may do now (empty when it is not its turn)."""

    def outcome(self) -> Outcome | None:
        """The result, once the game is over."""

    def seats(self) -> Sequence[SeatInfo]:
        """Every seat, with its player's name and link."""

    def history(self) -> Sequence[HistoryLine]:
        """Every accepted action so far, in plain words."""

    def problem(self) -> str | None:
        """Why the table halted (desync naming the divergent peer and action), or None."""

    def log_path(self) -> Path | None:
        """Where this seat's copy of the table log is saved."""

    async def submit(self, action: Action) -> Refusal | None:
        """Play ``action`` for this seat: None once accepted locally and sent, or why not."""

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change (action applied, link change, phase)."""

    async def close(self) -> None:
        """Leave the table and release every socket."""
