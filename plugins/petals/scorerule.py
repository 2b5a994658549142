"""The figure a Petals table ranks its players by, for every screen that shows it.

The winner is decided by ``petals_winner``; what a player *sees* while playing and at the
end — the help's sentence on scoring, the players table's score column, the results' score
and which trackers make it — comes from one `ScoreRule`, answered by the extension hook
``petals_score_rule`` of the variant in force (`hedgerow.plugins.petals.hookspecs`).  The
standard game answers `STANDARD` (the sum of the two lowest trackers, higher is better);
Harmony answers `HARMONY` (highest minus lowest, lower is better).  A third-party variant
that changes the winner answers its own rule the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hedgerow.plugins.petals.ranking import spread, two_lowest
from hedgerow.plugins.petals.scoring import Points


def _two_lowest_at(points: Points) -> tuple[int, ...]:
    """The elements of the two lowest trackers (ties: the first element in F/W/E/A order)."""
    order = sorted(range(4), key=lambda e: (points[e], e))
    return tuple(sorted(order[:2]))


def _extremes_at(points: Points) -> tuple[int, ...]:
    """The elements of the lowest and the highest tracker (ties: the first in order)."""
    low = min(range(4), key=lambda e: (points[e], e))
    high = min(range(4), key=lambda e: (-points[e], e))
    return (low, high) if low != high else (low,)


@dataclass(frozen=True, slots=True)
class ScoreRule:
    """How a player's figure is made from their four trackers, in numbers and in words.

    * ``label``: the figure's name in a column head (``"Score"``, ``"Spread"``);
    * ``figure``: the figure for one seat's trackers;
    * ``lower_wins``: True when the smallest figure wins (Harmony);
    * ``counted``: the elements (0-3: Fire, Water, Earth, Air) the figure is made of, to
      mark on a chart;
    * ``sum_words``: ``"7 + 9"``-like words for how the figure is made (``"15 - 7"``);
    * ``help``: one or two sentences for the help overlay: who may win and how the
      figure decides.
    """

    name: str
    label: str
    figure: Callable[[Points], int]
    lower_wins: bool
    counted: Callable[[Points], tuple[int, ...]]
    help: str

    def sum_words(self, points: Points) -> str:
        """How ``points`` make the figure, as a small sum (``"7 + 9"`` or ``"15 - 7"``)."""
        cells = self.counted(points)
        if self.lower_wins:
            if len(cells) == 1:
                return f"{points[cells[0]]} - {points[cells[0]]}"
            low, high = cells
            return f"{points[high]} - {points[low]}"
        return " + ".join(str(v) for v in sorted(points[e] for e in cells))



ELIGIBILITY = ("At the end, only players who lead at least one tracker (ties count) can "
               "win.")

STANDARD = ScoreRule(
    name="standard",
    label="Score",
    figure=two_lowest,
    lower_wins=False,
    counted=_two_lowest_at,
    help=(f"{ELIGIBILITY} Your score is your two LOWEST trackers added, and the highest "
          "score wins: keep all four in balance."),
)

HARMONY = ScoreRule(
    name="harmony",
    label="Spread",
    figure=spread,
    lower_wins=True,
    counted=_extremes_at,
    help=(f"{ELIGIBILITY} Harmony: your spread is your highest tracker minus your lowest, "
          "and the SMALLEST spread wins: keep all four level."),
)

#: The rule of a table whose variants answer nothing (or when no table is known).
DEFAULT = STANDARD
