"""A saved game as a film: every log entry replayed, with the table at rest after each.

`load_film` reads a table log (`hedgerow.net.logfile.read_log`), replays it with the
installed rules (`hedgerow.net.logverify.replay`: an open deck from its seed, a sealed
deck from its shuffle and key records) and keeps one `Frame` per entry: the entry, the
state the table rested in after it, the state its seat chose against, and the entry in
words.  Nothing here draws; the replay viewer (`hedgerow.clients.watch`) reads a `Film`.

**What a film can show of a seat** (`Sight`):

* an open-deck log (a local game, a table opened with ``--open-deck``): every hand, since
  the seed names every card;
* a sealed log whose game ended and verified (every party disclosed its secret, docs/
  protocol.md §10.9): every hand, every card by its face (``Verdict.faces``);
* any other sealed log (the game not over, a secret never disclosed, a deck that does not
  verify): the public cards, and the log writer's own cards when its seal file (the
  table's secret, ``LOG.seal``) is beside the log — nobody else's.  `Film.why_hidden` says
  why, in words, for the screen.

**The state shown after an entry** is the table at rest: at a sealed table the cards shown
to everyone at that point (a garden's starting card, a card played) are in it, as every
seat saw them, while cards shown later are not.  It is the state the next entry was
applied to (the last entry's: the table's final state).

**Where the film starts**: after the log's leading chance entries (the deal), on the first
entry there is something to see; a log of nothing but those starts on its last one.

**Rounds** (`Film.rounds`): a round is once around the table — it ends where a seat that
already moved in it moves again (several entries of one seat in a row are one turn, and a
simultaneous step's choices one round; at a table of one seat, each move).  It is the
client's own measure, for stepping by more than one entry; a game's own rounds
(Flourish's four) may hold several.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.errors import HedgerowError
from hedgerow.core.outcome import Outcome
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealed import Key, SealedRead, plain, substitute, tokens_in
from hedgerow.core.sealedtable import SealedTable
from hedgerow.core.table import Applied, LogEntry, Table
from hedgerow.net.logfile import LogReadResult
from hedgerow.net.messages import LogHeader, SeatEvent, SeatEventKind

OPEN, SEALED = "open", "sealed"


@dataclass(frozen=True, slots=True)
class Frame:
    """One entry of the film and the table at rest after it.

    ``chose`` is the state the entry's seat chose against (a simultaneous step's start, the
    state before a turn; for chance, the state before it); ``text`` is the entry in the
    rules' words (seats by number: "Seat 1 plays …"); ``round`` counts from 1 (0 for the
    chance entries before the first move); ``events`` are the seat events (a takeover, a
    return, an agreed end) that came into force at this entry.
    """

    entry: LogEntry
    state: Any
    chose: Any
    text: str
    round: int
    events: tuple[SeatEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class Sight:
    """What a film can show: every card (``every``: an open deck, or the faces of a verified
    sealed game in ``faces``), or the writer's own (``own``: faces shown to ``own_seat``,
    from its seal file); ``why`` says why other hands cannot be shown, ``why_own`` why the
    writer's cannot either (when they cannot)."""

    every: bool
    faces: Mapping[Key, object] = field(default_factory=dict)
    own_seat: int | None = None
    own: Mapping[Key, object] = field(default_factory=dict)
    why: str = ""
    why_own: str = ""

    def knows(self, seat: int) -> Mapping[Key, object]:
        """The faces that can be put into ``seat``'s view (beyond the public ones)."""
        if self.every:
            return self.faces
        return self.own if seat == self.own_seat else {}

    def sees(self, seat: int) -> bool:
        """Whether ``seat``'s hidden cards can be shown."""
        return self.every or (seat == self.own_seat and not self.why_own)


class Film:
    """A replayed log, frame by frame (see the module docstring)."""

    def __init__(self, path: Path, header: LogHeader, ruleset: Ruleset, frames: Sequence[Frame],
                 *, sight: Sight, deck: str, names: Sequence[str], outcome: Outcome | None,
                 ended: SeatEvent | None = None, problem: str | None = None,
                 verdict: str | None = None) -> None:
        self.path = path
        self.header = header
        self.ruleset = ruleset
        self.gamedef = ruleset.gamedef
        self.frames = tuple(frames)
        self.sight = sight
        self.deck = deck
        self.names = list(names)
        #: The result once the game is over (at the last frame), else None.
        self.outcome = outcome
        #: The table's agreement to end the game with no winner, if it ended so.
        self.ended = ended
        #: Why the film stops short of the log's end (damage, a mismatch), in words.
        self.problem = problem
        #: At a sealed table: what the verification of its deck found, in words (None while
        #: a secret is missing).
        self.verdict = verdict
        self.first = _first(self.frames)
        self.rounds = _round_starts(self.frames)
        self._hidden: dict[tuple[int, int], bool] = {}

    # -- the film's shape ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.header.players

    @property
    def last(self) -> int:
        """The index of the last frame."""
        return len(self.frames) - 1

    @property
    def over(self) -> bool:
        """True when the log holds the end of the game (a result, or an agreed end)."""
        return self.outcome is not None or self.ended is not None

    def round_of(self, at: int) -> int:
        """The round frame ``at`` belongs to (0: the deal, before any move)."""
        return self.frames[at].round

    # -- what a seat sees ---------------------------------------------------------------------

    def state(self, at: int, seat: int) -> Any:
        """The state after frame ``at`` with every card ``seat`` may be shown put in."""
        return substitute(self.frames[at].state, self.sight.knows(seat))

    def view(self, at: int, seat: int) -> Any:
        """``seat``'s view after frame ``at``, as plain faces (a card this film cannot show
        stays a sealed token: see `hidden`)."""
        return plain(self.gamedef.view(self.state(at, seat), seat))

    def hidden(self, at: int, seat: int) -> bool:
        """True when ``seat``'s view after frame ``at`` holds cards this film cannot show
        (asked at every redraw: kept once known)."""
        known = self._hidden.get((at, seat))
        if known is None:
            known = self._hidden[(at, seat)] = next(tokens_in(self.view(at, seat)),
                                                    None) is not None
        return known

    def why_hidden(self, seat: int) -> str:
        """Why ``seat``'s cards cannot be shown, in words (seats by name)."""
        who = self.names[seat]
        if seat == self.sight.own_seat and self.sight.why_own:
            return f"{who}'s cards are sealed: {self.sight.why_own}."
        return f"{who}'s cards are sealed: {self.sight.why}."

    def active(self, at: int) -> tuple[int, ...]:
        """The seats to move after frame ``at`` (none at the end)."""
        if at == self.last and self.over:
            return ()
        return tuple(self.gamedef.active_seats(self.frames[at].state))

    def chooser_view(self, at: int) -> tuple[Any, Action] | None:
        """For a seat's entry at frame ``at``: its view of the state it chose against and its
        action, every card in them plain, so that the game can preview the move (what it
        scored); None for chance, or when the film cannot show that seat's cards."""
        frame = self.frames[at]
        entry = frame.entry
        if entry.is_chance:
            return None
        knows = self.sight.knows(entry.seat)
        view = self.gamedef.view(substitute(frame.chose, knows), entry.seat)
        action = substitute(entry.action, knows)
        if next(tokens_in(view), None) is not None or next(tokens_in(action), None) is not None:
            return None
        return plain(view), plain(action)


def _first(frames: Sequence[Frame]) -> int:
    """The first frame worth showing: the last of the leading chance entries (the deal)."""
    for i, frame in enumerate(frames):
        if not frame.entry.is_chance:
            return max(0, i - 1)
    return max(0, len(frames) - 1)


def _round_starts(frames: Sequence[Frame]) -> tuple[int, ...]:
    """The frames each round begins with (the first frame of round 1, 2, …)."""
    return tuple(i for i, frame in enumerate(frames)
                 if frame.round and (i == 0 or frames[i - 1].round != frame.round))


def number_rounds(entries: Sequence[LogEntry], players: int = 2) -> list[int]:
    """The round of each entry (see the module docstring): 0 before the first move; a chance
    entry belongs to the round of the move before it.  At a table of one seat, where no
    other seat's move tells one turn from the next, each move is a round."""
    rounds: list[int] = []
    current, moved, previous = 0, set[int](), None
    for entry in entries:
        if not entry.is_chance:
            if current == 0 or players == 1 or (entry.seat in moved and entry.seat != previous):
                current += 1
                moved = set()
            moved.add(entry.seat)
            previous = entry.seat
        rounds.append(current)
    return rounds


# -- loading -------------------------------------------------------------------------------------


def load_film(path: str | Path, plugins: PluginHost) -> Film:
    """Read and replay the log at ``path`` (see the module docstring).  `HedgerowError` when
    it cannot be read, is not a table log, needs rules that are not installed here, or holds
    no entry; a log damaged or refused part of the way is filmed as far as it replays, with
    ``problem`` saying where and why it stops."""
    from hedgerow.net import rulesmatch
    from hedgerow.net.logfile import read_log
    from hedgerow.net.logverify import replay

    path = Path(path)
    try:
        result = read_log(path)
    except FileNotFoundError:
        raise HedgerowError(f"no such log file: {path}") from None
    except IsADirectoryError:
        raise HedgerowError(f"{path} is a folder, not a table log") from None
    except OSError as exc:
        raise HedgerowError(f"cannot read {path}: {exc.strerror or exc}") from None
    header = result.header
    if header is None:
        raise HedgerowError(f"{path} is not a table log: {result.problem}")
    ruleset = rulesmatch.ruleset_for(plugins, header.fingerprint, header.players)
    history: list[Applied] = []
    tables: list[Table] = []

    def keep(table: Table, applied: Applied) -> None:
        history.append(applied)
        if not tables:
            tables.append(table)

    report = replay(ruleset, result, on_step=keep)
    table = report.table
    if table is None or not history:
        why = report.mismatch or result.problem or "the game never started"
        raise HedgerowError(f"{path} holds no entry to watch ({why})")
    verdict = report.verdict
    sight = _sight(path, header, ruleset, result, report.sealed, verdict, table)
    names = [(header.seat_names[s] if s < len(header.seat_names) else "") or f"Seat {s}"
             for s in range(header.players)]
    names = [f"{n} ({s})" if names.count(n) > 1 else n for s, n in enumerate(names)]
    # Every card the log can name, for the entries' words: those shown to everyone by the
    # log's end (a card played), the writer's own, a verified deck's.
    shown = table.public if isinstance(table, SealedTable) else {}
    words = {**shown, **sight.own, **sight.faces}
    final = table.state if table.index == len(history) else history[-1].after
    rests = [history[i + 1].before for i in range(len(history) - 1)] + [final]
    frames = _frames(ruleset, header.players, history, rests, words, result.events)
    ended = next((e for e in result.events if e.kind == SeatEventKind.END), None)
    problem = None
    if report.mismatch is not None:
        problem = f"the log does not replay past entry #{len(history) - 1}: {report.mismatch}"
    elif result.problem is not None:
        problem = f"the file is damaged after entry #{len(history) - 1}: {result.problem}"
    outcome = plain(table.outcome()) if report.mismatch is None else None
    return Film(path, header, ruleset, frames, sight=sight,
                deck=SEALED if report.sealed else OPEN, names=names, outcome=outcome,
                ended=ended, problem=problem,
                verdict=verdict.message if verdict is not None else None)


def _frames(ruleset: Ruleset, players: int, history: Sequence[Applied], rests: Sequence[Any],
            words: Mapping[Key, object], events: Sequence[SeatEvent], *,
            text: Callable[[Applied], str] | None = None) -> list[Frame]:
    """One frame per entry of ``history`` (``text``: an entry in words, `describe` by
    default; a live film keeps them as it grows)."""
    gamedef = ruleset.gamedef
    rounds = number_rounds([a.entry for a in history], players)
    frames = []
    waiting: set[int] = set()  # the seats still to choose in a simultaneous step
    start: Any = None
    pending = list(events)
    for i, applied in enumerate(history):
        entry = applied.entry
        if entry.is_chance:
            chose = applied.before
        else:
            if not waiting:
                active = tuple(gamedef.active_seats(applied.before))
                start = applied.before
                waiting = set(active) if len(active) > 1 else set()
            chose = start if waiting else applied.before
            waiting.discard(entry.seat)
        here = tuple(e for e in pending if e.index <= entry.index or i == len(history) - 1)
        pending = [e for e in pending if e not in here]
        said = text(applied) if text is not None else describe(ruleset, applied, words)
        frames.append(Frame(entry, rests[i], chose, said, rounds[i], here))
    return frames


def describe(ruleset: Ruleset, applied: Applied, faces: Mapping[Key, object]) -> str:
    """An entry in the rules' words, with every card of ``faces`` named (a card the log
    cannot name stays unnamed: "a hidden card")."""
    gamedef = ruleset.gamedef
    entry = applied.entry
    if entry.is_chance:
        chance = gamedef.pending_chance(applied.before)
        return f"chance: {chance.label}" if chance is not None else "chance"
    try:
        return str(gamedef.describe(substitute(applied.before, faces), entry.seat,
                                    substitute(entry.action, faces)))
    except SealedRead:
        return f"Seat {entry.seat}: {entry.action.kind} (a hidden card)"


def _sight(path: Path, header: LogHeader, ruleset: Ruleset, result: LogReadResult,
           sealed: bool, verdict: Any, table: Table) -> Sight:
    """What the film can show (`Sight`), reading the writer's seal file when it must."""
    if not sealed:
        return Sight(True)
    if verdict is not None and verdict.ok and verdict.faces:
        return Sight(True, dict(verdict.faces))
    if verdict is not None and not verdict.ok:
        why = f"the sealed deck does not verify ({verdict.message})"
    elif table.outcome() is None and not any(e.kind == SeatEventKind.END
                                             for e in result.events):
        why = "the game is not over (a sealed deck opens every hand once it ends)"
    else:
        why = "not every seat disclosed its secret at the end of the game"
    own_seat = header.own_seat
    if own_seat is None:
        return Sight(False, why=why)
    own, why_own = _own_cards(path, header, ruleset, result)
    return Sight(False, own_seat=own_seat, own=own, why=why, why_own=why_own)


def _own_cards(path: Path, header: LogHeader, ruleset: Ruleset, result: LogReadResult,
               ) -> tuple[dict[Key, object], str]:
    """The cards shown to the writer's seat, opened with its seal file (the table's secret
    kept beside the log); ({}, why not) without it."""
    from hedgerow.net import sealfile
    from hedgerow.net.sealreplay import replay_sealed

    me = header.own_seat
    assert me is not None
    seal = sealfile.path_for(path)
    if not seal.exists():
        return {}, f"the log's secret ({seal.name}) is not beside it"
    try:
        secret = sealfile.load(path)
    except HedgerowError as exc:
        return {}, f"the log's secret cannot be read ({exc.message})"
    # Party p is seat p, as `hedgerow replay --verify` counts them (one peer per seat).
    done = replay_sealed(ruleset, result, parties=header.players, party_of=lambda s: s,
                         me=me, secret=secret, seats=[me])
    if done.table is None or done.mismatch is not None:
        return {}, f"the log does not replay with the table's secret ({done.mismatch})"
    return dict(done.table.mine), ""
