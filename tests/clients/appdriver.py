"""Driving the real seat client application from a test: pipe input, dummy output, waits.

`Driver` runs `SeatApp` (or the replay viewer: any `FullScreen`) on the test's event loop
with ``create_pipe_input()`` and ``DummyOutput()``, sends keys, and waits on conditions
with a timeout (never a bare sleep).
`screen_text` renders the table screen's panes as plain text at a given size.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from hedgerow.clients.app.application import SeatApp
from hedgerow.clients.app.fullscreen import FullScreen
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ui import Target
from hedgerow.net.seat import Seat

KEYS = {"enter": "\r", "esc": "\x1b", "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C",
        "left": "\x1b[D"}


class SizedOutput(DummyOutput):
    """A dummy output that says it is ``rows`` x ``columns``."""

    def __init__(self, rows: int = 24, columns: int = 80) -> None:
        super().__init__()
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


class Driver:
    """One running client and the pipe that types into it."""

    def __init__(self, app: FullScreen, pipe) -> None:
        self.app = app
        self.state = app.state
        self.pipe = pipe
        self.task: asyncio.Task[int] | None = None

    def press(self, *keys: str) -> None:
        """Type keys: names from `KEYS` or literal text."""
        for key in keys:
            self.pipe.send_text(KEYS.get(key, key))

    async def until(self, condition: Callable[[], bool], timeout: float = 10.0,
                    what: str = "condition") -> None:
        """Wait until ``condition()`` holds (checked as the loop runs), or fail."""
        deadline = time.monotonic() + timeout
        while not condition():
            if self.task is not None and self.task.done():
                self.task.result()
                raise AssertionError(f"the application ended while waiting for {what}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            await asyncio.sleep(0.005)

    def progress(self) -> tuple[object, ...]:
        """Something that changes whenever a key or the table moved the client on."""
        s = self.state
        p = s.picker
        return (len(s.lines), p.kind, p.step, p.menu_index, p.cursor, p.free,
                tuple(p.selection), tuple(sorted(p.cycles.items())), s.screen, s.overlay,
                s.busy, s.outcome is not None)


@contextlib.asynccontextmanager
async def running(seat: Seat, plugins: PluginHost, *, rows: int = 24, columns: int = 80,
                  invite: bool = True) -> AsyncIterator[Driver]:
    """Run the client on ``seat`` for the body of the ``async with``; quit it afterwards."""
    with create_pipe_input() as pipe:
        app = SeatApp(seat, plugins=plugins, input=pipe, output=SizedOutput(rows, columns),
                      invite=invite)
        async with driving(app, pipe) as driver:
            yield driver


@contextlib.asynccontextmanager
async def driving(app: FullScreen, pipe) -> AsyncIterator[Driver]:
    """Run ``app`` (made with ``pipe`` as its input) for the body of the ``async with``;
    leave it afterwards."""
    driver = Driver(app, pipe)
    driver.task = asyncio.get_running_loop().create_task(app.run())
    await driver.until(lambda: app.app.is_running, what="the application to start")
    try:
        yield driver
    finally:
        if not driver.task.done():
            app.leave()
        await asyncio.wait_for(driver.task, 10)


async def play_to_the_end(driver: Driver, timeout: float = 40.0) -> int:
    """Press Enter whenever it is our turn (the previewed move, or the first menu line)
    until the game is over; returns how many times we pressed."""
    state = driver.state
    presses = 0
    deadline = time.monotonic() + timeout
    while state.outcome is None:
        assert time.monotonic() < deadline, "the game did not end in time"
        await driver.until(lambda: state.my_turn or state.outcome is not None,
                           timeout=15, what="our turn or the end")
        if state.outcome is not None:
            break
        before = driver.progress()
        driver.press("enter")
        presses += 1
        await driver.until(lambda before=before: driver.progress() != before,
                           timeout=10, what="the Enter key to take effect")
    return presses


def screen_text(fragments) -> str:
    """Plain text of formatted-text fragments."""
    return "".join(f[1] for f in fragments)


def screen_lines(driver: Driver) -> list[str]:
    """The rows of the last screen the application drew, as text (what a terminal shows)."""
    screen = driver.app.app.renderer._last_screen  # the renderer keeps the last full screen
    assert screen is not None, "nothing was drawn yet"
    size = driver.app.app.output.get_size()
    rows = []
    for y in range(size.rows):
        line = screen.data_buffer[y]
        rows.append("".join(line[x].char for x in range(size.columns)).rstrip())
    return rows


async def drawn(driver: Driver, condition: Callable[[list[str]], bool], timeout: float = 10.0,
                what: str = "the screen") -> list[str]:
    """Wait until the drawn screen satisfies ``condition``; the screen's rows."""
    found: list[list[str]] = []

    def check() -> bool:
        if driver.app.app.renderer._last_screen is None:
            return False
        found[:] = [screen_lines(driver)]
        return condition(found[0])

    await driver.until(check, timeout, what)
    return found[0]


def click(driver: Driver, pane: str, target: Target) -> None:
    """Click (press and release, SGR mouse codes) where ``target`` was drawn in ``pane``."""
    state = driver.state
    drawn_in = state.board if pane == "board" else state.hand
    row, col = drawn_in.positions[target]
    info = driver.app.panes[pane].render_info
    assert info is not None, f"the {pane} was not drawn"
    y = info._y_offset + row - info.vertical_scroll
    x = info._x_offset + col - driver.app.panes[pane].horizontal_scroll
    assert 0 <= y < info.window_height + info._y_offset, f"{target} is scrolled out of view"
    driver.pipe.send_text(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
