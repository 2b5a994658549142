"""Goofspiel, a complete Hedgerow game plugin in one file: the example of docs/plugins.md.

Every player holds the cards 1 to 8.  Each round a prize card (1 to 8, each once) is turned
up by chance; every player bids one card from their hand at the same time; the single
highest bid takes the prize (a tie for the highest bid takes nothing) and the bids are
spent.  After eight rounds the most prize points win.  Alone, you play against the house,
which always bids the prize's own value: beat it by as much as you can.

It shows the three parts of the game contract a card game is most likely to need:

* **chance after setup** — each round's prize is a chance node (``Pick``) that the engine
  resolves from the table seed and logs; the rules never hold a random generator;
* **a simultaneous step** — with two or more players every seat is active at once; the
  engine collects every bid against the round's starting state and applies them together
  (on the network each bid is committed before any is revealed);
* **a result that is not a ranking** — one player gets a `Solo` result with a grade;

and, beside the rules, **bot support** (`BotSupport`): a state dealt from a seat's view
(``sample``) and the game's own judgement of a position (``score``, ``evaluate``), which the
``greedy`` and ``ismcts`` bots think with.  Without it they would play at random.

Load it with ``HEDGEROW_PLUGINS=goofspiel`` and this folder on ``PYTHONPATH``, or
register it through the ``hedgerow`` entry-point group of a package of your own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hedgerow.core import (
    Action,
    BotSupport,
    Chance,
    ChanceOutcome,
    GameDef,
    GameSpec,
    Outcome,
    Pick,
    Ranked,
    Refusal,
    Rng,
    SetupContext,
    Solo,
    hookimpl,
)

CARDS = 8
NAME = "goofspiel"
#: Solo grades by how far you beat the house, best last.
GRADES = (("Bronze", 1), ("Silver", 5), ("Gold", 10))


# -- the state and the view ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game in progress (the rules' own, never shown whole).

    ``prizes`` are the prize cards not yet turned up; ``prize`` is this round's (0 while
    chance has not turned one up); ``bids`` holds this round's bids as they are applied
    inside a simultaneous step (0: none yet); ``last`` is the previous round's bids.
    """

    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    prizes: tuple[int, ...]
    prize: int = 0
    bids: tuple[int, ...] = ()
    last: tuple[int, ...] = ()
    house: int = 0  # the house's points (solo only)


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows: its hand, every score, the prize, the prizes still to come,
    what everyone bid last round, and which cards each other seat has not played yet
    (the revealed bids make that public)."""

    seat: int
    hand: tuple[int, ...]
    unplayed: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    prize: int
    prizes_left: tuple[int, ...]
    last: tuple[int, ...]
    house: int


# -- the rules ----------------------------------------------------------------------------


def setup(ctx: SetupContext) -> State:
    """Full hands, no prize yet: the first round starts with chance."""
    hand = tuple(range(1, CARDS + 1))
    return State(hands=(hand,) * ctx.players, scores=(0,) * ctx.players, prizes=hand,
                 bids=(0,) * ctx.players)


def chance(state: State) -> Chance | None:
    """Turn up the next prize while there is none and prizes remain."""
    if state.prize or not state.prizes:
        return None
    return Chance((Pick(len(state.prizes)),), "turn up a prize")


def resolve(state: State, outcome: ChanceOutcome) -> State:
    """The prize chance picked (an index into the prizes still to come)."""
    (index,) = outcome
    assert isinstance(index, int)
    prizes = state.prizes
    return State(state.hands, state.scores, prizes[:index] + prizes[index + 1:], prizes[index],
                 state.bids, state.last, state.house)


def active_seats(state: State) -> tuple[int, ...]:
    """Every seat that has not bid this round (all of them at the start of a round)."""
    if not state.prize:
        return ()
    return tuple(seat for seat, bid in enumerate(state.bids) if bid == 0)


#: ``bid(card)`` for each card, made once: a search asks for the legal bids thousands of
#: times a second, and an action is plain data that any number of lists may share.
BIDS = {card: Action.of("bid", card=card) for card in range(1, CARDS + 1)}


def legal_actions(state: State, seat: int) -> list[Action]:
    """Bid any card in hand."""
    if not state.prize or not 0 <= seat < len(state.bids) or state.bids[seat]:
        return []  # not a seat that still bids this round (`active_seats`)
    return [BIDS[card] for card in state.hands[seat]]


def apply(state: State, seat: int, action: Action) -> State | Refusal:
    """Record a bid; the last bid of the round settles it."""
    if action.kind != "bid" or [name for name, _ in action.args] != ["card"]:
        return Refusal("goofspiel.unknown", f"Goofspiel has no action {action.kind!r}")
    card = action["card"]
    if type(card) is not int or card not in state.hands[seat]:
        return Refusal("goofspiel.not_in_hand", f"card {card!r} is not in seat {seat}'s hand")
    if state.bids[seat]:
        return Refusal("goofspiel.already_bid", f"seat {seat} has bid this round")
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    bids = list(state.bids)
    bids[seat] = card
    # (A new State built field by field: `dataclasses.replace` costs several times more.)
    state = State(tuple(hands), state.scores, state.prizes, state.prize, tuple(bids),
                  state.last, state.house)
    return _settle(state) if all(bids) else state


def _settle(state: State) -> State:
    """Give the prize to the single highest bid (the house bids the prize when solo)."""
    scores = list(state.scores)
    house = state.house
    if len(scores) == 1:
        (bid,) = state.bids
        if bid > state.prize:
            scores[0] += state.prize
        elif bid < state.prize:
            house += state.prize
    else:
        top = max(state.bids)
        if state.bids.count(top) == 1:
            scores[state.bids.index(top)] += state.prize
    return State(state.hands, tuple(scores), state.prizes, 0, (0,) * len(scores), state.bids,
                 house)


def view(state: State, seat: int) -> View:
    """``seat``'s view: its hand, and for every seat the cards not yet revealed."""
    unplayed = tuple(tuple(sorted(hand + ((bid,) if bid else ())))
                     for hand, bid in zip(state.hands, state.bids, strict=True))
    return View(seat, unplayed[seat], unplayed, state.scores, state.prize, state.prizes,
                state.last, state.house)


def determinize(state: State, seat: int, rng: Rng) -> State:
    """Re-deal what ``seat`` cannot know: other seats' bids not yet revealed."""
    hands, bids = list(state.hands), list(state.bids)
    for other, bid in enumerate(state.bids):
        if other != seat and bid:
            pool = sorted((*state.hands[other], bid))
            bids[other] = pool.pop(rng.randbelow(len(pool)))
            hands[other] = tuple(pool)
    return State(tuple(hands), state.scores, state.prizes, state.prize, tuple(bids),
                 state.last, state.house)


def outcome(state: State) -> Outcome | None:
    """Ranked by points; alone, a `Solo` result graded by the margin over the house."""
    if state.prize or state.prizes or any(state.bids):
        return None
    if len(state.scores) == 1:
        (mine,) = state.scores
        margin = mine - state.house
        grade = ""
        for label, at in GRADES:
            if margin >= at:
                grade = label
        return Solo(score=margin, grade=grade, won=margin > 0, opponent=state.house,
                    explanation=f"you took {mine} points, the house {state.house}",
                    breakdown=(("Points", (mine,)),))
    ranking = tuple(1 + sum(o > s for o in state.scores) for s in state.scores)
    winners = tuple(seat for seat, rank in enumerate(ranking) if rank == 1)
    return Ranked(state.scores, ranking, winners,
                  f"the most prize points: {max(state.scores)}",
                  breakdown=(("Points", state.scores),))


def describe(state: State, seat: int, action: Action) -> str:
    """A bid in words (shown once the round is settled, when every bid is revealed)."""
    return f"seat {seat} bids {action.get('card')!r} for the {state.prize}"


def build(ext: Any) -> GameDef[State, View]:
    """The rules for one table (Goofspiel has no extension hooks, so ``ext`` is unused)."""
    return GameDef(name=NAME, setup=setup, active_seats=active_seats,
                   legal_actions=legal_actions, apply=apply, view=view, outcome=outcome,
                   describe=describe, determinize=determinize, chance=chance, resolve=resolve)


# -- bot support: what the bots think with, beside the rules --------------------------------


def sample(view: View, seat: int, rng: Rng) -> State:
    """A complete state ``seat`` cannot tell from its view.

    Everything a Goofspiel seat may see is in its view (the revealed bids make every hand
    public); what it cannot see is another seat's bid inside a step, and a view is only
    ever asked for at the start of one, so nothing is left to deal at random.  In a game
    with hidden hands, this is where the cards the view does not show are dealt, at random
    (with ``rng``), into the places the view says they are (other hands, the deck).
    """
    bids = (0,) * len(view.unplayed)
    return State(hands=view.unplayed, scores=view.scores, prizes=view.prizes_left,
                 prize=view.prize, bids=bids, last=view.last, house=view.house)


def score(state: State, seat: int) -> float:
    """``seat``'s points if the game were scored now: its prize points (alone, its margin
    over the house, as the `Solo` result counts it)."""
    mine = state.scores[seat]
    return float(mine - state.house if len(state.scores) == 1 else mine)


def evaluate(state: State, seat: int) -> float:
    """``score`` plus the seat's share of the prizes still to come, in proportion to the
    bidding strength it has left (the sum of its cards against everyone's; alone, against
    the house's, which bids each prize's own value): a prize taken with a low card keeps
    the high ones for later."""
    left = sum(state.prizes) + state.prize
    mine = sum(state.hands[seat])
    total = sum(sum(hand) for hand in state.hands) if len(state.hands) > 1 else mine + left
    return score(state, seat) + (left * mine / total if total else 0.0)


def bots(ext: Any) -> BotSupport[State, View]:
    """What the bots may use at one table (``ext`` unused, as in `build`)."""
    return BotSupport(sample=sample, score=score, evaluate=evaluate)


# -- the plugin ---------------------------------------------------------------------------


SPEC = GameSpec(name=NAME, title="Goofspiel", version="1.0.0", min_players=1, max_players=4,
                build=build, bots=bots, default_players=3,
                summary="Bid for prize cards with your own hand, everyone at once; "
                        "the single highest bid takes the prize.")


@hookimpl
def hedgerow_register_games(register: Callable[[GameSpec], None]) -> None:
    """Goofspiel's one hook: register the game."""
    register(SPEC)
