"""Final scoring of one garden (rules §6), as a pure function with the full detail.

`score_garden` returns a `GardenScore`: every number group (the invalid ones are removed
with their whole stacks, -1 a card), every colour group of what remains with the points
each one scored, the butterflies that scored, and the totals.  A results screen reads the
detail; the ranking reads the totals.

The one rule a variant changes here is which colour groups score and for how much: that is
the ``colour_points`` argument (the table's ``flowers_colour_points`` hook, see
`hookspecs`); `standard_colour_points` is the standard rule (5 cards or more, 1 a card).

The steps, in the order of the rules: judge every number group on the visible cards at
once (a group is valid when it has exactly as many cards as its value; the purple card
belongs to none); remove the invalid ones, stacks and all; group what remains by colour
(removed cells are holes); then each visible butterfly scores 1 when a side neighbour left
in the garden has the butterfly's colour.  Cells are always visited in sorted order (the
working dicts are built from the sorted cells, so they keep that order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from hedgerow.plugins.flowers.cards import BUTTERFLY, COLOUR, NONE, PURPLE, VALUE
from hedgerow.plugins.flowers.garden import STRIDE, Cell, Garden, cell

#: The visible cards left after removal, as ``(x, y, card)`` sorted by cell (what the colour
#: rule sees: the purple card is there, for Summer).
Visible = tuple[tuple[int, int, int], ...]

MIN_COLOUR_GROUP = 5


class NumberGroup(NamedTuple):
    """Side-connected visible cards of one value: valid when ``len(cells) == value``.

    ``cards`` counts the physical cards in the group's stacks (what a removal costs).
    """

    value: int
    cells: tuple[Cell, ...]
    cards: int

    @property
    def valid(self) -> bool:
        """True when the group has exactly as many cards as its value."""
        return len(self.cells) == self.value


class ColourGroup(NamedTuple):
    """Side-connected visible cards of one colour, among those left after removal."""

    colour: int
    cells: tuple[Cell, ...]


#: ``colour_points(groups, visible) -> points``: one number per colour group.
ColourPoints = Callable[[tuple[ColourGroup, ...], Visible], tuple[int, ...]]


def standard_colour_points(groups: tuple[ColourGroup, ...], visible: Visible) -> tuple[int, ...]:
    """The standard rule: a colour group of 5 cards or more scores 1 a card."""
    return tuple(n if (n := len(g.cells)) >= MIN_COLOUR_GROUP else 0 for g in groups)


class GardenScore(NamedTuple):
    """A garden's final score with everything a results screen shows.

    * ``numbers``: every number group, in cell order (``removed`` are the invalid ones);
      ``()`` when the detail was not asked for (`score_garden` with ``detail=False``);
    * ``groups``: every colour group of what remains, ``points`` what each one scored;
    * ``butterflies``: the cells of the butterflies that scored;
    * ``colour`` + ``butterfly`` - ``penalty`` = ``total``; ``penalty`` is the number of
      cards removed, ``dropped`` the number of groups removed; ``largest`` is the size of
      the largest scoring colour group (0: none).
    """

    numbers: tuple[NumberGroup, ...]
    groups: tuple[ColourGroup, ...]
    points: tuple[int, ...]
    butterflies: tuple[Cell, ...]
    colour: int
    butterfly: int
    penalty: int
    dropped: int
    total: int
    largest: int

    @property
    def removed(self) -> tuple[NumberGroup, ...]:
        """The invalid number groups, removed with everything beneath them."""
        return tuple(g for g in self.numbers if not g.valid)

    @property
    def scoring(self) -> tuple[tuple[ColourGroup, int], ...]:
        """The colour groups that scored, with their points."""
        return tuple((g, p) for g, p in zip(self.groups, self.points, strict=True) if p)


def _components(cells: list[int], key: dict[int, int]) -> list[tuple[int, list[int]]]:
    """Maximal side-connected sets of ``cells`` (sorted keys) with the same ``key``, each
    sorted, in the order of their first cell."""
    seen: set[int] = set()
    out = []
    get = key.get
    for start in cells:
        if start in seen:
            continue
        k = key[start]
        if (get(start + 1) != k and get(start + STRIDE) != k and get(start - 1) != k
                and get(start - STRIDE) != k):
            out.append((k, [start]))  # alone: the common case, no search
            continue
        seen.add(start)
        part = [start]
        for c in part:  # breadth first: the list grows as it is read
            for n in (c + 1, c + STRIDE, c - 1, c - STRIDE):
                if get(n) == k and n not in seen:
                    seen.add(n)
                    part.append(n)
        part.sort()
        out.append((k, part))
    return out


_XY: dict[int, Cell] = {}  # cell key -> (x, y), filled as cells are met


def _xy(keys: list[int]) -> tuple[Cell, ...]:
    out = []
    for k in keys:
        xy = _XY.get(k)
        if xy is None:
            xy = _XY[k] = cell(k)
        out.append(xy)
    return tuple(out)


def score_garden(garden: Garden, colour_points: ColourPoints = standard_colour_points,
                 detail: bool = True) -> GardenScore:
    """The final score of ``garden`` (cell key -> stack, bottom card first: `garden`; a
    view's garden converts with ``garden.from_cells``), in detail, cells as ``(x, y)``.

    ``detail=False`` leaves out the list of number groups (``numbers`` is ``()``; every
    total, ``dropped`` included, is the same): what a ranking needs, for less work.
    """
    items = sorted(garden.items())
    values = {}
    for k, stack in items:
        v = VALUE[stack[-1]]
        if v:
            values[k] = v
    numbers = []
    gone: set[int] = set()
    penalty = dropped = 0
    for value, part in _components(list(values), values):
        valid = len(part) == value
        if valid and not detail:
            continue
        cards = 0
        for k in part:
            cards += len(garden[k])
        if detail:
            numbers.append(NumberGroup(value, _xy(part), cards))
        if not valid:
            gone.update(part)
            penalty += cards
            dropped += 1
    kept = {k: stack[-1] for k, stack in items if k not in gone}
    colours = {k: COLOUR[card] for k, card in kept.items() if COLOUR[card] != PURPLE}
    groups = tuple([ColourGroup(colour, _xy(part)) for colour, part in
                    _components(list(colours), colours)])
    visible = tuple([(x, y, card) for (x, y), card in zip(_xy(list(kept)), kept.values(),
                                                           strict=True)])
    points = tuple(colour_points(groups, visible))
    if len(points) != len(groups):
        raise ValueError(f"colour_points gave {len(points)} results for {len(groups)} groups")
    butterflies = []
    for k, card in kept.items():
        wanted = BUTTERFLY[card]
        if wanted != NONE:
            for n in (k + 1, k + STRIDE, k - 1, k - STRIDE):
                other = kept.get(n)
                if other is not None and COLOUR[other] == wanted:
                    butterflies.append(k)
                    break
    colour = sum(points)
    largest = max([len(g.cells) for g, p in zip(groups, points, strict=True) if p], default=0)
    return GardenScore(tuple(numbers), groups, points, _xy(butterflies), colour,
                       len(butterflies), penalty, dropped, colour + len(butterflies) - penalty,
                       largest)
