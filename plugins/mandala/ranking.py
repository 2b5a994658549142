"""Who wins Mandala (spec §11): scores, tie-breaks, the end conditions, the Ranked result.

The pieces are public so that variants rank by their own key and still share the
plain-words explanation (the competition ranks come from `hedgerow.core.ranking`):

* `standard_end`: the standard end conditions (a third complete flower, all mandalas
  closed, a full round of passes), the default of ``mandala_game_end``;
* `standard_key`: score, then complete flowers, then tiles held (higher is better);
* `outcome_for` / `standard_outcome`: the `Ranked` result with a breakdown (points from
  complete flowers and from single halves, flowers, tiles) and an explanation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hedgerow.core import Ranked
from hedgerow.core.ranking import competition_ranks, decided, seat_names, winners
from hedgerow.plugins.mandala.scoring import (
    complete_flowers,
    flower_points,
    pair_up,
    points,
    single_points,
)

Key = tuple[int, ...]
#: ``rank(tiles, ended) -> Ranked``: a table's final scoring (its ``mandala_winner``).
Rank = Callable[[tuple[tuple[int, ...], ...], str], Ranked]
FLOWERS_TO_END = 3
STANDARD_CRITERIA = ("points", "complete flowers", "tiles held")
STANDARD_RULE = "The most points win."


def standard_end(tiles: tuple[tuple[int, ...], ...], open_mandalas: int, passes: int,
                 players: int) -> str:
    """Spec §10: why the game ends now, or ``""`` while it goes on."""
    done = [s for s, held in enumerate(tiles) if complete_flowers(held) >= FLOWERS_TO_END]
    if done:
        verb = "holds" if len(done) == 1 else "hold"
        return f"{seat_names(done)} {verb} {FLOWERS_TO_END} complete flowers"
    if open_mandalas == 0:
        return "all three mandalas are closed"
    if passes >= players:
        return "every player passed in turn, so nobody can play any more"
    return ""


def standard_key(tiles: Sequence[int]) -> Key:
    """Points, complete flowers, tiles held (higher is better)."""
    return (points(tiles), complete_flowers(tiles), len(tiles))


def _explain(ended: str, ranking: Sequence[int], keys: Sequence[Key],
             criteria: Sequence[str], rule: str) -> str:
    parts = [f"The game ended: {ended}." if ended else "The game ended.", rule]
    seats = range(len(keys))
    best = winners(ranking)
    others = [s for s in seats if s not in best]
    runner = min(others, key=lambda s: (ranking[s], s)) if others else None
    parts.append(decided(best, runner, keys, criteria))
    return " ".join(parts)


def breakdown(tiles: Sequence[Sequence[int]]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Per-seat columns: points from complete flowers and from single halves, complete
    flowers, tiles held."""
    gardens = [pair_up(t) for t in tiles]
    return (
        ("Flower points", tuple(sum(flower_points(a, b) for a, b in g.flowers)
                                for g in gardens)),
        ("Single points", tuple(sum(single_points(t) for t in g.singles) for g in gardens)),
        ("Complete flowers", tuple(len(g.flowers) for g in gardens)),
        ("Tiles", tuple(len(t) for t in tiles)),
    )


def outcome_for(tiles: Sequence[Sequence[int]], scores: Sequence[int], keys: Sequence[Key],
                ended: str, criteria: Sequence[str], rule: str) -> Ranked:
    """The `Ranked` result ranked by ``keys`` (higher is better); ``criteria`` names each
    key position in a few words and ``rule`` says in one sentence how the ranking works."""
    ranking = competition_ranks(keys)
    return Ranked(
        scores=tuple(scores),
        ranking=ranking,
        winners=winners(ranking),
        explanation=_explain(ended, ranking, keys, criteria, rule),
        breakdown=breakdown(tiles),
    )


def standard_outcome(tiles: Sequence[Sequence[int]], ended: str) -> Ranked:
    """Spec §11: the most points win; then the most complete flowers; then the most tiles."""
    keys = [standard_key(t) for t in tiles]
    return outcome_for(tiles, [k[0] for k in keys], keys, ended, STANDARD_CRITERIA,
                       STANDARD_RULE)
