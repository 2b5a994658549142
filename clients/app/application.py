"""Building and running the seat client: one `Application` over one `Seat`.

`SeatApp` wires the pieces of this package together (state, filters, layout, key
bindings, style) and runs on the caller's asyncio loop, next to the network peer.  While it
runs, every log record of the process (the client's and the network's) goes to
``client.log`` under the data directory, and the loop's unhandled errors are logged and
shown as one line: no traceback ever reaches the screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import merge_key_bindings
from prompt_toolkit.output import Output

from hedgerow.clients.app.departure import DeparturePrompt, installed_bots
from hedgerow.clients.app.filters import build_filters
from hedgerow.clients.app.gameui import ClientUI, load_ui
from hedgerow.clients.app.keys import build_key_bindings
from hedgerow.clients.app.layout import build_layout
from hedgerow.clients.app.state import SeatState
from hedgerow.clients.app.style import STYLE
from hedgerow.core.datadir import data_dir
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ui import Target
from hedgerow.net.seat import Seat

log = logging.getLogger("hedgerow.client")


def client_log_path() -> Path:
    """The seat client's log file (errors with their tracebacks go there)."""
    return data_dir() / "client.log"


def _terminal_handlers() -> list[tuple[logging.Logger, logging.Handler]]:
    """Handlers that write to the terminal (stderr or stdout), on any logger."""
    streams = {id(s) for s in (sys.stderr, sys.stdout, sys.__stderr__, sys.__stdout__)}
    loggers = [logging.getLogger(), *(v for v in logging.root.manager.loggerDict.values()
                                      if isinstance(v, logging.Logger))]
    return [(lg, h) for lg in loggers for h in lg.handlers
            if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)
            and id(getattr(h, "stream", None)) in streams]


@contextlib.contextmanager
def logging_to_file() -> Iterator[Path]:
    """Send every log record and warning of the process to `client_log_path` meanwhile.

    Handlers that print to the terminal are set aside until it ends (they would scribble
    over the full-screen display), and a handler on the root logger keeps Python's
    last-resort handler from printing too.
    """
    path = client_log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    saved = root.level, logging.raiseExceptions
    aside = _terminal_handlers()
    for lg, h in aside:
        lg.removeHandler(h)
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    logging.captureWarnings(True)
    logging.raiseExceptions = False
    try:
        yield path
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        for lg, h in aside:
            lg.addHandler(h)
        root.setLevel(saved[0])
        logging.raiseExceptions = saved[1]
        handler.close()


class SeatApp:
    """The full-screen client for one seat."""

    def __init__(self, seat: Seat, *, host: PluginHost | None = None, input: Input | None = None,
                 output: Output | None = None, invite: bool = True) -> None:
        self.seat = seat
        plugins = host or PluginHost()  # loaded once, for the UI object and the bots
        self.ui = ClientUI(load_ui(plugins, seat.ruleset))
        self.state = SeatState(seat, self.ui, invalidate=self._invalidate, invite=invite)
        self.filters = build_filters(self.state)
        layout, self.panes = build_layout(self.state, self.filters, self.click)
        # Who left the table and what it can do now (a box over the table, its own keys).
        self.departure = DeparturePrompt(self.state, bots=installed_bots(
            plugins, seat.ruleset.spec.name))
        layout.container.floats.append(self.departure.float())  # type: ignore[attr-defined]
        self.app: Application[int] = Application(
            layout=layout,
            key_bindings=merge_key_bindings([
                build_key_bindings(self.state, self.filters, self.leave),
                self.departure.key_bindings()]),
            style=STYLE,
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
            before_render=lambda _: self.state.refresh(),
        )
        self.app.ttimeoutlen = 0.05  # Esc alone acts at once

    def _invalidate(self) -> None:
        if self.app.is_running:
            self.app.invalidate()

    def click(self, target: Target) -> None:
        """A click on a drawn target (a card, a cell, ...)."""
        if not self.filters.choosing():
            return
        self.state.message = None
        self.state.follow_cursor()
        if self.state.picker.point_at(target) == "confirm":
            self.state.confirm()
        self._invalidate()

    def leave(self) -> None:
        """Close the client (the caller closes the seat)."""
        if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
            self.app.exit(result=0)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        log.error("unhandled error in the event loop: %s", context.get("message"), exc_info=exc)
        self.state.say(f"Error: {exc or context.get('message')} (details in {client_log_path()})")
        self._invalidate()

    async def run(self) -> int:
        """Run until the player leaves; the exit status."""
        loop = asyncio.get_running_loop()
        previous = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        try:
            with logging_to_file():
                return await self.app.run_async(set_exception_handler=False) or 0
        finally:
            loop.set_exception_handler(previous)


async def run_seat(seat: Seat, *, host: PluginHost | None = None, input: Input | None = None,
                   output: Output | None = None, invite: bool = True) -> int:
    """Run the seat client on ``seat`` until the player leaves; returns the exit status.

    Call it on the loop that runs the seat's peer.  It does not close the seat: whoever
    opened it closes it afterwards.  ``host`` gives the game's UI object (a new `PluginHost`
    when omitted); ``input`` and ``output`` default to the terminal (tests pass a pipe
    input and a dummy output).  ``invite=False`` says that the other seats are this
    program's own bots (``hedgerow play``): the seating screen then tells nobody how to
    join.
    """
    return await SeatApp(seat, host=host, input=input, output=output, invite=invite).run()
