"""prompt_toolkit filters over a `SeatState`: which screen, which overlay, whose turn."""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition, Filter

from hedgerow.clients.app.state import HELP, QUIT, RESULTS, TABLE, SeatState

#: Below this many columns the players table and the log go under the board.
NARROW = 64


@dataclass(frozen=True, slots=True)
class Filters:
    """The conditions the layout and the key bindings depend on."""

    on_table: Filter
    on_results: Filter
    help_open: Filter
    quit_open: Filter
    no_overlay: Filter
    choosing: Filter  # this seat is composing an action on the table screen
    finished: Filter
    narrow: Filter
    has_hand: Filter  # the game draws something in the hand area
    show_prompt: Filter  # the prompt pane: on the table screen, or when there is a message


def build_filters(state: SeatState) -> Filters:
    """The filters for ``state``."""
    no_overlay = Condition(lambda: state.overlay is None)
    on_table = Condition(lambda: state.screen == TABLE)
    return Filters(
        on_table=on_table,
        on_results=Condition(lambda: state.screen == RESULTS),
        help_open=Condition(lambda: state.overlay == HELP),
        quit_open=Condition(lambda: state.overlay == QUIT),
        no_overlay=no_overlay,
        choosing=Condition(lambda: state.my_turn) & on_table & no_overlay,
        finished=Condition(lambda: state.over),
        narrow=Condition(lambda: get_app().output.get_size().columns < NARROW),
        has_hand=Condition(lambda: state.has_hand),
        show_prompt=on_table | Condition(lambda: bool(state.message)),
    )
