"""What the client's full-screen programs share: the seat client and the replay viewer.

Both draw the whole terminal over a `SeatState` (`FullScreen`): a prompt_toolkit
`Application` on the caller's asyncio loop, which leaves with status 0, and while it runs
every log record of the process goes to ``client.log`` under the data directory
(`logging_to_file`: a line printed on the terminal would scribble over the screen) and an
unhandled error in the loop shows as one line, never a traceback.
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
from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import Output
from prompt_toolkit.styles import BaseStyle

from hedgerow.clients.app.state import SeatState
from hedgerow.core.datadir import data_dir

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
        with contextlib.suppress(OSError):  # (a full disk: what it kept is kept)
            handler.close()


class FullScreen:
    """A full-screen program over a `SeatState` (see the module docstring): a subclass sets
    ``state`` and calls `build` with its screen, keys and style."""

    state: SeatState
    app: Application[int]

    def build(self, layout: Layout, key_bindings: KeyBindingsBase, style: BaseStyle, *,
              input: Input | None, output: Output | None) -> None:
        """Make the application: the state refreshed before each redraw, the mouse on."""
        self.app = Application(
            layout=layout,
            key_bindings=key_bindings,
            style=style,
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
            before_render=lambda _: self.state.refresh(),
        )
        self.app.ttimeoutlen = 0.05  # Esc alone acts at once

    def _invalidate(self) -> None:
        if hasattr(self, "app") and self.app.is_running:
            self.app.invalidate()

    def leave(self) -> None:
        """Close the program (the caller closes what it opened)."""
        if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
            self.app.exit(result=0)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        log.error("unhandled error in the event loop: %s", context.get("message"), exc_info=exc)
        self.state.say(f"Error: {exc or context.get('message')} (details in {client_log_path()})")
        self._invalidate()

    async def run(self) -> int:
        """Run until it is left; the exit status."""
        loop = asyncio.get_running_loop()
        previous = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        try:
            with logging_to_file():
                return await self.app.run_async(set_exception_handler=False) or 0
        finally:
            loop.set_exception_handler(previous)
