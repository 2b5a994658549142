"""Key bindings of the seat client.  Keyboard first; the mouse works through the drawing.

Every handler goes through `_guarded`: it clears the last message first, and an exception
becomes one line on screen (and a traceback in the log file), never a crash.  Keys act
only through the `SeatState` and its `Picker`, so a key can never send an action that is
not among the legal ones.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent

from hedgerow.clients.app.filters import Filters
from hedgerow.clients.app.state import ACROSS_STEP, HELP, QUIT, RESULTS, TABLE, SeatState
from hedgerow.core.ui import RESERVED_KEYS, Cycle

log = logging.getLogger("hedgerow.client")

Handler = Callable[[KeyPressEvent], None]

DIRECTIONS = {"up": ("up", "k"), "down": ("down", "j"), "left": ("left", "h"),
              "right": ("right", "l")}


def cycle_keys(state: SeatState) -> list[str]:
    """Every key a `Cycle` of the game's forms uses (forward and back)."""
    keys: dict[str, None] = {}
    for form in state.ui.ui.forms.values():
        for step in form.steps:
            if isinstance(step, Cycle):
                keys.update({step.key: None, step.back: None})
    return [k for k in keys if k not in RESERVED_KEYS]


def build_key_bindings(state: SeatState, filters: Filters, leave: Callable[[], None],
                       ) -> KeyBindings:
    """Every key, with the filter that says when it works."""
    kb = KeyBindings()

    def _guarded(fn: Handler, follow: bool = True) -> Handler:
        @functools.wraps(fn)
        def handler(event: KeyPressEvent) -> None:
            state.message = None
            if follow:  # a key that moves or reads the cursor shows it again
                state.follow_cursor()
            try:
                fn(event)
            except Exception:
                log.exception("the key %s failed", event.key_sequence)
                state.say("Something went wrong with that key; the details are in the log file.")
        return handler

    def add(*keys: str, filter=filters.no_overlay, eager: bool = False, follow: bool = True,
            ) -> Callable[[Handler], Handler]:
        def register(fn: Handler) -> Handler:
            kb.add(*keys, filter=filter, eager=eager)(_guarded(fn, follow))
            return fn
        return register

    choosing = filters.choosing

    for direction, keys in DIRECTIONS.items():
        for key in keys:
            @add(key, filter=choosing)
            def _move(event: KeyPressEvent, direction: str = direction) -> None:
                state.picker.move(direction, state.position)

    for n in range(1, 10):
        @add(str(n), filter=choosing)
        def _number(event: KeyPressEvent, n: int = n) -> None:
            if not state.picker.pick_number(n):
                state.say(f"There is no choice {n} now.")

    for key in cycle_keys(state):
        @add(key, filter=choosing)
        def _cycle(event: KeyPressEvent, key: str = key) -> None:
            if not state.picker.cycle(key):
                state.say("Nothing to turn with that key now.")

    @add("space", filter=choosing)
    def _toggle(event: KeyPressEvent) -> None:
        if not state.picker.toggle():
            state.say("Space adds or removes a choice only when several can be chosen.")

    @add("backspace", filter=choosing)
    def _clear(event: KeyPressEvent) -> None:
        state.picker.clear()

    @add("enter", filter=filters.no_overlay)
    def _enter(event: KeyPressEvent) -> None:
        if state.screen == TABLE and state.outcome is not None:
            state.screen = RESULTS
        elif filters.choosing():
            state.confirm()

    @add("escape", filter=filters.no_overlay & filters.on_table, eager=True)
    def _back(event: KeyPressEvent) -> None:
        if filters.choosing():
            state.picker.cancel()

    reading = filters.on_results & filters.no_overlay
    scrolls: tuple[tuple[tuple[str, ...], int], ...] = (
        (("up", "k"), -1), (("down", "j"), 1), (("pageup",), -10), (("pagedown",), 10))
    for names, step in scrolls:
        for key in names:
            @add(key, filter=reading)
            def _scroll(event: KeyPressEvent, step: int = step) -> None:
                state.scroll_results(step)

    board = filters.on_table & filters.no_overlay
    for key, sign in (("pageup", -1), ("pagedown", 1)):
        @add(key, filter=board, follow=False)
        def _scroll_board(event: KeyPressEvent, sign: int = sign) -> None:
            state.scroll_board(sign * state.board_page())

    # Not choosing (another seat's turn, the game over): the arrows scroll the board.
    looking = board & ~choosing
    for direction, (arrow, letter) in DIRECTIONS.items():
        across = direction in ("left", "right")
        scroll = state.scroll_board_across if across else state.scroll_board
        step = (ACROSS_STEP if across else 1) * (-1 if direction in ("up", "left") else 1)
        for key in (arrow, letter):
            @add(key, filter=looking, follow=False)
            def _look(event: KeyPressEvent, scroll: Callable[[int], bool] = scroll,
                      step: int = step) -> None:
                scroll(step)

    @add("b", filter=filters.finished & filters.no_overlay)
    def _toggle_results(event: KeyPressEvent) -> None:
        state.screen = TABLE if state.screen == RESULTS else RESULTS

    @add("i", filter=filters.no_overlay & filters.on_table)
    def _read(event: KeyPressEvent) -> None:
        cursor = state.picker.cursor_target() if state.my_turn else None
        drawn = [*state.board.order, *state.hand.order]
        text = state.ui.read(state.view, state.seat.seat, drawn, cursor)
        state.say(text or "There is nothing to read in full here.")  # named when drawn

    @add("?", filter=filters.no_overlay, follow=False)
    def _help(event: KeyPressEvent) -> None:
        state.overlay = HELP

    @add("?", filter=filters.help_open, follow=False)
    @add("escape", filter=filters.help_open, eager=True, follow=False)
    @add("q", filter=filters.help_open, follow=False)
    def _close_help(event: KeyPressEvent) -> None:
        state.overlay = None

    @add("q", filter=filters.no_overlay, follow=False)
    @add("c-c", filter=filters.no_overlay, follow=False)
    def _ask_to_leave(event: KeyPressEvent) -> None:
        state.overlay = QUIT

    @add("y", filter=filters.quit_open)
    @add("q", filter=filters.quit_open)
    @add("c-c", filter=filters.quit_open)
    def _leave(event: KeyPressEvent) -> None:
        leave()

    @add("n", filter=filters.quit_open, follow=False)
    @add("escape", filter=filters.quit_open, eager=True, follow=False)
    def _stay(event: KeyPressEvent) -> None:
        state.overlay = None

    return kb
