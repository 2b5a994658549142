"""`LocalSeat`: a `Seat` over an in-process core `Table`, with bots in the other seats.

No network at all: the table, the bots and the client share one process and one asyncio
loop.  It serves the client's offline tests and ``hedgerow play --local``; a real table is
the network peer (`hedgerow.net`), which implements the same `Seat` protocol.

Bots move one action at a time (after ``bot_delay`` seconds), each decision thought out in
a worker thread (``asyncio.to_thread``) so that a bot that searches for a second never
freezes the screen; the action is then applied on the loop. In a simultaneous step every
active seat chooses against the step's starting state; the choices are held until all are
in, then the table applies the whole step (`Table.submit_step`). Every log entry (chance
entries such as the deal included) goes, in plain words, to the history, and as it is to a
table log under the data directory's ``logs/`` folder (`log_path`): the same format a
network peer writes (`hedgerow.net.logfile`), so ``hedgerow replay`` plays it back; it
names no table id and no seat of its own, since there is no table to come back to.

What only a network seat has comes in its local form: no address, a host that is never
gone, every seat started at once (``ready``), nothing to confirm at the end, and
`NoDepartures`: nobody leaves a table whose other seats are bots of this process, so
there is never a motion to propose or vote on.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hedgerow.clients.botnames import bot_name
from hedgerow.core.actions import Action
from hedgerow.core.botcall import BotThread
from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import Refusal
from hedgerow.core.game import Bot, BotSpec
from hedgerow.core.outcome import Outcome
from hedgerow.core.playout import make_bots
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, LogEntry, Table
from hedgerow.net.logfile import LogWriter
from hedgerow.net.messages import LeaveReason, LogHeader, MotionKind, SeatEvent, SeatMotion
from hedgerow.net.seat import (
    Changes,
    DeckWait,
    Departed,
    HistoryLine,
    Link,
    Motion,
    Phase,
    SeatInfo,
)


class NoDepartures:
    """The local form of `hedgerow.net.seat.DepartureBoard`: nobody departs, so nothing is
    ever asked, open or in force, and a motion cannot be proposed."""

    asked: Sequence[Motion] = ()
    motions: Mapping[tuple[int, int], Motion] = MappingProxyType({})
    ended: SeatEvent | None = None
    events: Sequence[SeatEvent] = ()

    def departed(self) -> Sequence[Departed]:
        """Nobody (every other seat is a bot of this process)."""
        return ()

    def voters(self, seat: int) -> tuple[int, ...]:
        """Nobody votes at a local table."""
        return ()

    def takeover_problem(self, seat: int) -> str | None:
        """No seat of a local table is departed, so none can be taken over."""
        return f"seat {seat} has not left the table"

    def end_problem(self, seat: int) -> str | None:
        """No seat of a local table is departed, so the game cannot end without one."""
        return f"seat {seat} has not left the table"

    def propose(self, kind: MotionKind, seat: int, bot: str = "") -> SeatMotion | Refusal:
        """Refused: no seat of a local table leaves it."""
        return Refusal("not_departed", f"seat {seat} has not left the table")

    def vote(self, motion: Motion, accept: bool, reason: str = "") -> None:
        """Nothing to vote on."""

    def run_headless(self, delay: float) -> None:
        """Nothing to answer."""


class LocalSeat:
    """Seat ``seat`` of a table played in this process; bots play every other seat."""

    def __init__(self, ruleset: Ruleset, players: int, seed: bytes, *, seat: int = 0,
                 bots: Sequence[BotSpec], name: str = "You", bot_delay: float = 0.0,
                 log_name: str | None = None) -> None:
        self.seat = seat
        self.ruleset = ruleset
        self.players = players
        self.table = Table(ruleset, players, seed)
        specs = list(bots)
        self._bots: list[Bot] = make_bots(ruleset, players, seed, specs) if specs else []
        # The bots choose on a thread of their own: nothing on a bot's call stack leads to
        # this seat or its table (hedgerow.core.botcall).
        self._bot_thread = BotThread(self._bots) if self._bots else None
        self._bot_names = [specs[s % len(specs)].name if specs else None for s in range(players)]
        self._delay = bot_delay
        self._changes = Changes()
        self._closed = False
        #: The local forms of what a network seat adds (`hedgerow.net.seat.Seat`).
        self.address = ""
        self.is_host = False
        self.ready = True
        self.departures = NoDepartures()
        self._history: list[HistoryLine] = []
        self._phase = Phase.PLAYING
        self._task: asyncio.Task[None] | None = None
        self._problem: str | None = None
        self._log = _new_log_path(log_name or f"local-{ruleset.spec.name}-"
                                  f"{time.strftime('%Y%m%d-%H%M%S')}-{seed.hex()[:8]}.hlog")
        numbers = iter(range(1, players))
        #: Every seat's name, the same on screen and in the log (`hedgerow.clients.botnames`).
        self._names = tuple(name if s == seat else bot_name(next(numbers)) for s in range(players))
        self._writer = LogWriter(self._log, LogHeader.for_table(ruleset, players, seed,
                                                                seat_names=self._names))
        self._step: dict[int, Action] = {}  # choices held in a simultaneous step
        self._record(self.table.opening)

    # -- the Seat protocol -----------------------------------------------------------------

    def phase(self) -> Phase:
        """PLAYING until the game is over, then FINISHED (HALTED if a bot broke)."""
        return self._phase

    def view(self) -> Any:
        """This seat's view of the current state."""
        return self.table.view(self.seat)

    def active_seats(self) -> tuple[int, ...]:
        """Seats that must act now (in a simultaneous step, those that have not chosen)."""
        return tuple(s for s in self.table.active_seats() if s not in self._step)

    def chosen_seats(self) -> tuple[int, ...]:
        """The seats whose choice for the open simultaneous step is in (held until all are)."""
        return tuple(sorted(self._step))

    def legal_actions(self) -> Sequence[Action]:
        """What this seat may do now (nothing once it has chosen in a simultaneous step)."""
        if self._phase != Phase.PLAYING or self.seat in self._step:
            return ()
        return self.table.gamedef.legal_actions(self.table.state, self.seat)

    def held_back(self) -> Refusal | None:
        """Nothing holds a local seat back (nobody to catch up from, no bot takes it)."""
        return None

    def outcome(self) -> Outcome | None:
        """The result once the game is over."""
        return self.table.outcome()

    def seats(self) -> Sequence[SeatInfo]:
        """You, then a bot in every other seat (all connected: they live in this process)."""
        return [
            SeatInfo(s, self._names[s], Link.YOU) if s == self.seat
            else SeatInfo(s, self._names[s], Link.CONNECTED, bot=self._bot_names[s])
            for s in range(self.players)
        ]

    def history(self) -> Sequence[HistoryLine]:
        """Every accepted action in plain words."""
        return list(self._history)

    def problem(self) -> str | None:
        """Why the table halted, or None."""
        return self._problem

    def watchers(self) -> tuple[str, ...]:
        """Nobody watches a table of one process."""
        return ()

    def log_path(self) -> Path | None:
        """This table's log (``hedgerow replay`` reads it)."""
        return self._log

    async def submit(self, action: Action) -> Refusal | None:
        """Play ``action`` for this seat; None once accepted, or why not."""
        refusal = self._apply(self.seat, action)
        if refusal is None:
            self._kick()
        return refusal

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change; starts the bots on first use."""
        self._changes.subscribe(callback)
        self._kick()

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change."""
        return self._changes.changed()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""
        return await self._changes.wait_until(predicate, timeout)

    @property
    def seed(self) -> bytes:
        """The table seed."""
        return self.table.header.seed

    @property
    def sealed(self) -> bool:
        """False: one process plays every seat of a local table, with the open deck."""
        return False

    def verdict(self) -> str | None:
        """None: an open deck has nothing to verify."""
        return None

    def deck_wait(self) -> DeckWait | None:
        """None: an open deck never holds the table up."""
        return None

    @property
    def index(self) -> int:
        """The number of log entries so far."""
        return self.table.index

    def entries(self) -> Sequence[LogEntry]:
        """Every log entry so far, in order."""
        return self.table.entries

    def state_hash(self) -> bytes:
        """The canonical hash of the current state."""
        return self.table.state_hash()

    def confirmed_end(self) -> bool:
        """True once the game is over (there is nobody to confirm it)."""
        return self._phase == Phase.FINISHED

    def desync_settled(self) -> bool:
        """Always: one process cannot diverge from itself."""
        return True

    def host_gone(self) -> bool:
        """Never: there is no host to lose."""
        return False

    @property
    def closed(self) -> bool:
        """True once `close` ran."""
        return self._closed

    async def close(self, reason: str = "left the table", why: LeaveReason | None = None
                    ) -> None:
        """Stop the bots and close the log (``reason`` and ``why``: nobody to tell)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._bot_thread is not None:
            self._bot_thread.close()
        self._writer.close()
        self._phase = Phase.FINISHED if self.outcome() else Phase.HALTED
        if self._problem is None and self.outcome() is None:
            self._problem = "you left the table"

    # -- inside ----------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> Refusal | None:
        if self._phase != Phase.PLAYING:
            return Refusal("not_playing", f"the table is {self._phase.value}")
        table = self.table
        if table.simultaneous():
            checked = table.check(seat, action)  # against the step's starting state
            if isinstance(checked, Refusal):
                return checked
            self._step[seat] = action
            if set(self._step) != set(table.active_seats()):
                self._notify()
                return None
            result = table.submit_step(self._step)
            self._step = {}
        else:
            result = table.submit(seat, action)
        if isinstance(result, Refusal):
            return result
        self._record(result)
        if not table.active_seats():
            self._phase = Phase.FINISHED
        self._notify()
        return None

    def _record(self, applied: Sequence[Applied]) -> None:
        """Entries now in the table: in words into the history, as they are into the log."""
        for item in applied:
            entry = item.entry
            text = self.table.describe_entry(entry, item.before)
            self._history.append(HistoryLine(entry.index, entry.seat, text))
            self._writer.append(entry, self.table.hash_of(item.after))

    def _notify(self) -> None:
        self._changes.notify()

    def _kick(self) -> None:
        if self._task is None or self._task.done():
            with contextlib.suppress(RuntimeError):  # no running loop yet: start on next use
                self._task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        while self._phase == Phase.PLAYING:
            waiting = [s for s in self.active_seats() if s != self.seat]
            if not waiting:
                return
            await asyncio.sleep(self._delay)
            seat = waiting[0]
            game, state = self.table.gamedef, self.table.state
            legal = game.legal_actions(state, seat)
            # A bot may think for a second or more: it thinks in a worker thread, so the
            # loop keeps drawing the screen and taking keys meanwhile.
            assert self._bot_thread is not None
            action = await asyncio.to_thread(self._bot_thread.choose, seat,
                                             game.view(state, seat), legal)
            if self._phase != Phase.PLAYING or self.table.state is not state:
                continue  # the table moved on while the bot thought: look again
            refusal = self._apply(seat, action)
            if refusal is not None:
                self._phase = Phase.HALTED
                self._problem = f"bot at seat {seat} chose a refused action: {refusal.message}"
                self._notify()
                return


def _new_log_path(name: str) -> Path:
    """``logs/name``, or ``name`` with ``-2``, ``-3``, ... before its suffix if that is taken
    (a log is never continued by another game)."""
    folder = logs_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
    return path
