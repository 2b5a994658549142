"""Formatted text for every pane of the seat client, from a `SeatState` and a width.

Game-specific drawing comes only from the game's hooks (`GameHooks`); this module adds
what is generic: the highlight of legal targets, of the cursor and of the chosen card
(found through the target tags of docs/client.md), mouse handlers on targets, and the
panes that are not the game's: the title, the players table, the log, the prompt, the key
line and the results screen.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from hedgerow.clients.app.picker import Picker
from hedgerow.clients.app.state import HELP, QUIT, RESULTS, Drawn, SeatState, TagKey, tag_key
from hedgerow.core.actions import Value
from hedgerow.net.seat import Link, Phase

TAG = re.compile(r"\[target:([^\]]*)\]")
LINK_WORDS = {Link.YOU: "you", Link.CONNECTED: "on", Link.WAITING: "wait", Link.LOST: "lost",
              Link.LEFT: "left"}
BLOCKS = " ▏▎▍▌▋▊▉█"

Click = Callable[[dict[str, Value]], None]


def wrap(text: str, width: int, indent: str = "") -> str:
    """``text`` broken between words into lines of at most ``width`` columns."""
    if width < 8:
        return text
    return textwrap.fill(text, width, subsequent_indent=indent, break_on_hyphens=False)


def parse_tag(style: str) -> dict[str, Value] | None:
    """The target tag in a fragment's style, ``[target:x=1,y=-2]`` -> ``{"x": 1, "y": -2}``."""
    found = TAG.search(style)
    if not found:
        return None
    tag: dict[str, Value] = {}
    for part in found.group(1).split(","):
        name, _, raw = part.partition("=")
        if not name:
            continue
        try:
            tag[name.strip()] = int(raw)
        except ValueError:
            tag[name.strip()] = raw.strip()
    return tag


def _on_click(tag: dict[str, Value], click: Click) -> Callable[[MouseEvent], object]:
    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            click(tag)
            return None
        return NotImplemented

    return handler


def decorate(fragments: StyleAndTextTuples, drawn: Drawn, *, options: set[TagKey],
             cursor: TagKey | None, chosen: set[TagKey], click: Click) -> StyleAndTextTuples:
    """Highlight the targets in a game's drawing and make them clickable.

    Records in ``drawn`` where each target was first drawn (row, column) and in which
    order targets appear.  ``options`` are the legal targets of the current step,
    ``cursor`` the one under the cursor (also where the window scrolls to), ``chosen``
    the ones fixed by earlier steps.
    """
    drawn.positions.clear()
    drawn.order.clear()
    out: StyleAndTextTuples = []
    row = col = 0
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        tag = parse_tag(style)
        if tag is not None:
            key = tag_key(tag)
            if key not in drawn.positions:
                drawn.positions[key] = (row, col)
                drawn.order.append(key)
                if key == cursor:
                    out.append(("[SetCursorPosition]", ""))
            if key == cursor:
                style += " class:target.cursor"
            elif key in chosen:
                style += " class:target.chosen"
            elif key in options:
                style += " class:target.option"
            out.append((style, text, _on_click(tag, click)))
        else:
            out.append((style, text))
        for i, piece in enumerate(text.split("\n")):
            if i:
                row, col = row + 1, 0
            col += get_cwidth(piece)
    return out


def _cell_keys(picker: Picker) -> tuple[set[TagKey], TagKey | None, set[TagKey]]:
    slot = picker.slot
    options: set[TagKey] = set()
    cursor = None
    if slot is not None and slot.is_cell:
        options = {tag_key(slot.tag(v)) for v in picker.step_options()}
        if picker.cursor is not None:
            cursor = tag_key(slot.tag(picker.cursor))
    chosen = {tag_key({"x": c[0], "y": c[1]}) for c in picker.chosen_cells()}
    return options, cursor, chosen


def board(state: SeatState, width: int, click: Click) -> StyleAndTextTuples:
    """The game's board with the legal cells and the cursor highlighted.

    Without a board part from the game, its whole drawing (`hedgerow_render_view`).
    """
    if state.view is None:
        return waiting_room(state, width)
    preview = state.picker.highlighted() if state.my_turn else None
    seat = state.seat.seat
    fragments = state.hooks.part("board", state.view, seat, width, preview)
    if fragments is None:
        fragments = state.hooks.whole(state.view, seat, width)
    if fragments is None:
        fragments = [("", repr(state.view))]
    options, cursor, chosen = _cell_keys(state.picker) if state.my_turn else (set(), None, set())
    return decorate(fragments, state.board, options=options, cursor=cursor, chosen=chosen,
                    click=click)


def waiting_room(state: SeatState, width: int) -> StyleAndTextTuples:
    """Before play: how many seats are open, and how others join."""
    if state.phase == Phase.HALTED:
        return [("class:error", wrap(f"The table stopped: {state.problem}", width))]
    if state.phase == Phase.SEEDING:
        return [("class:prompt", "Every seat is taken: agreeing on the deal…")]
    open_seats = sum(1 for i in state.infos if i.link == Link.WAITING)
    return [("class:prompt", wrap(f"Waiting for {open_seats} more player(s); the game "
                                  "starts when every seat is taken.", width))]


def hand(state: SeatState, width: int, click: Click) -> StyleAndTextTuples:
    """The seat's hand (the game's ``hand`` part), the playable cards highlighted."""
    if state.view is None:
        return []
    preview = state.picker.highlighted() if state.my_turn else None
    fragments = state.hooks.part("hand", state.view, state.seat.seat, width, preview)
    if fragments is None:
        return []
    picker = state.picker
    shape = picker.shape
    options: set[TagKey] = set()
    selected = None
    if state.my_turn and shape is not None and shape.card is not None:
        options = {tag_key({shape.card: c}) for c in picker.card_options()}
        if picker.card is not None:
            selected = tag_key({shape.card: picker.card})
    out = decorate(fragments, state.hand, options=options, cursor=selected, chosen=set(),
                   click=click)
    state.hand_drawn()
    return out


def title(state: SeatState, width: int) -> StyleAndTextTuples:
    """The top bar: game, variants, seat, and whose turn (at the right)."""
    rules = state.seat.ruleset
    name = rules.game.title + "".join(f" + {v}" for v in rules.variant_names)
    left = f" Hedgerow · {name} · {state.seat.players} players · you are seat {state.seat.seat} "
    if state.phase == Phase.FINISHED or state.outcome is not None:
        right = ("class:title.over", " Game over ")
    elif state.phase == Phase.HALTED:
        right = ("class:title.halted", " Table stopped ")
    elif state.phase != Phase.PLAYING:
        right = ("class:title", f" {state.phase.value.capitalize()}… ")
    elif state.seat.seat in state.active:
        right = ("class:title.turn", " ▶ Your turn ")
    else:
        right = ("class:title", f" {state.waiting_for()} to play ")
    if get_cwidth(left) + get_cwidth(right[1]) > width:
        left = f" {name} · seat {state.seat.seat} "
    pad = max(1, width - get_cwidth(left) - get_cwidth(right[1]))
    return [("class:title", left), ("class:title.fill", " " * pad), right]


def players(state: SeatState, width: int) -> StyleAndTextTuples:
    """Every seat: turn marker, name, link, and the game's running score columns."""
    columns = state.hooks.score_columns(state.view) if state.view is not None else []
    cells = []
    for label, values, style in columns:
        size = max(len(label) if len(label) <= 5 else 2, 2, *(len(str(v)) for v in values)) + 1
        cells.append((label, values, style, size))
    room = width - 2 - 5 - sum(c[3] for c in cells)
    name_w = max(6, min(14, room))
    out: StyleAndTextTuples = [("class:heading", "  " + "Players".ljust(name_w) + " link")]
    for label, _, style, size in cells:
        out.append((style + " bold", label[: size - 1].rjust(size)))
    for info in state.infos:
        out.append(("", "\n"))
        turn = info.seat in state.active and state.phase == Phase.PLAYING
        out.append(("class:turn" if turn else "", "▶ " if turn else "  "))
        mine = info.seat == state.seat.seat
        name = state.name_of(info.seat)
        if len(name) > name_w:
            name = name[: name_w - 1] + "…"
        out.append(("bold" if mine else "", name.ljust(name_w)))
        word = LINK_WORDS.get(info.link, info.link.value)
        out.append((f"class:link.{info.link.value}", f" {word:<4}"))
        for _, values, _, size in cells:
            value = values[info.seat] if info.seat < len(values) else ""
            out.append(("", str(value).rjust(size)))
    return out


def history(state: SeatState, width: int) -> StyleAndTextTuples:
    """The log of actions in plain words, newest last (the window follows the end)."""
    out: StyleAndTextTuples = [("class:heading", "Log")]
    if not state.lines:
        out.append(("class:dim", "\nNo moves yet."))
    for line in state.lines:
        mine = line.seat == state.seat.seat
        out.append(("", "\n"))
        text = wrap(f"{line.index + 1}. {line.text}", width, "   ")
        out.append(("class:log.mine" if mine else "class:log", text))
    if state.problem:
        out.append(("class:error", "\n" + wrap(state.problem, width)))
    out.append(("[SetCursorPosition]", ""))
    return out


def prompt(state: SeatState, width: int) -> StyleAndTextTuples:
    """Two lines: what to do now (or the last message), then the preview or the menu."""
    view, seat, picker = state.view, state.seat.seat, state.picker
    first: StyleAndTextTuples
    if state.message:
        first = [("class:message", wrap(state.message, width))]
    elif state.phase == Phase.HALTED:
        first = [("class:error", f"The table stopped: {state.problem or 'unknown reason'}")]
    elif state.outcome is not None and state.screen == RESULTS:
        first = []
    elif state.outcome is not None:
        first = [("class:prompt", "The game is over. Press Enter for the results.")]
    elif state.busy:
        first = [("class:prompt", "Sending your move…")]
    elif state.phase == Phase.SEATING and getattr(state.seat, "address", ""):
        first = [("class:prompt", wrap("Others join with: hedgerow join "
                                       f"{state.seat.address}", width))]  # type: ignore[attr-defined]
    elif not state.my_turn:
        first = [("class:dim", f"Waiting for {state.waiting_for()}…")]
    else:
        text = state.hooks.prompt(view, seat) or _generic_prompt(picker)
        first = [("class:prompt", wrap(text, width))]
    second: StyleAndTextTuples = []
    if state.my_turn:
        menu = picker.menu()
        if menu:
            for i, entry in enumerate(menu):
                label = state.hooks.preview(view, seat, entry.action) if entry.action else \
                    f"{entry.label.capitalize()}…"
                style = "class:menu.current" if i == picker.menu_index else "class:menu"
                second += [("", "  " if i else ""), (style, f" {i + 1} {label} ")]
        else:
            action = picker.current()
            if action is not None:
                second = [("class:preview.mark", "▶ "),
                          ("class:preview", state.hooks.preview(view, seat, action))]
            elif picker.slot is not None:
                second = [("class:dim", f"Choose {picker.slot.label()} with the arrows "
                                        "(or a click), then press Enter.")]
    if state.my_turn and not any(line.seat == seat for line in state.lines):
        second += [("", "\n"), ("class:dim", "New to the game? Press ? to see how to play.")]
    return [*first, ("", "\n"), *second]


def _generic_prompt(picker: Picker) -> str:
    if picker.kind is None:
        return "Your turn: choose what to do (number or arrows, then Enter)."
    shape = picker.shape
    parts = []
    cards = picker.card_options()
    if shape is not None and shape.card is not None and len(cards) > 1:
        parts.append(f"a card (1-{len(cards)})")
    slot = picker.slot
    if slot is not None:
        parts.append(f"{slot.label()} (arrows)")
    if len(picker.rot_options()) > 1:
        parts.append("a rotation (r)")
    if not parts:
        return "Your turn: press Enter to confirm."
    then = "Enter plays" if picker.last_step else "Enter goes on"
    return "Your turn: pick " + ", ".join(parts) + f"; {then}."


def keys_line(state: SeatState) -> StyleAndTextTuples:
    """The status line: only the keys that do something now."""
    keys: list[tuple[str, str]] = []
    if state.overlay == QUIT:
        keys = [("y", "leave"), ("n", "stay")]
    elif state.overlay == HELP:
        keys = [("Esc/?", "close help")]
    elif state.screen == RESULTS:
        keys = [("b", "back to the board"), ("q", "quit")]
    else:
        picker = state.picker
        if state.my_turn:
            if picker.menu():
                keys += [("↑↓/1-9", "choose"), ("Enter", "confirm")]
            else:
                if picker.slot is not None and picker.slot.is_cell:
                    keys.append(("←↑↓→/hjkl", "move"))
                if len(picker.card_options()) > 1:
                    keys.append((f"1-{len(picker.card_options())}", "card"))
                if len(picker.rot_options()) > 1:
                    keys.append(("r", "rotate"))
                keys.append(("Enter", "play" if picker.last_step else "next"))
            if picker.step > 0 or (picker.kind is not None and len(picker.kinds) > 1):
                keys.append(("Esc", "back"))
        if state.outcome is not None:
            keys.append(("Enter", "results"))
        keys += [("?", "help"), ("q", "quit")]
    out: StyleAndTextTuples = []
    for key, what in keys:
        out += [("class:status.key", f" {key} "), ("class:status", f" {what}  ")]
    return out


def bar(value: int, top: int, size: int) -> str:
    """A horizontal bar of ``value`` out of ``top`` in ``size`` cells (eighths resolution)."""
    if top <= 0 or size <= 0:
        return " " * max(size, 0)
    eighths = round(8 * size * max(value, 0) / top)
    full, part = divmod(eighths, 8)
    text = "█" * full + (BLOCKS[part] if part else "")
    return text.ljust(size)[:size]


def _two_lines(label: str, size: int) -> tuple[str, str]:
    """A column label set on two lines of at most ``size`` characters."""
    first, _, rest = label.partition(" ")
    if len(label) <= size or not rest:
        return label[:size], ""
    return first[:size], rest[:size]


def results(state: SeatState, width: int) -> StyleAndTextTuples:
    """The end of the game: a bar chart of every seat's scores, winners and the reason.

    One column per `Outcome.breakdown` entry (the scores when there is none), one row per
    seat with its rank; the best value of each column is starred, the winners are starred,
    the eliminated crossed out.  Then the game's explanation and where the log is.
    """
    outcome = state.outcome
    if outcome is None:
        return []
    n = state.seat.players
    names = [state.name_of(s) for s in range(n)]
    me = state.seat.seat
    if outcome.winners == (me,):
        headline = "You win!"
    else:
        winners = ", ".join(names[w] for w in outcome.winners)
        headline = f"{winners} {'wins' if len(outcome.winners) == 1 else 'share the victory'}"
        if me in outcome.winners:
            headline += " (you among them)"
    out: StyleAndTextTuples = [("class:results.title", f" {headline} "), ("", "\n\n")]
    columns = list(outcome.breakdown) or [("Score", outcome.scores)]
    ranks = [outcome.ranking[s] if s < len(outcome.ranking) else n for s in range(n)]
    rows = [f"{ranks[s]}. {names[s]} ({s})" for s in range(n)]
    name_w = min(24, max(len(r) for r in rows) + 3)
    num_w = max(len(str(v)) for _, col in columns for v in col)
    per = max(num_w + 4, (width - name_w) // max(1, len(columns)))
    bar_w = max(0, per - num_w - 4)  # bar, space, number, star (2), gap
    heads = [_two_lines(label, per - 1) for label, _ in columns]
    for line in (0, 1):
        if line and not any(h[1] for h in heads):
            break
        out.append(("", "\n" * line + " " * name_w))
        for head in heads:
            out.append(("class:heading" if head[line] else "", head[line].ljust(per - 1)))
            out.append(("", " "))
    for s in sorted(range(n), key=lambda s: (ranks[s], s)):
        out.append(("", "\n"))
        style = "class:results.winner" if s in outcome.winners else (
            "class:results.out" if s in outcome.eliminated else "")
        mark = "★ " if s in outcome.winners else ("✗ " if s in outcome.eliminated else "  ")
        out.append((style, (mark + rows[s])[:name_w - 1].ljust(name_w)))
        for _, col in columns:
            top = max(col) if col else 0
            value = col[s] if s < len(col) else 0
            best = value == top and top > 0
            out.append(("class:bar.best" if best else "class:bar", bar(value, top, bar_w)))
            out.append(("bold" if best else "", f" {value:>{num_w}}"))
            out.append(("class:bar.star", " ★" if best else "  "))
            out.append(("", " " * max(1, per - bar_w - num_w - 3)))
    out.append(("", "\n\n"))
    out.append(("class:dim", "★ best in its column.  (n): seat number.  "))
    if outcome.eliminated:
        gone = ", ".join(names[s] for s in outcome.eliminated)
        out.append(("class:results.out", f"✗ eliminated: {gone}."))
    out.append(("", "\n\n"))
    out.append(("", wrap(outcome.explanation, width)))
    path = state.seat.log_path()
    if path is not None:
        out.append(("", "\n\n"))
        out.append(("class:dim", "Log saved to "))
        out.append(("", str(path)))
    return out


KEY_HELP = (
    ("←↑↓→ hjkl", "move the cursor", "r / R", "rotate the card"),
    ("1-9", "pick a card or line", "Enter", "play / next step"),
    ("Esc", "go back one step", "mouse", "click a card or cell"),
    ("b", "board / results", "q", "leave (asks first)"),
)


def help_text(state: SeatState, width: int) -> StyleAndTextTuples:
    """The help overlay: how to play (from the game), then every key."""
    out: StyleAndTextTuples = []
    rules = state.hooks.help(state.seat.ruleset.game)
    if rules:
        out += [("class:heading", f"How to play {state.seat.ruleset.game.title}"), ("", "\n"),
                ("", wrap(rules, width)), ("", "\n\n")]
    out += [("class:heading", "Keys"), ("", "\n")]
    for k1, w1, k2, w2 in KEY_HELP:
        out += [("class:status.key", f" {k1:<10}"), ("", f" {w1:<22}"),
                ("class:status.key", f" {k2:<6}"), ("", f" {w2}\n")]
    out.append(("class:dim", "\n" + wrap("The line above the keys says what your move would "
                                          "score before you confirm it.  Only legal moves can "
                                          "be chosen.", width)))
    return out


def quit_text(state: SeatState) -> StyleAndTextTuples:
    """The question before leaving."""
    if state.outcome is None and state.phase == Phase.PLAYING:
        return [("", "Leave the table? The game is not over;\nthe other seats will see you "
                     "leave.\n\n"), ("class:status.key", " y "), ("", " leave   "),
                ("class:status.key", " n "), ("", " stay")]
    return [("", "Leave the table?\n\n"), ("class:status.key", " y "), ("", " leave   "),
            ("class:status.key", " n "), ("", " stay")]
