"""Turns as the spec plays them (§7, §8, §10.3, §10.5): choose at once, reveal, score the
round, pass, draw in seat order; the final round; two players; McGregor; compost."""

from __future__ import annotations

from collections import Counter

from hedgerow.core import Action, Chance, Refusal, Shuffle
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flourish.choices import parse
from hedgerow.plugins.flourish.game import active_seats, chance
from hedgerow.plugins.flourish.knowledge import COMPOST, DECK, MCG
from hedgerow.plugins.flourish.state import FINAL, OVER, RESHUFFLE, Choice, Config, Exchange

from .conftest import final, make_state, pair, ruleset, step, turn

HANDS3 = [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18]]


def test_a_turn_is_one_simultaneous_step(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    state = make_state(Config(3), HANDS3)
    assert active_seats(state) == (0, 1, 2)
    inside = rules.gamedef.apply(state, 0, turn(1, 2, 3))
    assert not isinstance(inside, Refusal)
    assert active_seats(inside) == (1, 2) and inside.gardens == ((), (), ())
    after = step(rules, state, {0: turn(1, 2, 3), 1: turn(7, 8, 9), 2: turn(13, 14, 15)})
    assert after.gardens == ((1,), (7,), (13,))
    # left is seat + 1, right is seat - 1; draws in seat order from the top of the deck
    assert after.hands == ((4, 5, 6, 9, 14, 19), (2, 10, 11, 12, 15, 20),
                           (3, 8, 16, 17, 18, 21))
    assert after.deck[0] == 22 and after.turn == 1 and active_seats(after) == (0, 1, 2)
    assert after.last[0] == Exchange(((2, 1), (3, 2)), ((9, 1), (14, 2)), (19,))


def test_round_scoring_counts_only_the_cards_of_the_round(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    gardens = [[1, 5, 6, 7, 13], [29, 30, 31, 37, 38], [14, 15, 21, 22, 23]]
    hands = [[9, 40, 41, 42, 44, 46], [52, 53, 55, 57, 59, 61], [64, 66, 68, 70, 72, 73]]
    state = make_state(Config(3), hands, gardens, turn=5)
    after = step(rules, state, {0: turn(9, 40, 41), 1: turn(53, 52, 55), 2: turn(64, 66, 68)})
    # C09 scores 1 per red (C13, C09); C01's end-of-round ability (round 1) does not again
    assert [p[1] for p in after.points] == [2, 0, 0]
    assert [p[0] for p in after.points] == [0, 0, 0]
    assert after.turn == 6 and all(len(h) == 6 for h in after.hands)


def test_turn_nine_scores_round_three_and_leaves_five_cards(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    gardens = [list(range(20, 28)), list(range(28, 36)), list(range(36, 44))]
    state = make_state(Config(3), HANDS3, gardens, turn=8)
    deck = state.deck
    after = step(rules, state, {0: turn(1, 2, 3), 1: turn(7, 8, 9), 2: turn(13, 14, 15)})
    assert after.turn == FINAL and [len(h) for h in after.hands] == [5, 5, 5]
    assert after.deck == deck  # no draw after turn 9
    assert len(rules.gamedef.legal_actions(after, 0)) == 10


def test_the_final_round_and_the_end_of_game(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    gardens = [list(range(20, 29)), list(range(29, 38)), list(range(38, 47))]
    hands = [[1, 2, 3, 4, 5], [7, 8, 9, 10, 11], [13, 14, 15, 16, 17]]
    state = make_state(Config(3), hands, gardens, turn=FINAL)
    after = step(rules, state, {0: final(1, 2, 3), 1: final(7, 8, 9), 2: final(13, 14, 15)})
    assert after.turn == OVER and active_seats(after) == ()
    assert all(len(g) == 12 for g in after.gardens)
    assert after.discard == (4, 5, 10, 11, 16, 17) and after.hands == ((), (), ())
    assert all(p[4] for p in after.points)  # end of game scored
    outcome = rules.gamedef.outcome(after)
    assert outcome is not None and outcome.kind == "ranked"
    assert outcome.scores == tuple(sum(p) for p in after.points)


def test_legal_action_counts(plugins: PluginHost) -> None:
    for players, variants, size in ((3, (), 120), (2, (), 60), (1, (), 60),
                                    (4, ("compost",), 480), (2, ("compost",), 240)):
        rules = ruleset(plugins, *variants, players=players)
        cfg = rules.gamedef.setup(_ctx(players)).cfg
        hands = [list(range(1 + 6 * s, 7 + 6 * s)) for s in range(players)]
        state = make_state(cfg, hands, mcg=tuple(range(80, 92)) if players == 1 else ())
        legal = rules.gamedef.legal_actions(state, 0)
        assert len(legal) == size and len(set(legal)) == size
        assert all(a in legal for a in legal[::7])
        assert list(legal)[5] == legal[5] and legal[-1] == list(legal)[-1]


def _ctx(players: int):
    from hedgerow.core import SetupContext

    return SetupContext(players)


def test_two_players_pass_both_cards_to_the_other(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=2)
    state = make_state(Config(2), HANDS3[:2])
    after = step(rules, state, {0: pair(1, 2, 3), 1: pair(7, 8, 9)})
    assert after.hands == ((4, 5, 6, 8, 9, 13), (2, 3, 10, 11, 12, 14))
    assert after.last[0].passed == ((2, 1), (3, 1))


def test_solo_against_mcgregor(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=1)
    table = Table(rules, 1, seed_from_int(3))
    game = rules.gamedef
    sizes = []
    while table.active_seats():
        state = table.state
        sizes.append(len(state.mcg))
        legal = game.legal_actions(state, 0)
        action = legal[len(legal) // 2]
        table.submit(0, action)
        if state.turn < FINAL:
            passed = action["passed"]
            assert isinstance(passed, tuple)
            assert set(passed) <= set(table.state.mcg)  # shuffled into his deck
            assert all(len(h) == (6 if state.turn < 8 else 5) for h in table.state.hands)
    assert sizes == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]
    state = table.state
    assert [len(g) for g in state.gardens] == [12, 12] and state.mcg == ()
    assert sum(1 for e in table.entries if e.is_chance) == 10  # the deal, nine shuffles
    outcome = table.outcome()
    assert outcome is not None and outcome.kind == "solo"
    assert outcome.opponent == sum(state.points[1])


def test_compost_keeps_six_then_five_and_draws_one_after_turn_nine(plugins: PluginHost) -> None:
    rules = ruleset(plugins, "compost", players=3)
    cfg = Config(3, compost=True)
    state = make_state(cfg, HANDS3, turn=3)
    after = step(rules, state, {0: turn(1, 2, 3, compost=4), 1: turn(7, 8, 9),
                                2: turn(13, 14, 15, compost=16)})
    assert [len(h) for h in after.hands] == [6, 6, 6]
    assert after.compost == (4, 16) and after.last[0].drawn == (19, 20)
    assert after.last[1].drawn == (21,) and after.last[2].drawn == (22, 23)
    nine = step(rules, make_state(cfg, HANDS3, turn=8),
                {0: turn(1, 2, 3, compost=4), 1: turn(7, 8, 9), 2: turn(13, 14, 15)})
    assert [len(h) for h in nine.hands] == [5, 5, 5] and nine.turn == FINAL
    assert nine.last[0].drawn == (19,) and nine.last[1].drawn == ()


def test_an_empty_deck_waits_for_the_compost_reshuffle_after_the_step(plugins: PluginHost) -> None:
    rules = ruleset(plugins, "compost", players=3)
    cfg = Config(3, compost=True)
    state = make_state(cfg, HANDS3, turn=4, deck=(40,), compost=(41, 42, 43, 44, 45))
    choices = {0: turn(1, 2, 3, compost=4), 1: turn(7, 8, 9, compost=10),
               2: turn(13, 14, 15, compost=16)}
    inside = rules.gamedef.apply(state, 0, choices[0])
    assert not isinstance(inside, Refusal) and chance(inside) is None
    after = step(rules, state, choices)
    assert after.luck == RESHUFFLE and active_seats(after) == ()
    assert after.hands[0] == (5, 6, 9, 14, 40)  # took the last card, waits for the second
    assert chance(after) == Chance((Shuffle(8),), "shuffle the compost pile into a new deck")
    assert dict(after.memory[0])[4] == 1 << COMPOST
    assert after.compost == (41, 42, 43, 44, 45, 4, 10, 16)
    done = rules.gamedef.resolve(after, ((5, 0, 1, 2, 3, 6, 7, 4),))
    assert done.deck == (10, 16, 45) and done.compost == ()
    assert [len(h) for h in done.hands] == [6, 6, 6]
    assert done.hands[0] == (4, 5, 6, 9, 14, 40)  # its own compost card came back
    assert done.hands[1] == (2, 11, 12, 15, 41, 42)
    assert 4 not in dict(done.memory[0])  # seen again
    # seat 1's card went to the pile, then into the new deck, from which seats 0 and 2
    # drew after the reshuffle: it may be with either of them
    assert dict(done.memory[1])[10] == (1 << DECK) | (1 << 0) | (1 << 2)


def test_every_card_used_once_and_the_deck_lasts(plugins: PluginHost) -> None:
    for players in (2, 5, 7):
        rules = ruleset(plugins, players=players)
        table = Table(rules, players, seed_from_int(players))
        game = rules.gamedef
        while table.active_seats():
            legal = {s: game.legal_actions(table.state, s) for s in table.active_seats()}
            choices = {s: a[7 * s % len(a)] for s, a in legal.items()}
            table.submit_step(choices)
        state = table.state
        assert all(len(g) == 12 for g in state.gardens)
        assert len(state.deck) == 98 - 14 * players and len(state.discard) == 2 * players
        everything = [c for g in state.gardens for c in g] + [*state.deck, *state.discard]
        assert sorted(everything) == list(range(1, 99))
        assert Counter(e.is_chance for e in table.entries)[True] == 1


def test_solo_cards_go_to_mcgregor(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=1)
    mcg = tuple(range(80, 92))
    state = make_state(Config(1, solo=True), [HANDS3[0]], mcg=mcg)
    after = step(rules, state, {0: pair(1, 2, 3)})
    assert after.luck == "mcgregor" and after.aside == (2, 3)
    assert after.gardens == ((1,), (80,)) and after.hands[0] == (4, 5, 6, 7, 81, 82)
    assert dict(after.memory[0]) == {2: 1 << MCG, 3: 1 << MCG}
    shuffled = rules.gamedef.resolve(after, (tuple(range(11)),))
    assert shuffled.mcg == (*mcg[3:], 2, 3) and shuffled.aside == ()


def test_refusals(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    game = rules.gamedef
    state = make_state(Config(3), HANDS3)
    bad = [
        turn(1, 2, 7),  # not in hand
        turn(1, 1, 2),  # not distinct
        turn(1, 2, 3, compost=4),  # no compost variant
        pair(1, 2, 3),  # two-player form
        final(1, 2, 3),  # not the final round
        Action.of("turn", play=1, left=2, right="3"),
        Action.of("turn", play=1, left=2),
        Action.of("pass"),
    ]
    for action in bad:
        result = game.apply(state, 0, action)
        assert isinstance(result, Refusal) and result.code.startswith("flourish."), action
        assert action not in game.legal_actions(state, 0)
        assert "refused" in game.describe(state, 0, action)
    inside = game.apply(state, 0, turn(1, 2, 3))
    assert not isinstance(inside, Refusal)
    assert isinstance(game.apply(inside, 0, turn(4, 5, 6)), Refusal)
    assert game.legal_actions(inside, 0) == ()
    two = make_state(Config(2), HANDS3[:2])
    assert isinstance(game.apply(two, 0, Action.of("turn", play=1, passed=(3, 2))), Refusal)
    last = make_state(Config(3), [h[:5] for h in HANDS3], turn=FINAL)
    assert isinstance(game.apply(last, 0, Action.of("final", play=(3, 2, 1))), Refusal)
    assert isinstance(game.apply(last, 0, Action.of("final", play=(1, 2, 6))), Refusal)
    assert isinstance(game.apply(last, 5, final(1, 2, 3)), Refusal)


def test_a_two_player_turn_and_its_near_misses_read_as_the_rules_say(plugins: PluginHost) -> None:
    # parse reads the common turn(passed, play) straight from its args; every near miss
    # falls to the full reading and is refused for its reason, and `in` agrees
    for players, variants in ((2, ()), (2, ("compost",)), (1, ())):
        rules = ruleset(plugins, *variants, players=players)
        cfg = rules.gamedef.setup(_ctx(players)).cfg
        hands = [list(range(1 + 6 * s, 7 + 6 * s)) for s in range(players)]
        state = make_state(cfg, hands, mcg=tuple(range(80, 92)) if players == 1 else ())
        legal = rules.gamedef.legal_actions(state, 0)
        for action in legal:
            args = dict(action.args)
            assert parse(state, 0, action) == Choice((args["play"],), args["passed"],
                                                     args.get("compost", -1))
        near = {"bad_order": Action("turn", (("passed", (2, 1)), ("play", 3))),
                "not_distinct": Action("turn", (("passed", (1, 2)), ("play", 2))),
                "not_in_hand": Action("turn", (("passed", (1, 20)), ("play", 3))),
                "bad_action": Action("turn", (("passed", (1, 2)), ("play", True)))}
        for code, action in near.items():
            refusal = parse(state, 0, action)
            assert isinstance(refusal, Refusal) and refusal.code == f"flourish.{code}"
            assert action not in legal
        for action in (Action("turn", (("passed", (1, 1)), ("play", 3))),
                       Action("turn", (("passed", (1, 2)), ("play", 9))),
                       Action("turn", (("passed", (1, 2, 4)), ("play", 3))),
                       Action("turn", (("passed", [1, 2]), ("play", 3))),
                       Action("final", (("play", (1, 2, 3)),))):
            assert isinstance(parse(state, 0, action), Refusal) and action not in legal
