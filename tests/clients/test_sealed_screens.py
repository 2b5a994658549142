"""What the seat client shows of a sealed deck, on the real application at 80x24.

A sealed table (docs/protocol.md §10) says so in the title; while its deck holds this seat
up the screen says what for (a shuffle, a card on its way, a card turned face up) and whose
program the table waits for, instead of drawing a view that has no cards yet (a plain-text
dump) or one with a card still sealed (the hand vanished); the results, the lines printed
after them and an agreed end say what the check of every shuffle, key and action found; the
departure box at a sealed table of two offers no bot.  The seats are `LocalSeat`s that say
what a sealed network seat says (`DealingSeat`), or the results tests' `FinishedSeat`.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import Any

from appdriver import drawn, running
from test_departure_prompt import FakeDepartures
from test_results import FinishedSeat

from hedgerow.clients.app.gameui import ClientUI, load_ui
from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.app.render import help_text
from hedgerow.clients.app.results import farewell_lines
from hedgerow.clients.app.state import without_arriving
from hedgerow.core.actions import Action
from hedgerow.core.outcome import Ranked
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import Sealed
from hedgerow.core.seeding import seed_from_int
from hedgerow.net.messages import SeatEvent, SeatEventKind
from hedgerow.net.seat import DeckWait, DeckWaits, Link, SeatInfo

CHECKS_OUT = "every shuffle, key and action checks out"


class DealingSeat(LocalSeat):
    """A local seat that plays as a sealed network seat shows itself: ``wait`` is what its
    deck holds it up for, ``hidden`` how many of its hand's cards are still sealed in its
    view, ``lost`` a seat whose peer is gone; while its deck holds it, it may not act."""

    wait: DeckWait | None = None
    hidden = 0
    lost: int | None = None
    judged: str | None = None

    @property
    def sealed(self) -> bool:
        return True

    def deck_wait(self) -> DeckWait | None:
        return self.wait

    def verdict(self) -> str | None:
        return self.judged

    def view(self) -> Any:
        view = super().view()
        if not self.hidden:
            return view
        hand = tuple(Sealed(1, 0, i) if i < self.hidden else card
                     for i, card in enumerate(view.hand))
        return dataclasses.replace(view, hand=hand)

    def legal_actions(self) -> Sequence[Action]:
        return () if self.wait is not None else super().legal_actions()

    def seats(self) -> Sequence[SeatInfo]:
        return [dataclasses.replace(i, link=Link.LOST) if i.seat == self.lost else i
                for i in super().seats()]


def dealing_seat(plugins: PluginHost, players: int = 3) -> DealingSeat:
    """Petals, our turn at the start (seed 7)."""
    return DealingSeat(plugins.ruleset("petals", players=players), players, seed_from_int(7),
                       bots=[plugins.bot("random", "petals")], name="Ann")


def changed(seat: LocalSeat) -> None:
    seat._notify()


def test_the_first_deal_is_shown_as_shuffling_then_dealing_not_as_a_dump() -> None:
    plugins = PluginHost(autoload=False)
    seat = dealing_seat(plugins)
    seat.wait = DeckWait(DeckWaits.SHUFFLE, (1,))
    bot = seat.seats()[1].name

    async def main() -> None:
        async with running(seat, plugins) as d:
            rows = await drawn(d, lambda rows: "Shuffling…" in rows[0], what="the shuffle")
            text = " ".join(" ".join(rows).split())
            assert "Petals · 3 players · sealed deck · you are Ann" in rows[0]
            assert "Shuffling and dealing." in text and "hand:" not in text, text
            assert "nobody knows its order." in text and f"Waiting for {bot}…" in text, text
            assert "Draw pile" not in text  # no view is drawn before the first deal
            seat.wait, seat.hidden = DeckWait(DeckWaits.DEAL, (1, 2), stops_play=False), 2
            changed(seat)
            rows = await drawn(d, lambda rows: "Dealing…" in rows[0], what="the deal")
            text = " ".join(" ".join(rows).split())
            assert "Your 2 new cards are on their way: a card opens with every other " \
                   f"player's key. Waiting for {bot}, {seat.seats()[2].name}…" in text, text
            # the garden is drawn; the hand has no card open yet
            assert "Draw pile" in text and "[1]" not in text and "could not draw" not in text
            seat.wait, seat.hidden = None, 0
            changed(seat)
            rows = await drawn(d, lambda rows: "Your turn" in rows[0], what="our turn")
            assert "Draw pile" in "\n".join(rows)

    asyncio.run(main())


def test_a_card_on_its_way_keeps_the_hand_drawn_and_names_whom_the_table_waits_for() -> None:
    plugins = PluginHost(autoload=False)
    seat = dealing_seat(plugins)

    async def main() -> None:
        async with running(seat, plugins) as d:
            rows = await drawn(d, lambda rows: "Your turn" in rows[0], what="our turn")
            assert any("[2]" in r for r in rows), rows
            # The peer of seat 1 is lost, and the card dealt to us waits for its key.
            seat.wait = DeckWait(DeckWaits.DEAL, (1,), stops_play=False)
            seat.hidden, seat.lost = 1, 1
            changed(seat)
            rows = await drawn(d, lambda rows: "Dealing…" in rows[0], what="the card to come")
            text = " ".join(" ".join(rows).split())
            gone = seat.seats()[1].name
            assert "Your new card is on its way: a card opens with every other player's " \
                   f"key. Waiting for {gone} (lost)…" in text, text
            # the hand shows the cards open so far (the card on its way left out of it)
            assert any("[1]" in r for r in rows) and not any("[2]" in r for r in rows), rows
            assert "could not draw" not in text
            assert all(len(r) <= 80 for r in rows)
            seat.wait, seat.hidden = DeckWait(DeckWaits.SHOW, (2,)), 0
            changed(seat)
            rows = await drawn(d, lambda rows: "Turning a card up…" in rows[0],
                               what="a card turned face up")
            assert "A card is being turned face up: it opens with every player's key." \
                in " ".join(" ".join(rows).split())

    asyncio.run(main())


@dataclasses.dataclass(frozen=True)
class SomeView:
    hand: tuple[object, ...]
    garden: tuple[tuple[object, ...], ...] = ()
    held: object = -1


def test_a_card_on_its_way_is_left_out_of_a_hand_and_only_there() -> None:
    token = Sealed(4, 0, 1)
    assert without_arriving(SomeView((3, token, 9))) == SomeView((3, 9))
    # anywhere else, leaving it out would change what the rest means: the last view stays
    assert without_arriving(SomeView((3,), garden=((0, 0, token, 1),))) is None
    assert without_arriving(SomeView((3,), held=token)) is None
    assert without_arriving({"hand": (token,)}) is None


def test_the_help_says_what_the_deck_is_where_there_is_room() -> None:
    plugins = PluginHost(autoload=False)
    seat = dealing_seat(plugins)
    seat.address = "127.0.0.1:5555/KEY"  # (a networked table)
    from hedgerow.clients.app.state import SeatState

    state = SeatState(seat, ClientUI(load_ui(plugins, seat.ruleset)))
    tall = " ".join("".join(f[1] for f in help_text(state, 68, rows=60)).split())
    assert "This table's deck is sealed: the players' programs shuffle it together, no " \
           "program (the host's included) can see a card it was not shown" in tall
    short = "".join(f[1] for f in help_text(state, 68, rows=21))
    assert "deck is sealed" not in short and "Keys" in short


def results_of(seat: FinishedSeat) -> str:
    plugins = PluginHost(autoload=False)
    found: list[str] = []

    async def main() -> None:
        async with running(seat, plugins) as d:
            rows = await drawn(d, lambda rows: any("Log saved to" in r for r in rows),
                               what="the results")
            found.append("\n".join(rows))

    asyncio.run(main())
    return found[0]


OUTCOME = Ranked(scores=(12, 9), ranking=(1, 2), winners=(0,), explanation="Ann led.")


def test_the_results_say_what_the_check_of_the_sealed_deck_found() -> None:
    plugins = PluginHost(autoload=False)
    screen = results_of(FinishedSeat(plugins, OUTCOME, 2, sealed=True, verdict=CHECKS_OUT))
    lines = screen.splitlines()
    assert lines[-3] == "Sealed deck: every shuffle, key and action checks out.", screen
    assert lines[-2].startswith("Log saved to")
    checking = results_of(FinishedSeat(plugins, OUTCOME, 2, sealed=True, settled=False))
    assert "Sealed deck: checking every shuffle, key and action…" in checking
    gone = results_of(FinishedSeat(plugins, OUTCOME, 2, sealed=True))
    assert "Sealed deck: not checked: a player left before disclosing their secret" in gone
    fault = "party 1's lock pass of the shuffle at entry #0 is not what its secret gives"
    screen = results_of(FinishedSeat(plugins, OUTCOME, 2, sealed=True, verdict=fault))
    lines = screen.splitlines()
    assert " ".join(lines[-4:-2]) == f"Sealed deck: {fault}.", screen  # whole, on two lines
    assert "Sealed deck" not in results_of(FinishedSeat(plugins, OUTCOME, 2))  # an open deck


def test_the_lines_after_the_screen_say_the_result_and_the_check() -> None:
    plugins = PluginHost(autoload=False)
    seat = FinishedSeat(plugins, OUTCOME, 2, sealed=True, verdict=CHECKS_OUT)
    assert farewell_lines(seat) == ["Game over: you won!",
                                    "Sealed deck: every shuffle, key and action checks out."]
    assert farewell_lines(FinishedSeat(plugins, OUTCOME, 2)) == ["Game over: you won!"]
    # once this seat has left, nothing more comes: still checking is not checked
    waiting = FinishedSeat(plugins, OUTCOME, 2, sealed=True, settled=False)
    assert farewell_lines(waiting)[1] == \
        "Sealed deck: not checked: not every player's secret had come in when you left."
    # the table agreed to end the game: no winner, checked as far as it went
    ended = FinishedSeat(plugins, None, 3, sealed=True, verdict=CHECKS_OUT)
    ended.departures.ended = SeatEvent(SeatEventKind.END, 2, 0, "", 14, (0, 1))
    assert farewell_lines(ended) == [
        "The game ended by agreement at action #14, without Bot 2: nobody won.",
        "Sealed deck: every shuffle, key and action up to the agreed end checks out."]


def test_an_agreed_end_at_a_sealed_table_says_how_far_the_deck_was_checked() -> None:
    plugins = PluginHost(autoload=False)
    seat = dealing_seat(plugins, players=2)
    fake = FakeDepartures()
    seat.departures = fake  # type: ignore[assignment]

    async def main() -> None:
        async with running(seat, plugins) as d:
            await drawn(d, lambda rows: any("is lost" in r for r in rows),
                        what="the departure box")
            fake.ended = SeatEvent(SeatEventKind.END, 1, 0, "", 1, (0,))
            seat.judged = CHECKS_OUT
            changed(seat)
            rows = await drawn(d, lambda rows: any("Ended by agreement" in r for r in rows),
                               what="the agreed end")
            assert "Sealed deck: every shuffle, key and action up to the agreed end checks " \
                   "out." in "\n".join(rows), rows

    asyncio.run(main())
