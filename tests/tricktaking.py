"""``tricks``: a small trick-taking game, and the two bugs a plugin author planted in one.

Sixteen cards (four suits of ranks 1-4, card ``4 * suit + rank - 1``) are shuffled; each of
three seats is dealt four and the last four stay undealt, face down, for the whole game.
Seat 0 leads the first trick; each seat in turn plays a card, following the led suit if it
can; the highest card of the led suit takes the trick, and its taker leads the next.  After
four tricks the most tricks win.

The game is honest (it conforms).  `broken_tricks` gives it back with the bugs of issue 28's
report, each the conformance kit once let through:

* ``"follow"``: ``apply`` forgot "must follow suit": it accepts any card in hand, while
  ``legal_actions`` lists only the cards that follow;
* ``"undealt"``: the view shows the undealt cards (as the deal left them), and
  ``determinize`` is built from the view, so a state it re-deals shows the same (the kit's
  determinize check passes).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from hedgerow.core import (
    Action,
    BotSupport,
    Chance,
    GameDef,
    GameSpec,
    Outcome,
    Ranked,
    Refusal,
    Rng,
    SetupContext,
    Shuffle,
    hookimpl,
    permute,
)
from hedgerow.core.ruleset import Ruleset

CARDS = 16
HAND = 4
PLAYERS = 3


def suit(card: int) -> int:
    """A card's suit (0-3)."""
    return card // 4


@dataclass(frozen=True, slots=True)
class TricksState:
    hands: tuple[tuple[int, ...], ...]
    undealt: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card) played to the trick so far
    won: tuple[int, ...]
    turn: int
    dealt: bool = True


@dataclass(frozen=True, slots=True)
class TricksView:
    seat: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    won: tuple[int, ...]
    turn: int
    played: tuple[int, ...]  # every card played to a finished trick
    undealt: tuple[int, ...] = ()  # the planted leak only


def _played(state: TricksState) -> tuple[int, ...]:
    out = set(range(CARDS)) - set(state.undealt) - {c for h in state.hands for c in h}
    return tuple(sorted(out - {c for _, c in state.trick}))


def _legal(state: TricksState, seat: int) -> list[Action]:
    if not state.dealt or seat != state.turn or not state.hands[seat]:
        return []
    hand = state.hands[seat]
    if state.trick:
        led = suit(state.trick[0][1])
        following = [c for c in hand if suit(c) == led]
        hand = tuple(following) or hand
    return [Action.of("play", card=c) for c in sorted(hand)]


def build_tricks(ext: Any) -> GameDef[TricksState, TricksView]:
    """The honest rules."""

    def setup(ctx: SetupContext) -> TricksState:
        return TricksState(((),) * ctx.players, (), (), (0,) * ctx.players, 0, dealt=False)

    def chance(s: TricksState) -> Chance | None:
        return None if s.dealt else Chance((Shuffle(CARDS),), "shuffle and deal")

    def resolve(s: TricksState, outcome: Any) -> TricksState:
        deck = permute(tuple(range(CARDS)), outcome[0])
        n = len(s.hands)
        hands = tuple(tuple(deck[HAND * k:HAND * (k + 1)]) for k in range(n))
        return replace(s, hands=hands, undealt=tuple(deck[HAND * n:]), dealt=True)

    def active(s: TricksState) -> tuple[int, ...]:
        return (s.turn,) if s.dealt and any(s.hands) else ()

    def apply(s: TricksState, seat: int, a: Action) -> TricksState | Refusal:
        if a not in _legal(s, seat):
            return Refusal("tricks.illegal", f"seat {seat} cannot play {a} now")
        return _play(s, seat, a["card"])

    def view(s: TricksState, seat: int) -> TricksView:
        return TricksView(seat, tuple(sorted(s.hands[seat])), tuple(len(h) for h in s.hands),
                          s.trick, s.won, s.turn, _played(s))

    def outcome(s: TricksState) -> Outcome | None:
        if active(s) or not s.dealt:
            return None
        ranking = tuple(1 + sum(o > w for o in s.won) for w in s.won)
        return Ranked(s.won, ranking, tuple(i for i, r in enumerate(ranking) if r == 1),
                      "the most tricks win")

    def describe(s: TricksState, seat: int, a: Action) -> str:
        return f"seat {seat} plays card {a.get('card')}"

    def determinize(s: TricksState, seat: int, rng: Rng) -> TricksState:
        """Re-deal, from the state, every card the seat has not seen."""
        hidden = [c for i, h in enumerate(s.hands) if i != seat for c in h] + list(s.undealt)
        rng.shuffle(hidden)
        hands, k = [], 0
        for i, h in enumerate(s.hands):
            hands.append(h if i == seat else tuple(hidden[k:k + len(h)]))
            k += 0 if i == seat else len(h)
        return replace(s, hands=tuple(hands), undealt=tuple(hidden[k:]))

    return GameDef("tricks", setup, active, _legal, apply, view, outcome, describe,
                   determinize, chance=chance, resolve=resolve)


def _play(s: TricksState, seat: int, card: int) -> TricksState:
    hands = list(s.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    trick = (*s.trick, (seat, card))
    n = len(hands)
    if len(trick) < n:
        return replace(s, hands=tuple(hands), trick=trick, turn=(seat + 1) % n)
    led = suit(trick[0][1])
    taker = max((c, who) for who, c in trick if suit(c) == led)[1]
    won = list(s.won)
    won[taker] += 1
    return replace(s, hands=tuple(hands), trick=(), won=tuple(won), turn=taker)


def sample_tricks(v: TricksView, seat: int, rng: Rng) -> TricksState:
    """A state from a view: every card the view does not show dealt at random (the leaky
    view's undealt cards kept where it shows them)."""
    shown = set(v.hand) | set(v.played) | {c for _, c in v.trick} | set(v.undealt)
    hidden = [c for c in range(CARDS) if c not in shown]
    rng.shuffle(hidden)
    hands, k = [], 0
    for i, size in enumerate(v.hand_sizes):
        hands.append(v.hand if i == seat else tuple(hidden[k:k + size]))
        k += 0 if i == seat else size
    return TricksState(tuple(hands), v.undealt or tuple(hidden[k:]), v.trick, v.won, v.turn)


def build_tricks_bots(ext: Any) -> BotSupport[TricksState, TricksView]:
    return BotSupport(sample=sample_tricks, score=lambda s, seat: float(s.won[seat]))


SPEC = GameSpec("tricks", "Tricks", "1.0.0", PLAYERS, PLAYERS, build_tricks,
                bots=build_tricks_bots, summary="a small trick-taking game")


class TricksPlugin:
    @hookimpl
    def hedgerow_register_games(self, register: Any) -> None:
        register(SPEC)


def broken_tricks(ruleset: Ruleset, bug: str) -> Ruleset:
    """``ruleset`` (the honest tricks) with one planted bug (module docstring)."""
    honest = ruleset.gamedef
    if bug == "follow":
        def lax(s: TricksState, seat: int, a: Action) -> TricksState | Refusal:
            card = a.get("card")
            if (a.kind != "play" or [n for n, _ in a.args] != ["card"] or seat != s.turn
                    or card not in s.hands[seat]):
                return Refusal("tricks.illegal", f"seat {seat} cannot play {a}")
            return _play(s, seat, card)  # forgot: "must follow suit"
        return replace(ruleset, gamedef=replace(honest, apply=lax))
    assert bug == "undealt"

    def leaky(s: TricksState, seat: int) -> TricksView:
        return replace(honest.view(s, seat), undealt=s.undealt)  # in the deal's order

    def from_the_view(s: TricksState, seat: int, rng: Rng) -> TricksState:
        return sample_tricks(leaky(s, seat), seat, rng)

    return replace(ruleset, gamedef=replace(honest, view=leaky, determinize=from_the_view))
