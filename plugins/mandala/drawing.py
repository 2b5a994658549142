"""The draw rule (spec §6 step 2) and the keep-one-card rule (spec §7) as one small object.

A table's draw rule is a `DrawRule` chosen once, when its rules are built, through the
``mandala_draw_rule`` extension hook (the standard rule is `STANDARD`; the "draw up to 4"
variant answers with ``after_single=4``).  The rules then call it directly on every play:
no hook is called per move.

After playing ``played`` cards with ``hand`` cards left, a seat draws
``rule.wanted(played, hand)`` cards (never above the hand limit), or fewer when the deck
and the discard pile together hold fewer.  A play is legal only if the seat still holds at
least one card once it has drawn (`DrawRule.keeps_one`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DrawRule:
    """How many cards a play draws.

    * ``after_single``: cards drawn after playing exactly one card (2 in the seed's rule);
    * ``after_several``: cards drawn after playing two or more (0);
    * ``hand_limit``: a draw never takes the hand above this (8); cards that come back from
      a mandala may.

    A variant with a rule these fields cannot say overrides `wanted` in a subclass.
    """

    after_single: int = 2
    after_several: int = 0
    hand_limit: int = 8

    def wanted(self, played: int, hand: int) -> int:
        """Cards to draw after playing ``played`` cards, holding ``hand`` cards now."""
        n = self.after_single if played == 1 else self.after_several
        return max(0, min(n, self.hand_limit - hand))

    def keeps_one(self, hand: int, played: int, available: int) -> bool:
        """True when a seat holding ``hand`` cards may play ``played`` of them: it holds at
        least one card after drawing (``available``: cards in the deck and discard pile)."""
        left = hand - played
        return left + min(self.wanted(played, left), available) >= 1


#: The seed's rule: draw 2 after a single card, nothing after several, hand limit 8.
STANDARD = DrawRule()
#: The published rule (the ``draw-four`` variant): draw up to 4 after a single card.
DRAW_FOUR = DrawRule(after_single=4)
