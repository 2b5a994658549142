"""`ReplaySeat`: a `Seat` over a `Film`, at one of its frames, as one seat sees it.

The seat client's state, layout and renderers (`hedgerow.clients.app`) read a table only
through `hedgerow.net.seat.Seat`; the replay viewer hands them this one, so that a saved
game is drawn by the very code that drew it live.  It is read-only: it has no legal action,
and `submit` refuses.  Moving it (`show`: another frame, or another seat's eyes) notifies
its watchers, as a live seat does when the table moves.

What only a network seat has comes in its local form (as `LocalSeat`'s): no address, no
host to lose, nothing to confirm, and nobody departs a recording (`ReplayDepartures`: a
takeover the log records is shown by the viewer from the film; an agreed end is in force
on the last frame, as it was at the table).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from hedgerow.clients.app.local import NoDepartures
from hedgerow.clients.watch.film import SEALED, Film
from hedgerow.core.actions import Action
from hedgerow.core.errors import Code, Refusal
from hedgerow.core.outcome import Outcome
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import LogEntry
from hedgerow.net.messages import LeaveReason, SeatEvent
from hedgerow.net.seat import Changes, DeckWait, HistoryLine, Link, Phase, SeatInfo


class ReplayDepartures(NoDepartures):
    """Nobody departs a recording (`NoDepartures`), but a table's agreement to end the game
    is in force on the last frame of a log that records one (the results say so, as they
    did at the table)."""

    def __init__(self, seat: ReplaySeat) -> None:
        self._seat = seat

    @property
    def ended(self) -> SeatEvent | None:  # type: ignore[override]
        """The agreed end, on the last frame of a log that records one."""
        return self._seat.film.ended if self._seat.at_end else None


class ReplaySeat:
    """Seat ``seat`` of ``film``, after frame ``at`` (see the module docstring)."""

    def __init__(self, film: Film, *, seat: int = 0, at: int | None = None) -> None:
        self.film = film
        self.seat = seat
        self.at = film.first if at is None else at
        self.ruleset: Ruleset = film.ruleset
        self.players = film.players
        self._changes = Changes()
        self._closed = False
        self.address = ""
        self.is_host = False
        self.ready = True
        self.departures = ReplayDepartures(self)

    # -- moving ---------------------------------------------------------------------------------

    def show(self, *, at: int | None = None, seat: int | None = None) -> None:
        """Show frame ``at`` (kept within the film) and/or ``seat``'s eyes; tell the
        watchers."""
        if at is not None:
            self.at = max(0, min(at, self.film.last))
        if seat is not None:
            self.seat = seat
        self._changes.notify()

    @property
    def at_end(self) -> bool:
        """True on the film's last frame."""
        return self.at == self.film.last

    # -- the Seat protocol ----------------------------------------------------------------------

    def phase(self) -> Phase:
        """FINISHED on the last frame of a game that ended; PLAYING anywhere else."""
        return Phase.FINISHED if self.at_end and self.film.over else Phase.PLAYING

    def view(self) -> Any:
        """This seat's view after the current frame."""
        return self.film.view(self.at, self.seat)

    def active_seats(self) -> tuple[int, ...]:
        """The seats to move next."""
        return self.film.active(self.at)

    def chosen_seats(self) -> tuple[int, ...]:
        """None: a recording shows every choice of a step as it was logged."""
        return ()

    def legal_actions(self) -> Sequence[Action]:
        """Nothing: a recording is watched, not played."""
        return ()

    def held_back(self) -> Refusal | None:
        """Nothing holds a recording back (it has no move to make)."""
        return None

    def outcome(self) -> Outcome | None:
        """The result, on the last frame of a game that has one."""
        return self.film.outcome if self.at_end else None

    def seats(self) -> Sequence[SeatInfo]:
        """Every seat by the name the log records (the watched one as "you")."""
        return [SeatInfo(s, self.film.names[s], Link.YOU if s == self.seat else Link.CONNECTED)
                for s in range(self.players)]

    def history(self) -> Sequence[HistoryLine]:
        """Every entry up to the current frame, in words."""
        return [HistoryLine(f.entry.index, f.entry.seat, f.text)
                for f in self.film.frames[:self.at + 1]]

    def problem(self) -> str | None:
        """Why the film stops short (damage, a mismatch), on its last frame."""
        return self.film.problem if self.at_end else None

    def watchers(self) -> tuple[str, ...]:
        """Nobody watches a recording."""
        return ()

    def log_path(self) -> Path | None:
        """The log being watched."""
        return self.film.path

    async def submit(self, action: Action) -> Refusal | None:
        """Refused: a recording cannot be played."""
        return Refusal(Code.GAME_OVER, "this is a replay: nothing can be played")

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` whenever the shown frame or seat changes."""
        self._changes.subscribe(callback)

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change."""
        return self._changes.changed()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""
        return await self._changes.wait_until(predicate, timeout)

    async def close(self, reason: str = "left the table", why: LeaveReason | None = None
                    ) -> None:
        """Nothing to release (the log was read whole)."""
        self._closed = True

    @property
    def closed(self) -> bool:
        """True once `close` ran."""
        return self._closed

    @property
    def seed(self) -> bytes:
        """The table seed the log names."""
        return self.film.header.seed

    @property
    def sealed(self) -> bool:
        """True for a sealed table's log."""
        return self.film.deck == SEALED

    def verdict(self) -> str | None:
        """What the verification of a sealed deck found, once every secret is in the log."""
        return self.film.verdict

    def deck_wait(self) -> DeckWait | None:
        """None: a recording never waits for a deck."""
        return None

    @property
    def index(self) -> int:
        """The number of entries shown so far."""
        return self.at + 1

    def entries(self) -> Sequence[LogEntry]:
        """The entries shown so far."""
        return [f.entry for f in self.film.frames[:self.at + 1]]

    def state_hash(self) -> bytes | None:
        """None: a watcher's state (every card it may show put in) is no table's to hash."""
        return None

    def confirmed_end(self) -> bool:
        """True on the last frame of a finished game (nobody is left to confirm it)."""
        return self.phase() == Phase.FINISHED

    def desync_settled(self) -> bool:
        """Always: a recording cannot diverge."""
        return True

    def host_gone(self) -> bool:
        """Never: there is no host to lose."""
        return False
