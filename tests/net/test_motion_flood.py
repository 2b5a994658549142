"""A seated peer that floods the others with messages cannot flood their stderr.

A rogue (tests/rogue.py) takes a seat at a table of two real ``hedgerow`` bot peers run with
``-v`` (every line they have) and, at its own turn, sends each of them 20,000 forged
``SeatMotion`` (each a new number, about a seat that has not left) and 2,000 ``Error``
messages.  Every motion is still answered with a vote against it (docs/protocol.md §5.9)
and the game goes on to the same end; but the lines those messages cause on each honest
peer's stderr are rate-limited per sender and kind of line, like refusals (§5.1), so the
stderr stays a few kilobytes where it was 40,000 lines (3.9 MB) before.
"""

from __future__ import annotations

import asyncio

import pytest
from e2e.helpers import Table, peer_env
from rogue import Rogue, rogue_game

from hedgerow.core.table import Table as GameTable
from hedgerow.net.messages import ErrorCode, ErrorMsg, MotionKind, SeatMotion

pytestmark = pytest.mark.e2e
WAIT = 60.0
MOTIONS = 20_000
ERRORS = 2_000
#: What an honest peer may write in the whole game: its own few dozen lines, and per kind of
#: line from the rogue 5 at once and then one per 10 s.
STDERR_BOUND = 16 * 1024


async def flood(rogue: Rogue, others: list[bytes], table: GameTable, seat: int
                ) -> dict[str, int]:
    other = next(s for s in range(table.players) if s != seat)
    voters = tuple(s for s in range(table.players) if s != other)
    for number in range(1, MOTIONS + 1):
        data = rogue.envelope(SeatMotion(number, MotionKind.TAKEOVER, other, min(voters),
                                         "random", table.index, voters))
        for key in others:
            await rogue.send(key, data)
    for n in range(ERRORS):
        data = rogue.envelope(ErrorMsg(ErrorCode.ILLEGAL, f"made up #{n}", n + 1, 0, ""))
        for key in others:
            await rogue.send(key, data)
    return {"motions": MOTIONS, "errors": ERRORS}


def test_a_flood_of_forged_motions_and_errors_leaves_a_short_stderr() -> None:
    procs = Table()
    try:
        host, address = procs.host("posy", 3, "--bot", "random", "-v", "--open-deck",
                                   env=peer_env(plugins="toygames"))
        joiner = procs.join(address, "--bot", "random", "-v", env=peer_env(plugins="toygames"))
        result = asyncio.run(asyncio.wait_for(rogue_game(address, flood), WAIT * 2))
        assert result["verdicts"] == {"motions": MOTIONS, "errors": ERRORS}
        finals = [p.finish(timeout=WAIT) for p in (host, joiner)]
        assert [code for code, _ in finals] == [0, 0]  # the game went on to its end
        assert {r["state_hash"] for _, r in finals} == {result["state_hash"]}
        for peer in (host, joiner):
            err = peer.stderr
            assert len(err.encode()) < STDERR_BOUND, (len(err), err[-3000:])
            # The first few of each kind are there, and the rest are counted, not lost.
            assert "(rogue) proposes a random bot run by seat" in err
            assert "voted no on a random bot run by seat" in err
            assert "(rogue) refused our message (seq 1): ILLEGAL: made up #0" in err
            assert "more lines about other peers' messages not logged" in err
    finally:
        procs.close()
