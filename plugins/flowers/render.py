"""Drawing FLOWERS for the seat client: the gardens, the stacks, and the final gardens.

Three drawings (parts of `hedgerow.plugins.flowers.ui`), as ``(style, text[, Target])``
fragments; nothing here imports prompt_toolkit.

* `draw_gardens` (board area): every seat's garden as a grid, the seat's own first.  A cell
  shows its visible card as the rules write it (``R3``, ``Y4g``: the butterfly's letter in
  the butterfly's colour), in its colour, and the height of a pile of two or more as a
  small raised digit (``R3²``).  The seat's own garden shows with a dim dot every empty
  spot a card may go; its cells carry ``Target("cell", (x, y))``, the other gardens'
  cells ``Target("plot", (seat, x, y))`` (read with ``i``, never chosen), and the other
  players' names ``Target("seat", seat)`` (the client writes the name in).  A planting
  being composed is drawn where it would go, underlined.  While the game goes on, the
  other gardens leave out their x labels, to save rows (``i`` names any card's cell).
  Once the game is over, the cells removed at scoring are crossed (and struck through),
  and each header gives the final score.
* `draw_stacks` (hand area): each stack with its face-up top (or ``░░░`` when face down)
  and its size, ``Target("stack", i)``; the face-up ones labelled ``[1]``, ``[2]`` for the
  number keys; the card held after a face-down take; alone, the discards.
* `draw_final` (results area): per seat, the score as a sum, each removed group with what
  it cost and why, the colour groups and butterflies that scored, and the final garden;
  alone, the ranks with the one earned.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping

from hedgerow.core import Action
from hedgerow.core.ui import Drawing, Fragment, Target, side_by_side
from hedgerow.plugins.flowers.cards import (
    BLUE,
    BUTTERFLY,
    COLOUR,
    COLOURS,
    GREEN,
    LETTERS,
    NONE,
    PURPLE,
    PURPLES,
    RED,
    VALUE,
    YELLOW,
    card_text,
)
from hedgerow.plugins.flowers.choices import plant_args
from hedgerow.plugins.flowers.garden import Cell, Stack
from hedgerow.plugins.flowers.ranking import BEGINNER, RANKS
from hedgerow.plugins.flowers.scoring import GardenScore, NumberGroup
from hedgerow.plugins.flowers.setup import stack_name
from hedgerow.plugins.flowers.state import OVER, PLANT, GardenCells, View

CELL, PLOT, STACK = "cell", "plot", "stack"  # the roles of the targets drawn here
SEAT = "seat"  # a player's name: the seat client puts the name in

#: One style per colour (Yellow, Red, Blue, Green, Purple), for a card and a butterfly.
COLOUR_STYLES: Mapping[int, str] = {
    YELLOW: "fg:ansiyellow bold",
    RED: "fg:ansired bold",
    BLUE: "fg:ansibrightblue bold",
    GREEN: "fg:ansigreen bold",
    PURPLE: "fg:ansimagenta bold",
}
DIM = "fg:ansibrightblack"
HEAD = "bold"
GONE = "fg:ansibrightblack strike"
RAISED = "⁰¹²³⁴⁵⁶⁷⁸⁹"
MINUS = "\u2212"  # a real minus sign, between the terms of a sum
CROSS = "\u00d7"  # the mark of a card removed at scoring
ROW_LABEL = 4  # columns for the y labels at the left of a garden
CELL_WIDTH = 5  # a card (3), a pile height (1), a gap (1)
WORDS = {1: "1s", 2: "2s", 3: "3s", 4: "4s"}
RULE = {1: "a 1 may not touch another 1", 2: "2s go in pairs", 3: "3s go in threes",
        4: "4s go in fours"}

Scorer = Callable[[int], GardenScore]  # a seat -> its garden scored as if it ended now


def height_mark(height: int, room: int = 2) -> str:
    """A pile's height in raised digits (``²``; ``⁺`` when it needs more than ``room``
    digits); empty for a single card."""
    if height < 2:
        return ""
    digits = "".join(RAISED[int(d)] for d in str(height))
    return digits if len(digits) <= room else "⁺"


def is_summer(view: View) -> bool:
    """True when a purple start card is in some garden (the Summer variant)."""
    return any(stack[0] in PURPLES for g in view.gardens for _, _, stack in g if stack)


def card_fragments(card: int, target: Target | None, extra: str = "", height: int = 1,
                   ) -> list[Fragment]:
    """A card in four columns: its colour letter and number, its butterfly's letter in the
    butterfly's colour (the purple card: ``P``), then the pile's height when 2 or more
    (``R3²``, ``Y4g³``), padded."""
    colour = COLOUR[card]
    style = COLOUR_STYLES[colour] + extra
    butterfly = BUTTERFLY[card]
    if colour == PURPLE:
        pieces = [(style, "P   ")]
    elif butterfly == NONE:  # the common case: one fragment, the height in the card's colour
        name = f"{LETTERS[colour]}{VALUE[card]}"
        pieces = [(style, (name + height_mark(height)).ljust(4))]
    else:
        pieces = [(style, f"{LETTERS[colour]}{VALUE[card]}"),
                  (COLOUR_STYLES[butterfly] + extra, LETTERS[butterfly].lower()),
                  (style, height_mark(height, 1).ljust(1))]
    if target is None:
        return list(pieces)
    return [(s, t, target) for s, t in pieces]


def open_cells(cells: GardenCells, coverable: Callable[[int], bool]) -> set[Cell]:
    """Every cell of a garden where a card may be planted: the empty cells sharing a side
    with a card, and the cards that may be covered."""
    taken = {(x, y): stack for x, y, stack in cells}
    found = {c for c, stack in taken.items() if coverable(stack[-1])}
    for x, y in taken:
        found |= {n for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)) if n not in taken}
    return found


def planted(view: View, action: Action | None) -> tuple[Cell, int] | None:
    """The cell and card of a planting ``action`` (None for anything else)."""
    if action is None or action.kind != "plant":
        return None
    found = plant_args(action)
    if found is None:
        return None
    stack, cell = found
    if view.holding >= 0 and stack == view.source:
        return cell, view.holding
    if 0 <= stack < len(view.tops) and view.tops[stack] >= 0:
        return cell, view.tops[stack]
    return None


def _target(seat: int, me: int, cell: Cell) -> Target:
    return Target(CELL, cell) if seat == me else Target(PLOT, (seat, *cell))


def garden_grid(cells: GardenCells, seat: int, me: int, *, spots: Iterable[Cell] = (),
                ghost: tuple[Cell, int] | None = None, gone: Iterable[Cell] = (),
                reading: Target | None = None, targets: bool = True, axis: bool = True,
                ) -> list[list[Fragment]]:
    """One garden as lines: the x labels (unless ``axis`` is False), then a row of cells
    per y from the top, each labelled with its y.

    ``spots`` are the empty cells drawn as dots (where a card may go); ``ghost`` a card
    drawn where a planting would put it; ``gone`` the cells removed at scoring (struck
    through); ``reading`` the target being read in full (underlined).  ``targets=False``
    draws no target (the results screen)."""
    piles: dict[Cell, Stack] = {(x, y): stack for x, y, stack in cells}
    if ghost is not None:
        (gx, gy), card = ghost
        piles[(gx, gy)] = (*piles.get((gx, gy), ()), card)
    spots = set(spots)
    shown = set(piles) | spots
    if not shown:
        return [[(DIM, "(no card)")]]
    removed = set(gone)
    low_x, high_x = min(x for x, _ in shown), max(x for x, _ in shown)
    low_y, high_y = min(y for _, y in shown), max(y for _, y in shown)
    header: list[Fragment] = [("", " " * ROW_LABEL)]
    header += [(DIM, f"{x:>2}".ljust(CELL_WIDTH)) for x in range(low_x, high_x + 1)]
    lines = [header] if axis else []
    for y in range(high_y, low_y - 1, -1):
        row: list[Fragment] = [(DIM, f"{y:>{ROW_LABEL - 1}} ")]
        for x in range(low_x, high_x + 1):
            target = _target(seat, me, (x, y)) if targets else None
            stack = piles.get((x, y))
            if stack is None:
                if (x, y) in spots:
                    row.append((DIM, " ·  ") if target is None else (DIM, " ·  ", target))
                else:
                    row.append(("", "    "))
                row.append(("", " "))
                continue
            extra = ""
            if ghost is not None and ghost[0] == (x, y):
                extra = " underline"
            if target is not None and target == reading:
                extra = " underline"
            if (x, y) in removed:
                text = (CROSS + card_text(stack[-1])).ljust(4)
                row.append((GONE, text) if target is None else (GONE, text, target))
            else:
                row += card_fragments(stack[-1], target, extra, len(stack))
            row.append(("", " "))
        lines.append(row)
    return lines


def who(seat: int, me: int, mine: str, style: str = HEAD, width: int = 0) -> Fragment:
    """A player: ``mine`` for the seat's own, else ``Seat N`` as a ``"seat"`` target, which
    the seat client fills in with the player's name (fitted to ``width``, when given)."""
    if seat == me:
        return (style, mine)
    return (style, f"Seat {seat}".ljust(width), Target(SEAT, seat))


def garden_header(view: View, seat: int, me: int, score: GardenScore, name: int = 0,
                  ) -> list[Fragment]:
    """``Your garden · 12 cards · 5 pts now`` (the final score once the game is over); the
    name in ``name`` columns when given (gardens side by side stay aligned)."""
    cards = sum(len(stack) for _, _, stack in view.gardens[seat])
    line: list[Fragment] = [who(seat, me, "Your garden", width=name),
                            (DIM, f" · {cards} card{'s' if cards != 1 else ''}")]
    if view.phase == OVER:
        line.append((HEAD, f" · final score {score.total}"))
    else:
        line.append((DIM, f" · score now {score.total}"))
        if seat == view.active and seat != me:
            line.append(("fg:ansiyellow", " · playing"))
    return line


#: The board width from which the gardens go side by side, as many to a row as fit
#: (a wide terminal: 160 columns); below it, one under the other.
SIDE_BY_SIDE = 72
#: A player's name in a garden's header, side by side: the client fits the name there.
NAME_WIDTH = 12


def draw_gardens(view: View, me: int, score: Scorer, *, preview: Action | None = None,
                 reading: Target | None = None,
                 coverable: Callable[[int], bool] = lambda card: card not in PURPLES,
                 width: int = 0) -> Drawing:
    """Every garden, the seat's own first, each under a header with its score so far; on
    a board at least `SIDE_BY_SIDE` wide, side by side (`side_by_side`)."""
    over = view.phase == OVER
    wide = width >= SIDE_BY_SIDE
    order = [me] + [s for s in range(view.players) if s != me] if me < view.players else \
        list(range(view.players))
    blocks: list[Drawing] = []
    for seat in order:
        cells = view.gardens[seat]
        final = view.final[seat] if over and seat < len(view.final) else None
        lines = [garden_header(view, seat, me, final or score(seat),
                               NAME_WIDTH if wide else 0)]
        spots: set[Cell] = set()
        ghost = None
        if seat == me and not over:
            spots = open_cells(cells, coverable)
            if view.active == me:
                ghost = planted(view, preview)
        gone = [c for g in final.removed for c in g.cells] if final else []
        lines += garden_grid(cells, seat, me, spots=spots, ghost=ghost, gone=gone,
                             reading=reading, axis=seat == me or over)
        blocks.append(join(lines))
    out: Drawing = []
    if is_summer(view):
        out += [("fg:ansimagenta", "Summer: only colour groups touching P score."),
                ("", "\n")]
    if wide:
        return out + side_by_side(blocks, width)
    for n, block in enumerate(blocks):
        out += ([("", "\n\n")] if n else []) + block
    return out


def _ended_by(view: View) -> str:
    empty = [stack_name(i) for i, size in enumerate(view.sizes) if size == 0]
    if empty:
        return f"The game is over: stack {empty[0]} ran out."
    return "The game is over."


def inline_card(card: int) -> list[Fragment]:
    """A card in running text, in its colours (no padding)."""
    return [(st, t.rstrip()) for st, t, *_ in card_fragments(card, None) if t.strip()]


def draw_stacks(view: View, me: int, reading: Target | None = None) -> Drawing:
    """The stacks with their face-up tops and sizes; the card held; the solo discards."""
    lines: list[list[Fragment]] = []
    solo, over = view.players == 1, view.phase == OVER
    up = 0
    for i, size in enumerate(view.sizes):
        target = Target(STACK, i)
        extra = " underline" if target == reading else ""
        line: list[Fragment] = [(HEAD + extra, f"{stack_name(i)} ", target)]
        if i == view.face_down:
            line += [("", "    ", target), (DIM + extra, "░░░ ", target)]
            note = "face down"
        else:
            up += 1
            line.append(("", "    " if over else f"[{up}] ", target))
            top = view.tops[i]
            line += card_fragments(top, target, extra) if top >= 0 else [(DIM, "--- ", target)]
            note = "face up"
        line.append(("", f"{size:>3} card{'s' if size != 1 else ' '}", target))
        if not over:
            line.append((DIM, f"  {note}"))
        lines.append(line)
    if view.phase == PLANT and view.source >= 0:
        name = stack_name(view.source)
        if view.holding >= 0:
            lines.append([(HEAD, "In your hand: "), *inline_card(view.holding),
                          ("", f" from {name}: plant it")])
        else:
            lines.append([who(view.active, me, "", DIM), (DIM, f" took the top card of {name} "
                                                                "and is planting it.")])
    if solo and not over:
        lines.append([("fg:ansicyan", "After each turn, A's top card is discarded.")])
    if solo and view.discards:
        lines.append([(DIM, f"Discarded: {len(view.discards)} (the last: "),
                      *inline_card(view.discards[-1]), (DIM, ")")])
    if over:
        lines.append([(HEAD, _ended_by(view))])
    return join(lines)


# -- the results: each garden's final score in detail ----------------------------------------


def _cells_text(cells: Iterable[Cell]) -> str:
    return " ".join(f"({x},{y})" for x, y in cells)


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int, word: str) -> str:
    """``two 3s``, ``one card``, ``12 cards``."""
    name = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return f"{name} {word}"


def removed_text(group: NumberGroup) -> str:
    """One removed number group in words: what it cost, what it is, the rule it broke."""
    n = len(group.cells)
    what = f"a lone {group.value}" if n == 1 else _count(n, WORDS[group.value])
    covered = group.cards - n
    under = ""
    if covered:
        cards = _count(covered, "card" if covered == 1 else "cards")
        under = f" with {cards} under {'it' if n == 1 else 'them'}"
    return f"{f'-{group.cards}':<4}{what} at {_cells_text(group.cells)}{under} " \
           f"({RULE[group.value]})"


def final_lines(view: View, seat: int, me: int, score: GardenScore, width: int,
                ) -> list[list[Fragment]]:
    """One seat's final score in detail (see `draw_final`)."""
    lines: list[list[Fragment]] = [[
        who(seat, me, "You"), (HEAD, f": {score.total}"),
        ("", f" = colour groups {score.colour} + butterflies {score.butterfly}"
             f" {MINUS} cards removed {score.penalty}")]]

    def wrapped(head: str, text: str, style: str = "") -> None:
        indent = " " * len(head)
        for i, piece in enumerate(textwrap.wrap(text, max(width - len(head), 20))):
            lines.append([(DIM if not i else "", head if not i else indent), (style, piece)])

    for group in score.removed:
        wrapped("  removed  ", removed_text(group), "fg:ansired")
    if not score.removed:
        wrapped("  removed  ", "nothing: every number group is the right size")
    summer = is_summer(view)
    for patch, points in zip(score.groups, score.points, strict=True):
        size, colour = len(patch.cells), COLOURS[patch.colour].lower()
        if points:
            wrapped("  scored   ", f"{colour} group of {size}: +{points}",
                    COLOUR_STYLES[patch.colour])
        elif summer and size >= 5:
            wrapped("  no score ", f"{colour} group of {size}: it does not touch the purple "
                    "card")
    if not any(score.points):
        wrapped("  scored   ", "no colour group of 5 or more")
    visible = {(x, y): stack[-1] for x, y, stack in view.gardens[seat]}
    for cell in score.butterflies:
        card = visible.get(cell, -1)
        name = card_text(card)
        wing = COLOURS[BUTTERFLY[card]].lower() if card >= 0 else "?"
        wrapped("  scored   ", f"butterfly {name} at {_cells_text([cell])}: +1 (it touches "
                f"a {wing} card)")
    gone = [c for g in score.removed for c in g.cells]
    lines += garden_grid(view.gardens[seat], seat, me, gone=gone, targets=False)
    return lines


def rank_line(total: int) -> list[Fragment]:
    """The solo ranks, the one ``total`` earns in bold."""
    line: list[Fragment] = [("", "Ranks: ")]
    bounds: list[tuple[str, int | None, int | None]] = [(BEGINNER, None, RANKS[0][1] - 1)]
    bounds += [(name, low, RANKS[i + 1][1] - 1 if i + 1 < len(RANKS) else None)
               for i, (name, low) in enumerate(RANKS)]
    for i, (name, low, high) in enumerate(bounds):
        span = f"up to {high}" if low is None else f"{low}+" if high is None else \
            f"{low}-{high}"
        mine = (low is None or total >= low) and (high is None or total <= high)
        line += [("", " · " if i else ""), ("fg:ansicyan bold" if mine else DIM,
                                           f"{name} {span}")]
    return line


def draw_final(view: View, me: int, width: int) -> Drawing:
    """Once the game is over: every garden's score as a sum, the groups removed with their
    penalties, what scored, and the final garden (removed cells crossed out)."""
    if view.phase != OVER or not view.final:
        return []
    lines: list[list[Fragment]] = [[(HEAD + " underline", "How each garden scored")],
                                   [(DIM, f"In the gardens, {CROSS} marks a card removed "
                                          "at scoring.")]]
    if view.players == 1 and view.final:
        lines.append(rank_line(view.final[0].total))
    order = [me] + [s for s in range(view.players) if s != me] if me < view.players else \
        list(range(view.players))
    for seat in order:
        if seat < len(view.final):
            lines.append([])
            lines += final_lines(view, seat, me, view.final[seat], width)
    return join(lines)


def join(lines: list[list[Fragment]]) -> Drawing:
    """Lines of fragments as one drawing, ``"\\n"`` between lines, empty texts left out,
    neighbouring fragments of one style and no target made one."""
    out: Drawing = []
    for i, line in enumerate(lines):
        for fragment in ((("", "\n"),) if i else ()) + tuple(line):
            if not fragment[1]:
                continue
            last = out[-1] if out else None
            if (len(fragment) == 2 and last is not None and len(last) == 2
                    and last[0] == fragment[0]):
                out[-1] = (last[0], last[1] + fragment[1])
            else:
                out.append(fragment)
    return out
