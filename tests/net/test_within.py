"""`hedgerow.net.seat.within`: a wait with a timeout that never swallows a cancel (Python
3.11's `asyncio.wait_for` returns the result and drops a cancel that comes in the same turn
of the loop as the awaited change)."""

from __future__ import annotations

import asyncio

import pytest

from hedgerow.net.seat import within


def test_a_cancel_in_the_same_turn_as_the_change_reaches_the_waiter() -> None:
    async def main() -> None:
        event = asyncio.Event()
        waiter = asyncio.ensure_future(within(event.wait(), 5.0))
        await asyncio.sleep(0)  # the waiter is waiting
        event.set()
        waiter.cancel()  # the same turn as the change
        with pytest.raises(asyncio.CancelledError):
            await waiter

    asyncio.run(main())


def test_the_change_or_the_timeout() -> None:
    async def main() -> None:
        event = asyncio.Event()
        assert await within(event.wait(), 0.01) is False
        event.set()
        assert await within(event.wait(), 0.01) is True

    asyncio.run(main())
