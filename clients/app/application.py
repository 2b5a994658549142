"""Building and running the seat client: one `Application` over one `Seat`.

`SeatApp` wires the pieces of this package together (state, filters, layout, key
bindings, style) and runs on the caller's asyncio loop, next to the network peer.  While it
runs, every log record of the process (the client's and the network's) goes to
``client.log`` under the data directory, and the loop's unhandled errors are logged and
shown as one line: no traceback ever reaches the screen (`fullscreen.FullScreen`).
"""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.output import Output

from hedgerow.clients.app.departure import DeparturePrompt, installed_bots
from hedgerow.clients.app.filters import build_filters
from hedgerow.clients.app.fullscreen import FullScreen, client_log_path, logging_to_file
from hedgerow.clients.app.gameui import ClientUI, load_ui
from hedgerow.clients.app.keys import build_key_bindings
from hedgerow.clients.app.layout import build_layout
from hedgerow.clients.app.state import SeatState
from hedgerow.clients.app.style import STYLE
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ui import Target
from hedgerow.net.seat import Seat

__all__ = ["SeatApp", "client_log_path", "logging_to_file", "run_seat"]



class SeatApp(FullScreen):
    """The full-screen client for one seat."""

    def __init__(self, seat: Seat, *, plugins: PluginHost | None = None, input: Input | None = None,
                 output: Output | None = None, invite: bool = True) -> None:
        self.seat = seat
        plugins = plugins or PluginHost()  # loaded once, for the UI object and the bots
        self.ui = ClientUI(load_ui(plugins, seat.ruleset))
        self.state = SeatState(seat, self.ui, invalidate=self._invalidate, invite=invite)
        self.filters = build_filters(self.state)
        layout, self.panes = build_layout(self.state, self.filters, self.click)
        # Who left the table and what it can do now (a box over the table, its own keys).
        self.departure = DeparturePrompt(self.state, bots=installed_bots(
            plugins, seat.ruleset.spec.name))
        layout.container.floats.append(self.departure.float())  # type: ignore[attr-defined]
        #: The player asked to watch the game again (``w`` on the results screen): the
        #: replay viewer opens on the table's log once this screen has closed (`run_seat`).
        self.replay_asked = False
        self.build(layout, merge_key_bindings([
            build_key_bindings(self.state, self.filters, self.leave),
            self.departure.key_bindings(), self._replay_key()]), STYLE,
            input=input, output=output)

    def click(self, target: Target) -> None:
        """A click on a drawn target (a card, a cell, ...)."""
        if not self.filters.choosing():
            return
        self.state.message = None
        self.state.follow_cursor()
        if self.state.picker.point_at(target) == "confirm":
            self.state.confirm()
        self._invalidate()

    def _replay_key(self) -> KeyBindings:
        """``w`` on the results screen: leave it to watch the game again."""
        bindings = KeyBindings()
        can = Condition(lambda: self.seat.log_path() is not None)

        @bindings.add("w", filter=self.filters.on_results & self.filters.no_overlay & can)
        def _watch(event: KeyPressEvent) -> None:
            self.replay_asked = True
            self.leave()

        return bindings


async def run_seat(seat: Seat, *, plugins: PluginHost | None = None, input: Input | None = None,
                   output: Output | None = None, invite: bool = True) -> int:
    """Run the seat client on ``seat`` until the player leaves; returns the exit status.

    Call it on the loop that runs the seat's peer.  It does not close the seat: whoever
    opened it closes it afterwards.  ``plugins`` gives the game's UI object (a new `PluginHost`
    when omitted); ``input`` and ``output`` default to the terminal (tests pass a pipe
    input and a dummy output).  ``invite=False`` says that the other seats are this
    program's own bots (``hedgerow play``): the seating screen then tells nobody how to
    join.  When the player leaves the results screen with ``w``, the replay viewer then
    opens on the table's log (`hedgerow.clients.watch.application.watch_after_game`) before
    this returns.
    """
    app = SeatApp(seat, plugins=plugins, input=input, output=output, invite=invite)
    status = await app.run()
    path = seat.log_path()
    if app.replay_asked and path is not None:
        from hedgerow.clients.watch.application import watch_after_game

        await watch_after_game(seat, path, plugins=plugins, input=input, output=output)
    return status
