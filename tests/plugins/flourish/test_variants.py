"""Flourish and its variants as plugins: registration, conflicts, player ranges, extension
hooks; the Garden Show's ribbons and match; cooperative and compost medals."""

from __future__ import annotations

import pytest

from hedgerow.core import HedgerowError, Match, Rng, Shuffle
from hedgerow.core.chance import draw_all
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flourish import compost, cooperative, garden_show, solo
from hedgerow.plugins.flourish.garden_show import (
    GardenShowRules,
    deal_ribbons,
    has_duplicate,
    judge,
    match_outcome,
)
from hedgerow.plugins.flourish.state import Config, GameRecord, Result

from .conftest import ruleset


def test_game_and_variants_are_registered(plugins: PluginHost) -> None:
    spec = plugins.game("flourish")
    assert (spec.title, spec.version, spec.min_players, spec.max_players) == (
        "Flourish", "1.0.0", 1, 7)
    assert spec.players_default == 4 and spec.summary
    found = {name: v for (game, name), v in plugins.variants.items() if game == "flourish"}
    assert sorted(found) == ["compost", "cooperative", "garden-show", "solo"]
    assert found["cooperative"].conflicts == ("garden-show",)
    assert found["garden-show"].conflicts == ("cooperative",)
    assert found["cooperative"].players == found["garden-show"].players == (2, 7)
    assert found["compost"].players is None
    assert found["solo"].players == (1, 1)
    assert found["solo"].conflicts == ("cooperative", "garden-show")
    for module, rules in ((compost, compost.CompostRules), (cooperative,
                          cooperative.CooperativeRules), (garden_show, GardenShowRules),
                          (solo, solo.SoloRules)):
        impl = found[module.__name__.rsplit(".", 1)[1].replace("_", "-")].impl
        assert isinstance(impl, rules) and impl is not module


def test_extension_hooks_are_declared(plugins: PluginHost) -> None:
    for name in ("flourish_compost", "flourish_games", "flourish_extra_chance",
                 "flourish_extra_resolve", "flourish_game_end", "flourish_outcome"):
        caller = getattr(plugins.pm.hook, name)
        assert caller.spec is not None and caller.spec.opts["firstresult"], name
    assert not plugins.pm.hook.flourish_medal_raise.spec.opts["firstresult"]


def test_fingerprints_and_combinations(plugins: PluginHost) -> None:
    assert ruleset(plugins).fingerprint == "flourish@1.0.0"
    assert ruleset(plugins, "garden-show", "compost").fingerprint == (
        "flourish@1.0.0+compost@1.0.0+garden-show@1.0.0")
    with pytest.raises(HedgerowError, match="cannot be combined"):
        ruleset(plugins, "cooperative", "garden-show")
    for variant in ("cooperative", "garden-show"):
        with pytest.raises(HedgerowError, match="2 to 7 players, not 1"):
            ruleset(plugins, variant, players=1)
    with pytest.raises(HedgerowError):
        ruleset(plugins, players=8)
    ruleset(plugins, "compost", players=1)


def test_solo_names_the_one_player_game(plugins: PluginHost) -> None:
    rules = ruleset(plugins, "solo", players=None)
    assert rules.player_range == (1, 1) and rules.players_default == 1
    assert ruleset(plugins, "solo", "compost", players=1).fingerprint == (
        "flourish@1.0.0+compost@1.0.0+solo@1.0.0")
    for other in ("cooperative", "garden-show"):
        with pytest.raises(HedgerowError, match=f"'solo' cannot be combined with {other}"):
            ruleset(plugins, "solo", other)
    with pytest.raises(HedgerowError, match="flourish \\+ solo is for 1 player, not 2"):
        ruleset(plugins, "solo", players=2)
    # The variant only names the game's one-seat rules: the same seed plays the same game.
    seed = seed_from_int(7)
    named = Table(ruleset(plugins, "solo", players=1), 1, seed)
    plain = Table(ruleset(plugins, players=1), 1, seed)
    rng = Rng(seed, "solo-test")
    while named.outcome() is None:
        assert named.active_seats() == plain.active_seats() == (0,)
        action = rng.choice(named.legal_actions(0))
        assert named.play(0, action) is None and plain.play(0, action) is None
        assert named.state_hash() == plain.state_hash()
    assert named.outcome() == plain.outcome()


# -- Garden Show ----------------------------------------------------------------------------


def _ribbons(*kinds: tuple[int, ...]) -> tuple[tuple[tuple[int, bool], ...], ...]:
    return tuple(tuple((k, False) for k in held) for held in kinds)


def test_ribbons_are_won_only_outright_and_only_once() -> None:
    # seat 0: green 1+2+3 = 6, 6 plant symbols, a tree; seat 1: green 1, red 2; seat 2: blue 1
    gardens = ((1, 7, 43), (8, 9), (17,))
    ribbons = _ribbons((0, 1, 11), (1, 5, 6), (2, 3, 4))
    bonus, after, note = judge(gardens, ribbons)
    assert bonus == (14, 7, 7)  # green and plants; red; blue (1 against 0 and 0)
    assert after[0] == ((0, True), (1, False), (11, True))
    assert "seat 0 wins the green ribbon (6)" in note
    tied = judge(((9,), (10,), ()), _ribbons((1,), (1,), (2,)))
    assert tied[0] == (0, 0, 0)  # red 1 against red 1, blue 0 against 0: nobody wins
    again, _, _ = judge(gardens, after)
    assert again == (0, 0, 0)  # a ribbon turned over is not won again


def test_a_ribbon_not_won_is_carried_to_the_next_game() -> None:
    ribbons = _ribbons((1,), (2,))
    first = judge(((9,), (10,)), ribbons)  # red 1 each: nobody
    assert first[0] == (0, 0) and first[1] == ribbons
    second = judge(((9, 10), (17,)), first[1])
    assert second[0] == (7, 7) and second[1] == ((((1, True),), ((2, True),)))


def test_the_ribbon_deal_has_no_duplicates() -> None:
    rules = GardenShowRules()
    chance = rules.flourish_extra_chance(players=7, extras=())
    assert chance is not None and chance.draws == (Shuffle(24),)
    valid = 0
    for n in range(300):
        dealt = deal_ribbons(7, draw_all(Rng(b"ribbons", str(n)), chance))
        again = rules.flourish_extra_chance(players=7, extras=dealt)
        assert (again is not None) == has_duplicate(dealt)
        valid += again is None
    assert valid > 60  # a deal is valid often enough that re-dealing ends quickly


def test_a_garden_show_is_one_table_of_three_games(plugins: PluginHost) -> None:
    rules = ruleset(plugins, "garden-show", players=4)
    table = Table(rules, 4, seed_from_int(9))
    game = rules.gamedef
    deals = 0
    while table.active_seats():
        state = table.state
        choices = {s: game.legal_actions(state, s)[3 * s] for s in table.active_seats()}
        for applied in table.submit_step(choices):  # type: ignore[union-attr]
            if applied.entry.is_chance and applied.before.luck == "deal":
                deals += 1
        assert not has_duplicate(table.state.extras)  # type: ignore[arg-type]
    assert deals == 2 and table.entries[0].is_chance  # games 2 and 3; game 1's is opening
    outcome = table.outcome()
    assert isinstance(outcome, Match) and len(outcome.games) == 3
    running = [sum(g.scores[s] for g in outcome.games) for s in range(4)]
    assert list(outcome.totals[-1]) == running == list(outcome.final.scores)
    assert len(table.state.history) == 3
    assert [c for c, _ in outcome.breakdown][:3] == ["Game 1", "Game 2", "Game 3"]


def test_match_tie_break_on_ribbons_won() -> None:
    def record(points: int, bonus: tuple[int, int]) -> GameRecord:
        return GameRecord(((1,), (9,)), ((points, 0, 0, 0, 0),) * 2, bonus)

    games = (record(50, (7, 0)), record(40, (0, 0)), record(43, (0, 7)))
    extras = (((0, True), (1, False), (2, False)), ((3, True), (4, False), (5, False)))
    tied = match_outcome(Result(Config(2, games=3), games, extras))
    assert tied.final.scores == (140, 140) and tied.final.winners == (0, 1)
    extras = (((0, True), (1, True), (2, False)), ((3, True), (4, False), (5, False)))
    won = match_outcome(Result(Config(2, games=3), games, extras))
    assert won.final.winners == (0,) and "ribbons won" in won.final.explanation


def test_compost_raises_medals_by_five_per_player() -> None:
    assert compost.CompostRules().flourish_medal_raise(players=4) == 20
    assert cooperative.medals(4, 20) == (("Bronze", 380), ("Silver", 420), ("Gold", 460))
