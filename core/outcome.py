"""What a finished game reports: one of four result kinds, each with the same reading surface.

Every game ends in exactly one of:

* `Ranked` — players compete: scores, a rank per seat (1 is best, ties share), the winners.
  Petals, FLOWERS with 2-4 players, Mandala, competitive Flourish.
* `Cooperative` — the seats win or lose together: a team total against thresholds, and the
  grade reached (Flourish's medal), if any.
* `Solo` — one seat plays alone: its score and a grade (FLOWERS' rank, Flourish's medal
  against McGregor); ``won`` is None where the game has no losing (FLOWERS only ranks you).
* `Match` — several games at one table (Flourish's Garden Show): each game's own result
  and the running totals after it, and the `Ranked` result of the match as a whole.

All four answer the same questions, so ``hedgerow simulate``, the results screen and the
JSON output read any of them without knowing which: ``kind``, ``scores`` (one number per
seat), ``winners`` (the seats that won; every seat on a cooperative win, none on a loss),
``explanation`` (plain words), ``breakdown`` (named per-seat columns) and `outcome_data`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

Kind = Literal["ranked", "cooperative", "solo", "match"]
#: Named per-seat columns for a results table, e.g. ``("Fire", (12, 10, 6))``.
Breakdown = tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class Ranked:
    """A competitive result.

    * ``scores``: one number per seat (the number the game ranks by; eliminated seats keep theirs).
    * ``ranking``: one rank per seat, 1 is best, tied seats share a rank.
    * ``winners``: the seats ranked 1 (several on a shared victory).
    * ``eliminated``: seats that could not win (Petals: won no element).
    * ``explanation``: plain words on why the winners won (tie-breaks named).
    * ``breakdown``: named per-seat columns for a results table.
    """

    kind: ClassVar[Kind] = "ranked"
    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    explanation: str
    eliminated: tuple[int, ...] = ()
    breakdown: Breakdown = ()


@dataclass(frozen=True, slots=True)
class Cooperative:
    """A team result: everyone wins or loses together.

    * ``scores``: each seat's own contribution to the team total.
    * ``total``: the team's score (usually ``sum(scores)``).
    * ``grade``: the best grade reached (``"Gold"``), or ``""`` when none was.
    * ``grades``: every grade with its threshold, lowest first, e.g.
      ``(("Bronze", 255), ("Silver", 285), ("Gold", 315))``: what the table aimed at.
    * ``won``: True when the team reached a grade (or the game's own goal).
    """

    kind: ClassVar[Kind] = "cooperative"
    scores: tuple[int, ...]
    total: int
    won: bool
    grade: str
    explanation: str
    grades: tuple[tuple[str, int], ...] = ()
    breakdown: Breakdown = ()

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat when the team won, else none."""
        return tuple(range(len(self.scores))) if self.won else ()


@dataclass(frozen=True, slots=True)
class Solo:
    """A one-seat result.

    * ``score``: the number the grade is read from (Flourish solo: your total minus McGregor's).
    * ``grade``: the label it earned (``"Master"``, ``"Bronze"``), or ``""`` for none.
    * ``won``: True or False where the game can be lost (Flourish solo: a medal wins), None
      where it only grades you (FLOWERS).
    * ``opponent``: the automaton's score, when there is one (McGregor), else None.
    * ``breakdown``: named one-value columns.
    """

    kind: ClassVar[Kind] = "solo"
    score: int
    grade: str
    explanation: str
    won: bool | None = None
    opponent: int | None = None
    breakdown: Breakdown = ()

    @property
    def scores(self) -> tuple[int, ...]:
        """The seat's score, as a one-seat tuple."""
        return (self.score,)

    @property
    def winners(self) -> tuple[int, ...]:
        """``(0,)`` on a win, ``()`` on a loss or where there is nothing to win."""
        return (0,) if self.won else ()


@dataclass(frozen=True, slots=True)
class Match:
    """Several games at one table, and the result of the whole.

    * ``games``: each game's own result, in the order played.
    * ``totals``: the running totals after each game, one tuple per seat count per game:
      ``totals[g][seat]``.
    * ``final``: the match result (the grand winner); its ``scores`` are the last totals.
    """

    kind: ClassVar[Kind] = "match"
    games: tuple[Ranked | Cooperative | Solo, ...]
    totals: tuple[tuple[int, ...], ...]
    final: Ranked

    @property
    def scores(self) -> tuple[int, ...]:
        """The final totals."""
        return self.final.scores

    @property
    def winners(self) -> tuple[int, ...]:
        """The match winners."""
        return self.final.winners

    @property
    def explanation(self) -> str:
        """Why the match winners won."""
        return self.final.explanation

    @property
    def breakdown(self) -> Breakdown:
        """One column per game (its points), then the match's own columns."""
        per_game = tuple((f"Game {g + 1}", game.scores) for g, game in enumerate(self.games))
        return per_game + self.final.breakdown


#: What ``GameDef.outcome`` returns for a finished game.
Outcome = Ranked | Cooperative | Solo | Match


def headline(outcome: Outcome, names: tuple[str, ...] | list[str]) -> str:
    """One line for a person: who won, or what the team or the solo player reached."""
    if isinstance(outcome, Cooperative):
        reached = f"{outcome.grade}" if outcome.grade else "no grade"
        return (f"The team {'wins' if outcome.won else 'loses'}: {outcome.total} points, "
                f"{reached}")
    if isinstance(outcome, Solo):
        grade = f" — {outcome.grade}" if outcome.grade else ""
        verdict = "" if outcome.won is None else (" (won)" if outcome.won else " (lost)")
        return f"{names[0] if names else 'You'}: {outcome.score}{grade}{verdict}"
    winners = outcome.winners
    who = ", ".join(names[w] if w < len(names) else f"seat {w}" for w in winners)
    if not winners:
        return "Nobody wins"
    verb = "wins" if len(winners) == 1 else "share the victory"
    return f"{who} {verb}" + (" the match" if isinstance(outcome, Match) else "")


def outcome_data(outcome: Outcome) -> dict[str, object]:
    """``outcome`` as plain JSON-ready data, with its ``kind``; the same keys in every run."""
    common: dict[str, object] = {
        "kind": outcome.kind,
        "scores": list(outcome.scores),
        "winners": list(outcome.winners),
        "explanation": outcome.explanation,
        "breakdown": {label: list(col) for label, col in outcome.breakdown},
    }
    if isinstance(outcome, Ranked):
        common.update(ranking=list(outcome.ranking), eliminated=list(outcome.eliminated))
    elif isinstance(outcome, Cooperative):
        common.update(total=outcome.total, won=outcome.won, grade=outcome.grade,
                      grades={label: at for label, at in outcome.grades})
    elif isinstance(outcome, Solo):
        common.update(score=outcome.score, grade=outcome.grade, won=outcome.won,
                      opponent=outcome.opponent)
    else:
        common.update(games=[outcome_data(g) for g in outcome.games],
                      totals=[list(t) for t in outcome.totals],
                      final=outcome_data(outcome.final))
    return common
