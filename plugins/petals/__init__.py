"""Petals, the first Hedgerow game, as a plugin (rules: docs/rules/petals.md).

This module is the plugin the host registers.  It:

* adds Petals' extension hooks (`hookspecs`: ``petals_final_scoring``, ``petals_winner``)
  through ``hedgerow_addhooks``;
* registers the game (``game.SPEC``) through ``hedgerow_register_games``;
* implements both extension hooks with the standard rules, ``trylast``, so that a chosen
  variant's answer comes first (firstresult) and the standard rule is the fallback;
* draws a seat's view for the terminal (``hedgerow_render_view``).

The rules themselves live in the sibling modules and import nothing but ``hedgerow.core``.
The Harmony variant is the separate plugin ``hedgerow.plugins.petals.harmony``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

from hedgerow.core import GameSpec, Ranked, hookimpl
from hedgerow.plugins.petals import hookspecs
from hedgerow.plugins.petals.game import SPEC
from hedgerow.plugins.petals.ranking import standard_outcome
from hedgerow.plugins.petals.render import render_view
from hedgerow.plugins.petals.scoring import Points, add, direct_points


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
            points = add(points, direct_points(ident))
        out.append(points)
    return tuple(out)


@hookimpl(trylast=True)
def petals_winner(trackers: tuple[Points, ...]) -> Ranked:
    """Standard rule: the highest sum of the two lowest trackers among tracker winners."""
    return standard_outcome(trackers)


@hookimpl
def hedgerow_render_view(game: str, view: Any, seat: int, width: int,
                         ) -> list[tuple[str, str]] | None:
    """Draw a Petals view as formatted-text fragments; None for other games."""
    if game != "petals":
        return None
    return render_view(view, seat, width)
