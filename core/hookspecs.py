"""Every hook the Hedgerow host calls.  Each docstring is the contract.

The project name ``hedgerow`` is the marker name, the entry-point group and the hook
prefix.  A plugin is any module or object with functions marked ``@hookimpl`` and named
after a spec below; built-in games, variants and bots are plugins of exactly this kind
(see ``hedgerow.core.pluginhost.DEFAULT_PLUGINS``).  docs/plugins.md is the reader's guide.

Game-specific extension hooks (the points where a game's variants change its rules) are
not here: each game adds its own through `hedgerow_addhooks` (e.g. ``petals_winner``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from hedgerow.core.game import BotSpec, GameSpec, VariantSpec
    from hedgerow.core.ruleset import Ruleset
    from hedgerow.core.ui import GameUI

PROJECT = "hedgerow"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(historic=True)
def hedgerow_addhooks(pluginmanager: pluggy.PluginManager) -> None:
    """Add hookspecs of your own, e.g. a game's extension hooks for its variants.

    Called once for every plugin, when it is registered (historic: plugins registered
    later are called too).  Call ``pluginmanager.add_hookspecs(module_or_class)``.

    :param pluginmanager: the host's plugin manager.
    :return: nothing.
    """


@hookspec
def hedgerow_register_games(register: Callable[[GameSpec], None]) -> None:
    """Register the games this plugin provides.

    Called once by the host after all plugins are loaded.  Call ``register(GameSpec(...))``
    for each game; a second game with a name already taken is refused with an error.

    :param register: callback taking a `hedgerow.core.game.GameSpec`.
    :return: nothing.
    """


@hookspec
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register the variants this plugin provides for existing games.

    Called once by the host after all plugins are loaded and games are registered.  Call
    ``register(VariantSpec(game=..., name=..., impl=...))``; ``impl`` holds the variant's
    implementations of its game's extension hooks and runs only at tables that chose it.

    :param register: callback taking a `hedgerow.core.game.VariantSpec`.
    :return: nothing.
    """


@hookspec
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the bot strategies this plugin provides.

    Called once by the host after all plugins are loaded.  Call ``register(BotSpec(...))``.
    A bot with ``games=()`` must play any game through the `GameDef` alone.

    :param register: callback taking a `hedgerow.core.game.BotSpec`.
    :return: nothing.
    """


# -- the seat client's hook -------------------------------------------------------------------
# The seat client (``hedgerow.clients.app``) asks each game for one UI object,
# `hedgerow.core.ui.GameUI`: the parts it draws, the roles of what a key or a click selects,
# how each action kind is composed, and its words and scores.  A game that registers none is
# still playable: the client shows its view as plain text and offers menus.  The reference
# for game authors is docs/client.md.


@hookspec(firstresult=True)
def hedgerow_game_ui(game: str, ruleset: Ruleset | None) -> GameUI | None:
    """The seat client's UI object for ``game``, or None when ``game`` is not yours.

    Called by the seat client (``hedgerow play``, ``join``, ``host``) through
    `hedgerow.core.pluginhost.PluginHost.game_ui`, once each time it opens a table screen,
    before the first redraw; the object is then used for the whole game.  Return an instance of
    `hedgerow.core.ui.GameUI` (usually of a subclass): its ``parts`` and ``draw`` say what
    is drawn where, the `hedgerow.core.ui.Target` objects in its drawing and the ``forms``
    of each action kind say what a key or a click selects, and ``score_columns``,
    ``preview``, ``prompt`` and ``help`` give the words.  The object must not import the
    client, and its methods must not change the view.  The first non-None answer is used
    (firstresult), so a plugin can override a game's UI with ``tryfirst``.

    :param game: the game's name (``GameSpec.name``).
    :param ruleset: the rules of the table the screen shows (`hedgerow.core.ruleset.Ruleset`:
        the chosen variants, and ``ruleset.ext``, the relay to the game's extension hooks
        with only those variants active, so that a preview scores as the table does), or
        None when no table is open (a tool that inspects the UI alone).
    :return: a `hedgerow.core.ui.GameUI`, or None.
    """
