"""Who wins (spec §9, §10.3): totals, the tie-break chain, the `Ranked` and `Solo` results.

The pieces are public so that variants build their own results from the same parts
(the cooperative medal, the Garden Show's match):

* `game_totals`: each garden's points in one game (rounds, end of game, bonus);
* `tie_keys`: the §9 chain on a set of gardens (unique plant symbols, unique stone symbols,
  cards with an end-of-round ability);
* `explain`: plain words naming the tie-break that decided (the competition ranks and
  `grade`, the best medal a total reaches, come from `hedgerow.core.ranking`);
* `ranked_game`, `solo_result`, `standard_outcome`: the standard results.
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core import Outcome, Ranked, Solo
from hedgerow.core.outcome import Breakdown
from hedgerow.core.ranking import competition_ranks, decided, grade, winners
from hedgerow.plugins.flourish.scoring import tallies
from hedgerow.plugins.flourish.state import GameRecord, Result
from hedgerow.plugins.flourish.tally import EOR_CARDS, unique_plants, unique_stones

Key = tuple[int, ...]
#: What the standard key compares, in order.
CRITERIA = ("points", "unique plant symbols", "unique stone symbols",
            "cards with an end-of-round ability")
SOLO_GRADES = (("Bronze", 30), ("Silver", 40), ("Gold", 50))
POINT_COLUMNS = ("Round 1", "Round 2", "Round 3", "Round 4", "End of game")


def game_totals(record: GameRecord) -> tuple[int, ...]:
    """Each garden's points in one game: rounds 1-4, end of game, and its bonus (seats)."""
    bonus = record.bonus
    return tuple(sum(p) + (bonus[g] if g < len(bonus) else 0)
                 for g, p in enumerate(record.points))


def tie_keys(gardens: Sequence[tuple[int, ...]]) -> list[Key]:
    """The §9 tie-break values of each garden: unique plant symbols (Rosa Alba fills a
    missing colour), unique stone symbols, cards with an end-of-round ability."""
    return [(unique_plants(t), unique_stones(t), t[EOR_CARDS]) for t in tallies(gardens)]


def explain(keys: Sequence[Key], criteria: Sequence[str]) -> str:
    """Why the best keys won, naming the first criterion that separated them from the
    runner-up (``criteria[i]`` names key position ``i``)."""
    best = winners(competition_ranks(keys))
    others = sorted((s for s in range(len(keys)) if s not in best), key=lambda s: keys[s],
                    reverse=True)
    return decided(best, others[0] if others else None, keys, criteria)


def raised(grades: Sequence[tuple[str, int]], by: int) -> tuple[tuple[str, int], ...]:
    """Every threshold raised by ``by`` points."""
    return tuple((label, at + by) for label, at in grades)


def point_columns(record: GameRecord, seats: int) -> Breakdown:
    """The breakdown columns of one game: each round, end of game, and the bonus if any."""
    columns = [(label, tuple(record.points[s][i] for s in range(seats)))
               for i, label in enumerate(POINT_COLUMNS)]
    if any(record.bonus):
        columns.append(("Bonus", tuple(record.bonus[:seats])))
    return tuple(columns)


def ranked_game(record: GameRecord, seats: int) -> Ranked:
    """A competitive game's `Ranked` result: highest total, then the §9 chain."""
    totals = game_totals(record)[:seats]
    keys = [(total, *tie) for total, tie in zip(totals, tie_keys(record.gardens[:seats]),
                                                strict=True)]
    ranking = competition_ranks(keys)
    return Ranked(
        scores=totals,
        ranking=ranking,
        winners=winners(ranking),
        explanation=explain(keys, CRITERIA),
        breakdown=(*point_columns(record, seats), ("Total", totals),
                   *((CRITERIA[i], tuple(k[i] for k in keys)) for i in (1, 2, 3))),
    )


def solo_result(result: Result) -> Solo:
    """One seat against McGregor: your total minus his, and the medal it reaches."""
    record = result.games[-1]
    mine, his = game_totals(record)[:2]
    margin = mine - his
    grades = raised(SOLO_GRADES, result.medal_raise)
    medal = grade(margin, grades)
    thresholds = ", ".join(f"{label} {at}" for label, at in grades)
    return Solo(
        score=margin,
        grade=medal,
        won=bool(medal),
        opponent=his,
        explanation=(f"You scored {mine}, McGregor {his}: {margin:+d}, "
                     f"{medal or 'no medal'} ({thresholds})."),
        breakdown=(*((label, (record.points[0][i],)) for i, label in enumerate(POINT_COLUMNS)),
                   ("Total", (mine,)), ("McGregor", (his,))),
    )


def standard_outcome(result: Result) -> Outcome:
    """The standard result: `Solo` against McGregor with one seat, else `Ranked`."""
    if result.cfg.solo:
        return solo_result(result)
    return ranked_game(result.games[-1], result.cfg.players)
