"""Competition ranking, the piece every game's result shares (games rank by their own keys).

* `competition_ranks`: "1224" ranking by sort keys, higher is better: a seat's rank is 1 +
  the number of seats with a strictly better key, so equal keys share a rank and the next
  rank is skipped (keys ``(5, 9, 9, 2)`` rank ``(3, 1, 1, 4)``);
* `winners`: the seats ranked first;
* `deciding`: the first position of a tie-break chain at which two keys differ (which
  criterion separated a winner from the runner-up);
* `seat_names`: seats in plain words (``seat 2``, ``seats 0, 1 and 3``) for explanations;
* `decided`: the sentence that says how first place was decided, in every game's words
  the same (shared, won on the first criterion, or level until a tie-break);
* `grade`: the best label whose threshold a total reaches (medals, solo ranks).

Keys are any mutually comparable values; tuples compare position by position, so a tuple
key is the total followed by its tie-break chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Competition ranks, 1 best: 1 + the number of seats whose key is strictly greater."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def winners(ranking: Sequence[int]) -> tuple[int, ...]:
    """The seats ranked 1, in seat order."""
    return tuple(s for s, r in enumerate(ranking) if r == 1)


def deciding(key: Sequence[Any], other: Sequence[Any]) -> int:
    """The first position at which two different keys differ."""
    return next(i for i in range(len(key)) if key[i] != other[i])


def seat_names(seats: Sequence[int]) -> str:
    """``seat 2``, ``seats 0 and 1``, ``seats 0, 1 and 3``."""
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return "seats " + ", ".join(names[:-1]) + " and " + names[-1]


def decided(best: Sequence[int], runner: int | None, keys: Sequence[Sequence[Any]],
            criteria: Sequence[str], shown: Sequence[Sequence[Any]] | None = None) -> str:
    """How first place was decided, in one sentence, the same in every game.

    ``best`` are the seats ranked first, ``runner`` the best of the others (None when there
    is none), ``keys`` each seat's ranking key (higher is better, position by position),
    ``criteria[i]`` names key position ``i`` in a few words and ``shown`` (default
    ``keys``) holds each key as the sentence should show it (a penalty as counted, not
    negated)::

        Seats 0 and 2 share the victory: level on points (21) and every tie-break.
        Seat 1 wins on points: 21 against 18 for seat 0.
        Seat 1 and seat 0 are level on points (21); seat 1 wins on butterfly points:
        3 against 1.
        Seat 1 wins on points (21).
    """
    shown = keys if shown is None else shown
    w = best[0]
    if len(best) > 1:
        return (f"{seat_names(best).capitalize()} share the victory: level on "
                f"{criteria[0]} ({shown[w][0]}) and every tie-break.")
    if runner is None:
        return f"Seat {w} wins on {criteria[0]} ({shown[w][0]})."
    level = deciding(keys[w], keys[runner])
    if level == 0:
        return (f"Seat {w} wins on {criteria[0]}: {shown[w][0]} against {shown[runner][0]} "
                f"for seat {runner}.")
    tied = ", ".join(f"{c} ({shown[w][i]})" for i, c in enumerate(criteria[:level]))
    return (f"Seat {w} and seat {runner} are level on {tied}; seat {w} wins on "
            f"{criteria[level]}: {shown[w][level]} against {shown[runner][level]}.")


def grade(total: int, grades: Sequence[tuple[str, int]], default: str = "") -> str:
    """The best label whose threshold ``total`` reaches (``grades`` lowest first), or
    ``default`` when it reaches none."""
    reached = [label for label, at in grades if total >= at]
    return reached[-1] if reached else default
