"""Competition ranking, the piece every game's result shares (games rank by their own keys).

* `competition_ranks`: "1224" ranking by sort keys, higher is better: a seat's rank is 1 +
  the number of seats with a strictly better key, so equal keys share a rank and the next
  rank is skipped (keys ``(5, 9, 9, 2)`` rank ``(3, 1, 1, 4)``);
* `winners`: the seats ranked first;
* `deciding`: the first position of a tie-break chain at which two keys differ (which
  criterion separated a winner from the runner-up);
* `seat_names`: seats in plain words (``seat 2``, ``seats 0, 1 and 3``) for explanations;
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


def grade(total: int, grades: Sequence[tuple[str, int]], default: str = "") -> str:
    """The best label whose threshold ``total`` reaches (``grades`` lowest first), or
    ``default`` when it reaches none."""
    reached = [label for label, at in grades if total >= at]
    return reached[-1] if reached else default
