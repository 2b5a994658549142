"""The replay viewer as a person uses it: keys typed into a pipe, the screen it draws.

`WatchApp` runs on the test's loop with ``create_pipe_input()`` and a dummy output of a
given size (tests/clients/appdriver.py); logs are real (tests/clients/watchlogs.py).  Also
the results screen's ``w`` in the seat client, and ``hedgerow resume``'s list of finished
games.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from appdriver import Driver, SizedOutput, drawn, driving, play_to_the_end, running
from prompt_toolkit.input import create_pipe_input
from watchlogs import cut, open_log, sealed_logs  # noqa: F401 (a fixture)

from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.app.state import HELP, RESULTS, TABLE
from hedgerow.clients.resumable import find_tables
from hedgerow.clients.watch import finished
from hedgerow.clients.watch.application import WatchApp, watch_after_game
from hedgerow.clients.watch.film import Film, load_film
from hedgerow.core.datadir import logs_dir
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.net import tablefile
from hedgerow.net.keys import generate, load_identity
from hedgerow.net.messages import PeerInfo, SeatEvent, SeatEventKind

RIGHT, LEFT, DOWN, UP = "\x1b[C", "\x1b[D", "\x1b[B", "\x1b[A"
HOME, END = "\x1b[H", "\x1b[F"


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost()


@contextlib.asynccontextmanager
async def watching(film: Film, plugins: PluginHost, *, seat: int = 0, rows: int = 24,
                   columns: int = 80) -> AsyncIterator[Driver]:
    """Run the viewer on ``film`` for the body of the ``async with``, then leave it."""
    with create_pipe_input() as pipe:
        app = WatchApp(film, seat=seat, plugins=plugins, input=pipe,
                       output=SizedOutput(rows, columns))
        async with driving(app, pipe) as driver:
            yield driver


def text(lines: list[str]) -> str:
    return "\n".join(lines)


def test_stepping_through_a_sealed_game_on_the_table_screen(
        sealed_logs: dict[str, list[Path]], plugins: PluginHost) -> None:  # noqa: F811
    film = load_film(sealed_logs["flourish"][2], plugins)

    async def main() -> None:
        async with watching(film, plugins, seat=2) as d:
            watch = d.app.watch
            screen = await drawn(d, lambda s: "Replay" in s[0], what="the first frame")
            assert "Your hand (6 cards)" in text(screen) and "1. Chance: shuffle" in text(screen)
            assert all(len(line) <= 80 for line in screen)
            assert "step" in screen[-1] and "round" in screen[-1] and "quit" in screen[-1]
            d.press(RIGHT)
            screen = await drawn(d, lambda s: "2. " in text(s) and "▶ " in text(s),
                                 what="the first choice, previewed")
            mover = film.names[film.frames[1].entry.seat]
            assert any(line.startswith(f"▶ {mover}: Plant ") for line in screen), screen
            assert watch.at == 1 and "2/" in screen[0]
            d.press(DOWN)  # to the start of round 2
            await d.until(lambda: watch.at == 3, what="the next round")
            d.press(UP)
            await d.until(lambda: watch.at == 0, what="back a round")
            d.press(LEFT)
            screen = await drawn(d, lambda s: "start of the game" in text(s),
                                 what="the start said")
            d.press("s")
            await d.until(lambda: watch.watching == 0, what="another seat")
            screen = await drawn(d, lambda s: "as " + film.names[0] in s[0], what="its eyes")
            d.press(END)
            screen = await drawn(d, lambda s: "Game over" in s[0], what="the results")
            assert d.state.screen == RESULTS and "Replay of" in text(screen)
            assert "Round" in text(screen) and "Total" in text(screen)
            d.press("b")
            screen = await drawn(d, lambda s: "Enter" in s[-1] and "results" in s[-1],
                                 what="the final board")
            assert d.state.screen == TABLE and "The end of the game" in text(screen)
            d.press(HOME)
            await d.until(lambda: watch.at == film.first, what="the deal")
            d.press("?")
            screen = await drawn(d, lambda s: "Keys" in text(s), what="the help")
            for words in ("next entry", "next round", "play / pause", "next / previous seat",
                          "every hand can be shown"):
                assert words in text(screen), words
            assert d.state.overlay == HELP
            d.press("\x1b")
            await d.until(lambda: d.state.overlay is None, what="the help to close")
            d.press("q")
            assert await asyncio.wait_for(d.task, 5) == 0

    asyncio.run(main())


def test_space_plays_the_film_and_a_key_stops_it(tmp_path: Path, plugins: PluginHost,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from hedgerow.clients.watch import application

    monkeypatch.setattr(application, "PLAY_EVERY", 0.01)
    film = load_film(open_log(tmp_path / "p.hlog", "petals", 2, seed=4, moves=12), plugins)

    async def main() -> None:
        async with watching(film, plugins) as d:
            watch = d.app.watch
            d.press(" ")
            await d.until(lambda: watch.at >= 3, what="the film to run")
            await drawn(d, lambda s: "pause" in s[-1], what="the key to pause")
            d.press(LEFT)
            await d.until(lambda: not watch.playing, what="a key to stop it")
            at = watch.at
            await asyncio.sleep(0.1)  # (ten ticks' time: it stays stopped)
            assert watch.at == at and not watch.playing

    asyncio.run(main())


def test_a_hidden_hand_is_said_and_the_screen_fits_60_by_20(
        tmp_path: Path, sealed_logs: dict[str, list[Path]], plugins: PluginHost,  # noqa: F811
) -> None:
    film = load_film(cut(sealed_logs["petals"][0], 11, tmp_path / "p.hlog", seal=False),
                     plugins)

    async def main() -> None:
        async with watching(film, plugins, rows=20, columns=60) as d:
            screen = await drawn(d, lambda s: "Replay" in s[0], what="the first frame")
            assert "cards are sealed: " in text(screen)
            assert all(len(line) <= 60 for line in screen)
            d.press(END)
            screen = await drawn(d, lambda s: "End of the log" in s[0], what="the end")
            assert "the game was not over" in text(screen)
            d.press("q")
            await asyncio.wait_for(d.task, 5)

    asyncio.run(main())


def test_too_small_a_terminal_is_told_the_size_it_needs(tmp_path: Path,
                                                        plugins: PluginHost) -> None:
    film = load_film(open_log(tmp_path / "p.hlog", "petals", 2, moves=2), plugins)

    async def main() -> None:
        async with watching(film, plugins, rows=12, columns=40) as d:
            screen = await drawn(d, lambda s: "needs" in text(s), what="the size it needs")
            assert "40 x 12" in " ".join(text(screen).split()), screen

    asyncio.run(main())


# -- from the results screen ---------------------------------------------------------------------


def test_w_on_the_results_opens_the_replay_of_the_game_just_played(plugins: PluginHost) -> None:
    async def main() -> None:
        seat = LocalSeat(plugins.ruleset("petals", (), 2), 2, seed_from_int(3),
                         bots=[plugins.bot("random")], name="Ann")
        try:
            async with running(seat, plugins) as d:
                await play_to_the_end(d)
                await d.until(lambda: d.state.screen == RESULTS, what="the results")
                await drawn(d, lambda s: "watch the replay" in s[-1],
                                     what="the key offered")
                d.press("w")
                assert await asyncio.wait_for(d.task, 5) == 0
                assert d.app.replay_asked
        finally:
            await seat.close()
        path = seat.log_path()
        assert path is not None
        with create_pipe_input() as pipe:
            task = asyncio.get_running_loop().create_task(watch_after_game(
                seat, path, plugins=plugins, input=pipe, output=SizedOutput()))
            pipe.send_text(END)
            await asyncio.sleep(0.5)
            pipe.send_text("q")
            assert await asyncio.wait_for(task, 10) == 0

    asyncio.run(main())


# -- hedgerow resume -----------------------------------------------------------------------------


def seat_log(table_id: bytes, seat: int, *, moves: int | None) -> Path:
    """A person's seat log with its table file, in the logs folder."""
    folder = logs_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = open_log(folder / f"petals-{table_id.hex()[:8]}-seat{seat}.hlog", "petals", 2,
                    seed=table_id[0], moves=moves, own_seat=seat, names=("ann", "bot"))
    me = load_identity(None).public
    peers = tuple(PeerInfo(s, me if s == seat else generate().public,
                           f"tcp://127.0.0.1:{3000 + s}", ("ann", "bot")[s], s == 1)
                  for s in range(2))
    tablefile.save(path, tablefile.TableFile(table_id, seat, peers))
    return path


def test_resume_lists_the_finished_games_to_watch(plugins: PluginHost) -> None:
    done = seat_log(b"\x01" * 16, 0, moves=None)
    seat_log(b"\x02" * 16, 0, moves=3)  # under way: to resume
    over = finished.finished(find_tables(plugins))
    assert [t.log for t in over] == [done]
    what, result = finished.describe_finished(over[0])
    assert what.startswith("petals@") and "ann (you), bot" in what
    assert " entries; " in result and ("wins" in result or "victory" in result)
    assert finished.picked("w1", over) == done and finished.picked(" W 1 ", over) == done
    agreed = replace(over[0], outcome=None, ended=SeatEvent(SeatEventKind.END, 1, index=9))
    assert finished.describe_finished(agreed)[1].endswith("; ended by agreement, nobody won")
    assert finished.picked("w2", over) is None and finished.picked("1", over) is None
    out = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "resume"],
                         capture_output=True, text=True, env=dict(os.environ), timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 2  # without a terminal: a list, and how to choose
    assert "Finished games you can watch again" in out.stdout
    assert "  w1. petals@" in out.stdout and str(done) in out.stdout
    assert "hedgerow watch LOGFILE" in out.stdout


def test_watch_refuses_what_it_cannot_show_in_one_line(tmp_path: Path) -> None:
    def watch(*args: str) -> subprocess.CompletedProcess[str]:
        out = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "watch", *args],
                             capture_output=True, text=True, env=dict(os.environ), timeout=60,
                             stdin=subprocess.DEVNULL)
        assert out.returncode == 2 and out.stderr.startswith("hedgerow: error: ")
        assert out.stderr.count("\n") == 1 and out.stdout == "", out
        return out

    bad = tmp_path / "notes.txt"
    bad.write_text("not a log\n")
    assert "is not a table log" in watch(str(bad)).stderr
    assert "no such log file" in watch(str(tmp_path / "gone.hlog")).stderr
    good = open_log(tmp_path / "p.hlog", "petals", 2, moves=2)
    assert "its seats are 0 (Bot 0), 1 (Bot 1)" in watch(str(good), "--as", "7").stderr
    assert "needs a terminal" in watch(str(good)).stderr
