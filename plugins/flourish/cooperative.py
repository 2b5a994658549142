"""Cooperative Flourish (spec §10.1): the team adds its scores and wins a medal, or not.

The rules of play are unchanged; only the result differs: a `Cooperative` outcome whose
total is the sum of every seat's score, graded against the medal table for the player
count (raised by ``flourish_medal_raise``, e.g. by Compost).  The team wins when it
reaches Bronze.  For 2 to 7 players (one player plays against McGregor instead); it cannot
be combined with the Garden Show, which is competitive only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hedgerow.core import Cooperative, VariantSpec, hookimpl
from hedgerow.core.game import rules_module

if TYPE_CHECKING:  # the rules load when a table first calls a hook (`rules_module`)
    from hedgerow.core import ranking as core_ranking
    from hedgerow.plugins.flourish import ranking
    from hedgerow.plugins.flourish.state import Result
else:
    core_ranking = rules_module(globals(), "core_ranking", "hedgerow.core.ranking")
    ranking = rules_module(globals(), "ranking", "hedgerow.plugins.flourish.ranking")

#: Bronze, Silver, Gold thresholds by player count (spec §10.1).
MEDALS: dict[int, tuple[int, int, int]] = {
    2: (160, 180, 200),
    3: (255, 285, 315),
    4: (360, 400, 440),
    5: (450, 500, 550),
    6: (510, 570, 630),
    7: (560, 630, 700),
}
LABELS = ("Bronze", "Silver", "Gold")


def medals(players: int, raise_: int = 0) -> tuple[tuple[str, int], ...]:
    """The medal thresholds for ``players``, lowest first, raised by ``raise_``."""
    return ranking.raised(tuple(zip(LABELS, MEDALS[players], strict=True)), raise_)


def cooperative_outcome(result: Result) -> Cooperative:
    """The team's total and the best medal it reaches."""
    seats = result.cfg.players
    record = result.games[-1]
    scores = ranking.game_totals(record)[:seats]
    total = sum(scores)
    grades = medals(seats, result.medal_raise)
    medal = core_ranking.grade(total, grades)
    thresholds = ", ".join(f"{label} {at}" for label, at in grades)
    return Cooperative(
        scores=scores,
        total=total,
        won=bool(medal),
        grade=medal,
        explanation=(f"The team scored {total} ({' + '.join(str(s) for s in scores)}): "
                     f"{medal or 'no medal'} ({thresholds})."),
        grades=grades,
        breakdown=(*ranking.point_columns(record, seats), ("Total", scores)),
    )


class CooperativeRules:
    """The cooperative implementation of Flourish's extension hooks."""

    @hookimpl
    def flourish_outcome(self, result: Result) -> Cooperative:
        """The team result replaces the ranking."""
        return cooperative_outcome(result)


@hookimpl
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register the cooperative game for Flourish."""
    register(VariantSpec(
        game="flourish",
        name="cooperative",
        version="1.0.0",
        impl=CooperativeRules(),
        summary="play as a team: add up every score and aim for a medal",
        conflicts=("garden-show",),
        players=(2, 7),
    ))
