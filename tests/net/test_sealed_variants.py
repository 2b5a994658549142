"""Every variant plays sealed over the network to the end, and every log verifies.

Random bots at a sealed table (the default) of real peers over CURVE on 127.0.0.1, in one
process: Petals with harmony, FLOWERS with summer, Mandala with draw-four (its discard pile
reshuffled face down into a new deck), and Flourish with compost (the compost pile shuffled
into a new deck: a shuffle of sealed cards), cooperative and the garden show (its ribbons
dealt face up).  Every peer ends on the same hash with the deck verified, and every log
verifies on its own.  (The four plain games are played between real processes in
tests/e2e/test_net_game.py and test_net_games.py.)
"""

from __future__ import annotations

import asyncio

import pytest
from departing import sealed_table

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.logfile import read_log
from hedgerow.net.logverify import replay

WAIT = 120.0


@pytest.mark.parametrize("game, variants, players", [
    ("petals", ("harmony",), 3),
    ("flowers", ("summer",), 2),
    ("mandala", ("draw-four",), 3),
    ("flourish", ("compost",), 3),
    ("flourish", ("cooperative",), 3),
    ("flourish", ("garden-show",), 3),
], ids=lambda v: "+".join(v) if isinstance(v, tuple) else str(v))
def test_a_variant_plays_sealed_to_the_end_and_verifies(game: str, variants: tuple[str, ...],
                                                         players: int) -> None:
    async def main() -> None:
        peers = await sealed_table(game, variants, players)
        try:
            spec = PluginHost().bot("random")
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [0] * players, [p.problem() for p in peers]
            assert all(p.sealed for p in peers)
            assert len({p.state_hash() for p in peers}) == 1
            assert {p.verdict() for p in peers} == {"every shuffle, key and action checks out"}
            for p in peers:
                done = replay(p.ruleset, read_log(p.log_path()))
                assert done.mismatch is None, done.mismatch
                assert done.verdict is not None and done.verdict.ok, done.verdict
                assert done.table is not None
                assert done.table.reported_hash() == p.state_hash()
        finally:
            for p in peers:
                await p.close()

    asyncio.run(asyncio.wait_for(main(), WAIT))


@pytest.mark.parametrize("game, bot", [("petals", "greedy"), ("mandala", "greedy"),
                                       ("flourish", "greedy"), ("petals", "ismcts:20")])
def test_the_searching_bots_play_at_a_sealed_table(game: str, bot: str) -> None:
    """A bot's model checks a card's type as the rules do: the legal actions a sealed
    table hands it are plain faces (not the table's `Known` cards), and the table takes
    the chosen action back to the card's token (before, greedy and ismcts were refused
    their first move: "place takes four whole numbers")."""
    async def main() -> None:
        peers = await sealed_table(game, (), 2)
        try:
            spec = PluginHost().bot(bot, game)
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [0, 0], [p.problem() for p in peers]
            assert {p.verdict() for p in peers} == {"every shuffle, key and action checks out"}
            assert all(type(card) is int for action in peers[0].entries()
                       for _, card in action.action.args if type(card) is int)
        finally:
            for p in peers:
                await p.close()

    asyncio.run(asyncio.wait_for(main(), WAIT))
