"""The seat client's calls into a game's `GameUI` object, each one guarded.

`ClientUI` wraps the UI object the game registered (``hedgerow_game_ui``), or the base
`GameUI` for a game that registered none (its view as plain text, menus for every
argument).  Every call is guarded: a method that raises is logged to the client's log file
(once per method) and treated as if it had no answer, so a drawing bug in a game degrades
the screen instead of ending the session.  It also checks each new set of legal actions
against the UI object's forms (`hedgerow.core.ui.problems`) and logs what it finds, once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from hedgerow.core.actions import Action, Value
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import Column, DrawContext, Drawing, Form, GameUI, Part, Target, problems

T = TypeVar("T")
log = logging.getLogger("hedgerow.client")


def load_ui(host: PluginHost, ruleset: Ruleset) -> GameUI:
    """The UI object of the table's game, or the plain fallback (also when asking fails)."""
    game = ruleset.game.name
    try:
        found = host.game_ui(game, ruleset)
    except Exception:
        log.exception("the hedgerow_game_ui hook failed for %s", game)
        found = None
    return found if found is not None else GameUI(game)


class ClientUI:
    """One game's UI object, as the client calls it."""

    def __init__(self, ui: GameUI) -> None:
        self.ui = ui
        self.game = ui.game
        self._failed: set[str] = set()
        self._reported: set[str] = set()

    def _call(self, name: str, fn: Callable[[], T]) -> T | None:
        try:
            return fn()
        except Exception:
            if name not in self._failed:  # log each broken method once, not at every redraw
                self._failed.add(name)
                log.exception("the UI object of %s failed in %s", self.game, name)
            return None

    def parts(self, area: str) -> list[Part]:
        """The parts drawn in ``area``."""
        return [p for p in self.ui.parts if p.area == area]

    def draw(self, part: Part, view: Any, seat: int, width: int, preview: Action | None,
             partial: dict[str, Value] | None = None) -> Drawing | None:
        """One part of ``view`` (`GameUI.draw`), or None when it failed or is empty."""
        ctx = DrawContext(view, seat, width, preview, partial or {})
        return self._call(f"draw({part.name!r})", lambda: self.ui.draw(part.name, ctx))

    def form(self, kind: str, names: Any) -> Form:
        """The form of ``kind`` (menus for what the game leaves out, or when it fails)."""
        found = self._call("form", lambda: self.ui.form(kind, names))
        return found if found is not None else GameUI.form(GameUI(), kind, names)

    def check(self, legal: Sequence[Action]) -> None:
        """Log, once each, what is wrong with the forms for these legal actions."""
        for problem in self._call("forms", lambda: problems(self.ui, legal)) or ():
            if problem not in self._reported:
                self._reported.add(problem)
                log.warning("the UI object of %s: %s", self.game, problem)

    def score_columns(self, view: Any) -> list[Column]:
        """Running score columns (`GameUI.score_columns`), or none."""
        return list(self._call("score_columns", lambda: self.ui.score_columns(view)) or ())

    def preview(self, view: Any, seat: int, action: Action) -> str:
        """``action`` in plain words with what it would score (`GameUI.preview`)."""
        text = self._call("preview", lambda: self.ui.preview(view, seat, action))
        return text or describe_plainly(action)

    def help(self, spec: Any) -> str | None:
        """How to play (`GameUI.help`), else the game's summary."""
        return self.ui.help or getattr(spec, "summary", None) or None

    def prompt(self, view: Any, seat: int) -> str | None:
        """What the seat must decide now, when the game explains it (`GameUI.prompt`)."""
        return self._call("prompt", lambda: self.ui.prompt(view, seat))

    def target_text(self, target: Target) -> str:
        """A target in a few words (`GameUI.target_text`)."""
        text = self._call("target_text", lambda: self.ui.target_text(target))
        return text or str(target.value)


def describe_plainly(action: Action) -> str:
    """An action in words without the game's help: ``place card 7, x 1, y 0``."""
    if not action.args:
        return action.kind
    return action.kind + " " + ", ".join(f"{k} {v}" for k, v in action.args)
