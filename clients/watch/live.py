"""Watching a live table: the replay viewer over a film that grows as the game is played.

``hedgerow watch HOST:PORT/KEY`` is a spectator (`hedgerow.net.watching.Spectator`, docs/
protocol.md §3.4): the host streams it the table's public records, which it replays as they
come.  This module shows that table on the replay viewer's screen (`hedgerow.clients.
watch`), which is the seat client's screen read-only:

* `LiveFilms` makes a `Film` of what the spectator holds whenever it grows (each entry put
  in words once);
* `LiveSeat` is the viewer's `ReplaySeat` with what only a live table has: the seats lost
  or left (the players table shows them), a bot playing a seat (a takeover in force), the
  table halted or its host gone;
* `LiveWatch` follows the game: on the last frame it moves on with each new entry (the
  title says "live"); stepped back (← ↑ Home), it stays where it is until End brings it
  back to the live end;
* `LiveApp` is the viewer with a title and key line of its own: who is to move (who the
  table is thinking about), how many watch, whose eyes (``s`` / ``S``), entry and round.

What a spectator sees is the public state: at a sealed table the cards shown to everyone,
every hand sealed (the hand pane says so); at an open-deck table nothing is secret from
anyone at it (every peer computes every card from the seed), and the viewer shows the hand
of the seat it looks through, as the replay of an open log does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.styles import merge_styles

from hedgerow.clients.app import results as results_screen
from hedgerow.clients.app.filters import build_filters
from hedgerow.clients.app.gameui import ClientUI, load_ui
from hedgerow.clients.app.layout import build_layout
from hedgerow.clients.app.render import wrap
from hedgerow.clients.app.state import SeatState
from hedgerow.clients.app.style import STYLE
from hedgerow.clients.watch.application import WATCH_STYLE, WatchApp
from hedgerow.clients.watch.film import OPEN, SEALED, Film, Sight, _frames, describe
from hedgerow.clients.watch.keys import build_key_bindings
from hedgerow.clients.watch.render import (
    fit_title,
    game_words,
    help_text,
    to_move,
    watch_panes,
)
from hedgerow.clients.watch.replayseat import ReplaySeat
from hedgerow.clients.watch.state import WatchState
from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import plain
from hedgerow.core.sealedtable import SealedTable
from hedgerow.core.table import Applied
from hedgerow.net.messages import SeatEventKind
from hedgerow.net.seat import Link, Phase, SeatInfo, within
from hedgerow.net.watching import Spectator

#: The line under the results of a sealed game.
SPECTATOR_CHECK = ("Sealed deck: each player's program checks every shuffle, key and action "
                   "now; a spectator is given no secret to check them with.")
#: What the help says first about watching a live table.
LIVE_HELP = ("You are a spectator: each move shows as it is made, and the players see "
             "that you watch; q leaves without changing anything at the table.  Every key "
             "below works on the game so far: ← and Home step back, End returns to the "
             "newest move.  ")
#: Why a spectator's film shows no hand at a sealed table.
SPECTATOR_SIGHT = "a spectator is shown only the cards shown to everyone"


class LiveFilms:
    """The films of ``spectator``'s table (see the module docstring); ``where`` names the
    table (its address) where a replay names its log."""

    def __init__(self, spectator: Spectator, where: str) -> None:
        self.spectator = spectator
        self.where = where
        self._texts: dict[int, str] = {}
        self._made: tuple[int, int, object] | None = None
        self._film: Film | None = None

    def names(self) -> list[str]:
        """The seats' names, as the host's seating gives them."""
        spec = self.spectator
        by_seat = {p.seat: p.display_name for p in spec.peers}
        live = spec.live
        names = [by_seat.get(s) or (live.header.seat_names[s] if live is not None
                                    and s < len(live.header.seat_names) else "")
                 or f"Seat {s}" for s in range(spec.players)]
        return [f"{n} ({s})" if names.count(n) > 1 else n for s, n in enumerate(names)]

    def film(self) -> Film | None:
        """The film of everything the spectator holds now (None before the first entry)."""
        live = self.spectator.live
        if live is None or live.table is None or not live.history:
            return None
        table = live.table
        mark = (len(live.history), len(live.events), table.index)
        if self._film is not None and self._made == mark:
            return self._film
        ruleset = live.ruleset
        history = list(live.history)
        words = table.public if isinstance(table, SealedTable) else {}

        def text(applied: Applied) -> str:
            index = applied.entry.index
            if index not in self._texts:
                self._texts[index] = describe(ruleset, applied, words)
            return self._texts[index]

        rests = [history[i + 1].before for i in range(len(history) - 1)] + [live.state()]
        frames = _frames(ruleset, live.header.players, history, rests, words, live.events,
                         text=text)
        sealed = live.sealed
        over = table.outcome() if len(history) == table.index else None
        ended = next((e for e in live.events if e.kind == SeatEventKind.END), None)
        problem = None if live.mismatch is None else \
            f"the table's records do not replay past entry #{len(history) - 1}: {live.mismatch}"
        self._film = Film(Path(self.where), live.header, ruleset, frames,
                          sight=Sight(False, why=SPECTATOR_SIGHT) if sealed else Sight(True),
                          deck=SEALED if sealed else OPEN, names=self.names(),
                          outcome=plain(over) if over is not None else None, ended=ended,
                          problem=problem)
        self._made = mark
        return self._film


class LiveSeat(ReplaySeat):
    """A `ReplaySeat` over a live film, with the live table's links (module docstring)."""

    def __init__(self, film: Film, spectator: Spectator, *, seat: int = 0) -> None:
        super().__init__(film, seat=seat, at=film.last)
        self.spectator = spectator

    def seats(self) -> Sequence[SeatInfo]:
        """Every seat with its link as the host sees it, and a bot that plays it now."""
        spec = self.spectator
        runs: dict[int, int] = {}
        for frame in self.film.frames[:self.at + 1]:
            for event in frame.events:
                if event.kind == SeatEventKind.TAKEOVER:
                    runs[event.seat] = event.runner
                elif event.kind == SeatEventKind.RECLAIM:
                    runs.pop(event.seat, None)
        infos = []
        for s in range(self.players):
            link = Link.LEFT if s in spec.left else Link.LOST if s in spec.lost \
                else Link.CONNECTED
            infos.append(SeatInfo(s, self.film.names[s], link, run_by=runs.get(s)))
        return infos

    def phase(self) -> Phase:
        """HALTED when the table stopped at its host, else as a replay's."""
        if self.spectator.halted and self.at_end:
            return Phase.HALTED
        return super().phase()

    def problem(self) -> str | None:
        """Why the table stopped, or why the watch did (the host gone, a record that does
        not replay)."""
        spec = self.spectator
        if spec.halted:
            return f"the table stopped: {spec.halted}"
        if self.film.problem and self.at_end:
            return self.film.problem
        if spec.host == Link.LEFT and not self.film.over:
            return "the host left the table: there is nothing more to watch"
        return None

    def held_back(self) -> Refusal | None:
        """Nothing: a spectator has no move to make."""
        return None

    def watchers(self) -> tuple[str, ...]:
        """Every spectator of the table, this one included."""
        return self.spectator.watchers


class LiveWatch(WatchState):
    """Where the viewer is in the live film, following its end (module docstring)."""

    def __init__(self, films: LiveFilms, film: Film, ui: ClientUI, *, seat: int = 0,
                 invalidate: Callable[[], None] = lambda: None) -> None:
        self.films = films
        super().__init__(film, ui, seat=seat, at=film.last, invalidate=invalidate)
        self.seat = LiveSeat(film, films.spectator, seat=seat)  # (the live one, in its place)
        self.table = SeatState(self.seat, ui, invalidate=invalidate, invite=False)
        self._arrived()

    @property
    def live(self) -> bool:
        """True while the viewer shows the newest entry (and moves on with the game)."""
        return self.seat.at_end

    def end_note(self) -> str:
        """On the newest entry: the table's state (who it waits for, or why it stopped)."""
        problem = self.seat.problem()
        if self.film.over or (self.film.problem and not self.films.spectator.halted):
            return super().end_note()
        if problem is not None:
            return problem[0].upper() + problem[1:] + "."
        if self.films.spectator.host == Link.LOST:
            return "The host is not answering: the table may be waiting for it."
        active = self.seat.active_seats()
        who = ", ".join(self.film.names[s] for s in active) or "the table"
        return f"Live: the next move shows here as {who} makes it."

    def _edge(self, forward: bool) -> str:
        if forward and not self.film.over:
            return "This is the newest move: the next one shows as it is made."
        return super()._edge(forward)

    def update(self) -> bool:
        """Take what the spectator received since; True when the film grew."""
        film = self.films.film()
        if film is None or film is self.film:
            self.seat._changes.notify()  # (links, watchers, the host)
            return False
        following = self.seat.at_end
        self.film = self.seat.film = film
        if following:
            self.seat.show(at=film.last)
            self._arrived()
        else:
            self.seat.show()
        return True


# -- the screen --------------------------------------------------------------------------------


def title(watch: LiveWatch, state: SeatState, width: int) -> StyleAndTextTuples:
    """Live · game · players · watchers · whose eyes · entry; who is to move at the right."""
    film, spec = watch.film, watch.films.spectator
    name, count = game_words(film)
    me = film.names[watch.watching]
    where = f"entry {watch.at + 1}" + ("" if watch.live else f" of {len(film.frames)}")
    watching = f"{len(spec.watchers)} watching"
    problem = watch.seat.problem()
    if state.outcome is not None and watch.live:
        right = ("class:title.over", " Game over ")
    elif film.ended is not None and watch.live:
        right = ("class:title.over", " Ended by agreement ")
    elif problem is not None and watch.live:
        right = ("class:title.halted", " Stopped ")
    elif spec.host == Link.LOST:
        right = ("class:title.halted", " Host away ")
    elif not watch.live:
        right = ("class:title", " End: back to live ")
    elif (moving := to_move(state, film.players)) is not None:
        right = ("class:title.turn", moving)
    else:
        right = ("class:title", " Dealing… ")
    live = "Live" if watch.live else "Watching"
    return fit_title((f" {live} · {name} · {count} · {watching} · as {me} · {where} ",
                      f" {live} · {name} · {watching} · as {me} · {where} ",
                      f" {live} · {name} · as {me} · {where} ",
                      f" {live} · {name} · as {me} ",
                      f" {name} · {me} "), right, width)


def deck_line(state: SeatState, width: int) -> StyleAndTextTuples:
    """Under the results of a sealed game: who checks the deck (the players: a spectator
    holds no secret)."""
    if not state.seat.sealed:
        return []
    return [("class:dim", wrap(SPECTATOR_CHECK, width))]


def saved_line(watch: LiveWatch, state: SeatState, width: int) -> StyleAndTextTuples:
    """The table being watched, under the results."""
    return [("class:dim", "Watched live at "), ("", watch.films.where)]


class LiveApp(WatchApp):
    """The viewer over a live table (see the module docstring)."""

    def __init__(self, films: LiveFilms, film: Film, *, seat: int = 0,
                 plugins: PluginHost | None = None, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.film = film
        self.ui = ClientUI(load_ui(plugins or PluginHost(), film.ruleset))
        self.watch = self.live = LiveWatch(films, film, self.ui, seat=seat,
                                           invalidate=self._invalidate)
        self.state = self.watch.table
        self.filters = build_filters(self.state)
        panes = replace(watch_panes(self.watch), title=partial(title, self.live),
                        saved=partial(saved_line, self.live),
                        results=partial(results_screen.results, me=-1),  # nobody is "you"
                        deck=deck_line,
                        help=partial(help_text, self.watch, heading="Watching a live table",
                                     live=LIVE_HELP))
        layout, self.panes = build_layout(self.state, self.filters, self.click, panes)
        self.build(layout, build_key_bindings(self.watch, self.filters, self.leave),
                   merge_styles([STYLE, WATCH_STYLE]), input=input, output=output)
        films.spectator.subscribe(self._received)

    def _received(self) -> None:
        self.live.update()
        self._invalidate()


async def run_live(spectator: Spectator, where: str, *, seat: int = 0,
                   plugins: PluginHost | None = None, input: Input | None = None,
                   output: Output | None = None, wait: float | None = None) -> int:
    """Watch ``spectator``'s table (at ``where``) until the viewer is left; the viewer
    opens once the game's first entry is in (the spectator says what it waits for
    meanwhile, on stdout).  The spectator is closed on the way out."""
    films = LiveFilms(spectator, where)
    try:
        said = ""
        loop = asyncio.get_running_loop()
        end = None if wait is None else loop.time() + wait
        while films.film() is None and spectator.host != Link.LEFT and not spectator.closed:
            seated = ", ".join(p.display_name for p in spectator.peers)
            line = f"{len(spectator.peers)} of {spectator.players} seats taken: {seated}"
            if line != said:
                print(line, flush=True)
                said = line
            left = None if end is None else end - loop.time()
            if left is not None and left <= 0:
                break
            await within(spectator.changed(), left)  # (a cancel always gets through)
        film = films.film()
        if film is None:
            print("The host left before the game began." if spectator.host == Link.LEFT
                  else "The game did not begin.", flush=True)
            return 1
        app = LiveApp(films, film, seat=seat, plugins=plugins, input=input, output=output)
        return await app.run()
    finally:
        with contextlib.suppress(asyncio.CancelledError):
            await spectator.close()


async def watch_at(address: str, plugins: PluginHost, *, name: str = "", timeout: float = 10.0,
                   seat: Callable[[Spectator], int] = lambda spectator: 0) -> int:
    """``hedgerow watch ADDRESS`` (and ``w`` in the lobby): watch the table at ``address``
    as a spectator, through the eyes of the seat ``seat(spectator)`` names, until left.
    Says on stdout what it waits for before the screen opens (the table's answer, the
    game's first entry)."""
    from hedgerow.net.launch import watch_table

    print(f"Watching the table at {address} …", flush=True)
    spectator = await watch_table(address, plugins=plugins, name=name, timeout=timeout)
    try:
        first = seat(spectator)
    except BaseException:
        await spectator.close()
        raise
    if spectator.live is None or not spectator.live.history:
        print("Waiting for the game to start (Ctrl-C leaves)…", flush=True)
    return await run_live(spectator, address, seat=first, plugins=plugins)
