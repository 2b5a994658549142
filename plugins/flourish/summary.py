"""Scores as a seat client shows them, read from a `View` (pure helpers for a UI).

* `score_columns`: named per-garden columns — each round, end of game, this game's total,
  and in a match the bonuses so far and the running total;
* `garden_rows`: a garden as rows by round, each card with its end-of-round and
  end-of-game points so far (``scoring.card_points``);
* `garden_names`: "seat 0" ... and "McGregor" in solo.
"""

from __future__ import annotations

from hedgerow.plugins.flourish.ranking import POINT_COLUMNS, game_totals
from hedgerow.plugins.flourish.scoring import CARDS_PER_ROUND, card_points
from hedgerow.plugins.flourish.state import OVER, View

Column = tuple[str, tuple[int, ...]]


def garden_names(view: View) -> tuple[str, ...]:
    """A name per garden: the seats, then McGregor in solo."""
    names = tuple(f"seat {s}" for s in range(view.players))
    return (*names, "McGregor") if view.solo else names


def score_columns(view: View) -> tuple[Column, ...]:
    """Per-garden score columns: rounds 1-4, end of game, game total; in a match also the
    bonuses won in earlier games and the running total of the match."""
    points = view.points
    columns: list[Column] = [(label, tuple(row[i] for row in points))
                             for i, label in enumerate(POINT_COLUMNS)]
    game = tuple(sum(row) for row in points)
    columns.append(("Game", game))
    if view.games > 1:
        done = view.history[:view.game]  # finished games before this one
        earlier = [game_totals(r) for r in done]
        bonus = tuple(sum(r.bonus[g] if g < len(r.bonus) else 0 for r in done)
                      for g in range(len(points)))
        match = tuple(game[g] + sum(t[g] for t in earlier) for g in range(len(points)))
        if view.turn >= OVER and len(view.history) > view.game:  # this game's bonus is in
            last = view.history[view.game]
            match = tuple(m + (last.bonus[g] if g < len(last.bonus) else 0)
                          for g, m in enumerate(match))
            bonus = tuple(b + (last.bonus[g] if g < len(last.bonus) else 0)
                          for g, b in enumerate(bonus))
        columns += [("Bonus", bonus), ("Match", match)]
    return tuple(columns)


def garden_rows(view: View, garden: int,
                ) -> tuple[tuple[tuple[int, int | None, int | None], ...], ...]:
    """``garden`` as rows by round: (card, end-of-round points, end-of-game points) for
    each card; None where the card has no such ability or its round is not scored yet."""
    cards = view.gardens[garden]
    rows = []
    for start in range(0, len(cards), CARDS_PER_ROUND):
        rows.append(tuple((cards[i], *card_points(view.gardens, garden, i))
                          for i in range(start, min(start + CARDS_PER_ROUND, len(cards)))))
    return tuple(rows)
