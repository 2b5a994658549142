"""Every hook the Hedgerow host calls.  Each docstring is the contract.

The project name ``hedgerow`` is the marker name, the entry-point group and the hook
prefix.  A plugin is any module or object with functions marked ``@hookimpl`` and named
after a spec below; built-in games, variants and bots are plugins of exactly this kind
(see ``hedgerow.core.host.DEFAULT_PLUGINS``).  docs/plugins.md is the reader's guide.

Game-specific extension hooks (the points where a game's variants change its rules) are
not here: each game adds its own through `hedgerow_addhooks` (e.g. ``petals_winner``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from hedgerow.core.game import BotSpec, GameSpec, VariantSpec

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


@hookspec(firstresult=True)
def hedgerow_render_view(game: str, view: Any, seat: int, width: int) -> list[tuple[str, str]] | None:
    """Draw a seat's view of a game for the terminal.

    Called by the seat client each time the table screen is redrawn.  Return prompt_toolkit
    formatted-text fragments, a list of ``(style, text)`` pairs with ``"\\n"`` for new
    lines, at most ``width`` columns wide; or None when ``game`` is not yours.  The first
    non-None answer is used (firstresult).  A game plugin never imports the client.

    :param game: the game's name.
    :param view: the seat's view, as returned by ``GameDef.view``.
    :param seat: the seat the view belongs to.
    :param width: the columns available.
    :return: fragments, or None.
    """
