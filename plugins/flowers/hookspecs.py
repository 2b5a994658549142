"""The extension hooks FLOWERS offers its variants (added to the host by ``hedgerow_addhooks``).

They sit at the three points the Summer variant changes: what a table deals, which cards may
be covered, and which colour groups score.  None of them is called per move:
``flowers_setup`` once per player count for a table (the answer is kept, so it must depend
on nothing else), ``flowers_coverable`` once per card when a table's rules are built (the
answers become a table the planting check reads), and ``flowers_colour_points`` once per
garden at the end.  Each is called only with the variants a table chose active.  FLOWERS
implements each itself as a ``trylast`` default, so a variant that answers (returns
something other than None) replaces the standard rule for the cases it answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hedgerow.core import hookspec

if TYPE_CHECKING:  # annotations only: listing the games reads no rules
    from hedgerow.plugins.flowers.scoring import ColourGroup, Visible
    from hedgerow.plugins.flowers.setup import Layout


@hookspec(firstresult=True)
def flowers_setup(players: int) -> Layout | None:
    """What a table deals (rules §3): each garden's start card and the stack sizes.

    Called by ``GameDef.setup`` before the deal, the first time a table sets up a game for
    ``players`` seats (the table keeps the answer for its next games).  The standard rule: every
    garden starts with a card from the deck (`hedgerow.plugins.flowers.setup.DRAW`) and the
    stacks have the sizes of rules §3 (``setup.standard_layout``).  A start card that is not
    drawn must be a card outside the deck (Summer's purple cards, ids 108-111).

    :param players: the number of seats, 1 to 4.
    :return: a `hedgerow.plugins.flowers.setup.Layout`, or None to leave it to the next answer.
    """


@hookspec(firstresult=True)
def flowers_coverable(card: int) -> bool | None:
    """May a card be planted on top of ``card`` (rules §4)?

    Called when a table's rules are built, once for every card id (the deck and the purple
    cards, ``cards.ALL_CARDS``); the answers make the table the planting check reads.  The
    standard rule: any card may be covered.

    :param card: a card id (see ``hedgerow.plugins.flowers.cards``).
    :return: True or False, or None to leave it to the next answer.
    """


@hookspec(firstresult=True)
def flowers_colour_points(groups: tuple[ColourGroup, ...], visible: Visible,
                          ) -> tuple[int, ...] | None:
    """What each colour group of a finished garden scores (rules §6, step 2).

    Called once per garden when the game's outcome (or a seat's view of the final scores) is
    computed, after the invalid number groups are removed.  The standard rule: a group of 5
    cards or more scores 1 a card, a smaller one nothing.

    :param groups: every colour group of the garden (side-connected visible cards of one
        colour), in cell order.
    :param visible: the visible cards left, ``(x, y, card)`` sorted by cell, the purple start
        card included.
    :return: one number per group, in the same order, or None.
    """
