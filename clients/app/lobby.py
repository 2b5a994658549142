"""The lobby: tables on the LAN, a form to create one, and the seating room before play.

Three screens in one application:

* **Tables** — every open table LAN discovery sees (name, game, variants, free seats,
  host); Enter joins the selected one, ``c`` creates a table, ``a`` joins by address.
* **Create** — game, variants, seats, and for every other seat: left open for a person or
  a bot (which strategy); the table's name.  Enter opens the table.
* **Seating** — who is seated and how their link is, until every seat is taken and the
  table starts; the host can fill the open seats with bots (``f``).  When play begins the
  lobby hands the seat to the table screen (`run_seat`).

The network is reached through a `Backend` (`NetBackend`: `hedgerow.net.launch` and
`hedgerow.net.discovery`), so tests can drive the lobby with a backend of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import FormattedTextControl, HSplit, Layout, Window
from prompt_toolkit.output import Output

from hedgerow.clients.app.application import logging_to_file, run_seat
from hedgerow.clients.app.render import LINK_WORDS, wrap
from hedgerow.clients.app.style import STYLE
from hedgerow.core.errors import HedgerowError
from hedgerow.core.host import Host
from hedgerow.net.seat import Link, Phase, Seat

log = logging.getLogger("hedgerow.client")

TABLES, CREATE, ADDRESS, SEATING = "tables", "create", "address", "seating"
OPEN = "open seat"


class Backend(Protocol):
    """What the lobby needs from the network."""

    def tables(self) -> Sequence[Any]:
        """The open tables seen on the LAN (`hedgerow.net.discovery.TableAd`)."""

    async def start(self, changed: Callable[[], None]) -> None:
        """Start looking for tables; call ``changed()`` when the list changes."""

    async def create(self, ruleset: Any, players: int, *, name: str, seat_name: str) -> Seat:
        """Open a table and take seat 0."""

    async def join(self, address: str, *, seat_name: str) -> Seat:
        """Take a seat at the table at ``address``."""

    def add_bots(self, seat: Seat, strategies: Sequence[str]) -> None:
        """Start bot peers that join ``seat``'s table."""

    async def close(self) -> None:
        """Stop looking and stop every bot started here."""


class NetBackend:
    """The real network: `hedgerow.net.launch` and LAN discovery."""

    def __init__(self) -> None:
        self._browser: Any = None
        self._procs: list[Any] = []
        self._bots = 0

    def tables(self) -> Sequence[Any]:
        """Tables seen so far."""
        return self._browser.tables() if self._browser is not None else []

    async def start(self, changed: Callable[[], None]) -> None:
        """Browse the LAN (quietly does nothing when discovery is off or impossible)."""
        from hedgerow.net.discovery import Browser

        browser = Browser()
        try:
            await browser.start()
        except HedgerowError as exc:
            log.warning("%s", exc)
            return
        browser.on_change(lambda _tables: changed())
        self._browser = browser

    async def create(self, ruleset: Any, players: int, *, name: str, seat_name: str) -> Seat:
        """Open a table on every interface, announced on the LAN."""
        from hedgerow.net.launch import host_table

        return await host_table(ruleset, players, name=name, bind="0.0.0.0",
                                seat_name=seat_name)

    async def join(self, address: str, *, seat_name: str) -> Seat:
        """Join by address (``HOST:PORT/KEY``)."""
        from hedgerow.net.launch import join_table

        return await join_table(address, seat_name=seat_name)

    def add_bots(self, seat: Seat, strategies: Sequence[str]) -> None:
        """Bot peer processes that join the table, each with an identity of its own.

        `spawn_bot_peers` numbers the bots of one call from 1 (their key files and names),
        so bots added later get their number passed explicitly: two bots with one identity
        would take one seat.
        """
        from hedgerow.clients.spawn import bot_key_file, spawn_bot_peers

        address = getattr(seat, "address", "")  # a peer's (`Seat` does not promise one)
        if not address:
            raise HedgerowError("this seat has no address for bots to join")
        for strategy in strategies:
            self._bots += 1
            n = self._bots
            self._procs += spawn_bot_peers(address, [strategy], extra_args=[
                "--key-file", str(bot_key_file(n)), "--name", f"{strategy} bot {n}"])

    async def close(self) -> None:
        """Stop browsing and stop the bots."""
        if self._browser is not None:
            await self._browser.close()
        from hedgerow.clients.spawn import stop_processes

        stop_processes(self._procs)
        self._procs = []


@dataclass(slots=True)
class Form:
    """The create-a-table form."""

    games: list[str]
    game: int = 0
    chosen: dict[str, set[str]] = field(default_factory=dict)  # variants chosen, per game
    variant: int = 0  # the variant under the cursor
    players: int = 2
    seats: list[str] = field(default_factory=list)  # seat 1.. : OPEN or a bot name
    name: str = ""
    row: int = 0


class Lobby:
    """The lobby's state and screens."""

    def __init__(self, host: Host, backend: Backend, *, seat_name: str, game: str | None = None,
                 variants: Sequence[str] = (), players: int | None = None,
                 screen: str = TABLES) -> None:
        self.host = host
        self.backend = backend
        self.seat_name = seat_name
        self.screen = screen
        self.selected = 0
        self.message: str | None = None
        self.address = ""
        self.seat: Seat | None = None
        self.busy = False
        games = sorted(host.games)
        if not games:
            raise HedgerowError("no game is installed (see: hedgerow games)")
        self.form = Form(games)
        if game is not None:
            host.game(game)  # a clear error for an unknown game
            self.form.game = games.index(game)
            self.form.chosen[game] = set(variants)
        self._reset_players(players)
        self.app: Application[Seat | None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # -- the form ---------------------------------------------------------------------------

    @property
    def game(self) -> str:
        """The game chosen in the form."""
        return self.form.games[self.form.game]

    def variants(self) -> list[str]:
        """The installed variants of the chosen game."""
        return [v.name for v in self.host.variants_of(self.game)]

    def bots(self) -> list[str]:
        """The bots that can play the chosen game."""
        return sorted(b.name for b in self.host.bots.values() if b.plays(self.game))

    def _reset_players(self, players: int | None = None) -> None:
        spec = self.host.game(self.game)
        f = self.form
        f.players = players or spec.players_default
        bots = self.bots()
        f.seats = [bots[0] if bots else OPEN for _ in range(1, f.players)]
        f.name = f"{self.seat_name}'s {spec.title}"
        f.variant = 0

    def form_rows(self) -> list[str]:
        """The form's rows: game, variants, players, one per other seat, name."""
        return ["game", "variants", "players", *[f"seat {i}" for i in range(1, self.form.players)],
                "name"]

    def change(self, step: int) -> None:
        """←/→ on the current row of the form."""
        f = self.form
        row = self.form_rows()[f.row]
        if row == "game":
            f.game = (f.game + step) % len(f.games)
            self._reset_players()
        elif row == "variants":
            names = self.variants()
            if names:
                f.variant = (f.variant + step) % len(names)
        elif row == "players":
            spec = self.host.game(self.game)
            n = max(spec.min_players, min(spec.max_players, f.players + step))
            f.seats = (f.seats + [f.seats[-1] if f.seats else OPEN] * n)[: n - 1]
            f.players = n
        elif row.startswith("seat "):
            choices = [OPEN, *self.bots()]
            i = int(row.split()[1]) - 1
            f.seats[i] = choices[(choices.index(f.seats[i]) + step) % len(choices)]

    def toggle(self) -> None:
        """Space: choose or drop the variant under the cursor."""
        names = self.variants()
        if self.form_rows()[self.form.row] != "variants" or not names:
            return
        chosen = self.form.chosen.setdefault(self.game, set())
        chosen ^= {names[self.form.variant]}

    def ruleset(self) -> Any:
        """The rules the form describes (a `HedgerowError` says what is wrong)."""
        return self.host.ruleset(self.game, sorted(self.form.chosen.get(self.game, ())),
                                 players=self.form.players)

    # -- actions ----------------------------------------------------------------------------

    def run_task(self, coro: Any) -> None:
        """Run ``coro`` in the background; its errors become the lobby's message."""
        async def guarded() -> None:
            self.busy = True
            try:
                await coro
            except HedgerowError as exc:
                self.message = exc.message
            except Exception as exc:
                log.exception("lobby action failed")
                self.message = f"That did not work: {exc}"
            finally:
                self.busy = False
                self.invalidate()

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def create(self) -> None:
        """Open the table the form describes, start its bots, and wait in the seating room."""
        ruleset = self.ruleset()
        name = self.form.name.strip() or f"{self.seat_name}'s table"
        self.message = "Opening the table…"
        seat = await self.backend.create(ruleset, self.form.players, name=name,
                                         seat_name=self.seat_name)
        self._seated(seat)
        bots = [b for b in self.form.seats if b != OPEN]
        if bots:
            self.backend.add_bots(seat, bots)

    async def join(self, address: str) -> None:
        """Take a seat at the table at ``address`` and wait in the seating room."""
        self.message = f"Joining {address}…"
        seat = await self.backend.join(address, seat_name=self.seat_name)
        self._seated(seat)

    def fill_with_bots(self) -> None:
        """The host's ``f``: a bot in every seat still open."""
        seat = self.seat
        if seat is None or seat.seat != 0:
            self.message = "Only the host can add bots."
            return
        free = sum(1 for i in seat.seats() if i.link == Link.WAITING)
        bots = self.bots()
        if free <= 0 or not bots:
            self.message = "There is no open seat to fill."
            return
        self.backend.add_bots(seat, [bots[0]] * free)
        self.message = f"Starting {free} bot(s)…"

    def _seated(self, seat: Seat) -> None:
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
        """The current screen's body."""
        try:
            return {TABLES: self._draw_tables, CREATE: self._draw_create,
                    ADDRESS: self._draw_address, SEATING: self._draw_seating}[self.screen]()
        except Exception:
            log.exception("drawing the lobby failed")
            return [("class:error", "(could not draw the lobby; see the log file)")]

    def _draw_tables(self) -> StyleAndTextTuples:
        tables = list(self.backend.tables())
        out: StyleAndTextTuples = [("class:heading", "Tables on the LAN"), ("", "\n\n")]
        if not tables:
            width = get_app().output.get_size().columns
            out.append(("class:dim", wrap("No open table seen yet (looking…).  Press c to "
                                          "create one, or a to join by address.", width) + "\n"))
        head = f"  {'NAME':<22} {'GAME':<10} {'VARIANTS':<12} {'SEATS':<9} HOST\n"
        if tables:
            out.append(("bold", head))
        self.selected = min(self.selected, max(0, len(tables) - 1))
        for i, t in enumerate(tables):
            variants = (",".join(t.variants) or "-")[:12]
            seats = f"{t.free_seats}/{t.seats} free"
            line = (f"  {t.name[:22]:<22} {t.game[:10]:<10} {variants:<12} {seats:<9} "
                    f"{t.address}\n")
            out.append(("class:menu.current" if i == self.selected else "", line))
        return out

    def _draw_create(self) -> StyleAndTextTuples:
        f = self.form
        spec = self.host.game(self.game)
        out: StyleAndTextTuples = [("class:heading", "Create a table"), ("", "\n\n")]
        chosen = self.form.chosen.get(self.game, set())
        for i, row in enumerate(self.form_rows()):
            current = i == f.row
            out.append(("class:turn" if current else "", "▶ " if current else "  "))
            out.append(("bold", f"{row.capitalize():<10}"))
            if row == "game":
                value: StyleAndTextTuples = [("", f"◀ {spec.title} ▶")]
            elif row == "variants":
                names = self.variants()
                value = [("class:dim", "none installed")] if not names else []
                for j, v in enumerate(names):
                    mark = "[x]" if v in chosen else "[ ]"
                    style = "class:menu.current" if current and j == f.variant else ""
                    value += [(style, f"{mark} {v}"), ("", "  ")]
            elif row == "players":
                value = [("", f"◀ {f.players} ▶  "),
                         ("class:dim", f"{spec.min_players}-{spec.max_players} players")]
            elif row == "name":
                value = [("", f.name), ("class:turn" if current else "", "▏" if current else "")]
            else:
                who = f.seats[int(row.split()[1]) - 1]
                value = [("", f"◀ {who if who == OPEN else 'bot: ' + who} ▶")]
            out += [*value, ("", "\n")]
        width = get_app().output.get_size().columns
        out += [("", "\n"), ("class:dim", wrap(spec.summary, width)), ("", "\n\n"),
                ("class:dim", wrap("Seat 0 is you.  An open seat waits for a person (hedgerow "
                                   "join); a bot seat starts a bot peer on this machine.", width))]
        return out

    def _draw_address(self) -> StyleAndTextTuples:
        return [("class:heading", "Join by address"), ("", "\n\n"),
                ("", "Address (HOST:PORT/KEY, as hedgerow host prints it):\n\n  "),
                ("bold", self.address), ("class:turn", "▏")]

    def _draw_seating(self) -> StyleAndTextTuples:
        seat = self.seat
        if seat is None:
            return []
        out: StyleAndTextTuples = [("class:heading", "Seating"), ("", "\n\n")]
        rules = seat.ruleset
        out.append(("", f"{rules.game.title}{''.join(' + ' + v for v in rules.variant_names)}"
                        f", {seat.players} players.  "))
        address = getattr(seat, "address", "")
        if address:
            out += [("", "Others join with:\n  "), ("bold", f"hedgerow join {address}"),
                    ("", "\n\n")]
        infos = {i.seat: i for i in seat.seats()}
        for s in range(seat.players):
            info = infos.get(s)
            if info is None:
                out += [("", f"  seat {s}  "), ("class:link.waiting", "open"), ("", "\n")]
                continue
            word = LINK_WORDS.get(info.link, info.link.value)
            bot = " (bot)" if info.bot else ""
            out += [("", f"  seat {s}  {info.name or '(open)'}{bot}  "),
                    (f"class:link.{info.link.value}", word), ("", "\n")]
        phase = seat.phase()
        out.append(("", "\n"))
        if phase == Phase.SEEDING:
            out.append(("class:prompt", "Every seat is taken: agreeing on the deal…"))
        elif phase == Phase.HALTED:
            out.append(("class:error", f"The table stopped: {seat.problem()}"))
        else:
            out.append(("class:dim", "The game starts as soon as every seat is taken."))
        return out

    def on_screen(self, screen: str) -> Condition:
        """A filter: the lobby shows ``screen``."""
        return Condition(lambda: self.screen == screen)

    def keys_line(self) -> StyleAndTextTuples:
        """The keys that work on this screen."""
        keys = {
            TABLES: [("↑↓", "choose"), ("Enter", "join"), ("c", "create"), ("a", "address"),
                     ("q", "quit")],
            CREATE: [("↑↓", "row"), ("←→", "change"), ("Space", "variant"), ("Enter", "open"),
                     ("Esc", "back")],
            ADDRESS: [("Enter", "join"), ("Esc", "back")],
            SEATING: [("f", "fill with bots"), ("q", "leave")] if self.seat and self.seat.seat == 0
            else [("q", "leave")],
        }[self.screen]
        out: StyleAndTextTuples = []
        for key, what in keys:
            out += [("class:status.key", f" {key} "), ("class:status", f" {what}  ")]
        return out

    def status(self) -> StyleAndTextTuples:
        """The message line."""
        if self.message:
            return [("class:message", self.message)]
        return [("class:dim", "Working…" if self.busy else "")]

    # -- the application --------------------------------------------------------------------

    def build(self, input: Input | None, output: Output | None) -> Application[Seat | None]:
        """The lobby application; its result is the seat to play, or None."""
        kb = KeyBindings()
        on = {s: self.on_screen(s) for s in (TABLES, CREATE, ADDRESS, SEATING)}

        def handle(*keys: str, screen: str, **kw: Any,
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
                kb.add(*keys, filter=on[screen], **kw)(handler)
                return fn
            return register

        def leave() -> None:
            assert self.app is not None
            self.app.exit(result=None)

        @handle("up", screen=TABLES)
        def _up() -> None:
            self.selected = max(0, self.selected - 1)

        @handle("down", screen=TABLES)
        def _down() -> None:
            self.selected += 1

        @handle("enter", screen=TABLES)
        def _join() -> None:
            tables = list(self.backend.tables())
            if not tables:
                self.message = "No table to join yet: press c to create one."
                return
            t = tables[min(self.selected, len(tables) - 1)]
            if t.free_seats <= 0:
                self.message = f"{t.name} has no free seat."
                return
            self.run_task(self.join(f"{t.address}/{t.host_key}"))

        @handle("c", screen=TABLES)
        def _create() -> None:
            self.screen = CREATE

        @handle("a", screen=TABLES)
        def _address() -> None:
            self.screen = ADDRESS

        @handle("q", screen=TABLES)
        @handle("c-c", screen=TABLES)
        def _quit() -> None:
            leave()

        @handle("up", screen=CREATE)
        def _row_up() -> None:
            self.form.row = max(0, self.form.row - 1)

        @handle("down", screen=CREATE)
        @handle("tab", screen=CREATE)
        def _row_down() -> None:
            self.form.row = min(len(self.form_rows()) - 1, self.form.row + 1)

        @handle("left", screen=CREATE)
        def _left() -> None:
            self.change(-1)

        @handle("right", screen=CREATE)
        def _right() -> None:
            self.change(1)

        @handle(" ", screen=CREATE)
        def _space() -> None:
            if self.form_rows()[self.form.row] == "name":
                self.form.name += " "
            else:
                self.toggle()

        @handle("enter", screen=CREATE)
        def _open() -> None:
            self.ruleset()  # refuse a bad form at once, with the reason
            if not self.busy:
                self.run_task(self.create())

        @handle("escape", screen=CREATE, eager=True)
        def _back() -> None:
            self.screen = TABLES

        @handle("escape", screen=ADDRESS, eager=True)
        def _back_from_address() -> None:
            self.screen = TABLES

        @handle("enter", screen=ADDRESS)
        def _join_address() -> None:
            if self.address.strip() and not self.busy:
                self.run_task(self.join(self.address.strip()))

        @handle("f", screen=SEATING)
        def _fill() -> None:
            self.fill_with_bots()

        @handle("q", screen=SEATING)
        @handle("c-c", screen=SEATING)
        def _leave_table() -> None:
            leave()

        typing = on[CREATE] & Condition(lambda: self.form_rows()[self.form.row] == "name")

        @kb.add(Keys.Any, filter=typing | on[ADDRESS])
        def _text(event: KeyPressEvent) -> None:
            if self.screen == ADDRESS:
                self.address += event.data
            else:
                self.form.name = (self.form.name + event.data)[:40]

        @kb.add("backspace", filter=typing | on[ADDRESS])
        def _backspace(event: KeyPressEvent) -> None:
            if self.screen == ADDRESS:
                self.address = self.address[:-1]
            else:
                self.form.name = self.form.name[:-1]

        def title() -> StyleAndTextTuples:
            width = get_app().output.get_size().columns
            text = " Hedgerow · lobby "
            return [("class:title", text.ljust(width))]

        body = HSplit([
            Window(FormattedTextControl(title), height=1),
            Window(height=1),
            Window(FormattedTextControl(self.draw), wrap_lines=True),
            Window(FormattedTextControl(self.status), height=1),
            Window(FormattedTextControl(self.keys_line), height=1, style="class:status"),
        ])
        app: Application[Seat | None] = Application(
            layout=Layout(body), key_bindings=kb, style=STYLE, full_screen=True,
            mouse_support=False, input=input, output=output)
        app.ttimeoutlen = 0.05
        self.app = app
        return app


async def run_lobby(host: Host | None = None, *, game: str | None = None,
                    variants: Sequence[str] = (), players: int | None = None,
                    seat_name: str | None = None, seat: Seat | None = None,
                    backend: Backend | None = None, input: Input | None = None,
                    output: Output | None = None) -> int:
    """The lobby, then the table screen for the seat taken there; the exit status.

    Without arguments it opens on the list of tables on the LAN (``hedgerow join`` without
    an address).  With ``game`` it opens on the create form, filled in with ``game``,
    ``variants`` and ``players``.  With ``seat`` (a table already opened, e.g. by
    ``hedgerow host GAME``) it opens in that table's seating room, where the host can fill
    the open seats with bots.  Every table, bot and socket opened here, and ``seat``, is
    closed before it returns.
    """
    host = host or Host()
    backend = backend or NetBackend()
    name = seat_name or os.environ.get("USER") or "Player"
    lobby = Lobby(host, backend, seat_name=name, game=game, variants=variants, players=players,
                  screen=CREATE if game else TABLES)
    app = lobby.build(input, output)
    if seat is not None:
        lobby._seated(seat)
        if seat.phase() not in (Phase.SEATING, Phase.SEEDING):  # already playing
            return await _play(seat, host, backend, input, output)
    try:
        with logging_to_file():
            await backend.start(lobby.invalidate)
            seat = await app.run_async()
    except BaseException:
        await _close(lobby.seat, backend)
        raise
    if seat is None:
        await _close(lobby.seat, backend)
        return 0
    return await _play(seat, host, backend, input, output)


async def _play(seat: Seat, host: Host, backend: Backend, input: Input | None,
                output: Output | None) -> int:
    """The table screen for ``seat``, then everything closed."""
    try:
        return await run_seat(seat, host=host, input=input, output=output)
    finally:
        await _close(seat, backend)


async def _close(seat: Seat | None, backend: Backend) -> None:
    if seat is not None:
        with contextlib.suppress(Exception):
            await seat.close()
    await backend.close()
