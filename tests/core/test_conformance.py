"""The conformance kit passes good games and catches each kind of broken one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hedgerow.core.chance import Chance, Pick
from hedgerow.core.conformance import ConformanceError, check_game, check_outcome
from hedgerow.core.errors import Refusal
from hedgerow.core.outcome import Cooperative, Match, Ranked, Solo
from hedgerow.core.ruleset import Ruleset


@pytest.mark.parametrize(
    ("game", "variants", "players"),
    [
        ("posy", [], 2),
        ("posy", [], 4),
        ("posy", ["lowball"], 3),
        ("posy", ["bonus"], 2),
        ("duel", [], 2),
        ("duel", [], 5),
    ],
)
def test_toy_games_conform(toy_host, game: str, variants: list[str], players: int) -> None:
    report = check_game(toy_host.ruleset(game, variants, players), players=players, seeds=range(15))
    assert report.games == 15
    assert report.actions > 0 and report.actions_checked >= report.actions
    assert report.refusals_checked > 0


def _broken(toy_host, **changes) -> Ruleset:
    r = toy_host.ruleset("posy", players=2)
    return Ruleset(r.spec, r.variants, replace(r.gamedef, **changes))


def test_catches_a_leaky_view(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)
    leaky = _broken(toy_host, view=lambda s, seat: (r.gamedef.view(s, seat), s.hands))
    with pytest.raises(ConformanceError, match="leaks hidden information"):
        check_game(leaky, players=2, seeds=[1])


def test_catches_a_view_that_is_the_state(toy_host) -> None:
    with pytest.raises(ConformanceError, match="View type"):
        check_game(_broken(toy_host, view=lambda s, seat: s), players=2, seeds=[1])


def test_catches_accepting_any_action(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def lax(state, seat, action):
        if action.kind != "play":
            return state
        return r.gamedef.apply(state, seat, action)

    with pytest.raises(ConformanceError, match="should be refused"):
        check_game(_broken(toy_host, apply=lax), players=2, seeds=[1])


def test_catches_a_game_that_never_ends(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def forever(state, seat, action):
        new = r.gamedef.apply(state, seat, action)
        return new if isinstance(new, Refusal) else replace(new, hands=state.hands, pile=state.pile)

    with pytest.raises(ConformanceError, match="did not end"):
        check_game(_broken(toy_host, apply=forever), players=2, seeds=[1], max_actions=200)


def test_catches_a_broken_invariant(toy_host) -> None:
    def scores_never_move(before, after, seat, action):
        assert before is None or before.scores == after.scores, "scores changed"

    with pytest.raises(ConformanceError, match="scores_never_move: scores changed"):
        check_game(
            toy_host.ruleset("posy", players=2),
            players=2,
            seeds=[1],
            invariants=[scores_never_move],
        )


def test_catches_a_bad_outcome(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def no_winner(state):
        out = r.gamedef.outcome(state)
        return out and replace(out, winners=())

    with pytest.raises(ConformanceError, match="winners"):
        check_game(_broken(toy_host, outcome=no_winner), players=2, seeds=[1])


def test_catches_a_rule_that_raises_instead_of_refusing(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def strict(state, seat, action):
        if action.kind != "play":
            raise KeyError(action.kind)
        return r.gamedef.apply(state, seat, action)

    with pytest.raises(ConformanceError, match="raised KeyError instead of refusing"):
        check_game(_broken(toy_host, apply=strict), players=2, seeds=[1])


# -- contract version 2: chance, simultaneous steps, outcome kinds ---------------------------


def test_reports_chance_steps_and_outcome_kinds(toy_host) -> None:
    posy = check_game(toy_host.ruleset("posy", players=3), players=3, seeds=range(3))
    assert posy.chances == 3 and posy.simultaneous_steps == 0 and posy.kinds == ("ranked",)
    duel = check_game(toy_host.ruleset("duel", players=3), players=3, seeds=range(3))
    assert duel.chances == 0 and duel.simultaneous_steps == 9


def test_catches_rules_asked_about_a_state_waiting_for_chance(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)
    asked: set[int] = set()

    def fickle(state):  # impure: says "no chance" once per state, then asks for a coin
        real = r.gamedef.chance(state)
        if real is not None:
            return real
        if id(state) in asked:
            return Chance((Pick(2),), "a coin nobody resolved")
        asked.add(id(state))
        return None

    with pytest.raises(ConformanceError, match="waits for chance"):
        check_game(_broken(toy_host, chance=fickle), players=2, seeds=[1])


def test_catches_a_chance_that_never_settles(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)
    with pytest.raises(ConformanceError, match="chance nodes in a row"):
        check_game(_broken(toy_host, resolve=lambda s, o: s), players=2, seeds=[1])
    assert r.gamedef.resolve is not None


def test_catches_rules_that_only_take_the_seeded_luck(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)
    seen: list[object] = []

    def only_first(state, outcome):  # a sealed deck would hand it another outcome
        if seen and outcome != seen[0]:
            raise ValueError("unexpected deal")
        seen.append(outcome)
        return r.gamedef.resolve(state, outcome)

    with pytest.raises(ConformanceError, match="another possible outcome raised ValueError"):
        check_game(_broken(toy_host, resolve=only_first), players=2, seeds=[1])


def test_catches_a_step_that_cannot_be_applied_whole(toy_host) -> None:
    r = toy_host.ruleset("duel", players=3)

    def one_at_a_time(state):  # claims every seat stays active inside the step
        return (0, 1, 2) if state.round < 3 else ()

    broken = Ruleset(r.spec, r.variants, replace(r.gamedef, active_seats=one_at_a_time))
    with pytest.raises(ConformanceError, match="inside a simultaneous step"):
        check_game(broken, players=3, seeds=[1])


def test_catches_legal_actions_that_depend_on_hidden_cards(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def peeking(state, seat):  # offers a play only when the next pile card is even
        legal = r.gamedef.legal_actions(state, seat)
        return legal if not state.pile or state.pile[0] % 2 else legal[:1]

    def strict(state, seat, action):  # and refuses what it does not offer
        if action not in peeking(state, seat):
            return Refusal("posy.not_offered", f"{action} is not offered")
        return r.gamedef.apply(state, seat, action)

    with pytest.raises(ConformanceError, match="legal actions change"):
        check_game(_broken(toy_host, legal_actions=peeking, apply=strict), players=2,
                   seeds=range(5))
    # without determinize, the kit's own re-deal (another shuffle, the same actions) shows it
    with pytest.raises(ConformanceError, match="legal actions differ between two states"):
        check_game(_broken(toy_host, legal_actions=peeking, apply=strict, determinize=None),
                   players=2, seeds=range(5))


@pytest.mark.parametrize("outcome", [
    Cooperative(scores=(5, 5), total=10, won=True, grade="Gold", explanation="x",
                grades=(("Bronze", 5), ("Silver", 10), ("Gold", 20))),
    Cooperative(scores=(5,), total=5, won=True, grade="", explanation="x"),
    Solo(score=3, grade="", explanation="x"),
    Match(games=(Ranked((1, 2), (2, 1), (1,), "x"),), totals=((1, 3),),
          final=Ranked((1, 2), (2, 1), (1,), "x")),
])
def test_check_outcome_refuses_malformed_results_of_every_kind(outcome) -> None:
    with pytest.raises(ConformanceError):
        check_outcome(outcome, 2)


def test_check_outcome_accepts_well_formed_results_of_every_kind() -> None:
    game = Ranked((1, 2), (2, 1), (1,), "seat 1 scored more")
    check_outcome(game, 2)
    check_outcome(Cooperative(scores=(5, 5), total=10, won=True, grade="Silver",
                              explanation="x",
                              grades=(("Bronze", 5), ("Silver", 10), ("Gold", 20))), 2)
    check_outcome(Solo(score=3, grade="Bronze", explanation="x", won=True), 1)
    check_outcome(Match(games=(game, game), totals=((1, 2), (2, 4)),
                        final=Ranked((2, 4), (2, 1), (1,), "x")), 2)


def test_a_game_that_remembers_passed_cards_conforms(toy_host) -> None:
    for players in (2, 3, 4):
        report = check_game(toy_host.ruleset("relay", players=players), players=players,
                            seeds=range(10))
        assert report.games == 10 and report.chances == 10


def test_catches_a_determinize_that_forgets_what_the_seat_passed(toy_host) -> None:
    r = toy_host.ruleset("relay", players=3)

    def forgetful(state, seat, rng):  # re-deals every other card, the ones it passed too
        others = [c for i, h in enumerate(state.hands) if i != seat for c in h]
        rng.shuffle(others)
        hands, k = [], 0
        for i, hand in enumerate(state.hands):
            hands.append(hand if i == seat else tuple(sorted(others[k:k + len(hand)])))
            k += 0 if i == seat else len(hand)
        return replace(state, hands=tuple(hands))

    assert r.gamedef.determinize is not None
    broken = Ruleset(r.spec, r.variants, replace(r.gamedef, determinize=forgetful))
    with pytest.raises(ConformanceError, match="re-deals a card the seat has seen"):
        check_game(broken, players=3, seeds=range(5))


def test_runs_the_games_own_redeal_checks(toy_host) -> None:
    def passes_stay_put(state, seat, redealt):
        left = (seat + 1) % len(state.hands)
        mine = [c for c in state.passed[seat] if c in state.hands[left]]
        assert all(c in redealt.hands[left] for c in mine), "a passed card moved"

    def nothing_moves(state, seat, redealt):
        assert redealt.hands == state.hands, "a hidden card moved"

    ruleset = toy_host.ruleset("relay", players=3)
    check_game(ruleset, players=3, seeds=range(3), redeal_checks=[passes_stay_put])
    with pytest.raises(ConformanceError, match="nothing_moves: a hidden card moved"):
        check_game(ruleset, players=3, seeds=range(3), redeal_checks=[nothing_moves])


def test_catches_a_sample_that_does_not_keep_the_view(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)
    assert r.bots is not None
    real = r.bots.sample

    def forgetful(view, seat, rng):
        state = real(view, seat, rng)
        hands = tuple(h[::-1] if i == seat else h for i, h in enumerate(state.hands))
        return replace(state, hands=tuple(tuple(sorted(h)) for h in hands),
                       scores=tuple(s + 1 for s in state.scores))

    broken = replace(r, bots=replace(r.bots, sample=forgetful))
    with pytest.raises(ConformanceError, match="sampled from its view differs"):
        check_game(broken, players=2, seeds=range(2))


def test_catches_a_score_that_is_not_a_number(toy_host) -> None:
    r = toy_host.ruleset("duel", players=2)
    broken = replace(r, bots=replace(r.bots, score=lambda state, seat: float("nan")))
    with pytest.raises(ConformanceError, match="not a finite number"):
        check_game(broken, players=2, seeds=range(1))


def test_sampled_toy_states_pass(toy_host) -> None:
    for game in ("posy", "duel", "tokens"):
        check_game(toy_host.ruleset(game, players=3), players=3, seeds=range(3))


# -- the two bugs issue 28's plugin author planted, each once let through -----------------


@pytest.fixture(scope="module")
def tricks_host():
    from tricktaking import TricksPlugin

    from hedgerow.core.pluginhost import PluginHost

    return PluginHost(builtins=(), autoload=False, extra=(TricksPlugin(),))


def test_an_honest_trick_taking_game_conforms(tricks_host) -> None:
    report = check_game(tricks_host.ruleset("tricks", players=3), players=3, seeds=range(20))
    assert report.games == 20 and report.refusals_checked > 1000


def test_catches_an_apply_that_forgot_must_follow_suit(tricks_host) -> None:
    """Only far-off values and a made-up action were tried: every card the seat holds
    that does not follow suit is a neighbour of a legal one or was legal before."""
    from tricktaking import broken_tricks

    broken = broken_tricks(tricks_host.ruleset("tricks", players=3), "follow")
    with pytest.raises(ConformanceError, match=r"play\(card=\d+\) by seat \d should be refused"
                                               " but applied: it is not among"):
        check_game(broken, players=3, seeds=range(5), exhaustive_steps=0)


def test_catches_a_view_leaking_undealt_cards_behind_a_determinize_built_from_it(
        tricks_host) -> None:
    """The game's determinize keeps what the leaky view shows, so the view is the same
    after it: the kit's own re-deal (the deal's shuffle with two cards swapped, the same
    actions) shows every seat's view changing with cards nobody has seen."""
    from tricktaking import broken_tricks

    broken = broken_tricks(tricks_host.ruleset("tricks", players=3), "undealt")
    with pytest.raises(ConformanceError, match="the view shows cards nobody has seen"):
        check_game(broken, players=3, seeds=range(5))
