"""An idle link is nearly silent (issue 30, docs/protocol.md §5.8, §3.2): a peer's
`Heartbeat` goes to a peer at once when it says something new, else every `IDLE_BEATS`
beats; a repeat of what stands still waits longer each time (`Stall`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hedgerow.net.context import STALL_BACKOFF, STALL_BEATS, Stall, backoff
from hedgerow.net.links import IDLE_BEATS, Links
from hedgerow.net.messages import Heartbeat
from hedgerow.net.seat import Link, Phase


def quiet_links(index: list[int], waiting: list[bool]) -> tuple[Links, list[tuple[str, Any]]]:
    sent: list[tuple[str, Any]] = []
    members = [SimpleNamespace(key=name.encode(), name=name, link=Link.CONNECTED,
                               last_seen=0.0, next_index=0, seat=seat)
               for seat, name in enumerate(["near", "far"], start=1)]
    ctx = SimpleNamespace(
        roster=SimpleNamespace(others=lambda: members), table_id=bytes(16),
        table=SimpleNamespace(index=0), phase=Phase.SEATING, now=lambda: 0.0,
        send=lambda member, body: sent.append((member.name, body)),
        broadcast=lambda body: [sent.append((m.name, body)) for m in members])
    nothing = SimpleNamespace(expire=lambda: None, hearing_out=lambda: False,
                              resend_stalled_step=lambda: None, resend_to_laggards=lambda: None,
                              report_end=lambda: None)

    def table_index() -> None:
        ctx.table.index = index[0]

    links = Links(ctx, heartbeat=1.0, lost_after=5.0,  # type: ignore[arg-type]
                  play=nothing, departures=nothing,  # type: ignore[arg-type]
                  seat_gone=lambda m: None, resend_stalled=table_index,
                  deck_waiting=lambda: waiting[0])
    ctx.table_index = table_index
    return links, sent


def beats(links: Links, sent: list[tuple[str, Any]], n: int) -> list[list[tuple[str, Any]]]:
    """What each of ``n`` beats sent."""
    out = []
    for _ in range(n):
        links.ctx.table_index()  # type: ignore[attr-defined]
        sent.clear()
        links.beat()
        out.append(list(sent))
    return out


def test_an_idle_link_carries_a_heartbeat_every_idle_beats_and_news_at_once() -> None:
    assert IDLE_BEATS == 2
    index, waiting = [0], [False]
    links, sent = quiet_links(index, waiting)
    both = [("near", Heartbeat(0)), ("far", Heartbeat(0))]
    assert beats(links, sent, 5) == [both, [], both, [], both]  # idle: one beat in two
    index[0] = 3  # an entry: the next beat says so to both, whatever the last one was
    assert beats(links, sent, 3) == [[("near", Heartbeat(3)), ("far", Heartbeat(3))], [],
                                     [("near", Heartbeat(3)), ("far", Heartbeat(3))]]
    waiting[0] = True  # the sealed deck stands still: said at once
    assert beats(links, sent, 1) == [[("near", Heartbeat(3, True)), ("far", Heartbeat(3, True))]]


def test_a_repeat_of_what_stands_still_waits_twice_as_long_each_time() -> None:
    stall = Stall()
    # (the first beat marks where it stands)
    due = [b for b in range(1 + 8 * STALL_BACKOFF * STALL_BEATS) if stall.due((1,))]
    gaps = [b - a for a, b in zip([0, *due[:-1]], due, strict=True)]
    longest = STALL_BACKOFF * STALL_BEATS
    assert gaps[:3] == [STALL_BEATS, 2 * STALL_BEATS, 4 * STALL_BEATS]
    assert max(gaps) == longest and set(gaps[-2:]) == {longest}
    assert [backoff(STALL_BEATS, r) for r in range(3)] == gaps[:3]
    assert not stall.due((2,))  # it moved: the first repeat comes after STALL_BEATS again
    assert [stall.due((2,)) for _ in range(STALL_BEATS)] == [False] * (STALL_BEATS - 1) + [True]
