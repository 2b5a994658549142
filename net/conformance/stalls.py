"""The repeats the checker provokes by holding its own message back (docs/protocol.md §5.8
*Repeats*: what a peer sends again because something stands still, after 3 heartbeats):

* ``start-repeat`` (§3.2 step 5): the checker holds its `Start` back after the peer's came;
  the peer, waiting at the barrier with no new matching `Start` for 3 heartbeats, sends its
  `Start` again, identical, to the checker, and no action meanwhile (the barrier holds);
* ``step-repeat`` (§3.3 *Links that come back*): at the checker's second simultaneous step
  (the first one carries the step probes) the checker holds its commitment back; the
  peer, whose open step has not moved for 3 heartbeats, sends its `ActionCommit` again,
  identical, to the checker (whose heartbeat says it is not past the step).

The seed agreement's repeats are `session`'s ``seed-repeat``.  Either hold lasts until the
repeat came, at most ``max(--timeout, STALL_WAIT)``; then the checker sends what it held.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hedgerow.net.messages import ActionCommit, ActionMsg, Start

from .driver import Incoming, Match, body_is, describe

if TYPE_CHECKING:
    from .session import Session

#: How long a repeat after a stall is waited for at least: 3 heartbeats of standing still
#: (§5.8 *Repeats*), counted from a beat that may come up to a second late, and a margin.
STALL_WAIT = 6.0
#: The stall scenarios: name -> (section, what it checks).
SCENARIOS: dict[str, tuple[str, str]] = {
    "start-repeat": ("3.2", "a stalled barrier: its Start again, identical"),
    "step-repeat": ("3.3", "a stalled step: its ActionCommit again"),
}
#: Why one does not apply once the whole game was played without the moment it needs.
MOMENTS: dict[str, str] = {"step-repeat": "the checker's seat had no second step"}


class Stalls:
    """The stall scenarios of one `Session`."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.step_done = False  # step-repeat ran

    def _wait(self) -> float:
        return max(self.s.timeout, STALL_WAIT)

    async def start_repeat(self) -> str:
        """The checker's `Start` still held back: each other seat's `Start` again, equal to
        its first, and no `ActionMsg` or `ActionCommit` before the checker's `Start`."""
        s, d = self.s, self.s.driver
        for key in s._seats().others(d.key):
            first = s.peer_starts[key]
            item = await d.next(_start_or_action(key), "3.2", f"{s._who(key)}'s Start again, "
                                "3 heartbeats after it waits at the barrier (the checker "
                                "holds its Start back)", timeout=self._wait())
            assert item.env is not None
            s._ensure(not isinstance(item.env.body, ActionMsg | ActionCommit), "3.2",
                      "no action before the checker's Start arrived (the barrier)",
                      describe(item))
            s._ensure(item.env.body == first, "3.2", f"an identical repeat of "
                      f"{s._who(key)}'s Start", describe(item))
        return "Start again, identical; the barrier held"

    async def step_repeat(self, index: int, active: tuple[int, ...]) -> str:
        """The checker's commitment held back at the step at ``index``: each other active
        seat's `ActionCommit` again, equal to its first (which is then left for the step)."""
        s, d = self.s, self.s.driver
        seats = s._seats()
        firsts: list[Incoming] = []
        try:
            for seat in (a for a in active if a not in s._own_seats()):
                match = _commit(seats.holders[seat], index, seat)
                first = await d.next(match, "3.3", f"seat {seat}'s ActionCommit at #{index}")
                firsts.append(first)
                again = await d.next(match, "3.3", f"seat {seat}'s ActionCommit at #{index} "
                                     "again, 3 heartbeats after the step stood still (the "
                                     "checker holds its commitment back)", timeout=self._wait())
                assert first.env is not None and again.env is not None
                s._ensure(again.env.body == first.env.body, "3.3", f"an identical repeat of "
                          f"seat {seat}'s commitment {describe(first)}", describe(again))
        finally:
            d.backlog[:0] = firsts  # the step takes them as they first came
        return f"ActionCommit again at #{index}, identical"


def _start_or_action(key: bytes) -> Match:
    def match(item: Incoming) -> bool:
        return body_is(Start, key)(item) or (
            item.rx.sender == key and item.env is not None
            and isinstance(item.env.body, ActionMsg | ActionCommit))
    return match


def _commit(key: bytes, index: int, seat: int) -> Match:
    def match(item: Incoming) -> bool:
        return (body_is(ActionCommit, key)(item) and item.env is not None
                and isinstance(item.env.body, ActionCommit)
                and (item.env.body.index, item.env.body.seat) == (index, seat))
    return match
