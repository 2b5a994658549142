"""The departure prompt on the real seat client at 80x24: who left, and the table's choices
(wait, seat a bot, end the game) on keys; a motion from another seat asked with y/n."""

from __future__ import annotations

import asyncio
from typing import Any

from appdriver import drawn, running

from hedgerow.clients.app.departure import installed_bots
from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.botnames import bot_name
from hedgerow.core import BotSpec, hookimpl
from hedgerow.core.botchoice import best_first
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.net.messages import MotionKind, SeatEvent, SeatEventKind, SeatMotion
from hedgerow.net.seat import Departed, Link, Motion


class FakeDepartures:
    """A `hedgerow.net.seat.DepartureBoard`: what it shows a client, and what it was asked
    (a motion proposed here is never held open)."""

    def __init__(self) -> None:
        self.gone = [Departed(1, "Bob", Link.LOST)]
        self.asked: list[Motion] = []
        self.proposed: list[tuple[Any, ...]] = []
        self.votes: list[bool] = []
        self.ended: Any = None
        self.motions: dict[tuple[int, int], Motion] = {}
        self.events: list[SeatEvent] = []
        self.problem: str | None = None  # why no bot can take the seat
        self.end: str | None = None  # why the game cannot end here

    def takeover_problem(self, seat: int) -> str | None:
        return self.problem

    def end_problem(self, seat: int) -> str | None:
        return self.end


    def departed(self) -> list[Departed]:
        return list(self.gone)

    def voters(self, seat: int) -> tuple[int, ...]:
        return (0, 2)

    def run_headless(self, delay: float) -> None:
        raise AssertionError("a person's seat")

    def propose(self, kind: MotionKind, seat: int, bot: str = "") -> SeatMotion:
        self.proposed.append((kind, seat, bot))
        self.gone = []  # (the seat is taken over once everyone agrees)
        return SeatMotion(1, kind, seat, 0, bot, 3, (0,))

    def vote(self, motion: Motion, accept: bool, reason: str = "") -> None:
        self.votes.append(accept)
        self.asked.remove(motion)


def test_the_departure_box_names_who_left_and_its_keys_act() -> None:
    plugins = PluginHost(autoload=False)
    seat = LocalSeat(plugins.ruleset("petals", players=3), 3, seed_from_int(7),
                     bots=[plugins.bot("random", "petals")], name="Ann")
    fake = FakeDepartures()
    seat.departures = fake  # type: ignore[attr-defined]

    async def main() -> None:
        async with running(seat, plugins, rows=24, columns=80) as d:
            rows = await drawn(d, lambda rows: any("is lost" in r for r in rows),
                               what="the departure box")
            text = "\n".join(rows)
            best = installed_bots(plugins, "petals")[0]  # the box starts on the best one
            for line in ("wait for them to come back (hedgerow resume)",
                         f"seat the bot [{best}] in their place",
                         "end the game here, no winner"):
                assert line in text
            bob = seat.seats()[1].name
            assert f"{bob} is lost" in text and f"({bob})" not in text  # named once
            assert all(len(r) <= 80 for r in rows) and len(rows) == 24
            d.press("b")
            await d.until(lambda: fake.proposed != [], what="the proposal")
            assert fake.proposed == [(MotionKind.TAKEOVER, 1, best)]
            await drawn(d, lambda rows: not any("is lost" in r for r in rows),
                        what="the box to close")
            # Another seat proposes: this player is asked, and answers with y.
            fake.asked.append(Motion(2, SeatMotion(4, MotionKind.END, 1, 0, "", 3, (0, 2))))
            d.app._invalidate()
            rows = await drawn(d, lambda rows: any("proposes" in r for r in rows),
                               what="the question")
            assert f"ending the game without {bob}" in "\n".join(rows)
            d.press("y")
            await d.until(lambda: fake.votes == [True], what="the vote")
            # The end passes: the game is over (the results say so), and nobody won.
            fake.ended = SeatEvent(SeatEventKind.END, 1, 0, "", 3, (0, 2))
            seat._notify()
            rows = await drawn(d, lambda rows: any("agreed to end" in r for r in rows),
                               what="the agreed end")
            text = " ".join(r.strip() for r in rows)
            assert "Ended by agreement: nobody won" in text, text
            assert "Game over" in rows[0]
            assert not any("A seat is empty" in r for r in rows)

    asyncio.run(main())


def test_on_the_smaller_side_of_a_cut_the_box_offers_only_to_wait_and_says_why() -> None:
    # The quorum (docs/protocol.md §5.9) stops a bot and an end alike: the box says so once,
    # in place of both keys, and offers to wait.
    plugins = PluginHost(autoload=False)
    seat = LocalSeat(plugins.ruleset("petals", players=3), 3, seed_from_int(7),
                     bots=[plugins.bot("random", "petals")], name="Ann")
    fake = FakeDepartures()
    fake.problem = fake.end = ("only 1 of the 3 seats still played by their own players can "
                               "agree here; a bot or an end needs more than half of them, or "
                               "half with seat 0 (the others may be playing on without this "
                               "peer)")
    seat.departures = fake  # type: ignore[attr-defined]

    async def main() -> None:
        async with running(seat, plugins, rows=24, columns=80) as d:
            rows = await drawn(d, lambda rows: any("is lost" in r for r in rows),
                               what="the departure box")
            text = " ".join(r.strip(" │") for r in rows)
            assert "wait for them to come back (hedgerow resume)" in text
            assert text.count("Only 1 of the 3 seats") == 1, text
            assert "seat the bot" not in text and "end the game here" not in text
            assert all(len(r) <= 80 for r in rows)

    asyncio.run(main())


class SealedLocalSeat(LocalSeat):
    """A local seat that says its table is sealed (the box reads only that of it)."""

    @property
    def sealed(self) -> bool:
        return True


def test_at_a_sealed_table_the_box_and_the_vote_say_who_would_see_the_cards() -> None:
    """Before anyone agrees to a takeover: the runner's process is shown the seat's hand
    (docs/protocol.md §10.11), and the box and the question say whose process that is."""
    plugins = PluginHost(autoload=False)
    seat = SealedLocalSeat(plugins.ruleset("petals", players=3), 3, seed_from_int(7),
                           bots=[plugins.bot("random", "petals")], name="Ann")
    fake = FakeDepartures()
    seat.departures = fake  # type: ignore[attr-defined]
    gone = seat.seats()[1].name

    async def main() -> None:
        async with running(seat, plugins, rows=24, columns=80) as d:
            rows = await drawn(d, lambda rows: any("is lost" in r for r in rows),
                               what="the departure box")
            assert f"you would run it and see {gone}'s cards" in "\n".join(rows)
            assert all(len(r) <= 80 for r in rows)
            d.press("w")
            fake.asked.append(Motion(2, SeatMotion(4, MotionKind.TAKEOVER, 1, 2, "random", 3,
                                                   (0, 2))))
            d.app._invalidate()
            rows = await drawn(d, lambda rows: any("proposes" in r for r in rows),
                               what="the question")
            text = " ".join(r.strip(" │|") for r in rows)
            assert f"{seat.seats()[2].name} would be shown {gone}'s cards" in text, text

    asyncio.run(main())


class SomeBots:
    """Bots in place of the built-in ones: ``random`` and ``greedy`` (any game),
    ``petalsonly`` (Petals) and ``elsewhere`` (another game), all playing at random."""

    @staticmethod
    @hookimpl
    def hedgerow_register_bots(register: Any) -> None:
        from hedgerow.plugins.bots.random_bot import RandomBot

        register(BotSpec(name="random", version="0.0.1", make=RandomBot))
        register(BotSpec(name="greedy", version="0.0.1", make=RandomBot))
        register(BotSpec(name="petalsonly", version="0.0.1", make=RandomBot, games=("petals",)))
        register(BotSpec(name="elsewhere", version="0.0.1", make=RandomBot, games=("posy",)))


def test_the_box_picks_the_bot_that_takes_the_seat_and_says_who_took_it() -> None:
    """The picker starts on the best bot installed (greedy before random), lists only bots
    that play this game, ←/→ changes it, b sends it; a takeover in force is told by name."""
    plugins = PluginHost(autoload=False, block=("random-bot", "greedy-bot", "ismcts-bot"),
                      extra=[SomeBots])
    seat = LocalSeat(plugins.ruleset("petals", players=3), 3, seed_from_int(7),
                     bots=[plugins.bot("random", "petals")], name="Ann")
    fake = FakeDepartures()
    fake.events: list[Any] = []  # type: ignore[misc]
    seat.departures = fake  # type: ignore[attr-defined]
    assert installed_bots(plugins, "petals") == ["greedy", "random", "petalsonly"]

    async def main() -> None:
        async with running(seat, plugins, rows=24, columns=80) as d:
            rows = await drawn(d, lambda rows: any("is lost" in r for r in rows),
                               what="the departure box")
            text = "\n".join(rows)
            assert "seat the bot [greedy] in their place" in text
            assert "another bot (greedy, random, petalsonly)" in text
            assert "elsewhere" not in text  # it does not play Petals
            assert all(len(r) <= 80 for r in rows) and len(rows) == 24
            d.press("right")
            await drawn(d, lambda rows: any("[random]" in r for r in rows),
                        what="the next bot")
            d.press("left")
            d.press("left")  # (wraps around)
            await drawn(d, lambda rows: any("[petalsonly]" in r for r in rows),
                        what="the last bot")
            d.press("b")
            await d.until(lambda: fake.proposed != [], what="the proposal")
            assert fake.proposed == [(MotionKind.TAKEOVER, 1, "petalsonly")]
            # The table agrees: the screen says which bot plays whose seat.
            fake.events.append(SeatEvent(SeatEventKind.TAKEOVER, 1, 0, "petalsonly", 3,
                                         (0, 2)))
            seat._notify()
            bob = seat.seats()[1].name
            names = {i.name for i in seat.seats()}
            expected = next(bot_name(n) for n in range(1, 20) if bot_name(n) not in names)
            rows = await drawn(d, lambda rows: any("(petalsonly) plays" in r for r in rows),
                               what="who took the seat")
            assert f"{expected} (petalsonly) plays {bob}'s seat" in "\n".join(rows)
            # The player comes back and reclaims the seat: the screen says so.
            fake.events.append(SeatEvent(SeatEventKind.RECLAIM, 1, 0, "", 9))
            seat._notify()
            rows = await drawn(d, lambda rows: any("is back" in r for r in rows),
                               what="the reclaim")
            assert f"{bob} is back and plays their seat again." in "\n".join(rows)

    asyncio.run(main())


def test_the_picker_falls_back_to_the_preference_order_and_random() -> None:
    assert best_first(["random", "zeta", "greedy", "ismcts", "alpha"]) == [
        "greedy", "ismcts", "random", "alpha", "zeta"]
    assert installed_bots(object(), "petals") == []  # no bots known: the box uses random


def test_the_waiting_room_says_when_the_host_is_gone_before_the_game_began() -> None:
    from types import SimpleNamespace

    from hedgerow.clients.app.render import waiting_room
    from hedgerow.net.seat import Phase

    for gone, expected in ((True, "The host is gone before the game began"),
                           (False, "agreeing on the deal")):
        state = SimpleNamespace(phase=Phase.SEEDING, problem=None, infos=[],
                                seat=SimpleNamespace(host_gone=lambda gone=gone: gone))
        text = "".join(t for _, t in waiting_room(state, 60))  # type: ignore[arg-type]
        assert expected in text
        assert ("hedgerow resume" in text) == gone


def test_the_players_table_shows_a_seat_a_bot_took_over_as_bot_not_lost() -> None:
    from types import SimpleNamespace

    from hedgerow.clients.app.render import players
    from hedgerow.net.seat import Phase, SeatInfo

    names = ["Ann", "Bob", "Cy"]
    infos = [SeatInfo(0, "Ann", Link.YOU), SeatInfo(1, "Bob", Link.LOST, run_by=0),
             SeatInfo(2, "Cy", Link.LOST)]
    state = SimpleNamespace(ui=None, view=None, infos=infos, names=names,
                            name_of=names.__getitem__, active=(1,), phase=Phase.PLAYING,
                            outcome=None, over=False,
                            seat=SimpleNamespace(seat=0))
    rows = "".join(t for _, t in players(state, 30)).split("\n")  # type: ignore[arg-type]
    assert rows[0].split() == ["Players", "link"]
    assert rows[2].split() == ["▶", "Bob", "bot"]  # its bot plays: not "lost"
    assert rows[3].split() == ["Cy", "lost"]
