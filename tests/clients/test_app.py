"""The real seat client, driven by keys through a pipe, through whole games to the results."""

from __future__ import annotations

import asyncio

from appdriver import drawn, play_to_the_end, running
from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.app.state import QUIT, RESULTS
from hedgerow.core.host import Host
from hedgerow.core.seeding import seed_from_int


def local_petals(host: Host, players: int = 2, seed: int = 7) -> LocalSeat:
    ruleset = host.ruleset("petals", players=players)
    return LocalSeat(ruleset, players, seed_from_int(seed), bots=[host.bot("random", "petals")],
                     name="Ann")


def test_a_whole_petals_game_against_a_local_bot_to_the_results() -> None:
    host = Host(autoload=False)
    seat = local_petals(host)

    async def main() -> None:
        async with running(seat, host) as d:
            screen = await drawn(d, lambda rows: any("Your" in r for r in rows),
                                 what="the table screen")
            text = "\n".join(screen)
            assert "Players" in text and "Draw pile" in text and "hand" in text
            assert "Log" in text and "quit" in screen[-1]
            presses = await play_to_the_end(d)
            assert presses >= 15  # 15 cards placed, plus any effect choices
            screen = await drawn(d, lambda rows: any("Log saved to" in r for r in rows),
                                 what="the results screen")
            assert d.state.screen == RESULTS
            text = "\n".join(screen)
            for label in ("Fire", "Water", "Earth", "Air"):
                assert label in text
            assert "Log saved to" in text
            d.press("b")
            await drawn(d, lambda rows: any("Draw pile" in r for r in rows), what="the board")
            d.press("q")
            await d.until(lambda: d.state.overlay == QUIT, what="the question")
            d.press("y")
            assert await asyncio.wait_for(d.task, 5) == 0
        await seat.close()
        outcome = seat.outcome()
        assert outcome is not None and len(seat.history()) >= 30

    asyncio.run(main())
