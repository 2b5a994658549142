"""A simultaneous turn, start to finish (spec §7, §10.3, §10.5): ``apply`` and what follows.

``apply`` records one seat's choice, taking its cards out of the hand.  Every seat is
active at the start of a turn; once the last one has chosen (the engine applies the
choices in seat order) the turn resolves in one go, in the spec's order:

1. **reveal**: each played card joins its garden; McGregor plays the top card of his deck
   (all three left in the final round); compost discards go on the compost pile; in the
   final round the two cards not played go to the discards;
2. **round scoring** after turns 3, 6, 9 and the final round (only the cards played in
   that round score their end-of-round abilities), and end-of-game scoring after the final
   round;
3. **receive**: the passed cards join the neighbours' hands (solo: the player takes the
   top two cards of McGregor's deck, and the two cards passed to him wait to be shuffled
   into it);
4. **draw**: in seat order from seat 0, each seat takes all of its draws (one, plus one
   for a compost discard; after turn 9 only the compost draw).  A draw that finds the deck
   empty waits for chance to shuffle the compost pile into a new deck (`RESHUFFLE`), then
   goes on;
5. in solo, chance then shuffles the passed cards into McGregor's deck (`MCGREGOR`).

At the end of the final round a game of a match hands over to the next game, whose deal is
a chance node; the last game ends the table.

At a sealed table (``hedgerow.plugins.flourish.hidden``) the rules read a card only where
every seat is shown it: ``apply`` turns the played card(s) face up as the choice is
recorded (the author attaches their faces to its action), and scoring reads McGregor's
card as it reaches his garden.  The cards passed, composted, discarded, drawn and
shuffled move as tokens: a passed card is shown to its new holder only, by its view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from hedgerow.core import Action, Chance, ChanceOutcome, Refusal, Shuffle, permute
from hedgerow.plugins.flourish import knowledge
from hedgerow.plugins.flourish.choices import parse
from hedgerow.plugins.flourish.hidden import NO_CARD, in_order, turn_up
from hedgerow.plugins.flourish.knowledge import MCG, pass_zone
from hedgerow.plugins.flourish.scoring import end_points, round_points, tallies
from hedgerow.plugins.flourish.setup import fresh_game
from hedgerow.plugins.flourish.state import (
    EXTRA,
    FINAL,
    MCGREGOR,
    NO_LUCK,
    OVER,
    RESHUFFLE,
    TURNS,
    Choice,
    Exchange,
    GameEnd,
    GameRecord,
    State,
)


class Hooks(NamedTuple):
    """The extension hooks the rules call while resolving (bound to a table's variants)."""

    game_end: Callable[[int, int, tuple[tuple[int, ...], ...], tuple[object, ...]], GameEnd]
    extra_chance: Callable[[int, tuple[object, ...]], Chance | None]
    extra_resolve: Callable[[int, tuple[object, ...], ChanceOutcome], tuple[object, ...]]


def apply(state: State, seat: int, action: Action, hooks: Hooks) -> State | Refusal:
    """Record ``seat``'s choice; the last choice of the turn resolves it."""
    if not 0 <= seat < state.cfg.players:
        return Refusal("flourish.bad_seat", f"there is no seat {seat}")
    choice = parse(state, seat, action)
    if isinstance(choice, Refusal):
        return choice
    turn_up(choice.play)
    taken = knowledge.chosen_cards(choice)
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c not in taken)
    choices = list(state.choices)
    choices[seat] = choice
    state = state._replace(hands=tuple(hands), choices=tuple(choices))
    if None in choices:
        return state
    return resolve_turn(state, hooks)


def resolve_turn(state: State, hooks: Hooks) -> State:
    """Reveal, score, pass and draw once every seat has chosen (see the module docstring)."""
    cfg = state.cfg
    seats = cfg.players
    choices: list[Choice] = [c for c in state.choices if c is not None]
    turn = state.turn
    final = turn == FINAL
    memory = knowledge.after_moves(state, choices)
    gardens = [g + c.play for g, c in zip(state.gardens, choices, strict=False)]
    if cfg.solo:
        gardens.append(state.gardens[1])
    mcg = state.mcg
    if cfg.solo:
        take = len(mcg) if final else 1
        gardens[1] = gardens[1] + mcg[:take]
        mcg = mcg[take:]
    compost = state.compost + tuple(c.compost for c in choices if c.compost != NO_CARD)
    discard = state.discard
    if final:
        discard = in_order(discard + tuple(c for h in state.hands for c in h))
    points = _scored(state.points, gardens, turn)
    if final:
        memory = knowledge.forget_seen(memory, ((),) * seats, gardens)
        return _end_game(state._replace(gardens=tuple(gardens), mcg=mcg, compost=compost,
                                        discard=discard, points=points, memory=memory,
                                        hands=((),) * seats, choices=(None,) * seats,
                                        last=(Exchange(),) * seats, turn=OVER), hooks)
    hands = [list(h) for h in state.hands]
    received: list[list[tuple[int, int]]] = [[] for _ in range(seats)]
    passed: list[tuple[tuple[int, int], ...]] = []
    aside: tuple[int, ...] = ()
    for seat, choice in enumerate(choices):
        gave = []
        for which, card in enumerate(choice.passes):
            zone = pass_zone(cfg, seat, which)
            gave.append((card, zone))
            if zone == MCG:
                aside += (card,)
            else:
                hands[zone].append(card)
                received[zone].append((card, seat))
        passed.append(tuple(gave))
    if cfg.solo:
        hands[0] += mcg[:2]
        received[0] += [(c, MCG) for c in mcg[:2]]
        mcg = mcg[2:]
    draws = tuple((1 if turn < TURNS - 1 else 0) + (1 if c.compost != NO_CARD else 0)
                  for c in choices)
    last = tuple(Exchange(passed[s], tuple(received[s])) for s in range(seats))
    state = state._replace(
        turn=turn + 1, hands=tuple(tuple(h) for h in hands), gardens=tuple(gardens),
        mcg=mcg, aside=aside, compost=compost, choices=(None,) * seats, points=points,
        memory=memory, last=last, draws=draws)
    return continue_draws(state)


def _scored(points: tuple[tuple[int, ...], ...], gardens: list[tuple[int, ...]], turn: int,
            ) -> tuple[tuple[int, ...], ...]:
    """Points after the round scoring (and end-of-game scoring) this turn ends, if any."""
    if turn % 3 != 2 and turn != FINAL:
        return points
    rnd = turn // 3 + 1
    counts = tallies(gardens)
    scored = round_points(gardens, rnd, counts)
    out = []
    for g, row in enumerate(points):
        new = list(row)
        new[rnd - 1] = scored[g]
        out.append(new)
    if turn == FINAL:
        for g, value in enumerate(end_points(gardens, counts)):
            out[g][4] = value
    return tuple(tuple(row) for row in out)


def continue_draws(state: State) -> State:
    """Make every draw still owed, in seat order; wait for a reshuffle when the deck runs
    out and the compost pile has cards; then (solo) wait for McGregor's shuffle."""
    draws = list(state.draws)
    deck, hands = state.deck, [list(h) for h in state.hands]
    memory, last = state.memory, list(state.last)
    deck_bit = 1 << knowledge.DECK
    tracked = any(m & deck_bit for entries in memory for _, m in entries)
    for seat in range(state.cfg.players):
        got: list[int] = []
        while draws[seat] > 0:
            if not deck:
                if state.compost:
                    last[seat] = last[seat]._replace(drawn=last[seat].drawn + tuple(got))
                    hands[seat].extend(got)
                    return state._replace(
                        luck=RESHUFFLE, deck=deck, draws=tuple(draws), memory=memory,
                        hands=tuple(tuple(h) for h in hands), last=tuple(last))
                draws[seat] = 0  # nothing left anywhere (the spec's decks never get here)
                break
            got.append(deck[0])
            deck = deck[1:]
            draws[seat] -= 1
            if tracked:  # some seat thinks a card it saw may be in the deck
                memory = knowledge.after_draw(memory, seat)
        if got:
            hands[seat].extend(got)
            last[seat] = last[seat]._replace(drawn=last[seat].drawn + tuple(got))
    sorted_hands = tuple(in_order(h) for h in hands)
    memory = knowledge.forget_seen(memory, sorted_hands, state.gardens)
    luck = MCGREGOR if state.aside else NO_LUCK
    return state._replace(luck=luck, deck=deck, hands=sorted_hands, draws=tuple(draws),
                          memory=memory, last=tuple(last))


def reshuffle_chance(state: State) -> Chance:
    """The compost pile shuffled into a new deck."""
    return Chance((Shuffle(len(state.compost)),),
                  "shuffle the compost pile into a new deck")


def reshuffle(state: State, outcome: ChanceOutcome) -> State:
    """The new deck from the compost pile; the draws go on."""
    (order,) = outcome
    assert isinstance(order, tuple)
    deck = permute(state.compost, order)
    memory = knowledge.after_reshuffle(state.memory)
    return continue_draws(state._replace(luck=NO_LUCK, deck=deck, compost=(), memory=memory))


def mcgregor_chance(state: State) -> Chance:
    """The cards passed to McGregor shuffled into his deck."""
    return Chance((Shuffle(len(state.mcg) + len(state.aside)),),
                  "shuffle the two passed cards into McGregor's deck")


def mcgregor_shuffle(state: State, outcome: ChanceOutcome) -> State:
    """McGregor's deck once the passed cards are shuffled in (his deck, then the two passed
    cards in passing order, permuted)."""
    (order,) = outcome
    assert isinstance(order, tuple)
    return state._replace(luck=NO_LUCK, mcg=permute(state.mcg + state.aside, order), aside=())


def _end_game(state: State, hooks: Hooks) -> State:
    """Bonuses from the variant, then the next game of the match or the end of the table."""
    cfg = state.cfg
    seats = cfg.players
    answer = hooks.game_end(seats, state.game, state.gardens[:seats], state.extras)
    record = GameRecord(state.gardens, state.points, answer.bonus, answer.note)
    history = (*state.history, record)
    if state.game + 1 < cfg.games:
        return fresh_game(cfg, state.game + 1, answer.extras, history)
    return state._replace(extras=answer.extras, history=history)


def extra_settled(state: State, hooks: Hooks) -> State:
    """After the first deal: wait for the variant's own luck, if it wants any."""
    chance = hooks.extra_chance(state.cfg.players, state.extras)
    if chance is None:
        return state._replace(luck=NO_LUCK, extra_luck=None)
    return state._replace(luck=EXTRA, extra_luck=chance)


def extra_resolve(state: State, outcome: ChanceOutcome, hooks: Hooks) -> State:
    """The variant's data once chance answered; it may ask again."""
    extras = hooks.extra_resolve(state.cfg.players, state.extras, outcome)
    return extra_settled(state._replace(extras=extras), hooks)
