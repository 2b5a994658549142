"""The headless bot runner: a bot plays one `Seat` of a networked table to the end.

`BotRunner` (made with its options; `play_bot` makes one and runs it) watches the seat,
lets the bot choose whenever the seat may act, and reports progress through
``emit(event, text, **fields)`` (the command line prints it as a line or as JSON).  It
holds the seat only through the `hedgerow.net.seat.Seat` protocol, like the seat client
(tests/clients/test_seat_seam.py fails if it imports the peer).  The bot is made exactly
as `hedgerow.core.playout` makes it (its random stream is ``bot/<seat>`` of the table
seed), so a table of networked bots plays the very game ``hedgerow simulate`` plays with
the same seed.  A bot that comes back with
``hedgerow resume`` first replays its own past decisions to put its stream where it was.

It returns an exit status: 0 once the game is over and every other seat confirmed the end
(or ``give_up`` seconds passed), 1 when the table halted, a seat left before the end, the
bot's action was refused, or nothing happened for ``give_up`` seconds.

``give_up`` is for headless tables: while a person's seat is connected (its heartbeats
arrive), a bot waits for them however long they think, so the clock only runs while no
person at the table is alive.  A game already over when the bot starts (``hedgerow resume``
of a finished log) ends at once: there is nothing left to confirm.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from hedgerow.core import playout
from hedgerow.core.actions import Action
from hedgerow.core.chance import CHANCE_SEAT
from hedgerow.core.game import Bot, BotSpec
from hedgerow.core.playout import make_bots
from hedgerow.core.table import Table
from hedgerow.net.messages import LeaveReason, MotionKind, SeatEvent, SeatEventKind
from hedgerow.net.seat import Link, Phase, Seat, SeatInfo, within

#: How long a halted seat waits for the remaining state hashes before it names who diverged.
SETTLE_S = 3.0


class Emit(Protocol):
    """Where progress goes: an event name, a line for people, and data for ``--json``."""

    def __call__(self, event: str, text: str, /, **fields: Any) -> None: ...


def quiet(event: str, text: str, /, **fields: Any) -> None:
    """An `Emit` that reports nothing."""


def make_bot(seat: Seat, spec: BotSpec) -> Bot:
    """The seat's bot, its random stream advanced past the decisions already in the log.

    At a sealed table the past cannot be replayed (the seed deals no card, and this
    process knows only what its seat was shown): a bot that comes back to a game under way
    draws from a fork of its stream named after the entry it comes back at, so its choices
    stay repeatable without seeing what it must not.
    """
    seed = seat.seed
    assert seed is not None
    if seat.sealed:
        stream = f"resumed/{seat.index}" if seat.index else ""
        return playout.make_bot(seat.ruleset, seat.players, seed, spec, seat.seat,
                                stream=stream)
    bot = make_bots(seat.ruleset, seat.players, seed, [spec])[seat.seat]
    replay = Table(seat.ruleset, seat.players, seed)
    for entry in seat.entries():
        if entry.seat == seat.seat:
            # In a simultaneous step `follow` holds the earlier seats' entries, so the bot
            # sees the step's starting state, as it did when it chose.
            bot.choose(replay.view(seat.seat), replay.legal_actions(seat.seat))
        replay.follow(entry.index, entry.seat, entry.action)
    return bot


def person_alive(seat: Seat) -> bool:
    """True while another seat is a person whose link is up (heartbeats say they are there)."""
    return any(s.bot is None and s.link == Link.CONNECTED for s in seat.seats())


class _Watcher:
    """Turns changes of the seat into progress events, each reported once."""

    def __init__(self, seat: Seat, emit: Emit, verbose: bool, reported: int = 0) -> None:
        self.seat = seat
        self.emit = emit
        self.verbose = verbose
        self.phase: Phase | None = None
        self.links: dict[int, Link] = {}
        #: Lines of ``seat.history()`` already reported (by an earlier run of a resumed seat).
        self.history = reported
        self.waiting: tuple[int, int] | None = None
        self.departed: set[int] = set()  # departures announced (and not settled since)
        self.events = 0  # seat events reported
        self.host_gone = False  # the host was lost before play began (reported once)

    def departures(self) -> None:
        """Announce each departed seat once, with what the table can do, and every seat
        event (a takeover, a reclaim, an agreed end) as it comes into force."""
        board = self.seat.departures
        now = {d.seat: d for d in board.departed()}
        for seat, d in now.items():
            if seat in self.departed:
                continue
            who = f"seat {seat}" + (f" ({d.name})" if d.name else "")
            self.emit("departed", f"{who} {d.link.value}: the table can wait for them to "
                      f"return (hedgerow resume), seat a bot in their place, or end the game",
                      seat=seat, link=d.link.value)
        self.departed = set(now)
        events = board.events
        for event in events[self.events:]:
            self.emit("seat_event", seat_event_text(event), kind=event.kind.name.lower(),
                      seat=event.seat, runner=event.runner, bot=event.bot, index=event.index)
        self.events = len(events)

    def update(self) -> None:
        seat = self.seat
        phase = seat.phase()
        seats = seat.seats()
        self.departures()
        if seat.host_gone() != self.host_gone:
            self.host_gone = not self.host_gone
            if self.host_gone:
                self.emit("host_gone", "the host is gone before play began; waiting for it to "
                          "re-open the table (hedgerow resume on the host's machine)")
        entered = phase != self.phase
        if entered:
            self._phase(phase)
        freed = False
        for info in seats:
            old = self.links.get(info.seat)
            if info.link == old or info.link == Link.YOU:
                continue
            self.links[info.seat] = info.link
            freed |= info.link == Link.WAITING and old not in (None, Link.WAITING)
            who = f"seat {info.seat}" + (f" ({info.name})" if info.name else "")
            if info.link == Link.CONNECTED and old in (None, Link.WAITING) and \
                    phase == Phase.SEATING:
                self.emit("seat", f"{who} is taken", seat=info.seat, name=info.name)
            elif info.link == Link.CONNECTED and old == Link.LOST:
                self.emit("link", f"{who} is back", seat=info.seat, link="connected")
            elif info.link in (Link.LOST, Link.LEFT):
                self.emit("link", f"{who} {info.link.value}", seat=info.seat,
                          link=info.link.value)
        if freed and phase == Phase.SEATING and not entered:
            # Back to seating with a seat free again (a seed round abandoned), though this
            # loop never saw the seeding in between: say so as on entering seating.
            self._phase(phase)
        self._history()
        if phase == Phase.PLAYING:
            index = seat.index
            lost = [s.seat for s in seats
                    if s.seat in seat.active_seats() and s.link in (Link.LOST, Link.WAITING)
                    and s.run_by is None]  # (a bot plays a taken seat)
            if lost and self.waiting != (lost[0], index):
                self.waiting = (lost[0], index)
                link = next(s.link for s in seats if s.seat == lost[0])
                self.emit("waiting", f"waiting for seat {lost[0]} ({link.value})",
                          seat=lost[0], index=index)

    def _history(self) -> None:
        """With ``verbose``, one "action" event per history line not reported yet."""
        seat = self.seat
        if self.verbose and seat.index < self.history:
            self.history = len(seat.history())  # our entries were taken back (a rollback)
        if self.verbose and seat.index > self.history:
            history = seat.history()
            for line in history[self.history:]:
                who = "" if line.seat == CHANCE_SEAT else f" seat {line.seat}:"
                self.emit("action", f"#{line.index}{who} {line.text}",  # "#0 chance: deal"
                          index=line.index, seat=line.seat)
            self.history = len(history)

    def _phase(self, phase: Phase) -> None:
        seat = self.seat
        previous, self.phase = self.phase, phase
        if phase == Phase.SEATING:
            free = sum(1 for s in seat.seats() if s.link == Link.WAITING)
            self.emit("seated", f"seated at seat {seat.seat} of {seat.players} "
                      f"({seat.ruleset.fingerprint}); waiting for {free} more",
                      seat=seat.seat, players=seat.players)
        elif phase == Phase.SEEDING:
            self.emit("seeding", "every seat is taken; agreeing on the seed")
        elif phase == Phase.PLAYING and previous == Phase.FINISHED:
            self.emit("playing", "play goes on: our last move never reached the table")
        elif phase == Phase.PLAYING:
            seed = seat.seed.hex() if seat.seed else ""
            self.emit("start", f"seed {seed}; play starts; log {seat.log_path()}",
                      seed=seed, log=str(seat.log_path()))
        elif phase == Phase.FINISHED:
            self._history()  # the whole account, then the result
            outcome = seat.outcome()
            state = seat.state_hash()
            state_text = f"state {state.hex() if state else '?'}"
            if outcome is None and seat.departures.ended is not None:
                # (the rules were not asked: "won by ?" read as a fault, found by check-peer)
                self.emit("over", f"game over: the table agreed to end it, no winner; "
                          f"{state_text}")
                return
            winners = ", ".join(f"seat {w}" for w in outcome.winners) if outcome else "?"
            scores = ", ".join(str(s) for s in outcome.scores) if outcome else "?"
            self.emit("over", f"game over: won by {winners} (scores {scores}); {state_text}")


def seat_event_text(event: SeatEvent, name: Callable[[int], str] | None = None) -> str:
    """A seat event in words, each seat as ``name(seat)`` gives it (default ``seat N``)."""
    who = name or (lambda seat: f"seat {seat}")
    if event.kind == SeatEventKind.TAKEOVER:
        return (f"a {event.bot or 'bot'} bot run by {who(event.runner)} plays for "
                f"{who(event.seat)} from entry #{event.index}")
    if event.kind == SeatEventKind.RECLAIM:
        return f"{who(event.seat)} plays again from entry #{event.index}"
    if event.kind == SeatEventKind.ROLLBACK:
        return (f"{who(event.seat)} was cut off at its own turn: its own entries from "
                f"#{event.index}, which nobody else had, are taken back for the table's "
                f"(a {event.bot or 'bot'} bot run by {who(event.runner)} played them)")
    return f"the table agreed to end the game at entry #{event.index}, with no winner"


class _Proposer:
    """A headless bot peer's policy for departed seats: once a seat has been gone for
    ``after`` seconds, the lowest remaining seat proposes that a bot of ``bot``'s strategy
    takes it over (every remaining bot peer accepts), and proposes again as long as it is
    still gone."""

    def __init__(self, seat: Seat, bot: str, after: float) -> None:
        self.seat = seat
        self.bot = bot
        self.after = after
        self.since: dict[int, float] = {}

    def tick(self, now: float) -> None:
        board = self.seat.departures
        gone = {d.seat for d in board.departed()}
        self.since = {s: t for s, t in self.since.items() if s in gone}
        for seat in sorted(gone):
            first = self.since.setdefault(seat, now)
            voters = board.voters(seat)
            if now - first < self.after or not voters or min(voters) != self.seat.seat:
                continue
            self.since[seat] = now  # again after another ``after`` if this one fails
            board.propose(MotionKind.TAKEOVER, seat, self.bot)


class BotRunner:
    """Plays ``seat`` with ``spec`` (None: only watches) until the table is done (`run`).

    ``delay`` pauses before each of the bot's moves (to watch a game); ``give_up`` is how
    long to wait with nothing happening (a lost seat that never returns) before giving up,
    counted only while no person at the table is connected;
    ``stop()`` is polled every second and ends the run when true (the parent is gone).
    With ``verbose`` every entry of the table's history is reported once, from the first,
    however many of them the seat already holds when this starts (a joiner may have the
    deal before it is watched); ``reported`` skips the first entries of a resumed seat,
    whose earlier run reported them.  A bot's seat accepts every motion about a departed
    seat that its checks pass (docs/protocol.md §5.9); with ``take_over`` it also proposes,
    as the lowest remaining seat, that a bot of its own strategy takes over a seat gone that
    many seconds (without it, a seat that left ends the bot's run).
    """

    def __init__(self, seat: Seat, spec: BotSpec | None, *, emit: Emit = quiet,
                 delay: float = 0.0, give_up: float = 120.0, verbose: bool = False,
                 stop: Callable[[], bool] | None = None, reported: int = 0,
                 take_over: float | None = None) -> None:
        self.seat = seat
        self.spec = spec
        self.emit = emit
        self.delay = delay
        self.give_up = give_up
        self.stop = stop
        self._watcher = _Watcher(seat, emit, verbose, reported)
        self._proposer = (_Proposer(seat, spec.name, take_over)
                          if take_over is not None and spec is not None else None)
        self._bot: Bot | None = None

    async def run(self) -> int:
        """Play until the table is done; the exit status (see the module docstring)."""
        seat, emit, spec = self.seat, self.emit, self.spec
        loop = asyncio.get_running_loop()
        rested = False
        judged = False  # a seat that halted left, and this peer took in what was on its way
        last_change = loop.time()
        # Nobody is there to ask: the seat votes by itself, and a bot it hosts for a
        # departed seat pauses as this one does.
        seat.departures.run_headless(self.delay)
        if seat.phase() == Phase.FINISHED:  # resumed from the log of a finished game
            self._watcher.update()
            return 0
        while True:
            self._watcher.update()
            phase = seat.phase()
            if phase == Phase.HALTED:
                # Who diverged is named by the majority: let the last reports come in first.
                await seat.wait_until(seat.desync_settled, SETTLE_S)
                emit("halted", f"table halted: {seat.problem()}", problem=seat.problem())
                return 1
            if seat.closed:
                return 1
            if phase == Phase.FINISHED:
                if seat.confirmed_end():
                    return 0
            elif self._proposer is not None and phase == Phase.PLAYING:
                self._proposer.tick(loop.time())
            elif seat.ready and (left := self._left()) is not None:
                # (Before play began the host seats the table again without the leaver.)
                if left.left_why == "halted" and not judged:
                    # The leaver halted its table: what it caught (a reveal that breaks its
                    # commitment, docs/protocol.md §3.3) was sent to this peer too and may
                    # still be on its way here, behind the Leave on another link.  Every
                    # honest peer judges a cheat itself, so take in what arrives first.
                    judged = True
                    await seat.wait_until(lambda: seat.phase() == Phase.HALTED, SETTLE_S)
                    continue
                emit("abandoned", f"seat {left.seat} left before the end; the table cannot "
                     "go on", seat=left.seat, why=left.left_why)
                return 1
            legal = seat.legal_actions() if spec is not None else ()
            if legal and spec is not None:
                if self.delay and not rested:
                    await asyncio.sleep(self.delay)
                    rested = True
                    continue  # things may have changed meanwhile: look again
                rested = False
                if not await self._move(legal, phase):
                    return 1
                last_change = loop.time()
                continue
            if await within(seat.changed(), 1.0):
                last_change = loop.time()
            else:
                if self.stop is not None and self.stop():
                    emit("stopped", "stopping: the program that started this bot is gone")
                    return 1
                if phase != Phase.FINISHED and person_alive(seat):
                    last_change = loop.time()  # a person is thinking: wait for them
                if loop.time() - last_change > self.give_up:
                    return await self._gave_up(phase)

    def _left(self) -> SeatInfo | None:
        """A seat that left, and that no bot plays for its player."""
        return next((s for s in self.seat.seats() if s.link == Link.LEFT and s.run_by is None),
                    None)

    async def _move(self, legal: Sequence[Action], phase: Phase) -> bool:
        """The bot chooses and the seat submits; False once the action was refused."""
        seat = self.seat
        assert self.spec is not None
        if self._bot is None:
            self._bot = make_bot(seat, self.spec)
        # The bot thinks in a worker thread: heartbeats and replies go on meanwhile.
        index = seat.index
        action = await asyncio.to_thread(self._bot.choose, seat.view(), legal)
        if seat.index != index or seat.phase() != phase:
            return True  # the table moved on while the bot thought: look again
        refusal = await seat.submit(action)
        if refusal is not None:
            self.emit("refused", f"the bot's action was refused: {refusal}")
            return False
        return True

    async def _gave_up(self, phase: Phase) -> int:
        """Nothing happened for ``give_up`` seconds: leave (the end was not confirmed by
        every seat, or the table stands still)."""
        if phase == Phase.FINISHED:
            self.emit("unconfirmed", "some seats did not confirm the end; leaving anyway")
            return 0
        self.emit("gave_up", f"giving up: nothing happened for {self.give_up:g} s")
        await self.seat.close(f"gave up: nothing happened for {self.give_up:g} s",
                              LeaveReason.GAVE_UP)
        return 1


async def play_bot(seat: Seat, spec: BotSpec | None, **options: Any) -> int:
    """Play ``seat`` with ``spec`` until the table is done: ``BotRunner(seat, spec,
    **options).run()`` (the options are `BotRunner`'s)."""
    return await BotRunner(seat, spec, **options).run()
