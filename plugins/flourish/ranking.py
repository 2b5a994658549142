"""Who wins (spec §9, §10.3): totals, the tie-break chain, the `Ranked` and `Solo` results.

The pieces are public so that variants build their own results from the same parts
(the cooperative medal, the Garden Show's match):

* `game_totals`: each garden's points in one game (rounds, end of game, bonus);
* `tie_keys`: the §9 chain on a set of gardens (unique plant symbols, unique stone symbols,
  cards with an end-of-round ability);
* `rank` and `explain`: competition ranks by a key (higher is better) and plain words
  naming the tie-break that decided;
* `grade`: the best medal a total reaches;
* `ranked_game`, `solo_result`, `standard_outcome`: the standard results.
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core import Outcome, Ranked, Solo
from hedgerow.core.outcome import Breakdown
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


def rank(keys: Sequence[Key]) -> tuple[int, ...]:
    """Competition ranks, 1 best (higher keys first; equal keys share a rank)."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def _seats(seats: Sequence[int]) -> str:
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return "seats " + ", ".join(names[:-1]) + " and " + names[-1]


def explain(keys: Sequence[Key], criteria: Sequence[str]) -> str:
    """Why the best keys won, naming the first criterion that separated them from the
    runner-up (``criteria[i]`` names key position ``i``)."""
    ranking = rank(keys)
    winners = [s for s, r in enumerate(ranking) if r == 1]
    w = winners[0]
    head = f"{keys[w][0]} {criteria[0]}"
    if len(winners) > 1:
        return (f"{_seats(winners).capitalize()} share the victory: level on {head} and "
                "every tie-break.")
    others = sorted((s for s in range(len(keys)) if s != w), key=lambda s: keys[s],
                    reverse=True)
    if not others:
        return f"Seat {w} wins with {head}."
    runner = others[0]
    level = next(i for i in range(len(keys[w])) if keys[w][i] != keys[runner][i])
    if level == 0:
        return f"Seat {w} wins with {head}, against {keys[runner][0]} for seat {runner}."
    tied = [s for s in range(len(keys)) if keys[s][0] == keys[w][0]]
    return (f"{_seats(tied).capitalize()} are level on {head}; seat {w} wins on "
            f"{criteria[level]}: {keys[w][level]} against {keys[runner][level]} for "
            f"seat {runner}.")


def grade(total: int, grades: Sequence[tuple[str, int]]) -> str:
    """The best grade whose threshold ``total`` reaches (grades lowest first), or ``""``."""
    reached = [label for label, at in grades if total >= at]
    return reached[-1] if reached else ""


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
    ranking = rank(keys)
    return Ranked(
        scores=totals,
        ranking=ranking,
        winners=tuple(s for s, r in enumerate(ranking) if r == 1),
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
