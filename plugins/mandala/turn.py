"""Applying one decision (``GameDef.apply``) and finishing a turn after a reshuffle.

A turn (spec §6) is one ``play``: the cards go face-up when their colour is not present on
the mandala, else face-down; the seat draws by the table's `DrawRule`; then the claim check
on that mandala for that seat; then, if all six colours are present, the mandala is
resolved (`resolution`), which may wait for the claim holder's ``take``.  A seat with no
legal play ``pass``es instead.

When a draw needs a card and the deck is empty but the discard pile is not, the turn
stops in the ``"reshuffle"`` phase: the state waits for chance (`reshuffle_chance`), the
engine draws a permutation, and `reshuffled` makes the pile the new deck and finishes the
turn (the rest of the draw, the claim check, completion).  The rules never shuffle.

At a sealed table a play names the hidden cards it takes and shows them as it is applied
(`choices`: checked before any is read, then read, so shown to every seat, as played cards
are), and cards drawn from the deck are sealed and go to the seat's hidden cards (`hands`).
A pass is checked against public facts alone (`choices.can_play`).

Who knows what (`State.known`): a play shows its colour, face-up or face-down (spec §5:
every card is seen as it is played), so at most ``count`` of the seat's known cards of
that colour are gone.  Known counts only ever shrink like that, so they stay true for
every seat's point of view.

What the deck may hold: after a reshuffle it is made of the discard pile that was shuffled,
which every seat saw (`State.reshuffled`), less the cards drawn from it since; each seat's
draws from it are kept as cards (`State.since`, never read here), so that its view can
count its own.
"""

from __future__ import annotations

from hedgerow.core import Action, Chance, ChanceOutcome, Refusal, Shuffle, permute
from hedgerow.plugins.mandala import resolution
from hedgerow.plugins.mandala.cards import NO_CARDS, Counts, expand
from hedgerow.plugins.mandala.choices import (
    can_play,
    check_play,
    play_args,
    play_cards,
    take_from,
    tile_arg,
)
from hedgerow.plugins.mandala.claims import claims, is_complete
from hedgerow.plugins.mandala.drawing import DrawRule
from hedgerow.plugins.mandala.hands import hidden_of, receive, with_hidden
from hedgerow.plugins.mandala.resolution import EndCheck
from hedgerow.plugins.mandala.state import (
    CHOOSE,
    OVER,
    PLAY,
    RESHUFFLE,
    Mandala,
    Play,
    State,
    put,
)


def _refuse(code: str, message: str) -> Refusal:
    return Refusal(f"mandala.{code}", message)


def apply(state: State, seat: int, action: Action, rule: DrawRule, end: EndCheck,
          ) -> State | Refusal:
    """The state after ``seat`` takes ``action``, or why it may not."""
    phase, kind = state.phase, action.kind
    if phase == OVER:
        return _refuse("game_over", "the game is over")
    if phase == CHOOSE:
        holder = state.mandalas[state.at].claim
        if seat != holder:
            return _refuse("not_your_turn", f"seat {holder} holds the claim on M{state.at} "
                           "and chooses a tile now (spec §8.1)")
        if kind != "take":
            return _refuse("choose_tile", f"choose one of M{state.at}'s tiles first (take)")
        return _take(state, action, end)
    if phase != PLAY:
        return _refuse("bad_phase", f"no seat acts in the {phase!r} phase")
    if seat != state.turn:
        return _refuse("not_your_turn", f"it is seat {state.turn}'s turn, not seat {seat}'s")
    if kind == "play":
        return _play(state, seat, action, rule, end)
    if kind == "pass":
        if action.args:
            return _refuse("bad_action", "pass takes no arguments")
        if can_play(state, seat, rule):
            return _refuse("must_play", "you have a legal play, so you must play (spec §7: "
                           "there is no voluntary pass)")
        return _pass(state, seat, end)
    if kind == "take":
        return _refuse("no_choice", "take answers a completed mandala, and none waits")
    return _refuse("unknown_action", f"Mandala has no action {kind!r} (it knows play, take "
                   "and pass)")


def _take(state: State, action: Action, end: EndCheck) -> State | Refusal:
    at = state.at
    mandala = state.mandalas[at]
    tile = tile_arg(action)
    if tile is None or tile not in mandala.tiles:
        return _refuse("not_a_tile", f"take one of M{at}'s tiles: {mandala.tiles}")
    other = mandala.tiles[1] if tile == mandala.tiles[0] else mandala.tiles[0]
    return resolution.finish(state, at, ((mandala.claim, tile), (state.second, other)),
                             True, end)


def _pass(state: State, seat: int, end: EndCheck) -> State:
    passes = state.passes + 1
    open_mandalas = sum(1 for m in state.mandalas if m.tiles)
    ended = end(state.tiles, open_mandalas, passes, state.players)
    if ended:
        return state._replace(phase=OVER, passes=passes, ended=ended)
    return state._replace(turn=(seat + 1) % state.players, passes=passes)


def _forget(known: Counts, colour: int, count: int) -> Counts:
    """What every seat still knows of a hand after it played ``count`` cards of ``colour``
    (module doc)."""
    if not known[colour]:
        return known
    return put(known, colour, max(0, known[colour] - count))


def _drew(since: tuple[tuple[object, ...], ...], seat: int, cards: tuple[object, ...],
          ) -> tuple[tuple[object, ...], ...]:
    """``since`` once ``seat`` drew ``cards`` (unread) from the deck: kept only after a
    reshuffle (``since`` is ``()`` before the first)."""
    if not since or not cards:
        return since
    return put(since, seat, (*since[seat], *cards))


def _play(state: State, seat: int, action: Action, rule: DrawRule, end: EndCheck,
          ) -> State | Refusal:
    values = play_args(action)
    cards: tuple[object, ...] = ()
    if values is None:  # a play that names the hidden cards it takes (a sealed table)
        named = play_cards(action)
        if named is None:
            return _refuse("bad_action", "play takes three whole numbers: mandala, colour, "
                           "count (and, at a sealed table, the hidden cards it takes)")
        values, cards = named[:3], named[3]
    at, colour, count = values
    bad = check_play(state, seat, at, colour, count, rule, cards)
    if bad is not None:
        return bad
    hidden = state.hidden
    if cards:
        took = take_from(state, seat, colour, count, cards)
        if isinstance(took, Refusal):
            return took
        hand, held = took
    else:
        hand = list(state.hands[seat])
        hand[colour] -= count
        held = hidden[seat] if hidden else ()
    mandala = state.mandalas[at]
    present = mandala.present
    up = not present >> colour & 1
    totals = list(mandala.totals)
    totals[seat] += count
    ups = mandala.ups
    if up:
        ups = put(ups, seat, ups[seat] + count)
    placed = Mandala(mandala.tiles, mandala.claim,
                     (*mandala.plays, Play(seat, colour, count, up, present)),
                     present | (1 << colour) if up else present, tuple(totals), ups)
    known = state.known
    mine = _forget(known[seat], colour, count)
    if mine is not known[seat]:
        known = put(known, seat, mine)
    if hidden:  # a sealed table (module docstring)
        drawing = list(held)
        deck, owed = _draw_into(hand, drawing, state.deck,
                                rule.wanted(count, sum(hand) + len(drawing)))
        hidden = with_hidden(state, seat, tuple(drawing))
    else:
        deck, owed = _draw_into(hand, None, state.deck, rule.wanted(count, sum(hand)))
    state = State(state.players, PLAY, seat, put(state.hands, seat, tuple(hand)), known, deck,
                  state.discard, state.dark, state.light, put(state.mandalas, at, placed),
                  state.tiles, 0, state.ended, -1, 0, -1, state.last, hidden,
                  state.reshuffled, _drew(state.since, seat, state.deck[len(deck):]))
    if owed and any(state.discard):
        return state._replace(phase=RESHUFFLE, at=at, owed=owed)
    return _settle(state, seat, at, end)


def _draw_into(hand: list[int], hidden: list[object] | None, deck: tuple[int, ...],
               wanted: int) -> tuple[tuple[int, ...], int]:
    """Draw up to ``wanted`` cards from the top of ``deck`` into a hand: its colour counts
    ``hand`` or, at a sealed table, for a sealed card, its ``hidden`` cards (`hands.receive`;
    both lists changed in place); the deck left and how many cards are still owed."""
    n = min(wanted, len(deck))
    if not n:
        return deck, wanted
    if hidden is None:  # an open table: every card is a face
        for colour in deck[len(deck) - n:]:
            hand[colour] += 1
    else:
        receive(hand, hidden, deck[len(deck) - n:])
    return deck[:len(deck) - n], wanted - n


def _settle(state: State, seat: int, at: int, end: EndCheck) -> State:
    """The claim check and completion on mandala ``at`` after ``seat``'s play and draw."""
    mandalas = state.mandalas
    mandala = mandalas[at]
    if mandala.claim != seat and claims(mandala.totals, mandala.ups, seat):
        mandala = mandala._replace(claim=seat)
        mandalas = put(mandalas, at, mandala)
    if is_complete(mandala.present):
        return resolution.start(state._replace(mandalas=mandalas), at, end)
    return state._replace(mandalas=mandalas, turn=(seat + 1) % state.players)


def reshuffle_chance(state: State) -> Chance:
    """The chance a ``"reshuffle"`` state waits for: an order of the discard pile."""
    return Chance((Shuffle(sum(state.discard)),), "shuffle the discard pile into a new deck")


def reshuffled(state: State, outcome: ChanceOutcome, end: EndCheck) -> State:
    """The discard pile (in colour order) permuted by ``outcome`` becomes the deck; the turn
    that waited for it then goes on (the rest of its draw, the claim check, completion)."""
    (order,) = outcome
    assert isinstance(order, tuple)
    seat, at = state.turn, state.at
    hand = list(state.hands[seat])
    hidden = list(hidden_of(state, seat))
    shuffled = permute(expand(state.discard), order)
    deck, _ = _draw_into(hand, hidden, shuffled, state.owed)
    since = _drew(((),) * state.players, seat, shuffled[len(deck):])
    state = state._replace(phase=PLAY, hands=put(state.hands, seat, tuple(hand)), deck=deck,
                           discard=NO_CARDS, at=-1, owed=0,
                           hidden=with_hidden(state, seat, tuple(hidden)),
                           reshuffled=state.discard, since=since)
    return _settle(state, seat, at, end)
