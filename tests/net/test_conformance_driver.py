"""The checker's raw peer (`hedgerow.net.conformance.driver`) against a second raw peer over
real ZeroMQ sockets: what a deviation says when the peer under test does not answer the
sentinel."""

from __future__ import annotations

import asyncio

import pytest

from hedgerow.net.conformance.driver import Driver
from hedgerow.net.conformance.report import Deviation
from hedgerow.net.messages import Heartbeat, Leave, LeaveReason


async def _pair() -> tuple[Driver, Driver]:
    checker = await Driver(timeout=1.0).start()
    other = await Driver(timeout=1.0).start()
    checker.table_id = other.table_id = bytes(range(16))
    checker.connect(other.key, other.endpoint)
    other.connect(checker.key, checker.endpoint)
    return checker, other


def said_when_unanswered(leave: Leave | None) -> str:
    """What `Driver.answers` raises when the other raw peer never answers the sentinel,
    having sent ``leave`` first (when given)."""
    async def main() -> str:
        checker, other = await _pair()
        try:
            _, data = checker.envelope(Heartbeat(0))
            if leave is not None:
                other.send(checker.key, leave)
            with pytest.raises(Deviation) as caught:
                await checker.answers(other.key, data, "5.8")
            return str(caught.value)
        finally:
            await checker.close()
            await other.close()

    return asyncio.run(main())


def test_a_peer_that_leaves_instead_of_answering_is_named_by_its_leave() -> None:
    said = said_when_unanswered(Leave("the player quit", LeaveReason.QUIT))
    assert said.startswith("§5.8: expected an Error(WRONG_TABLE)")
    assert "the peer left the table instead, Leave" in said
    assert "the player quit" in said and "QUIT" in said


def test_a_silent_peer_is_still_named_as_silent() -> None:
    said = said_when_unanswered(None)
    assert "nothing of the kind within 1 s" in said
    assert "left" not in said
