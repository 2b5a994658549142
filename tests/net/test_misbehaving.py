"""A misbehaving peer against honest ones: every bad message is refused identically by every
honest peer, with a reason in its log, and the game goes on.

The honest peers are real ``hedgerow host`` / ``hedgerow join`` bot processes.  The rogue
is written here with raw pyzmq sockets and the codec: it takes a seat, agrees on the seed
and plays its turns legally, but first sends, at its own turn (when everyone waits for
it): random bytes, a truncated envelope, an envelope naming another sender, a seed
commitment during play, an action claiming another seat, one with a broken chain, an
illegal one, and, right after its move, one out of turn.  A stranger with no seat tries too.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from e2e.helpers import Table, peer_env
from rogue import Rogue, refused_by_all, rogue_game

from hedgerow.core.actions import Action
from hedgerow.core.table import Table as GameTable
from hedgerow.net.address import parse_address
from hedgerow.net.messages import ActionMsg, ErrorCode, ErrorMsg, SeedCommit

pytestmark = pytest.mark.e2e
WAIT = 20.0


async def misbehave(rogue: Rogue, others: list[bytes], table: GameTable, seat: int
                    ) -> dict[str, list[tuple[ErrorCode, str, str]]]:
    legal = table.legal_actions(seat)[0]
    other_seat = next(s for s in range(table.players) if s != seat)
    valid = rogue.envelope(ActionMsg(table.index, table.head, seat, legal))
    return {
        "random bytes": await refused_by_all(rogue, others, os.urandom(64)),
        "truncated": await refused_by_all(rogue, others, valid[: len(valid) // 2]),
        "another sender": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, table.head, seat, legal), sender=others[0])),
        "late seed": await refused_by_all(rogue, others, rogue.envelope(
            SeedCommit(seat, bytes(32)))),
        "another seat": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, table.head, other_seat, legal))),
        "broken chain": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, bytes(32), seat, legal))),
        "illegal": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, table.head, seat, Action.of("play", card=99)))),
    }


EXPECTED = {
    "random bytes": ErrorCode.MALFORMED,
    "truncated": ErrorCode.MALFORMED,
    "another sender": ErrorCode.STRANGER,
    "late seed": ErrorCode.WRONG_PHASE,
    "another seat": ErrorCode.WRONG_SEAT,
    "broken chain": ErrorCode.BROKEN_CHAIN,
    "illegal": ErrorCode.ILLEGAL,
    "out of turn": ErrorCode.OUT_OF_TURN,
}


def test_every_honest_peer_refuses_bad_messages_identically_and_play_goes_on() -> None:
    procs = Table()
    env = peer_env(plugins="toygames")
    try:
        host, address = procs.host("posy", 3, "--bot", "random", "--open-deck", env=env)
        joiner = procs.join(address, "--bot", "random", env=peer_env(plugins="toygames"))
        result = asyncio.run(asyncio.wait_for(rogue_game(address, misbehave), WAIT * 2))
        verdicts = result["verdicts"]
        assert set(verdicts) == set(EXPECTED)
        for what, refusals in verdicts.items():
            assert len(refusals) == 2
            assert refusals[0] == refusals[1], what  # identical at every honest peer
            assert refusals[0][0] == EXPECTED[what], (what, refusals[0])
        assert verdicts["illegal"][0][2] == "posy.not_in_hand"
        finals = [p.finish() for p in (host, joiner)]
        assert [code for code, _ in finals] == [0, 0]
        assert {r["state_hash"] for _, r in finals} == {result["state_hash"]}
        for peer in (host, joiner):
            err = peer.stderr
            for code in ("MALFORMED", "STRANGER", "WRONG_PHASE", "WRONG_SEAT", "BROKEN_CHAIN",
                         "ILLEGAL", "OUT_OF_TURN"):
                assert f": {code}: " in err, (code, err)
            assert f"refused ActionMsg from seat {result['seat']} (rogue): BROKEN_CHAIN" in err
    finally:
        procs.close()


def test_a_peer_without_a_seat_cannot_inject_anything() -> None:
    import json
    from pathlib import Path

    procs = Table()
    try:
        slow = ("--bot", "random", "--delay", "0.3")
        host, address = procs.host("posy", 2, *slow, env=peer_env(plugins="toygames"))
        procs.join(address, *slow, env=peer_env(plugins="toygames"))
        log = host.wait_event("start")["log"]
        table_id = bytes.fromhex(json.loads(Path(log + ".table.json").read_text())["table_id"])
        where = parse_address(address)

        async def stranger() -> ErrorMsg:
            rogue = Rogue("stranger")
            try:
                rogue.dial(where.key, where.endpoint)
                data = rogue.envelope(ActionMsg(0, bytes(32), 1, Action.of("play", card=1)),
                                      table_id=table_id)
                await rogue.send(where.key, data)
                _, error = await asyncio.wait_for(rogue.errors.get(), WAIT)
                return error
            finally:
                await rogue.close()

        error = asyncio.run(stranger())
        assert error.code == ErrorCode.STRANGER
        assert host.finish()[0] == 0  # the game went on
        assert "refused ActionMsg from stranger" in host.stderr
        assert "STRANGER: the sender holds no seat at this table" in host.stderr
    finally:
        procs.close()
