"""Drawing Petals for the seat client: each part of the table screen, drawn once, here.

Three parts (`hedgerow.core.ui`): the shared **garden** (board area), the seat's **hand**
(hand area) and, once the game is over, the cards each seat **scored directly** (results
area).  Fragments are ``(style, text)`` pairs, or ``(style, text, Target)`` for what a key
or a click selects: ``Target("cell", (x, y))`` on every fragment of a garden cell, empty or
not, and ``Target("card", id)`` on every fragment of a hand card.  This module never imports
prompt_toolkit.

The garden is drawn as the move being composed would leave it: the card at its new cell
(its id in italics), and the facing flowers that would score or meet as symbols underlined
on both cards.  Empty cells where a card may go show a dim dot.  A garden too wide for the
width drops the card ids (5 columns a cell instead of 8); wider still, the client scrolls.
"""

from __future__ import annotations

import textwrap

from hedgerow.core import Action
from hedgerow.core.ui import Drawing, Fragment, Target
from hedgerow.plugins.petals.cards import SYMBOL, card, flower_text
from hedgerow.plugins.petals.choices import MOVE_ARGS, PLACE_ARGS, int_args
from hedgerow.plugins.petals.geometry import (
    SIDES,
    Cell,
    frontier,
    opposite,
    placed,
    side_neighbours,
)
from hedgerow.plugins.petals.scoring import PAIR_POINTS, PAIR_SYMBOLS
from hedgerow.plugins.petals.state import FINAL, OVER, View

#: One style per element (Fire, Water, Earth, Air); symbols are drawn reversed.
ELEMENT_STYLES = ("fg:ansired bold", "fg:ansiblue bold", "fg:ansiyellow bold",
                  "fg:ansiwhite bold")
DIM = "fg:ansibrightblack"
ID = "fg:ansigreen"
ROW_LABEL = 4  # columns for the "y" labels at the left of the garden
CELL, CARD = "cell", "card"  # the roles of the targets drawn here


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
               marks: set[tuple[Cell, int]], ghost: Cell | None) -> list[list[Fragment]]:
    """Three rows of one garden cell, every fragment carrying the cell's target."""
    target = Target(CELL, cell)
    size = 8 if wide else 5
    value = garden.get(cell)
    if value is None:
        dot = "·" if cell in open_cells else " "
        blank = ("", " " * size, target)
        return [[blank], [(DIM, dot.center(size), target)], [blank]]
    top, right, bottom, left = SIDES[value]
    pad: Fragment = ("", "   " if wide else "  ", target)
    middle: list[Fragment] = [_flower(left, target, (cell, 3) in marks), ("", " ", target)]
    if wide:
        style = ID + " italic" if cell == ghost else ID
        middle += [(style, f"{value >> 2:02d}", target), ("", " ", target)]
    middle.append(_flower(right, target, (cell, 1) in marks))
    return [[pad, _flower(top, target, (cell, 0) in marks), pad], middle,
            [pad, _flower(bottom, target, (cell, 2) in marks), pad]]


def _status(view: View) -> str:
    status = f"Draw pile {view.pile_count}"
    if view.phase == FINAL:
        status += f" · final round, {view.final_left} turn(s) left"
    elif view.phase == OVER:
        status += " · game over"
    return status


def _pending_lines(view: View, width: int) -> list[list[Fragment]]:
    """The symbol effect waiting for a choice, and the cards that may not move."""
    pending = view.pending
    if pending is None:
        return []
    x, y = pending.played
    who = "You" if view.active == view.seat else f"Seat {view.active}"
    if pending.kind == "different":
        text = (f"Different symbols met at ({x},{y}). {who}: score the card just played, or "
                "move another card and score it instead.")
    else:
        text = (f"Identical symbols met at ({x},{y}). {who}: move another card and score it, "
                "or decline.")
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
    lines: list[list[Fragment]] = [[(DIM, _status(view))]]
    header: list[Fragment] = [("", " " * ROW_LABEL)]
    for x in range(low_x, high_x + 1):
        header.append((DIM, f"x{x}".center(size) + " "))
    lines.append(header)
    for y in range(high_y, low_y - 1, -1):
        margin: Fragment = ("", " " * ROW_LABEL)
        rows: list[list[Fragment]] = [[margin], [(DIM, f"y{y}".rjust(ROW_LABEL - 1) + " ")],
                                      [margin]]
        for x in range(low_x, high_x + 1):
            block = _cell_rows(garden, (x, y), wide, open_cells, marks, scored)
            for row, part in zip(rows, block, strict=True):
                row.extend(part)
                row.append(("", " "))
        lines.extend(rows)
    pending = _pending_lines(view, width)
    if pending:
        lines += [[], *pending]
    return join(lines)


def draw_hand(view: View, preview: Action | None) -> Drawing:
    """The seat's cards side by side, labelled for the keys 1, 2, …; the previewed card
    turned as it would be played.  Nothing once the game is over."""
    if view.phase == OVER:
        return []
    rot_of: dict[int, int] = {}
    if preview is not None and preview.kind == "place":
        values = int_args(preview, PLACE_ARGS)
        if values:
            rot_of[values[0]] = values[1]
    rows: list[list[Fragment]] = [[("bold", word.ljust(6))] for word in ("Your", "hand", "", "")]
    if not view.hand:
        rows[0].append((DIM, "(empty)"))
    for n, ident in enumerate(view.hand, start=1):
        target = Target(CARD, ident)
        top, right, bottom, left = SIDES[placed(ident, rot_of.get(ident, 0))]
        rows[0] += [("bold", f"  [{n}]   ", target), ("", "  ")]
        rows[1] += [("", "   ", target), _flower(top, target), ("", "   ", target), ("", "  ")]
        rows[2] += [_flower(left, target), ("", " ", target), (ID, f"{ident:02d}", target),
                    ("", " ", target), _flower(right, target), ("", "  ")]
        rows[3] += [("", "   ", target), _flower(bottom, target), ("", "   ", target),
                    ("", "  ")]
    return join(rows)


def draw_scored(view: View, seat: int) -> Drawing:
    """Once the game is over: the card(s) each seat scored directly from its hand."""
    if view.phase != OVER or not view.scored_directly:
        return []
    lines: list[list[Fragment]] = [[("bold", "Scored directly from the hand")]]
    for s, cards in enumerate(view.scored_directly):
        who = "You" if s == seat else f"Seat {s}"
        row: list[Fragment] = [("", f"{who:<8}")]
        if not cards:
            row.append((DIM, "nothing"))
        for ident in cards:
            flowers = card(ident).flowers
            row.append((ID, f" #{ident:02d} "))
            for code in flowers:
                row += [_flower(code, None), ("", " ")]
        lines.append(row)
    return join(lines)


def join(lines: list[list[Fragment]]) -> Drawing:
    """Lines of fragments as one drawing, ``"\\n"`` between lines, empty texts left out."""
    out: Drawing = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(f for f in line if f[1])
    return out
