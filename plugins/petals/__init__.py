"""Petals, the first Hedgerow game, as a plugin (rules: docs/rules/petals.md).

This module is the plugin the host registers.  It:

* adds Petals' extension hooks (`hookspecs`: ``petals_final_scoring``, ``petals_winner``)
  through ``hedgerow_addhooks``;
* registers the game (`SPEC`: its rules, ``game.build``, and beside them what it offers its
  bots, ``bots.build``) through ``hedgerow_register_games``;
* implements its extension hooks with the standard rules, ``trylast``, so that a chosen
  variant's answer comes first (firstresult) and the standard rule is the fallback: the
  final scoring, the winner, and the score rule every screen shows (`scorerule`).

The rules themselves live in the sibling modules and import nothing but ``hedgerow.core``;
the bot support lives in `hedgerow.plugins.petals.bots`, which the rules never import.
The Harmony variant is the separate plugin ``hedgerow.plugins.petals.harmony``; the seat
client's UI object is registered by the separate plugin ``hedgerow.plugins.petals.ui_plugin``, the
way a third party would register one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

from hedgerow.core import GameSpec, Ranked, hookimpl
from hedgerow.core.game import on_first_use, rules_module
from hedgerow.plugins.petals import hookspecs

if TYPE_CHECKING:  # the rules load when a table first calls a hook (`rules_module`)
    from hedgerow.plugins.petals import ranking, scorerule, scoring
    from hedgerow.plugins.petals.scorerule import ScoreRule
    from hedgerow.plugins.petals.scoring import Points
else:
    ranking = rules_module(globals(), "ranking", "hedgerow.plugins.petals.ranking")
    scorerule = rules_module(globals(), "scorerule", "hedgerow.plugins.petals.scorerule")
    scoring = rules_module(globals(), "scoring", "hedgerow.plugins.petals.scoring")

SPEC = GameSpec(
    name="petals",
    title="Petals",
    # 2.0.0: the deal is a chance node (log entry #0); 2.1.0: at 3 players the two cards
    # set aside come from the shuffled deck (sealed at a sealed table), not from picks.
    version="2.1.0",
    min_players=2,  # setup.MIN_PLAYERS, setup.MAX_PLAYERS (a test keeps them equal)
    max_players=5,
    build=on_first_use("hedgerow.plugins.petals.game"),  # rules: when a table is built
    bots=on_first_use("hedgerow.plugins.petals.bots"),
    summary="Grow one shared garden of four-flowered cards; your score is the sum of your "
            "two weakest elements, so keep Fire, Water, Earth and Air in balance.",
    default_players=4,
)


@hookimpl
def hedgerow_addhooks(pluginmanager: pluggy.PluginManager) -> None:
    """Offer Petals' extension hooks to its variants."""
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hedgerow_register_games(register: Callable[[GameSpec], None]) -> None:
    """Register Petals."""
    register(SPEC)


@hookimpl(trylast=True)
def petals_final_scoring(
    trackers: tuple[Points, ...], remaining: tuple[tuple[int, ...], ...]
) -> tuple[Points, ...]:
    """Standard rule: each number on a card left in hand adds to its element."""
    out = []
    for points, hand in zip(trackers, remaining, strict=True):
        for ident in hand:
            points = scoring.add(points, scoring.direct_points(ident))
        out.append(points)
    return tuple(out)


@hookimpl(trylast=True)
def petals_winner(trackers: tuple[Points, ...]) -> Ranked:
    """Standard rule: the highest sum of the two lowest trackers among tracker winners."""
    return ranking.standard_outcome(trackers)



@hookimpl(trylast=True)
def petals_score_rule() -> ScoreRule:
    """Standard rule: the sum of the two lowest trackers, the highest wins."""
    return scorerule.STANDARD
