"""Drawing Petals for the seat client: each part of the table screen, drawn once, here.

Three parts (`hedgerow.core.ui`): the shared **garden** (board area), the seat's **hand**
(hand area) and, once the game is over, the **chart** of where each player's points came
from and the cards each seat **scored directly** (results area).  Fragments are
``(style, text)`` pairs, or ``(style, text, Target)`` for what a key or a click selects:
``Target("cell", (x, y))`` on every fragment of a garden cell, empty or not, and
``Target("card", id)`` on every fragment of a hand card.  A player is named by a fragment
``Target("seat", n)`` whose text is ``"Seat n"``: the seat client shows the player's name
there (fitted to the text's width when the text is padded, so a column stays aligned).
This module never imports prompt_toolkit.

The garden is drawn as the move being composed would leave it: the card at its new cell
with rounded corners (its id in italics), and the facing flowers that would score or meet
as symbols underlined on both cards.  Every card is drawn on a dark tile, so that cards
side by side read apart.  The latest turn's card has heavy corners (and a card
it moved leaves "moved" where it was); the line under the hand says whose it is.  The
garden's first line is its column labels and every line starts with its row label: the
part declares them as headings (`Part.head_rows`, `Part.head_columns`), which the client
keeps on screen while the garden scrolls.  Empty cells where a card may go show a dim dot.  A
garden too wide for the width drops the card ids (5 columns a cell instead of 8); wider
still, the client scrolls.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

from hedgerow.core import Action
from hedgerow.core.actions import Value
from hedgerow.core.ui import Drawing, Fragment, Target
from hedgerow.plugins.petals.cards import ELEMENTS, LETTERS, SYMBOL, card, flower_text
from hedgerow.plugins.petals.choices import MOVE_ARGS, PLACE_ARGS, int_args
from hedgerow.plugins.petals.geometry import (
    SIDES,
    Cell,
    frontier,
    opposite,
    placed,
    side_neighbours,
)
from hedgerow.plugins.petals.ranking import tracker_winners
from hedgerow.plugins.petals.scorerule import ScoreRule
from hedgerow.plugins.petals.scoring import PAIR_POINTS, PAIR_SYMBOLS, Points
from hedgerow.plugins.petals.state import FINAL, OVER, View

#: One style per element (Fire, Water, Earth, Air); symbols are drawn reversed.
ELEMENT_STYLES = ("fg:ansired bold", "fg:ansiblue bold", "fg:ansiyellow bold",
                  "fg:ansiwhite bold")
DIM = "fg:ansibrightblack"
ID = "fg:ansigreen"
ROW_LABEL = 4  # columns for the "y" labels at the left of the garden
CELL, CARD, SEAT = "cell", "card", "seat"  # the roles of the targets drawn here
LAST = "fg:ansicyan bold"  # the corners of the latest turn's card
GHOST = "fg:ansibrightblack italic"  # the corners of the card being placed or moved
CORNERS = {"last": ("┏", "┓", "┗", "┛"), "ghost": ("╭", "╮", "╰", "╯")}
TILE = "bg:#303030"  # every card's background, so that side by side cards read apart


def seat_name(seat: int, width: int = 0) -> Fragment:
    """A player's name, which the seat client fills in (``width``: a padded column)."""
    return ("", f"Seat {seat}".ljust(width), Target(SEAT, seat))


def garden_of(view: View) -> dict[Cell, int]:
    """The view's garden as ``cell -> card_id * 4 + rotation``."""
    return {(x, y): placed(c, r) for x, y, c, r in view.garden}


def garden_after(view: View, action: Action | None,
                 base: dict[Cell, int] | None = None) -> tuple[dict[Cell, int], Cell | None]:
    """The garden as ``action`` would leave it (a new dict; ``base`` is the view's garden
    when already at hand), and the cell of the card it scores (None when it scores none)."""
    garden = dict(base) if base is not None else garden_of(view)
    if action is None:
        return garden, None
    if action.kind == "place":
        values = int_args(action, PLACE_ARGS)
        if values:
            ident, rot, x, y = values
            garden[(x, y)] = placed(ident, rot)
            return garden, (x, y)
    elif action.kind == "move":
        values = int_args(action, MOVE_ARGS)
        if values:
            fx, fy, rot, tx, ty = values
            ident = garden.pop((fx, fy), 0) >> 2
            garden[(tx, ty)] = placed(ident, rot)
            return garden, (tx, ty)
    elif action.kind == "score" and view.pending is not None:
        return garden, view.pending.played
    return garden, None


def _scoring_sides(garden: dict[Cell, int], cell: Cell | None) -> set[tuple[Cell, int]]:
    """The (cell, side) flowers of the contact pairs that score or meet as symbols at ``cell``."""
    marks: set[tuple[Cell, int]] = set()
    if cell is None or cell not in garden:
        return marks
    sides = SIDES[garden[cell]]
    for side, n in enumerate(side_neighbours(cell)):
        other = garden.get(n)
        if other is None:
            continue
        pair = sides[side] * 16 + SIDES[other][opposite(side)]
        if PAIR_POINTS[pair] or PAIR_SYMBOLS[pair]:
            marks |= {(cell, side), (n, opposite(side))}
    return marks


def _piece(style: str, text: str, target: Target | None) -> Fragment:
    return (style, text) if target is None else (style, text, target)


def _flower(code: int, target: Target | None, marked: bool = False) -> Fragment:
    style = ELEMENT_STYLES[code >> 2]
    if code & 3 == SYMBOL:
        style += " reverse"
    if marked:
        style += " underline"
    return _piece(style, flower_text(code), target)


def _cell_rows(garden: dict[Cell, int], cell: Cell, wide: bool, open_cells: set[Cell],
               marks: set[tuple[Cell, int]], ghost: Cell | None, last: set[Cell],
               moved_from: Cell | None) -> list[list[Fragment]]:
    """Three rows of one garden cell, every fragment carrying the cell's target."""
    target = Target(CELL, cell)
    size = 8 if wide else 5
    value = garden.get(cell)
    if value is None:
        dot = "·" if cell in open_cells else " "
        blank = ("", " " * size, target)
        below = (DIM, ("moved" if cell == moved_from else "").center(size), target)
        return [[blank], [(DIM, dot.center(size), target)], [below]]
    top, right, bottom, left = SIDES[value]
    kind = "ghost" if cell == ghost else "last" if cell in last else ""
    tl, tr, bl, br = CORNERS.get(kind, (" ", " ", " ", " "))
    corner = GHOST if kind == "ghost" else LAST
    inner: Fragment = ("", "  " if wide else "", target)
    tail: Fragment = ("", "  " if wide else " ", target)
    middle: list[Fragment] = [_flower(left, target, (cell, 3) in marks), ("", " ", target)]
    if wide:
        style = ID + " italic" if cell == ghost else ID
        middle += [(style, f"{value >> 2:02d}", target), ("", " ", target)]
    middle.append(_flower(right, target, (cell, 1) in marks))
    rows = [[(corner, tl, target), inner, _flower(top, target, (cell, 0) in marks), tail,
             (corner, tr, target)],
            middle,
            [(corner, bl, target), inner, _flower(bottom, target, (cell, 2) in marks), tail,
             (corner, br, target)]]
    return [[(f"{f[0]} {TILE}".strip(), f[1], target) for f in row] for row in rows]


def status_text(view: View) -> str:
    """The draw pile, and the final round or the end."""
    status = f"Draw pile {view.pile_count}"
    if view.phase == FINAL:
        status += f" · final round, {view.final_left} turn(s) left"
    elif view.phase == OVER:
        status += " · game over"
    return status


def _legend(view: View) -> list[Fragment]:
    """Whose card has the heavy corners: under the hand, which never scrolls away (so the
    board's first line can be its column labels, which stay on screen as it scrolls)."""
    last = view.last
    if last is None:
        return [(DIM, "No card played yet.")]
    who = [(DIM, "yours")] if last.seat == view.seat else [seat_name(last.seat)]
    return [(LAST, "┏┓"), (DIM, " last turn: "), *who]


def _pending_lines(view: View, width: int) -> list[list[Fragment]]:
    """The symbol effect waiting for a choice, and the cards that may not move."""
    pending = view.pending
    if pending is None:
        return []
    x, y = pending.played
    if pending.kind == "different":
        text = (f"Different symbols met at ({x},{y}): score the card just played, or move "
                "another card and score it instead.")
    else:
        text = (f"Identical symbols met at ({x},{y}): move another card and score it too, "
                "or move nothing.")
    fixed = ", ".join(f"({a},{b})" for a, b in pending.triggers)
    text += f" Cards that may not move: {fixed}."
    return [[("fg:ansimagenta bold", line)] for line in textwrap.wrap(text, max(width, 20))]


def draw_garden(view: View, width: int, preview: Action | None) -> Drawing:
    """The garden with the open cells and the previewed move; the pile and any effect."""
    base = garden_of(view)
    garden, scored = garden_after(view, preview, base)
    open_cells = set(frontier(base)) if view.pending is None else set()
    cells = set(garden) | set(base) | set(frontier(base)) | set(frontier(garden))
    low_x, high_x = min(x for x, _ in cells), max(x for x, _ in cells)
    low_y, high_y = min(y for _, y in cells), max(y for _, y in cells)
    wide = ROW_LABEL + 9 * (high_x - low_x + 1) <= width
    size = 8 if wide else 5
    marks = _scoring_sides(garden, scored)
    ghost = scored if preview is not None and preview.kind in ("place", "move") else None
    last = view.last
    last_cells = set() if last is None else {last.placed, *(last.moved or ())[1:]}
    moved_from = last.moved[0] if last is not None and last.moved else None
    header: list[Fragment] = [("", " " * ROW_LABEL)]  # the row the client keeps on top
    for x in range(low_x, high_x + 1):
        header.append((DIM, f"x{x}".center(size) + " "))
    lines: list[list[Fragment]] = [header]
    for y in range(high_y, low_y - 1, -1):
        margin: Fragment = ("", " " * ROW_LABEL)
        rows: list[list[Fragment]] = [[margin], [(DIM, f"y{y}".rjust(ROW_LABEL - 1) + " ")],
                                      [margin]]
        for x in range(low_x, high_x + 1):
            block = _cell_rows(garden, (x, y), wide, open_cells, marks, ghost, last_cells,
                               moved_from)
            for row, part in zip(rows, block, strict=True):
                row.extend(part)
                row.append(("", " "))
        lines.extend(rows)
    pending = _pending_lines(view, width)
    if pending:
        lines += [[], *pending]
    return join(lines)


def draw_hand(view: View, preview: Action | None,
              partial: Mapping[str, Value] | None = None) -> Drawing:
    """The seat's cards side by side, labelled for the keys 1, 2, …; the previewed card
    turned as it would be played; the draw pile, and whose card has the heavy corners.
    While the card to move is being chosen, a line naming the card under the cursor.  Once
    the game is over, a line saying the board is the final garden."""
    if view.phase == OVER:
        return join([[(DIM, "The game is over: the final garden.")], _legend(view)])
    rot_of: dict[int, int] = {}
    if preview is not None and preview.kind == "place":
        values = int_args(preview, PLACE_ARGS)
        if values:
            rot_of[values[0]] = values[1]
    rows: list[list[Fragment]] = [[("bold", word.ljust(6))] for word in ("Your", "hand", "", "")]
    if not view.hand:
        rows[0].append((DIM, "(empty)  "))
    for n, ident in enumerate(view.hand, start=1):
        target = Target(CARD, ident)
        top, right, bottom, left = SIDES[placed(ident, rot_of.get(ident, 0))]
        rows[0] += [("bold", f"  [{n}]   ", target), ("", "  ")]
        rows[1] += [("", "   ", target), _flower(top, target), ("", "   ", target), ("", "  ")]
        rows[2] += [_flower(left, target), ("", " ", target), (ID, f"{ident:02d}", target),
                    ("", " ", target), _flower(right, target), ("", "  ")]
        rows[3] += [("", "   ", target), _flower(bottom, target), ("", "   ", target),
                    ("", "  ")]
    # a line each: beside each other they would make the hand too wide to share a narrow
    # screen with the players table
    rows += [[(DIM, status_text(view))], _legend(view)]
    moving = _moving(view, preview, partial or {})
    if moving:
        rows.append(moving)
    return join(rows)


def _moving(view: View, preview: Action | None, partial: Mapping[str, Value],
            ) -> list[Fragment]:
    """While the card to move is chosen (no destination yet): which card the cursor is on."""
    if view.pending is None or preview is not None or "to_x" in partial:
        return []
    fx, fy = partial.get("from_x"), partial.get("from_y")
    if not isinstance(fx, int) or not isinstance(fy, int):
        return []
    found = garden_of(view).get((fx, fy))
    if found is None:
        return []
    ident = found >> 2
    line: list[Fragment] = [("bold", f"Card to move: #{ident:02d} at ({fx},{fy})  ")]
    for code in SIDES[found]:
        line += [_flower(code, None), ("", " ")]
    return line


def _chart_bar(points: int, direct: int, top: int, size: int, style: str) -> list[Fragment]:
    """A tracker's bar: what play scored (solid) then the last card's share (shaded); any
    points at all show at least one cell."""
    if top <= 0 or size <= 0:
        return [("", " " * max(size, 0))]
    total = max(round(size * points / top), 1 if points > 0 else 0)
    shaded = min(total, max(round(size * direct / top), 1 if direct > 0 else 0))
    solid = total - shaded
    return [(style, "█" * solid), (style, "▒" * shaded), ("", " " * (size - total))]


def draw_chart(view: View, width: int, rule: ScoreRule,
               ranking: Sequence[int] | None = None) -> Drawing:
    """Once the game is over: per player, each tracker as a bar (the last card's points
    shaded), a star on each tracker won, the trackers the figure counts underlined, and
    the figure itself as a small sum (``7 + 9 = 16``, Harmony's ``15 - 7 = 8``).  Players
    in ``ranking``'s order (one rank per seat, 1 best: the table's result), else by seat."""
    if view.phase != OVER or not view.trackers:
        return []
    trackers: tuple[Points, ...] = view.trackers
    direct = view.direct or tuple((0, 0, 0, 0) for _ in trackers)
    winners = tracker_winners(trackers)
    won = [sum(1 for seats in winners if s in seats) for s in range(view.players)]
    name_w = 13
    figure_w = 16
    cell = max(8, min(16, (width - name_w - figure_w) // 4))
    bar_w = cell - 5  # bar, space, value (2), star
    top = max((max(t) for t in trackers), default=0)
    lines: list[list[Fragment]] = [
        [("bold underline", "Where the points came from")],
        [(DIM, f"★ tracker won · ▒ last card · underlined: in the {rule.label.lower()}")],
        [("", " " * name_w),
         *((ELEMENT_STYLES[e], ELEMENTS[e].ljust(cell)) for e in range(4)),
         ("bold", rule.label)],
    ]
    ranks = list(ranking) if ranking is not None and len(ranking) == view.players else \
        [1] * view.players
    for s in sorted(range(view.players), key=lambda s: (ranks[s], s)):
        points = trackers[s]
        counted = set(rule.counted(points)) if won[s] else set()
        row: list[Fragment] = [seat_name(s, name_w - 1), ("", " ")]
        for e in range(4):
            style = ELEMENT_STYLES[e].replace(" bold", "")
            row += _chart_bar(points[e], direct[s][e] if s < len(direct) else 0, top,
                              bar_w, style)
            value_style = "bold underline" if e in counted else ""
            row += [("", " "), (value_style, f"{points[e]:>2}"),
                    ("fg:ansiyellow bold", "★" if s in winners[e] else " "), ("", " ")]
        if won[s]:
            row.append(("bold", f"{rule.sum_words(points)} = {rule.figure(points)}"))
        else:
            row.append((DIM, "out: led no tracker"))
        lines.append(row)
    return join(lines)


def draw_scored(view: View) -> Drawing:
    """Once the game is over: the card(s) each seat scored directly from its hand, and
    what they added."""
    if view.phase != OVER or not view.scored_directly:
        return []
    lines: list[list[Fragment]] = [[("bold", "Last cards, scored directly at the end")]]
    for s, cards in enumerate(view.scored_directly):
        row: list[Fragment] = [seat_name(s, 13)]
        if not cards:
            row.append((DIM, "nothing"))
        for ident in cards:
            row.append((ID, f"#{ident:02d} "))
            for code in card(ident).flowers:
                row += [_flower(code, None), ("", " ")]
        if s < len(view.direct):
            row.append((DIM, "→ " + _points_words(view.direct[s])))
        lines.append(row)
    return join(lines)


def _points_words(points: Points) -> str:
    words = [f"{LETTERS[e]}+{p}" for e, p in enumerate(points) if p]
    return " ".join(words) or "nothing"


def join(lines: list[list[Fragment]]) -> Drawing:
    """Lines of fragments as one drawing, ``"\\n"`` between lines, empty texts left out."""
    out: Drawing = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(f for f in line if f[1])
    return out
