"""``score`` for FLOWERS' bots: a seat's total if the game were scored now.

It is the table's own final scoring of the seat's garden (`hedgerow.plugins.flowers.game.
Rules.score`, under the table's variants), so once the game is over it is the final score.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.plugins.flowers.game import Rules
from hedgerow.plugins.flowers.garden import Garden
from hedgerow.plugins.flowers.state import State

#: How many gardens ``score`` remembers (then it forgets them all and starts again).
SCORED_GARDENS = 256


def make_score(rules: Rules) -> Callable[[State, int], float]:
    """``score(state, seat)`` under ``rules``."""
    scored: dict[int, tuple[Garden, int]] = {}  # id(garden) -> (garden, total): see score

    def score(state: State, seat: int) -> float:
        """``seat``'s total if the game were scored now (its final score once over).

        A garden dict is never changed once a state holds it, and a search's states share
        most of theirs (an action changes one garden; every sample of one view shares the
        view's), so the last gardens scored are remembered by identity: the cache holds the
        garden itself, so an id is never mistaken for a later object's.
        """
        garden = state.gardens[seat]
        found = scored.get(id(garden))
        if found is not None and found[0] is garden:
            return found[1]
        total = rules.score(garden, detail=False).total
        if len(scored) >= SCORED_GARDENS:
            scored.clear()
        scored[id(garden)] = (garden, total)
        return total

    return score
