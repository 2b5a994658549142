"""``evaluate`` (``BotSupport.evaluate``): FLOWERS' own judgement of a position, for bots.

``score`` counts a garden as if the game ended now, so every number group still being built
is removed at a cost: a bot that maximises it never starts a group of 2s, 3s or 4s.  This
module judges the same garden by what the rules make likely instead, in points like
``score``:

* **now**: the garden's ``score``, as the rules would count it if the game ended now
  (the table's colour rule through its ``flowers_colour_points`` hook).
* **hoped**: the same garden scored with every *live* number group kept instead of removed
  (a group with fewer cards than its value and a free side where a card of its value could
  go without touching another card of that value), less ``lack`` points per card those
  groups still lack.  The judgement moves from ``now`` towards ``hoped`` by
  ``q = 1 - (lacking / (turns + 1))**2`` (at least 0), where ``lacking`` is what every live
  group lacks together: early on a half-built group costs little more than the cards it
  needs, and as the turns run out it costs what its removal costs.
* **plus, for each colour patch that does not score yet** (3 cards or more, on the hoped
  garden): ``patch`` points per card when the patch would score once grown into the
  nearest free cells up to 5 cards, as the table's colour rule says (asked with the grown
  patch, so Summer's "touching the purple card" is respected), weighed by
  ``1 - (needed / (turns + 1))**2``.
* **plus, for each butterfly showing** with no neighbour of its colour yet but a free side,
  ``butterfly`` points weighed the same way (one card needed).

``turns`` is an estimate of the turns the seat has left, from the stacks' sizes only (public:
a view shows them): the game ends when a stack runs out, so with ``s`` cards in the smallest
of ``k`` stacks about ``s * k / 2`` turns are left to share between the players (alone, the
face-up stack loses a discard every turn: about ``s / 1.5``).  With no turn left every term
but ``now`` vanishes; once the game is over ``evaluate`` returns ``score`` itself.

The part that depends on the garden alone (`Outlook`) is remembered by garden identity, as
``score`` does (a garden dict is never changed once a state holds it), and by content: a
search plays the same planting on many sampled states, each time into a new dict holding
the same garden (a garden is public, so every sample agrees on it).  The contents are kept
least recently used first out (`KEPT_CONTENTS`): a FLOWERS search at 300 iterations a move
meets about 290,000 distinct gardens in a game and asks for them 1.15 million times; the
4,096 contents forgotten all at once when full worked out 393,000 outlooks, 16,384 kept by
recent use work out 292,000, one for each garden but a few hundred (bench/README.md,
"Budget curves").  What depends on the turns left is a few float operations per call.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

from hedgerow.plugins.flowers.cards import BUTTERFLY, COLOUR, NONE, PURPLE, VALUE
from hedgerow.plugins.flowers.garden import STRIDE, Garden
from hedgerow.plugins.flowers.scoring import (
    MIN_COLOUR_GROUP,
    ColourGroup,
    ColourPoints,
    Visible,
    _components,
    _xy,
    standard_colour_points,
)
from hedgerow.plugins.flowers.state import OVER, State

#: How many gardens an evaluator remembers the outlook of by identity (then it forgets them
#: all and starts again), and how many garden contents (the least recently used is
#: forgotten first).
KEPT_GARDENS = 256
KEPT_CONTENTS = 16384

#: The smallest colour patch that earns the ``patch`` credit.
PATCH_MIN = 3


class Weights(NamedTuple):
    """The evaluator's constants, in points (see the module docstring)."""

    lack: float = 0.3  # per card a live number group still lacks
    patch: float = 0.3  # per card of a patch of 3-4 that would score once grown
    butterfly: float = 0.3  # per butterfly with a free side and no partner yet
    share: float = 0.5  # the fraction of ``smallest stack * stacks`` turns still to come


#: The weights the game's ``evaluate`` uses.
DEFAULT = Weights()


class Outlook(NamedTuple):
    """What a garden promises, before the turns left are known.

    * ``now``: the score if the game ended now;
    * ``hoped``: the score with the live number groups kept;
    * ``pending``: ``(lacking, cards)`` per live number group;
    * ``patches``: ``(needed, cards)`` per colour patch that would score once grown;
    * ``open``: the butterflies that could still find a partner on a free side.
    """

    now: int
    hoped: int
    pending: tuple[tuple[int, int], ...]
    patches: tuple[tuple[int, int], ...]
    open: int


_SIDES = (1, STRIDE, -1, -STRIDE)


def _grown(part: list[int], garden: Garden, size: int) -> list[int] | None:
    """``part`` grown breadth first into the nearest free cells (in key order within each
    ring) until it has ``size`` cells; None when the free cells run out first (they never
    do in an unbounded garden, but a bounded rule set might)."""
    cells = list(part)
    seen = set(part)
    ring = part
    while len(cells) < size:
        nxt = sorted({n for k in ring for n in (k + 1, k + STRIDE, k - 1, k - STRIDE)
                      if n not in garden and n not in seen})
        if not nxt:
            return None
        for n in nxt:
            if len(cells) == size:
                break
            cells.append(n)
            seen.add(n)
        ring = nxt
    return sorted(cells)


def _colours(kept: dict[int, int], colour_points: ColourPoints,
             ) -> tuple[list[tuple[int, list[int]]], tuple[int, ...], Visible]:
    """The colour patches of the visible cards ``kept`` (cell key -> card), what the table's
    colour rule gives each, and the visible cards as the rule reads them."""
    colours = {k: COLOUR[card] for k, card in kept.items() if COLOUR[card] != PURPLE}
    parts = _components(list(colours), colours)
    groups = tuple([ColourGroup(c, _xy(part)) for c, part in parts])
    if colour_points is standard_colour_points:  # it reads the groups alone
        visible: Visible = ()
    else:
        visible = tuple([(x, y, card) for (x, y), card in zip(_xy(list(kept)), kept.values(),
                                                               strict=True)])
    points = tuple(colour_points(groups, visible))
    if len(points) != len(groups):
        raise ValueError(f"colour_points gave {len(points)} results for {len(groups)} groups")
    return parts, points, visible


def _butterflies(kept: dict[int, int], garden: Garden) -> tuple[int, int]:
    """(butterflies scoring, butterflies not scoring with a free side) among ``kept``."""
    scored = still = 0
    for k, card in kept.items():
        wanted = BUTTERFLY[card]
        if wanted == NONE:
            continue
        free = False
        for n in (k + 1, k + STRIDE, k - 1, k - STRIDE):
            other = kept.get(n)
            if other is not None and COLOUR[other] == wanted:
                scored += 1
                break
            if n not in garden:
                free = True
        else:
            still += free
    return scored, still


def outlook(garden: Garden, colour_points: ColourPoints) -> Outlook:
    """The `Outlook` of ``garden`` under the table's colour rule ``colour_points``."""
    items = sorted(garden.items())
    values = {}
    for k, stack in items:
        v = VALUE[stack[-1]]
        if v:
            values[k] = v
    get = values.get
    gone: set[int] = set()
    waiting: set[int] = set()  # the cells of the live groups
    penalty = waiting_cards = 0
    pending = []
    for value, part in _components(list(values), values):
        size = len(part)
        if size == value:
            continue
        cards = 0
        for k in part:
            cards += len(garden[k])
        if size < value:
            inside = set(part)
            live = False
            for k in part:
                for n in (k + 1, k + STRIDE, k - 1, k - STRIDE):
                    if n in garden or n in inside:
                        continue
                    if all(get(m) != value or m in inside
                           for m in (n + 1, n + STRIDE, n - 1, n - STRIDE)):
                        live = True
                        break
                if live:
                    break
            if live:
                pending.append((value - size, cards))
                waiting.update(part)
                waiting_cards += cards
                continue
        gone.update(part)
        penalty += cards
    kept = {k: stack[-1] for k, stack in items if k not in gone}
    parts, points, visible = _colours(kept, colour_points)
    probes = []
    for (c, part), p in zip(parts, points, strict=True):
        if not p and PATCH_MIN <= len(part) < MIN_COLOUR_GROUP:
            grown = _grown(part, garden, MIN_COLOUR_GROUP)
            if grown is not None:
                probes.append((len(part), ColourGroup(c, _xy(grown))))
    patches: list[tuple[int, int]] = []
    if probes:
        answers = tuple(colour_points(tuple([g for _, g in probes]), visible))
        if len(answers) != len(probes):
            raise ValueError(f"colour_points gave {len(answers)} results for {len(probes)} "
                             "groups")
        patches = [(MIN_COLOUR_GROUP - n, n) for (n, _), a in zip(probes, answers, strict=True)
                   if a > 0]
    scored, still = _butterflies(kept, garden)
    hoped = sum(points) + scored - penalty
    now = hoped
    if pending:  # the score now: the live groups removed too
        kept = {k: card for k, card in kept.items() if k not in waiting}
        _, now_points, _ = _colours(kept, colour_points)
        now = sum(now_points) + _butterflies(kept, garden)[0] - penalty - waiting_cards
    return Outlook(now, hoped, tuple(pending), tuple(patches), still)


def turns_left(state: State, seat: int, share: float = Weights.share) -> float:
    """About how many more cards ``seat`` will plant, from the stacks' sizes (see the module
    docstring); 0 when the game is over or a stack is empty."""
    if state.phase == OVER or not state.stacks:
        return 0.0
    sizes = [len(s) for s in state.stacks]
    if state.players == 1:
        return min(sizes[0] / 1.5, float(sum(sizes[1:])))
    return min(sizes) * len(sizes) * share / state.players


def judge(seen: Outlook, turns: float, weights: Weights = DEFAULT) -> float:
    """The evaluation of a garden whose `Outlook` is ``seen`` with ``turns`` turns left."""
    value = float(seen.now)
    room = turns + 1.0
    if seen.pending:
        lacking = sum(lack for lack, _ in seen.pending)
        hope = 1.0 - (lacking / room) ** 2
        if hope > 0:
            value += hope * (seen.hoped - seen.now - weights.lack * lacking)
    for need, cards in seen.patches:
        if need <= turns:
            value += weights.patch * cards * (1.0 - (need / room) ** 2)
    if seen.open and turns >= 1:
        value += weights.butterfly * seen.open * (1.0 - (1.0 / room) ** 2)
    return value


def make_evaluate(colour_points: ColourPoints, score: Callable[[State, int], float],
                  weights: Weights = DEFAULT) -> Callable[[State, int], float]:
    """``evaluate(state, seat)`` for a table whose colour rule is ``colour_points`` and whose
    ``score`` is ``score`` (used as is once the game is over)."""
    kept: dict[int, tuple[Garden, Outlook]] = {}  # id(garden) -> (garden, outlook)
    known: OrderedDict[frozenset[tuple[int, tuple[int, ...]]], Outlook] = OrderedDict()

    def evaluate(state: State, seat: int) -> float:
        """``seat``'s points now plus what its garden promises (module docstring)."""
        if state.phase == OVER:
            return score(state, seat)
        garden = state.gardens[seat]
        found = kept.get(id(garden))
        if found is not None and found[0] is garden:
            seen = found[1]
        else:
            content = frozenset(garden.items())
            again = known.get(content)
            if again is None:
                again = outlook(garden, colour_points)
                if len(known) >= KEPT_CONTENTS:
                    known.popitem(last=False)  # the least recently used
                known[content] = again
            else:
                known.move_to_end(content)
            seen = again
            if len(kept) >= KEPT_GARDENS:
                kept.clear()
            kept[id(garden)] = (garden, seen)
        return judge(seen, turns_left(state, seat, weights.share), weights)

    return evaluate
