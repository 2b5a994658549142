"""Solo, the Flourish variant that names the one-player game against McGregor (spec §10.3).

The solo rules are the game's rules for one seat (`hedgerow.plugins.flourish.game`): you
pass two cards to McGregor, the automaton, who plays the top card of his own 12-card deck
every turn and whose abilities are scored like anyone's; the result is your total minus
his, with a medal.  They are in the game, not here, because they follow from the player
count as the two-player rules do: ``hedgerow simulate flourish --players 1`` is a solo game
too.

What this plugin adds is the name a player asks for: ``--variant solo`` sets the table to
one seat (`VariantSpec.players`), so ``hedgerow play flourish --variant solo`` needs no
``--players``.  It refuses, with the reason, the variants that have no one-player form:
cooperative (its medal table starts at two players; one player plays against McGregor
instead) and the Garden Show (a competitive match between players).  It combines with
compost.  It has no extension hooks to implement; its rules fingerprint is still part of
the table's, so every peer agrees that the table plays solo.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core import VariantSpec, hookimpl


class SoloRules:
    """Solo's implementation of Flourish's extension hooks: none (the game's one-seat rules
    apply as they are)."""


@hookimpl
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register the Solo variant."""
    register(VariantSpec(
        game="flourish",
        name="solo",
        version="1.0.0",
        impl=SoloRules(),
        summary="one player against McGregor, the automaton with his own deck; "
                "your score minus his, for a medal",
        conflicts=("cooperative", "garden-show"),
        players=(1, 1),
    ))
