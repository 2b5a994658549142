"""What the replay viewer's panes say, on the seat client's screen (`layout.Panes`).

The board, the hand, the players table and the results are the seat client's own
(`hedgerow.clients.app.render`, `results`), drawn from the watched seat's view; this module
adds what a replay says that a live seat does not:

* the title: the game, whose eyes, where in the film (entry and round), who moves next;
* the board with **what the last entry changed** marked (the pieces whose drawing differs
  from the frame before: the card placed, the cards a step planted; style
  ``target.chosen``), and scrolled to it (or to the game's `focus`);
* the hand, or why the watched seat's cards cannot be shown (`Film.why_hidden`);
* the log up to the shown entry, that entry marked, the seat events (a takeover, a
  return, an agreed end) where they came into force;
* the move pane: the entry in words, then the game's preview of it (what it scored, as
  its player saw it before choosing), then what else is true there (a seat event, the end
  of the log, why the film stops);
* the key line and the help, for watching;
* the results as the live table showed them: "You win!" only when watching as the seat
  that wrote the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from hedgerow.clients.app import render
from hedgerow.clients.app import results as results_screen
from hedgerow.clients.app.gameui import describe_plainly
from hedgerow.clients.app.layout import MIN_COLUMNS, MIN_ROWS, Panes
from hedgerow.clients.app.layout import hand_size as layout_hand_size
from hedgerow.clients.app.names import name_seats
from hedgerow.clients.app.render import Click, Highlights, Line, flow, wrap
from hedgerow.clients.app.state import HELP, RESULTS, SeatState
from hedgerow.clients.botrunner import seat_event_text
from hedgerow.clients.watch.film import OPEN, Film
from hedgerow.clients.watch.state import WatchState
from hedgerow.core.ui import BOARD, Target, plain_view
from hedgerow.net.messages import SeatEvent

#: The keys of the replay viewer, for the help (the key line shows those that work now).
WATCH_KEYS = (
    ("→ l", "next entry"),
    ("← h", "previous entry"),
    ("↓ j ]", "next round"),
    ("↑ k [", "start of the round"),
    ("Home g", "the deal"),
    ("End G", "the last entry"),
    ("Space", "play / pause"),
    ("s / S", "next / previous seat"),
    ("PgUp PgDn", "scroll the board"),
    ("< >", "scroll it across"),
    ("i", "read a piece in full"),
    ("Enter b", "board / results"),
    ("?", "this help"),
    ("q", "leave"),
)


def watch_panes(watch: WatchState) -> Panes:
    """The panes of the replay viewer over ``watch``."""
    return Panes(
        title=partial(title, watch), board=partial(board, watch), hand=partial(hand, watch),
        history=partial(history, watch), prompt=partial(prompt, watch),
        prompt_height=partial(prompt_height, watch), keys=partial(keys_line, watch),
        help=partial(help_text, watch), results=partial(results, watch),
        saved=partial(saved_line, watch), small=too_small_text,
        hand_size=partial(hand_size, watch))


# -- the title ------------------------------------------------------------------------------------


def game_words(film: Film) -> tuple[str, str]:
    """For a title: the game's name with its variants, and how many play it."""
    rules = film.ruleset
    name = rules.spec.title + "".join(f" + {v}" for v in rules.variant_names)
    return name, f"{film.players} player{'s' if film.players != 1 else ''}"


def to_move(state: SeatState, players: int) -> str | None:
    """Who is to move in the shown state, for the right end of a title; None: nobody."""
    if len(state.active) == 1:
        return f" {state.name_of(state.active[0])} to play "
    if state.active:
        who = "all" if len(state.active) == players else \
            ", ".join(state.name_of(s) for s in state.active)
        return f" {who} to choose "
    return None


def fit_title(lefts: Sequence[str], right: tuple[str, str], width: int) -> StyleAndTextTuples:
    """A title line: the first of ``lefts`` (longest first; else the last) that fits in
    ``width`` beside ``right``, the room between them filled."""
    for left in lefts:
        if get_cwidth(left) + get_cwidth(right[1]) <= width:
            break
    pad = max(1, width - get_cwidth(left) - get_cwidth(right[1]))
    return [("class:title", left), ("class:title.fill", " " * pad), right]


def title(watch: WatchState, state: SeatState, width: int) -> StyleAndTextTuples:
    """Replay · game · seats · whose eyes · entry and round; who moves next at the right."""
    film = watch.film
    name, count = game_words(film)
    me = film.names[watch.watching]
    where = f"entry {watch.at + 1} of {len(film.frames)}"
    turn = f"round {watch.round_now()} of {watch.rounds()}"
    if state.outcome is not None:
        right = ("class:title.over", " Game over ")
    elif film.ended is not None and watch.seat.at_end:
        right = ("class:title.over", " Ended by agreement ")
    elif watch.seat.at_end:
        right = ("class:title.halted", " End of the log ")
    else:
        right = ("class:title", to_move(state, film.players) or " ")
    short = f"{watch.at + 1}/{len(film.frames)}"
    return fit_title((f" Replay · {name} · {count} · as {me} · {where} · {turn} ",
                      f" Replay · {name} · as {me} · {where} · {turn} ",
                      f" Replay · {name} · as {me} · {short} · round {watch.round_now()} ",
                      f" Replay · {name} · as {me} · {short} ",
                      f" {name} · {me} · {short} "), right, width)


# -- the board and the hand -----------------------------------------------------------------------


def board(watch: WatchState, state: SeatState, width: int, click: Click) -> StyleAndTextTuples:
    """The game's board parts as the watched seat sees them, with what the shown entry
    changed marked (see the module docstring); where the game cannot draw them without
    cards the film cannot show, a sentence saying so."""
    if state.view is None:
        return []
    drew: list[str] = []
    fragments = render.draw_area(state, BOARD, width, drew)
    hidden = watch.film.hidden(watch.at, watch.watching)
    if not fragments:
        if hidden:
            state.board_head = (0, 0)
            return [("class:dim", wrap("The board cannot be drawn without the cards this log "
                                       "keeps sealed. " + watch.film.why_hidden(watch.watching),
                                       width))]
        fragments = plain_view(state.view, width)
    first = next(iter(state.ui.parts(BOARD)), None)
    state.board_head = state.ui.head() if first is not None and drew[:1] == [first.name] \
        else (0, 0)
    moved = changed(watch, state, width)
    focus = state.ui.focus(state.view, watch.watching)
    aim = focus if focus is not None else next(
        (f[2] for f in fragments if len(f) > 2 and f[2] in moved), None)
    out = render.decorate(fragments, state.board, Highlights(chosen=moved), click, aim)
    if state.board_top is not None:
        out = render.cursor_at_line(out, state.board_top)
    return out


def changed(watch: WatchState, state: SeatState, width: int) -> set[Target]:
    """The board's pieces whose drawing the shown entry changed (new pieces included): what
    differs from the frame before, as the same seat sees both; none on the first frame."""
    at, seat = watch.at, watch.watching
    key = (at, seat, width)
    if watch.marks[0] == key:
        return watch.marks[1]
    found: set[Target] = set()
    if at > watch.film.first:
        now = _targets(state, watch.film.view(at, seat), seat, width)
        before = _targets(state, watch.film.view(at - 1, seat), seat, width)
        found = {t for t, text in now.items() if before.get(t) != text}
    watch.marks = (key, found)
    return found


def _targets(state: SeatState, view: object, seat: int, width: int) -> dict[Target, str]:
    """Each target's words in the board parts of ``view`` (its fragments joined, spaces
    aside: a column that widens beside it does not change a piece)."""
    texts: dict[Target, str] = {}
    for part in state.ui.parts(BOARD):
        for fragment in state.ui.draw(part, view, seat, width, None) or ():
            if len(fragment) > 2 and isinstance(fragment[2], Target):
                texts[fragment[2]] = texts.get(fragment[2], "") + " " + fragment[1]
    return {target: " ".join(text.split()) for target, text in texts.items()}


#: The widest the sentence saying why a hand is not shown is set, beside the players table
#: on a narrow screen.
HIDDEN_WIDTH = 44


def hand(watch: WatchState, state: SeatState, width: int, click: Click) -> StyleAndTextTuples:
    """The watched seat's hand, or why the film cannot show it here."""
    if state.view is None:
        return []
    if watch.film.hidden(watch.at, watch.watching):
        return [("class:dim", _why_hidden(watch, width))]
    return render.hand(state, width, click)


def _why_hidden(watch: WatchState, width: int) -> str:
    return wrap(watch.film.why_hidden(watch.watching), min(width, HIDDEN_WIDTH))


def hand_size(watch: WatchState, state: SeatState) -> tuple[int, int]:
    """The columns and lines the hand pane's drawing takes (the sentence, when hidden)."""
    if state.view is not None and watch.film.hidden(watch.at, watch.watching):
        lines = _why_hidden(watch, HIDDEN_WIDTH).split("\n")
        return max(get_cwidth(line) for line in lines), len(lines)
    return layout_hand_size(state)


# -- the log --------------------------------------------------------------------------------------


def history(watch: WatchState, state: SeatState, width: int, *, heading: bool = True,
            ) -> StyleAndTextTuples:
    """The entries up to the shown one in words, that one marked, seat events in place."""
    out: StyleAndTextTuples = [("class:heading", "Log")] if heading else []
    frames = watch.film.frames[:watch.at + 1]
    lines: list[tuple[str, str]] = []
    for i, frame in enumerate(frames):
        for event in frame.events:
            lines.append(("class:dim", wrap(f"-- {name_seats(_event(event), watch.film.names)}",
                                            width, "   ")))
        mine = frame.entry.seat == watch.watching
        style = "class:log.current" if i == len(frames) - 1 else \
            ("class:log.mine" if mine else "class:log")
        lines.append((style, wrap(f"{frame.entry.index + 1}. {state.named(_words(frame.text))}",
                                  width, "   ")))
    for n, (style, text) in enumerate(lines):
        if heading or n:
            out.append(("", "\n"))
        out.append((style, text))
    if state.problem:
        out.append(("class:error", "\n" + wrap(state.problem, width)))
    out.append(("[SetCursorPosition]", ""))
    return out


def _words(text: str) -> str:
    """A log line as people read it: "chance: deal" -> "Chance: deal"."""
    return text[:1].upper() + text[1:] if text.startswith("chance") else text


def _event(event: SeatEvent) -> str:
    """A seat event in words, seats by number (named where it is shown)."""
    text = seat_event_text(event, lambda seat: f"Seat {seat}")
    return text[:1].upper() + text[1:]


# -- the move pane --------------------------------------------------------------------------------


def prompt_lines(watch: WatchState, state: SeatState, width: int) -> list[Line]:
    """The move pane's lines (at most `render.PROMPT_MOST`): a message if a key left one,
    the entry in words, the game's preview of it, then what else is true here."""
    film, at = watch.film, watch.at
    frame = film.frames[at]
    head: StyleAndTextTuples = []
    if state.message:
        head = [("class:message", state.named(state.message))]
    entry = f"{frame.entry.index + 1}. {state.named(_words(frame.text))}"
    lines = flow(head, width) if head else []
    lines += flow([("class:prompt", entry)], width)
    shown = film.chooser_view(at)
    if shown is not None:
        view, action = shown
        said = state.ui.preview(view, frame.entry.seat, action)
        if said and said != describe_plainly(action):
            who = film.names[frame.entry.seat]
            lines += flow([("class:preview.mark", "▶ "),
                           ("class:preview", f"{who}: {state.named(said)}")], width)
    notes = [name_seats(_event(e), film.names) for e in frame.events]
    if watch.seat.at_end and film.ended not in frame.events:  # (an agreed end says it)
        notes.append(watch.end_note())
    elif at == film.first and not head:
        notes.append("The cards are dealt: → steps through the game, ? lists the keys.")
    for note in notes:
        lines += flow([("class:dim", note)], width)
    return lines[:render.PROMPT_MOST]



def prompt(watch: WatchState, state: SeatState, width: int) -> StyleAndTextTuples:
    """The move pane (`prompt_lines`) as formatted text."""
    out: StyleAndTextTuples = []
    for i, line in enumerate(prompt_lines(watch, state, width)):
        out += [("", "\n")] * bool(i) + line
    return out


def prompt_height(watch: WatchState, state: SeatState, width: int) -> int:
    """The rows the move pane takes: three, up to five for long words."""
    return max(render.PROMPT_LINES, len(prompt_lines(watch, state, width)))


# -- keys and help --------------------------------------------------------------------------------


def keys_now(watch: WatchState, state: SeatState) -> list[tuple[str, str]]:
    """The keys that do something now, each with what it does."""
    if state.overlay == HELP:
        return [("Esc/?", "close help")]
    if state.screen == RESULTS:
        keys = [("←", "back"), ("b", "board")]
        if state.results_lines > state.results_room:
            keys.insert(0, ("↑↓", "scroll"))
        return [*keys, ("?", "help"), ("q", "quit")]
    keys = [("←→", "step"), ("↑↓", "round"), ("Home/End", "ends")]
    if state.over:  # (at the end: Space would play it again from the start)
        keys.append(("Enter", "results"))
    else:
        keys.append(("Space", "pause" if watch.playing else "play"))
    if watch.film.players > 1:
        keys.append(("s", "seat"))
    if state.ui.has_details():
        keys.append(("i", "read"))
    return [*keys, ("?", "help"), ("q", "quit")]


#: Keys the status line leaves out first when it is short of room (the help lists them).
SPARE_KEYS = ("i", "Space", "s")


def keys_line(watch: WatchState, state: SeatState, width: int) -> StyleAndTextTuples:
    """The status line, fitted as the seat client fits its own once `SPARE_KEYS` are left
    out where the others would not all fit with their words."""
    keys = keys_now(watch, state)
    for spare in SPARE_KEYS:
        if sum(get_cwidth(k) + get_cwidth(w) + 4 for k, w in keys) <= width:
            break
        keys = [(k, w) for k, w in keys if k != spare]
    return render.keys_line(state, width, keys)


def help_text(watch: WatchState, state: SeatState, width: int, *,
              heading: str = "Watching a saved game", live: str = "") -> StyleAndTextTuples:
    """The help overlay: what is being watched and what it can show, every key, then how
    to play the game (``live``: what watching a live table means, first)."""
    film = watch.film
    out: StyleAndTextTuples = [("class:heading", heading), ("", "\n")]
    about = (f"{live}{sight_text(film)}  A step is one entry of the log (a move, or chance: "
             "a deal, a draw); a round, once around the table.  Under the board: the move in "
             "words and what it scored; on it, what the move changed.")
    out += [("", wrap(about, width)), ("", "\n\n"), ("class:heading", "Keys"), ("", "\n")]
    for i in range(0, len(WATCH_KEYS), 2):
        for j, (key, what) in enumerate(WATCH_KEYS[i:i + 2]):
            out += [("class:status.key", f" {key:<9}"),
                    ("", f" {what:<23}" if not j else f" {what}")]
        out.append(("", "\n"))
    rules = state.ui.help(film.ruleset.spec)
    if rules:
        out += [("", "\n"), ("class:heading", f"How to play {film.ruleset.spec.title}"),
                ("", "\n"), ("", wrap(rules, width))]
    return out


def sight_text(film: Film) -> str:
    """What the film can show of the seats' cards, and why, in a sentence or two."""
    if film.deck == OPEN:
        return "An open deck: every hand can be shown."
    if film.sight.every:
        return ("A sealed deck: every hand can be shown, since the game ended and every "
                "secret was disclosed.")
    own = film.sight.own_seat
    mine = "" if own is None or film.sight.why_own else \
        f" and {film.names[own]}'s own (who wrote the log)"
    return f"A sealed deck: only the cards shown to everyone{mine} can be shown, since " \
        f"{film.sight.why}."


# -- the end --------------------------------------------------------------------------------------


def results(watch: WatchState, state: SeatState, width: int) -> StyleAndTextTuples:
    """The results as the live table showed them: for the log's writer when watching as
    that seat ("You win!"), for nobody in particular otherwise."""
    me = watch.watching if watch.watching == watch.film.header.own_seat else -1
    return results_screen.results(state, width, me=me)


def saved_line(watch: WatchState, state: SeatState, width: int) -> StyleAndTextTuples:
    """The log being watched, under the results."""
    return [("class:dim", "Replay of "), ("", str(watch.film.path))]


def too_small_text(columns: int, rows: int) -> str:
    """What the screen says when the terminal is smaller than the replay needs."""
    return (f"This terminal is {columns} x {rows}; the replay needs at least {MIN_COLUMNS} x "
            f"{MIN_ROWS}. Make the window larger (q leaves).")
