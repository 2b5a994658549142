"""The seat client while this seat's own move waits for cards, on the real application at
80x24 (`hedgerow.net.peer.Peer.submit`, docs/protocol.md §10.7).

At a sealed table a move that turns a card face up (a Mandala take refills from the hidden
tiles) is sent, and the table holds it once every other player's key to that card is in.
Meanwhile the table still names this seat to act.  The screen says the move is sent and
whose key it waits for, offers nothing, and keys pressed again (Enter twice) send nothing
and show no refusal; once the move rests the seat's next turn comes as usual.  The seat is
a `LocalSeat` that says what a sealed network seat says then (`WaitingSeat`).
"""

from __future__ import annotations

import asyncio

from appdriver import drawn, running
from test_sealed_screens import DealingSeat, dealing_seat

from hedgerow.clients.app.gameui import ClientUI, load_ui
from hedgerow.clients.app.state import SeatState
from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.seat import DeckWait, DeckWaits

MOVE_WAITS = Refusal("move_waits", "your last move waits for the other players' keys to the "
                                   "card it turns face up")


class WaitingSeat(DealingSeat):
    """Its own moves wait for seat 1's key (`rest` lets the one waiting rest), as at a
    sealed table: a move meanwhile is refused as the peer refuses it."""

    sent: list[Action]
    waits: Action | None = None

    async def submit(self, action: Action) -> Refusal | None:
        self.sent.append(action)
        if self.waits is not None:
            return MOVE_WAITS
        self.waits = action
        self.wait = DeckWait(DeckWaits.SHOW, (1,), stops_play=True)
        self._notify()
        return None

    def held_back(self) -> Refusal | None:
        return MOVE_WAITS if self.waits is not None else None

    async def rest(self) -> None:
        action, self.waits, self.wait = self.waits, None, None
        assert action is not None
        assert await super().submit(action) is None


def test_keys_pressed_while_the_own_move_waits_send_nothing_and_the_screen_says_why() -> None:
    plugins = PluginHost(autoload=False)
    seat = dealing_seat(plugins)
    seat.__class__ = WaitingSeat
    assert isinstance(seat, WaitingSeat)
    seat.sent = []
    bot = seat.seats()[1].name

    async def main() -> None:
        async with running(seat, plugins) as d:
            await drawn(d, lambda rows: "Your turn" in rows[0], what="our turn")
            for _ in range(10):  # Enter until the composed move is sent
                before = d.progress()
                d.press("enter")
                await d.until(lambda before=before: d.progress() != before or bool(seat.sent),
                              what="the Enter key to take effect")
                if seat.sent:
                    break
            assert len(seat.sent) == 1
            d.press("enter", "enter", "1", " ", "enter")  # (a key pressed again, and more)
            rows = await drawn(d, lambda rows: "Turning a card up…" in rows[0],
                               what="the move waiting")
            await asyncio.sleep(0.2)
            rows = await drawn(d, lambda rows: "Turning a card up…" in rows[0])
            text = " ".join(" ".join(rows).split())
            assert "Your move is sent; it turns a card face up, which opens with every " \
                   f"player's key. Waiting for {bot}…" in text, text
            assert "Refused" not in text and "start the table" not in text, text
            assert "Your turn" not in rows[0] and not d.state.my_turn
            assert len(seat.sent) == 1, seat.sent  # nothing more was sent
            assert all(len(r) <= 80 for r in rows)
            await seat.rest()
            rows = await drawn(d, lambda rows: "Your turn" in rows[0] or "Game over" in rows[0],
                               timeout=20, what="our next turn")
            assert "Refused" not in " ".join(rows)

    asyncio.run(main())


def test_enter_again_before_the_redraw_acts_on_what_the_seat_offers_now() -> None:
    """The move is sent and the seat offers nothing now, but the screen has not been drawn
    again yet (the picker still holds the old moves): Enter sends nothing, refuses nothing."""
    plugins = PluginHost(autoload=False)
    seat = dealing_seat(plugins)
    seat.__class__ = WaitingSeat
    assert isinstance(seat, WaitingSeat)
    seat.sent = []

    async def main() -> None:
        state = SeatState(seat, ClientUI(load_ui(plugins, seat.ruleset)))
        state.refresh()
        assert state.my_turn
        for _ in range(10):  # Enter until the composed move is sent
            state.confirm()
            if state.busy:
                break
        assert state.busy
        while state.busy:
            await asyncio.sleep(0)
        assert len(seat.sent) == 1 and state.stale and not state.picker.empty
        state.confirm()  # (no redraw in between)
        await asyncio.sleep(0.05)
        assert len(seat.sent) == 1, seat.sent
        assert state.message is None, state.message
        assert state.picker.empty and not state.busy and not state.my_turn

    asyncio.run(main())
