"""Flourish, simultaneous play-and-pass for 1 to 7 players, as a plugin (rules:
docs/rules/flourish.md).

This module is the plugin the host registers.  It:

* adds Flourish's extension hooks (`hookspecs`) through ``hedgerow_addhooks``;
* registers the game (`SPEC`: its rules, ``game.build``, and beside them what it offers its
  bots, ``bots.build``) through ``hedgerow_register_games``;
* implements the standard rule of each extension hook, ``trylast``, so that a chosen
  variant's answer comes first and the standard rule is the fallback;
* answers the seat client's ``hedgerow_game_ui`` with a `FlourishUI` for the table
  (``hedgerow.plugins.flourish.ui``).

The rules live in the sibling modules and import nothing but ``hedgerow.core``; the bot
support lives in `hedgerow.plugins.flourish.bots`, which the rules never import.  The two-
player rules and the solo game against McGregor are part of the game (by player count).
The variants are separate plugins: ``cooperative``, ``garden_show`` and ``compost``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

from hedgerow.core import GameSpec, Outcome, hookimpl
from hedgerow.core.game import on_first_use, rules_module
from hedgerow.plugins.flourish import hookspecs

if TYPE_CHECKING:  # `hedgerow games` loads no rules and no UI code (`rules_module`)
    from hedgerow.core.ruleset import Ruleset
    from hedgerow.core.ui import GameUI
    from hedgerow.plugins.flourish import ranking, state
    from hedgerow.plugins.flourish.state import GameEnd, Result
else:
    ranking = rules_module(globals(), "ranking", "hedgerow.plugins.flourish.ranking")
    state = rules_module(globals(), "state", "hedgerow.plugins.flourish.state")

SPEC = GameSpec(
    name="flourish",  # game.NAME
    title="Flourish",
    version="1.0.0",
    min_players=1,  # setup.MIN_PLAYERS, setup.MAX_PLAYERS (a test keeps them equal)
    max_players=7,
    build=on_first_use("hedgerow.plugins.flourish.game"),  # rules: when a table is built
    bots=on_first_use("hedgerow.plugins.flourish.bots"),
    summary="Everyone at once: plant one card, pass one to each neighbour, and grow a garden "
            "of twelve whose symbols score round by round and at the end; alone, against "
            "McGregor.",
    default_players=4,
)


@hookimpl
def hedgerow_addhooks(pluginmanager: pluggy.PluginManager) -> None:
    """Offer Flourish's extension hooks to its variants."""
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hedgerow_register_games(register: Callable[[GameSpec], None]) -> None:
    """Register Flourish."""
    register(SPEC)


@hookimpl
def hedgerow_game_ui(game: str, ruleset: Ruleset | None) -> GameUI | None:
    """Flourish's UI object for a table with ``ruleset``; None for other games."""
    if game != SPEC.name:
        return None
    from hedgerow.plugins.flourish.ui import ui_for  # only at a table

    return ui_for(ruleset)


@hookimpl(trylast=True)
def flourish_compost(players: int) -> bool:
    """Standard rule: no compost discards."""
    return False


@hookimpl(trylast=True)
def flourish_games(players: int) -> int:
    """Standard rule: one game."""
    return 1


@hookimpl(trylast=True)
def flourish_extra_resolve(players: int, extras: tuple[object, ...],
                           outcome: tuple[object, ...]) -> tuple[object, ...]:
    """Standard rule: no variant data to change."""
    return extras


@hookimpl(trylast=True)
def flourish_game_end(players: int, game: int, gardens: tuple[tuple[int, ...], ...],
                      extras: tuple[object, ...]) -> GameEnd:
    """Standard rule: no bonus."""
    return state.GameEnd((0,) * players, extras)


@hookimpl(trylast=True)
def flourish_medal_raise(players: int) -> int:
    """Standard rule: the medal thresholds as printed."""
    return 0


@hookimpl(trylast=True)
def flourish_outcome(result: Result) -> Outcome:
    """Standard rule: `Solo` against McGregor alone, else `Ranked` with the tie-breaks."""
    return ranking.standard_outcome(result)
