"""The seat client's screen: panes, how they share the terminal, and the overlays.

::

    title: game · seat · whose turn
    board (the game's drawing, scrolls to the cursor)  │ players: link, scores
    hand                                               │ log (follows the end)
    prompt: what to do now / preview of the move or a menu
    keys that work now

Below `filters.NARROW` columns the players table goes under the board and the log is
left out.  At the
end of the game the board and the hand give way to the results (``b`` toggles).  Every
pane's text comes from `render` through `_guard`, so an error while drawing shows one
line in the pane and goes to the log file, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    ScrollOffsets,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.widgets import Frame

from hedgerow.clients.app import render
from hedgerow.clients.app import results as results_screen
from hedgerow.clients.app.filters import Filters
from hedgerow.clients.app.state import SeatState
from hedgerow.core.ui import Target

log = logging.getLogger("hedgerow.client")

SIDEBAR = 32
HELP_WIDTH = 72
HAND_HEIGHT = 8  # at most; the hand pane is as tall as the game's hand parts
PROMPT_HEIGHT = 3


def _guard(state: SeatState, what: str, fn: Callable[[], StyleAndTextTuples],
           ) -> Callable[[], StyleAndTextTuples]:
    """``fn`` with the state refreshed first, and any error turned into one line."""
    def get() -> StyleAndTextTuples:
        try:
            state.refresh()
            return fn()
        except Exception:
            log.exception("drawing the %s failed", what)
            return [("class:error", f"(could not draw the {what}; see the log file)")]

    return get


def columns() -> int:
    """The terminal's width now."""
    return get_app().output.get_size().columns


def board_width(filters: Filters) -> int:
    """Columns the board pane has now."""
    columns = get_app().output.get_size().columns
    return columns if filters.narrow() else columns - SIDEBAR - 1


def _results(state: SeatState) -> StyleAndTextTuples:
    """The results screen, scrolled to ``state.results_top`` (its size noted in ``state``)."""
    size = get_app().output.get_size()
    fragments = results_screen.results(state, size.columns - 2)
    state.results_room = size.rows - 3 - (PROMPT_HEIGHT if state.message else 0)
    shown, state.results_lines = results_screen.scrolled(fragments, state.results_top)
    return shown


def build_layout(state: SeatState, filters: Filters, click: Callable[[Target], None],
                 ) -> tuple[Layout, dict[str, Window]]:
    """The whole screen for ``state``, and its panes by name (``board``, ``hand``, ...)."""
    board = Window(
        FormattedTextControl(_guard(state, "board", lambda: render.board(
            state, board_width(filters), click)), focusable=True, show_cursor=False),
        wrap_lines=False, always_hide_cursor=True,
        scroll_offsets=ScrollOffsets(top=2, bottom=3, left=4, right=10),
    )
    hand = Window(
        FormattedTextControl(_guard(state, "hand", lambda: render.hand(
            state, board_width(filters), click))),
        height=D(max=HAND_HEIGHT), dont_extend_height=True, wrap_lines=False,
    )
    players = Window(
        FormattedTextControl(_guard(state, "players", lambda: render.players(
            state, SIDEBAR if not filters.narrow() else get_app().output.get_size().columns))),
        height=lambda: D.exact(1 + len(state.infos)), wrap_lines=False,
    )
    history = Window(FormattedTextControl(_guard(state, "log", lambda: render.history(
        state, SIDEBAR if not filters.narrow() else columns()))),
                     wrap_lines=True, always_hide_cursor=True)
    rule = Window(height=1, char="─", style="class:separator")
    sidebar = HSplit([players, rule, history], width=D.exact(SIDEBAR))
    below = HSplit([rule, players])  # narrow: the players only, the board needs the room
    table = HSplit([
        VSplit([
            HSplit([board, ConditionalContainer(hand, filter=filters.has_hand)]),
            ConditionalContainer(Window(width=1, char="│", style="class:separator"),
                                 filter=~filters.narrow),
            ConditionalContainer(sidebar, filter=~filters.narrow),
        ]),
        ConditionalContainer(below, filter=filters.narrow),
    ])
    results = Window(
        FormattedTextControl(_guard(state, "results", lambda: _results(state))),
        wrap_lines=False, always_hide_cursor=True,
    )
    body = HSplit([
        Window(FormattedTextControl(_guard(state, "title", lambda: render.title(
            state, get_app().output.get_size().columns))),
               height=1, style="class:title.fill"),
        ConditionalContainer(table, filter=filters.on_table),
        ConditionalContainer(HSplit([Window(height=1), results]), filter=filters.on_results),
        ConditionalContainer(Window(FormattedTextControl(_guard(
            state, "prompt", lambda: render.prompt(state, columns()))), height=PROMPT_HEIGHT,
            wrap_lines=True), filter=filters.show_prompt),
        Window(FormattedTextControl(_guard(state, "keys", lambda: render.keys_line(state))),
               height=1, style="class:status"),
    ])
    help_box = Frame(Window(FormattedTextControl(_guard(state, "help", lambda: render.help_text(
        state, min(HELP_WIDTH, columns() - 4) - 2))), wrap_lines=True),
                     title="Help", style="class:overlay",
                     width=lambda: D.exact(min(HELP_WIDTH, columns() - 2)))
    quit_box = Frame(Window(FormattedTextControl(_guard(state, "question",
                                                        lambda: render.quit_text(state))),
                            height=4), title="Leave?", style="class:overlay",
                     width=lambda: D.exact(min(46, columns() - 2)))
    root = FloatContainer(body, floats=[
        Float(ConditionalContainer(help_box, filter=filters.help_open)),
        Float(ConditionalContainer(quit_box, filter=filters.quit_open)),
    ])
    panes = {"board": board, "hand": hand, "players": players, "log": history}
    return Layout(root, focused_element=board), panes
