"""`WatchState`: where the replay viewer is in a film, and how it moves.

It holds the `ReplaySeat` (the film at one frame, through one seat's eyes) and the seat
client's `SeatState` over it, which the seat client's panes draw from.  Keys move the
viewer only through its methods:

* `step` one entry forward or back (chance entries included: the deal, a refill);
* `next_round` / `previous_round`: to the start of the next round, or back to the start
  of this one (of the one before, from its start).  A round starts just before its first
  move (the frame at the end of the round before: every seat still to move in it), so the
  board shows the round about to be played; rounds are counted as `film.number_rounds`
  says (once around the table);
* `to_start` (the deal) and `to_end` (the log's last entry);
* `watch_as` another seat: its view, its hand where the film can show it.

Arriving on the last frame of a game that ended (by its rules, or by the table's agreement)
shows its results, as the live table did (``b`` goes back to the board); leaving it shows
the table again.  A move that cannot go
further says so in the message line.  `playing` is the film running by itself (`tick`),
one entry at a time, until the end or a key.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from hedgerow.clients.app.gameui import ClientUI
from hedgerow.clients.app.state import RESULTS, TABLE, SeatState
from hedgerow.clients.watch.film import Film
from hedgerow.clients.watch.replayseat import ReplaySeat
from hedgerow.core.ui import Target

#: Seconds between entries while the film runs by itself (Space).
PLAY_EVERY = 1.0


class WatchState:
    """The viewer's position in ``film`` and the seat client's state drawn from it."""

    def __init__(self, film: Film, ui: ClientUI, *, seat: int = 0, at: int | None = None,
                 invalidate: Callable[[], None] = lambda: None) -> None:
        self.film = film
        self.seat = ReplaySeat(film, seat=seat, at=at)
        self.table = SeatState(self.seat, ui, invalidate=invalidate, invite=False)
        self.playing = False
        #: The board's pieces the shown entry changed, for (frame, seat, width): the
        #: renderer's cache (`render.changed`), so that a redraw does not draw twice more.
        self.marks: tuple[object, set[Target]] = (None, set())
        self._arrived()

    # -- where it is ----------------------------------------------------------------------------

    @property
    def at(self) -> int:
        """The frame shown."""
        return self.seat.at

    @property
    def watching(self) -> int:
        """The seat whose eyes the viewer has."""
        return self.seat.seat

    def round_now(self) -> int:
        """The round being played: the next move's (at its start, before it), else the last
        move's."""
        frames = self.film.frames
        after = self.at + 1
        if after < len(frames) and frames[after].round:
            return frames[after].round
        return max(1, frames[self.at].round)

    def rounds(self) -> int:
        """How many rounds the film holds."""
        return max(1, self.film.frames[-1].round)

    def boundaries(self) -> list[int]:
        """The frames each round starts on (see the module docstring), in order."""
        return sorted({max(self.film.first, start - 1) for start in self.film.rounds})

    # -- moving ---------------------------------------------------------------------------------

    def go(self, at: int) -> bool:
        """Show frame ``at`` (kept within the film); False when that is where it is."""
        at = max(self.film.first, min(at, self.film.last))
        if at == self.at:
            return False
        self.seat.show(at=at)
        self._arrived()
        return True

    def _arrived(self) -> None:
        """The results on the last frame of a finished game (or one the table agreed to
        end), else the table; the board follows what moved."""
        table = self.table
        table.screen = RESULTS if self.seat.at_end and self.film.over else TABLE
        table.results_top = 0
        table.follow_cursor()

    def step(self, by: int) -> bool:
        """``by`` entries forward (back when negative); False (and says why) at an end."""
        if self.go(self.at + by):
            return True
        self.table.say(self._edge(by > 0))
        return False

    def next_round(self) -> bool:
        """To the start of the next round (the end from the last one)."""
        later = [b for b in self.boundaries() if b > self.at]
        if self.go(later[0] if later else self.film.last):
            return True
        self.table.say(self._edge(True))
        return False

    def previous_round(self) -> bool:
        """Back to the start of this round, or of the one before from its start."""
        bounds = self.boundaries()
        before = bounds[:bisect.bisect_left(bounds, self.at)]
        if self.go(before[-1] if before else self.film.first):
            return True
        self.table.say(self._edge(False))
        return False

    def to_start(self) -> bool:
        """To the first frame (the cards dealt)."""
        return self.go(self.film.first)

    def to_end(self) -> bool:
        """To the last frame."""
        return self.go(self.film.last)

    def end_note(self) -> str:
        """What the move pane says on the last frame (after the entry in words)."""
        film = self.film
        if film.problem:
            return f"The replay stops here: {film.problem}."
        if film.over:
            return "The end of the game: Enter or b shows the results."
        return "The log ends here: the game was not over when it was written."

    def _edge(self, forward: bool) -> str:
        if not forward:
            return "This is the start of the game: nothing happened before the deal."
        if self.film.outcome is not None:
            return "This is the end of the game."
        return "This is the end of the log" + ("." if self.film.over else
                                               ": the game was not over when it was written.")

    # -- whose eyes -------------------------------------------------------------------------------

    def watch_as(self, seat: int) -> None:
        """Show the table as ``seat`` sees it (its hand where the film can show it)."""
        self.seat.show(seat=seat % self.film.players)
        self.table.follow_cursor()
        who = self.film.names[self.watching]
        self.table.say(f"Watching as {who}." if self.film.sight.sees(self.watching)
                       else self.film.why_hidden(self.watching))

    def next_seat(self, by: int = 1) -> None:
        """Watch as the next seat (the previous one with ``by=-1``)."""
        self.watch_as(self.watching + by)

    # -- running by itself ------------------------------------------------------------------------

    def toggle_play(self) -> None:
        """Start or stop the film running by itself (from the start when at the end)."""
        if self.playing:
            self.playing = False
            return
        if self.seat.at_end:
            self.to_start()
        self.playing = True

    def tick(self) -> None:
        """One entry forward while playing; stops at the end."""
        if not self.playing:
            return
        self.go(self.at + 1)
        if self.seat.at_end:
            self.playing = False
