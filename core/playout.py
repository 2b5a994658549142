"""Play whole games in one process with bots in every seat (``hedgerow simulate``, tests, benches).

Each bot gets its own random stream (`bot_rng`: ``bot/<seat>`` keyed by a one-way digest of
the table seed, so that the seed, which names every card, is not in its hands), sees only
its seat's view and the legal actions, and in a simultaneous step every active seat chooses
against the step's starting state; the whole step is then applied at once (`Table.play_step`,
in seat order).  Chance is resolved by the table from the seed.

`play` asks its bots on a thread of their own (`hedgerow.core.botcall.BotThread`), so that
no frame on a bot's call stack holds the table, its seed or anything the callers keep (a
tournament's job): what that closes, and what in one process it cannot, is in
docs/plugins.md ("What a bot is handed, and what that promises").  The games are the same
as on the caller's thread: the bots choose one at a time, in seat order.
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core.botcall import BotThread
from hedgerow.core.botmodel import BotModel
from hedgerow.core.canon import digest
from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import Bot, BotContext, BotSpec
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Table


def make_bots(ruleset: Ruleset, players: int, seed: bytes, specs: Sequence[BotSpec]) -> list[Bot]:
    """One bot per seat; ``specs`` are used in turn when there are fewer than seats.

    Each bot gets a `BotContext`: a `BotModel` of the table's rules for its seat (never the
    state), its own stream (`bot_rng`), the game's name and the parameters
    its spec was chosen with (``BotSpec.params``, see `hedgerow.core.botchoice`).
    """
    if not specs:
        raise HedgerowError("at least one bot is needed")
    return [make_bot(ruleset, players, seed, specs[seat % len(specs)], seat)
            for seat in range(players)]


def make_bot(ruleset: Ruleset, players: int, seed: bytes, spec: BotSpec, seat: int, *,
             stream: str = "") -> Bot:
    """The bot ``spec`` makes for ``seat`` (exactly as `make_bots` makes it; ``stream`` forks
    its random stream, for a bot that cannot replay its past decisions)."""
    rng = bot_rng(seed, seat)
    if stream:
        rng = rng.fork(stream)
    ctx = BotContext(BotModel(ruleset.gamedef, ruleset.bots, seat, players), seat, players,
                     rng, game=ruleset.spec.name, params=spec.params)
    return spec.make(ctx)


def bot_rng(seed: bytes, seat: int) -> Rng:
    """The random stream of the bot at ``seat``: keyed by a one-way digest of the table seed,
    never by the seed itself, because every card is computable from the table seed and a
    bot may read its generator's key (docs/protocol.md §7).  One-way is not unguessable: a
    small seed can be found by trying seeds against this key, so a run that is not given a
    seed draws a large one (`hedgerow.clients.tournament_play.run_seed`)."""
    return Rng(digest(b"hedgerow-bot-seed-v1", seed), "bot").fork(str(seat))


def play(
    ruleset: Ruleset,
    players: int,
    seed: bytes,
    specs: Sequence[BotSpec],
    *,
    max_actions: int = 100_000,
) -> Table:
    """Play one complete game and return the finished table."""
    table = Table(ruleset, players, seed)
    game = ruleset.gamedef
    with BotThread(make_bots(ruleset, players, seed, specs)) as bots:
        while True:
            active = table.active_seats()
            if not active:
                return table
            if table.index >= max_actions:
                raise HedgerowError(f"the game did not end within {max_actions} actions")
            state = table.state
            choices = {
                seat: bots.choose(seat, game.view(state, seat), game.legal_actions(state, seat))
                for seat in active
            }
            if len(active) == 1:
                (seat,) = active
                result = table.play(seat, choices[seat])
            else:
                result = table.play_step(choices)
            if result is not None:
                raise HedgerowError(f"a bot chose a refused action ({choices}): {result}")
