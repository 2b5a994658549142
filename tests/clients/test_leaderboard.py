"""FLOWERS' weekly leaderboard: recorded after a replay, refused when altered, grouped by ISO week.

Solo games are played for real: through the seat client by keys (pipe input), in this
process and over a real networked table, or by a bot with the playout engine.  Every
moment comes from a fixed clock; no expectation reads the wall clock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from appdriver import play_to_the_end, running

from hedgerow.clients import cmd_leaderboard, cmd_play
from hedgerow.clients import leaderboard as lb
from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.cli import build_parser, main
from hedgerow.clients.leaderboard import IsoWeek, Leaderboard, Refused, record_played, submit
from hedgerow.clients.leaderboard_check import check_log, log_of_table
from hedgerow.core.actions import Action
from hedgerow.core.datadir import leaderboard_path
from hedgerow.core.errors import HedgerowError
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import LogEntry
from hedgerow.net.logfile import LogWriter, parse_log
from hedgerow.net.messages import LogHeader

#: Thursday of 2026-W49.
THURSDAY = datetime(2026, 12, 3, 14, 5, 9, tzinfo=UTC)


@pytest.fixture(scope="module")
def host() -> PluginHost:
    return PluginHost(autoload=False)


def rules_of(host: PluginHost):
    return lambda h: host.ruleset(h.game, h.variants, h.players)


def solo_log(host: PluginHost, seed: int, name: str = "Ann", variants: tuple[str, ...] = (),
             players: int = 1, game: str = "flowers") -> tuple[bytes, int]:
    """A bot plays a whole game; its log (as a seat writes it) and seat 0's score."""
    ruleset = host.ruleset(game, variants, players)
    table = play(ruleset, players, seed_from_int(seed), [host.bot("random", game)])
    outcome = table.outcome()
    assert outcome is not None
    names = [name, *(f"Bot {s}" for s in range(1, players))]
    return log_of_table(table, names), outcome.scores[0]


def add(host: PluginHost, log: bytes, when: datetime = THURSDAY, claimed: int | None = None):
    return submit(log, rules_of(host), game="flowers", finished_at=when, claimed=claimed)


def board_json(*args: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["leaderboard", "flowers", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def rows_in_store() -> int:
    path = leaderboard_path()
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def reframe(log: bytes, change, path: Path) -> bytes:
    """The log rewritten as a careful forger would: ``change(entries)`` edits the (index,
    seat, action, state_hash) list, then every digest and checksum is recomputed."""
    result = parse_log(log)
    assert result.ok and result.header is not None
    items = [(e.entry.index, e.entry.seat, e.entry.action, e.state_hash) for e in result.entries]
    items = change(items)
    head = result.header.table_header.genesis
    with LogWriter(path, result.header, sync=False) as writer:
        for index, seat, action, state_hash in items:
            entry = LogEntry.after(head, index, seat, action)
            writer.append(entry, state_hash)
            head = entry.digest
    return path.read_bytes()


def with_header(log: bytes, path: Path, **fields) -> bytes:
    """The same entries under a header with ``fields`` changed."""
    result = parse_log(log)
    assert result.header is not None
    header = LogHeader(**{**{f: getattr(result.header, f) for f in LogHeader.__dataclass_fields__},
                          **fields})
    with LogWriter(path, header, sync=False) as writer:
        for item in result.entries:
            writer.append(item.entry, item.state_hash)
    return path.read_bytes()


# -- recording real games -------------------------------------------------------------------


async def _play_by_keys(seat, host: PluginHost) -> None:
    async with running(seat, host) as d:
        await play_to_the_end(d)
        assert d.state.outcome is not None
        d.press("q")  # over: no question
        assert await asyncio.wait_for(d.task, 5) == 0


def test_two_solo_games_played_in_the_seat_client_average_on_the_weeks_board(
        host: PluginHost, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """What ``hedgerow play flowers --players 1`` does, minus the terminal check: one game
    over a real networked table (its .hlog file is the log kept), one in this process
    (``--local``: the log is written from the table); each farewell records the game."""
    from hedgerow.net.launch import host_table

    ruleset = host.ruleset("flowers", players=1)
    # Thursday 31 December 2026, then Sunday 3 January 2027: one ISO week, two years
    moments = iter([datetime(2026, 12, 31, 20, tzinfo=UTC), datetime(2027, 1, 3, 9, tzinfo=UTC)])
    monkeypatch.setattr(lb, "utc_now", lambda: next(moments))
    scores = []

    async def networked() -> None:
        peer = await host_table(ruleset, 1, seat_name="Ann", seed=5, announce=False)
        try:
            await _play_by_keys(peer, host)
        finally:
            await peer.close()
        cmd_play._farewell(peer)
        scores.append(peer.outcome().score)
        assert peer.log_path().suffix == ".hlog"

    async def local() -> None:
        seat = LocalSeat(ruleset, 1, seed_from_int(6), bots=[], name="Ann")
        await _play_by_keys(seat, host)
        await seat.close()
        cmd_play._farewell(seat)
        scores.append(seat.outcome().score)

    asyncio.run(networked())
    asyncio.run(local())
    out = capsys.readouterr().out
    for score in scores:
        assert f"Recorded on the leaderboard for 2026-W53: Ann, {score} points" in out
    assert "See: hedgerow leaderboard flowers" in out
    board = board_json("--week", "2026-W53", capsys=capsys)
    (ann,) = board["players"]
    assert ann["player"] == "Ann" and ann["games"] == 2
    assert ann["total"] == sum(scores) and ann["average"] == round(sum(scores) / 2, 2)
    assert ann["best"] == max(scores)


def test_an_unfinished_or_multiplayer_game_is_not_for_the_board(host: PluginHost) -> None:
    ruleset = host.ruleset("flowers", players=1)
    unfinished = LocalSeat(ruleset, 1, seed_from_int(1), bots=[], name="Ann")
    assert record_played(unfinished, clock=lambda: THURSDAY) is None
    two = LocalSeat(host.ruleset("flowers", players=2), 2, seed_from_int(1),
                    bots=[host.bot("random", "flowers")], name="Ann")
    while two.table.active_seats():
        seat = two.table.active_seats()[0]
        two.table.play(seat, two.table.legal_actions(seat)[0])
    assert two.outcome() is not None
    assert record_played(two, clock=lambda: THURSDAY) is None
    assert rows_in_store() == 0


def test_the_replay_gives_the_score_rank_and_player(host: PluginHost) -> None:
    log, score = solo_log(host, 3)
    checked = check_log(log, rules_of(host), game="flowers")
    assert (checked.player, checked.score, checked.game, checked.variants) == (
        "Ann", score, "flowers", ())
    assert checked.rank in ("Beginner", "Apprentice", "Expert", "Master")
    assert checked.game_id == parse_log(log).entries[-1].entry.digest.hex()
    entry = add(host, log, claimed=score)
    assert (str(entry.week), entry.finished_at) == ("2026-W49", THURSDAY)


# -- what is refused ----------------------------------------------------------------------


def test_a_claimed_score_the_replay_does_not_reach_is_refused(host: PluginHost) -> None:
    log, score = solo_log(host, 3)
    with pytest.raises(Refused, match=f"replays to {score} points, not the {score + 5} claimed"):
        add(host, log, claimed=score + 5)
    assert rows_in_store() == 0


def _plant_far_away(items):
    i = next(i for i, (_, _, action, _) in enumerate(items) if action.kind == "plant")
    index, seat, action, state_hash = items[i]
    items[i] = (index, seat, Action.of("plant", stack=action["stack"], x=50, y=50), state_hash)
    return items


def _rig_the_deal(items):
    index, seat, action, state_hash = items[0]
    draws, first = action["draws"]
    items[0] = (index, seat, Action(action.kind, (("draws", (tuple(sorted(draws)), first)),)),
                state_hash)
    return items


def _claim_another_state(items):
    index, seat, action, _ = items[-1]
    items[-1] = (index, seat, action, bytes(32))
    return items


@pytest.mark.parametrize(("tamper", "message"), [
    ("flip a byte", "the log is damaged at byte"),
    ("truncate", "the game in the log is not over"),
    ("plant far away", "the log does not replay: "),
    ("rig the deal", "is not the chance this table resolves"),
    ("claim another state", "the state hash after"),
    ("not a log", "not a table log"),
])
def test_an_altered_log_is_refused_and_nothing_is_kept(host: PluginHost, tmp_path: Path,
                                                       tamper: str, message: str) -> None:
    log, _ = solo_log(host, 4)
    if tamper == "flip a byte":
        bad = bytearray(log)
        bad[-45] ^= 0x01
        altered = bytes(bad)
    elif tamper == "truncate":
        altered = reframe(log, lambda items: items[:-3], tmp_path / "log")
    elif tamper == "plant far away":
        altered = reframe(log, _plant_far_away, tmp_path / "log")
    elif tamper == "rig the deal":
        altered = reframe(log, _rig_the_deal, tmp_path / "log")
    elif tamper == "claim another state":
        altered = reframe(log, _claim_another_state, tmp_path / "log")
    else:
        altered = b"score: 99\n"
    with pytest.raises(Refused, match=message) as caught:
        add(host, altered)
    assert message in caught.value.message
    assert rows_in_store() == 0


def test_the_same_log_counts_once_whatever_name_its_header_gives(host: PluginHost,
                                                                 tmp_path: Path) -> None:
    log, _ = solo_log(host, 5)
    add(host, log)
    with pytest.raises(Refused, match=r"already on the leaderboard \(Ann, finished "
                                      r"2026-12-03T14:05:09\+00:00\): a log counts once"):
        add(host, log, when=THURSDAY + timedelta(days=7))
    renamed = with_header(log, tmp_path / "renamed.hlog", seat_names=("Bob",))
    with pytest.raises(Refused, match="already on the leaderboard"):
        add(host, renamed)
    assert rows_in_store() == 1


@pytest.mark.parametrize(("kind", "message"), [
    ("two players", "is a 2-player game; the leaderboard takes solo games only"),
    ("petals", "the log is a game of petals, not flowers"),
    ("no name", "the log does not name its player"),
])
def test_only_named_solo_flowers_games_are_taken(host: PluginHost, tmp_path: Path, kind: str,
                                                 message: str) -> None:
    if kind == "two players":
        log, _ = solo_log(host, 1, players=2)
    elif kind == "petals":
        log, _ = solo_log(host, 1, players=2, game="petals")
    else:
        log = with_header(solo_log(host, 1)[0], tmp_path / "anon.hlog", seat_names=("  ",))
    with pytest.raises(Refused, match=message):
        add(host, log)
    assert rows_in_store() == 0


# -- weeks ----------------------------------------------------------------------------------


def test_iso_weeks_across_the_year_boundary() -> None:
    assert (IsoWeek.weeks_in(2026), IsoWeek.weeks_in(2027)) == (53, 52)
    week53 = IsoWeek.parse("2026-W53")
    assert (week53.monday.isoformat(), week53.sunday.isoformat()) == ("2026-12-28", "2027-01-03")
    assert IsoWeek.of(datetime(2027, 1, 2, 12, tzinfo=UTC)) == week53
    assert str(IsoWeek.of(datetime(2027, 1, 4, tzinfo=UTC))) == "2027-W01"
    assert str(IsoWeek.of(datetime(2026, 12, 27, 23, 59, 59, tzinfo=UTC))) == "2026-W52"
    # read in UTC: half past midnight on Monday in Paris is still Sunday in UTC
    paris = timezone(timedelta(hours=1))
    assert IsoWeek.of(datetime(2027, 1, 4, 0, 30, tzinfo=paris)) == week53
    assert IsoWeek.parse("2026-w49") == IsoWeek(2026, 49)
    with pytest.raises(ValueError, match="time zone"):
        IsoWeek.of(datetime(2027, 1, 4))


def test_games_are_grouped_by_the_iso_week_they_finished_in(
        host: PluginHost, capsys: pytest.CaptureFixture[str]) -> None:
    moments = {
        "2026-W52": [datetime(2026, 12, 27, 23, 59, 59, tzinfo=UTC)],
        "2026-W53": [datetime(2026, 12, 28, tzinfo=UTC), datetime(2027, 1, 3, 23, 59, 59,
                                                                   tzinfo=UTC)],
        "2027-W01": [datetime(2027, 1, 4, tzinfo=UTC)],
    }
    scores: dict[str, list[int]] = {}
    seed = 10
    for week, whens in moments.items():
        for when in whens:
            log, score = solo_log(host, seed)
            seed += 1
            add(host, log, when=when)
            scores.setdefault(week, []).append(score)
    for week, expected in scores.items():
        board = board_json("--week", week, capsys=capsys)
        (ann,) = board["players"]
        assert (ann["games"], ann["total"], ann["best"]) == (len(expected), sum(expected),
                                                             max(expected))
    board = board_json("--week", "2026-W53", capsys=capsys)
    assert (board["from"], board["to"]) == ("2026-12-28", "2027-01-03")


def test_the_default_week_is_the_clocks(host: PluginHost,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    log, score = solo_log(host, 7)
    add(host, log, when=THURSDAY)
    args = build_parser("leaderboard").parse_args(["leaderboard", "flowers", "--json"])
    assert cmd_leaderboard.run(args, clock=lambda: THURSDAY + timedelta(days=3)) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["week"] == "2026-W49" and board["players"][0]["total"] == score
    assert cmd_leaderboard.run(args, clock=lambda: THURSDAY + timedelta(days=4)) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["week"] == "2026-W50" and board["players"] == []


# -- the command ------------------------------------------------------------------------------


def test_json_ranks_players_by_average(host: PluginHost,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    played: dict[str, list[int]] = {"Ann": [], "Bob": [], "Cy": []}
    seed = 20
    for name, games in (("Ann", 2), ("Bob", 3), ("Cy", 1)):
        for _ in range(games):
            log, score = solo_log(host, seed, name=name)
            seed += 1
            add(host, log)
            played[name].append(score)
    board = board_json("--week", "2026-W49", capsys=capsys)
    assert set(board) == {"game", "variants", "week", "from", "to", "players"}
    assert (board["game"], board["variants"], board["week"]) == ("flowers", [], "2026-W49")
    lines = board["players"]
    averages = {name: sum(s) / len(s) for name, s in played.items()}
    assert [line["player"] for line in lines] == sorted(
        played, key=lambda n: (-averages[n], -max(played[n]), -len(played[n]), n))
    for line in lines:
        scores = played[line["player"]]
        assert set(line) == {"place", "player", "games", "average", "total", "best",
                             "best_rank"}
        assert line["games"] == len(scores) and line["best"] == max(scores)
        assert line["average"] == round(averages[line["player"]], 2)
        assert line["place"] == 1 + sum(a > averages[line["player"]] for a in averages.values())
        assert line["best_rank"] in ("Beginner", "Apprentice", "Expert", "Master")


def test_the_text_board_and_an_empty_week(host: PluginHost,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard", "flowers", "--week", "2026-W49"]) == 0
    out = capsys.readouterr().out
    assert out == ("FLOWERS leaderboard, week 2026-W49 (Mon 30 Nov to Sun 6 Dec 2026, UTC)\n"
                   "No games recorded this week.\n")
    assert not leaderboard_path().exists()  # looking does not create the store
    assert board_json("--week", "2026-W49", capsys=capsys)["players"] == []
    log, score = solo_log(host, 8)
    add(host, log)
    assert main(["leaderboard", "flowers", "--week", "2026-W49"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["#", "Player", "Games", "Average", "Best", "Rank", "of", "best"]
    assert lines[2].split()[:5] == ["1", "Ann", "1", f"{score:.2f}", str(score)]


def test_each_variant_set_has_its_own_board(host: PluginHost,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    log, score = solo_log(host, 9, variants=("summer",))
    assert add(host, log).checked.variants == ("summer",)
    assert board_json("--week", "2026-W49", capsys=capsys)["players"] == []
    board = board_json("--week", "2026-W49", "--variant", "summer", capsys=capsys)
    assert board["variants"] == ["summer"] and board["players"][0]["total"] == score
    assert main(["leaderboard", "flowers", "--week", "2026-W49", "--variant", "summer"]) == 0
    assert capsys.readouterr().out.startswith("FLOWERS + summer leaderboard, week 2026-W49")


@pytest.mark.parametrize(("args", "message"), [
    (["--week", "2026-49"], "--week takes an ISO week such as 2026-W49, not '2026-49'"),
    (["--week", "W49"], "--week takes an ISO week such as 2026-W49, not 'W49'"),
    (["--week", "2026-W00"], "2026-W00 is not a week: 2026 has weeks W01 to W53"),
    (["--week", "2027-W53"], "2027-W53 is not a week: 2027 has weeks W01 to W52"),
    (["--week", "0000-W01"], "0000-W01 is not a week of a supported year"),
    (["--variant", "winter"], "unknown variant 'winter' for flowers (choose from: summer)"),
    (["--add", "missing.hlog"], "cannot read missing.hlog: No such file or directory"),
])
def test_bad_arguments_get_one_clear_line(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard", "flowers", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"hedgerow: error: {message}\n" and captured.out == ""


@pytest.mark.parametrize("game", ["petals", "chess"])
def test_a_game_without_a_board_is_named(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard", game]) == 2
    assert capsys.readouterr().err == (f"hedgerow: error: no leaderboard for {game!r} "
                                       "(leaderboards: flowers)\n")


def test_add_a_log_file_from_the_command_line(host: PluginHost, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    log, score = solo_log(host, 11)
    good, bad = tmp_path / "good.hlog", tmp_path / "bad.hlog"
    good.write_bytes(log)
    bad.write_bytes(log[:-45] + bytes([log[-45] ^ 1]) + log[-44:])
    args = build_parser("leaderboard").parse_args(["leaderboard", "flowers", "--add", str(bad)])
    with pytest.raises(HedgerowError, match="the log is damaged"):
        cmd_leaderboard.run(args, clock=lambda: THURSDAY)
    assert rows_in_store() == 0
    args = build_parser("leaderboard").parse_args(
        ["leaderboard", "flowers", "--add", str(good), "--json"])
    assert cmd_leaderboard.run(args, clock=lambda: THURSDAY) == 0
    added = json.loads(capsys.readouterr().out)
    assert (added["player"], added["score"], added["week"]) == ("Ann", score, "2026-W49")
    assert added["finished_at"] == "2026-12-03T14:05:09+00:00"
    assert main(["leaderboard", "flowers", "--add", str(good)]) == 2
    assert "a log counts once" in capsys.readouterr().err
    assert main(["leaderboard", "flowers", "--add", str(good), "--week", "2026-W49"]) == 2
    assert rows_in_store() == 1


def test_a_file_that_is_not_a_leaderboard_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    path = leaderboard_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not SQLite" * 10)
    assert main(["leaderboard", "flowers", "--week", "2026-W49"]) == 2
    assert capsys.readouterr().err.startswith(f"hedgerow: error: cannot use the leaderboard "
                                              f"{path}: ")
    with pytest.raises(HedgerowError, match="cannot use the leaderboard"):
        Leaderboard(path)
    assert path.read_bytes() == b"this is not SQLite" * 10


def test_a_leaderboard_from_a_newer_hedgerow_is_left_alone(host: PluginHost) -> None:
    path = leaderboard_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {lb.SCHEMA + 1}")
    log, _ = solo_log(host, 12)
    with pytest.raises(HedgerowError, match=f"written by a newer Hedgerow \\(layout "
                                            f"{lb.SCHEMA + 1}, this one reads {lb.SCHEMA}\\)"):
        add(host, log)
    with sqlite3.connect(path) as db:
        tables = db.execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == []


def test_a_game_declares_its_solo_leaderboard(host: PluginHost) -> None:
    """The boards are the games whose spec says so (FLOWERS), not a list in the client."""
    assert lb.boards(host.games) == ("flowers",)
    assert host.game("flowers").leaderboard and not host.game("flourish").leaderboard
    declared = dataclasses.replace(host.game("petals"), leaderboard=True)
    assert lb.boards({**host.games, "petals": declared}) == ("flowers", "petals")
