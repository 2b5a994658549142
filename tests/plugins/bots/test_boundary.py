"""The information boundary: a bot, whatever it does with what it is handed, cannot reach a
card hidden from its seat.

The toy game ``tokens`` gives every card a unique token dealt by chance, so "can the bot
find another seat's hidden card" is "is one of those tokens among the strings reachable
from what the bot holds" (its view, its legal actions, its context with its `BotModel`,
and the bot object itself).  The control test shows the walk finds them in a state.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from framespy import FRAMESPY, records
from toygames import PLUGINS, hidden_tokens, reachable, reachable_strings

from hedgerow.clients.cli import main
from hedgerow.clients.tournament_play import RUN_SEEDS, run_seed
from hedgerow.core.botchoice import resolve
from hedgerow.core.botmodel import BotModel, Sampled
from hedgerow.core.playout import make_bots, play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost(autoload=False, extra=PLUGINS)


def test_the_walk_finds_hidden_tokens_in_a_state(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=3)
    table = Table(ruleset, 3, b"control")
    seat = table.active_seats()[0]
    hidden = hidden_tokens(table.state, seat)
    assert len(hidden) == 6
    assert hidden <= reachable_strings(table.state)
    assert not hidden & reachable_strings(table.view(seat))


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts:30"])
def test_no_bot_can_reach_another_seats_hidden_card(plugins: PluginHost, bot: str) -> None:
    ruleset = plugins.ruleset("tokens", players=3)
    seed = f"boundary-{bot}".encode()
    table = Table(ruleset, 3, seed)
    bots = make_bots(ruleset, 3, seed, [resolve(plugins, bot, "tokens")])
    rules = ruleset.gamedef
    decisions = 0
    while table.active_seats():
        (seat,) = table.active_seats()
        view, legal = table.view(seat), rules.legal_actions(table.state, seat)
        hidden = hidden_tokens(table.state, seat)
        assert hidden  # there is always something to hide until the last turn
        assert not hidden & reachable_strings(view, legal, bots[seat]), "a hidden card leaked"
        # nor the table seed, from which every card can be computed
        assert seed not in reachable_strings(view, legal, bots[seat], kind=bytes)
        assert table.play(seat, bots[seat].choose(view, legal)) is None
        # ... and nothing the bot kept from its thinking holds one either
        assert not hidden & reachable_strings(bots[seat])
        decisions += 1
        if decisions == 6:
            break


def test_a_bot_cannot_make_a_sampled_state_from_a_real_one(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"forge")
    with pytest.raises(TypeError, match=r"BotModel\.sample"):
        Sampled(table.state)
    model = BotModel(ruleset.gamedef, ruleset.bots, 0, 2)
    with pytest.raises(AttributeError):
        model.active_seats(table.state)  # type: ignore[arg-type]
    assert "_state" not in dir(model) and not hasattr(model, "gamedef")


# -- the bot's call stack and its random stream ------------------------------------------------


def test_the_spy_finds_the_table_on_a_stack_that_holds_it(
        plugins: PluginHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: a bot called from a frame that holds the table reaches it."""
    monkeypatch.setenv("FRAMESPY_SEEDS", "4711")
    ruleset = plugins.ruleset("tokens", players=3)
    table = Table(ruleset, 3, seed_from_int(4711))
    seat = table.active_seats()[0]
    spy = make_bots(ruleset, 3, table.header.seed, [FRAMESPY])[seat]
    spy.choose(table.view(seat), ruleset.gamedef.legal_actions(table.state, seat))
    (record,) = records(Path(os.environ["HEDGEROW_HOME"]))
    assert record["tables"] >= 1 and record["seeds"] == [4711] and len(record["hidden"]) == 6


def test_a_bot_finds_no_table_on_its_call_stack(
        plugins: PluginHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """`hedgerow.core.playout.play` (simulate, tournaments) asks its bots on a thread of
    their own: nothing on a bot's stack leads to the table, its seed or a hidden card."""
    monkeypatch.setenv("FRAMESPY_SEEDS", "4712")
    ruleset = plugins.ruleset("tokens", players=3)
    table = play(ruleset, 3, seed_from_int(4712), [FRAMESPY])
    seen = records(Path(os.environ["HEDGEROW_HOME"]))
    assert len(seen) > 6 and table.outcome() is not None
    assert all(r["tables"] == 0 and r["seeds"] == [] and r["hidden"] == [] for r in seen), seen
    assert "play" not in seen[0]["frames"] and "_serve" in seen[0]["frames"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_and_tournament_bots_find_no_table_or_seed(
        monkeypatch: pytest.MonkeyPatch, workers: str) -> None:
    """The same through the commands, whose frames hold the seed and the tournament's job
    (``--workers 2``: in a worker process, under `run_batch`)."""
    monkeypatch.setenv("FRAMESPY_SEEDS", ",".join(str(n) for n in range(90210, 90214)))
    assert main(["-p", "framespy", "tournament", "tokens", "--players", "3", "--bots",
                 "framespy,random", "--seed", "90210", "--games", "4", "--workers", workers,
                 "--json"]) == 0
    assert main(["-p", "framespy", "simulate", "tokens", "--players", "3", "--bots",
                 "framespy", "--seed", "90212", "--games", "2", "--json"]) == 0
    seen = records(Path(os.environ["HEDGEROW_HOME"]))
    assert len(seen) > 20
    assert all(r["tables"] == 0 and r["seeds"] == [] and r["hidden"] == [] for r in seen), [
        r for r in seen if r["tables"] or r["seeds"] or r["hidden"]][:1]


def test_a_run_without_a_seed_draws_a_secret_one_and_shows_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Unseeded runs start from a seed drawn for the run (52 bits: too many to try against a
    bot's stream), shown in every record, and a game replays from it exactly."""
    drawn = [run_seed(None) for _ in range(20)]
    assert len(set(drawn)) == 20 and all(0 <= s < RUN_SEEDS for s in drawn)
    assert max(drawn) >= 1 << 40  # 2**-240 that twenty draws all miss
    assert run_seed(17) == 17
    assert main(["-p", "framespy", "simulate", "tokens", "--players", "2", "--bots", "random",
                 "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["-p", "framespy", "simulate", "tokens", "--players", "2", "--bots", "random",
                 "--seed", str(first["seed"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first


def test_a_bots_stream_is_keyed_by_a_digest_of_the_table_seed_only(plugins: PluginHost) -> None:
    """What a bot's `Rng` holds (``ctx.rng.seed``) is a one-way digest of the table seed:
    never the seed, the same in every process for the same seed (so games replay), and
    another for another seed."""
    ruleset = plugins.ruleset("tokens", players=2)
    seed = seed_from_int(3)
    bot = make_bots(ruleset, 2, seed, [FRAMESPY])[1]
    assert bot.ctx.rng.seed not in (seed, seed_from_int(3))
    assert bot.ctx.rng.seed == make_bots(ruleset, 2, seed, [FRAMESPY])[1].ctx.rng.seed
    assert bot.ctx.rng.seed != make_bots(ruleset, 2, seed_from_int(4), [FRAMESPY])[1].ctx.rng.seed


@pytest.mark.parametrize(("game", "players", "variants"), [
    ("petals", 2, ()), ("flowers", 2, ()), ("mandala", 3, ()), ("flourish", 3, ("compost",)),
    ("flourish", 2, ()),
])
def test_what_a_bot_is_handed_holds_no_real_state(
        game: str, players: int, variants: tuple[str, ...]) -> None:
    """At every built-in game, nothing reachable from a bot's view, its legal actions, its
    context or itself is the table's real state (a lazy legal list once kept it, for ``in``:
    every hand at the table, one attribute away)."""
    full = PluginHost()
    ruleset = full.ruleset(game, variants, players=players)
    seed = seed_from_int(606)
    table = Table(ruleset, players, seed)
    bots = make_bots(ruleset, players, seed, [resolve(full, "greedy", game)])
    rules = ruleset.gamedef
    for _ in range(40):
        active = table.active_seats()
        if not active:
            break
        picks = {}
        for seat in active:
            view, legal = table.view(seat), rules.legal_actions(table.state, seat)
            reached = reachable(view, legal, bots[seat], limit=2_000_000)
            assert not any(obj is table.state for obj in reached), f"seat {seat} reaches the state"
            assert not any(isinstance(obj, Table) for obj in reached)
            picks[seat] = bots[seat].choose(view, legal)
        result = (table.play(*picks.popitem()) if len(active) == 1 else table.play_step(picks))
        assert result is None
