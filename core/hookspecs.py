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
def hedgerow_render_view(game: str, view: Any, seat: int, width: int,
                         ) -> list[tuple[str, str]] | None:
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


# -- the seat client's hooks ------------------------------------------------------------------
# The seat client (``hedgerow.clients.app``) draws a table screen in parts: the board, the
# seat's hand, a score table, a line saying what the seat must decide and a preview of the
# action being composed.  A game that implements none of these is still playable: the
# client then shows `hedgerow_render_view` whole and picks actions from menus.  The
# conventions (target tags, argument names) are in docs/client.md.


@hookspec(firstresult=True)
def hedgerow_render_part(game: str, part: str, view: Any, seat: int, width: int,
                         preview: Any) -> list[tuple[str, str]] | None:
    """Draw one part of a seat's view for the seat client's table screen.

    Called by the seat client each time the table screen is redrawn, once per part it
    shows.  ``part`` is ``"board"`` (the shared play area, e.g. Petals' garden) or
    ``"hand"`` (the seat's own cards).  Return fragments as for `hedgerow_render_view`,
    or None for a part (or a game) you do not draw.  The first non-None answer is used.

    Target tags: every fragment that shows something an action argument can point at puts
    a tag ``[target:NAME=VALUE,...]`` in its style (square-bracket words are ignored by
    prompt_toolkit styles), e.g. ``"fg:ansired [target:x=1,y=0]"`` for a board cell and
    ``"[target:card=7]"`` for a hand card.  Tag every fragment of a target (all its lines),
    so the client can highlight the legal targets and the cursor and route mouse clicks.
    In the hand, the n-th card in reading order is the one the key ``n`` picks; say so
    by labelling it ``n``.

    :param game: the game's name.
    :param part: ``"board"`` or ``"hand"``.
    :param view: the seat's view, as returned by ``GameDef.view``.
    :param seat: the seat the view belongs to.
    :param width: the columns available (the client scrolls a board that is wider).
    :param preview: an action from the seat's legal actions that the seat is composing, or
        None: draw the part as it would look once that action is applied (a "ghost" card
        where it would go, a moved card at its new cell); tag what it covers as before.
    :return: fragments, or None.
    """


@hookspec(firstresult=True)
def hedgerow_score_columns(game: str, view: Any) -> list[tuple[str, tuple[int, ...], str]] | None:
    """Every seat's running score, for the players table of the seat client.

    Called by the seat client each time the table screen is redrawn.  Columns have the
    shape of `Outcome.breakdown` plus a style: ``(label, one value per seat, style)``, e.g.
    ``("Fire", (3, 0), "fg:ansired")``; keep labels short (the client may cut them to a
    few letters).  The first non-None answer is used; with none the table has no scores.

    :param game: the game's name.
    :param view: a seat's view, as returned by ``GameDef.view``.
    :return: the columns, or None when ``game`` is not yours.
    """


@hookspec(firstresult=True)
def hedgerow_preview_action(game: str, view: Any, seat: int, action: Any) -> str | None:
    """What an action would do, in plain words, before the seat confirms it.

    Called by the seat client for the action the seat is composing (and for each entry of
    a menu of actions) — always one of the seat's current legal actions.  Say what it would
    score or trigger, e.g. ``"play #07 at (1, 0): Water +7, Fire +1"``; one line.  Pure: it
    must not change anything.  The first non-None answer is used; with none the client
    shows the action's kind and arguments.

    :param game: the game's name.
    :param view: the seat's view, as returned by ``GameDef.view``.
    :param seat: the seat the view belongs to.
    :param action: a `hedgerow.core.Action` among the seat's legal actions.
    :return: one line of text, or None.
    """


@hookspec(firstresult=True)
def hedgerow_turn_prompt(game: str, view: Any, seat: int) -> str | None:
    """One line telling the seat what it must decide now, when that needs explaining.

    Called by the seat client each time the table screen is redrawn while the seat has
    legal actions.  Use it for decisions a newcomer would not guess, e.g. ``"Different
    symbols met: score the card you played, or move another card and score it instead."``.
    Return None when the usual prompt (pick, aim, confirm) says enough.  The first
    non-None answer is used.

    :param game: the game's name.
    :param view: the seat's view, as returned by ``GameDef.view``.
    :param seat: the seat the view belongs to.
    :return: one line of text, or None.
    """


@hookspec(firstresult=True)
def hedgerow_help_text(game: str) -> str | None:
    """How to play, in a few plain sentences, for the seat client's help overlay.

    Called by the seat client when the player opens the help (``?``).  Say what a turn is,
    how points are scored and how the game is won, in at most about 400 characters (the
    overlay is 70 columns wide at an 80-column terminal).  The first non-None answer is
    used; with none the client shows the game's ``GameSpec.summary``.

    :param game: the game's name.
    :return: the text, or None when ``game`` is not yours.
    """
