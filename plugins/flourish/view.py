"""What a seat knows (``view``), a state it cannot tell from the real one (``determinize``),
and the plain data that names a state for its hash (``hash_data``).

Public: every garden and the points, hand sizes, the sizes of the deck, the compost pile,
the discards and McGregor's deck, the variant's data and the finished games.  Private to a
seat: its hand, its own choice inside a step, what it passed, received and drew last turn,
and its memory of the cards it has seen (``hedgerow.plugins.flourish.knowledge``): the
view lists each remembered card with the one place it must be (``known``, read from the
state, so that a re-deal that moved it shows) or the places it may be (``unsure``).

``determinize`` re-deals every card hidden from the seat — other hands (with their choices
inside a step), the deck, the compost pile, the discards, McGregor's deck — keeping each
card it remembers within the places its memory allows.  Other seats' memories and last
exchanges are pruned to what still fits the re-dealt cards (a best effort: the seat cannot
know what they know).
"""

from __future__ import annotations

from hedgerow.core import Rng
from hedgerow.plugins.flourish.knowledge import (
    COMPOST,
    DECK,
    DISCARD,
    GARDEN,
    MCG,
    chosen_cards,
    locations,
    zones_of,
)
from hedgerow.plugins.flourish.state import Choice, Exchange, GameRecord, State, View


def view(state: State, seat: int) -> View:
    """``seat``'s view of ``state``."""
    memory = state.memory[seat]
    known: tuple[tuple[int, int], ...] = ()
    unsure: tuple[tuple[int, int], ...] = ()
    if memory:
        where = locations(state)
        known = tuple((c, where[c]) for c, m in memory if not m & (m - 1))
        unsure = tuple((c, m) for c, m in memory if m & (m - 1))
    return View(
        seat=seat,
        players=state.cfg.players,
        solo=state.cfg.solo,
        compost=state.cfg.compost,
        game=state.game,
        games=state.cfg.games,
        turn=state.turn,
        round=state.round,
        hand=state.hands[seat],
        choice=state.choices[seat],
        gardens=state.gardens,
        points=state.points,
        hand_sizes=hand_sizes(state),
        deck_count=len(state.deck),
        compost_count=len(state.compost),
        discard_count=len(state.discard),
        mcg_count=len(state.mcg) + len(state.aside),
        last=state.last[seat],
        known=known,
        unsure=unsure,
        extras=state.extras,
        history=state.history,
    )


def hand_sizes(state: State) -> tuple[int, ...]:
    """Each seat's hand size, counting the cards it chose inside a step."""
    return tuple(len(h) + (0 if c is None else len(chosen_cards(c)))
                 for h, c in zip(state.hands, state.choices, strict=True))


# -- determinize ----------------------------------------------------------------------------


def _assign(cards: list[tuple[int, int]], caps: dict[int, int], rng: Rng,
            ) -> dict[int, list[int]]:
    """Put each (card, allowed zone mask) in a zone with room, at random; when the zones a
    card allows are full, move cards along an augmenting path (always possible: the real
    deal is one answer)."""
    load: dict[int, list[int]] = {z: [] for z in caps}
    allowed: dict[int, list[int]] = {}
    for card, mask in cards:
        zones = [z for z in caps if mask >> z & 1 and caps[z]]
        if len(zones) > 1:  # start at a random zone, go round
            turn = rng.randbelow(len(zones))
            zones = zones[turn:] + zones[:turn]
        allowed[card] = zones
        free = next((z for z in zones if len(load[z]) < caps[z]), None)
        if free is not None:
            load[free].append(card)
            continue
        parent: dict[int, tuple[int, int] | None] = {z: None for z in zones}
        queue = list(zones)
        found = None
        while queue and found is None:
            zone = queue.pop(0)
            for other in load[zone]:
                for nxt in allowed[other]:
                    if nxt in parent:
                        continue
                    parent[nxt] = (zone, other)
                    if len(load[nxt]) < caps[nxt]:
                        found = nxt
                        break
                    queue.append(nxt)
                if found is not None:
                    break
        if found is None:
            raise ValueError(f"no room for card {card} in the zones its memory allows")
        zone = found
        step = parent[zone]
        while step is not None:
            came_from, moved = step
            load[came_from].remove(moved)
            load[zone].append(moved)
            zone = came_from
            step = parent[zone]
        load[zone].append(card)
    return load


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A state ``seat`` cannot tell from ``state``: everything hidden from it re-dealt
    within what its memory allows (see the module docstring)."""
    piles = {DECK: state.deck, COMPOST: state.compost, DISCARD: state.discard,
             MCG: state.mcg + state.aside}
    held = {j: state.hands[j] + (() if choice is None else chosen_cards(choice))
            for j, choice in enumerate(state.choices) if j != seat}
    caps = {z: len(c) for z, c in sorted((*held.items(), *piles.items()))}
    remembered = dict(state.memory[seat])
    hidden = sorted(c for cards in (*held.values(), *piles.values()) for c in cards)
    constrained = [(c, remembered[c]) for c in hidden if c in remembered]
    rng.shuffle(constrained)
    constrained.sort(key=lambda cm: bin(cm[1]).count("1"))
    load = _assign(constrained, caps, rng)
    free = [c for c in hidden if c not in remembered]
    rng.shuffle(free)
    for zone in caps:
        room = caps[zone] - len(load[zone])
        load[zone] += free[:room]
        free = free[room:]
    hands = list(state.hands)
    choices = list(state.choices)
    for j in held:
        cards = load[j]
        choice = state.choices[j]
        if choice is None:
            hands[j] = tuple(sorted(cards))
            continue
        rng.shuffle(cards)
        choices[j], rest = _rechoose(choice, cards)
        hands[j] = tuple(sorted(rest))
    deck, mcg = load[DECK], load[MCG]
    for pile in (deck, mcg):  # free cards arrived in random order; mix in remembered ones
        if any(c in remembered for c in pile):
            rng.shuffle(pile)
    aside = tuple(mcg[len(mcg) - len(state.aside):]) if state.aside else ()
    out = state._replace(hands=tuple(hands), choices=tuple(choices), deck=tuple(deck),
                         compost=tuple(sorted(load[COMPOST])),
                         discard=tuple(sorted(load[DISCARD])),
                         mcg=tuple(mcg[:len(mcg) - len(aside)]), aside=aside)
    return _prune_others(out, seat)


def _rechoose(choice: Choice, cards: list[int]) -> tuple[Choice, list[int]]:
    """The same shape of choice made with re-dealt cards (the first ones), and the rest."""
    k = len(choice.play)
    play, cards = tuple(sorted(cards[:k])), cards[k:]
    n = len(choice.passes)
    passes = tuple(cards[:n])
    if n == 2 and len(choice.passes) == 2 and choice.passes[0] < choice.passes[1]:
        passes = tuple(sorted(passes))
    cards = cards[n:]
    compost = -1
    if choice.compost >= 0:
        compost, cards = cards[0], cards[1:]
    return Choice(play, passes, compost), cards


def _prune_others(state: State, seat: int) -> State:
    """Other seats' memories and exchanges, cut to what fits the re-dealt cards."""
    where = locations(state)
    memory = list(state.memory)
    last = list(state.last)
    for j in range(state.cfg.players):
        if j == seat:
            continue
        memory[j] = tuple((c, m) for c, m in memory[j]
                          if where[c] not in (j, GARDEN) and where[c] in zones_of(m))
        ex = last[j]
        last[j] = Exchange(
            tuple(p for p in ex.passed if where[p[0]] in (p[1], GARDEN)),
            tuple(r for r in ex.received if where[r[0]] in (j, GARDEN)),
            tuple(d for d in ex.drawn if where[d] in (j, GARDEN)))
    return state._replace(memory=tuple(memory), last=tuple(last))


# -- hash -----------------------------------------------------------------------------------


def _flat(pairs: tuple[tuple[int, int], ...]) -> bytes:
    return bytes(x for pair in pairs for x in pair)


def _record(record: GameRecord) -> tuple[object, ...]:
    return (tuple(bytes(g) for g in record.gardens), sum(record.points, ()), record.bonus,
            record.note)


def hash_data(state: State) -> tuple[object, ...]:
    """Plain data naming ``state`` exactly, compact so that hashing after every step stays
    cheap: card ids (1-98) and zones (0-11) as bytes, memory masks as two bytes each, the
    variant's pending chance as its label and draws."""
    chance = state.extra_luck
    luck = None if chance is None else (chance.label, tuple(
        (type(d).__name__, d.n) for d in chance.draws))
    choices = tuple(None if c is None else (bytes(c.play), bytes(c.passes), c.compost)
                    for c in state.choices)
    memory = tuple(bytes(x for c, m in entries for x in (c, m & 255, m >> 8))
                   for entries in state.memory)
    last = tuple((_flat(e.passed), _flat(e.received), bytes(e.drawn)) for e in state.last)
    return (tuple(state.cfg), state.luck, state.game, state.turn,
            tuple(bytes(h) for h in state.hands), tuple(bytes(g) for g in state.gardens),
            bytes(state.deck), bytes(state.compost), bytes(state.discard), bytes(state.mcg),
            bytes(state.aside), choices, sum(state.points, ()), memory, last, state.draws,
            state.extras, luck, tuple(_record(r) for r in state.history))
