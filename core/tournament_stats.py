"""A tournament's statistics: per-bot (or per-seat) tallies of game records, and their summary.

A `Tally` reads the game records a tournament produces (see `record_seat`) one at a time, in
any order, and keeps only counts and integer sums, so the summary is the same whatever order
the records arrived in and a million games need no more memory than ten.

A line counts **per game**: a bot that fills several seats of a game (two bots at four
seats: A B A B) plays one game, and wins it when any of its seats wins, once however many
of them do.  What a seat's win is depends on the kind of result (`hedgerow.core.outcome`):

* ``ranked``: the seat is ranked first; on a shared victory every sharing seat wins (so a
  first place shared by two bots is a win for both, and the bots' win rates can add up to
  more than 100%).
* ``match``: the seat won the match (ranked first on the final totals).
* ``cooperative``: the team reached a grade (or its goal): every seat, so every bot at the
  table, wins or loses together.
* ``solo``: the player won (Flourish solo: a medal).  FLOWERS solo cannot be lost: its
  games count as *undecided*, and only the grades reached are reported.

The win rate is ``wins / decided`` (games won of games that could be won or lost) with a
95% Wilson score interval (`wilson`) over those games.  Each game is one trial per bot, and
games are independent (each has its own seed), so the interval is sound; the seats rotate,
so the trials are not all alike, which only makes it a little wider than it needs to be.
Grades are counted per game too (every seat of a graded game reaches the same grade).
Scores are per seat, each seat's own number (``outcome.scores``): points in a ranked game,
the seat's contribution to the team in a cooperative one, the graded score of a solo one;
a bot in two seats of a game adds two scores.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

#: what a win is, when every line held one seat of each game
WIN_MEANING = {
    "ranked": "a seat ranked first (a shared victory is a win for each seat sharing it)",
    "match": "a seat that won the match (first on the final totals)",
    "cooperative": "the team reached a grade (all seats win or lose together)",
    "solo": "the solo player won",
}
#: what a win is, when a line held several seats of a game
WIN_MEANING_PER_GAME = {
    "ranked": "a game where any of its seats ranked first, counted once per game (a first "
              "place shared with another bot is a win for both)",
    "match": "a game where any of its seats won the match (first on the final totals), "
             "counted once per game",
    "cooperative": "the team reached a grade (every bot at the table wins or loses with it), "
                   "counted once per game",
}
UNDECIDED_MEANING = "these games grade the player and cannot be lost: see the grades"


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials (95% by default)."""
    if n < 0 or not 0 <= wins <= n:
        raise ValueError(f"no interval for {wins} wins in {n} trials")
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one finished game, as a tally reads it."""

    score: int
    won: bool | None  # None: the game cannot be lost (FLOWERS solo)
    grade: str | None  # the grade reached ("none" when none), None where nothing is graded
    moves: int
    seconds: float


def record_seat(record: Mapping[str, Any], seat: int) -> SeatResult:
    """What ``seat`` got in a game record (its `outcome_data`, ``moves`` and ``seconds``)."""
    outcome = record["outcome"]
    kind = outcome["kind"]
    if kind == "cooperative":
        won: bool | None = bool(outcome["won"])
    elif kind == "solo":
        won = None if outcome["won"] is None else bool(outcome["won"])
    else:
        won = seat in outcome["winners"]
    grade = (outcome["grade"] or "none") if kind in ("cooperative", "solo") else None
    return SeatResult(
        score=int(outcome["scores"][seat]),
        won=won,
        grade=grade,
        moves=int(record["moves"][seat]),
        seconds=float(record["seconds"][seat]),
    )


@dataclass(slots=True)
class Line:
    """The running counts of one bot (or one seat).

    ``games``, ``wins`` and ``decided`` count games, and ``grades`` the games that reached
    each grade; ``seats`` counts the seats held, and the scores are per seat.
    """

    label: str
    games: int = 0
    seats: int = 0
    wins: int = 0
    decided: int = 0
    score_sum: int = 0
    score_squares: int = 0
    scores: Counter[int] = field(default_factory=Counter)
    grades: Counter[str] = field(default_factory=Counter)
    grade_scores: Counter[str] = field(default_factory=Counter)
    grade_seats: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    seconds: float = 0.0

    def add_game(self, seats: Sequence[SeatResult]) -> None:
        """Count one game, in which this line held ``seats`` (one or more)."""
        self.games += 1
        self.seats += len(seats)
        decided = [seat.won for seat in seats if seat.won is not None]
        if decided:
            self.decided += 1
            self.wins += any(decided)
        grade = seats[0].grade  # every seat of a graded game reaches the same grade
        if grade is not None:
            self.grades[grade] += 1
            self.grade_scores[grade] += sum(seat.score for seat in seats)
            self.grade_seats[grade] += len(seats)
        for seat in seats:
            self.score_sum += seat.score
            self.score_squares += seat.score * seat.score
            self.scores[seat.score] += 1
            self.moves += seat.moves
            self.seconds += seat.seconds

    @property
    def score_mean(self) -> float:
        """The mean score per seat (0 before any game)."""
        return self.score_sum / self.seats if self.seats else 0.0

    @property
    def score_sd(self) -> float:
        """The sample standard deviation of the score (0 with fewer than two seats)."""
        n = self.seats
        if n < 2:
            return 0.0
        return math.sqrt(max(0, n * self.score_squares - self.score_sum**2) / (n * (n - 1)))

    @property
    def seconds_per_move(self) -> float | None:
        """Mean thinking time per move, or None when it made no move."""
        return self.seconds / self.moves if self.moves else None

    def data(self, *, timing: bool = True) -> dict[str, Any]:
        """JSON-ready summary of this line (``timing=False`` leaves out the clock's figures)."""
        rate = self.wins / self.decided if self.decided else None
        low, high = wilson(self.wins, self.decided) if self.decided else (None, None)
        out: dict[str, Any] = {
            "label": self.label,
            "games": self.games,
            "seats": self.seats,
            "wins": self.wins,
            "decided": self.decided,
            "win_rate": rate,
            "win_ci95": [low, high] if rate is not None else None,
            "score_mean": self.score_mean,
            "score_sd": self.score_sd,
            "scores": [[score, count] for score, count in sorted(self.scores.items())],
            "grades": dict(sorted(self.grades.items())),
            "moves": self.moves,
        }
        if timing:
            out["seconds_per_move"] = self.seconds_per_move
        return out


class Tally:
    """Counts per key (a bot's index, or a seat) over every game record it is given."""

    def __init__(self, labels: Iterable[str]) -> None:
        self.lines = [Line(label) for label in labels]
        self.games = 0
        self.kinds: Counter[str] = Counter()
        #: grade -> threshold, when the games name their grades' thresholds (cooperative)
        self.thresholds: dict[str, int] = {}

    def add(self, record: Mapping[str, Any], key_of_seat: Iterable[int]) -> None:
        """Count one game record; ``key_of_seat[s]`` is the line seat ``s`` counts for."""
        self.games += 1
        outcome = record["outcome"]
        self.kinds[outcome["kind"]] += 1
        if outcome.get("grades") and not self.thresholds:
            self.thresholds = dict(outcome["grades"])
        held: dict[int, list[SeatResult]] = {}
        for seat, key in enumerate(key_of_seat):
            held.setdefault(key, []).append(record_seat(record, seat))
        for key, seats in held.items():
            self.lines[key].add_game(seats)

    @property
    def kind(self) -> str | None:
        """The kind of result the games had (the most common one, ties by name), or None."""
        if not self.kinds:
            return None
        return min(self.kinds, key=lambda k: (-self.kinds[k], k))

    @property
    def shared_seats(self) -> bool:
        """True when some line held several seats of one game."""
        return any(line.seats > line.games for line in self.lines)

    @property
    def decided(self) -> bool:
        """True when the games can be won or lost (a win rate means something)."""
        return any(line.decided for line in self.lines)

    def grade_order(self) -> list[str]:
        """Every grade reached, best first, "none" last.

        Best is the higher threshold where the games name thresholds (cooperative medals),
        else the higher mean score of the seats that reached it (solo ranks), then the name.
        """
        seats: Counter[str] = Counter()
        scores: Counter[str] = Counter()
        for line in self.lines:
            seats.update(line.grade_seats)
            scores.update(line.grade_scores)
        known = sorted((g for g in seats if g in self.thresholds and g != "none"),
                       key=lambda g: (-self.thresholds[g], g))
        rest = sorted((g for g in seats if g not in self.thresholds and g != "none"),
                      key=lambda g: (-scores[g] / seats[g], g))
        return known + rest + (["none"] if "none" in seats else [])

    def win_meaning(self) -> str:
        """What a win is in these games, in plain words."""
        kind = self.kind
        if kind is None:
            return "no game finished"
        if kind == "solo" and not self.decided:
            return UNDECIDED_MEANING
        if self.shared_seats and kind in WIN_MEANING_PER_GAME:
            return WIN_MEANING_PER_GAME[kind]
        return WIN_MEANING.get(kind, "a seat among the outcome's winners")

    def data(self, *, timing: bool = True) -> dict[str, Any]:
        """JSON-ready summary: the games counted, the result kind, what a win is, each line."""
        return {
            "games": self.games,
            "kind": self.kind,
            "win": self.win_meaning(),
            "grades": self.grade_order(),
            "lines": [line.data(timing=timing) for line in self.lines],
        }
