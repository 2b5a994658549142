"""``BotSupport.score`` for Flourish: a seat's points if the game were scored now.

"Scored now" is the game ending as its gardens stand: the rounds already scored keep their
points, the cards of a round not scored yet score their end-of-round abilities as that
round's scoring would (`points_now`; cards chosen inside a step are not in a garden yet),
every card scores its end-of-game ability on the gardens as they are, and then the table's
own end of game runs on that: the variant's bonus (``flourish_game_end``: the Garden
Show's ribbons) and its result (``flourish_outcome``).  The seat's score is read from that
result as a bot should maximise it (`seat_score`): its total (the match's running total in
the Garden Show), the team's total in the cooperative game, and in solo your total minus
McGregor's.  A variant that changes scoring through those hooks changes ``score`` too.
Once the table is over the score is read from the real result, so it is exactly what the
final scoring gave.

The result depends only on the turn, the gardens, the points, the variant's data and the
match so far (never on hands or decks), so the answers are remembered by those: a search
asks the hooks once per set of gardens, and the many leaves that share them are a look-up.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core import Cooperative, Match, Outcome, Ranked, Solo
from hedgerow.plugins.flourish.scoring import end_points, round_points, tallies
from hedgerow.plugins.flourish.state import OVER, GameEnd, GameRecord, Result, State

#: ``game_end(players, game, gardens, extras)``: the table's ``flourish_game_end``.
GameEndHook = Callable[[int, int, tuple[tuple[int, ...], ...], tuple[object, ...]], GameEnd]
#: ``outcome_of(result)``: the table's ``flourish_outcome``; ``medal_raise(players)``.
OutcomeHook = Callable[[Result], Outcome]
RaiseHook = Callable[[int], int]
#: Answers remembered at most; the memory starts afresh beyond (the answers never change).
LIMIT = 1 << 13


def points_now(state: State) -> tuple[tuple[int, ...], ...]:
    """Every garden's points (rounds 1-4, end of game) if the game ended as its gardens
    stand: each round not scored yet scored for the cards played in it so far, and every
    end-of-game ability scored on the gardens as they are."""
    if state.turn >= OVER:
        return state.points
    gardens = state.gardens
    counts = tallies(gardens)
    scored = state.turn // 3  # rounds already scored (turn 9, the final round: three)
    played = max(len(g) for g in gardens)
    late = [(rnd, round_points(gardens, rnd, counts))
            for rnd in range(scored + 1, (played + 2) // 3 + 1)]
    out = []
    for g, value in enumerate(end_points(gardens, counts)):
        row = list(state.points[g])
        for rnd, points in late:
            row[rnd - 1] = points[g]
        row[4] = value
        out.append(tuple(row))
    return tuple(out)


def seat_score(outcome: Outcome, seat: int) -> float:
    """What ``seat`` gets from a result, as a number to maximise: its score when ranked (a
    match: its running total), the team's total when cooperative, the margin in solo."""
    if isinstance(outcome, Cooperative):
        return float(outcome.total)
    if isinstance(outcome, Solo):
        return float(outcome.score)
    if isinstance(outcome, Match):
        return float(outcome.final.scores[seat])
    assert isinstance(outcome, Ranked)
    return float(outcome.scores[seat])


class ScoreNow:
    """``score(state, seat)``: ``seat``'s points as the table's final scoring would count
    them now (see the module docstring), through the table's hooks."""

    __slots__ = ("_game_end", "_memo", "_outcome_of", "_raise", "_raises")

    def __init__(self, game_end: GameEndHook, outcome_of: OutcomeHook,
                 medal_raise: RaiseHook) -> None:
        self._game_end = game_end
        self._outcome_of = outcome_of
        self._raise = medal_raise
        self._raises: dict[int, int] = {}  # the medal raise by player count (never changes)
        self._memo: dict[object, tuple[float, ...]] = {}

    def forget(self) -> None:
        """Drop every remembered answer (for measuring the work an answer takes)."""
        self._memo.clear()

    def scores_now(self, state: State) -> tuple[float, ...]:
        """Every seat's score (`seat_score`) if the game were scored now."""
        key = (state.cfg, state.game, state.turn, state.gardens, state.points, state.extras,
               state.history)
        scores = self._memo.get(key)
        if scores is None:
            if len(self._memo) >= LIMIT:
                self._memo.clear()
            outcome = self.outcome_now(state)
            scores = tuple(seat_score(outcome, s) for s in range(state.cfg.players))
            self._memo[key] = scores
        return scores

    def outcome_now(self, state: State) -> Outcome:
        """The table's result if the game were scored now (asked of the hooks each time)."""
        cfg = state.cfg
        raise_ = self._raises.get(cfg.players)
        if raise_ is None:
            raise_ = self._raises[cfg.players] = self._raise(cfg.players)
        if state.turn >= OVER:  # scored for real: the record is in the history
            return self._outcome_of(Result(cfg, state.history, state.extras, raise_))
        seats = cfg.players
        answer = self._game_end(seats, state.game, state.gardens[:seats], state.extras)
        record = GameRecord(state.gardens, points_now(state), answer.bonus, answer.note)
        return self._outcome_of(Result(cfg, (*state.history, record), answer.extras, raise_))

    def __call__(self, state: State, seat: int) -> float:
        return self.scores_now(state)[seat]
