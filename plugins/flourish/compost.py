"""Compost, the Flourish variant where a seat may discard a card to draw one more (spec §10.5).

On turns 1-9 a seat may add a fourth distinct card to its choice, discarded face down to
the compost pile; it then draws two cards instead of one (after turn 9: one instead of
none), so its hand is back to six (five for the final round).  The compost discards reach
the pile when the turn is revealed, before anyone draws; a draw that finds the deck empty
waits for chance to shuffle the compost pile into a new deck.  In solo the extra draws come
from the main deck.  Cooperative and solo medal thresholds rise by 5 points per player.

The rules for all of that live in the game (a choice with a compost card, the extra draw,
the reshuffle as a chance node); this plugin only switches them on (``flourish_compost``)
and raises the medals (``flourish_medal_raise``).  It combines with every other variant.
The hooks live on `CompostRules`, which the host calls only at tables that chose compost.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core import VariantSpec, hookimpl

RAISE_PER_PLAYER = 5


class CompostRules:
    """Compost's implementation of Flourish's extension hooks."""

    @hookimpl
    def flourish_compost(self, players: int) -> bool:
        """Compost discards are allowed."""
        return True

    @hookimpl
    def flourish_medal_raise(self, players: int) -> int:
        """Every medal threshold rises by 5 points per player (solo: 5)."""
        return RAISE_PER_PLAYER * players


@hookimpl
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register Compost for Flourish."""
    register(VariantSpec(
        game="flourish",
        name="compost",
        version="1.0.0",
        impl=CompostRules(),
        summary="each turn you may also discard a card to the compost pile and draw one "
                "more; medal thresholds rise by 5 per player",
    ))
