"""``evaluate_each``: the judgement after each placement without building the state after it.

Every figure it gives is the very float ``evaluate`` gives for the state ``apply`` builds
(every legal action of whole random games, 2 to 5 players, with and without Harmony); it
answers most placements; it gives None where it does not reach (an effect waiting, the
last turn of the game, a placement that makes a symbol pair) and for anything ``apply``
refuses; bots play the same games with it as without it; and the conformance kit catches a
shortcut that is wrong.
"""

from __future__ import annotations

import dataclasses

import pytest

from hedgerow.core import Action, Refusal
from hedgerow.core.botchoice import resolve
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.conformance import ConformanceError, check_game
from hedgerow.core.game import GameDef
from hedgerow.core.playout import make_bots
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.petals.choices import place_action, place_args
from hedgerow.plugins.petals.geometry import placed
from hedgerow.plugins.petals.scoring import NO_SYMBOLS, evaluate_placed
from hedgerow.plugins.petals.state import FINAL, State
from tests.plugins.petals.test_evaluate import IDS, VARIANTS, random_game, rules


def _figures(game: GameDef, bots: BotSupport, state: State,
             ) -> tuple[list[Action], list[float | None]]:
    legal = list(game.legal_actions(state, state.active))
    assert bots.evaluate_each is not None
    return legal, list(bots.evaluate_each(state, state.active, legal))


@pytest.mark.parametrize("variants", VARIANTS, ids=IDS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_figure_is_evaluate_of_the_state_apply_builds(plugins: PluginHost, players: int,
                                                            variants: tuple[str, ...]) -> None:
    game, bots = rules(plugins, variants, players)
    assert bots.evaluate is not None
    answered = placements = 0
    for seed in range(2):
        for state in random_game(game, players, seed)[:-1]:
            legal, figures = _figures(game, bots, state)
            for action, figure in zip(legal, figures, strict=True):
                placements += action.kind == "place"
                if figure is None:
                    continue
                answered += 1
                after = game.apply(state, state.active, action)
                assert isinstance(after, State)
                assert figure == bots.evaluate(after, state.active), (seed, action)
    assert answered > placements / 2  # most placements make no symbol pair


def test_none_while_an_effect_waits_and_on_the_last_turn(plugins: PluginHost) -> None:
    game, bots = rules(plugins, ())
    waiting = last = 0
    for seed in range(6):
        for state in random_game(game, 2, seed)[:-1]:
            if state.pending is not None or (state.phase == FINAL and state.final_left == 1):
                waiting += state.pending is not None
                last += state.pending is None
                assert set(_figures(game, bots, state)[1]) == {None}
    assert waiting and last


def test_none_for_a_symbol_pair_and_for_what_apply_refuses(plugins: PluginHost) -> None:
    game, bots = rules(plugins, ())
    state = random_game(game, 2, 3)[10]
    seat = state.active
    legal, figures = _figures(game, bots, state)
    pairs = []
    for action, figure in zip(legal, figures, strict=True):
        card, rot, x, y = place_args(action) or (0, 0, 0, 0)
        if evaluate_placed(state.garden, (x, y), placed(card, rot))[1] != NO_SYMBOLS:
            pairs.append(figure)
    assert pairs and set(pairs) == {None}
    card = state.hands[seat][0]
    taken = next(iter(state.garden))
    foreign = state.hands[1 - seat][0]
    cell = state.frontier[0]
    refused = [place_action(card, *taken, 0), place_action(foreign, *cell, 0),
               place_action(card, *cell, 4), Action("score"), Action("place", (("card", card),))]
    assert all(isinstance(game.apply(state, seat, a), Refusal) for a in refused)
    assert bots.evaluate_each is not None
    assert list(bots.evaluate_each(state, seat, refused)) == [None] * len(refused)
    assert list(bots.evaluate_each(state, 1 - seat, legal[:5])) == [None] * 5


def _without_shortcut(ruleset: Ruleset) -> Ruleset:
    assert ruleset.bots is not None
    return dataclasses.replace(ruleset, bots=dataclasses.replace(ruleset.bots,
                                                                 evaluate_each=None))


@pytest.mark.parametrize(("number", "moves"), [(0, 12), (1, 12), (2, 200)])
def test_bots_play_the_same_game_with_and_without_it(plugins: PluginHost, number: int,
                                                     moves: int) -> None:
    """The same moves, so the same log (the first ``moves`` of it; 200: the whole game)."""
    ruleset = plugins.ruleset("petals", [], players=2)
    bots_here = "ismcts:200,greedy" if number < 2 else "greedy,greedy"
    specs = [resolve(plugins, name, "petals") for name in bots_here.split(",")]
    heads = []
    for rules_here in (ruleset, _without_shortcut(ruleset)):
        seed = seed_from_int(number)
        bots = make_bots(rules_here, 2, seed, specs[::1 if number % 2 == 0 else -1])
        table = Table(rules_here, 2, seed)
        while table.active_seats() and table.index < moves:
            (seat,) = table.active_seats()
            table.play(seat, bots[seat].choose(
                table.view(seat), rules_here.gamedef.legal_actions(table.state, seat)))
        heads.append(table.head)
    assert heads[0] == heads[1]


def test_the_conformance_kit_catches_a_wrong_shortcut(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("petals", [], players=2)
    each = ruleset.bots.evaluate_each
    assert each is not None

    def off(state: State, seat: int, actions: list[Action]) -> list[float | None]:
        return [None if f is None else f + 1e-9 for f in each(state, seat, actions)]

    def everything(state: State, seat: int, actions: list[Action]) -> list[float | None]:
        legal = set(ruleset.gamedef.legal_actions(state, seat))
        return [0.0 if f is None and a not in legal else f
                for a, f in zip(actions, each(state, seat, actions), strict=True)]

    for wrong, message in ((off, "evaluate of the state after it"),
                           (everything, "which apply refuses")):
        broken = dataclasses.replace(ruleset, bots=dataclasses.replace(
            ruleset.bots, evaluate_each=wrong))
        with pytest.raises(ConformanceError, match=message):
            check_game(broken, players=2, seeds=[1])


def test_a_known_card_is_the_card_it_is() -> None:
    """At a sealed table a seat's own legal actions name its cards as `Known` faces (a bot
    that plays a departed seat is handed them as they are, net/departures.py): Petals'
    fast path takes one as the card it is (it refused it: "place takes four whole
    numbers", and a greedy bot taking over a seat stopped)."""
    from hedgerow.core import Action
    from hedgerow.core.sealed import Known, Sealed

    known = Action.of("place", card=Known(19, Sealed(3, 0, 7)), rot=2, x=1, y=-1)
    assert place_args(known) == (19, 2, 1, -1)
