"""Summer, the FLOWERS variant with a purple start card (rules §8), as a plugin.

* Setup: each garden starts with a purple card (P1 for seat 0, P2 for seat 1, ...) instead
  of a card from the deck, so the stacks get those cards too: at 4 players 36 / 36 / 36.
* Planting: the purple card may never be covered.
* Scoring: a colour group of 5 or more scores only when one of its cards shares a side with
  the purple card (OUR DECISION, rules §8), so at most four groups can.  The purple card has
  no value and no colour: it is in no number group, never removed, and touches no
  butterfly's colour.

Summer combines with the solo game.  This module is itself registered as a plugin (for
``hedgerow_register_variants``) at every table, so the hooks that change the rules live on
a separate object, `SummerRules`, that the host calls only at tables that chose Summer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hedgerow.core import VariantSpec, hookimpl
from hedgerow.core.game import rules_module

if TYPE_CHECKING:  # the rules load when a table first calls a hook (`rules_module`)
    from hedgerow.plugins.flowers import cards, scoring, setup
    from hedgerow.plugins.flowers.scoring import ColourGroup, Visible
    from hedgerow.plugins.flowers.setup import Layout
else:
    cards = rules_module(globals(), "cards", "hedgerow.plugins.flowers.cards")
    scoring = rules_module(globals(), "scoring", "hedgerow.plugins.flowers.scoring")
    setup = rules_module(globals(), "setup", "hedgerow.plugins.flowers.setup")


def summer_layout(players: int) -> Layout:
    """A purple start card for every seat; every deck card can go to the stacks."""
    return setup.Layout(cards.PURPLES[:players], setup.stack_sizes(players, 0))


def summer_colour_points(groups: tuple[ColourGroup, ...], visible: Visible,
                         ) -> tuple[int, ...]:
    """The standard points, for the groups that share a side with a purple card only."""
    purple = {(x, y) for x, y, card in visible if cards.COLOUR[card] == cards.PURPLE}
    near = {(x + dx, y + dy) for x, y in purple for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))}
    standard = scoring.standard_colour_points(groups, visible)
    return tuple(points if any(c in near for c in g.cells) else 0
                 for g, points in zip(groups, standard, strict=True))


class SummerRules:
    """Summer's implementation of FLOWERS' extension hooks."""

    @hookimpl
    def flowers_setup(self, players: int) -> Layout:
        """Purple start cards."""
        return summer_layout(players)

    @hookimpl
    def flowers_coverable(self, card: int) -> bool | None:
        """The purple card may not be covered; other cards are left to the standard rule."""
        return False if card in cards.PURPLES else None

    @hookimpl
    def flowers_colour_points(self, groups: tuple[ColourGroup, ...], visible: Visible,
                              ) -> tuple[int, ...]:
        """Only groups touching the purple card score."""
        return summer_colour_points(groups, visible)


@hookimpl
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register Summer for FLOWERS."""
    register(VariantSpec(
        game="flowers",
        name="summer",
        version="1.0.0",
        impl=SummerRules(),
        summary="start from a purple card that may not be covered; only colour groups "
                "touching it score",
    ))
