"""The progress events a headless bot peer prints (`hedgerow.clients.botrunner._Watcher`),
driven by a stand-in seat whose phase and links the test sets (the watcher only reads them).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hedgerow.clients.botrunner import _Watcher
from hedgerow.net.seat import Link, Phase, SeatInfo


class StandIn:
    """What `_Watcher` reads of a seat, nothing more: seat 0 of 3, before play."""

    seat, players, index = 0, 3, 0
    ruleset = SimpleNamespace(fingerprint="posy@1.0.0")
    departures = SimpleNamespace(departed=lambda: [], events=[])

    def __init__(self) -> None:
        self.now = Phase.SEATING
        self.links = [Link.YOU, Link.WAITING, Link.WAITING]

    def phase(self) -> Phase:
        return self.now

    def seats(self) -> list[SeatInfo]:
        return [SeatInfo(s, f"p{s}", link) for s, link in enumerate(self.links)]

    def host_gone(self) -> bool:
        return False

    def history(self) -> list[Any]:
        return []


def test_back_to_seating_unseen_seeding_in_between_says_a_seat_is_free_again() -> None:
    seat = StandIn()
    said: list[tuple[str, str]] = []
    watcher = _Watcher(seat, lambda kind, text, **_: said.append((kind, text)), False)  # type: ignore[arg-type]
    watcher.update()
    assert said == [("seated", "seated at seat 0 of 3 (posy@1.0.0); waiting for 2 more")]
    seat.links = [Link.YOU, Link.CONNECTED, Link.CONNECTED]
    watcher.update()
    assert [kind for kind, _ in said[1:]] == ["seat", "seat"]
    # Seeding began and was abandoned (a seat gone) between two looks: seating again.
    seat.links = [Link.YOU, Link.WAITING, Link.CONNECTED]
    watcher.update()
    assert said[-1] == ("seated", "seated at seat 0 of 3 (posy@1.0.0); waiting for 1 more")
    # Seen as it happened: one "seated" on entering seating again, not two.
    seat.links, seat.now = [Link.YOU, Link.CONNECTED, Link.CONNECTED], Phase.SEEDING
    watcher.update()
    seat.links, seat.now = [Link.YOU, Link.WAITING, Link.CONNECTED], Phase.SEATING
    before = len(said)
    watcher.update()
    assert [kind for kind, _ in said[before:]] == ["seated"]
