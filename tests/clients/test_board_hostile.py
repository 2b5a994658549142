"""The shared leaderboard against a hostile machine: nothing it sends reaches the board.

The victim is a real board service (`BoardShare`, its own SQLite store) pulling over real
CURVE sockets from `RogueBoard` (tests/clients/boardrogue.py), which serves what each test
forges: a forged score, a log signed by another key, a dictated-seed game, a truncated log,
one game under two names, garbage, a huge answer, a log of another game, 10,000 junk
records, 10,000 junk requests.  Each is refused with a one-line reason, the victim's board
and records are unchanged, and memory stays bounded (tracemalloc's peak for Python's
allocations; ZeroMQ's own buffers are bounded by the socket limits, docs/protocol.md
§11.1).  Honest games of a third player (Ann) are on the victim's board throughout.
"""

from __future__ import annotations

import asyncio
import os
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from boardgames import THURSDAY, play_board_game, reframe, rig_the_deal, rules_of, with_header
from boardrogue import RogueBoard

from hedgerow.clients import leaderboard_share
from hedgerow.clients.leaderboard import IsoWeek, Leaderboard
from hedgerow.clients.leaderboard_check import log_of_table
from hedgerow.clients.leaderboard_share import MAX_REFUSALS, BoardPeer, BoardShare, Pulled
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.net import boardsign
from hedgerow.net.boardrecord import GameRecord, sign_record
from hedgerow.net.boardwire import MAX_ANSWER, BoardMessage, Games, Want, encode_message
from hedgerow.net.keys import Identity, generate

WEEK = IsoWeek.of(THURSDAY)
MiB = 1024 * 1024


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost(autoload=False)


@pytest.fixture(autouse=True)
def no_discovery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEDGEROW_NO_DISCOVERY", "1")
    monkeypatch.setattr(leaderboard_share, "ASK_TIMEOUT", 1.0)


def all_records(store: Leaderboard) -> list[GameRecord]:
    """Every record ``store`` holds."""
    return store.records(i for g in store.ids(store.index()) for i in g.ids)


@dataclass
class Scene:
    """The victim (its board service and store), the rogue, and the players' keys."""

    plugins: PluginHost
    tmp: Path
    victim: BoardShare
    rogue: RogueBoard
    peer: BoardPeer
    ann: Identity
    mallory: Identity

    def board(self) -> tuple[Any, ...]:
        """Everything the victim's board shows, and the records it holds."""
        store = self.victim.store
        lines = tuple(store.standings("flowers", (), WEEK))
        return lines, tuple(sorted(r.id for r in all_records(store)))

    def games_of(self, who: Identity, name: str, count: int, *, finish: bool = True) \
            -> list[GameRecord]:
        """``count`` board games of ``who`` played on a machine of their own: the records."""
        store = Leaderboard(self.tmp / f"{name}-{os.urandom(4).hex()}.sqlite3")
        with store:
            for _ in range(count):
                play_board_game(self.plugins, who, name, store, finish=finish)
            return sorted(all_records(store), key=lambda r: r.number)

    async def pull(self) -> Pulled:
        return await self.victim.pull(self.peer)


def scene(plugins: PluginHost, tmp_path: Path, test: Callable[[Scene], Awaitable[None]]) -> None:
    async def run() -> None:
        ann, mallory = generate(), generate()
        rogue = RogueBoard(mallory)
        peer = await rogue.start()
        store = Leaderboard(tmp_path / "victim.sqlite3")
        victim = BoardShare(generate(), rules_of(plugins), {"flowers"}, store=store,
                            clock=lambda: THURSDAY, bind="127.0.0.1", discover=False)
        await victim.start()
        try:
            for _ in range(2):  # Ann's honest games, already on the victim's board
                play_board_game(plugins, ann, "Ann", store)
            await asyncio.wait_for(test(Scene(plugins, tmp_path, victim, rogue, peer, ann,
                                              mallory)), 60)
        finally:
            await victim.close()
            await rogue.close()

    asyncio.run(run())


def refused_alone(pulled: Pulled, *reasons: str) -> None:
    """``pulled`` refused exactly ``reasons`` (each a part of its one-line message)."""
    assert pulled.added == 0 and pulled.error is None, pulled
    assert len(pulled.refused) == len(reasons), pulled.refused
    for message, reason in zip(pulled.refused, reasons, strict=True):
        assert reason in message and "\n" not in message, (message, reason)


# --------------------------------------------------------------------------- forgeries


def test_a_forged_score_is_refused(plugins: PluginHost, tmp_path: Path) -> None:
    """Mallory's own game, its deal rigged for a better garden, every digest and checksum
    recomputed and signed by Mallory herself: the replay refuses the deal."""
    async def test(s: Scene) -> None:
        (game,) = s.games_of(s.mallory, "Mallory", 1)
        forged = reframe(game.log, rig_the_deal, s.tmp / "forged.hlog")
        s.rogue.serve([sign_record(s.mallory, str(WEEK), 0, forged)])
        before = s.board()
        refused_alone(await s.pull(), "is not the chance this table resolves")
        assert s.board() == before
    scene(plugins, tmp_path, test)


def test_a_log_signed_by_another_key_is_refused(plugins: PluginHost, tmp_path: Path) -> None:
    """Ann's game 3 with Mallory's signature, and Ann's game 3 signed by Mallory as her own
    game 1: the first is not Ann's signature, the second not Mallory's deal."""
    async def test(s: Scene) -> None:
        ann3 = s.games_of(s.ann, "Ann", 3)[2]
        stolen = GameRecord(s.ann.public, ann3.week, ann3.number, ann3.log,
                            boardsign.sign(s.mallory, ann3.digest))
        claimed = sign_record(s.mallory, ann3.week, 0, ann3.log)
        s.rogue.serve([stolen, claimed])
        before = s.board()
        pulled = await s.pull()
        refused = sorted(pulled.refused)
        assert len(refused) == 2 and pulled.added == 0
        assert any("the signature is not" in m and "altered, or signed by another key" in m
                   for m in refused)
        assert any("is not the board's deal for game 1 of 2026-W49" in m for m in refused)
        assert s.board() == before
    scene(plugins, tmp_path, test)


def test_a_dictated_seed_game_is_refused(plugins: PluginHost, tmp_path: Path) -> None:
    async def test(s: Scene) -> None:
        ruleset = plugins.ruleset("flowers", players=1)
        table = play(ruleset, 1, seed_from_int(5), [plugins.bot("greedy", "flowers")])
        log = log_of_table(table, ["Mallory"])
        s.rogue.serve([sign_record(s.mallory, str(WEEK), 0, log)])
        before = s.board()
        refused_alone(await s.pull(), "(a game with a dictated seed never counts)")
        assert s.board() == before
    scene(plugins, tmp_path, test)


def test_a_truncated_log_is_refused(plugins: PluginHost, tmp_path: Path) -> None:
    """Ann's finished game cut short under her signature, and Mallory's own game cut in the
    middle of a record and signed again: a signature that does not match, a damaged log."""
    async def test(s: Scene) -> None:
        ann3 = s.games_of(s.ann, "Ann", 3)[2]
        cut = GameRecord(ann3.player, ann3.week, ann3.number, ann3.log[:len(ann3.log) // 2],
                         ann3.signature)
        (mine,) = s.games_of(s.mallory, "Mallory", 1)
        torn = sign_record(s.mallory, str(WEEK), 0, mine.log[:-7])
        s.rogue.serve([cut, torn])
        before = s.board()
        pulled = await s.pull()
        assert pulled.added == 0 and len(pulled.refused) == 2, pulled
        assert any("the signature is not" in m for m in pulled.refused)
        assert any("the log is damaged at byte" in m for m in pulled.refused)
        assert s.board() == before
    scene(plugins, tmp_path, test)


def test_the_same_game_under_two_names_is_refused(plugins: PluginHost, tmp_path: Path) -> None:
    """Mallory's honest game is taken; the same game under the name Ann, signed by Mallory,
    is refused, and Mallory's line stays as it was."""
    async def test(s: Scene) -> None:
        (game,) = s.games_of(s.mallory, "Mallory", 1)
        s.rogue.serve([game])
        assert (await s.pull()).added == 1
        before = s.board()
        assert {line.name for line in before[0]} == {"Ann", "Mallory"}
        renamed = with_header(game.log, s.tmp / "renamed.hlog", seat_names=("Ann",))
        s.rogue.serve([sign_record(s.mallory, game.week, game.number, renamed)])
        refused_alone(await s.pull(),
                      "this game is already on the board as 'Mallory': a game counts once, "
                      "under one name")
        assert s.board() == before
    scene(plugins, tmp_path, test)


def test_a_log_of_another_game_is_refused_once(plugins: PluginHost, tmp_path: Path) -> None:
    """A Petals log is refused; a record offered again after its refusal is not asked for
    again (the store remembers it), and costs its sender nothing more."""
    async def test(s: Scene) -> None:
        ruleset = plugins.ruleset("petals", players=2)
        table = play(ruleset, 2, seed_from_int(1), [plugins.bot("random", "petals")] * 2)
        petals = sign_record(s.mallory, str(WEEK), 0, log_of_table(table, ["M", "N"]))
        s.rogue.serve([petals])
        before = s.board()
        refused_alone(await s.pull(), "the log is a game of 'petals', which has no leaderboard")
        again = await s.pull()
        assert again.refused == [] and again.error is None
        assert s.victim.store.refusals(s.mallory.public, WEEK) == 1
        assert s.victim.store.was_refused(petals.id)
        assert s.board() == before
    scene(plugins, tmp_path, test)


# --------------------------------------------------------------------------- bad bytes


def test_garbage_and_a_huge_answer_are_refused(plugins: PluginHost, tmp_path: Path) -> None:
    async def test(s: Scene) -> None:
        before = s.board()
        s.rogue.answer = lambda _message: b"\x08\x01garbage\xff"
        pulled = await s.pull()
        assert pulled.error is not None and pulled.error.startswith("a malformed answer: ")
        assert "\n" not in pulled.error
        # an answer larger than any answer may be: the socket drops the link unread
        s.rogue.answer = lambda _message: b"\0" * (MAX_ANSWER + 1)
        pulled = await s.pull()
        assert pulled.error is not None and "did not answer within" in pulled.error
        assert s.victim.store.refusals(s.mallory.public, WEEK) == 1
        assert s.board() == before
    scene(plugins, tmp_path, test)


def _junk(count: int, players: int = 20) -> list[GameRecord]:
    """``count`` well-formed records of ``players`` random keys: random logs, random
    signatures."""
    keys = [os.urandom(32) for _ in range(players)]
    return [GameRecord(keys[i % players], str(WEEK), i // players, os.urandom(300),
                       os.urandom(64)) for i in range(count)]


def test_ten_thousand_junk_records_are_refused_with_bounded_memory(plugins: PluginHost,
                                                                    tmp_path: Path) -> None:
    """10,000 junk records offered in one pull: the first refusals make the sender ignored
    for the week (`MAX_REFUSALS`), nothing is kept, and the pull's Python allocations peak
    far below what 10,000 records would take."""
    async def test(s: Scene) -> None:
        junk = _junk(10_000)
        s.rogue.serve(junk)
        before = s.board()
        tracemalloc.start()
        try:
            pulled = await s.pull()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert pulled.added == 0 and len(pulled.refused) == MAX_REFUSALS
        assert all("the signature is not" in m for m in pulled.refused)
        assert s.victim.ignored(s.mallory.public)
        assert peak < 16 * MiB, peak  # 10,000 records of a full log would be 2.5 GiB
        assert s.rogue.asked.count("Want") == 1  # one batch of 32, then no more
        asked = len(s.rogue.asked)
        later = await s.pull()
        assert later.error == "ignored this week: too many of its records were refused"
        assert len(s.rogue.asked) == asked  # not even asked
        assert s.board() == before
    scene(plugins, tmp_path, test)


def test_ten_thousand_junk_requests_are_refused_with_bounded_memory(plugins: PluginHost,
                                                                     tmp_path: Path) -> None:
    """A flood of 10,000 frames at the victim's service (garbage, answers sent as requests,
    huge wants): refused, the sender ignored for the week, its nudges ignored too, and the
    victim answers an honest machine afterwards."""
    async def test(s: Scene) -> None:
        target = BoardPeer(s.victim.identity.public, s.victim.endpoint or "")
        before = s.board()
        frames = [b"junk %d" % i for i in range(5000)]
        frames += [b"\x08\x01\x10\x01\x42\x00"] * 5000  # an empty BoardGames as a request
        tracemalloc.start()
        try:
            s.rogue.flood(target, frames)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 20
            while not s.victim.ignored(s.mallory.public) and loop.time() < deadline:
                await asyncio.sleep(0.05)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert s.victim.ignored(s.mallory.public)
        assert s.victim.store.refusals(s.mallory.public, WEEK) == MAX_REFUSALS
        assert peak < 16 * MiB, peak
        assert s.mallory.public not in s.victim.peers
        # an honest machine is still answered
        asker = BoardShare(generate(), rules_of(plugins), {"flowers"},
                           store=Leaderboard(s.tmp / "asker.sqlite3"),
                           clock=lambda: THURSDAY, bind="127.0.0.1", discover=False)
        await asker.start()
        try:
            pulled = await asker.pull(target)
            assert pulled.error is None and pulled.added == 2  # Ann's two games
        finally:
            await asker.close()
        assert s.board() == before
    scene(plugins, tmp_path, test)


def test_records_that_were_not_asked_for_are_refused(plugins: PluginHost, tmp_path: Path) -> None:
    """A service that answers a want with other records (valid ones, even): refused."""
    async def test(s: Scene) -> None:
        (wanted,) = s.games_of(s.mallory, "Mallory", 1)
        extra = s.games_of(s.ann, "Ann", 3)[2]
        s.rogue.serve([wanted])

        def answer(message: BoardMessage) -> bytes | None:
            if isinstance(message.body, Want):
                return encode_message(BoardMessage(message.request, Games((extra,))))
            return None

        s.rogue.answer = answer
        before = s.board()
        pulled = await s.pull()
        assert pulled.added == 0 and pulled.refused[0] == "a record that was not asked for"
        assert s.board() == before
    scene(plugins, tmp_path, test)
