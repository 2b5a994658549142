"""``sample`` (a whole state drawn from one seat's view) and ``score`` (a seat's points if the
game were scored now), the two functions bots build on.

Random games of every variant and player count are walked state by state: every decision
point (a play, a tile choice), every state waiting for chance (the deal, a reshuffle) and
the states right after a reshuffle.  At each, for every seat, a state sampled from the
seat's view shows that very view, holds all 90 cards and 36 tiles once, and plays on to an
outcome; samples with other generators re-deal what the seat cannot see.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator

import pytest
from gamechecks import redeal

from hedgerow.core import Ranked, Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.core.game import GameDef
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.mandala import bots as mandala_bots
from hedgerow.plugins.mandala.bots.sample import frame
from hedgerow.plugins.mandala.cards import NCOLOURS, NO_CARDS, PER_COLOUR, TILES, colour_named
from hedgerow.plugins.mandala.drawing import STANDARD, DrawRule
from hedgerow.plugins.mandala.ranking import standard_end, standard_outcome
from hedgerow.plugins.mandala.scoring import points
from hedgerow.plugins.mandala.state import OVER, RESHUFFLE, State, View

from .conftest import applied, make_state, play, take, tiles
from .test_scoring import SCORING

VARIANTS = ((), ("draw-four",))
PLAYERS = (2, 3, 4)
GAMES = 1  # random games walked per variant and player count


def _walk(game: GameDef[State, View], players: int, seed: bytes) -> Iterator[State]:
    """Every state of one random game: decision points, chance nodes, the end."""
    state = game.setup(SetupContext(players))
    pick = Rng(seed, "picks")
    index = 0
    while True:
        yield state
        pending = game.pending_chance(state)
        if pending is not None:
            state = game.resolve(state, draw_all(Rng(seed, f"chance/{index}"), pending))
        else:
            seats = game.active_seats(state)
            if not seats:
                return
            legal = game.legal_actions(state, seats[0])
            state = game.apply(state, seats[0], legal[pick.randbelow(len(legal))])
        index += 1


@pytest.fixture(scope="module")
def walks(plugins: PluginHost) -> list[tuple[Ruleset, list[State]]]:
    """The walked games: ``(rules, states)`` for each variant, player count and seed."""
    out = []
    for variants, players in itertools.product(VARIANTS, PLAYERS):
        ruleset = plugins.ruleset("mandala", list(variants), players=players)
        for g in range(GAMES):
            seed = f"sample/{'+'.join(variants)}/{players}/{g}".encode()
            out.append((ruleset, list(_walk(ruleset.gamedef, players, seed))))
    return out


def _cards(state: State) -> tuple[int, ...]:
    """Every card of ``state`` by colour: hands, deck, discard, mandalas."""
    total = [0] * NCOLOURS
    for hand in (*state.hands, state.discard):
        for c, n in enumerate(hand):
            total[c] += n
    for c in state.deck:
        total[c] += 1
    for m in state.mandalas:
        for p in m.plays:
            total[p.colour] += p.cards
    return tuple(total)


def _tiles(state: State) -> list[int]:
    """Every tile of ``state``: both stacks, the mandalas, in front of the players."""
    out = [*state.dark, *state.light]
    for m in state.mandalas:
        out.extend(m.tiles)
    for held in state.tiles:
        out.extend(held)
    return sorted(out)


def _plays_on(game: GameDef[State, View], state: State, rng: Rng) -> None:
    """Random play from ``state`` reaches an outcome (every function works on it)."""
    for index in range(2000):
        pending = game.pending_chance(state)
        if pending is not None:
            state = game.resolve(state, draw_all(rng.fork(f"chance/{index}"), pending))
            continue
        seats = game.active_seats(state)
        if not seats:
            assert game.outcome(state) is not None
            return
        legal = game.legal_actions(state, seats[0])
        assert legal
        state = game.apply(state, seats[0], legal[rng.randbelow(len(legal))])
        assert isinstance(state, State)
    raise AssertionError("a sampled state did not reach an outcome")


def test_the_walks_reach_every_kind_of_state(walks: list[tuple[Ruleset, list[State]]]) -> None:
    phases = Counter(s.phase for _, states in walks for s in states)
    assert set(phases) == {"deal", "play", "choose", "reshuffle", "over"}
    hidden = sum(1 for _, states in walks for s in states for m in s.mandalas
                 for p in m.plays if not p.up)
    assert hidden > 100


def test_a_sample_shows_the_view_it_came_from(walks: list[tuple[Ruleset, list[State]]]) -> None:
    for ruleset, states in walks:
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots.sample is not None
        for i, state in enumerate(states):
            for seat in range(state.players):
                v = game.view(state, seat)
                drawn = bots.sample(v, seat, Rng(b"sample", f"{i}/{seat}"))
                assert game.view(drawn, seat) == v
                assert drawn.hands[seat] == state.hands[seat]
                assert _cards(drawn) == (PER_COLOUR,) * NCOLOURS == _cards(state)
                assert _tiles(drawn) == list(TILES) == _tiles(state)
                assert game.legal_actions(drawn, seat) == game.legal_actions(state, seat)
                assert game.active_seats(drawn) == game.active_seats(state)


def test_a_sampled_state_plays_on_to_an_outcome(
        walks: list[tuple[Ruleset, list[State]]]) -> None:
    for ruleset, states in walks:
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots.sample is not None
        picked = [*states[::12], *(s for s in states if s.phase == RESHUFFLE)]
        for i, state in enumerate(picked):
            seat = i % state.players
            drawn = bots.sample(game.view(state, seat), seat, Rng(b"on", str(i)))
            _plays_on(game, drawn, Rng(b"play on", str(i)))


def test_right_after_a_reshuffle_too(walks: list[tuple[Ruleset, list[State]]]) -> None:
    after = 0
    for ruleset, states in walks:
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots.sample is not None
        for before, state in itertools.pairwise(states):
            if before.phase != RESHUFFLE:
                continue
            after += 1
            assert state.deck and not any(state.discard)
            assert state.reshuffled == before.discard  # the pile, public, that became the deck
            for seat in range(state.players):
                v = game.view(state, seat)
                assert v.reshuffled == before.discard
                assert game.view(bots.sample(v, seat, Rng(b"after", str(seat))), seat) == v
    assert after > 0


def impossible(sampled: State, v: View) -> bool:
    """A sampled deck that holds a card the reshuffled pile cannot still hold: more of a
    colour than the pile had, less what the seat itself drew from it since."""
    if v.reshuffled == NO_CARDS:
        return False
    deck = counts_of(sampled.deck)
    return any(d > r - mine for d, r, mine in zip(deck, v.reshuffled, v.drawn, strict=True))


def counts_of(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(cards.count(c) for c in range(NCOLOURS))


def test_after_a_reshuffle_every_sample_is_a_possible_deck(
        walks: list[tuple[Ruleset, list[State]]]) -> None:
    """Card counting: the deck holds only cards of the pile that was shuffled (less what was
    drawn from it), so no sampled deck holds another (the real deck never does)."""
    checked = 0
    for ruleset, states in walks:
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots is not None
        for i, state in enumerate(states):
            if state.reshuffled == NO_CARDS or state.phase not in ("play", "choose"):
                continue
            for seat in range(state.players):
                v = game.view(state, seat)
                assert not impossible(state, v)  # the real table, first
                for k in range(4):
                    sampled = bots.sample(v, seat, Rng(b"counting", f"{i}/{seat}/{k}"))
                    assert not impossible(sampled, v), (i, seat, k)
                    checked += 1
    assert checked > 100


def test_other_generators_re_deal_what_the_seat_cannot_see(
        walks: list[tuple[Ruleset, list[State]]]) -> None:
    decks = stacks = 0
    for ruleset, states in walks:
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots.sample is not None
        for i, state in enumerate(states[::4]):
            for seat in range(state.players):
                v = game.view(state, seat)
                drawn = [bots.sample(v, seat, Rng(b"redeal", f"{i}/{seat}/{k}"))
                         for k in range(8)]
                again = bots.sample(v, seat, Rng(b"redeal", f"{i}/{seat}/0"))
                assert again == drawn[0]  # the generator alone decides
                pool = frame(v, seat).pool
                if v.deck_count >= 4 and 2 * max(pool) <= sum(pool):
                    # no deck order is likelier than 1/16: eight alike would be a broken deal
                    assert len({s.deck for s in drawn}) > 1
                    decks += 1
                if v.dark_left >= 3:
                    assert len({s.dark for s in drawn}) > 1
                    stacks += 1
                if all(d == drawn[0] for d in drawn):  # nothing re-dealt: nothing hidden
                    assert v.deck_count <= 1 and v.dark_left <= 1 and v.light_left <= 1
    assert decks > 100 and stacks > 100


def test_a_sample_reads_the_view_only(walks: list[tuple[Ruleset, list[State]]]) -> None:
    for ruleset, states in walks[:3]:
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots is not None
        for i, state in enumerate(states[::5]):
            for seat in range(state.players):
                v = game.view(state, seat)
                # a state the seat cannot tell from this one samples the same: the view
                # is all that sample reads
                twin = redeal(ruleset, state, seat, Rng(b"twin", f"{i}/{seat}"))
                assert game.view(twin, seat) == v
                assert (bots.sample(game.view(twin, seat), seat, Rng(b"same", str(i)))
                        == bots.sample(v, seat, Rng(b"same", str(i))))


def test_a_view_no_table_shows_is_refused(standard: Ruleset) -> None:
    game = standard.gamedef
    bots = standard.bots
    assert bots.sample is not None
    state = next(s for s in _walk(game, 3, b"refuse") if s.phase == "play" and s.turn == 1)
    v = game.view(state, 0)
    with pytest.raises(ValueError, match="seat 0's, not seat 1's"):
        bots.sample(v, 1, Rng(b"x"))
    more = tuple(n + (o == 1) for o, n in enumerate(v.hand_sizes))
    with pytest.raises(ValueError, match="not a view of a real Mandala table"):
        bots.sample(_replaced(v, hand_sizes=more), 0, Rng(b"x"))
    with pytest.raises(ValueError, match="tile stack"):
        bots.sample(_replaced(v, dark_left=v.dark_left + 1), 0, Rng(b"x"))
    assert game.view(state, 0) == v  # nothing changed


def _replaced(v: View, **changes: object) -> View:
    return dataclasses.replace(v, **changes)  # type: ignore[arg-type]


# -- score ----------------------------------------------------------------------------------

def test_score_is_the_final_scoring_at_every_end(
        walks: list[tuple[Ruleset, list[State]]]) -> None:
    for ruleset, states in walks:
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots.score is not None
        final = states[-1]
        assert final.phase == OVER
        outcome = game.outcome(final)
        for seat in range(final.players):
            assert bots.score(final, seat) == outcome.scores[seat]  # type: ignore[union-attr]
        for state in states:
            for seat in range(state.players):
                assert bots.score(state, seat) == points(state.tiles[seat])


@pytest.mark.parametrize(("held", "expected"), [(h, e) for _, h, e in SCORING],
                         ids=[name for name, _, _ in SCORING])
def test_score_mid_game_on_the_scoring_table(standard: Ruleset, held: tuple[str, ...],
                                             expected: int) -> None:
    bots = standard.bots
    assert bots.score is not None
    state = make_state(players=2, held={1: tiles(*held)})
    assert bots.score(state, 1) == expected and bots.score(state, 0) == 0


def _example_13_2(standard: Ruleset, b_yellow: int) -> State:
    """Spec §13.2 up to C's completing play (B plays ``b_yellow`` yellow at step 5)."""
    a, b, c = 0, 1, 2
    s = make_state(players=3,
                   hands={a: (2, 0, 3, 0, 0, 0), b: (2, 1, 0, 0, 0, 2),
                          c: (3, 0, 0, 1, 0, 2)},
                   mandalas=[tiles("purple-2", "orange-1")],
                   deck=(colour_named("orange"),) * 20,
                   dark=tiles("red-3"), light=tiles("yellow-3"))
    for seat, action in ((a, play(0, "red", 2)), (b, play(0, "purple", 1)),
                         (c, play(0, "gray", 3)), (a, play(0, "red", 1)),
                         (b, play(0, "yellow", b_yellow)), (c, play(0, "green", 1))):
        s = applied(standard, s, seat, action)
    return s


def test_score_mid_game_in_the_worked_example(standard: Ruleset) -> None:
    bots = standard.bots
    assert bots.score is not None
    # §13.2: C takes both tiles, purple-2 and orange-1: two singles, 2 + 1
    s = _example_13_2(standard, 2)
    assert [bots.score(s, seat) for seat in range(3)] == [0, 0, 3]
    # its variant: C chooses purple-2 and A takes orange-1
    s = applied(standard, _example_13_2(standard, 1), 2, take("purple-2"))
    assert [bots.score(s, seat) for seat in range(3)] == [1, 0, 2]


class _DoubledScores:
    """A table relay whose winner hook doubles every score (a variant that changes
    scoring), with the standard draw and end rules."""

    active = ("doubled",)

    def mandala_draw_rule(self) -> DrawRule:
        return STANDARD

    def mandala_game_end(self, tiles: tuple[tuple[int, ...], ...], open_mandalas: int,
                         passes: int, players: int) -> str:
        return standard_end(tiles, open_mandalas, passes, players)

    def mandala_winner(self, tiles: tuple[tuple[int, ...], ...], ended: str) -> Ranked:
        plain = standard_outcome(tiles, ended)
        return dataclasses.replace(plain, scores=tuple(2 * n for n in plain.scores))


def test_a_variant_that_changes_scoring_changes_score() -> None:
    bots = mandala_bots.build(_DoubledScores())  # type: ignore[arg-type]
    assert bots.score is not None
    state = make_state(players=2, held={0: tiles("gray-1", "gray-3"), 1: tiles("red-2")})
    assert (bots.score(state, 0), bots.score(state, 1)) == (10, 4)
