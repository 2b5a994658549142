"""Flowers: A Mandala Game, as a plugin (rules: docs/rules/mandala.md).

This module is the plugin the host registers.  It:

* adds Mandala's extension hooks (`hookspecs`: ``mandala_draw_rule``, ``mandala_game_end``,
  ``mandala_winner``) through ``hedgerow_addhooks``;
* registers the game (`SPEC`: its rules, ``game.build``, and beside them what it offers its
  bots, ``bots.build``) through ``hedgerow_register_games``;
* implements the three extension hooks with the standard rules, ``trylast``, so that a
  chosen variant's answer comes first (firstresult) and the standard rule is the fallback.

The rules live in the sibling modules and import nothing but ``hedgerow.core``; the bot
support lives in `hedgerow.plugins.mandala.bots`, which the rules never import.  The
published "draw up to 4" rule is the separate variant plugin
``hedgerow.plugins.mandala.drawfour``.  The plugin also answers the seat client's
``hedgerow_game_ui`` with a `MandalaUI` built for the table (``hedgerow.plugins.mandala.ui``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

from hedgerow.core import GameSpec, Ranked, hookimpl
from hedgerow.core.game import on_first_use, rules_module
from hedgerow.plugins.mandala import hookspecs
from hedgerow.plugins.mandala.drawing import STANDARD, DrawRule

if TYPE_CHECKING:  # `hedgerow games` loads no rules and no UI code (`rules_module`)
    from hedgerow.core.ruleset import Ruleset
    from hedgerow.core.ui import GameUI
    from hedgerow.plugins.mandala import ranking
else:
    ranking = rules_module(globals(), "ranking", "hedgerow.plugins.mandala.ranking")

SPEC = GameSpec(
    name="mandala",
    title="Flowers: A Mandala Game",
    # 1.1.0: face-down colours are public (spec §5, §12.3, §14: views show them; what a
    # face-down play takes from a hand's known cards is its colour only), and the state
    # keeps the pile a reshuffle made the deck of, and each seat's draws from it since.
    version="1.1.0",
    min_players=2,  # setup.MIN_PLAYERS, setup.MAX_PLAYERS (a test keeps them equal)
    max_players=4,
    build=on_first_use("hedgerow.plugins.mandala.game"),  # rules: when a table is built
    bots=on_first_use("hedgerow.plugins.mandala.bots"),
    summary="Play cards of one colour onto three shared mandalas; hold the most cards when "
            "all six colours show to claim a half-flower tile, and pair halves into "
            "complete flowers.",
    default_players=3,
)


@hookimpl
def hedgerow_addhooks(pluginmanager: pluggy.PluginManager) -> None:
    """Offer Mandala's extension hooks to its variants."""
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hedgerow_register_games(register: Callable[[GameSpec], None]) -> None:
    """Register Mandala."""
    register(SPEC)


@hookimpl
def hedgerow_game_ui(game: str, ruleset: Ruleset | None) -> GameUI | None:
    """Mandala's UI object for a table with ``ruleset``; None for other games."""
    if game != SPEC.name:
        return None
    from hedgerow.plugins.mandala.ui import ui_for  # only at a table

    return ui_for(ruleset)


@hookimpl(trylast=True)
def mandala_draw_rule() -> DrawRule:
    """Standard rule: draw 2 after a single card, none after several, hand limit 8."""
    return STANDARD


@hookimpl(trylast=True)
def mandala_game_end(tiles: tuple[tuple[int, ...], ...], open_mandalas: int, passes: int,
                     players: int) -> str:
    """Standard rule: 3 complete flowers, all mandalas closed, or a full round of passes."""
    return ranking.standard_end(tiles, open_mandalas, passes, players)


@hookimpl(trylast=True)
def mandala_winner(tiles: tuple[tuple[int, ...], ...], ended: str) -> Ranked:
    """Standard rule: most points, then most complete flowers, then most tiles."""
    return ranking.standard_outcome(tiles, ended)
