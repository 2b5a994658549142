"""FLOWERS, the personal-garden card game, as a plugin (rules: docs/rules/flowers.md).

This module is the plugin the host registers.  It:

* adds FLOWERS' extension hooks (`hookspecs`: ``flowers_setup``, ``flowers_coverable``,
  ``flowers_colour_points``) through ``hedgerow_addhooks``;
* registers the game (`SPEC`: its rules, ``game.build``, and beside them what it offers its
  bots, ``bots.build``; it has a solo leaderboard) through ``hedgerow_register_games``;
* answers ``hedgerow_game_ui`` with the seat client's UI object (`ui.flowers_ui`, bound
  to the table's rules);
* implements the three extension hooks with the standard rules, ``trylast``, so that a
  chosen variant's answer comes first (firstresult) and the standard rule is the fallback.

The rules themselves live in the sibling modules and import nothing but ``hedgerow.core``;
the bot support lives in `hedgerow.plugins.flowers.bots`, which the rules never import.
The Summer variant is the separate plugin ``hedgerow.plugins.flowers.summer``; the solo
game (1 player) is part of the game, not a variant.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

from hedgerow.core import GameSpec, hookimpl
from hedgerow.core.game import on_first_use, rules_module
from hedgerow.plugins.flowers import hookspecs

if TYPE_CHECKING:  # `hedgerow games` loads no rules and no UI code (`rules_module`)
    from hedgerow.core.ruleset import Ruleset
    from hedgerow.core.ui import GameUI
    from hedgerow.plugins.flowers import scoring, setup
    from hedgerow.plugins.flowers.scoring import ColourGroup, Visible
    from hedgerow.plugins.flowers.setup import Layout
else:
    scoring = rules_module(globals(), "scoring", "hedgerow.plugins.flowers.scoring")
    setup = rules_module(globals(), "setup", "hedgerow.plugins.flowers.setup")

SPEC = GameSpec(
    name="flowers",
    title="FLOWERS",
    version="1.0.0",
    min_players=1,  # setup.MIN_PLAYERS, setup.MAX_PLAYERS (a test keeps them equal)
    max_players=4,
    build=on_first_use("hedgerow.plugins.flowers.game"),  # rules: when a table is built
    bots=on_first_use("hedgerow.plugins.flowers.bots"),
    summary="Take a card from a stack and plant it in your own garden, next to a card or on "
            "top of one; at the end, number groups of the wrong size are removed and colour "
            "groups of five or more score. Alone, earn a rank.",
    default_players=2,
    leaderboard=True,
    # A solo garden holds at most 41 cards (the start card and one a turn; the 40-card
    # face-down stack ends the game), each removed at -1: no solo game scores below -41.
    leaderboard_floor=-41,
)


@hookimpl
def hedgerow_addhooks(pluginmanager: pluggy.PluginManager) -> None:
    """Offer FLOWERS' extension hooks to its variants."""
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hedgerow_register_games(register: Callable[[GameSpec], None]) -> None:
    """Register FLOWERS."""
    register(SPEC)


@hookimpl
def hedgerow_game_ui(game: str, ruleset: Ruleset | None) -> GameUI | None:
    """FLOWERS' face in the seat client, scoring as the table does; None for other games."""
    if game != SPEC.name:
        return None
    from hedgerow.plugins.flowers.ui import flowers_ui  # only at a table

    return flowers_ui(ruleset)


@hookimpl(trylast=True)
def flowers_setup(players: int) -> Layout:
    """Standard rule: every garden starts with a card from the deck; stacks of rules §3."""
    return setup.standard_layout(players)


@hookimpl(trylast=True)
def flowers_coverable(card: int) -> bool:
    """Standard rule: any card may be covered."""
    return True


@hookimpl(trylast=True)
def flowers_colour_points(groups: tuple[ColourGroup, ...], visible: Visible) -> tuple[int, ...]:
    """Standard rule: a colour group of 5 cards or more scores 1 a card."""
    return scoring.standard_colour_points(groups, visible)
