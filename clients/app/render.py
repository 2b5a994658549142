"""Formatted text for every pane of the seat client, from a `SeatState` and a width.

Game-specific drawing comes only from the game's UI object (`ClientUI`, its parts drawn
once each); this module adds what is generic: the highlight of the targets the current
step can select, of the cursor and of what earlier steps chose (found through the
`Target` objects in the drawing), mouse handlers on targets, and the panes that are not
the game's: the title, the players table, the log, the prompt, the key line and the help.
The results screen is `results`.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from hedgerow.clients.app.names import cut, fill_name, fit_names
from hedgerow.clients.app.picker import Picker, step_label
from hedgerow.clients.app.state import HELP, QUIT, RESULTS, Drawn, SeatState
from hedgerow.core.ui import (
    BOARD,
    HAND,
    Choose,
    ChooseMany,
    Cycle,
    Drawing,
    Menu,
    Target,
    plain_view,
)
from hedgerow.net.seat import DeckWaits, Link, Phase

LINK_WORDS = {Link.YOU: "you", Link.CONNECTED: "on", Link.WAITING: "wait", Link.LOST: "lost",
              Link.LEFT: "left"}

Click = Callable[[Target], None]


def wrap(text: str, width: int, indent: str = "") -> str:
    """``text`` broken between words into lines of at most ``width`` columns."""
    if width < 8:
        return text
    return textwrap.fill(text, width, subsequent_indent=indent, break_on_hyphens=False)


Line = list[tuple[str, str]]


def flow(fragments: StyleAndTextTuples, width: int) -> list[Line]:
    """Styled ``fragments`` broken between words into lines of at most ``width`` columns
    (a new line in the text starts one; a word longer than a line is cut across lines).
    A word may be several fragments (a styled mark before its text): it is kept whole."""
    words: list[tuple[Line, bool]] = []  # each word's pieces, and whether a space precedes it
    current: Line = []
    space = False
    lines: list[Line] = []

    def place() -> None:
        nonlocal current, space
        if current:
            words.append((current, space))
        current, space = [], False

    out: list[list[tuple[Line, bool]]] = [[]]
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        if style == "[SetCursorPosition]":
            continue
        for piece in re.split(r"(\n| +)", text):
            if not piece:
                continue
            if piece == "\n":
                place()
                out[-1].extend(words)
                words.clear()
                out.append([])
            elif piece.startswith(" "):
                place()
                space = True
            else:
                current.append((style, piece))
    place()
    out[-1].extend(words)
    for paragraph in out:
        line: Line = []
        used = 0
        for pieces, spaced in paragraph:
            size = sum(get_cwidth(t) for _, t in pieces)
            gap = 1 if spaced and line else 0
            if line and used + gap + size > width:
                lines.append(line)
                line, used, gap = [], 0, 0
            if gap:
                line.append((pieces[0][0], " "))
                used += 1
            for style, text in pieces:
                while used + get_cwidth(text) > width and width > 0:  # longer than a line
                    room = max(1, width - used)
                    line.append((style, text[:room]))
                    lines.append(line)
                    line, used, text = [], 0, text[room:]
                if text:
                    line.append((style, text))
                    used += get_cwidth(text)
        lines.append(line)
    return lines


@dataclass(slots=True)
class Highlights:
    """What to highlight among the drawn targets now."""

    options: set[Target] = field(default_factory=set)  # the current step can select these
    cursor: Target | None = None  # under the cursor (the board scrolls to it)
    selected: set[Target] = field(default_factory=set)  # the free choice, a growing set
    chosen: set[Target] = field(default_factory=set)  # fixed by earlier steps

    @classmethod
    def of(cls, picker: Picker) -> Highlights:
        """The highlights of ``picker``'s current step."""
        return cls(picker.option_targets(), picker.cursor_target(), picker.selected_targets(),
                   picker.chosen_targets())


def _on_click(target: Target, click: Click) -> Callable[[MouseEvent], object]:
    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            click(target)
            return None
        return NotImplemented

    return handler


def decorate(fragments: Drawing, drawn: Drawn, marks: Highlights, click: Click,
             focus: Target | None = None) -> StyleAndTextTuples:
    """Highlight the targets in a game's drawing and make them clickable.

    Records in ``drawn`` where each target was first drawn (row, column) and in which
    order targets appear; a fragment's `Target` becomes a mouse handler.  The pane's
    cursor (what it scrolls to) goes on the cursor's target, else on ``focus``'s.
    """
    aim = marks.cursor if marks.cursor is not None else focus
    drawn.positions.clear()
    drawn.order.clear()
    out: StyleAndTextTuples = []
    row = col = 0
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        target = fragment[2] if len(fragment) > 2 else None
        if isinstance(target, Target):
            if target not in drawn.positions:
                drawn.positions[target] = (row, col)
                drawn.order.append(target)
                if target == aim:
                    out.append(("[SetCursorPosition]", ""))
            if target == marks.cursor:
                style += " class:target.cursor"
            elif target in marks.selected:
                style += " class:target.selected"
            elif target in marks.chosen:
                style += " class:target.chosen"
            elif target in marks.options:
                style += " class:target.option"
            out.append((style, text, _on_click(target, click)))
        else:
            out.append((style, text))
        for i, piece in enumerate(text.split("\n")):
            if i:
                row, col = row + 1, 0
            col += get_cwidth(piece)
    return out


def draw_area(state: SeatState, area: str, width: int, drew: list[str] | None = None,
              ) -> Drawing:
    """The game's parts in ``area``, one under the other (a blank line between them), with
    the players' names where the game drew a ``"seat"`` target (`names.fill_name`); the
    names of the parts that drew something are added to ``drew``."""
    view, seat, picker = state.view, state.seat.seat, state.picker
    preview = picker.highlighted() if state.my_turn else None
    partial = picker.partial() if state.my_turn else {}
    out: Drawing = []
    for part in state.ui.parts(area):
        drawing = state.ui.draw(part, view, seat, width, preview, partial)
        if drawing:
            if out:
                out.append(("", "\n\n"))
            out.extend(fill_name(f, state.names) for f in drawing)
            if drew is not None:
                drew.append(part.name)
    return out


def board(state: SeatState, width: int, click: Click) -> StyleAndTextTuples:
    """The game's board parts with the legal targets and the cursor highlighted.

    When the game draws nothing there (or its drawing failed), the view as plain text; or,
    before the deal's entry (a sealed deck being shuffled), that the cards are being dealt.
    """
    if state.view is None:
        state.board_head = (0, 0)
        return waiting_room(state, width)
    drew: list[str] = []
    fragments = draw_area(state, BOARD, width, drew)
    if not fragments and not state.lines and state.phase == Phase.PLAYING:
        # Before the deal's entry (a sealed deck is still being shuffled): nothing to show
        # yet but that.  (The message line names the seats the shuffle waits for.)
        fragments = [("class:dim", wrap("The cards are being shuffled and dealt…", width))]
    elif not fragments:
        fragments = plain_view(state.view, width)
    first = next(iter(state.ui.parts(BOARD)), None)
    # the first part's headings stay on screen while the board scrolls (when it drew)
    state.board_head = state.ui.head() if first is not None and drew[:1] == [first.name] \
        else (0, 0)
    marks = Highlights.of(state.picker) if state.my_turn else Highlights()
    # between this seat's choices, the board shows what the game points at (the last move)
    focus = None if state.my_turn else state.ui.focus(state.view, state.seat.seat)
    out = decorate(fragments, state.board, marks, click, focus)
    state.drawn()
    if state.board_top is not None:
        out = cursor_at_line(out, state.board_top)
    return out


def cursor_at_line(fragments: StyleAndTextTuples, line: int) -> StyleAndTextTuples:
    """``fragments`` with the pane's cursor at the start of ``line`` (or the last line)
    instead of wherever it was: the board scrolled by the player shows that line first
    (the layout gives the pane no scroll margin meanwhile)."""
    out: StyleAndTextTuples = []
    row, placed = 0, False
    for fragment in fragments:
        if fragment[0] == "[SetCursorPosition]":
            continue
        if placed or ("\n" not in fragment[1] and row < line):
            out.append(fragment)
            continue
        pieces = fragment[1].split("\n")
        for i, piece in enumerate(pieces):
            if i:
                row += 1
                out.append((fragment[0], "\n", *fragment[2:]))
            if row == line and not placed:
                out.append(("[SetCursorPosition]", ""))
                placed = True
            if piece:
                out.append((fragment[0], piece, *fragment[2:]))
    if not placed:
        out.append(("[SetCursorPosition]", ""))
    return out


#: The title's right end while the sealed deck holds this seat up (`SeatState.held_by_deck`).
DECK_TITLES = {DeckWaits.SHUFFLE: " Shuffling… ", DeckWaits.DEAL: " Dealing… ",
               DeckWaits.SHOW: " Turning a card up… "}
#: What the board says before the first deal is open to this seat (a sealed table).
FIRST_DEAL = ("Shuffling and dealing.  Every player's program locks and mixes the whole deck "
              "in turn, so that nobody, the host included, knows its order; then each card "
              "opens only with every player's key, and only for the seats the rules show it "
              "to.")


def deck_line(state: SeatState) -> str | None:
    """The prompt's line while the sealed deck holds this seat up (a shuffle, its cards on
    their way, a card turned face up: one this seat's own move reads, say) and it has
    nothing to choose: what is going on and whose program the table waits for; None
    otherwise.  While its own move waits so (a Mandala take refills from the hidden tiles)
    the seat is offered nothing, though the table still names it to act: the move is sent,
    and what comes next may depend on the card (`hedgerow.net.peer.Peer.submit`)."""
    if state.phase != Phase.PLAYING or state.my_turn:
        return None
    deck, arriving = state.deck, state.arriving
    if deck is not None and deck.what == DeckWaits.SHUFFLE:
        text = ("Shuffling: every player's program mixes the deck in turn, so that nobody "
                "knows its order.")
    elif arriving or (deck is not None and deck.what == DeckWaits.DEAL):
        text = ("Your new card is on its way" if arriving <= 1 else
                f"Your {arriving} new cards are on their way") + \
            ": a card opens with every other player's key."
    elif state.held is not None and state.held.code == "move_waits":
        text = "Your move is sent; it turns a card face up, which opens with every player's key."
    elif deck is not None:
        text = "A card is being turned face up: it opens with every player's key."
    else:
        return None
    infos = {i.seat: i for i in state.infos}
    who = []
    for seat in deck.seats if deck is not None else ():
        if seat == state.seat.seat:
            continue
        info = infos.get(seat)
        gone = info is not None and info.link in (Link.LOST, Link.LEFT) and info.run_by is None
        who.append(state.name_of(seat) + (f" ({LINK_WORDS[info.link]})"
                                          if gone and info is not None else ""))
    if who:
        text += f"  Waiting for {', '.join(who)}…"
    return text


def waiting_room(state: SeatState, width: int) -> StyleAndTextTuples:
    """Before play: how many seats are open, and how others join (at a sealed table, until
    this seat's first cards are open to it: the shuffle and the deal)."""
    if state.phase == Phase.HALTED:
        return [("class:error", wrap(f"Stopped: {state.problem}", width))]
    if state.seat.host_gone():
        return [("class:prompt", wrap("The host is gone before the game began: waiting for "
                                      "them to re-open the table (hedgerow resume).", width))]
    if state.phase == Phase.SEEDING:
        return [("class:prompt", "Every seat is taken: agreeing on the deal…")]
    if state.phase == Phase.PLAYING:  # (the view waits for this seat's first cards)
        return [("class:prompt", wrap(FIRST_DEAL, width))]
    open_seats = sum(1 for i in state.infos if i.link == Link.WAITING)
    if not state.invite:  # every other seat is one of our bots (hedgerow play)
        return [("class:prompt", wrap(f"The bots are taking their seats ({open_seats} to "
                                      "go); the game starts when every seat is taken.", width))]
    return [("class:prompt", wrap(f"Waiting for {open_seats} more player(s); the game "
                                  "starts when every seat is taken.", width))]


def hand(state: SeatState, width: int, click: Click) -> StyleAndTextTuples:
    """The game's hand parts (the seat's own cards), what can be selected highlighted."""
    if state.view is None:
        return []
    fragments = draw_area(state, HAND, width)
    marks = Highlights.of(state.picker) if state.my_turn else Highlights()
    out = decorate(fragments, state.hand, marks, click)
    state.drawn()
    return out


def title(state: SeatState, width: int) -> StyleAndTextTuples:
    """The top bar: game, variants, players, the deck (sealed or open, where it fits), seat,
    and whose turn (at the right; what the sealed deck does while it holds this seat up)."""
    rules = state.seat.ruleset
    name = rules.spec.title + "".join(f" + {v}" for v in rules.variant_names)
    me = state.name_of(state.seat.seat)
    if me.lower() == "you":  # a player who gave no name
        me = f"seat {state.seat.seat}"
    count = f"{state.seat.players} player{'s' if state.seat.players != 1 else ''}"
    deck = "" if state.seat.players < 2 else \
        (" · sealed deck" if state.seat.sealed else " · open deck")
    left = f" Hedgerow · {name} · {count}{deck} · you are {me} "
    if state.phase == Phase.FINISHED or state.over:
        right = ("class:title.over", " Game over ")
    elif state.phase == Phase.HALTED:
        right = ("class:title.halted", " Stopped ")
    elif state.phase != Phase.PLAYING:
        right = ("class:title", f" {state.phase.value.capitalize()}… ")
    elif (held := state.held_by_deck()) is not None:
        right = ("class:title", DECK_TITLES[held])
    elif state.held is not None and state.held.code == "asking":
        right = ("class:title", " Asking the table… ")
    elif state.seat.seat in state.active and state.held is not None:
        right = ("class:title", " Catching up… " if state.held.code == "syncing"
                 else " Your turn: not yet ")
    elif state.seat.seat in state.active:
        right = ("class:title.turn", " ▶ Your turn ")
    else:
        right = ("class:title", f" {state.waiting_for()} to play ")
    short = f" Hedgerow · {name} · {count} · you are {me} "
    watched = state.watchers
    if watched:  # who watches (spectators, docs/protocol.md §3.4), as the room allows
        names, many = f"· watched by {', '.join(watched)} ", f"· {len(watched)} watching "
        lefts = [left + names, short + names, left + many, short + many,
                 f" {name} · {me} {many}", f" {name} {many}"]
    else:
        lefts = [left, short]
    lefts += [f" {name} · {me} ", f" {name} "]
    left = next((t for t in lefts if get_cwidth(t) + get_cwidth(right[1]) <= width),
                lefts[-1])
    pad = max(1, width - get_cwidth(left) - get_cwidth(right[1]))
    return [("class:title", left), ("class:title.fill", " " * pad), right]


def players(state: SeatState, width: int) -> StyleAndTextTuples:
    """Every seat: turn marker, name, and the game's running score columns; the link of
    each seat too, once some seat's link is not plainly on (waiting, lost, left)."""
    columns = state.ui.score_columns(state.view) if state.view is not None else []
    cells = []
    for column in columns:
        label, values = column.label, column.values
        size = max(len(label) if len(label) <= 6 else 2, 2, *(len(str(v)) for v in values)) + 1
        cells.append((label, values, column.style, size))
    show_link = links_matter(state)
    link_w = 5 if show_link else 0
    room = width - 2 - link_w - sum(c[3] for c in cells)
    name_w = max(6, min(24, room))  # a wide sidebar (a wide terminal) shows more of a name
    head = "  " + "Players".ljust(name_w) + (" link" if show_link else "")
    out: StyleAndTextTuples = [("class:heading", head)]
    shown = fit_names([state.name_of(s) for s in range(len(state.names))], name_w)
    for label, _, style, size in cells:
        out.append((style + " bold", label[: size - 1].rjust(size)))
    for info in state.infos:
        out.append(("", "\n"))
        turn = info.seat in state.active and state.phase == Phase.PLAYING
        out.append(("class:turn" if turn else "", "▶ " if turn else "  "))
        mine = info.seat == state.seat.seat
        name = shown[info.seat] if info.seat < len(shown) else cut(state.name_of(info.seat),
                                                                     name_w)
        out.append(("class:link.you bold" if mine else "", name.ljust(name_w)))
        if show_link and info.run_by is not None:  # a bot plays the seat (§5.9)
            out.append(("class:link.bot", " bot "))
        elif show_link:
            word = LINK_WORDS.get(info.link, info.link.value)
            out.append((f"class:link.{info.link.value}", f" {word:<4}"))
        for _, values, _, size in cells:
            value = values[info.seat] if info.seat < len(values) else ""
            out.append(("", str(value).rjust(size)))
    return out


def players_width(state: SeatState) -> int:
    """The columns the players table needs to show every name whole (up to 16 letters)."""
    columns = state.ui.score_columns(state.view) if state.view is not None else []
    sizes = sum(max(len(c.label) if len(c.label) <= 6 else 2, 2,
                    *(len(str(v)) for v in c.values)) + 1 for c in columns)
    names = max((len(state.name_of(i.seat)) for i in state.infos), default=6)
    link = 5 if links_matter(state) else 0
    return 2 + max(7, min(16, names)) + link + sizes


def links_matter(state: SeatState) -> bool:
    """Whether the players table spends a column on each seat's link: once some seat's
    link is not plainly on, while the game is on (after the end, who left says nothing:
    the names get the room)."""
    return not state.over and any(i.link not in (Link.YOU, Link.CONNECTED)
                                         for i in state.infos)


def history(state: SeatState, width: int, *, heading: bool = True) -> StyleAndTextTuples:
    """The log of actions in plain words, newest last (the window follows the end)."""
    out: StyleAndTextTuples = [("class:heading", "Log")] if heading else []
    if not state.lines:
        out.append(("class:dim", ("\n" if heading else "") + "No moves yet."))
    for n, line in enumerate(state.lines):
        mine = line.seat == state.seat.seat
        if heading or n:
            out.append(("", "\n"))
        text = wrap(f"{line.index + 1}. {state.named(line.text)}", width, "   ")
        out.append(("class:log.mine" if mine else "class:log", text))
    if state.problem:
        out.append(("class:error", "\n" + wrap(state.problem, width)))
    out.append(("[SetCursorPosition]", ""))
    return out


#: The prompt pane's lines: what it usually has, and the most it takes (from the board)
#: for a preview that needs two lines under an instruction or a message that needs two.
PROMPT_LINES, PROMPT_MOST = 3, 5


def prompt(state: SeatState, width: int) -> StyleAndTextTuples:
    """What to do now (or the last message), then the preview or the menu, broken between
    words (`prompt_lines`)."""
    out: StyleAndTextTuples = []
    for i, line in enumerate(prompt_lines(state, width)):
        out += [("", "\n")] * bool(i) + line
    return out


def prompt_lines(state: SeatState, width: int) -> list[Line]:
    """The prompt pane's lines, at most `PROMPT_MOST`: what to do now (or the last
    message), then the preview of the move (or the menu, the step's choice), then a hint
    for a newcomer, each broken between words.  The preview is the line read most: it is
    never cut.  Where they do not all fit, the hint goes first, then what was chosen so far
    (the board marks it), then the instruction's last lines (ending with "…")."""
    first, second, chosen, hint = _prompt_parts(state, width)
    preview = flow(chosen + second, width) if second else []
    if chosen and len(preview) > 2:  # what was chosen so far gives way to the preview
        preview = flow(second, width)
    head = flow(first, width) if first else []
    tail = flow(hint, width) if hint else []
    if len(head) + len(preview) + len(tail) > max(PROMPT_LINES, len(head) + len(preview)):
        tail = []  # the hint only where it fits in the usual lines
    room = max(1, PROMPT_MOST - len(preview))
    if len(head) > room:
        head = [*head[:room - 1], _ended(head[room - 1], width)]
    return [*head, *(preview or ([[]] if head else [])), *tail]


def _ended(line: Line, width: int) -> Line:
    """``line`` ending with "…" (said to go on), cut to fit ``width`` columns."""
    text = "".join(t for _, t in line)
    style = line[-1][0] if line else ""
    keep = max(0, min(len(text), width - 1))
    out: Line = []
    for piece_style, piece in line:
        if keep <= 0:
            break
        out.append((piece_style, piece[:keep]))
        keep -= len(piece)
    return [*out, (style, "…")]


def prompt_height(state: SeatState, width: int) -> int:
    """The rows the prompt pane takes now: `PROMPT_LINES`, or more (up to `PROMPT_MOST`)
    for a long preview or message."""
    return max(PROMPT_LINES, len(prompt_lines(state, width)))


def _prompt_parts(state: SeatState, width: int,
                  ) -> tuple[StyleAndTextTuples, StyleAndTextTuples, StyleAndTextTuples,
                             StyleAndTextTuples]:
    """The prompt's parts, unbroken: what to do now (or the last message), the preview or
    the menu, what was chosen so far (before the preview), the newcomer's hint."""
    view, seat, picker = state.view, state.seat.seat, state.picker
    first: StyleAndTextTuples
    if state.message:
        first = [("class:message", state.named(state.message))]
    elif state.phase == Phase.HALTED:
        first = [("class:error", f"Stopped: {state.problem or 'unknown reason'}")]
    elif state.over and state.screen == RESULTS:
        first = []
    elif state.over:
        first = [("class:prompt", "The game is over. Press Enter for the results.")]
    elif state.busy:
        first = [("class:prompt", "Sending your move…")]
    elif state.phase == Phase.SEATING and state.invite and state.seat.address:
        first = [("class:prompt", wrap(f"Others join with: hedgerow join {state.seat.address}",
                                       width))]
    elif (line := deck_line(state)) is not None:
        first = [("class:dim", line)]
    elif not state.my_turn:
        first = [("class:dim", state.waiting_line())]
    else:
        text = state.ui.prompt(view, seat) or _generic_prompt(picker)
        first = [("class:prompt", state.named(text))]
    second: StyleAndTextTuples = []
    chosen: StyleAndTextTuples = []
    if state.my_turn:
        menu = picker.menu()
        so_far = state.named("; ".join(
            f"{label}: {state.ui.target_text(value) if isinstance(value, Target) else value}"
            for label, value in picker.choices_so_far()))
        if so_far and (menu or picker.current() is None):  # a whole move says it all
            chosen.append(("class:dim", so_far + " · "))
        if menu:
            for i, entry in enumerate(menu):
                label = state.named(state.ui.preview(view, seat, entry.action)
                                    if entry.action else
                                    f"{entry.label[:1].upper()}{entry.label[1:]}…")
                style = "class:menu.current" if i == picker.menu_index else "class:menu"
                # a line per entry's words: "1" stays with its first word (no-break space)
                second += [("", "  " if i else ""), (style, f"\u00a0{i + 1}\u00a0{label}\u00a0")]
        else:
            action = picker.current()
            slot = picker.slot
            if action is not None:
                second += [("class:preview.mark", "▶ "),
                           ("class:preview", state.named(state.ui.preview(view, seat, action)))]
            elif isinstance(slot, ChooseMany):
                second.append(("class:dim", f"Choose {step_label(slot)}: Space (or a click) "
                                            "adds or removes, then press Enter."))
            elif slot is not None:
                cursor = picker.cursor_target()
                if cursor is not None:
                    second += [("class:preview.mark", "▶ "),
                               ("class:preview", state.named(
                                   f"{step_label(slot).capitalize()}: "
                                   f"{state.ui.target_text(cursor)}"))]
                    if len(picker.step_options()) > 1:
                        second.append(("class:dim", " — Enter takes it; the arrows choose "
                                                    "another."))
                    else:
                        second.append(("class:dim", " — Enter takes it."))
                else:
                    second.append(("class:dim", f"Choose {step_label(slot)} with the arrows "
                                                "(or a click), then press Enter."))
    hint: StyleAndTextTuples = []
    if state.my_turn and not any(line.seat == seat for line in state.lines):
        hint = [("class:dim", "New to the game? Press ? to see how to play.")]
    return first, second, chosen, hint


def _generic_prompt(picker: Picker) -> str:
    if picker.kind is None:
        return "Your turn: choose what to do (number or arrows, then Enter)."
    parts = []
    free = picker.free_step
    frees = picker.free_options()
    if free is not None and len(frees) > 1:
        parts.append(f"{free.label or free.role} (1-{len(frees)})")
    slot = picker.slot
    if isinstance(slot, Choose):
        several = len([v for v in picker.step_options() if any(x is not None for x in v)]) > 1
        parts.append(f"{step_label(slot)} (arrows)" if several else step_label(slot))
    elif isinstance(slot, ChooseMany):
        parts.append(f"{step_label(slot)} (Space)")
    elif isinstance(slot, Menu):
        parts.append(step_label(slot))
    for cycle, _ in picker.cycle_keys():
        parts.append(f"{step_label(cycle)} ({cycle.key})")
    if not parts:
        return "Your turn: press Enter to confirm."
    then = "Enter plays" if picker.last_step else "Enter goes on"
    return "Your turn: pick " + ", ".join(parts) + f"; {then}."


#: Keys the status line leaves out when nothing else makes it fit (the help lists them).
EXTRA_KEYS = ("PgUp/PgDn", "i")
#: Shorter names for some keys, for a status line that would not fit otherwise.
SHORT_KEYS = {"←↑↓→/hjkl": "←↑↓→", "↑↓/1-9": "↑↓", "PgUp/PgDn": "PgUp/Dn"}


def keys_line(state: SeatState, width: int = 200,
              keys: Sequence[tuple[str, str]] | None = None) -> StyleAndTextTuples:
    """The status line: only the keys that do something now (``keys``: (key, what it
    does), by default the table's), fitted to ``width`` (shorter key names, then less
    space, then the scroll keys alone, then the keys alone for help and quit, then without
    `EXTRA_KEYS`, which the help lists)."""
    keys = _keys_now(state) if keys is None else list(keys)
    fits: list[tuple[str, str]] = keys
    for attempt in range(6):
        fits = [(SHORT_KEYS.get(k, k) if attempt else k,
                 "" if (attempt >= 3 and k == "PgUp/PgDn") or (attempt >= 4 and k in ("?", "q"))
                 else what) for k, what in keys if attempt < 5 or k not in EXTRA_KEYS]
        gap = "  " if attempt < 2 else " "
        if sum(get_cwidth(k) + get_cwidth(w) + 3 + len(gap) for k, w in fits) <= width:
            break
    out: StyleAndTextTuples = []
    for key, what in fits:
        out += [("class:status.key", f" {key} "),
                ("class:status", f" {what}{gap}" if what else gap)]
    return out


def _keys_now(state: SeatState) -> list[tuple[str, str]]:
    """The keys that work now, each with what it does."""
    keys: list[tuple[str, str]] = []
    if state.overlay == QUIT:
        return [("y", "leave"), ("n", "stay")]
    if state.overlay == HELP:
        return [("Esc/?", "close help")]
    if state.screen == RESULTS:
        keys = [("b", "back to the board"), ("q", "quit")]
        if state.seat.log_path() is not None:  # (the replay viewer, after the screen closes)
            keys.insert(1, ("w", "watch the replay"))
        if state.results_lines > state.results_room:
            keys.insert(0, ("↑↓", "scroll"))
        return keys
    picker = state.picker
    if state.my_turn:
        if picker.menu():
            keys += [("↑↓/1-9", "choose"), ("Enter", "confirm")]
        else:
            slot = picker.slot
            if isinstance(slot, (Choose, ChooseMany)) and len(picker.step_options()) > 1:
                keys.append(("←↑↓→/hjkl", "move"))
            if isinstance(slot, ChooseMany):
                keys.append(("Space", "add/remove"))
            frees = picker.free_options()
            free = picker.free_step
            if free is not None and len(frees) > 1:
                keys.append((f"1-{len(frees)}", free.role))
            for cycle, _ in picker.cycle_keys():
                keys.append((cycle.key, step_label(cycle)))
            if picker.can_clear():
                keys.append(("Bksp", "none"))
            keys.append(("Enter", "play" if picker.last_step else "next"))
        if picker.step > 0 or (picker.kind is not None and len(picker.kinds) > 1):
            keys.append(("Esc", "back"))
    if state.over:
        keys.append(("Enter", "results"))
    elif state.departed and not state.box():  # (the box, while up, lists its own keys)
        keys.append(("s", "empty seat"))
    arrows = not state.my_turn and (state.board_scrolls() or state.board_wider())
    if state.board_scrolls():  # with the arrows too: "PgUp/PgDn ←↑↓→ scroll", one word
        keys.append(("PgUp/PgDn", "" if arrows else "scroll"))
    if arrows:
        keys.append(("←↑↓→", "scroll"))
    if state.ui.has_details():
        keys.append(("i", "read"))
    keys += [("?", "help"), ("q", "quit")]
    return keys


KEY_HELP = (
    ("←↑↓→ hjkl", "move the cursor"),
    ("1-9", "pick a card or a line"),
    ("Enter", "play / next step"),
    ("Esc", "go back one step"),
    ("i", "read a piece in full"),
    ("PgUp PgDn", "scroll the board"),
    ("←↑↓→", "scroll when waiting"),
    ("mouse", "click; wheel scrolls"),
    ("b", "board / results"),
    ("s", "a seat is empty: choices"),
    ("w", "watch replay (results)"),
    ("q", "leave (mid-game: asks)"),
)


def _game_keys(state: SeatState) -> list[tuple[str, str]]:
    """Keys the game's forms add: their cycles, Space for several targets."""
    found: dict[str, str] = {}
    for form in state.ui.ui.forms.values():
        for step in form.steps:
            if isinstance(step, Cycle):
                found.setdefault(f"{step.key} / {step.back}", f"{step_label(step)} (and back)")
            elif isinstance(step, ChooseMany):
                found.setdefault("Space", "add or remove a choice")
    return list(found.items())


#: What the help says of the table's deck, where there is room for it.
DECK_HELP = {True: "This table's deck is sealed: the players' programs shuffle it together, "
                   "no program (the host's included) can see a card it was not shown, and "
                   "at the end every shuffle, key and action is checked.",
             False: "This table's deck is open: every player's program can work out every "
                    "card (its host chose the faster start)."}


def help_text(state: SeatState, width: int, rows: int | None = None) -> StyleAndTextTuples:
    """The help overlay: how to play (from the game), then every key; then, where ``rows``
    (default: what the terminal leaves inside the box) leave room for it, at a networked
    table of two seats or more, what the table's deck is."""
    out: StyleAndTextTuples = []
    rules = state.ui.help(state.seat.ruleset.spec)
    if rules:
        out += [("class:heading", f"How to play {state.seat.ruleset.spec.title}"), ("", "\n"),
                ("", wrap(rules, width)), ("", "\n\n")]
    out += [("class:heading", "Keys"), ("", "\n")]
    pairs = [*KEY_HELP, *_game_keys(state)]
    for i in range(0, len(pairs), 2):
        for j, (key, what) in enumerate(pairs[i:i + 2]):
            out += [("class:status.key", f" {key:<10}"), ("", f" {what:<22}" if not j else
                                                          f" {what}")]
        out.append(("", "\n"))
    out.append(("class:dim", "\n" + wrap("The line above the keys says what your move would "
                                          "score before you confirm it.  Only legal moves can "
                                          "be chosen.", width)))
    if state.seat.players > 1 and state.seat.address:  # (a networked table)
        deck = wrap(DECK_HELP[state.seat.sealed], width)
        used = "".join(f[1] for f in out).count("\n") + 1
        if rows is None:
            from prompt_toolkit.application.current import get_app

            rows = get_app().output.get_size().rows - 3
        if used + 2 + deck.count("\n") + 1 <= rows:
            out.append(("class:dim", "\n\n" + deck))
    return out


def quit_text(state: SeatState) -> StyleAndTextTuples:
    """The question before leaving."""
    if not state.over and state.phase == Phase.PLAYING:
        return [("", "Leave the table? The game is not over;\nthe other seats will see you "
                     "leave.\n\n"), ("class:status.key", " y "), ("", " leave   "),
                ("class:status.key", " n "), ("", " stay")]
    return [("", "Leave the table?\n\n"), ("class:status.key", " y "), ("", " leave   "),
            ("class:status.key", " n "), ("", " stay")]
