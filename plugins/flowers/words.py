"""FLOWERS in words for the seat client: a planting previewed, a cell or a stack in full.

Pure functions of a `View` and of scores already computed (`GardenScore`: the garden
scored as if the game ended now); `hedgerow.plugins.flowers.ui` calls them.

* `planting_text`: what a planting does, in one line: the card and where it goes, the
  score it leaves with the change, then what it does to the planted card's number group
  (``3s: 2 of 3``), its colour group when that is getting near 5, the butterflies, and
  whether it ends the game (`ending_text`).
* `cell_text`: a garden card in full (the ``i`` key): the pile top first, the number
  group and whether it would be removed now, the butterfly and whether it scores.
* `take_text`: a take of the face-down card, and whether the game ends after it.
* `stack_text`: a stack in full.
"""

from __future__ import annotations

from hedgerow.plugins.flowers.cards import (
    BUTTERFLY,
    COLOUR,
    COLOURS,
    NONE,
    PURPLES,
    VALUE,
    card_text,
)
from hedgerow.plugins.flowers.garden import Cell, Stack
from hedgerow.plugins.flowers.render import is_summer
from hedgerow.plugins.flowers.scoring import MIN_COLOUR_GROUP, GardenScore
from hedgerow.plugins.flowers.setup import stack_name
from hedgerow.plugins.flowers.state import OVER, GardenCells, View

SHOW_COLOUR_FROM = 3  # a planting's colour group is mentioned from this size on


def where(cell: Cell) -> str:
    """``(1,-2)``."""
    return f"({cell[0]},{cell[1]})"


def signed(n: int) -> str:
    """``+2``, ``-1``, ``±0``."""
    return f"+{n}" if n > 0 else f"-{-n}" if n < 0 else "±0"


def pile_text(stack: Stack) -> str:
    """A pile in words, top card first: ``R3``, or ``R3 on Y4g, B2``."""
    under = [card_text(c) for c in reversed(stack[:-1])]
    return card_text(stack[-1]) + (f" on {', '.join(under)}" if under else "")


def number_words(value: int, size: int) -> str:
    """How a number group of ``size`` cards showing ``value`` stands: ``3s: 2 of 3``."""
    if value == 1:
        return "a lone 1: right" if size == 1 else f"{size} 1s touch: wrong"
    if size < value:
        return f"{value}s: {size} of {value}"
    if size == value:
        return f"{value}s: {size} of {value}, complete"
    return f"{value}s: {size}, too many"


def group_sentence(value: int, size: int) -> str:
    """A card's number group as a sentence's start, for reading a card in full:
    ``A lone 1: right``, ``Its group of 3s: 2 of 3``, ``Its group of 1s: 3 touch, wrong``."""
    if value == 1 and size == 1:
        return "A lone 1: right"
    if value == 1:
        return f"Its group of 1s: {size} touch, wrong"
    return f"Its group of {number_words(value, size)}"


def planting_text(view: View, seat: int, stack: int, cell: Cell, card: int,
                  before: GardenScore, after: GardenScore) -> str:
    """One line: a planting of ``card`` at ``cell`` and what it does (see the module)."""
    below = {(x, y): pile for x, y, pile in view.gardens[seat]}.get(cell)
    text = f"Plant {card_text(card)}"
    if view.holding < 0:
        text += f" from {stack_name(stack)}"
    if below is not None:
        text += f" on {card_text(below[-1])}"
    text += f" at {where(cell)}: score now {after.total} ({signed(after.total - before.total)})"
    notes: list[str] = []
    value = VALUE[card]
    group = next((g for g in after.numbers if cell in g.cells), None)
    if value and group is not None:
        notes.append(number_words(value, len(group.cells)))
    for patch, points in zip(after.groups, after.points, strict=True):
        if cell in patch.cells:
            size, colour = len(patch.cells), COLOURS[patch.colour].lower()
            if points:
                notes.append(f"{colour} group of {size}: +{points}")
            elif size >= MIN_COLOUR_GROUP and is_summer(view):
                notes.append(f"{colour} group of {size}, not touching P")
            elif size >= SHOW_COLOUR_FROM:
                notes.append(f"{colour} group: {size} of {MIN_COLOUR_GROUP}")
    gained = after.butterfly - before.butterfly
    if gained:
        notes.append(f"butterflies {signed(gained)}")
    wing = BUTTERFLY[card]
    if wing != NONE and cell not in after.butterflies:
        colour = COLOURS[wing].lower()
        if beside(view.gardens[seat], cell, wing):
            notes.append(f"its butterfly is beside {colour}: +1 unless a card is removed")
        else:
            notes.append(f"its butterfly needs a {colour} neighbour")
    ending = ending_text(view, stack)
    return text + "".join(f" · {n}" for n in notes) + (f" · {ending}" if ending else "")


def take_text(view: View, stack: int) -> str:
    """A take of the face-down ``stack`` in words, and whether it leads to the end."""
    name, left = stack_name(stack), view.sizes[stack]
    text = f"Take {name}'s face-down top card ({left} left): see it, then plant it"
    if view.sizes[stack] == 1:
        return text + f" · {stack_name(stack)} runs out: the game ends once it is planted"
    if view.players == 1 and view.sizes[0] <= 1:
        return text + " · then A's last card is discarded: the game ends"
    if view.players == 1 and view.tops[0] >= 0:
        return text + f" · then A's {card_text(view.tops[0])} is discarded"
    return text


def ending_text(view: View, stack: int) -> str | None:
    """What ends the game when a card of ``stack`` is planted now, or None."""
    left = view.sizes[stack] - (0 if view.holding >= 0 else 1)
    if left <= 0:
        return f"{stack_name(stack)} runs out: the game ends"
    if view.players == 1:
        after = view.sizes[0] - (1 if stack == 0 and view.holding < 0 else 0) - 1
        if after <= 0:
            return "A's last card is discarded: the game ends"
    return None


def beside(cells: GardenCells, cell: Cell, colour: int) -> bool:
    """True when a side neighbour of ``cell`` shows a card of ``colour``."""
    x, y = cell
    tops = {(cx, cy): stack[-1] for cx, cy, stack in cells}
    return any(COLOUR[tops[n]] == colour for n in ((x, y + 1), (x + 1, y), (x, y - 1),
                                                   (x - 1, y)) if n in tops)


def stack_text(view: View, index: int) -> str | None:
    """A stack in full: its size, whether it is face up and its top, what happens to it."""
    if not 0 <= index < len(view.sizes):
        return None
    name, size = stack_name(index), view.sizes[index]
    if size == 0:
        text = f"Stack {name}: empty."
    elif index == view.face_down:
        text = (f"Stack {name}: {size} cards, face down. Take its top card to see it, then "
                "plant it.")
    else:
        top = card_text(view.tops[index])
        text = (f"Stack {name}: {size} cards, face up. Choosing it plants its top card, "
                f"{top}.")
        if view.players == 1:
            text += " After each turn its top card is discarded."
    if 0 < size <= 3 and view.phase != OVER:
        text += " When a stack runs out, the game ends at once."
    return text


def cell_text(view: View, seat: int, owner: int, cell: Cell, score: GardenScore,
              ) -> str | None:
    """A card of ``owner``'s garden in full, as ``seat`` reads it (``score``: that garden
    scored as if the game ended now, or its final score); None for an empty cell (the dot
    says it all)."""
    whose = "Your garden" if owner == seat else f"Seat {owner}'s garden"
    stack = {(x, y): pile for x, y, pile in view.gardens[owner]}.get(cell)
    if stack is None:
        return None
    top = stack[-1]
    if top in PURPLES:
        return (f"{whose} {where(cell)}: the purple start card. It is never covered nor "
                "removed, and only colour groups touching it score.")
    text = f"{whose} {where(cell)}: {pile_text(stack)}"
    text += f" ({len(stack)} cards)." if len(stack) > 1 else "."
    over = view.phase == OVER
    group = next((g for g in score.numbers if cell in g.cells), None)
    if group is not None:
        size, value = len(group.cells), VALUE[top]
        text += f" {group_sentence(value, size)}"
        if not group.valid:
            when = "was removed" if over else "would be removed if the game ended now"
            text += f"; it {when} (-{group.cards})"
        text += "."
    wing = BUTTERFLY[top]
    if wing != NONE:
        if cell in score.butterflies:
            state = "it does"
        elif beside(view.gardens[owner], cell, wing):
            state = "it is, but a card is removed" if over else \
                "it is, if neither card is removed"
        else:
            state = "it did not" if over else "not yet"
        text += f" Butterfly: +1 when beside a {COLOURS[wing].lower()} card ({state})."
    colour = COLOUR[top]
    for patch, points in zip(score.groups, score.points, strict=True):
        if cell in patch.cells and points:
            text += f" In a {COLOURS[colour].lower()} group of {len(patch.cells)}: +{points}."
    return text
