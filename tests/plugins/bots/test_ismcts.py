"""The ``ismcts`` bot's parameters and how it turns judgements into rewards."""

from __future__ import annotations

from typing import Any

import pytest
from toygames import PLUGINS

from hedgerow.core import Action
from hedgerow.core.botchoice import resolve
from hedgerow.core.botmodel import BotModel
from hedgerow.core.playout import make_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.table import Table
from hedgerow.plugins.bots.greedy import WIDEST
from hedgerow.plugins.bots.ismcts import (
    SHORT,
    THROUGH,
    IsmctsBot,
    Node,
    Params,
    _knows,
    _likely,
    _next,
    parse_params,
)


def test_the_search_parameters_parse() -> None:
    assert parse_params("") == Params()
    assert (Params().top, Params().bias, Params().parity, Params().turns, Params().order) == (
        8, 10, None, None, 1)
    got = parse_params("3000,top=8,bias=0,parity=0,turns=0,order=0,c=1.2")
    assert (got.iterations, got.top, got.bias, got.parity, got.turns, got.order, got.c) == (
        3000, 8, 0, 0, 0, 0, 1.2)


@pytest.mark.parametrize(("text", "message"), [
    ("top=-1", "top='-1' must be at least 0"),
    ("bias=x", "bias='x' is not a whole number"),
    ("parity=-1", "parity='-1' must be at least 0"),
    ("parity=3", "parity='3' must be 0, 1 or 2"),
    ("turns=1.5", "turns='1.5' is not a whole number"),
])
def test_bad_search_parameters_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_params(text)


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost(autoload=False, extra=PLUGINS)


@pytest.mark.parametrize(("params", "turns", "policy"), [
    ("5", 1, None), ("5,turns=3", 3, None), ("5,turns=0", 0, None), ("5,policy=2", 1, 2),
    ("5,turns=2,policy=0", 2, 0)])
def test_the_tree_spans_the_games_lookahead_unless_told(plugins: PluginHost, params: str,
                                                        turns: int, policy: int | None) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    assert ruleset.bots is not None and ruleset.bots.lookahead == 1
    bot = make_bot(ruleset, 2, b"look", resolve(plugins, f"ismcts:{params}", "tokens"), 0)
    assert isinstance(bot, IsmctsBot)
    assert bot.model.lookahead == 1
    assert (bot.turns, bot.params.policy) == (turns, policy)


def test_two_seats_share_one_reward_and_more_points_judge_better(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"judge")
    (seat,) = table.active_seats()
    bot = make_bot(ruleset, 2, b"judge", resolve(plugins, "ismcts:5", "tokens"), seat)
    assert isinstance(bot, IsmctsBot)
    legal = ruleset.gamedef.legal_actions(table.state, seat)
    bot.choose(table.view(seat), legal)  # fixes the scale of this decision
    state = bot.model.sample(table.view(seat), bot.rng)
    rewards = bot._judge(state)
    assert len(rewards) == 2 and abs(sum(rewards) - 1.0) < 1e-9
    after = bot.model.step(state, seat, legal[0], bot.rng)
    judged_before, judged_after = bot.model.judges(state), bot.model.judges(after)
    assert judged_before is not None and judged_after is not None
    lead_before = judged_before[seat] - judged_before[1 - seat]
    lead_after = judged_after[seat] - judged_after[1 - seat]
    if lead_after > lead_before:
        assert bot._judge(after)[seat] > rewards[seat]


def test_ordered_widening_takes_the_best_untried_action_legal_here() -> None:
    node = Node()
    node.order = ["a", "b", "c", "d"]
    node.children["a"] = Node()
    assert _next(node, ["a", "b", "c"]) == "b"  # "a" is a child already
    assert _next(node, ["c", "d"]) == "c"  # "b" is not legal in this sample
    node.children["c"] = Node()
    assert _next(node, ["a", "c"]) is None  # nothing left to try here


def test_a_search_ranks_its_root_candidates_and_keeps_top(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"rank")
    (seat,) = table.active_seats()
    legal = ruleset.gamedef.legal_actions(table.state, seat)
    bot = make_bot(ruleset, 2, b"rank", resolve(plugins, "ismcts:30,top=2", "tokens"), seat)
    assert isinstance(bot, IsmctsBot)
    bot.choose(table.view(seat), legal)
    root = bot.last_root
    assert len(root) == min(2, len(legal))
    assert root[0][1] >= root[-1][1]  # best prior first
    assert sum(visits for _, _, visits, _ in root) == 30


def test_ordering_by_the_acting_seats_own_judgement_parses_and_replays(plugins: PluginHost) -> None:
    assert parse_params("100,order=2").order == 2
    with pytest.raises(ValueError, match="order='3' must be 0, 1 or 2"):
        parse_params("order=3")
    ruleset = plugins.ruleset("tokens", players=2)

    def game() -> list[object]:
        table = Table(ruleset, 2, b"own")
        bots = [make_bot(ruleset, 2, b"own", resolve(plugins, "ismcts:60,order=2", "tokens"), s)
                for s in range(2)]
        moves: list[object] = []
        while table.active_seats():
            (seat,) = table.active_seats()
            move = bots[seat].choose(table.view(seat),
                                     ruleset.gamedef.legal_actions(table.state, seat))
            moves.append(move)
            table.play(seat, move)
        return moves

    first = game()
    assert first and game() == first  # same seed, same moves


def test_the_likeliest_actions_are_the_first_of_the_order_legal_here() -> None:
    order = ["a", "b", "c", "d", "e"]
    assert _knows(order, ["x", "e"]) and not _knows(order, ["x", "y"])
    assert _likely(order, ["e", "c", "b", "a"], 2) == ["a", "b"]
    assert _likely(order, ["e", "c"], 2) == ["c", "e"]  # "a", "b" not legal in this sample
    assert _likely(order, ["x", "y"], 3) == ["x", "y"]  # the order knows none: all of them


def test_the_others_simultaneous_choice_is_their_best_of_several_draws(plugins: PluginHost) -> None:
    # Duel: a unique highest pick scores.  Against the bot's 1, the other seat's best pick is
    # 3 (3 points, where 2 scores 2 and 1 ties); drawn uniformly it is 3 a third of the time.
    assert parse_params("others=1").others == 1 and Params().others == 4
    with pytest.raises(ValueError, match="others='0' must be at least 1"):
        parse_params("others=0")
    ruleset = plugins.ruleset("duel", players=2)
    table = Table(ruleset, 2, b"others")
    one = Action.of("pick", n=1)
    threes = {}
    for params in ("5,others=30", "5,others=1"):
        bot = make_bot(ruleset, 2, b"others", resolve(plugins, f"ismcts:{params}", "duel"), 0)
        assert isinstance(bot, IsmctsBot)
        count = 0
        for _ in range(20):
            state = bot.model.sample(table.view(0), bot.rng)
            after = bot._step(state, 0, one)
            assert bot.model.active_seats(after) == (0, 1)  # the step resolved whole
            count += bot.model.score(after, 1) == 3.0
        threes[params] = count
    assert threes["5,others=30"] == 20 and 0 < threes["5,others=1"] < 20


def test_ordering_scans_at_most_scan_actions(plugins: PluginHost) -> None:
    assert parse_params("scan=3").scan == 3
    with pytest.raises(ValueError, match="scan='0' must be at least 1"):
        parse_params("scan=0")
    ruleset = plugins.ruleset("posy", players=2)
    table = Table(ruleset, 2, b"scan")
    (seat,) = table.active_seats()
    legal = ruleset.gamedef.legal_actions(table.state, seat)
    assert len(legal) == 2
    for params, length in (("5,scan=1", 1), ("5", 2)):
        bot = make_bot(ruleset, 2, b"scan", resolve(plugins, f"ismcts:{params}", "posy"), seat)
        assert isinstance(bot, IsmctsBot)
        state = bot.model.sample(table.view(seat), bot.rng)
        order = bot._order(state, seat, legal)
        assert len(order) == length and set(order) <= set(legal)


def _others_turn(plugins: PluginHost, seed: bytes, params: str
                 ) -> tuple[IsmctsBot, Any, int, list[Action]]:
    """A tokens bot, a state sampled from its view after it played its first legal action,
    the other seat (to act there) and that seat's legal actions."""
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, seed)
    (seat,) = table.active_seats()
    bot = make_bot(ruleset, 2, seed, resolve(plugins, f"ismcts:{params}", "tokens"), seat)
    assert isinstance(bot, IsmctsBot)
    model = bot.model
    state = model.sample(table.view(seat), bot.rng)
    state = model.step(state, seat, model.legal_actions(state, seat)[0], bot.rng)
    assert model.active_seats(state) == (1 - seat,)
    return bot, state, 1 - seat, list(model.legal_actions(state, 1 - seat))


def test_another_seats_policy_plays_its_best_of_the_likeliest(plugins: PluginHost) -> None:
    # Tokens: a played card scores its value, so the other seat's best is its highest card.
    assert parse_params("policy=0").policy == 0 and Params().policy is None
    with pytest.raises(ValueError, match="policy='-1' must be at least 0"):
        parse_params("policy=-1")
    bot, state, other, legal = _others_turn(plugins, b"policy", "5,policy=2")
    model = bot.model
    assert len(legal) >= 3

    def gain(action: Action) -> float:
        return model.judge(model.step(state, other, action, bot.rng), other)

    worst_first = sorted(legal, key=gain)
    node = Node()
    node.order = worst_first  # the policy weighs the first 2 of the order legal here only
    action, child, new = bot._policy(node, state, other, legal, 0)
    assert action == max(worst_first[:2], key=gain) and new and child is node.children[action]
    node.order = worst_first[::-1]
    assert bot._policy(node, state, other, legal, 0)[0] == action  # remembered for sample 0
    assert bot._policy(node, state, other, legal, 1)[0] == worst_first[-1]


@pytest.mark.parametrize(("params", "known", "unknown", "short"), [
    ("5", False, True, False),  # default: only where the order knows none of many actions
    ("5,policy=3", True, True, True),
    ("5,policy=0", False, False, False),
])
def test_another_seat_plays_for_itself_where_the_order_cannot_guide_the_search(
        plugins: PluginHost, params: str, known: bool, unknown: bool, short: bool) -> None:
    bot = make_bot(plugins.ruleset("tokens", players=2), 2, b"self",
                   resolve(plugins, f"ismcts:{params}", "tokens"), 0)
    assert isinstance(bot, IsmctsBot)
    many = [f"a{i}" for i in range(SHORT + 1)]
    node = Node()
    assert not bot._for_itself(node, many)  # no order yet: searched
    node.order = ["a3", "c"]
    assert bot._for_itself(node, many) is known  # "a3" is in the order
    hand = [f"x{i}" for i in range(SHORT + 1)]
    assert bot._for_itself(node, hand) is unknown  # another sample's hidden hand
    # A list short enough for the search to try every action: searched by default.
    assert bot._for_itself(node, hand[:SHORT]) is short


def test_another_seats_remembered_choice_is_its_own_without_looking_at_the_order(
        plugins: PluginHost) -> None:
    bot, state, other, legal = _others_turn(plugins, b"memo", "5")
    node = Node()
    node.order = ["elsewhere"]  # made in another sample: knows none of the actions here
    assert len(legal) <= SHORT and not bot._for_itself(node, legal, 0)  # short: searched
    action = bot._policy(node, state, other, legal, 0)[0]  # as for a longer list
    # Kept sample 0's choice is remembered, so the order is not walked again for it.
    node.order = [legal[0]]
    assert bot._for_itself(node, legal, 0) and not bot._for_itself(node, legal, 1)
    assert bot._policy(node, state, other, legal, 0)[0] == action


def test_another_seat_indifferent_between_its_best_actions_picks_one_at_random(
        plugins: PluginHost, monkeypatch: pytest.MonkeyPatch) -> None:
    bot, state, other, legal = _others_turn(plugins, b"tied", "5")
    monkeypatch.setattr(BotModel, "judge", lambda self, state, seat: 0.0)  # every action ties
    node = Node()
    picks = [bot._policy(node, state, other, legal, k)[0] for k in range(16)]
    assert set(picks) <= set(legal) and len(set(picks)) > 1  # not always the first listed
    assert [bot._policy(node, state, other, legal, k)[0] for k in range(16)] == picks


def _flowers_first_turn(plugins: PluginHost, seed: bytes, params: str
                        ) -> tuple[IsmctsBot, Table, int, list[Action], Action]:
    """A FLOWERS bot at the first turn of a 2-player game, its legal actions and the take
    from the face-down stack among them."""
    ruleset = plugins.ruleset("flowers", players=2)
    table = Table(ruleset, 2, seed)
    (seat,) = table.active_seats()
    bot = make_bot(ruleset, 2, seed, resolve(plugins, f"ismcts:{params}", "flowers"), seat)
    assert isinstance(bot, IsmctsBot)
    legal = list(ruleset.gamedef.legal_actions(table.state, seat))
    take = next(action for action in legal if action.kind == "take")
    return bot, table, seat, legal, take


def test_a_card_taken_face_down_is_judged_by_its_best_place_in_each_sample(
        plugins: PluginHost) -> None:
    # After the take the bot plants the card it drew; judged right after the take, the
    # card adds nothing.  Its prior is the mean over THROUGH samples of its best planting.
    bot, table, seat, legal, take = _flowers_first_turn(plugins, b"through", "20,top=0")
    bot.choose(table.view(seat), legal)  # fixes this decision's scale of rewards
    model, view = bot.model, table.view(seat)
    pool = [model.sample(view, bot.rng) for _ in range(THROUGH)]
    afters = [model.step(state, seat, take, bot.rng) for state in pool]
    assert all(model.active_seats(after) == (seat,) for after in afters)  # it plants next
    held = {model.view(after, seat).holding for after in afters}
    assert len(held) > 1  # the samples disagree on the card drawn

    def best(after: Any) -> float:
        return max(bot._judge(model.step(after, seat, plant, bot.rng))[seat]
                   for plant in model.legal_actions(after, seat))

    node = Node()
    prior = bot._through(node, take, afters[0], view, pool)
    assert prior == pytest.approx(sum(best(after) for after in afters) / THROUGH)
    assert prior != bot._judge(afters[0])[seat]  # not the card left unplanted
    # The states after the take are kept for the search (sample 0's by the ranking itself).
    assert node.states is not None and sorted(node.states) == list(range(1, THROUGH))
    # Where the first two samples show the bot the same thing, the plain prior stands.
    same = [pool[0]] * THROUGH
    assert bot._through(Node(), take, afters[0], view, same) is None


def test_the_tree_splits_where_the_bot_sees_what_it_drew(plugins: PluginHost) -> None:
    bot, table, seat, legal, take = _flowers_first_turn(plugins, b"split", "400,top=0")
    bot.choose(table.view(seat), legal)
    assert take in [action for action, *_ in bot.last_root]  # kept among the candidates
    # The search's tree is gone after the decision; walk one by hand below the take.
    model = bot.model
    pool = [model.sample(table.view(seat), bot.rng) for _ in range(6)]
    node = Node()
    subs = []
    for k, state in enumerate(pool):
        after = bot._enter(node, state, seat, take, k)
        sub = bot._seen(node, after, k)
        assert bot._seen(node, after, k) is sub  # remembered for the kept sample
        assert sub is node.seen[model.view(after, seat)]  # keyed by what the bot sees
        subs.append((model.view(after, seat).holding, sub))
    assert node.seen is not None and len(node.seen) == len({held for held, _ in subs}) > 1
    # Two samples that drew the same card share a node; different cards never do.
    for held, sub in subs:
        for other_held, other in subs:
            assert (sub is other) == (held == other_held)


def test_the_bots_next_turn_is_searched_for_each_card_turned_face_up(plugins: PluginHost) -> None:
    # FLOWERS spans two of the bot's turns.  Its plant from stack A turns up A's next card,
    # which the samples disagree on: its next turn's node splits by what it sees then.
    bot, table, seat, legal, _ = _flowers_first_turn(plugins, b"next turn", "20")
    assert bot.turns == 2
    bot.choose(table.view(seat), legal)  # fixes this decision's scale of rewards
    model = bot.model
    plant = next(action for action in legal if action.kind == "plant" and action["stack"] == 0)
    pool = [model.sample(table.view(seat), bot.rng) for _ in range(8)]
    node = Node()
    for _ in range(6):
        for k, state in enumerate(pool):
            bot._descend(state, plant, node, k)
    splits = [reply.seen for reply in node.children.values() if reply.seen]
    assert splits  # the bot's second turn was reached below the other seat's replies
    tops = {view.tops for seen in splits for view in seen if view is not None}
    assert any(len(seen) > 1 for seen in splits) and len(tops) > 1
    # Each node below a split is reached only by the samples showing the bot its key.
    kept = [(view, state) for seen in splits for view, sub in seen.items()
            for state in (sub.states or {}).values()]
    assert kept and all(model.view(state, seat) == view for view, state in kept)


@pytest.mark.parametrize(("game", "params", "policy", "parity"), [
    ("tokens", "5", None, 1), ("flowers", "5", WIDEST, 2), ("flowers", "5,policy=0", 0, 2),
    ("flowers", "5,parity=1", WIDEST, 1), ("tokens", "5,policy=3,parity=2", 3, 2)])
def test_the_others_play_for_themselves_where_the_game_says_so_unless_told(
        plugins: PluginHost, game: str, params: str, policy: int | None, parity: int) -> None:
    ruleset = plugins.ruleset(game, players=2)
    bot = make_bot(ruleset, 2, b"hint", resolve(plugins, f"ismcts:{params}", game), 0)
    assert isinstance(bot, IsmctsBot)
    assert bot.model.for_themselves == (game == "flowers")
    assert (bot.policy, bot.parity) == (policy, parity)


def test_parity_2_plays_the_other_seats_last_reply_as_its_own_best(plugins: PluginHost) -> None:
    bot, table, seat, legal, _ = _flowers_first_turn(plugins, b"parity", "20,parity=2")
    model = bot.model
    state = model.sample(table.view(seat), bot.rng)
    plant = next(action for action in legal if action.kind == "plant")
    after = model.step(state, seat, plant, bot.rng)
    (other,) = model.active_seats(after)
    assert other != seat
    replies = model.legal_actions(after, other)
    best = max(model.judge(model.step(after, other, reply, bot.rng), other)
               for reply in replies)
    for _ in range(4):  # ties broken at random: each draw is one of the best
        reply = bot._best_reply(after, other)
        assert model.judge(reply, other) == pytest.approx(best)
    # The rollout plays it: the leaf is judged after that reply, with the bot to act.
    bot.choose(table.view(seat), legal)  # fixes this decision's scale of rewards
    leaf = bot._rollout(after)
    assert leaf[seat] == pytest.approx(bot._judge(bot._best_reply(after, other))[seat])


def test_once_views_differ_every_split_node_plays_its_best_first(plugins: PluginHost) -> None:
    # A node split by what the bot sees is mostly visited once (each sample turns up its
    # own card), so its first child is all the search learns of it.  Once the search has
    # seen the bot's view differ, every split node is ordered on its first visit, the
    # first view at a parent too, whose split was not yet known when it was made: its
    # first child is the best one-ply action there, never a random one.
    bot, table, seat, legal, _ = _flowers_first_turn(plugins, b"next turn", "20")
    bot.choose(table.view(seat), legal)
    assert bot._differ  # the take from the face-down stack showed it at the ranking
    model = bot.model
    pool = [model.sample(table.view(seat), bot.rng) for _ in range(8)]
    node = Node()
    for _ in range(2):
        for k, state in enumerate(pool):
            bot._descend(state, legal[0], node, k)
    subs = [sub for reply in node.children.values() for sub in (reply.seen or {}).values()]
    visited = [sub for sub in subs if sub.visits]
    assert visited
    for sub in visited:
        assert sub.order is not None
        assert next(iter(sub.children)) == sub.order[0]


def test_a_view_that_cannot_be_hashed_leaves_the_node_whole(
        plugins: PluginHost, monkeypatch: pytest.MonkeyPatch) -> None:
    bot, table, seat, _, take = _flowers_first_turn(plugins, b"unhashable", "5")
    model = bot.model
    afters = [model.step(model.sample(table.view(seat), bot.rng), seat, take, bot.rng)
              for _ in range(4)]
    node = Node()
    assert len({id(bot._seen(node, after, -1)) for after in afters}) > 1  # split by card
    monkeypatch.setattr(BotModel, "view", lambda self, state, seat: [seat])  # a list
    node = Node()
    subs = {id(bot._seen(node, after, -1)) for after in afters}
    assert len(subs) == 1 and node.seen is not None and list(node.seen) == [None]


@pytest.mark.parametrize(("game", "params", "tempo"), [
    ("tokens", "5", 0), ("mandala", "5", 2), ("mandala", "5,tempo=0", 0),
    ("tokens", "5,tempo=1", 1), ("mandala", "5,tempo=1", 1)])
def test_leaves_are_judged_with_the_move_in_hand_where_the_game_says_so(
        plugins: PluginHost, game: str, params: str, tempo: int) -> None:
    ruleset = plugins.ruleset(game, players=2)
    bot = make_bot(ruleset, 2, b"tempo", resolve(plugins, f"ismcts:{params}", game), 0)
    assert isinstance(bot, IsmctsBot)
    assert bot.model.tempo == (game == "mandala") and bot.tempo == tempo


@pytest.mark.parametrize("tempo", [0, 1, 2])
def test_tempo_judges_a_leaf_after_the_bots_own_best_move_too(plugins: PluginHost,
                                                                tempo: int) -> None:
    """A leaf with the bot to act: as it is (0), after its own best move (1), the mean (2)."""
    ruleset = plugins.ruleset("mandala", players=2)
    table = Table(ruleset, 2, b"tempo-leaf")
    (seat,) = table.active_seats()
    legal = ruleset.gamedef.legal_actions(table.state, seat)
    bot = make_bot(ruleset, 2, b"tempo", resolve(plugins, f"ismcts:20,tempo={tempo}", "mandala"),
                   seat)
    assert isinstance(bot, IsmctsBot)
    bot.choose(table.view(seat), legal)  # fixes this decision's scale of rewards
    model = bot.model
    leaf = model.sample(table.view(seat), bot.rng)
    assert model.active_seats(leaf) == (seat,)
    answered = model.step(leaf, seat, legal[0], bot.rng)
    bot._best_reply = lambda state, who: answered  # type: ignore[method-assign]
    as_is, after = bot._judge(leaf), bot._judge(answered)
    assert as_is != after
    want = {0: as_is, 1: after,
            2: tuple(0.5 * (a + b) for a, b in zip(as_is, after, strict=True))}[tempo]
    assert bot._rollout(leaf) == pytest.approx(want)
