"""Key bindings of the replay viewer, one set per mode as the seat client's (ptpython's way).

* `stepping_bindings`: through the film — → ← (and l h) an entry, ↓ ↑ (j k, ] [) a round
  (``]`` and ``[`` on the results too), Home End (g G) the ends, Space plays and pauses,
  ``s`` / ``S`` another seat's eyes;
* `looking_bindings`: the board — PgUp PgDn, ``<`` ``>`` across, ``i`` reads a piece in
  full (first one the entry changed, then the next drawn), Enter shows the results at the
  end;
* the seat client's own `results_bindings` (scrolling the results, ``b``) and
  `help_bindings` (``?``, Esc);
* `leaving_bindings`: ``q`` (or Ctrl-C) leaves at once: there is nothing to lose.

Every handler goes through the seat client's `Keys` guard (it clears the last message; an
exception becomes one line on screen and a traceback in the log file).  A key that moves
through the film stops the film running by itself.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase
from prompt_toolkit.key_binding.key_processor import KeyPressEvent

from hedgerow.clients.app.filters import Filters
from hedgerow.clients.app.keys import Keys, help_bindings, results_bindings
from hedgerow.clients.app.state import ACROSS_STEP, RESULTS
from hedgerow.clients.watch.state import WatchState


def stepping_bindings(watch: WatchState, filters: Filters) -> KeyBindings:
    """Moving through the film (see the module docstring)."""
    keys = Keys(watch.table, filters)
    table = filters.on_table & filters.no_overlay

    def moving(move: Callable[[], object]) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            watch.playing = False
            move()
        return handler

    bindings = (
        (("right", "l"), None, lambda: watch.step(1)),
        (("left", "h"), None, lambda: watch.step(-1)),
        (("down", "j"), table, watch.next_round),
        (("up", "k"), table, watch.previous_round),
        (("]",), None, watch.next_round),
        (("[",), None, watch.previous_round),
        (("home", "g"), None, watch.to_start),
        (("end", "G"), None, watch.to_end),
    )
    for names, when, move in bindings:
        for key in names:
            keys.add(key, filter=when)(moving(move))

    @keys.add("space")
    def _play(event: KeyPressEvent) -> None:
        watch.toggle_play()

    for key, by in (("s", 1), ("S", -1)):
        @keys.add(key)
        def _seat(event: KeyPressEvent, by: int = by) -> None:
            if watch.film.players > 1:
                watch.next_seat(by)
            else:
                watch.table.say("There is only one seat at this table.")

    return keys.bindings


def looking_bindings(watch: WatchState, filters: Filters) -> KeyBindings:
    """The board's scroll keys, ``i``, and Enter for the results at the end."""
    state = watch.table
    keys = Keys(state, filters)
    board = filters.on_table & filters.no_overlay

    for key, sign in (("pageup", -1), ("pagedown", 1)):
        @keys.add(key, filter=board, follow=False)
        def _scroll(event: KeyPressEvent, sign: int = sign) -> None:
            state.scroll_board(sign * state.board_page())

    for key, sign in (("<", -1), (">", 1)):
        @keys.add(key, filter=board, follow=False)
        def _across(event: KeyPressEvent, sign: int = sign) -> None:
            if not state.scroll_board_across(sign * ACROSS_STEP):
                state.say("The board fits its pane across." if not state.board_wider() else
                          "The board is at its edge that way.")

    @keys.add("enter", filter=board & filters.finished)
    def _results(event: KeyPressEvent) -> None:
        state.screen = RESULTS

    @keys.add("i", filter=board)
    def _read(event: KeyPressEvent) -> None:
        drawn = [*state.board.order, *state.hand.order]
        moved = next((t for t in state.board.order if t in watch.marks[1]), None)
        text = state.ui.read(state.view, watch.watching, drawn, moved)
        state.say(text or "There is nothing to read in full here.")

    return keys.bindings


def leaving_bindings(watch: WatchState, filters: Filters, leave: Callable[[], None],
                     ) -> KeyBindings:
    """``q`` and Ctrl-C leave at once (a replay has nothing to lose)."""
    keys = Keys(watch.table, filters)

    @keys.add("q", follow=False)
    @keys.add("c-c", follow=False)
    def _leave(event: KeyPressEvent) -> None:
        leave()

    return keys.bindings


def build_key_bindings(watch: WatchState, filters: Filters, leave: Callable[[], None],
                       ) -> KeyBindingsBase:
    """Every key of the replay viewer (see the module docstring)."""
    return merge_key_bindings([
        stepping_bindings(watch, filters),
        looking_bindings(watch, filters),
        results_bindings(watch.table, filters),
        help_bindings(watch.table, filters),
        leaving_bindings(watch, filters, leave),
    ])
