"""A Start lost on the way (docs/protocol.md §3.2 step 5): the seat waiting at the barrier
sends its own Start again, and a seat past the barrier answers a repeat with its own.

The honest peer is a real ``hedgerow host`` bot process.  The rogue (tests/rogue.py) agrees
on the seed, then acts out the lost messages: it holds its own Start back, as if the host's
copy had been lost, and once it has sent it, sends it again, as a seat that never got the
host's Start would.  Then it plays the game out, which must end as usual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from e2e.helpers import Table, peer_env
from rogue import Rogue, rogue_game

from hedgerow.net.context import HEARTBEAT_S, STALL_BEATS
from hedgerow.net.messages import Start

pytestmark = pytest.mark.e2e
WAIT = 20.0


async def starts_within(rogue: Rogue, seconds: float, *, first: bool = False) -> int:
    """How many Starts come in ``seconds`` (with ``first``: up to the first one); every
    other message is put back for the game that follows."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    kept, starts = [], 0
    while (left := end - loop.time()) > 0 and not (first and starts):
        try:
            item = await asyncio.wait_for(rogue.inbox.get(), left)
        except TimeoutError:
            break
        if item[1] is not None and isinstance(item[1].body, Start):
            starts += 1
        else:
            kept.append(item)
    for item in kept:
        rogue.inbox.put_nowait(item)
    return starts


async def hold_then_repeat(rogue: Rogue, others: list[bytes],
                           send_start: Callable[[], Awaitable[None]]) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    got = await starts_within(rogue, WAIT, first=True)  # the host's Start, as sent at first
    since = loop.time()
    again = await starts_within(rogue, WAIT, first=True)  # ours never came: it sends again
    waited = loop.time() - since
    await send_start()  # the host is past the barrier now; its beat stops sending
    late = await starts_within(rogue, 1.5 * HEARTBEAT_S)  # one already on its way, if any
    await send_start()  # a repeat, as from a seat still waiting for the host's Start
    answered = await starts_within(rogue, 2 * HEARTBEAT_S, first=True)
    after = await starts_within(rogue, (STALL_BEATS + 0.5) * HEARTBEAT_S)
    return {"got": got, "again": again, "waited": waited, "late": late,
            "answered": answered, "after": after}


async def nothing(rogue: Rogue, others: list[bytes], table: Any, seat: int) -> dict[str, Any]:
    return {}


def test_a_held_start_is_asked_for_again_and_a_repeated_one_is_answered() -> None:
    procs = Table()
    try:
        host, address = procs.host("posy", 2, "--bot", "random", "--open-deck",
                                   env=peer_env(plugins="toygames"))
        result = asyncio.run(asyncio.wait_for(
            rogue_game(address, nothing, before_start=hold_then_repeat), WAIT * 3))
        seen = result["before_start"]
        assert seen["got"] == 1 and seen["again"] == 1
        # Sent again after STALL_BEATS beats without our Start (the first beat marks it).
        assert (STALL_BEATS - 1) * HEARTBEAT_S <= seen["waited"] <= (STALL_BEATS + 3) * HEARTBEAT_S
        assert seen["late"] <= 1
        assert seen["answered"] == 1  # the repeat is answered with the host's Start...
        assert seen["after"] == 0  # ...once: no more Starts once both are past the barrier
        code, final = host.finish()
        assert code == 0
        assert final["state_hash"] == result["state_hash"]
    finally:
        procs.close()
