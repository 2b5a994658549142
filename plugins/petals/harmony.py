"""Harmony, the Petals variant where the most balanced garden wins (rules §8), as a plugin.

Eligibility is unchanged (a seat that won no tracker is eliminated).  Among the others the
smallest spread (highest tracker minus lowest) wins; ties go to the higher sum of the two
lowest trackers, then the higher total, then the victory is shared.

`Ranked.scores` in Harmony is **minus the spread** (0 is perfect balance), so that, as in
every Hedgerow outcome, a higher score is better; the breakdown also shows the spread and
the standard score.  `HarmonyRules` also answers ``petals_score_rule`` (`scorerule.HARMONY`),
so that the help, the players table and the results show the spread.

This module is itself registered as a plugin (for ``hedgerow_register_variants``) at every
table, so the hook that changes the rules lives on a separate object, `HarmonyRules`, that
the host calls only at tables that chose Harmony.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hedgerow.core import Ranked, VariantSpec, hookimpl
from hedgerow.core.game import rules_module

if TYPE_CHECKING:  # the rules load when a table first calls a hook (`rules_module`)
    from hedgerow.plugins.petals import ranking, scorerule
    from hedgerow.plugins.petals.scorerule import ScoreRule
    from hedgerow.plugins.petals.scoring import Points
else:
    ranking = rules_module(globals(), "ranking", "hedgerow.plugins.petals.ranking")
    scorerule = rules_module(globals(), "scorerule", "hedgerow.plugins.petals.scorerule")

CRITERIA = ("spread", "the sum of the two lowest trackers", "the total of all four trackers")
RULE = ("Harmony: the smallest spread between a player's highest and lowest tracker "
        "wins.")


def harmony_outcome(trackers: tuple[Points, ...]) -> Ranked:
    """Rules §8: among tracker winners, the smallest spread wins, then the tie-breaks."""
    shown = [(ranking.spread(t), ranking.two_lowest(t), sum(t)) for t in trackers]
    keys = [(-s, low, total) for s, low, total in shown]
    spreads = tuple(s[0] for s in shown)
    return ranking.outcome_for(
        trackers, tuple(-s for s in spreads), keys, shown, CRITERIA, RULE,
        extra=(("Spread", spreads), ("Two lowest", tuple(s[1] for s in shown))),
    )


class HarmonyRules:
    """Harmony's implementation of Petals' extension hooks."""

    @hookimpl
    def petals_winner(self, trackers: tuple[Points, ...]) -> Ranked:
        """The Harmony ranking replaces the standard one."""
        return harmony_outcome(trackers)

    @hookimpl
    def petals_score_rule(self) -> ScoreRule:
        """Every screen shows the spread (the smallest wins) instead of the two lowest."""
        return scorerule.HARMONY


@hookimpl
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register Harmony for Petals."""
    register(VariantSpec(
        game="petals",
        name="harmony",
        version="1.0.0",
        impl=HarmonyRules(),
        summary="the most balanced garden wins: smallest gap between your highest and "
                "lowest tracker",
    ))
