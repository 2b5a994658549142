"""The seat client's screen: panes, how they share the terminal, and the overlays.

::

    title: game · seat · whose turn
    board (the game's drawing, scrolls to the cursor)  │ players: link, scores
    hand                                               │ log (follows the end)
    prompt: what to do now / preview of the move or a menu
    keys that work now

Below `filters.NARROW` columns the players table goes under the board, beside the hand
when both fit, and the log keeps its last two lines under them.  Below `MIN_COLUMNS` x
`MIN_ROWS` the screen says so, with the size it needs, instead of drawing a table that
does not fit.  At the end of the game the board and the hand give way to the results
(``b`` toggles).  Every pane's text comes from `render` through `_guard`, so an error
while drawing shows one line in the pane and goes to the log file, never a traceback.
What each pane draws is a `Panes` (the seat client's `render` and `results` by default):
the replay viewer (`hedgerow.clients.watch`) lays its own words out on the same screen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import (
    StyleAndTextTuples,
    fragment_list_to_text,
    fragment_list_width,
)
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
from prompt_toolkit.layout.containers import WindowRenderInfo
from prompt_toolkit.layout.controls import UIContent
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Char, Screen, WritePosition
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth
from prompt_toolkit.widgets import Frame

from hedgerow.clients.app import render
from hedgerow.clients.app import results as results_screen
from hedgerow.clients.app.filters import Filters
from hedgerow.clients.app.state import ACROSS_STEP, SeatState
from hedgerow.core.ui import HAND, Target

log = logging.getLogger("hedgerow.client")

SIDEBAR = 32  # the players table and the log, at 100 columns and less
SIDEBAR_MOST = 48  # the widest they get: a third of what a wider terminal adds, up to this
HELP_WIDTH = 72
HAND_HEIGHT = 8  # at most; the hand pane is as tall as the game's hand parts
NARROW_LOG = 2  # the log's last lines, under the players when the screen is narrow
#: The smallest terminal the table screen is drawn in (every pane then fits, at 60 x 20
#: with five players).
MIN_COLUMNS, MIN_ROWS = 60, 20


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


def sidebar_width() -> int:
    """The players table's and the log's columns now: `SIDEBAR`, and on a terminal wider
    than 100 columns a third of the rest too, up to `SIDEBAR_MOST` (160 columns: 48), so
    that names and log lines get room while the board keeps most of it."""
    return min(SIDEBAR_MOST, SIDEBAR + max(0, columns() - 100) // 3)


def board_width(filters: Filters) -> int:
    """Columns the board pane has now."""
    return columns() if filters.narrow() else columns() - sidebar_width() - 1


def prompt_rows(state: SeatState, panes: Panes | None = None) -> int:
    """The rows the prompt pane takes now (`render.prompt_height`); 3 if it cannot say."""
    try:
        return (panes or PANES).prompt_height(state, columns())
    except Exception:
        log.exception("measuring the prompt failed")
        return render.PROMPT_LINES


def too_small_text(columns: int, rows: int) -> str:
    """What the screen says when the terminal is smaller than the table needs."""
    return (f"This terminal is {columns} x {rows}; the table needs at least "
            f"{MIN_COLUMNS} x {MIN_ROWS}. Make the window larger: the game goes on meanwhile "
            "(q leaves).")


def big_enough() -> bool:
    """Whether the terminal is at least `MIN_COLUMNS` x `MIN_ROWS`."""
    size = get_app().output.get_size()
    return size.columns >= MIN_COLUMNS and size.rows >= MIN_ROWS


def hand_size(state: SeatState) -> tuple[int, int]:
    """The columns and the lines the game's hand drawing takes now."""
    if state.view is None:
        return 0, 0
    lines = "".join(f[1] for f in render.draw_area(state, HAND, columns())).split("\n")
    return max(get_cwidth(line) for line in lines), len(lines)


def _results(state: SeatState, panes: Panes) -> StyleAndTextTuples:
    """The results screen, scrolled to ``state.results_top`` (its size noted in ``state``)."""
    size = get_app().output.get_size()
    fragments = panes.results(state, size.columns - 2)
    saved = 1 if state.seat.log_path() is not None else 0
    saved += deck_rows(state, panes)
    room = size.rows - 3 - saved - (prompt_rows(state, panes) if state.message else 0)
    shown, state.results_top, last = results_screen.window(fragments, state.results_top,
                                                           room)
    # what the scroll keys can reach: a first line from 0 to ``last``
    state.results_room, state.results_lines = room, room + last
    return shown


def deck_rows(state: SeatState, panes: Panes | None = None) -> int:
    """The rows under the results that say what the check of a sealed deck found (none at
    an open deck; a fault may take a few)."""
    text = fragment_list_to_text((panes or PANES).deck(state, columns()))
    return 1 + text.count("\n") if text else 0


def _inert(event: MouseEvent) -> object:
    """A click on a board heading that covers the drawing: nothing under it is chosen."""
    return None


def more_label(lines: int, below: bool) -> str:
    """The marker on the board's edge row when its drawing runs past the pane: how many
    lines are out of sight that way (the row the marker covers counted) and the key."""
    arrow, key = ("▼", "PgDn") if below else ("▲", "PgUp")
    return f" {arrow} {lines} more line{'s' if lines != 1 else ''} · {key} "


#: The side markers: columns hidden to the left, to the right.
SIDE = ("◀", "▶")


class BoardWindow(Window):
    """The board's pane: it follows the cursor (the drawing's ``[SetCursorPosition]``),
    except while the player scrolls it (``SeatState.board_top``: PageUp/PageDown, the mouse
    wheel, the arrows when not choosing; ``SeatState.board_left``: the arrows sideways),
    and it notes its scroll and size in the state for the keys that scroll it.

    Where the drawing runs past the pane, a marker at the right end of its bottom (top)
    row says how many lines are below (above) and which key shows them; a click on it
    scrolls a page that way.  Where it runs past the pane's right (left) side, a `SIDE`
    marker stands on that edge of the middle row; a click on it scrolls `ACROSS_STEP`
    columns that way."""

    WHEEL = 3  # lines a turn of the mouse wheel scrolls

    def __init__(self, state: SeatState, content: FormattedTextControl, **kwargs: Any) -> None:
        self.state = state
        super().__init__(content, get_vertical_scroll=self._preferred, **kwargs)

    def _preferred(self, window: Window) -> int:
        return self.state.board_top if self.state.board_top is not None else \
            self.vertical_scroll

    def write_to_screen(self, screen: Screen, mouse_handlers: MouseHandlers,
                        write_position: WritePosition, parent_style: str, erase_bg: bool,
                        z_index: int | None) -> None:
        super().write_to_screen(screen, mouse_handlers, write_position, parent_style, erase_bg,
                                z_index)
        info = self.render_info
        if info is not None:
            self.state.board_shown = (self.vertical_scroll, info.window_height,
                                      info.content_height)
            if self.state.board_top is not None:
                self.state.board_top = self.vertical_scroll  # as far as it could go
            self._stick(screen, mouse_handlers, info)
            self._mark_more(screen, mouse_handlers, info)

    def _stick(self, screen: Screen, mouse_handlers: MouseHandlers,
               info: WindowRenderInfo) -> None:
        """Keep the board's headings on screen (`SeatState.board_head`): its first rows
        over the top of the pane while it is scrolled down (moved sideways with it), its
        first columns over the left of the pane while it is scrolled across (moved up and
        down with it).  What they cover takes no clicks."""
        rows, columns = self.state.board_head
        top, left = self.vertical_scroll, self.horizontal_scroll
        height, width = info.window_height, info.window_width
        if not (rows and top) and not (columns and left):
            return
        content = self.content.create_content(width, height)
        x0, y0 = info._x_offset, info._y_offset

        def paint(line: int, y: int, start: int, stop: int, at: int) -> None:
            """Columns ``start`` to ``stop`` of the drawing's ``line`` at pane column ``at``."""
            if line >= content.line_count:
                return
            x = 0
            for fragment in content.get_line(line):
                style, text = fragment[0], fragment[1]
                if style.startswith("["):
                    continue
                for char in text:
                    size = get_cwidth(char)
                    if start <= x < stop and at + x - start + size <= width:
                        screen.data_buffer[y0 + y][x0 + at + x - start] = Char(char, style)
                    x += size
            mouse_handlers.set_mouse_handler_for_range(x0 + at, x0 + at + stop - start,
                                                       y0 + y, y0 + y + 1, _inert)

        if rows and top:  # the column labels, over the first rows
            for y in range(min(rows, height)):
                paint(y, y, left + (columns if left else 0), left + width, columns if left else 0)
        if columns and left:  # the row labels, over the first columns
            for y in range(height):
                line = y if rows and top and y < rows else top + y
                paint(line, y, 0, min(columns, width), 0)

    def _scroll(self, ui_content: UIContent, width: int, height: int) -> None:
        """prompt_toolkit's scrolling (to the cursor, or to ``board_top``), then the
        player's own sideways scroll (``SeatState.board_left``), noted with the drawing's
        width for the keys that scroll it."""
        super()._scroll(ui_content, width, height)
        widest = max((fragment_list_width(ui_content.get_line(i))
                      for i in range(ui_content.line_count)), default=0)
        left = self.state.board_left
        if left is not None:
            self.horizontal_scroll = max(0, min(left, widest - width))
            self.state.board_left = self.horizontal_scroll  # as far as it could go
        self.state.board_across = (self.horizontal_scroll, width, widest)

    def _mark_more(self, screen: Screen, mouse_handlers: MouseHandlers,
                   info: WindowRenderInfo) -> None:
        """The "more lines" markers (see the class docstring), over the drawing's edge
        rows; none in a pane too small to keep a row of drawing between them."""
        top, rows, lines = self.vertical_scroll, info.window_height, info.content_height
        width = info.window_width
        if rows < 3:
            return
        head_rows, head_columns = self.state.board_head
        for below, hidden, row in ((False, top, 0),
                                   (True, lines - top - rows, rows - 1)):
            if hidden <= 0:
                continue
            label = more_label(hidden + 1, below)
            x0 = info._x_offset + width - get_cwidth(label)
            if not below and head_rows and head_columns >= 3:
                # over the headings' corner, so that the column labels stay whole; the
                # headings cover the lines above, none is under the marker
                label = f"▲{hidden}"[:head_columns].ljust(head_columns)
                x0 = info._x_offset
            room = get_cwidth(label)
            if room > width:
                continue
            y = info._y_offset + row
            line = screen.data_buffer[y]
            for i, char in enumerate(label):
                line[x0 + i] = Char(char, "class:board.more")
            step = self.state.board_page() * (1 if below else -1)
            mouse_handlers.set_mouse_handler_for_range(
                x0, x0 + room, y, y + 1, self._clicked(self.state.scroll_board, step))
        left, columns, widest = self.state.board_across
        y = info._y_offset + rows // 2
        for right, hidden in ((False, left), (True, widest - left - columns)):
            if hidden <= 0 or width < 8:
                continue
            x = info._x_offset + (width - 1 if right else 0)
            screen.data_buffer[y][x] = Char(SIDE[right], "class:board.more")
            mouse_handlers.set_mouse_handler_for_range(
                x, x + 1, y, y + 1,
                self._clicked(self.state.scroll_board_across,
                              ACROSS_STEP if right else -ACROSS_STEP))

    def _clicked(self, scroll: Callable[[int], bool], step: int,
                 ) -> Callable[[MouseEvent], object]:
        """A click handler that scrolls the board ``step`` with ``scroll`` (down or
        across)."""
        def handler(event: MouseEvent) -> object:
            if event.event_type != MouseEventType.MOUSE_UP:
                return NotImplemented
            scroll(step)
            get_app().invalidate()
            return None

        return handler

    def _scroll_down(self) -> None:
        self.state.scroll_board(self.WHEEL)

    def _scroll_up(self) -> None:
        self.state.scroll_board(-self.WHEEL)


@dataclass(frozen=True, slots=True)
class Panes:
    """What the panes draw, each from the state and the width it has: the seat client's own
    by default (`render`, `results`); ``history`` also takes ``heading=False`` (the log's
    last lines on a narrow screen), ``small`` the terminal's size."""

    title: Callable[[SeatState, int], StyleAndTextTuples] = render.title
    board: Callable[[SeatState, int, render.Click], StyleAndTextTuples] = render.board
    hand: Callable[[SeatState, int, render.Click], StyleAndTextTuples] = render.hand
    history: Callable[..., StyleAndTextTuples] = render.history
    prompt: Callable[[SeatState, int], StyleAndTextTuples] = render.prompt
    prompt_height: Callable[[SeatState, int], int] = render.prompt_height
    keys: Callable[[SeatState, int], StyleAndTextTuples] = render.keys_line
    help: Callable[[SeatState, int], StyleAndTextTuples] = render.help_text
    results: Callable[[SeatState, int], StyleAndTextTuples] = results_screen.results
    saved: Callable[[SeatState, int], StyleAndTextTuples] = results_screen.saved_line
    #: What the check of a sealed deck found, under the results (nothing at an open deck).
    deck: Callable[[SeatState, int], StyleAndTextTuples] = results_screen.deck_line
    small: Callable[[int, int], str] = too_small_text
    #: The columns and lines the hand's drawing takes (where a narrow screen puts it).
    hand_size: Callable[[SeatState], tuple[int, int]] = hand_size


PANES = Panes()


def build_layout(state: SeatState, filters: Filters, click: Callable[[Target], None],
                 panes: Panes = PANES) -> tuple[Layout, dict[str, Window]]:
    """The whole screen for ``state``, and its panes by name (``board``, ``hand``, ...)."""
    def margin(lines: int, head: int = -1) -> Callable[[], int]:
        """A scroll offset: ``lines`` with the headings that cover that side of the pane
        (`SeatState.board_head`) added; none while the board is scrolled by hand."""
        def offset() -> int:
            if state.board_top is not None:
                return 0
            return lines + (state.board_head[head] if head >= 0 else 0)
        return offset

    board = BoardWindow(
        state,
        FormattedTextControl(_guard(state, "board", lambda: panes.board(
            state, board_width(filters), click)), focusable=True, show_cursor=False),
        wrap_lines=False, always_hide_cursor=True,
        scroll_offsets=ScrollOffsets(top=margin(2, 0), bottom=margin(3),
                                     left=lambda: 4 + state.board_head[1], right=10),
    )
    hand = Window(
        FormattedTextControl(_guard(state, "hand", lambda: panes.hand(
            state, board_width(filters), click))),
        height=D(max=HAND_HEIGHT), dont_extend_height=True, wrap_lines=False,
    )
    players = Window(
        FormattedTextControl(_guard(state, "players", lambda: render.players(
            state, sidebar_width() if not filters.narrow() else render.players_width(state)))),
        height=lambda: D.exact(1 + len(state.infos)), wrap_lines=False,
    )
    history = Window(FormattedTextControl(_guard(state, "log", lambda: panes.history(
        state, sidebar_width() if not filters.narrow() else columns()))),
                     wrap_lines=True, always_hide_cursor=True)
    last_lines = Window(FormattedTextControl(_guard(state, "log", lambda: panes.history(
        state, columns(), heading=False))), height=NARROW_LOG, wrap_lines=True,
        always_hide_cursor=True)
    rule = Window(height=1, char="─", style="class:separator")
    sidebar = HSplit([players, rule, history], width=lambda: D.exact(sidebar_width()))
    beside = Condition(lambda: filters.has_hand() and panes.hand_size(state)[0] + 1
                       + render.players_width(state) <= columns())
    # narrow: the hand and the players side by side when they fit, then the log's end
    below = HSplit([
        ConditionalContainer(VSplit([
            hand,
            Window(width=1, char="│", style="class:separator"),
            Window(FormattedTextControl(_guard(state, "players", lambda: render.players(
                state, render.players_width(state)))),
                width=lambda: D.exact(render.players_width(state)), wrap_lines=False),
        ], height=lambda: D.exact(min(HAND_HEIGHT, max(1 + len(state.infos),
                                                        panes.hand_size(state)[1])))),
            filter=beside),
        ConditionalContainer(HSplit([
            ConditionalContainer(hand, filter=filters.has_hand), players]), filter=~beside),
        rule, last_lines,
    ])
    table = HSplit([
        VSplit([
            HSplit([board, ConditionalContainer(hand, filter=filters.has_hand & ~filters.narrow)]),
            ConditionalContainer(Window(width=1, char="│", style="class:separator"),
                                 filter=~filters.narrow),
            ConditionalContainer(sidebar, filter=~filters.narrow),
        ]),
        ConditionalContainer(below, filter=filters.narrow),
    ])
    results = Window(
        FormattedTextControl(_guard(state, "results", lambda: _results(state, panes))),
        wrap_lines=False, always_hide_cursor=True,
    )
    body = HSplit([
        Window(FormattedTextControl(_guard(state, "title", lambda: panes.title(
            state, get_app().output.get_size().columns))),
               height=1, style="class:title.fill"),
        ConditionalContainer(table, filter=filters.on_table),
        ConditionalContainer(HSplit([
            Window(height=1), results,
            Window(FormattedTextControl(_guard(state, "deck", lambda: panes.deck(
                state, columns()))), height=lambda: D.exact(deck_rows(state, panes))),
            Window(FormattedTextControl(_guard(state, "log path", lambda: panes.saved(
                state, columns()))), height=lambda: D.exact(
                    1 if state.seat.log_path() is not None else 0)),
        ]), filter=filters.on_results),
        ConditionalContainer(Window(FormattedTextControl(_guard(
            state, "prompt", lambda: panes.prompt(state, columns()))),
            height=lambda: D.exact(prompt_rows(state, panes)), wrap_lines=False),
            filter=filters.show_prompt),
        Window(FormattedTextControl(_guard(state, "keys", lambda: panes.keys(
            state, columns()))), height=1, style="class:status"),
    ])
    small = Window(FormattedTextControl(lambda: [("class:message", render.wrap(
        panes.small(columns(), get_app().output.get_size().rows), columns()))]),
        wrap_lines=True)
    fits = Condition(big_enough)
    help_box = Frame(Window(FormattedTextControl(_guard(state, "help", lambda: panes.help(
        state, min(HELP_WIDTH, columns() - 4) - 2))), wrap_lines=True),
                     title="Help", style="class:overlay",
                     width=lambda: D.exact(min(HELP_WIDTH, columns() - 2)))
    quit_box = Frame(Window(FormattedTextControl(_guard(state, "question",
                                                        lambda: render.quit_text(state))),
                            height=4), title="Leave?", style="class:overlay",
                     width=lambda: D.exact(min(46, columns() - 2)))
    root = FloatContainer(HSplit([ConditionalContainer(body, filter=fits),
                                  ConditionalContainer(small, filter=~fits)]), floats=[
        Float(ConditionalContainer(help_box, filter=filters.help_open & fits)),
        Float(ConditionalContainer(quit_box, filter=filters.quit_open & fits)),
    ])
    by_name = {"board": board, "hand": hand, "players": players, "log": history}
    return Layout(root, focused_element=board), by_name
