"""Building and running the replay viewer: one `Application` over one `Film`.

`WatchApp` wires this package's state, panes and key bindings into the seat client's
screen (`hedgerow.clients.app.layout.build_layout`, its filters and style) and runs it on
the caller's asyncio loop.  As the seat client does, it sends every log record of the
process to ``client.log`` meanwhile (`logging_to_file`) and shows an error in the loop as
one line, never a traceback.  While the film runs by itself (Space) a task steps it every
`PLAY_EVERY` seconds.

`watch_after_game` is what a finished game's results screen offers (``w``): once the seat
client has closed, the table's log opens in the viewer, as the player who wrote it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style, merge_styles

from hedgerow.clients.app.filters import build_filters
from hedgerow.clients.app.fullscreen import FullScreen
from hedgerow.clients.app.gameui import ClientUI, load_ui
from hedgerow.clients.app.layout import build_layout
from hedgerow.clients.app.style import STYLE
from hedgerow.clients.watch.film import Film, load_film
from hedgerow.clients.watch.keys import build_key_bindings
from hedgerow.clients.watch.render import watch_panes
from hedgerow.clients.watch.state import PLAY_EVERY, WatchState
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ui import Target
from hedgerow.net.seat import Seat

log = logging.getLogger("hedgerow.client")

#: The viewer's own classes: the entry shown, in the log.
WATCH_STYLE = Style.from_dict({"log.current": "bg:#5f005f bold"})


class WatchApp(FullScreen):
    """The full-screen replay viewer of one film."""

    def __init__(self, film: Film, *, seat: int = 0, plugins: PluginHost | None = None,
                 input: Input | None = None, output: Output | None = None) -> None:
        self.film = film
        self.ui = ClientUI(load_ui(plugins or PluginHost(), film.ruleset))
        self.watch = WatchState(film, self.ui, seat=seat, invalidate=self._invalidate)
        self.state = self.watch.table
        self.filters = build_filters(self.state)
        layout, self.panes = build_layout(self.state, self.filters, self.click,
                                          watch_panes(self.watch))
        self.build(layout, build_key_bindings(self.watch, self.filters, self.leave),
                   merge_styles([STYLE, WATCH_STYLE]), input=input, output=output)

    def click(self, target: Target) -> None:
        """A click on a drawn piece reads it in full, where the game gives details."""
        text = self.ui.details(self.state.view, self.watch.watching, target)
        if text is not None:
            self.state.say(text)
            self._invalidate()

    async def _play(self) -> None:
        """Step the film while it plays by itself."""
        while True:
            await asyncio.sleep(PLAY_EVERY)
            if self.watch.playing:
                self.watch.tick()
                self._invalidate()

    async def run(self) -> int:
        """Run until the viewer leaves (the film stepping meanwhile while it plays)."""
        player = asyncio.get_running_loop().create_task(self._play())
        try:
            return await super().run()
        finally:
            player.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await player


async def run_watch(film: Film, *, seat: int = 0, plugins: PluginHost | None = None,
                    input: Input | None = None, output: Output | None = None) -> int:
    """Run the replay viewer on ``film``, through ``seat``'s eyes, until it is left."""
    return await WatchApp(film, seat=seat, plugins=plugins, input=input, output=output).run()


#: How long the viewer waits, after a sealed game, for the last secrets to reach the log.
DISCLOSED_WAIT = 10.0


async def watch_after_game(table: Seat, path: Path, *, plugins: PluginHost | None = None,
                           input: Input | None = None, output: Output | None = None) -> int:
    """The replay of the game ``table`` just finished (its log at ``path``), as its player.

    At a sealed table every hand is shown once every seat's secret is in the log: the end
    of a game discloses them at once, so this waits for the table's verdict (up to
    `DISCLOSED_WAIT` seconds; the viewer says what it could not open if one is late)."""
    plugins = plugins or PluginHost()
    if table.sealed and table.verdict() is None:
        print("Opening the replay once every seat's secret is in the log (a few seconds at "
              "most)…", flush=True)
        await table.wait_until(lambda: table.verdict() is not None, DISCLOSED_WAIT)
    film = load_film(path, plugins)
    return await run_watch(film, seat=table.seat, plugins=plugins, input=input, output=output)
