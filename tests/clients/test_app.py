"""The real seat client, driven by keys through a pipe, through whole games to the results."""

from __future__ import annotations

import asyncio

from appdriver import SizedOutput, click, drawn, play_to_the_end, running, screen_text

from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.app.results import results
from hedgerow.clients.app.state import QUIT, RESULTS
from hedgerow.core import hookimpl
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.ui import Target
from hedgerow.plugins.petals.ui import PetalsUI


def local_petals(plugins: PluginHost, players: int = 2, seed: int = 7) -> LocalSeat:
    ruleset = plugins.ruleset("petals", players=players)
    return LocalSeat(ruleset, players, seed_from_int(seed), bots=[plugins.bot("random", "petals")],
                     name="Ann")


def test_a_whole_petals_game_against_a_local_bot_to_the_results() -> None:
    plugins = PluginHost(autoload=False)
    seat = local_petals(plugins)

    async def main() -> None:
        async with running(seat, plugins) as d:
            screen = await drawn(d, lambda rows: any("Your" in r for r in rows),
                                 what="the table screen")
            text = "\n".join(screen)
            assert "Players" in text and "Draw pile" in text and "hand" in text
            assert "Log" in text and "quit" in screen[-1]
            presses = await play_to_the_end(d)
            assert presses >= 15  # 15 cards placed, plus any effect choices
            screen = await drawn(d, lambda rows: any("Where the points" in r for r in rows),
                                 what="the results screen")
            assert d.state.screen == RESULTS
            text = "\n".join(screen)
            for label in ("Fire", "Water", "Earth", "Air"):
                assert label in text
            d.press("\x1b[6~", "\x1b[6~")  # Page Down: the end of the results
            await drawn(d, lambda rows: any("Log saved to" in r for r in rows),
                        what="where the log is saved")
            d.press("b")
            await drawn(d, lambda rows: any("the final garden" in r for r in rows),
                        what="the board")
            d.press("q")  # the game is over: nothing to lose, no question
            assert await asyncio.wait_for(d.task, 5) == 0
            assert d.state.overlay != QUIT
        await seat.close()
        outcome = seat.outcome()
        assert outcome is not None and len(seat.history()) >= 30

    asyncio.run(main())


def test_a_whole_petals_game_against_a_bot_peer_process_over_the_network() -> None:
    """The real thing: this process hosts the table on 127.0.0.1, a bot peer process joins
    over the real protocol, and the client plays its seat to the results by keys."""
    from hedgerow.clients.spawn import spawn_bot_peers, stop_processes
    from hedgerow.net.launch import host_table

    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("petals", players=2)

    async def main() -> None:
        peer = await host_table(ruleset, 2, seat_name="Ann", seed=11, announce=False)
        procs = spawn_bot_peers(peer.address, ["random"], delay=0)
        try:
            async with running(peer, plugins) as d:
                await d.until(lambda: d.state.my_turn or d.state.active, timeout=30,
                              what="the bot to join and the game to start")
                rows = await drawn(d, lambda rows: any("Bot Aster" in r for r in rows),
                                   what="the bot's seat, by the name it has at the table")
                # Every link is plainly on: the players table spends no column on it.
                assert not any("link" in r for r in rows)
                await play_to_the_end(d)
                await drawn(d, lambda rows: any("Where the points" in r for r in rows),
                            what="the results screen")
                assert d.state.outcome is not None and d.state.screen == RESULTS
                d.press("q")  # over: it leaves at once
                assert await asyncio.wait_for(d.task, 5) == 0
        finally:
            await peer.close()
            stop_processes(procs)
        assert all(p.returncode is not None for p in procs)
        assert peer.log_path() is not None and peer.log_path().exists()

    asyncio.run(main())


def test_q_asks_only_while_the_game_is_on() -> None:
    plugins = PluginHost(autoload=False)
    seat = local_petals(plugins)

    async def main() -> None:
        async with running(seat, plugins) as d:
            await d.until(lambda: d.state.my_turn, what="our turn")
            d.press("q")
            rows = await drawn(d, lambda rows: any("Leave the table?" in r for r in rows),
                               what="the question, mid-game")
            assert any("the other seats will see you leave" in r for r in rows)
            d.press("n")
            await d.until(lambda: d.state.overlay is None, what="the question to close")
            await play_to_the_end(d)
            d.press("q")
            assert await asyncio.wait_for(d.task, 5) == 0
        await seat.close()

    asyncio.run(main())


def test_the_seating_screen_of_a_table_of_our_own_bots_invites_nobody() -> None:
    """``hedgerow play``'s table fills with its own bots: no "Others join with" there, but
    a table that others may join says how."""
    from hedgerow.net.launch import host_table

    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("petals", players=2)

    async def main() -> None:
        for invite in (False, True):
            peer = await host_table(ruleset, 2, seat_name="Ann", announce=False)
            try:
                async with running(peer, plugins, invite=invite) as d:
                    rows = await drawn(d, lambda rows: any("seat" in r for r in rows),
                                       what="the seating screen")
                    text = "\n".join(rows)
                    if invite:
                        assert f"Others join with: hedgerow join {peer.address}" in " ".join(
                            text.split())
                        assert "Waiting for 1 more player(s)" in text, text
                    else:
                        assert "join" not in text and "127.0.0.1" not in text, text
                        assert "The bots are taking their seats (1 to go)" in text, text
            finally:
                await peer.close()

    asyncio.run(main())


def test_mouse_clicks_pick_a_card_aim_and_play() -> None:
    plugins = PluginHost(autoload=False)
    seat = local_petals(plugins, seed=3)

    async def main() -> None:
        async with running(seat, plugins) as d:
            await d.until(lambda: d.state.my_turn and d.state.hand.order, what="our turn")
            await drawn(d, lambda rows: any("[2]" in r for r in rows), what="the hand")
            second = d.state.hand.order[1]
            assert second.role == "card"
            click(d, "hand", second)
            await d.until(lambda: d.state.picker.free == (second.value,), what="the card")
            picker = d.state.picker
            target = next(v for v in picker.step_options() if v != picker.cursor)
            cell = Target("cell", target)
            await drawn(d, lambda rows: cell in d.state.board.positions, what="the cell drawn")
            click(d, "board", cell)
            await d.until(lambda: d.state.picker.cursor == target, what="the cursor")
            played = len(seat.history())
            # the cursor has moved on screen too: the card is drawn there as a ghost, with
            # rounded corners (a placed card has none)

            def ghost_there(rows: list[str]) -> bool:
                row, col = d.state.board.positions[cell]
                pane = d.app.panes["board"]
                info = pane.render_info
                y = info._y_offset + row - info.vertical_scroll
                x = info._x_offset + col - pane.horizontal_scroll
                return 0 <= y < len(rows) and rows[y][x:x + 1] == "╭"

            await drawn(d, ghost_there, what="the ghost card under the cursor")
            click(d, "board", cell)  # the cell under the cursor again: play
            await d.until(lambda: len(seat.history()) > played, what="the move")
            mine = seat.history()[played]
            assert mine.seat == 0 and f"#{second.value:02d}" in mine.text
            assert f"({target[0]}, {target[1]})" in mine.text
        await seat.close()

    asyncio.run(main())


class BrokenUI(PetalsUI):
    """Petals' UI object with a garden drawing that raises: the client must shrug it off."""

    def draw(self, part, ctx):
        if part == "garden":
            raise RuntimeError("the board drawing broke")
        return super().draw(part, ctx)


class BrokenDrawing:
    """A plugin that puts `BrokenUI` before Petals' own UI object."""

    @hookimpl(tryfirst=True)
    def hedgerow_game_ui(self, game):
        return BrokenUI() if game == "petals" else None


def test_errors_go_to_the_log_file_never_to_the_screen(hedgerow_home) -> None:
    plugins = PluginHost(autoload=False, extra=[BrokenDrawing()])
    seat = local_petals(plugins)

    async def broken_submit(action):
        raise ConnectionError("the network is down")

    async def main() -> None:
        async with running(seat, plugins) as d:
            rows = await drawn(d, lambda rows: any("pile_count:" in r for r in rows),
                               what="the view as plain text instead of the broken garden")
            assert any("[2]" in r for r in rows)  # the hand, drawn by the same object, still is
            seat.submit = broken_submit
            d.press("enter")
            rows = await drawn(d, lambda rows: any("Could not send your move" in r
                                                   for r in rows), what="one line")
            assert not any("Traceback" in r for r in rows)
        await seat.close()

    asyncio.run(main())
    log = (hedgerow_home / "client.log").read_text()
    assert "the board drawing broke" in log and "the network is down" in log
    assert "Traceback" in log


def test_before_play_the_table_screen_says_who_is_missing_and_how_to_join() -> None:
    from hedgerow.net.launch import host_table

    plugins = PluginHost(autoload=False)

    async def main() -> None:
        peer = await host_table(plugins.ruleset("petals", players=3), 3, seat_name="Ann",
                                announce=False)
        try:
            async with running(peer, plugins) as d:
                rows = await drawn(d, lambda rows: any("Waiting for 2 more" in r for r in rows),
                                   what="the waiting room")
                text = "\n".join(rows)
                assert "hedgerow join" in text and text.count("(open seat)") == 2
                assert not d.state.my_turn
        finally:
            await peer.close()

    asyncio.run(main())


def test_every_pane_names_a_seat_alike_and_the_results_explain() -> None:
    """Issue 10 (5, 8): the panel, the log and the results call a seat by one name."""
    plugins = PluginHost(autoload=False)
    seat = local_petals(plugins, seed=5)

    async def main() -> None:
        async with running(seat, plugins) as d:
            await drawn(d, lambda rows: any("Bot Aster plays" in r for r in rows),
                        what="the bot's move in the log, by its name")
            rows = await drawn(d, lambda rows: any("▶ Ann " in r or "  Ann " in r
                                                   for r in rows), what="the players table")
            assert not any("Seat 1" in r for r in rows)
            await play_to_the_end(d)
            rows = await drawn(d, lambda rows: any("Where the points" in r for r in rows),
                               what="the results")
            d.press("\x1b[6~", "\x1b[6~", "\x1b[6~")  # Page Down to the end
            rows += await drawn(d, lambda rows: any("Log saved to" in r for r in rows),
                                what="the end of the results")
            seen = rows + screen_text(results(d.state, 78)).split("\n")  # all of it
            text = "\n".join(seen)
            assert "Seat 0" not in text and "Seat 1" not in text
            outcome = seat.outcome()
            winner = "Ann" if outcome.winners == (0,) else "Bot Aster"
            assert f"{winner} wins" in text or "You win!" in text
            # The chart: per player, the trackers won and the figure as a sum.
            chart = [r for r in seen if r.startswith(("Ann ", "Bot Aster "))]
            assert len(chart) >= 2 and all(" = " in r for r in chart[:2])
            assert "Last cards, scored directly at the end" in text
        await seat.close()

    asyncio.run(main())


def test_at_60x20_the_pile_the_log_and_the_keys_are_whole() -> None:
    plugins = PluginHost(autoload=False)
    seat = local_petals(plugins, players=4, seed=1)

    async def main() -> None:
        async with running(seat, plugins, rows=20, columns=60) as d:
            rows = await drawn(d, lambda rows: d.state.my_turn and any("Draw pile" in r
                                                                     for r in rows),
                               what="our turn with the pile count")
            assert any("plays" in r and r.lstrip()[0].isdigit() for r in rows)  # the log's end
            assert rows[-1].rstrip().endswith("q") and "Enter" in rows[-1]  # every key
            assert any("Players" in r for r in rows) and any("[2]" in r for r in rows)
            assert all(len(r) <= 60 for r in rows)
            d.app.app.output.size = type(d.app.app.output.size)(rows=12, columns=40)
            d.app.app.invalidate()
            rows = await drawn(d, lambda rows: any("at least 60 x 20" in r for r in rows),
                               what="the size the table needs")
            assert "40 x 12" in "\n".join(rows)
        await seat.close()

    asyncio.run(main())


def test_the_seat_client_loads_the_plugins_once(monkeypatch) -> None:
    """Without a plugin host given, `SeatApp` builds one, for the UI object and the bots
    of the departure box alike (loading every plugin is not free)."""
    from prompt_toolkit.input import create_pipe_input

    from hedgerow.clients.app import application

    made: list[PluginHost] = []

    class Counted(PluginHost):
        def __init__(self) -> None:
            super().__init__(autoload=False)
            made.append(self)

    monkeypatch.setattr(application, "PluginHost", Counted)
    seat = local_petals(PluginHost(autoload=False))
    with create_pipe_input() as pipe:
        app = application.SeatApp(seat, input=pipe, output=SizedOutput())
    assert len(made) == 1
    assert app.departure.bots[0] == "greedy"  # the bots it found there
    asyncio.run(seat.close())
