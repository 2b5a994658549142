"""The headless seat loop: a bot plays one `Seat` of a networked table to the end.

`play_bot` watches the seat, lets the bot choose whenever the seat may act, and reports
progress through ``emit(event, text, **fields)`` (the command line prints it as a line or
as JSON).  The bot is made exactly as `hedgerow.core.playout` makes it (its random stream
is ``bot/<seat>`` of the table seed), so a table of networked bots plays the very game
``hedgerow simulate`` plays with the same seed.  A bot that comes back with
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
from collections.abc import Callable
from typing import Any, Protocol

from hedgerow.core.chance import CHANCE_SEAT
from hedgerow.core.game import Bot, BotSpec
from hedgerow.core.playout import make_bots
from hedgerow.core.table import Table
from hedgerow.net.messages import LeaveReason, MotionKind, SeatEvent, SeatEventKind
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Link, Phase

#: How long a halted seat waits for the remaining state hashes before it names who diverged.
SETTLE_S = 3.0


class Emit(Protocol):
    """Where progress goes: an event name, a line for people, and data for ``--json``."""

    def __call__(self, event: str, text: str, /, **fields: Any) -> None: ...


def quiet(event: str, text: str, /, **fields: Any) -> None:
    """An `Emit` that reports nothing."""


def make_bot(peer: Peer, spec: BotSpec) -> Bot:
    """The seat's bot, its random stream advanced past the decisions already in the log."""
    assert peer.table is not None
    header = peer.table.header
    bot = make_bots(peer.ruleset, peer.players, header.seed, [spec])[peer.seat]
    replay = Table(peer.ruleset, peer.players, header.seed)
    for entry in peer.table.entries:
        if entry.seat == peer.seat:
            # In a simultaneous step `follow` holds the earlier seats' entries, so the bot
            # sees the step's starting state, as it did when it chose.
            bot.choose(replay.view(peer.seat), replay.legal_actions(peer.seat))
        replay.follow(entry.index, entry.seat, entry.action)
    return bot


def person_alive(peer: Peer) -> bool:
    """True while another seat is a person whose link is up (heartbeats say they are there)."""
    return any(s.bot is None and s.link == Link.CONNECTED for s in peer.seats())


class _Watcher:
    """Turns changes of the seat into progress events, each reported once."""

    def __init__(self, peer: Peer, emit: Emit, verbose: bool, reported: int = 0) -> None:
        self.peer = peer
        self.emit = emit
        self.verbose = verbose
        self.phase: Phase | None = None
        self.links: dict[int, Link] = {}
        #: Lines of ``peer.history()`` already reported (by an earlier run of a resumed seat).
        self.history = reported
        self.waiting: tuple[int, int] | None = None
        self.departed: set[int] = set()  # departures announced (and not settled since)
        self.events = 0  # seat events reported
        self.host_gone = False  # the host was lost before play began (reported once)

    def departures(self) -> None:
        """Announce each departed seat once, with what the table can do, and every seat
        event (a takeover, a reclaim, an agreed end) as it comes into force."""
        dep = self.peer.departures
        now = {d.seat: d for d in dep.departed()}
        for seat, d in now.items():
            if seat in self.departed:
                continue
            who = f"seat {seat}" + (f" ({d.name})" if d.name else "")
            self.emit("departed", f"{who} {d.link.value}: the table can wait for them to "
                      f"return (hedgerow resume), seat a bot in their place, or end the game",
                      seat=seat, link=d.link.value)
        self.departed = set(now)
        for event in dep.events[self.events:]:
            self.emit("seat_event", seat_event_text(event), kind=event.kind.name.lower(),
                      seat=event.seat, runner=event.runner, bot=event.bot, index=event.index)
        self.events = len(dep.events)

    def update(self) -> None:
        peer = self.peer
        phase = peer.phase()
        seats = peer.seats()
        self.departures()
        if peer.host_gone() != self.host_gone:
            self.host_gone = not self.host_gone
            if self.host_gone:
                self.emit("host_gone", "the host is gone before play began; waiting for it to "
                          "re-open the table (hedgerow resume on the host's machine)")
        if phase != self.phase:
            self._phase(phase)
        for info in seats:
            old = self.links.get(info.seat)
            if info.link == old or info.link == Link.YOU:
                continue
            self.links[info.seat] = info.link
            who = f"seat {info.seat}" + (f" ({info.name})" if info.name else "")
            if info.link == Link.CONNECTED and old in (None, Link.WAITING) and \
                    phase == Phase.SEATING:
                self.emit("seat", f"{who} is taken", seat=info.seat, name=info.name)
            elif info.link == Link.CONNECTED and old == Link.LOST:
                self.emit("link", f"{who} is back", seat=info.seat, link="connected")
            elif info.link in (Link.LOST, Link.LEFT):
                self.emit("link", f"{who} {info.link.value}", seat=info.seat,
                          link=info.link.value)
        self._history()
        if phase == Phase.PLAYING:
            index = peer.table.index if peer.table is not None else 0
            lost = [s.seat for s in seats
                    if s.seat in peer.active_seats() and s.link in (Link.LOST, Link.WAITING)
                    and s.seat not in peer.departures.runs]  # (a bot plays a taken seat)
            if lost and self.waiting != (lost[0], index):
                self.waiting = (lost[0], index)
                link = next(s.link for s in seats if s.seat == lost[0])
                self.emit("waiting", f"waiting for seat {lost[0]} ({link.value})",
                          seat=lost[0], index=index)

    def _history(self) -> None:
        """With ``verbose``, one "action" event per history line not reported yet."""
        peer = self.peer
        if self.verbose and peer.table is not None and peer.table.index > self.history:
            history = peer.history()
            for line in history[self.history:]:
                who = "" if line.seat == CHANCE_SEAT else f" seat {line.seat}:"
                self.emit("action", f"#{line.index}{who} {line.text}",  # "#0 chance: deal"
                          index=line.index, seat=line.seat)
            self.history = len(history)

    def _phase(self, phase: Phase) -> None:
        peer = self.peer
        self.phase = phase
        if phase == Phase.SEATING:
            free = sum(1 for s in peer.seats() if s.link == Link.WAITING)
            self.emit("seated", f"seated at seat {peer.seat} of {peer.players} "
                      f"({peer.ruleset.fingerprint}); waiting for {free} more",
                      seat=peer.seat, players=peer.players)
        elif phase == Phase.SEEDING:
            self.emit("seeding", "every seat is taken; agreeing on the seed")
        elif phase == Phase.PLAYING:
            seed = peer.seed.hex() if peer.seed else ""
            self.emit("start", f"seed {seed}; play starts; log {peer.log_path()}",
                      seed=seed, log=str(peer.log_path()))
        elif phase == Phase.FINISHED:
            self._history()  # the whole account, then the result
            outcome = peer.outcome()
            state = peer.state_hash()
            winners = ", ".join(f"seat {w}" for w in outcome.winners) if outcome else "?"
            scores = ", ".join(str(s) for s in outcome.scores) if outcome else "?"
            self.emit("over", f"game over: won by {winners} (scores {scores}); "
                      f"state {state.hex() if state else '?'}")


def seat_event_text(event: SeatEvent, name: Callable[[int], str] | None = None) -> str:
    """A seat event in words, each seat as ``name(seat)`` gives it (default ``seat N``)."""
    who = name or (lambda seat: f"seat {seat}")
    if event.kind == SeatEventKind.TAKEOVER:
        return (f"a {event.bot or 'bot'} bot run by {who(event.runner)} plays for "
                f"{who(event.seat)} from entry #{event.index}")
    if event.kind == SeatEventKind.RECLAIM:
        return f"{who(event.seat)} plays again from entry #{event.index}"
    return f"the table agreed to end the game at entry #{event.index}, with no winner"


class _Proposer:
    """A headless bot peer's policy for departed seats: once a seat has been gone for
    ``after`` seconds, the lowest remaining seat proposes that a bot of ``bot``'s strategy
    takes it over (every remaining bot peer accepts), and proposes again as long as it is
    still gone."""

    def __init__(self, peer: Peer, bot: str, after: float) -> None:
        self.peer = peer
        self.bot = bot
        self.after = after
        self.since: dict[int, float] = {}

    def tick(self, now: float) -> None:
        dep = self.peer.departures
        gone = {d.seat for d in dep.departed()}
        self.since = {s: t for s, t in self.since.items() if s in gone}
        for seat in sorted(gone):
            first = self.since.setdefault(seat, now)
            voters = dep.voters(seat)
            if now - first < self.after or not voters or min(voters) != self.peer.seat:
                continue
            self.since[seat] = now  # again after another ``after`` if this one fails
            dep.propose(MotionKind.TAKEOVER, seat, self.bot)


async def play_bot(peer: Peer, spec: BotSpec | None, *, emit: Emit = quiet,
                   delay: float = 0.0, give_up: float = 120.0, verbose: bool = False,
                   stop: Callable[[], bool] | None = None, reported: int = 0,
                   take_over: float | None = None) -> int:
    """Play ``peer``'s seat with ``spec`` (None: only watch) until the table is done.

    ``delay`` pauses before each of the bot's moves (to watch a game); ``give_up`` is how
    long to wait with nothing happening (a lost seat that never returns) before giving up,
    counted only while no person at the table is connected;
    ``stop()`` is polled every second and ends the loop when true (the parent is gone).
    With ``verbose`` every entry of the table's history is reported once, from the first,
    however many of them the peer already holds when this starts (a joiner may have the
    deal before it is watched); ``reported`` skips the first entries of a resumed seat,
    whose earlier run reported them.  A bot peer accepts every motion about a departed seat
    that its checks pass (docs/protocol.md §5.9); with ``take_over`` it also proposes, as the
    lowest remaining seat, that a bot of its own strategy takes over a seat gone that many
    seconds (without it, a seat that left ends the bot's run).
    """
    loop = asyncio.get_running_loop()
    watcher = _Watcher(peer, emit, verbose, reported)
    bot: Bot | None = None
    rested = False
    last_change = loop.time()
    if peer.departures.accept is None:
        peer.departures.accept = lambda motion: True
    peer.departures.delay = delay  # a bot this peer hosts for a departed seat pauses alike
    proposer = (_Proposer(peer, spec.name, take_over)
                if take_over is not None and spec is not None else None)
    if peer.phase() == Phase.FINISHED:  # resumed from the log of a finished game
        watcher.update()
        return 0
    while True:
        watcher.update()
        phase = peer.phase()
        if phase == Phase.HALTED:
            # Who diverged is named by the majority: let the last reports come in first.
            await peer.wait_until(peer.desync_settled, SETTLE_S)
            emit("halted", f"table halted: {peer.problem()}", problem=peer.problem())
            return 1
        if peer.closed:
            return 1
        if phase == Phase.FINISHED:
            if peer.confirmed_end():
                return 0
        elif proposer is not None and phase == Phase.PLAYING:
            proposer.tick(loop.time())
        elif any(s.link == Link.LEFT and s.seat not in peer.departures.runs
                 for s in peer.seats()) and peer.ready:
            # (Before play began the host seats the table again without the leaver.)
            left = next(s for s in peer.seats()
                        if s.link == Link.LEFT and s.seat not in peer.departures.runs)
            emit("abandoned", f"seat {left.seat} left before the end; the table cannot go on",
                 seat=left.seat, why=left.left_why)
            return 1
        legal = peer.legal_actions() if spec is not None else ()
        if legal and spec is not None:
            if bot is None:
                bot = make_bot(peer, spec)
            if delay and not rested:
                await asyncio.sleep(delay)
                rested = True
                continue  # things may have changed meanwhile: look again
            rested = False
            # The bot thinks in a worker thread: heartbeats and replies go on meanwhile.
            index = peer.table.index if peer.table is not None else -1
            action = await asyncio.to_thread(bot.choose, peer.view(), legal)
            if peer.table is None or peer.table.index != index or peer.phase() != phase:
                continue  # the table moved on while the bot thought: look again
            refusal = await peer.submit(action)
            if refusal is not None:
                emit("refused", f"the bot's action was refused: {refusal}")
                return 1
            last_change = loop.time()
            continue
        try:
            await asyncio.wait_for(peer.changed(), 1.0)
            last_change = loop.time()
        except TimeoutError:
            if stop is not None and stop():
                emit("stopped", "stopping: the program that started this bot is gone")
                return 1
            if phase != Phase.FINISHED and person_alive(peer):
                last_change = loop.time()  # a person is thinking: wait for them
            if loop.time() - last_change > give_up:
                if phase == Phase.FINISHED:
                    emit("unconfirmed", "some seats did not confirm the end; leaving anyway")
                    return 0
                emit("gave_up", f"giving up: nothing happened for {give_up:g} s")
                await peer.close(f"gave up: nothing happened for {give_up:g} s",
                                 LeaveReason.GAVE_UP)
                return 1
