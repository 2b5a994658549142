"""The lobby: tables on the LAN, the create form, the seating room, then the table screen.

The network is a fake `Backend` here (the real one is `NetBackend`, over hedgerow.net):
tables are real `TableAd` records, and seats are `LocalSeat`s or a seat still seating.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from appdriver import KEYS, SizedOutput
from prompt_toolkit.input import create_pipe_input

from hedgerow.clients.app.lobby import CREATE, OPEN, SEATING, TABLES, LobbyScreen, run_lobby
from hedgerow.clients.app.local import LocalSeat
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.net.discovery import TableAd
from hedgerow.net.seat import Link, Phase, SeatInfo


class Seating:
    """A seat at a table still filling up; `start` turns it into a game."""

    def __init__(self, plugins: PluginHost, players: int = 2) -> None:
        self.seat, self.players = 1, players
        self.ruleset = plugins.ruleset("petals", players=players)
        self.address = "127.0.0.1:5555/KEY"
        self.is_host = False
        self.sealed = True
        self._phase = Phase.SEATING
        self._callbacks: list[Callable[[], None]] = []
        self.closed = False

    def phase(self) -> Phase:
        return self._phase

    def seats(self) -> Sequence[SeatInfo]:
        return [SeatInfo(0, "Host", Link.CONNECTED), SeatInfo(1, "Me", Link.YOU)]

    def problem(self) -> str | None:
        return None

    def host_gone(self) -> bool:
        return False

    def log_path(self) -> None:
        return None  # (no log before the seed is agreed)

    def subscribe(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def start(self) -> None:
        self._phase = Phase.PLAYING
        for callback in self._callbacks:
            callback()

    async def close(self) -> None:
        self.closed = True


class FakeBackend:
    def __init__(self, plugins: PluginHost, tables: Sequence[TableAd] = ()) -> None:
        self.plugins = plugins
        self._tables = list(tables)
        self.calls: list[tuple[Any, ...]] = []
        self.seat: Any = None
        self.closed = False

    def tables(self) -> Sequence[TableAd]:
        return self._tables

    async def start(self, changed: Callable[[], None]) -> None:
        self.calls.append(("start",))

    async def create(self, ruleset: Any, players: int, *, name: str, seat_name: str,
                     open_deck: bool = False, spectators: bool = True) -> Any:
        self.calls.append(("create", ruleset.fingerprint, players, name, seat_name, open_deck))
        self.spectators = spectators
        self.seat = LocalSeat(ruleset, players, seed_from_int(1),
                              bots=[self.plugins.bot("random")], name=seat_name)
        return self.seat

    async def join(self, address: str, *, seat_name: str) -> Any:
        self.calls.append(("join", address, seat_name))
        self.seat = Seating(self.plugins)
        return self.seat

    def add_bots(self, seat: Any, strategies: Sequence[str]) -> None:
        self.calls.append(("bots", list(strategies)))

    async def close(self) -> None:
        self.closed = True


def ad(name: str, free: int = 1) -> TableAd:
    return TableAd(name, "petals", ("harmony",), free, 2, 1, "KEY", "192.168.1.20", 5555)


def text(lobby: LobbyScreen) -> str:
    return "".join(t for _, t in lobby.draw())


async def until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def test_the_table_list_shows_every_table_and_joining_leads_to_the_seating_room() -> None:
    plugins = PluginHost(autoload=False)
    backend = FakeBackend(plugins, [ad("Ann's table"), ad("Full one", free=0)])

    async def main() -> None:
        lobby = LobbyScreen(plugins, backend, seat_name="Me")
        shown = text(lobby)
        assert "Ann's table" in shown and "harmony" in shown and "1/2 free" in shown
        assert "192.168.1.20:5555" in shown
        with create_pipe_input() as pipe:
            app = lobby.build(pipe, SizedOutput())
            task = asyncio.get_running_loop().create_task(app.run_async())
            await until(lambda: app.is_running, "the lobby")
            pipe.send_text(KEYS["down"] + KEYS["enter"])
            await until(lambda: lobby.message is not None, "a refusal")
            assert "no free seat" in lobby.message
            pipe.send_text(KEYS["up"] + KEYS["enter"])
            await until(lambda: lobby.screen == SEATING, "the seating room")
            assert ("join", "192.168.1.20:5555/KEY", "Me") in backend.calls
            seating = text(lobby)
            assert "seat 0  Host" in seating and "seat 1  Me" in seating
            backend.seat.start()
            result = await asyncio.wait_for(task, 5)
            assert result is backend.seat

    asyncio.run(main())


def test_the_create_form_sets_game_players_bots_and_name() -> None:
    plugins = PluginHost(autoload=False)
    lobby = LobbyScreen(plugins, FakeBackend(plugins), seat_name="Ann", game="petals", players=3,
                  screen=CREATE)
    form = lobby.create_form
    assert form.rows() == ["game", "variants", "players", "seat 1", "seat 2", "deck", "watch",
                           "name"]
    assert form.form.seats == ["greedy", "greedy"]  # the best bot installed
    form.form.row = 1
    form.toggle()
    assert form.ruleset().variant_names == ("harmony",)
    form.form.row = 2
    form.change(1)
    assert form.form.players == 4 and len(form.form.seats) == 3
    form.form.row = 3
    form.change(-1)
    assert form.form.seats[0] == OPEN
    assert "Create a table" in text(lobby) and form.name == "Ann's Petals"


def test_run_lobby_creates_a_table_plays_it_and_closes_everything() -> None:
    plugins = PluginHost(autoload=False)
    backend = FakeBackend(plugins)
    closed: list[Any] = []  # the seat, once closed (hedgerow join prints how it stands)

    async def main() -> int:
        with create_pipe_input() as pipe:
            task = asyncio.get_running_loop().create_task(run_lobby(
                plugins, game="petals", players=2, seat_name="Ann", backend=backend,
                input=pipe, output=SizedOutput(), closed=closed.append))
            await until(lambda: ("start",) in backend.calls, "the lobby")
            pipe.send_text(KEYS["enter"])  # open the table as the form says
            await until(lambda: backend.seat is not None, "the table")
            await until(lambda: len(backend.seat.history()) > 0 or backend.seat.legal_actions(),
                        "the game to begin")
            pipe.send_text("q")
            pipe.send_text("y")
            return await asyncio.wait_for(task, 10)

    assert asyncio.run(main()) == 0
    assert ("create", "petals@2.1.0", 2, "Ann's Petals", "Ann", False) in backend.calls
    assert ("bots", ["greedy"]) in backend.calls
    assert backend.closed and backend.seat.phase() in (Phase.FINISHED, Phase.HALTED)
    assert closed == [backend.seat] and backend.seat.closed


def test_hedgerow_join_prints_how_the_table_taken_in_the_lobby_stands(
        monkeypatch: Any, capsys: Any) -> None:
    """Leaving the lobby's seating room (or the table) prints the lines a person's seat
    prints after its screen: before, the lobby left nothing behind."""
    from hedgerow.clients import cmd_join

    plugins = PluginHost(autoload=False)
    seat = Seating(plugins)

    async def fake_lobby(plugins: Any, **kwargs: Any) -> int:
        kwargs["closed"](seat)
        return 0

    monkeypatch.setattr("hedgerow.clients.app.run_lobby", fake_lobby)
    assert cmd_join.open_lobby(plugins, "Me") == 0
    assert capsys.readouterr().out == "You left the table before the game started.\n"


def test_the_lobby_starts_on_the_table_list_without_a_game() -> None:
    plugins = PluginHost(autoload=False)
    lobby = LobbyScreen(plugins, FakeBackend(plugins), seat_name="Me")
    assert lobby.screen == TABLES and "No open table seen yet" in text(lobby)


def test_the_create_form_by_keys() -> None:
    plugins = PluginHost(autoload=False)
    backend = FakeBackend(plugins)

    async def main() -> LobbyScreen:
        lobby = LobbyScreen(plugins, backend, seat_name="Ann")
        with create_pipe_input() as pipe:
            app = lobby.build(pipe, SizedOutput())
            task = asyncio.get_running_loop().create_task(app.run_async())
            await until(lambda: app.is_running, "the lobby")
            pipe.send_text("c")
            await until(lambda: lobby.screen == CREATE, "the form")
            form = lobby.create_form
            pipe.send_text(KEYS["right"] * form.form.games.index("petals"))  # the game
            await until(lambda: form.game == "petals", "Petals chosen")
            # players: 4 -> 3; seat 1: a bot -> open; the deck: sealed -> open (Space);
            # watching: yes -> no (Space); the name: one more letter
            pipe.send_text(KEYS["down"] + "\t" + KEYS["left"] + KEYS["down"] + KEYS["left"]
                           + KEYS["down"] + KEYS["down"] + " " + KEYS["down"] + " "
                           + KEYS["down"] + "!")
            await until(lambda: form.name.endswith("!"), "typing the name")
            assert (form.form.players, form.form.seats) == (3, [OPEN, "greedy"])
            assert form.open_deck and "◀ open ▶  faster start" in text(lobby)
            assert not form.form.spectators and "◀ no ▶  nobody may watch" in text(lobby)
            pipe.send_text(KEYS["enter"])
            await until(lambda: backend.seat is not None, "the table")
            assert await asyncio.wait_for(task, 5) is backend.seat
        return lobby

    asyncio.run(main())
    assert ("create", "petals@2.1.0", 3, "Ann's Petals!", "Ann", True) in backend.calls
    assert backend.spectators is False
    assert ("bots", ["greedy"]) in backend.calls


def test_the_host_fills_the_open_seats_with_bots() -> None:
    plugins = PluginHost(autoload=False)
    backend = FakeBackend(plugins)
    lobby = LobbyScreen(plugins, backend, seat_name="Me")
    seat = Seating(plugins, players=3)
    seat.seat = 0
    seat.seats = lambda: [SeatInfo(0, "Me", Link.YOU), SeatInfo(1, "Bo", Link.CONNECTED),
                          SeatInfo(2, "", Link.WAITING)]
    lobby.seated(seat)
    assert lobby.screen == SEATING and "seat 2  (open)" in text(lobby)
    lobby.seating.fill_with_bots()
    assert backend.calls[-1] == ("bots", ["greedy"])


class FailingBackend(FakeBackend):
    """Opening a table fails with a long reason; a join fails only when told to."""

    REASON = ("the table could not be opened because every port this machine offered was "
              "already taken by another program, so close one of them and try again")

    def __init__(self, plugins: PluginHost) -> None:
        super().__init__(plugins)
        self.fail_join = asyncio.Event()

    async def create(self, ruleset: Any, players: int, *, name: str, seat_name: str,
                     open_deck: bool = False, spectators: bool = True) -> Any:
        from hedgerow.core.errors import HedgerowError

        raise HedgerowError(self.REASON)

    async def join(self, address: str, *, seat_name: str) -> Any:
        from hedgerow.core.errors import HedgerowError

        await self.fail_join.wait()
        raise HedgerowError("no answer from the table")


def test_the_create_screen_shows_its_error_whole_and_only_while_it_holds() -> None:
    plugins = PluginHost(autoload=False)
    backend = FailingBackend(plugins)

    async def main() -> None:
        lobby = LobbyScreen(plugins, backend, seat_name="Ann", game="petals", screen=CREATE)
        with create_pipe_input() as pipe:
            app = lobby.build(pipe, SizedOutput(columns=60))
            task = asyncio.get_running_loop().create_task(app.run_async())
            await until(lambda: app.is_running, "the lobby")
            pipe.send_text(KEYS["enter"])
            await until(lambda: lobby.message == FailingBackend.REASON, "the refusal")
            lines = "".join(t for _, t in lobby.status()).splitlines()
            assert len(lines) > 1 and all(len(line) < 60 for line in lines)
            assert " ".join(lines) == FailingBackend.REASON  # broken between words only
            form = lobby.create_form
            while not form.on_name():
                pipe.send_text(KEYS["down"])
                await until(lambda: lobby.message is None, "a key to clear the message")
                lobby.message = FailingBackend.REASON
            pipe.send_text("x")  # typing the name changes the form: the old error goes
            await until(lambda: form.name.endswith("x"), "typing")
            assert lobby.message is None
            app.exit(result=None)
            await task

    asyncio.run(main())


def test_an_error_of_a_join_shows_where_it_was_asked_not_on_the_form() -> None:
    plugins = PluginHost(autoload=False)
    backend = FailingBackend(plugins)

    async def main() -> None:
        lobby = LobbyScreen(plugins, backend, seat_name="Ann")
        lobby.run_task(lobby.join("10.0.0.9:5555/KEY"))
        await asyncio.sleep(0)
        lobby.screen = CREATE  # the player moved on while the join waits
        backend.fail_join.set()
        await until(lambda: not lobby.busy, "the join to fail")
        assert lobby.message is None
        lobby.screen = TABLES
        assert lobby.message == "no answer from the table"

    asyncio.run(main())


def test_each_lobby_screen_stands_alone_on_the_lobby_protocol() -> None:
    """The four screens name the `Lobby` protocol, never the module that builds them (not
    even for types), so either side can change without the other."""
    import ast
    from pathlib import Path

    import hedgerow.clients.app as app

    for name in ("lobby_tables", "lobby_address", "lobby_create", "lobby_seating"):
        tree = ast.parse((Path(app.__file__).parent / f"{name}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "hedgerow.clients.app.lobby" not in imported, name
        assert "hedgerow.clients.app.lobby_protocol" in imported, name


def test_the_table_list_shows_each_tables_deck_and_fits_a_narrow_screen() -> None:
    plugins = PluginHost(autoload=False)
    tables = [dataclasses.replace(ad("Ann's table"), deck="sealed"),
              dataclasses.replace(ad("Bo's quick one"), deck="open"),
              ad("Old host")]  # an announcement that does not say
    backend = FakeBackend(plugins, sorted(tables, key=TableAd.sort_key))

    async def main() -> None:
        lobby = LobbyScreen(plugins, backend, seat_name="Me")
        for columns in (80, 60):
            with create_pipe_input() as pipe:
                lines = await drawn_at(lobby, pipe, columns)
            head = next(line for line in lines if "NAME" in line)
            at = head.index("DECK")
            rows = {line.split()[0]: line[at:].split()[0] for line in lines
                    if line.startswith("  ") and "free" in line}
            assert rows == {"Ann's": "sealed", "Bo's": "open", "Old": "?"}, lines
            assert all(len(line) <= columns for line in lines)
            # the host's address where there is room for it, else left out
            assert ("192.168.1.20:5555" in "\n".join(lines)) == (columns == 80)

    asyncio.run(main())


async def drawn_at(lobby: LobbyScreen, pipe: Any, columns: int) -> list[str]:
    """The lobby's screen text, drawn by the running application ``columns`` wide."""
    app = lobby.build(pipe, SizedOutput(columns=columns))
    task = asyncio.get_running_loop().create_task(app.run_async())
    await until(lambda: app.is_running, "the lobby")
    lines = text(lobby).splitlines()
    app.exit(result=None)
    await task
    return lines


def test_the_create_form_opens_a_sealed_table_unless_the_deck_is_turned_open() -> None:
    plugins = PluginHost(autoload=False)
    lobby = LobbyScreen(plugins, FakeBackend(plugins), seat_name="Ann", game="petals", players=2,
                        screen=CREATE)
    form = lobby.create_form
    assert not form.open_deck
    assert "Deck      ◀ sealed ▶  no player's program can see a card it was not shown" \
        in text(lobby)
    form.form.row = form.rows().index("deck")
    form.change(1)
    assert form.open_deck
    assert "Deck      ◀ open ▶  faster start, for players who trust each other" in text(lobby)
    form.toggle()  # Space turns it back
    assert not form.open_deck
    # a table of one seat has nobody to hide cards from: open, and the row says why
    form.form.row = form.rows().index("game")
    while form.game != "flowers":
        form.change(1)
    form.form.row = form.rows().index("players")
    while form.form.players > 1:
        form.change(-1)
    form.form.row = form.rows().index("deck")
    form.change(1)
    assert form.open_deck and not form.form.open_deck
    assert "Deck      open  a table of one has no other player to hide cards from" \
        in text(lobby)


def test_the_seating_room_says_the_deck_and_only_the_host_invites() -> None:
    plugins = PluginHost(autoload=False)
    lobby = LobbyScreen(plugins, FakeBackend(plugins), seat_name="Me")
    seat = Seating(plugins)
    lobby.seated(seat)
    room = " ".join(text(lobby).split())
    assert "Petals, 2 players, sealed deck: no player's program can see a card it was not " \
           "shown." in room
    assert "hedgerow join" not in room  # a joiner's own address is no way in
    seat.is_host, seat.sealed = True, False
    room = " ".join(text(lobby).split())
    assert "open deck: every player's program can work out every card (the host chose the " \
           "faster start)." in room
    assert "Others join with: hedgerow join 127.0.0.1:5555/KEY" in room
