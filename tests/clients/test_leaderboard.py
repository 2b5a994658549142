"""FLOWERS' weekly leaderboard on one machine: board deals, records, standings, the command.

Solo games are played for real: through the seat client by keys (pipe input), in this
process and over a real networked table, or by a bot with the playout engine, always from
the board's deal for the key.  Every moment comes from a fixed clock; no expectation reads
the wall clock.  The exchange between machines and hostile input: test_board_share.py and
test_board_hostile.py.
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
from boardgames import THURSDAY, play_board_game, reframe, rig_the_deal, rules_of, with_header

from hedgerow.clients import cmd_leaderboard
from hedgerow.clients import leaderboard as lb
from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.cli import build_parser, main
from hedgerow.clients.leaderboard import Added, IsoWeek, Leaderboard, Refused
from hedgerow.clients.leaderboard_check import check_log, log_of_table
from hedgerow.clients.leaderboard_play import BoardSession, record_log, refresh_own
from hedgerow.core.actions import Action
from hedgerow.core.datadir import leaderboard_path
from hedgerow.core.errors import HedgerowError
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.net.keys import generate, load_identity
from hedgerow.net.logfile import parse_log


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost(autoload=False)


def solo_log(plugins: PluginHost, seed: int, name: str = "Ann", variants: tuple[str, ...] = (),
             players: int = 1, game: str = "flowers") -> tuple[bytes, int]:
    """A bot plays a whole game; its log (as a seat writes it) and seat 0's score."""
    ruleset = plugins.ruleset(game, variants, players)
    table = play(ruleset, players, seed_from_int(seed), [plugins.bot("random", game)])
    outcome = table.outcome()
    assert outcome is not None
    names = [name, *(f"Bot {s}" for s in range(1, players))]
    return log_of_table(table, names), outcome.scores[0]


def check(plugins: PluginHost, log: bytes, claimed: int | None = None):
    return check_log(log, rules_of(plugins), game="flowers", claimed=claimed)


def rows_in_store() -> int:
    path = leaderboard_path()
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM records").fetchone()[0]




def board_json(*args: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["leaderboard", "flowers", "--json", "--wait", "0", *args]) == 0
    return json.loads(capsys.readouterr().out)


def games(plugins: PluginHost, count: int, name: str = "Ann", identity=None, **kw) -> list[int]:
    """``count`` board games of ``identity`` (this user's by default); their scores."""
    identity = identity or load_identity()
    with Leaderboard() as store:
        return [play_board_game(plugins, identity, name, store, **kw)[1] for _ in range(count)]


# -- recording real games -------------------------------------------------------------------


async def _play_by_keys(seat, plugins: PluginHost) -> None:
    async with running(seat, plugins) as d:
        await play_to_the_end(d)
        assert d.state.outcome is not None
        d.press("q")  # over: no question
        assert await asyncio.wait_for(d.task, 5) == 0


def test_board_games_played_in_the_seat_client_average_on_the_weeks_board(
        plugins: PluginHost, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """What ``hedgerow play flowers --players 1`` does, minus the terminal check: the
    notice and the question before the deal, one game over a real networked table (its
    .hlog file is the log kept), one in this process (``--local``); each is the board's
    deal for the key's next game number, and each farewell line says what was kept."""
    from hedgerow.net.launch import host_table

    monkeypatch.setenv("HEDGEROW_NO_DISCOVERY", "1")
    ruleset = plugins.ruleset("flowers", players=1)
    # Thursday 31 December 2026, then Sunday 3 January 2027: one ISO week, two years
    moments = [datetime(2026, 12, 31, 20, tzinfo=UTC), datetime(2027, 1, 3, 9, tzinfo=UTC)]
    scores, seeds = [], []

    async def game(when: datetime, networked: bool) -> None:
        asked = []
        board = BoardSession.prepare(plugins, ruleset, "Ann", clock=lambda: when,
                                     ask=lambda q: asked.append(q) or "",
                                     resumable=networked)
        assert board is not None and asked == ["Press Enter to deal, or q and Enter to stop: "]
        seeds.append(board.seed)
        if networked:
            seat = await host_table(ruleset, 1, seat_name="Ann", seed=board.seed,
                                    announce=False)
            try:
                await board.start(seat.log_path())
                with Leaderboard() as store:  # found again however this process ends
                    assert store.own_logs(load_identity().public) == [
                        ("2026-W53", 0, seat.log_path())]
                await _play_by_keys(seat, plugins)
            finally:
                await seat.close()
            assert seat.log_path().suffix == ".hlog"
        else:
            seat = LocalSeat(ruleset, 1, board.seed, bots=[], name="Ann")
            await board.start(seat.log_path())
            await _play_by_keys(seat, plugins)
            await seat.close()
        scores.append(seat.outcome().score)
        print(await board.finish(seat.log_path(), seat.outcome().score))

    asyncio.run(game(moments[0], True))
    asyncio.run(game(moments[1], False))
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "game 1 of 2026-W53 for Ann" in out and "game 2 of 2026-W53 for Ann" in out
    assert ("if you\nleave before the end, it counts -41 points (no finished game scores "
            "less)\nuntil you finish it (hedgerow resume).") in out
    assert "counts -41 points (no finished game scores less)\nfor good: a game played " \
        "with --local cannot be resumed." in out
    for number, score in enumerate(scores, 1):
        assert (f"Recorded on the leaderboard: game {number} of 2026-W53, Ann, {score} points "
                "(") in out
    assert out.count("\nSee: hedgerow leaderboard flowers\n") == 2
    with Leaderboard() as store:
        assert store.own_logs(load_identity().public) == []  # both over
    assert "See: hedgerow leaderboard flowers" in out
    assert len(set(seeds)) == 2
    board = board_json("--week", "2026-W53", capsys=capsys)
    (ann,) = board["players"]
    assert ann["player"] == "Ann" and ann["games"] == 2 and ann["verified"] == 2
    assert ann["total"] == sum(scores) and ann["average"] == round(sum(scores) / 2, 2)
    assert ann["best"] == max(scores)


def test_a_left_board_game_is_finished_with_resume_and_picked_up(
        plugins: PluginHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule the notice gives: a board game left after a few moves counts -41; the same
    seat comes back (``hedgerow resume``: its log, a real networked seat), finishes the game,
    and the next board command takes the finished log in its place."""
    from hedgerow.net.launch import host_table, resume_table

    monkeypatch.setenv("HEDGEROW_NO_DISCOVERY", "1")
    ruleset = plugins.ruleset("flowers", players=1)
    me = load_identity()

    async def moves(seat, count: int | None) -> None:
        played = 0
        while seat.outcome() is None and (count is None or played < count):
            assert await seat.wait_until(lambda: bool(seat.legal_actions()), timeout=10)
            assert await seat.submit(seat.legal_actions()[0]) is None
            played += 1

    async def scenario() -> tuple[int, str]:
        board = BoardSession.prepare(plugins, ruleset, "Ann", clock=lambda: THURSDAY,
                                     ask=lambda _q: "")
        assert board is not None
        seat = await host_table(ruleset, 1, seat_name="Ann", seed=board.seed, announce=False)
        try:
            await board.start(seat.log_path())
            await moves(seat, 3)
        finally:
            await seat.close()
        line = await board.finish(seat.log_path(), None)
        assert line is not None and line.startswith(
            "Game 1 of 2026-W49 is on the leaderboard as unfinished: it counts -41 points\n"
            "until you finish it (hedgerow resume).")
        back = await resume_table(seat.log_path(), identity=me, plugins=plugins)
        try:
            await moves(back, None)
        finally:
            await back.close()
        return back.outcome().score, back.outcome().grade

    score, rank = asyncio.run(scenario())
    with Leaderboard() as store:
        (line,) = store.standings("flowers", (), IsoWeek(2026, 49))
        assert (line.games, line.verified, line.total) == (1, 0, -41)
        updated = refresh_own(me, store, rules_of(plugins), {"flowers"}, clock=lambda: THURSDAY)
        assert updated == [f"Game 1 of 2026-W49 updated from its log: {score} points ({rank})"]
        (line,) = store.standings("flowers", (), IsoWeek(2026, 49))
        assert (line.games, line.verified, line.total) == (1, 1, score)
        assert store.own_logs(me.public) == []


def test_saying_no_deals_nothing(plugins: PluginHost, capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = plugins.ruleset("flowers", players=1)
    assert BoardSession.prepare(plugins, ruleset, "Ann", ask=lambda _q: "q") is None
    assert "Nothing was dealt." in capsys.readouterr().out
    assert rows_in_store() == 0


def test_a_game_counts_from_its_deal_and_a_left_game_counts_the_floor(
        plugins: PluginHost, capsys: pytest.CaptureFixture[str]) -> None:
    """The start record is kept before the deal: a game never finished counts -41 at once,
    the next deal is the next game number, and the game's log, finished later (``hedgerow
    resume``), replaces it."""
    me = load_identity()
    with Leaderboard() as store:
        play_board_game(plugins, me, "Ann", store, finish=False)
        (line,) = store.standings("flowers", (), IsoWeek(2026, 49))
        assert (line.games, line.verified, line.total, line.best) == (1, 0, -41, None)
        _, score = play_board_game(plugins, me, "Ann", store)
        (line,) = store.standings("flowers", (), IsoWeek(2026, 49))
        assert (line.games, line.verified, line.total) == (2, 1, score - 41)
        # game 1, finished later from its log
        ruleset = plugins.ruleset("flowers", players=1)
        from hedgerow.net.boardrecord import deal_seed

        table = play(ruleset, 1, deal_seed(me.public, "flowers", "", "2026-W49", 0),
                     [plugins.bot("random", "flowers")])
        log = log_of_table(table, ["Ann"])
        path = Path(leaderboard_path().parent / "later.hlog")
        path.write_bytes(log)
        store.remember_log(me.public, "2026-W49", 0, path)
        assert refresh_own(me, store, rules_of(plugins), {"flowers"},
                           clock=lambda: THURSDAY) == [
            f"Game 1 of 2026-W49 updated from its log: {table.outcome().score} points "
            f"({table.outcome().grade})"]
        (line,) = store.standings("flowers", (), IsoWeek(2026, 49))
        assert (line.games, line.verified, line.total) == (2, 2, score + table.outcome().score)
        assert store.own_logs(me.public) == []


def test_a_game_not_received_counts_the_floor(plugins: PluginHost) -> None:
    """Game numbers run from 0 without gaps: a game missing below the last one held counts
    the floor, so a deal nobody shows cannot be skipped."""
    me = load_identity()
    with Leaderboard() as store:
        logs = [play_board_game(plugins, me, "Ann", store) for _ in range(3)]
    path = leaderboard_path()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM records WHERE number = 1")
    with Leaderboard() as store:
        (line,) = store.standings("flowers", (), IsoWeek(2026, 49))
    assert (line.games, line.verified, line.total) == (3, 2, logs[0][1] + logs[2][1] - 41)


def test_the_replay_gives_the_score_rank_and_player(plugins: PluginHost) -> None:
    log, score = solo_log(plugins, 3)
    checked = check(plugins, log, claimed=score)
    assert (checked.player, checked.score, checked.game, checked.variants) == (
        "Ann", score, "flowers", ())
    assert checked.rank in ("Beginner", "Apprentice", "Expert", "Master")
    assert checked.game_id == parse_log(log).entries[-1].entry.digest.hex()
    assert checked.over and checked.floor == -41


# -- what is refused ----------------------------------------------------------------------


def test_a_claimed_score_the_replay_does_not_reach_is_refused(plugins: PluginHost) -> None:
    log, score = solo_log(plugins, 3)
    with pytest.raises(Refused, match=f"replays to {score} points, not the {score + 5} claimed"):
        check(plugins, log, claimed=score + 5)


def _plant_far_away(items):
    i = next(i for i, (_, _, action, _) in enumerate(items) if action.kind == "plant")
    index, seat, action, state_hash = items[i]
    items[i] = (index, seat, Action.of("plant", stack=action["stack"], x=50, y=50), state_hash)
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
def test_an_altered_log_is_refused_and_nothing_is_kept(plugins: PluginHost, tmp_path: Path,
                                                       tamper: str, message: str) -> None:
    log, _ = solo_log(plugins, 4)
    if tamper == "flip a byte":
        bad = bytearray(log)
        bad[-45] ^= 0x01
        altered = bytes(bad)
    elif tamper == "truncate":
        altered = reframe(log, lambda items: items[:-3], tmp_path / "log")
    elif tamper == "plant far away":
        altered = reframe(log, _plant_far_away, tmp_path / "log")
    elif tamper == "rig the deal":
        altered = reframe(log, rig_the_deal, tmp_path / "log")
    elif tamper == "claim another state":
        altered = reframe(log, _claim_another_state, tmp_path / "log")
    else:
        altered = b"score: 99\n"
    with pytest.raises(Refused, match=message) as caught:
        check(plugins, altered)
    assert message in caught.value.message
    assert rows_in_store() == 0


@pytest.mark.parametrize(("kind", "message"), [
    ("two players", "is a 2-player game; the leaderboard takes solo games only"),
    ("petals", "the log is a game of petals, not flowers"),
    ("no name", "the log does not name its player"),
])
def test_only_named_solo_flowers_games_are_taken(plugins: PluginHost, tmp_path: Path, kind: str,
                                                 message: str) -> None:
    if kind == "two players":
        log, _ = solo_log(plugins, 1, players=2)
    elif kind == "petals":
        log, _ = solo_log(plugins, 1, players=2, game="petals")
    else:
        log = with_header(solo_log(plugins, 1)[0], tmp_path / "anon.hlog", seat_names=("  ",))
    with pytest.raises(Refused, match=message):
        check(plugins, log)
    assert rows_in_store() == 0




def test_a_dictated_seed_game_is_never_kept(plugins: PluginHost, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A ``--seed`` game, signed by its player as any game number, is refused: its deal is
    not the board's; ``--add`` says why."""
    log, _ = solo_log(plugins, 5)
    me = load_identity()
    with Leaderboard() as store, pytest.raises(Refused, match=r"not the board's deal for game "
                                               r"1 of 2026-W49 .*\(a game with a dictated seed "
                                               r"never counts\)"):
        record_log(me, "2026-W49", 0, log, store, rules_of(plugins), "flowers")
    path = tmp_path / "seeded.hlog"
    path.write_bytes(log)
    assert main(["leaderboard", "flowers", "--add", str(path)]) == 2
    assert "a --seed game never counts" in capsys.readouterr().err
    assert rows_in_store() == 0


def test_the_same_game_under_another_name_is_refused(plugins: PluginHost, tmp_path: Path) -> None:
    me = load_identity()
    with Leaderboard() as store:
        log, _ = play_board_game(plugins, me, "Ann", store)
        renamed = with_header(log, tmp_path / "renamed.hlog", seat_names=("Bob",))
        with pytest.raises(Refused, match="already on the board as 'Ann': a game counts "
                                          "once, under one name"):
            record_log(me, "2026-W49", 0, renamed, store, rules_of(plugins), "flowers")
        again = record_log(me, "2026-W49", 0, log, store, rules_of(plugins), "flowers")
        assert again[1] is Added.HELD
    assert rows_in_store() == 1


def test_a_deal_played_twice_counts_the_floor(plugins: PluginHost) -> None:
    """Two different games in one slot (a deal played again, on a copy of the key): both
    are kept, as proof, and the slot counts the floor."""
    me = load_identity()
    ruleset = plugins.ruleset("flowers", players=1)
    from hedgerow.net.boardrecord import deal_seed

    seed = deal_seed(me.public, "flowers", "", "2026-W49", 0)
    with Leaderboard() as store:
        first, _ = play_board_game(plugins, me, "Ann", store)
        again = log_of_table(play(ruleset, 1, seed, [plugins.bot("greedy", "flowers")]), ["Ann"])
        assert again != first
        assert record_log(me, "2026-W49", 0, again, store, rules_of(plugins),
                          "flowers")[1] is Added.CONFLICT
        (line,) = store.standings("flowers", (), IsoWeek(2026, 49))
    assert (line.games, line.verified, line.total) == (1, 0, -41)
    assert rows_in_store() == 2



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


def test_games_count_in_the_week_of_their_deal(plugins: PluginHost,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    moments = {
        "2026-W52": [datetime(2026, 12, 27, 23, 59, 59, tzinfo=UTC)],
        "2026-W53": [datetime(2026, 12, 28, tzinfo=UTC), datetime(2027, 1, 3, 23, 59, 59,
                                                                   tzinfo=UTC)],
        "2027-W01": [datetime(2027, 1, 4, tzinfo=UTC)],
    }
    scores: dict[str, list[int]] = {}
    for week, whens in moments.items():
        for when in whens:
            scores.setdefault(week, []).extend(games(plugins, 1, when=when))
    for week, expected in scores.items():
        board = board_json("--week", week, capsys=capsys)
        (ann,) = board["players"]
        assert (ann["games"], ann["total"], ann["best"]) == (len(expected), sum(expected),
                                                             max(expected))
    board = board_json("--week", "2026-W53", capsys=capsys)
    assert (board["from"], board["to"]) == ("2026-12-28", "2027-01-03")


def test_the_default_week_is_the_clocks(plugins: PluginHost,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (score,) = games(plugins, 1)
    args = build_parser("leaderboard").parse_args(["leaderboard", "flowers", "--json",
                                                   "--wait", "0"])
    assert cmd_leaderboard.run(args, clock=lambda: THURSDAY + timedelta(days=3)) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["week"] == "2026-W49" and board["players"][0]["total"] == score
    assert cmd_leaderboard.run(args, clock=lambda: THURSDAY + timedelta(days=4)) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["week"] == "2026-W50" and board["players"] == []


# -- the command ------------------------------------------------------------------------------


def test_json_ranks_players_by_average_and_tells_keys_apart(
        plugins: PluginHost, capsys: pytest.CaptureFixture[str]) -> None:
    """Three keys, two of them calling themselves Ann: each is its own line, told apart by
    the key's fingerprint; ``--local`` shows this user's key only."""
    keys = {"me": load_identity(), "other Ann": generate(), "Bob": generate()}
    played = {"me": games(plugins, 2, "Ann", keys["me"]),
              "other Ann": games(plugins, 3, "Ann", keys["other Ann"]),
              "Bob": games(plugins, 1, "Bob", keys["Bob"])}
    board = board_json("--week", "2026-W49", capsys=capsys)
    assert set(board) == {"game", "variants", "week", "from", "to", "local", "players",
                          "exchange"}
    assert (board["game"], board["variants"], board["week"]) == ("flowers", [], "2026-W49")
    lines = board["players"]
    by_key = {line["key"]: line for line in lines}
    averages = {who: sum(s) / len(s) for who, s in played.items()}
    from hedgerow.net.keys import key_text

    for who, scores in played.items():
        line = by_key[key_text(keys[who].public)]
        assert set(line) == {"place", "player", "key", "fingerprint", "games", "verified",
                             "average", "total", "best", "best_rank", "seen", "seen_at"}
        assert line["player"] == ("Bob" if who == "Bob" else "Ann")
        assert line["fingerprint"] == key_text(keys[who].public)[:8]
        assert line["games"] == line["verified"] == len(scores)
        assert line["best"] == max(scores) and line["average"] == round(averages[who], 2)
        assert line["place"] == 1 + sum(a > averages[who] for a in averages.values())
        assert line["best_rank"] in ("Beginner", "Apprentice", "Expert", "Master")
    assert [line["average"] for line in lines] == sorted(
        (line["average"] for line in lines), reverse=True)
    mine = board_json("--week", "2026-W49", "--local", capsys=capsys)
    assert [line["key"] for line in mine["players"]] == [key_text(keys["me"].public)]


def test_the_text_board_and_an_empty_week(plugins: PluginHost,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard", "flowers", "--week", "2026-W49", "--wait", "0"]) == 0
    out = capsys.readouterr().out
    assert out == ("FLOWERS leaderboard, week 2026-W49 (Mon 30 Nov to Sun 6 Dec 2026, UTC)\n"
                   "No games recorded this week.\n")
    assert not leaderboard_path().exists()  # looking without the LAN does not create it
    (score,) = games(plugins, 1)
    assert main(["leaderboard", "flowers", "--week", "2026-W49", "--wait", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["#", "Player", "Games", "Verified", "Average", "Best", "Rank",
                                "of", "best"]
    fp = load_identity().public
    from hedgerow.net.keys import key_text

    assert lines[2].split()[:7] == ["1", "Ann", f"({key_text(fp)[:8]})", "1", "1",
                                    f"{score:.2f}", str(score)]
    assert lines[3].strip() == "last seen: this machine, Thu 3 Dec 14:05 UTC"
    assert all(len(line) <= 80 for line in lines)
    assert main(["leaderboard", "flowers", "--week", "2026-W49", "--local"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "Your own games only (--local: the LAN was not asked)."
    assert all(len(line) <= 80 for line in lines)


def test_what_the_exchange_did_is_said_in_lines_of_80_columns() -> None:
    reason = ("the signature is not Qx3v-0aZ's: the record was altered, or signed by "
              "another key")
    lines = cmd_leaderboard._exchange_lines({
        "machines": 2, "received": 1, "updated": ["Game 2 of 2026-W49 updated from its log: "
                                                  "17 points (Apprentice)"],
        "refused": [{"from": "192.168.1.7:40811", "count": 3, "first": reason}],
        "unreachable": [{"from": "192.168.1.9:4000", "error": "192.168.1.9:4000 did not "
                                                              "answer within 5 s"}]})
    assert lines == ["Game 2 of 2026-W49 updated from its log: 17 points (Apprentice)",
                     "Exchanged with 2 machines on the LAN: 1 game record received.",
                     f"Refused 3 game records from 192.168.1.7:40811: {reason}",
                     "Could not exchange with 192.168.1.9:4000: 192.168.1.9:4000 did not "
                     "answer within 5 s"]
    shown = "\n".join(cmd_leaderboard._fit(line) for line in lines).splitlines()
    assert all(len(line) <= 80 for line in shown) and len(shown) == 6
    assert cmd_leaderboard._exchange_lines({"machines": 0, "received": 0, "updated": [],
                                            "refused": [], "unreachable": []}) == [
        "Found no other machine sharing the board (to name one: --peer HOST:PORT/KEY)."]


def test_each_variant_set_has_its_own_board(plugins: PluginHost,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (score,) = games(plugins, 1, variants=("summer",))
    assert board_json("--week", "2026-W49", capsys=capsys)["players"] == []
    board = board_json("--week", "2026-W49", "--variant", "summer", capsys=capsys)
    assert board["variants"] == ["summer"] and board["players"][0]["total"] == score
    assert main(["leaderboard", "flowers", "--week", "2026-W49", "--variant", "summer",
                 "--wait", "0"]) == 0
    assert capsys.readouterr().out.startswith("FLOWERS + summer leaderboard, week 2026-W49")


@pytest.mark.parametrize(("args", "message"), [
    (["--week", "2026-49"], "--week takes an ISO week such as 2026-W49, not '2026-49'"),
    (["--week", "W49"], "--week takes an ISO week such as 2026-W49, not 'W49'"),
    (["--week", "2026-W00"], "2026-W00 is not a week: 2026 has weeks W01 to W53"),
    (["--week", "2027-W53"], "2027-W53 is not a week: 2027 has weeks W01 to W52"),
    (["--week", "0000-W01"], "0000-W01 is not a week of a supported year"),
    (["--variant", "winter"], "unknown variant 'winter' for flowers (choose from: summer)"),
    (["--add", "missing.hlog"], "cannot read missing.hlog: No such file or directory"),
    (["--wait", "-1"], "--wait takes 0 to 600 seconds, not -1.0"),
    (["--peer", "10.0.0.1:4000"], "--peer takes the address a board service prints "
                                  "(HOST:PORT/KEY, see hedgerow leaderboard --serve): "
                                  "'10.0.0.1:4000' has no key"),
    (["--peer", "10.0.0.1:4000/abc"], "--peer takes the address a board service prints "
                                      "(HOST:PORT/KEY, see hedgerow leaderboard --serve): "
                                      "'abc' is not a key (43 characters of base64url)"),
    (["--serve", "--local"], "--serve shares the board with the LAN; leave out --local"),
])
def test_bad_arguments_get_one_clear_line(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard", "flowers", "--wait", "0", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"hedgerow: error: {message}") and captured.out == ""
    assert len(captured.err.splitlines()) == 1


@pytest.mark.parametrize("game", ["petals", "chess"])
def test_a_game_without_a_board_is_named(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard", game]) == 2
    assert capsys.readouterr().err == (f"hedgerow: error: no leaderboard for {game!r} "
                                       "(leaderboards: flowers)\n")


def test_add_a_board_game_from_its_log_file(plugins: PluginHost, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A board game left and finished elsewhere (its start record is here) is kept from its
    log file; a damaged one is refused."""
    me = load_identity()
    with Leaderboard() as store:
        play_board_game(plugins, me, "Ann", store, finish=False)
    from hedgerow.net.boardrecord import deal_seed

    ruleset = plugins.ruleset("flowers", players=1)
    table = play(ruleset, 1, deal_seed(me.public, "flowers", "", "2026-W49", 0),
                 [plugins.bot("random", "flowers")])
    log = log_of_table(table, ["Ann"])
    good, bad = tmp_path / "good.hlog", tmp_path / "bad.hlog"
    good.write_bytes(log)
    bad.write_bytes(log[:-45] + bytes([log[-45] ^ 1]) + log[-44:])
    args = build_parser("leaderboard").parse_args(["leaderboard", "flowers", "--add", str(bad)])
    with pytest.raises(HedgerowError, match="the log is damaged"):
        cmd_leaderboard.run(args, clock=lambda: THURSDAY)
    args = build_parser("leaderboard").parse_args(
        ["leaderboard", "flowers", "--add", str(good), "--json"])
    assert cmd_leaderboard.run(args, clock=lambda: THURSDAY) == 0
    added = json.loads(capsys.readouterr().out)
    assert (added["player"], added["score"], added["week"], added["number"], added["over"]) \
        == ("Ann", table.outcome().score, "2026-W49", 1, True)
    assert main(["leaderboard", "flowers", "--add", str(good), "--week", "2026-W49"]) == 2
    assert rows_in_store() == 1


def test_a_file_that_is_not_a_leaderboard_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    path = leaderboard_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not SQLite" * 10)
    assert main(["leaderboard", "flowers", "--week", "2026-W49", "--wait", "0"]) == 2
    assert capsys.readouterr().err.startswith(f"hedgerow: error: cannot use the leaderboard "
                                              f"{path}: ")
    with pytest.raises(HedgerowError, match="cannot use the leaderboard"):
        Leaderboard(path)
    assert path.read_bytes() == b"this is not SQLite" * 10


def test_a_leaderboard_from_a_newer_hedgerow_is_left_alone(plugins: PluginHost) -> None:
    path = leaderboard_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {lb.SCHEMA + 1}")
    with pytest.raises(HedgerowError, match=f"written by a newer Hedgerow \\(layout "
                                            f"{lb.SCHEMA + 1}, this one reads {lb.SCHEMA}\\)"):
        games(plugins, 1)
    with sqlite3.connect(path) as db:
        tables = db.execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == []


def test_a_layout_1_file_keeps_its_games(plugins: PluginHost) -> None:
    """The games of the board before it was shared stay in the file, untouched."""
    path = leaderboard_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (game_id TEXT PRIMARY KEY, player TEXT)")
        db.execute("INSERT INTO games VALUES ('ab', 'Ann')")
        db.execute("PRAGMA user_version = 1")
    games(plugins, 1)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT * FROM games").fetchall() == [("ab", "Ann")]
        assert db.execute("PRAGMA user_version").fetchone()[0] == lb.SCHEMA
    assert rows_in_store() == 1  # the start record, replaced by the finished game


def test_a_game_declares_its_solo_leaderboard(plugins: PluginHost) -> None:
    """The boards are the games whose spec says so (FLOWERS), not a list in the client."""
    assert lb.boards(plugins.games) == ("flowers",)
    assert plugins.game("flowers").leaderboard and not plugins.game("flourish").leaderboard
    assert plugins.game("flowers").leaderboard_floor == -41
    declared = dataclasses.replace(plugins.game("petals"), leaderboard=True)
    assert lb.boards({**plugins.games, "petals": declared}) == ("flowers", "petals")
