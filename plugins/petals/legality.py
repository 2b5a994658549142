"""Which placements and moves are legal (rules §5.1 and §5.4), with the reason when not.

Each ``check_*`` returns None for a legal decision or the `Refusal` that names the rule it
breaks.  `move_options` lists every legal move for a symbol effect at once, cheaply: one
articulation-point search tells which cards can leave without splitting the garden, so
only those few cut cards need their destinations checked one by one.
"""

from __future__ import annotations

from collections.abc import Iterator

from hedgerow.core import Refusal
from hedgerow.plugins.petals.geometry import (
    RING,
    Cell,
    Garden,
    connected,
    find_cuts,
    locally_removable,
    surrounded,
    touches_side,
)


def _refuse(code: str, message: str) -> Refusal:
    return Refusal(f"petals.{code}", message)


def check_rotation(rot: int) -> Refusal | None:
    """A rotation is a number of clockwise quarter turns, 0 to 3."""
    if 0 <= rot <= 3:
        return None
    return _refuse("bad_rotation", f"a rotation is 0 to 3 quarter turns, not {rot}")


def check_place(garden: Garden, hand: tuple[int, ...], card: int, cell: Cell, rot: int,
                ) -> Refusal | None:
    """Rule 5.1: a card from your hand, on an empty cell that shares a side with the garden."""
    if card not in hand:
        return _refuse("not_in_hand", f"card #{card} is not in your hand (rule 5.1: play a "
                       "card from your hand)")
    bad = check_rotation(rot)
    if bad:
        return bad
    if cell in garden:
        return _refuse("occupied", f"cell {cell} already holds a card (rule 5.1: place on an "
                       "empty cell)")
    if not touches_side(garden, cell):
        return _refuse("not_adjacent", f"cell {cell} shares no side with a card in the garden "
                       "(rule 5.1: a new card must touch a side; a corner is not enough)")
    return None


def check_move(garden: Garden, triggers: tuple[Cell, ...], src: Cell, dst: Cell, rot: int,
               ) -> Refusal | None:
    """Rule 5.4: may the card at ``src`` move to ``dst`` at rotation ``rot``?

    The garden must be 8-connected, as the rules keep it (as for `has_move`)."""
    if src not in garden:
        return _refuse("no_card", f"there is no card at {src} to move")
    if src in triggers:
        return _refuse("triggering_card", f"the card at {src} triggered this effect and may "
                       "not move (rule 5.4: a triggering card stays put)")
    if surrounded(garden, src):
        return _refuse("surrounded", f"the card at {src} has cards on all four sides and may "
                       "not move (rule 5.4: a surrounded card stays put)")
    bad = check_rotation(rot)
    if bad:
        return bad
    if dst == src:
        return _refuse("same_cell", f"the card must move to another cell than {src} "
                       "(rule 5.4: the destination must differ)")
    if dst in garden:
        return _refuse("occupied", f"cell {dst} already holds a card (rule 5.4: move to an "
                       "empty cell)")
    if not touches_side(garden, dst, without=src):
        return _refuse("not_adjacent", f"cell {dst} would share no side with another card "
                       "(rule 5.4: the moved card must touch a side of a card that stays)")
    # A card whose neighbours touch one another leaves the garden as connected as it was,
    # and the rules keep it connected: only another card needs the full search.
    if not locally_removable(garden, src) and not connected(garden, (dst,), without=src):
        return _refuse("disconnects", f"moving the card from {src} to {dst} would split the "
                       "garden (rule 5.4: the garden must stay connected, corners count)")
    return None


#: One source card of a symbol effect's moves (`move_plan`): ``(source, count, dests,
#: alone)``.  ``dests`` is the tuple of its destinations, or None when they are the
#: frontier less the cells in ``alone`` (then they are listed only when asked for,
#: `plan_dests`); ``count`` is how many there are.
PlanEntry = tuple[Cell, int, "tuple[Cell, ...] | None", tuple[Cell, ...]]


def move_plan(garden: Garden, frontier: tuple[Cell, ...], triggers: tuple[Cell, ...],
              ) -> tuple[PlanEntry, ...]:
    """Every card that may move, with how many legal destinations it has (any rotation
    goes with each), in cell order, skipping cards with no destination.

    ``frontier`` is the garden's frontier: every legal destination is in it, since it is
    empty and shares a side with a card that stays, so a frontier cell qualifies unless
    the moving card is its only side contact.  If taking the card out leaves the garden
    connected, that is all, and its destinations are counted without being listed (a
    random pick lists one card's, `plan_dests`); if it is a cut cell (one
    articulation-point search answers for every card), a destination must also touch
    every part the garden would fall into, and those are listed here.
    """
    lonely: dict[Cell, list[Cell]] = {}  # card -> frontier cells it alone touches by a side
    for d in frontier:
        x, y = d
        touching = [n for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)) if n in garden]
        if len(touching) == 1:
            lonely.setdefault(touching[0], []).append(d)
    cuts = find_cuts(garden)
    size = len(frontier)
    out: list[PlanEntry] = []
    for src in sorted(garden):
        if src in triggers or surrounded(garden, src):
            continue
        alone = lonely.get(src)
        if cuts is not None and src not in cuts.split:
            count = size - len(alone) if alone else size
            if count:
                out.append((src, count, None, tuple(alone) if alone else ()))
            continue
        dests = [d for d in frontier if d not in alone] if alone else list(frontier)
        if cuts is None:  # the garden is already split: judge each destination directly
            dests = [d for d in dests if connected(garden, (d,), without=src)]
        else:  # a cut cell: a destination must touch every part
            dests = _joining(garden, src, cuts.parts(src), src != cuts.root, dests)
        if dests:
            out.append((src, len(dests), tuple(dests), ()))
    return tuple(out)


def plan_dests(frontier: tuple[Cell, ...], entry: PlanEntry) -> tuple[Cell, ...]:
    """The destinations of one `move_plan` entry, in frontier order."""
    _, _, dests, alone = entry
    if dests is not None:
        return dests
    return tuple(d for d in frontier if d not in alone) if alone else frontier


def move_options(garden: Garden, frontier: tuple[Cell, ...], triggers: tuple[Cell, ...],
                 ) -> Iterator[tuple[Cell, tuple[Cell, ...]]]:
    """Every card that may move, with its legal destinations (`move_plan`, listed): yields
    ``(source, destinations)`` in cell order, skipping cards with no destination."""
    for entry in move_plan(garden, frontier, triggers):
        yield entry[0], plan_dests(frontier, entry)


def _joining(garden: Garden, src: Cell, parts: list[tuple[Cell, ...]], rest: bool,
             dests: list[Cell]) -> list[Cell]:
    """The destinations that touch (8-adjacent) every part, and the rest when there is one."""
    if rest:
        broken = {c for part in parts for c in part}
        parts = [*parts, tuple(c for c in garden if c != src and c not in broken)]
    for part in sorted(parts, key=len):  # the smallest part rules out the most, cheapest
        if not dests:
            break
        near = {(x + dx, y + dy) for x, y in part for dx, dy in RING}
        dests = [d for d in dests if d in near]
    return dests


def has_move(garden: Garden, frontier: tuple[Cell, ...], triggers: tuple[Cell, ...]) -> bool:
    """True when at least one legal move exists.

    The garden must be 8-connected, as the rules keep it: then a card whose neighbours
    touch one another can leave without splitting it, and any such card with somewhere to
    go settles the question without a full search.
    """
    for src in garden:  # (any order: the answer is the same)
        if (src not in triggers and not surrounded(garden, src)
                and locally_removable(garden, src)
                and any(touches_side(garden, d, without=src) for d in frontier)):
            return True
    return bool(move_plan(garden, frontier, triggers))
