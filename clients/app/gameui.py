"""The seat client's calls into game plugins: drawing and words, through the host's hooks.

This is the only client module that calls hooks.  Every call is guarded: a plugin that
raises is logged to the client's log file and treated as if it had not answered, so a
drawing bug in a game degrades the screen instead of ending the session.  The hooks'
contracts are in `hedgerow.core.hookspecs`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from hedgerow.core.actions import Action
from hedgerow.core.host import Host

Fragments = list[tuple[str, str]]
T = TypeVar("T")
log = logging.getLogger("hedgerow.client")


class GameHooks:
    """The drawing hooks of one game, as the client calls them."""

    def __init__(self, host: Host, game: str) -> None:
        self.host = host
        self.game = game
        self._failed: set[str] = set()

    def _call(self, name: str, fn: Callable[[], T]) -> T | None:
        try:
            return fn()
        except Exception:
            if name not in self._failed:  # log each broken hook once, not at every redraw
                self._failed.add(name)
                log.exception("the %s hook of %s failed", name, self.game)
            return None

    def whole(self, view: Any, seat: int, width: int) -> Fragments | None:
        """The game's whole drawing of ``view`` (`hedgerow_render_view`)."""
        return self._call("hedgerow_render_view",
                          lambda: self.host.render(self.game, view, seat, width))

    def part(self, part: str, view: Any, seat: int, width: int,
             preview: Action | None) -> Fragments | None:
        """One part, ``"board"`` or ``"hand"`` (`hedgerow_render_part`)."""
        return self._call("hedgerow_render_part", lambda: self.host.render_part(
            self.game, part, view, seat, width, preview))

    def score_columns(self, view: Any) -> list[tuple[str, tuple[int, ...], str]]:
        """Running score columns (`hedgerow_score_columns`), or none."""
        found = self._call("hedgerow_score_columns",
                           lambda: self.host.score_columns(self.game, view))
        return found or []

    def preview(self, view: Any, seat: int, action: Action) -> str:
        """``action`` in plain words with what it would score (`hedgerow_preview_action`)."""
        text = self._call("hedgerow_preview_action",
                          lambda: self.host.preview_action(self.game, view, seat, action))
        return text or describe_plainly(action)

    def help(self, spec: Any) -> str | None:
        """How to play, for the help overlay (`hedgerow_help_text`), else the game's summary."""
        text = self._call("hedgerow_help_text", lambda: self.host.help_text(self.game))
        return text or getattr(spec, "summary", None) or None

    def prompt(self, view: Any, seat: int) -> str | None:
        """What the seat must decide now, when the game explains it (`hedgerow_turn_prompt`)."""
        return self._call("hedgerow_turn_prompt",
                          lambda: self.host.turn_prompt(self.game, view, seat))


def describe_plainly(action: Action) -> str:
    """An action in words without the game's help: ``place card 7, x 1, y 0``."""
    if not action.args:
        return action.kind
    return action.kind + " " + ", ".join(f"{k} {v}" for k, v in action.args)
