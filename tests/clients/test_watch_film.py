"""The replay viewer's model: a log as a film, what it shows of each seat, how it steps.

Real logs throughout (tests/clients/watchlogs.py): sealed games of the four built-in games
played to the end by random bots at tables of real peers, cut copies of them (a game under
way, with or without its writer's seal file), and open-deck logs.  `Film` is checked
against what the log verifies to (`hedgerow.net.logverify.replay`), and `WatchState`'s
stepping by entry, by round and to the ends, against the film.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from watchlogs import GAMES, cut, open_log, sealed_logs  # noqa: F401 (a fixture)

from hedgerow.clients.app.gameui import ClientUI, load_ui
from hedgerow.clients.app.state import RESULTS, TABLE
from hedgerow.clients.cmd_watch import choose_seat
from hedgerow.clients.watch import render
from hedgerow.clients.watch.film import OPEN, SEALED, Film, load_film, number_rounds
from hedgerow.clients.watch.state import WatchState
from hedgerow.core.actions import Action
from hedgerow.core.chance import CHANCE_SEAT
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import plain, substitute, tokens_in
from hedgerow.core.table import LogEntry
from hedgerow.net.logfile import LogWriter, read_log
from hedgerow.net.logverify import replay
from hedgerow.net.messages import SeatEvent, SeatEventKind
from hedgerow.net.rulesmatch import ruleset_for
from hedgerow.net.seat import Phase


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost()


def watching(film: Film, plugins: PluginHost, seat: int = 0) -> WatchState:
    return WatchState(film, ClientUI(load_ui(plugins, film.ruleset)), seat=seat)


def entry(seat: int) -> LogEntry:
    return LogEntry(0, seat, Action.of("x"), b"", b"")


# -- rounds ----------------------------------------------------------------------------------


def test_a_round_is_once_around_the_table() -> None:
    chance = CHANCE_SEAT
    # the deal, then 1 0 | 1 0 0 (a second action in the same turn) chance | 1 0
    seats = [chance, 1, 0, 1, 0, 0, chance, 1, 0]
    assert number_rounds([entry(s) for s in seats]) == [0, 1, 1, 2, 2, 2, 2, 3, 3]
    # a simultaneous step of three seats a round, logged in seat order
    seats = [chance, 0, 1, 2, 0, 1, 2, chance, 0]
    assert number_rounds([entry(s) for s in seats]) == [0, 1, 1, 1, 2, 2, 2, 2, 3]
    # one seat: each move
    seats = [chance, 0, 0, chance, 0]
    assert number_rounds([entry(s) for s in seats], players=1) == [0, 1, 2, 2, 3]


# -- what a film shows ---------------------------------------------------------------------------


@pytest.mark.parametrize("game, players", GAMES)
def test_a_finished_sealed_game_shows_every_hand_at_every_step(
        game: str, players: int, sealed_logs: dict[str, list[Path]],  # noqa: F811
        plugins: PluginHost) -> None:
    path = sealed_logs[game][-1]  # a joiner's log
    film = load_film(path, plugins)
    result = read_log(path)
    done = replay(ruleset_for(plugins, result.header.fingerprint, players), result)
    assert film.deck == SEALED and film.sight.every and film.problem is None
    assert film.verdict == "every shuffle, key and action checks out"
    assert len(film.frames) == len(result.entries)
    assert [f.entry for f in film.frames] == [e.entry for e in result.entries]
    assert film.outcome == plain(done.table.outcome()) and film.outcome is not None
    for at in range(len(film.frames)):
        for seat in range(players):
            assert not film.hidden(at, seat), (at, seat)
    # every seat's move can be previewed (what it scored), named in words
    moves = [at for at, f in enumerate(film.frames) if not f.entry.is_chance]
    assert moves and all(film.chooser_view(at) is not None for at in moves)
    assert all("hidden card" not in film.frames[at].text for at in moves)
    # the film's last state is the verified game's, every card known
    known = done.verdict.replayed
    assert plain(film.state(film.last, 0)) == plain(substitute(known.state, done.verdict.faces))


def test_an_open_deck_log_shows_every_hand(tmp_path: Path, plugins: PluginHost) -> None:
    path = open_log(tmp_path / "open.hlog", "mandala", 2, seed=3)
    film = load_film(path, plugins)
    assert film.deck == OPEN and film.sight.every and film.outcome is not None
    assert film.first == 0 and film.frames[0].entry.is_chance and film.frames[0].round == 0
    assert film.names == ["Bot 0", "Bot 1"]
    assert not any(film.hidden(at, s) for at in range(len(film.frames)) for s in (0, 1))
    assert film.rounds[0] == 1 and all(film.frames[i].round for i in film.rounds)


def test_results_for_nobody_in_particular_call_no_garden_yours(tmp_path: Path,
                                                               plugins: PluginHost) -> None:
    # FLOWERS draws every garden's final score in its results part; watched as another
    # seat than the log's writer (as a spectator sees every game), no line may say "You".
    path = open_log(tmp_path / "flowers.hlog", "flowers", 2, seed=5)
    film = load_film(path, plugins)
    watch = watching(film, plugins, seat=1)
    watch.to_end()
    watch.table.refresh()  # (as before every redraw)
    said = "".join(t for _, t in render.results(watch, watch.table, 100))
    assert "How each garden scored" in said
    assert "You:" not in said and "Your garden" not in said
    assert "Bot 0: " in said and "Bot 1: " in said
    mine = watching(film, plugins, seat=0)  # as the writer: their own garden is theirs
    mine.to_end()
    mine.table.refresh()
    assert "You:" in "".join(t for _, t in render.results(mine, mine.table, 100))


def test_a_sealed_game_under_way_shows_only_its_writers_cards(
        tmp_path: Path, sealed_logs: dict[str, list[Path]], plugins: PluginHost,  # noqa: F811
) -> None:
    source = sealed_logs["flourish"][1]  # seat 1's log of a three-seat Flourish game
    path = cut(source, 13, tmp_path / "under-way.hlog")  # the deal, four whole steps
    film = load_film(path, plugins)
    assert film.deck == SEALED and not film.over and film.verdict is None
    assert len(film.frames) == 13 and film.sight.own_seat == 1 and not film.sight.every
    assert film.sight.sees(1) and not film.sight.sees(0) and not film.sight.sees(2)
    for at in range(len(film.frames)):
        assert not film.hidden(at, 1)
        assert film.hidden(at, 0) and film.hidden(at, 2)  # six cards each, all sealed
    assert "the game is not over" in film.why_hidden(0)
    # the writer's own moves are previewed; the others' only told
    mine = [at for at, f in enumerate(film.frames) if f.entry.seat == 1]
    theirs = [at for at, f in enumerate(film.frames) if f.entry.seat in (0, 2)]
    assert all(film.chooser_view(at) is not None for at in mine)
    assert all(film.chooser_view(at) is None for at in theirs)
    # what the writer saw of its hand is what the verified game says it held
    full = load_film(source, plugins)
    for at in range(len(film.frames)):
        assert film.view(at, 1) == full.view(at, 1)
    # the cards the others played are named (they were shown to everyone)
    assert "hidden card" not in film.frames[theirs[0]].text


def test_without_its_seal_file_a_game_under_way_shows_no_hand(
        tmp_path: Path, sealed_logs: dict[str, list[Path]], plugins: PluginHost,  # noqa: F811
) -> None:
    path = cut(sealed_logs["petals"][0], 9, tmp_path / "sent.hlog", seal=False)
    film = load_film(path, plugins)
    assert not film.sight.sees(0) and not film.sight.sees(1)
    assert film.hidden(film.last, 0) and film.hidden(film.last, 1)
    assert "sent.hlog.seal" in film.why_hidden(0) and "not over" in film.why_hidden(1)
    # the public cards are still there: the garden's, as every seat saw them
    view = film.view(film.last, 1)
    assert list(tokens_in(view.garden)) == [] and view.garden


def test_a_damaged_log_is_filmed_as_far_as_it_reads(tmp_path: Path,
                                                    plugins: PluginHost) -> None:
    path = open_log(tmp_path / "damaged.hlog", "petals", 2, seed=5)
    whole = load_film(path, plugins)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 5])  # the last record torn
    film = load_film(path, plugins)
    assert len(film.frames) == len(whole.frames) - 1
    assert film.problem is not None and "damaged" in film.problem
    assert film.outcome is None and not film.over


def test_seat_events_show_where_they_came_into_force_and_an_agreed_end_ends_it(
        tmp_path: Path, plugins: PluginHost) -> None:
    path = open_log(tmp_path / "ended.hlog", "petals", 2, seed=6, moves=8)
    entries = len(read_log(path).entries)
    with LogWriter.resume(path, sync=False) as writer:  # (as a peer writes them)
        writer.append_event(SeatEvent(SeatEventKind.TAKEOVER, 1, runner=0, bot="random",
                                      index=entries))
        writer.append_event(SeatEvent(SeatEventKind.END, 0, index=entries, voters=(0, 1)))
    film = load_film(path, plugins)
    assert film.outcome is None and film.ended is not None and film.over
    kinds = [e.kind for e in film.frames[-1].events]
    assert kinds == [SeatEventKind.TAKEOVER, SeatEventKind.END]
    watch = watching(film, plugins)
    assert watch.to_end()
    assert watch.seat.phase() == Phase.FINISHED and watch.seat.active_seats() == ()
    assert watch.table.screen == RESULTS  # as the table showed it: nobody won
    assert not watch.step(1) and "end of the log." in (watch.table.message or "")
    watch.table.refresh()  # (as before every redraw)
    lines = "\n".join(text for _, text in render.history(watch, watch.table, 60))
    assert "-- A random bot run by Bot 0 plays for Bot 1" in lines
    assert "-- The table agreed to end the game" in lines
    said = "".join(t for _, t in render.results(watch, watch.table, 80))
    assert "Ended by agreement: nobody won" in said
    words = "".join(t for _, t in render.prompt(watch, watch.table, 200))
    assert "Bot 0 plays #" in words  # the move, its seat named
    assert f"The table agreed to end the game at entry #{entries}, with no winner" in words


@pytest.mark.parametrize("content, message", [
    (None, "no such log file"),
    (b"", "not a table log"),
    (b"HDRWLOG1" + b"\x05\x00\x00\x00garbage..", "not a table log"),
    (b"just some text\n", "not a table log"),
])
def test_what_is_not_a_log_is_refused_in_one_line(tmp_path: Path, plugins: PluginHost,
                                                  content: bytes | None, message: str) -> None:
    path = tmp_path / "x.hlog"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(HedgerowError, match=message):
        load_film(path, plugins)
    with pytest.raises(HedgerowError, match="folder"):
        load_film(tmp_path, plugins)


# -- stepping ------------------------------------------------------------------------------------


def test_stepping_by_entry_by_round_and_to_the_ends(
        sealed_logs: dict[str, list[Path]], plugins: PluginHost) -> None:  # noqa: F811
    film = load_film(sealed_logs["flourish"][0], plugins)
    watch = watching(film, plugins)
    assert watch.at == film.first == 0 and watch.table.screen == TABLE
    assert not watch.step(-1) and "start of the game" in (watch.table.message or "")
    assert watch.step(1) and watch.at == 1
    assert watch.seat.history()[-1].index == 1
    # a round of Flourish's steps is the three seats' choices: from inside one, back to
    # its start, then to the start of the next
    assert watch.round_now() == 1
    assert watch.previous_round() and watch.at == 0
    assert watch.next_round() and watch.at == 3 and watch.round_now() == 2
    assert watch.next_round() and watch.at == 6
    assert watch.step(-1) and watch.previous_round() and watch.at == 3
    # to the end: the results, as the live table showed them; back: the table
    assert watch.to_end() and watch.at == film.last
    assert watch.table.screen == RESULTS and watch.seat.outcome() is not None
    assert not watch.step(1) and "end of the game" in (watch.table.message or "")
    assert not watch.next_round()
    assert watch.step(-1) and watch.table.screen == TABLE and watch.seat.outcome() is None
    assert watch.to_start() and watch.at == film.first
    assert not watch.to_start()


def test_every_entry_forward_then_back_shows_the_same_frames(
        sealed_logs: dict[str, list[Path]], plugins: PluginHost) -> None:  # noqa: F811
    film = load_film(sealed_logs["mandala"][0], plugins)
    watch = watching(film, plugins, seat=1)
    forward = []
    while True:
        watch.table.refresh()
        forward.append((watch.at, watch.table.view, len(watch.table.lines)))
        if not watch.step(1):
            break
    assert len(forward) == len(film.frames) - film.first
    backward = []
    while True:
        watch.table.refresh()
        backward.append((watch.at, watch.table.view, len(watch.table.lines)))
        if not watch.step(-1):
            break
    assert backward == forward[::-1]


def test_the_film_plays_by_itself_to_the_end(tmp_path: Path, plugins: PluginHost) -> None:
    film = load_film(open_log(tmp_path / "p.hlog", "petals", 2, seed=2, moves=4), plugins)
    watch = watching(film, plugins)
    watch.toggle_play()
    ticks = 0
    while watch.playing:
        watch.tick()
        ticks += 1
        assert ticks <= len(film.frames)
    assert watch.at == film.last and ticks == film.last - film.first
    watch.toggle_play()  # at the end: from the start again
    assert watch.playing and watch.at == film.first
    watch.toggle_play()
    watch.tick()
    assert not watch.playing and watch.at == film.first


def test_watching_as_another_seat_says_what_cannot_be_shown(
        tmp_path: Path, sealed_logs: dict[str, list[Path]], plugins: PluginHost,  # noqa: F811
) -> None:
    film = load_film(cut(sealed_logs["petals"][1], 10, tmp_path / "p.hlog"), plugins)
    watch = watching(film, plugins, seat=1)
    watch.next_seat()
    assert watch.watching == 0 and "cards are sealed: " in (watch.table.message or "")
    watch.next_seat()
    assert watch.watching == 1 and watch.table.message.startswith("Watching as")
    watch.next_seat(-1)
    assert watch.watching == 0


def test_as_names_a_seat_by_number_or_name(tmp_path: Path, plugins: PluginHost) -> None:
    film = load_film(open_log(tmp_path / "n.hlog", "petals", 3, own_seat=2,
                              names=("Ann", "Ben", "Cy")), plugins)
    assert choose_seat(film, None) == 2  # the log's writer
    assert choose_seat(film, "1") == 1 and choose_seat(film, "ben") == 1
    assert choose_seat(film, " CY ") == 2
    for bad in ("3", "-1", "Dee", ""):
        with pytest.raises(HedgerowError, match=r"its seats are 0 \(Ann\), 1 \(Ben\), 2"):
            choose_seat(film, bad)
