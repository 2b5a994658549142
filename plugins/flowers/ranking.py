"""Who wins FLOWERS (rules §7) and what a solo game is worth (rules §5): the outcomes.

With 2-4 players the highest total wins; ties are broken (OUR DECISION, rules §7) by fewer
cards removed, then more butterfly points, then the larger single scoring colour group;
seats still level share the victory.  Alone, the total earns a rank: Beginner (10 or less,
negative totals included), Apprentice (11-17), Expert (18-25), Master (26 or more); the
solo game has no losing (``won=None``).

Both results carry the same breakdown columns, one value per seat: ``Colour groups``
(points), ``Butterflies`` (points), ``Removed`` (the penalty, minus one a card removed:
the three add up to the score), ``Groups removed`` (how many number groups went) and
``Largest group`` (the largest scoring colour group, the third tie-break).
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core import Ranked, Solo
from hedgerow.core.ranking import competition_ranks, decided, grade, winners
from hedgerow.plugins.flowers.scoring import GardenScore

#: Solo ranks with the lowest total each needs (rules §5), lowest first.
RANKS: tuple[tuple[str, int], ...] = (("Apprentice", 11), ("Expert", 18), ("Master", 26))
BEGINNER = "Beginner"
CRITERIA = ("points", "fewer cards removed", "butterfly points", "the largest scoring colour "
            "group")


def solo_rank(score: int) -> str:
    """The rank a solo total earns."""
    return grade(score, RANKS, BEGINNER)


def breakdown(scores: Sequence[GardenScore]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The per-seat columns of a result (see the module docstring)."""
    return (
        ("Colour groups", tuple(s.colour for s in scores)),
        ("Butterflies", tuple(s.butterfly for s in scores)),
        ("Removed", tuple(-s.penalty for s in scores)),
        ("Groups removed", tuple(s.dropped for s in scores)),
        ("Largest group", tuple(s.largest for s in scores)),
    )


def key(score: GardenScore) -> tuple[int, int, int, int]:
    """What ranks a seat, higher is better: total, then the tie-breaks of rules §7."""
    return (score.total, -score.penalty, score.butterfly, score.largest)


def _shown(score: GardenScore) -> tuple[int, int, int, int]:
    return (score.total, score.penalty, score.butterfly, score.largest)


def _explain(scores: Sequence[GardenScore], ranking: Sequence[int]) -> str:
    keys = [key(s) for s in scores]
    best = winners(ranking)
    totals = ", ".join(f"seat {s} {sc.total}" for s, sc in enumerate(scores))
    head = f"Totals: {totals}."
    others = [s for s in range(len(scores)) if s not in best]
    runner = max(others, key=lambda s: (keys[s], -s)) if others else None
    return f"{head} " + decided(best, runner, keys, CRITERIA, [_shown(s) for s in scores])


def ranked_outcome(scores: Sequence[GardenScore]) -> Ranked:
    """The result of a 2-4 player game from each seat's final score."""
    keys = [key(s) for s in scores]
    ranking = competition_ranks(keys)
    return Ranked(
        scores=tuple(s.total for s in scores),
        ranking=ranking,
        winners=winners(ranking),
        explanation=_explain(scores, ranking),
        breakdown=breakdown(scores),
    )


def solo_outcome(score: GardenScore) -> Solo:
    """The result of a solo game: its total and the rank it earns."""
    rank = solo_rank(score.total)
    nxt = next(((label, at) for label, at in RANKS if score.total < at), None)
    aim = f" ({nxt[1]} for {nxt[0]})" if nxt else ""
    return Solo(
        score=score.total,
        grade=rank,
        won=None,
        explanation=f"{score.total} point{'s' * (score.total != 1)}: {rank}{aim}. "
                    f"Colour groups {score.colour}, butterflies {score.butterfly}, "
                    f"{score.penalty} card{'s' * (score.penalty != 1)} removed.",
        breakdown=breakdown((score,)),
    )
