"""The seat client's calls into a game's `GameUI` object, each one guarded.

`ClientUI` wraps the UI object the game registered (``hedgerow_game_ui``), or the base
`GameUI` for a game that registered none (its view as plain text, menus for every
argument).  Every call is guarded: a method that raises is logged to the client's log file
(once per method) and treated as if it had no answer, so a drawing bug in a game degrades
the screen instead of ending the session.  It also checks each new set of legal actions
against the UI object's forms (`hedgerow.core.ui.problems`) and logs what it finds, once.

It also keeps what the player is reading in full (the ``i`` key, `ClientUI.read`): the
target read, passed to the game's drawing as ``DrawContext.reading``, with the pane
scrolled to it, until the table moves on (a new view) or another target is read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from hedgerow.core.actions import Action, Value
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import (
    BOARD,
    Choose,
    Column,
    DrawContext,
    Drawing,
    Form,
    GameUI,
    Part,
    Target,
    problems,
)

T = TypeVar("T")
log = logging.getLogger("hedgerow.client")


def load_ui(plugins: PluginHost, ruleset: Ruleset) -> GameUI:
    """The UI object of the table's game, or the plain fallback (also when asking fails)."""
    game = ruleset.spec.name
    try:
        found = plugins.game_ui(game, ruleset)
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
        #: The target being read in full (``i``), the view it was read in, and where the
        #: cursor was then (pressing ``i`` again without moving it reads the next target).
        self.reading: Target | None = None
        self._read_view: Any = None
        self._read_cursor: Target | None = None

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
        reading = self.reading_in(view)
        ctx = DrawContext(view, seat, width, preview, partial or {}, reading)
        drawing = self._call(f"draw({part.name!r})", lambda: self.ui.draw(part.name, ctx))
        if drawing and reading is not None:
            drawing = scrolled_to(drawing, reading)
        return drawing

    # -- reading a target in full (the ``i`` key) -------------------------------------------

    def reading_in(self, view: Any) -> Target | None:
        """The target being read, while ``view`` is the view it was read in."""
        if self.reading is not None and view is not self._read_view:
            self.reading = self._read_cursor = self._read_view = None
        return self.reading

    def details(self, view: Any, seat: int, target: Target) -> str | None:
        """``target`` in full (`GameUI.details`), or None."""
        text = self._call("details", lambda: self.ui.details(view, seat, target))
        return text if isinstance(text, str) and text.strip() else None

    def read(self, view: Any, seat: int, drawn: Iterable[Target],
             cursor: Target | None = None) -> str | None:
        """The ``i`` key: the words of the next target to read, which becomes `reading`.

        The target under ``cursor`` when it has details and the cursor moved since the last
        read (or nothing is being read); else the target after the one being read, in
        ``drawn`` order (the board's, then the hand's), round to the first.  None when no
        drawn target has details.
        """
        if view is None:
            return None
        order = list(dict.fromkeys(drawn))
        readable = [t for t in order if self.details(view, seat, t) is not None]
        if not readable:
            return None
        now = self.reading_in(view)
        if cursor in readable and (now is None or cursor != self._read_cursor):
            target = cursor
        elif now in readable:
            target = readable[(readable.index(now) + 1) % len(readable)]
        else:
            target = readable[0]
        self.reading, self._read_view, self._read_cursor = target, view, cursor
        return self.details(view, seat, target)

    def start(self, view: Any, seat: int, step: Choose, options: list[Target]) -> Target | None:
        """Where the game wants ``step``'s cursor to start (`GameUI.start`), or None."""
        found = self._call("start", lambda: self.ui.start(view, seat, step, options))
        return found if isinstance(found, Target) and found in options else None

    def focus(self, view: Any, seat: int) -> Target | None:
        """What the board shows while the seat is not choosing (`GameUI.focus`), or None."""
        found = self._call("focus", lambda: self.ui.focus(view, seat))
        return found if isinstance(found, Target) else None

    def head(self) -> tuple[int, int]:
        """The rows and columns of headings the first board part keeps on screen while the
        board scrolls (`Part.head_rows`, `Part.head_columns`)."""
        first = next(iter(self.parts(BOARD)), None)
        return (max(0, first.head_rows), max(0, first.head_columns)) if first else (0, 0)

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

    def has_details(self) -> bool:
        """True when the game gives details of what it draws (the ``i`` key reads them)."""
        return type(self.ui).details is not GameUI.details

    def help(self, spec: Any) -> str | None:
        """How to play (`GameUI.help`), else the game's summary; when the game gives details
        of what it draws, a sentence on the ``i`` key after it."""
        text = self.ui.help or getattr(spec, "summary", None) or None
        if not self.has_details():
            return text
        return ((text + " ") if text else "") + READ_HELP

    def prompt(self, view: Any, seat: int) -> str | None:
        """What the seat must decide now, when the game explains it (`GameUI.prompt`)."""
        return self._call("prompt", lambda: self.ui.prompt(view, seat))

    def target_text(self, target: Target) -> str:
        """A target in a few words (`GameUI.target_text`)."""
        text = self._call("target_text", lambda: self.ui.target_text(target))
        return text or str(target.value)


READ_HELP = "Press i to read what is under the cursor in full, and again for the next."


def scrolled_to(drawing: Drawing, target: Target) -> Drawing:
    """``drawing`` with the terminal's cursor put on ``target``'s first fragment, so that
    a scrolling pane shows it (prompt_toolkit's ``[SetCursorPosition]``)."""
    for i, fragment in enumerate(drawing):
        if len(fragment) > 2 and fragment[2] == target:
            return [*drawing[:i], ("[SetCursorPosition]", ""), *drawing[i:]]
    return drawing


def describe_plainly(action: Action) -> str:
    """An action in words without the game's help: ``place card 7, x 1, y 0``."""
    if not action.args:
        return action.kind
    return action.kind + " " + ", ".join(f"{k} " + str(v) for k, v in action.args)
