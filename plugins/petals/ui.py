"""Petals for the seat client: the garden and hand with target tags, a ghost of the move being
composed, running scores, and plain words for a move before it is made.

A built-in plugin of its own (``petals-ui`` in the host's list), implementing the seat
client's hooks (`hedgerow.core.hookspecs`, docs/client.md): ``hedgerow_render_part`` for
``"board"`` and ``"hand"``, ``hedgerow_score_columns``, ``hedgerow_preview_action``,
``hedgerow_turn_prompt`` and ``hedgerow_help_text``.  It reads only the seat's `View` and
draws with the colours of ``petals.render``; it never imports the client.

Every fragment of a garden cell carries ``[target:x=X,y=Y]`` and every fragment of a hand
card ``[target:card=ID]``; the empty cells where a card may go are drawn as dim dots.  With a
preview, the card is drawn where it would go, and the facing flowers that would score are
underlined on both cards.
"""

from __future__ import annotations

from typing import Any

from hedgerow.core import Action, hookimpl
from hedgerow.plugins.petals.cards import ELEMENTS, flower_text
from hedgerow.plugins.petals.choices import MOVE_ARGS, PLACE_ARGS, int_args
from hedgerow.plugins.petals.describe import points_text
from hedgerow.plugins.petals.geometry import (
    SIDES,
    Cell,
    frontier,
    opposite,
    placed,
    side_neighbours,
)
from hedgerow.plugins.petals.ranking import two_lowest
from hedgerow.plugins.petals.render import DIM, ELEMENT_STYLES, ID
from hedgerow.plugins.petals.scoring import (
    DIFFERENT,
    IDENTICAL,
    PAIR_POINTS,
    PAIR_SYMBOLS,
    score_at,
    symbol_pairs,
)
from hedgerow.plugins.petals.state import FINAL, OVER, View

Fragment = tuple[str, str]
GAME = "petals"
ROW_LABEL = 4  # columns for the "y" labels at the left of the garden


def _garden(view: View) -> dict[Cell, int]:
    return {(x, y): placed(c, r) for x, y, c, r in view.garden}


def _apply_preview(view: View, preview: Action | None,
                   base: dict[Cell, int] | None = None) -> tuple[dict[Cell, int], Cell | None]:
    """The garden as the previewed action would leave it (a new dict; ``base`` is the view's
    garden when already at hand), and the cell of the card it scores."""
    garden = dict(base) if base is not None else _garden(view)
    if preview is None:
        return garden, None
    if preview.kind == "place":
        values = int_args(preview, PLACE_ARGS)
        if values:
            ident, rot, x, y = values
            garden[(x, y)] = placed(ident, rot)
            return garden, (x, y)
    elif preview.kind == "move":
        values = int_args(preview, MOVE_ARGS)
        if values:
            fx, fy, rot, tx, ty = values
            ident = garden.pop((fx, fy), 0) >> 2
            garden[(tx, ty)] = placed(ident, rot)
            return garden, (tx, ty)
    elif preview.kind == "score" and view.pending is not None:
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


def _flower(code: int, tag: str, marked: bool) -> Fragment:
    style = ELEMENT_STYLES[code >> 2] + tag
    if code & 3 == 0:
        style += " reverse"
    if marked:
        style += " underline"
    return (style, flower_text(code))


def _cell_rows(garden: dict[Cell, int], cell: Cell, wide: bool, open_cells: set[Cell],
               marks: set[tuple[Cell, int]], ghost: Cell | None) -> list[list[Fragment]]:
    """Three rows of one garden cell, each fragment tagged with the cell."""
    tag = f" [target:x={cell[0]},y={cell[1]}]"
    size = 8 if wide else 5
    value = garden.get(cell)
    if value is None:
        dot = "·" if cell in open_cells else " "
        blank = (tag, " " * size)
        return [[blank], [(DIM + tag, dot.center(size))], [blank]]
    top, right, bottom, left = SIDES[value]
    pad = (tag, "   " if wide else "  ")
    ident = value >> 2
    middle: list[Fragment] = [_flower(left, tag, (cell, 3) in marks), (tag, " ")]
    if wide:
        middle += [((ID + " italic" if cell == ghost else ID) + tag, f"{ident:02d}"), (tag, " ")]
    middle.append(_flower(right, tag, (cell, 1) in marks))
    return [[pad, _flower(top, tag, (cell, 0) in marks), pad], middle,
            [pad, _flower(bottom, tag, (cell, 2) in marks), pad]]


def render_board(view: View, seat: int, width: int, preview: Action | None) -> list[Fragment]:
    """The garden, with the open cells, the previewed move and a line about the pile."""
    base = _garden(view)
    garden, scored = _apply_preview(view, preview, base)
    open_cells = set(frontier(base)) if view.pending is None else set()
    cells = set(garden) | set(base) | set(frontier(base)) | set(frontier(garden))
    low_x, high_x = min(x for x, _ in cells), max(x for x, _ in cells)
    low_y, high_y = min(y for _, y in cells), max(y for _, y in cells)
    wide = ROW_LABEL + 9 * (high_x - low_x + 1) <= width
    size = 8 if wide else 5
    marks = _scoring_sides(garden, scored)
    status = f"Draw pile {view.pile_count}"
    if view.phase == FINAL:
        status += f" · final round, {view.final_left} turn(s) left"
    elif view.phase == OVER:
        status += " · game over"
    lines: list[list[Fragment]] = [[(DIM, status)]]
    header: list[Fragment] = [("", " " * ROW_LABEL)]
    for x in range(low_x, high_x + 1):
        header.append((DIM, f"x{x}".center(size) + " "))
    lines.append(header)
    for y in range(high_y, low_y - 1, -1):
        margin = ("", " " * ROW_LABEL)
        rows: list[list[Fragment]] = [[margin], [(DIM, f"y{y}".rjust(ROW_LABEL - 1) + " ")],
                                      [margin]]
        for x in range(low_x, high_x + 1):
            block = _cell_rows(garden, (x, y), wide, open_cells, marks, scored)
            for row, part in zip(rows, block, strict=True):
                row.extend(part)
                row.append(("", " "))
        lines.extend(rows)
    return _join(lines)


def render_hand(view: View, seat: int, width: int, preview: Action | None) -> list[Fragment]:
    """The seat's cards side by side, numbered for the keys 1, 2, ...; the previewed card turned."""
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
        tag = f" [target:card={ident}]"
        top, right, bottom, left = SIDES[placed(ident, rot_of.get(ident, 0))]
        rows[0] += [(f"bold{tag}", f"  [{n}]   "), ("", "  ")]
        rows[1] += [(tag, "   "), _flower(top, tag, False), (tag, "   "), ("", "  ")]
        rows[2] += [_flower(left, tag, False), (tag, " "), (ID + tag, f"{ident:02d}"),
                    (tag, " "), _flower(right, tag, False), ("", "  ")]
        rows[3] += [(tag, "   "), _flower(bottom, tag, False), (tag, "   "), ("", "  ")]
    return _join(rows)


def _join(lines: list[list[Fragment]]) -> list[Fragment]:
    out: list[Fragment] = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(f for f in line if f[1])
    return out


def _turned(rot: int) -> str:
    return "" if rot == 0 else f", turned {90 * rot}°"


def preview_text(view: View, seat: int, action: Action) -> str:
    """What ``action`` would do, in words, with the points it would score."""
    garden, cell = _apply_preview(view, action)
    if action.kind == "place":
        ident, rot, x, y = int_args(action, PLACE_ARGS) or (0, 0, 0, 0)
        text = f"Play #{ident:02d} at ({x},{y}){_turned(rot)}: "
        effect, _ = symbol_pairs(garden, (x, y))
        points = points_text(score_at(garden, (x, y)))
        if effect == DIFFERENT:
            return text + ("different symbols meet: you then choose to score it "
                           f"({points}) or move another card")
        if effect == IDENTICAL:
            return text + f"{points}, and identical symbols let you move another card"
        return text + points
    if action.kind == "move" and cell is not None:
        fx, fy, rot, tx, ty = int_args(action, MOVE_ARGS) or (0, 0, 0, 0, 0)
        ident = garden[cell] >> 2
        return (f"Move #{ident:02d} from ({fx},{fy}) to ({tx},{ty}){_turned(rot)}: "
                f"{points_text(score_at(garden, cell))}")
    if action.kind == "score" and cell is not None:
        return f"Score the card you played: {points_text(score_at(garden, cell))}"
    if action.kind == "decline":
        return "Move nothing"
    return str(action)


def turn_prompt(view: View, seat: int) -> str | None:
    """What a newcomer needs to know about the decision at hand."""
    pending = view.pending
    if pending is not None and pending.kind == "different":
        return ("Different symbols met! Score the card you played (1), or move another "
                "card and score that instead (2).")
    if pending is not None:
        return ("Identical symbols met! You may move another card and score it too (1), "
                "or move nothing (2).")
    if view.phase == FINAL and len(view.hand) == 2:
        return ("Final round: play one card (number, arrows, r, Enter); "
                "the other card then scores its numbers directly.")
    return None


@hookimpl
def hedgerow_render_part(game: str, part: str, view: Any, seat: int, width: int,
                         preview: Any) -> list[Fragment] | None:
    """Petals' garden (``board``) and the seat's hand (``hand``), with target tags."""
    if game != GAME:
        return None
    if part == "board":
        return render_board(view, seat, width, preview)
    if part == "hand":
        return render_hand(view, seat, width, preview)
    return None


@hookimpl
def hedgerow_score_columns(game: str, view: Any) -> list[tuple[str, tuple[int, ...], str]] | None:
    """The four trackers of every seat, then the score so far (the two lowest trackers)."""
    if game != GAME:
        return None
    columns = [(ELEMENTS[e][0], tuple(t[e] for t in view.trackers), ELEMENT_STYLES[e])
               for e in range(4)]
    columns.append(("Score", tuple(two_lowest(t) for t in view.trackers), "bold"))
    return columns


@hookimpl
def hedgerow_preview_action(game: str, view: Any, seat: int, action: Any) -> str | None:
    """A Petals move in words with its points, before it is made."""
    if game != GAME:
        return None
    return preview_text(view, seat, action)


@hookimpl
def hedgerow_turn_prompt(game: str, view: Any, seat: int) -> str | None:
    """Explains symbol effects and the final round."""
    if game != GAME:
        return None
    return turn_prompt(view, seat)



HELP = ("On your turn, play a card from your hand onto an empty cell that shares a side with "
        "the garden, turned as you like. Facing flowers score for you: the same element "
        "scores both numbers for that element; different elements with equal numbers score "
        "each number for its own element. Two symbols (shown reversed) facing each other let "
        "you move a card. At the end only players who lead at least one element can win, and "
        "your score is your two LOWEST elements added: keep all four in balance.")


@hookimpl
def hedgerow_help_text(game: str) -> str | None:
    """How to play Petals, in short."""
    return HELP if game == GAME else None
