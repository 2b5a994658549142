"""Key bindings of the seat client.  Keyboard first; the mouse works through the drawing.

As in ptpython, the bindings come in one set per mode, each a function returning its own
`KeyBindings` with the filter that says when it works, merged by `build_key_bindings`:

* `choosing_bindings`: composing an action on the table (the arrows and hjkl, the number
  keys, a `Cycle`'s keys, Space, Backspace, Enter, Esc);
* `looking_bindings`: the table while not choosing or whatever the turn (PgUp/PgDn, the
  arrows scrolling the board, ``i``, Enter to the results once the game is over);
* `results_bindings`: the results screen (scrolling, ``b``);
* `help_bindings`: ``?`` opens and closes the help;
* `leaving_bindings`: ``q`` asks before leaving a game under way, and leaves at once
  when there is nothing to lose (the game over, the table stopped).

Every handler goes through `Keys.add`'s guard: it clears the last message first, and an
exception becomes one line on screen (and a traceback in the log file), never a crash.
Keys act only through the `SeatState` and its `Picker`, so a key can never send an action
that is not among the legal ones.  A number key in a menu (the kinds, a `Menu` step) only
highlights its line, as the key line says ("1-9 choose, Enter confirm"): Enter takes it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from prompt_toolkit.filters import Filter
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase
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


class Keys:
    """One mode's `KeyBindings`, every handler guarded (see the module docstring)."""

    def __init__(self, state: SeatState, filters: Filters) -> None:
        self.state = state
        self.filters = filters
        self.bindings = KeyBindings()

    def _guarded(self, fn: Handler, follow: bool) -> Handler:
        state = self.state

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

    def add(self, *keys: str, filter: Filter | None = None, eager: bool = False,
            follow: bool = True) -> Callable[[Handler], Handler]:
        """Register the decorated handler for ``keys`` (default filter: no overlay open)."""
        when = self.filters.no_overlay if filter is None else filter

        def register(fn: Handler) -> Handler:
            self.bindings.add(*keys, filter=when, eager=eager)(self._guarded(fn, follow))
            return fn
        return register


def choosing_bindings(state: SeatState, filters: Filters) -> KeyBindings:
    """Composing an action: the cursor, the number keys, the cycles, Space, Backspace,
    Enter and Esc (only while this seat chooses on the table screen)."""
    keys = Keys(state, filters)
    choosing = filters.choosing

    for direction, names in DIRECTIONS.items():
        for key in names:
            @keys.add(key, filter=choosing)
            def _move(event: KeyPressEvent, direction: str = direction) -> None:
                state.picker.move(direction, state.position)

    for n in range(1, 10):
        @keys.add(str(n), filter=choosing)
        def _number(event: KeyPressEvent, n: int = n) -> None:
            if not state.picker.pick_number(n):
                state.say(f"There is no choice {n} now.")

    for key in cycle_keys(state):
        @keys.add(key, filter=choosing)
        def _cycle(event: KeyPressEvent, key: str = key) -> None:
            if not state.picker.cycle(key):
                state.say("Nothing to turn with that key now.")

    @keys.add("space", filter=choosing)
    def _toggle(event: KeyPressEvent) -> None:
        if not state.picker.toggle():
            state.say("Space adds or removes a choice only when several can be chosen.")

    @keys.add("backspace", filter=choosing)
    def _clear(event: KeyPressEvent) -> None:
        state.picker.clear()

    @keys.add("enter", filter=choosing)
    def _enter(event: KeyPressEvent) -> None:
        state.confirm()

    @keys.add("escape", filter=choosing, eager=True)
    def _back(event: KeyPressEvent) -> None:
        state.picker.cancel()

    return keys.bindings


def looking_bindings(state: SeatState, filters: Filters) -> KeyBindings:
    """The table screen whoever's turn it is: the board's scroll keys (the arrows too when
    not choosing), ``i`` to read a piece, Enter to the results once the game is over."""
    keys = Keys(state, filters)
    board = filters.on_table & filters.no_overlay

    for key, sign in (("pageup", -1), ("pagedown", 1)):
        @keys.add(key, filter=board, follow=False)
        def _scroll_board(event: KeyPressEvent, sign: int = sign) -> None:
            state.scroll_board(sign * state.board_page())

    # Not choosing (another seat's turn, the game over): the arrows scroll the board.
    looking = board & ~filters.choosing
    for direction, (arrow, letter) in DIRECTIONS.items():
        across = direction in ("left", "right")
        scroll = state.scroll_board_across if across else state.scroll_board
        step = (ACROSS_STEP if across else 1) * (-1 if direction in ("up", "left") else 1)
        for key in (arrow, letter):
            @keys.add(key, filter=looking, follow=False)
            def _look(event: KeyPressEvent, scroll: Callable[[int], bool] = scroll,
                      step: int = step) -> None:
                scroll(step)

    @keys.add("enter", filter=board & filters.finished)
    def _results(event: KeyPressEvent) -> None:
        state.screen = RESULTS

    @keys.add("i", filter=board)
    def _read(event: KeyPressEvent) -> None:
        cursor = state.picker.cursor_target() if state.my_turn else None
        drawn = [*state.board.order, *state.hand.order]
        text = state.ui.read(state.view, state.seat.seat, drawn, cursor)
        state.say(text or "There is nothing to read in full here.")  # named when drawn

    return keys.bindings


def results_bindings(state: SeatState, filters: Filters) -> KeyBindings:
    """The results screen: the arrows, j/k and PgUp/PgDn scroll it; ``b`` switches between
    it and the final board."""
    keys = Keys(state, filters)
    reading = filters.on_results & filters.no_overlay
    scrolls: tuple[tuple[tuple[str, ...], int], ...] = (
        (("up", "k"), -1), (("down", "j"), 1), (("pageup",), -10), (("pagedown",), 10))
    for names, step in scrolls:
        for key in names:
            @keys.add(key, filter=reading)
            def _scroll(event: KeyPressEvent, step: int = step) -> None:
                state.scroll_results(step)

    @keys.add("b", filter=filters.finished & filters.no_overlay)
    def _toggle_results(event: KeyPressEvent) -> None:
        state.screen = TABLE if state.screen == RESULTS else RESULTS

    return keys.bindings


def help_bindings(state: SeatState, filters: Filters) -> KeyBindings:
    """``?`` opens the help; ``?``, Esc or ``q`` close it."""
    keys = Keys(state, filters)

    @keys.add("?", follow=False)
    def _help(event: KeyPressEvent) -> None:
        state.overlay = HELP

    @keys.add("?", filter=filters.help_open, follow=False)
    @keys.add("escape", filter=filters.help_open, eager=True, follow=False)
    @keys.add("q", filter=filters.help_open, follow=False)
    def _close_help(event: KeyPressEvent) -> None:
        state.overlay = None

    return keys.bindings


def leaving_bindings(state: SeatState, filters: Filters, leave: Callable[[], None],
                     ) -> KeyBindings:
    """``q`` (or Ctrl-C): the question "Leave the table?" while leaving would cost the
    table something (`SeatState.leaving_costs`), else leave at once; ``y``/``q`` then leave,
    ``n``/Esc stay."""
    keys = Keys(state, filters)

    @keys.add("q", follow=False)
    @keys.add("c-c", follow=False)
    def _ask_to_leave(event: KeyPressEvent) -> None:
        if state.leaving_costs():
            state.overlay = QUIT
        else:
            leave()

    @keys.add("y", filter=filters.quit_open)
    @keys.add("q", filter=filters.quit_open)
    @keys.add("c-c", filter=filters.quit_open)
    def _leave(event: KeyPressEvent) -> None:
        leave()

    @keys.add("n", filter=filters.quit_open, follow=False)
    @keys.add("escape", filter=filters.quit_open, eager=True, follow=False)
    def _stay(event: KeyPressEvent) -> None:
        state.overlay = None

    return keys.bindings


def build_key_bindings(state: SeatState, filters: Filters, leave: Callable[[], None],
                       ) -> KeyBindingsBase:
    """Every key of the table and results screens, one set per mode (module docstring)."""
    return merge_key_bindings([
        choosing_bindings(state, filters),
        looking_bindings(state, filters),
        results_bindings(state, filters),
        help_bindings(state, filters),
        leaving_bindings(state, filters, leave),
    ])
