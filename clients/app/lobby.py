"""The lobby: tables on the LAN, a form to create one, and the seating room before play.

One application, four screens, each in a module of its own:

* **Tables** (`lobby_tables`) — every open table LAN discovery sees (name, game, variants,
  deck, free seats, host); Enter joins the selected one, ``w`` watches it (the lobby closes
  and the table opens as a spectator sees it), ``c`` creates a table, ``a`` joins by
  address.
* **Address** (`lobby_address`) — join by the address ``hedgerow host`` printed.
* **Create** (`lobby_create`) — game, variants, seats, and for every other seat: left open
  for a person or a bot (which strategy); the deck (sealed, or open: a faster start for
  players who trust each other); the table's name.  Enter opens the table.
* **Seating** (`lobby_seating`) — the table's rules and deck, who is seated and how their
  link is, until every seat is taken and the table starts; the host can fill the open
  seats with bots (``f``).  When play begins the lobby hands the seat to the table screen
  (`run_seat`).

This module owns what they share: which screen shows, the message line, the keys, the
background tasks that open or join a table, and the hand-over.  A message belongs to the
screen it was said on (an error of a join that fails after the player moved on shows on
the tables screen, not on the form they are filling in) and is wrapped between words.
The network is reached through a `Backend` (`lobby_backend`), so tests can drive the
lobby with one of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition, FilterOrBool, to_filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    AnyContainer,
    Dimension,
    DynamicContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.output import Output

from hedgerow.clients.app.application import logging_to_file, run_seat
from hedgerow.clients.app.lobby_address import AddressScreen
from hedgerow.clients.app.lobby_backend import Backend, NetBackend
from hedgerow.clients.app.lobby_create import OPEN, CreateScreen
from hedgerow.clients.app.lobby_seating import SeatingScreen
from hedgerow.clients.app.lobby_tables import TablesScreen
from hedgerow.clients.app.render import wrap
from hedgerow.clients.app.style import STYLE
from hedgerow.core.botchoice import best_first
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.seat import Phase, Seat

__all__ = ["ADDRESS", "CREATE", "OPEN", "SEATING", "TABLES", "Backend", "LobbyScreen", "NetBackend",
           "run_lobby"]

log = logging.getLogger("hedgerow.client")

TABLES, CREATE, ADDRESS, SEATING = "tables", "create", "address", "seating"
MESSAGE_LINES = 3  # the most lines the message takes (a longer one ends with "…")


class LobbyScreen:
    """The lobby's shared state, its screens, and the application that shows them."""

    def __init__(self, plugins: PluginHost, backend: Backend, *, seat_name: str,
                 game: str | None = None, variants: Sequence[str] = (), players: int | None = None,
                 screen: str = TABLES) -> None:
        self.plugins = plugins
        self.backend = backend
        self.seat_name = seat_name
        self.screen = screen
        self._message: str | None = None
        self._message_on = screen  # the screen the message was said on
        self.seat: Seat | None = None
        self.watching: str | None = None  # the address of a table to watch, once chosen
        self.busy = False
        self.app: Application[Seat | None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.tables = TablesScreen(self)
        self.address = AddressScreen(self)
        self.create_form = CreateScreen(self, game=game, variants=variants, players=players)
        self.seating = SeatingScreen(self)

    @property
    def message(self) -> str | None:
        """The message line of the screen showing now (None: nothing to say)."""
        return self._message if self._message_on == self.screen else None

    @message.setter
    def message(self, text: str | None) -> None:
        self._say(text, self.screen)

    def _say(self, text: str | None, screen: str) -> None:
        self._message, self._message_on = text, screen

    def bots(self, game: str) -> list[str]:
        """The bots that can play ``game``, best first (the form's seats start on the first)."""
        return best_first(b.name for b in self.plugins.bots.values() if b.plays(game))

    def width(self) -> int:
        """The terminal's width, for wrapping."""
        return get_app().output.get_size().columns

    # -- actions ----------------------------------------------------------------------------

    def run_task(self, coro: Any) -> None:
        """Run ``coro`` in the background; its errors become the lobby's message."""
        origin = self.screen  # its outcome is said there, wherever the player is by then

        async def guarded() -> None:
            self.busy = True
            try:
                await coro
            except HedgerowError as exc:
                self._say(exc.message, origin)
            except Exception as exc:
                log.exception("lobby action failed")
                self._say(f"That did not work: {exc}", origin)
            finally:
                self.busy = False
                self.invalidate()

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def create(self) -> None:
        """Open the table the form describes, start its bots, and wait in the seating room."""
        form = self.create_form
        ruleset = form.ruleset()
        name = form.name.strip() or f"{self.seat_name}'s table"
        self.message = "Opening the table…"
        seat = await self.backend.create(ruleset, form.form.players, name=name,
                                         seat_name=self.seat_name, open_deck=form.open_deck,
                                         spectators=form.form.spectators)
        self.seated(seat)
        bots = [b for b in form.form.seats if b != OPEN]
        if bots:
            self.backend.add_bots(seat, bots)

    def watch(self, address: str) -> None:
        """Leave the lobby to watch the table at ``address`` (`run_lobby` opens it)."""
        self.watching = address
        assert self.app is not None
        self.app.exit(result=None)

    async def join(self, address: str) -> None:
        """Take a seat at the table at ``address`` and wait in the seating room."""
        self.message = f"Joining {address}…"
        seat = await self.backend.join(address, seat_name=self.seat_name)
        self.seated(seat)

    def seated(self, seat: Seat) -> None:
        """``seat`` is taken: the seating room, until play begins."""
        self.seat = seat
        self.screen = SEATING
        self.message = None
        seat.subscribe(self.seat_changed)
        self.seat_changed()

    def seat_changed(self) -> None:
        """The seat changed: once play begins, hand it over to the table screen."""
        seat = self.seat
        app = self.app
        playing = seat is not None and seat.phase() not in (Phase.SEATING, Phase.SEEDING)
        if playing and app is not None and app.is_running and not app.future.done():  # type: ignore[union-attr]
            app.exit(result=seat)
        self.invalidate()

    def invalidate(self) -> None:
        """Redraw soon."""
        if self.app is not None and self.app.is_running:
            self.app.invalidate()

    # -- drawing ----------------------------------------------------------------------------

    def draw(self) -> StyleAndTextTuples:
        """The current screen's drawn text (its text fields are widgets of their own)."""
        try:
            return {TABLES: self.tables.draw, CREATE: self.create_form.draw,
                    ADDRESS: self.address.draw, SEATING: self.seating.draw}[self.screen]()
        except Exception:
            log.exception("drawing the lobby failed")
            return [("class:error", "(could not draw the lobby; see the log file)")]

    def body(self) -> AnyContainer:
        """The current screen's container."""
        return {TABLES: self.tables.window, CREATE: self.create_form.container,
                ADDRESS: self.address.container, SEATING: self.seating.window}[self.screen]

    def focus(self) -> None:
        """Focus what takes the keys on the current screen (a text field, or the screen)."""
        if self.app is None:
            return
        if self.screen == ADDRESS:
            target: Any = self.address.field
        elif self.screen == CREATE:
            form = self.create_form
            target = form.name_field if form.on_name() else form.rows_window
        else:
            target = self.tables.window if self.screen == TABLES else self.seating.window
        if not self.app.layout.has_focus(target):
            self.app.layout.focus(target)

    def keys_line(self) -> StyleAndTextTuples:
        """The keys that work on this screen."""
        keys = {TABLES: self.tables.keys, CREATE: self.create_form.keys,
                ADDRESS: self.address.keys, SEATING: self.seating.keys}[self.screen]
        out: StyleAndTextTuples = []
        for key, what in keys:
            out += [("class:status.key", f" {key} "), ("class:status", f" {what}  ")]
        return out

    def status(self) -> StyleAndTextTuples:
        """The message, wrapped between words (at most `MESSAGE_LINES` lines)."""
        message = self.message
        if message:
            lines = wrap(message, max(8, self.width() - 1)).splitlines()
            if len(lines) > MESSAGE_LINES:
                lines = [*lines[:MESSAGE_LINES - 1], lines[MESSAGE_LINES - 1][:-1] + "…"]
            return [("class:message", "\n".join(lines))]
        return [("class:dim", "Working…" if self.busy else "")]

    def on_screen(self, screen: str) -> Condition:
        """A filter: the lobby shows ``screen``."""
        return Condition(lambda: self.screen == screen)

    # -- the application --------------------------------------------------------------------

    def key_bindings(self) -> KeyBindings:
        """Every screen's keys."""
        kb = KeyBindings()

        def handle(*keys: str, screen: str, filter: FilterOrBool = True, **kw: Any,
                   ) -> Callable[[Callable[[], None]], Callable[[], None]]:
            def register(fn: Callable[[], None]) -> Callable[[], None]:
                def handler(event: KeyPressEvent) -> None:
                    self.message = None
                    try:
                        fn()
                    except HedgerowError as exc:
                        self.message = exc.message
                    except Exception as exc:
                        log.exception("lobby key failed")
                        self.message = f"That did not work: {exc}"
                    self.focus()
                kb.add(*keys, filter=self.on_screen(screen) & to_filter(filter), **kw)(handler)
                return fn
            return register

        def leave() -> None:
            assert self.app is not None
            self.app.exit(result=None)

        def show(screen: str) -> Callable[[], None]:
            def go() -> None:
                self.screen = screen
            return go

        tables, form, address = self.tables, self.create_form, self.address
        handle("up", screen=TABLES)(tables.up)
        handle("down", screen=TABLES)(tables.down)
        handle("enter", screen=TABLES)(tables.join)
        handle("w", screen=TABLES)(tables.watch)
        handle("c", screen=TABLES)(show(CREATE))
        handle("a", screen=TABLES)(show(ADDRESS))
        handle("q", screen=TABLES)(leave)
        handle("c-c", screen=TABLES)(leave)

        handle("up", screen=CREATE)(lambda: form.move(-1))
        handle("down", screen=CREATE)(lambda: form.move(1))
        handle("tab", screen=CREATE)(lambda: form.move(1))
        handle("left", screen=CREATE)(lambda: form.change(-1))
        handle("right", screen=CREATE)(lambda: form.change(1))
        # on the name row, Space and every other key type into the name field
        handle(" ", screen=CREATE, filter=~Condition(form.on_name))(form.toggle)
        handle("enter", screen=CREATE)(form.open)
        handle("escape", screen=CREATE, eager=True)(show(TABLES))

        handle("enter", screen=ADDRESS)(address.join)
        handle("escape", screen=ADDRESS, eager=True)(show(TABLES))

        handle("f", screen=SEATING)(self.seating.fill_with_bots)
        handle("q", screen=SEATING)(leave)
        handle("c-c", screen=SEATING)(leave)
        return kb

    def build(self, input: Input | None, output: Output | None) -> Application[Seat | None]:
        """The lobby application; its result is the seat to play, or None."""
        def title() -> StyleAndTextTuples:
            return [("class:title", " Hedgerow · lobby ".ljust(self.width()))]

        body = HSplit([
            Window(FormattedTextControl(title), height=1),
            Window(height=1),
            DynamicContainer(self.body),
            Window(FormattedTextControl(self.status), height=Dimension(min=1, max=MESSAGE_LINES),
                   dont_extend_height=True),
            Window(FormattedTextControl(self.keys_line), height=1, style="class:status"),
        ])
        app: Application[Seat | None] = Application(
            layout=Layout(body), key_bindings=self.key_bindings(), style=STYLE,
            full_screen=True, mouse_support=False, input=input, output=output)
        app.ttimeoutlen = 0.05
        self.app = app
        self.focus()
        app.before_render += lambda _app: self.focus()  # a screen changed by a task
        return app


async def run_lobby(plugins: PluginHost | None = None, *, game: str | None = None,
                    variants: Sequence[str] = (), players: int | None = None,
                    seat_name: str | None = None, seat: Seat | None = None,
                    backend: Backend | None = None, input: Input | None = None,
                    output: Output | None = None,
                    closed: Callable[[Seat], None] | None = None,
                    watch: Callable[[str], Awaitable[int]] | None = None) -> int:
    """The lobby, then the table screen for the seat taken there; the exit status.

    Without arguments it opens on the list of tables on the LAN (``hedgerow join`` without
    an address).  With ``game`` it opens on the create form, filled in with ``game``,
    ``variants`` and ``players``.  With ``seat`` (a table already opened, e.g. by
    ``hedgerow host GAME``) it opens in that table's seating room, where the host can fill
    the open seats with bots.  Every table, bot and socket opened here, and ``seat``, is
    closed before it returns; ``closed(seat)`` is then called with a seat taken in the lobby
    (``hedgerow join`` prints how the table stands, as after any person's seat).  A table
    chosen to be watched (``w``) is handed to ``watch(address)`` once the lobby closed.
    """
    plugins = plugins or PluginHost()
    backend = backend or NetBackend()
    name = seat_name or os.environ.get("USER") or "Player"
    lobby = LobbyScreen(plugins, backend, seat_name=name, game=game, variants=variants,
                        players=players, screen=CREATE if game else TABLES)
    app = lobby.build(input, output)
    if seat is not None:
        lobby.seated(seat)
        if seat.phase() not in (Phase.SEATING, Phase.SEEDING):  # already playing
            return await _play(seat, plugins, backend, input, output)
    try:
        with logging_to_file():
            await backend.start(lobby.invalidate)
            seat = await app.run_async()
    except BaseException:
        await _close(lobby.seat, backend)
        raise
    if seat is None:
        await _close(lobby.seat, backend)
        if lobby.seat is not None and closed is not None:
            closed(lobby.seat)
        if lobby.watching is not None and watch is not None:
            return await watch(lobby.watching)
        return 0
    status = await _play(seat, plugins, backend, input, output)
    if closed is not None:
        closed(seat)
    return status


async def _play(seat: Seat, plugins: PluginHost, backend: Backend, input: Input | None,
                output: Output | None) -> int:
    """The table screen for ``seat``, then everything closed."""
    try:
        return await run_seat(seat, plugins=plugins, input=input, output=output)
    finally:
        await _close(seat, backend)


async def _close(seat: Seat | None, backend: Backend) -> None:
    if seat is not None:
        with contextlib.suppress(Exception):
            await seat.close()
    await backend.close()
