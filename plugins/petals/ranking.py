"""Who wins Petals (rules §7): tracker winners, eligibility, scores, tie-breaks, the Ranked result.

The pieces are public so that variants (Harmony, third-party ones) rank by their own key
and still share eligibility, ranking and the plain-words explanation:

* `tracker_winners` / `trackers_won` / `eligible`: who won each tracker, who may win;
* `rank`: competition ranking (1, 1, 3) by a key where higher is better, eliminated seats
  after every eligible one (ordered among themselves by the same key);
* `outcome_for`: the `Ranked` result with a per-element breakdown and an explanation.
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core import Ranked
from hedgerow.core.ranking import competition_ranks, decided, seat_names
from hedgerow.plugins.petals.cards import ELEMENTS
from hedgerow.plugins.petals.scoring import Points

Key = tuple[int, ...]

#: What the standard key compares, in order (rules §7 and its tie-breaks).
STANDARD_CRITERIA = ("score", "the lowest tracker", "the number of trackers won",
                     "the total of all four trackers")
STANDARD_RULE = "A player's score is the sum of their two lowest trackers."


def tracker_winners(trackers: Sequence[Points]) -> tuple[tuple[int, ...], ...]:
    """For each element, the seats with the highest score on it (ties share; 0 counts)."""
    out = []
    for column in zip(*trackers, strict=True):
        best = max(column)
        out.append(tuple([s for s, v in enumerate(column) if v == best]))
    return tuple(out)


def trackers_won(trackers: Sequence[Points],
                 winners: tuple[tuple[int, ...], ...] | None = None) -> tuple[int, ...]:
    """How many trackers each seat won (``winners``: `tracker_winners`, when known)."""
    won = [0] * len(trackers)
    for seats in winners or tracker_winners(trackers):
        for s in seats:
            won[s] += 1
    return tuple(won)


def eligible(trackers: Sequence[Points]) -> tuple[int, ...]:
    """The seats that won at least one tracker (the others are eliminated)."""
    return tuple(s for s, n in enumerate(trackers_won(trackers)) if n)


def two_lowest(points: Points) -> int:
    """The sum of a seat's two lowest trackers: its Petals score."""
    low = sorted(points)
    return low[0] + low[1]


def spread(points: Points) -> int:
    """Highest tracker minus lowest tracker."""
    return max(points) - min(points)


def standard_key(points: Points, won: int) -> Key:
    """The standard ranking key: score, lowest tracker, trackers won, total (higher wins)."""
    return (two_lowest(points), min(points), won, sum(points))


def rank(keys: Sequence[Key], can_win: Sequence[int]) -> tuple[int, ...]:
    """Competition ranks (1 best): eligible seats first by key, then the others by key."""
    first = set(can_win)
    return competition_ranks([(s in first, keys[s]) for s in range(len(keys))])


def _explain(trackers: Sequence[Points], won: tuple[tuple[int, ...], ...], ranking: Sequence[int],
             keys: Sequence[Key], shown: Sequence[Sequence[int]], criteria: Sequence[str],
             rule: str, can_win: Sequence[int]) -> str:
    parts = ["Tracker winners: " + "; ".join(
        f"{ELEMENTS[e]} {seat_names(seats)}" for e, seats in enumerate(won)) + "."]
    out = [s for s in range(len(trackers)) if s not in can_win]
    if out:
        verb = "is" if len(out) == 1 else "are"
        parts.append(f"{seat_names(out).capitalize()} won no tracker and {verb} eliminated.")
    parts.append(rule)
    winners = [s for s in range(len(trackers)) if ranking[s] == 1]
    w = winners[0]
    others = sorted((s for s in can_win if ranking[s] != 1), key=lambda s: keys[s], reverse=True)
    if not others:
        if len(winners) == 1:
            parts.append(f"Seat {w} wins: the only player who won a tracker "
                         f"({criteria[0]} {shown[w][0]}).")
        else:
            parts.append(decided(winners, None, keys, criteria, shown))
        return " ".join(parts)
    parts.append(decided(winners, others[0], keys, criteria, shown))
    return " ".join(parts)


def outcome_for(trackers: Sequence[Points], scores: Sequence[int], keys: Sequence[Key],
                shown: Sequence[Sequence[int]], criteria: Sequence[str], rule: str,
                extra: tuple[tuple[str, tuple[int, ...]], ...] = (),
                by_element: tuple[tuple[int, ...], ...] | None = None) -> Ranked:
    """The `Ranked` result of a finished game ranked by ``keys`` (higher is better).

    ``shown`` holds each seat's key as it should read in the explanation (e.g. a spread
    rather than its negation), ``criteria`` names each key position in a few words and
    ``rule`` says in one sentence how the ranking works; ``extra`` adds
    breakdown columns after the four elements and the trackers won; ``by_element`` is
    `tracker_winners` when the caller has it already.
    """
    if by_element is None:
        by_element = tracker_winners(trackers)
    won = trackers_won(trackers, by_element)
    can_win = tuple(s for s, n in enumerate(won) if n)
    ranking = rank(keys, can_win)
    winners = tuple(s for s in range(len(trackers)) if ranking[s] == 1)
    breakdown = tuple(zip(ELEMENTS, zip(*trackers, strict=True), strict=True))
    breakdown += (("Trackers won", won), *extra)
    return Ranked(
        scores=tuple(scores),
        ranking=ranking,
        winners=winners,
        explanation=_explain(trackers, by_element, ranking, keys, shown, criteria, rule,
                             can_win),
        eliminated=tuple(s for s in range(len(trackers)) if s not in can_win),
        breakdown=breakdown,
    )


def standard_outcome(trackers: Sequence[Points]) -> Ranked:
    """Rules §7: eligible seats ranked by the sum of their two lowest trackers, tie-broken."""
    by_element = tracker_winners(trackers)
    won = trackers_won(trackers, by_element)
    keys = [standard_key(t, won[s]) for s, t in enumerate(trackers)]
    scores = tuple(k[0] for k in keys)
    return outcome_for(trackers, scores, keys, keys, STANDARD_CRITERIA, STANDARD_RULE,
                       extra=(("Two lowest", scores),), by_element=by_element)
