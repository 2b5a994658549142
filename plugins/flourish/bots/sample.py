"""A complete Flourish state built from one seat's view alone (``BotSupport.sample``).

The view fixes everything public (gardens, points, counts, the match, the variant's data,
who has chosen inside the step) and everything the seat holds or remembers.  What it does
not fix is dealt at random from what could be there:

* the hidden cards — every card neither in a garden nor in the seat's own hand — go to the
  other hands, the deck, the compost pile, the final-round discards and McGregor's deck, in
  the sizes the view gives.  A card the seat remembers goes only where its memory allows:
  to its one known place, or to one of the places it is unsure between;
* the deal is uniform over every placement that fits: remembered cards with one place are
  put there, those with several each pick one slot uniformly among the slots their places
  offer, and the picks start over when two take the same slot (rejection sampling, which
  makes every fitting placement equally likely; after `TRIES` failures a slower placement
  by augmenting paths takes over, fitting but no longer exactly uniform); the other cards
  are shuffled into the room left;
* the deck and McGregor's deck are in uniformly random order;
* a seat that has already chosen inside the step gets a uniformly random legal choice
  from its dealt hand (the view says who has chosen, never what).

What other seats know cannot be read from the view: in the sampled state each other seat
remembers only what the seat knows it knows (the cards it passed to the seat, still in the
seat's hand) and its last exchange holds only the passes between the two.  That is sound
(every remembered card is where the memory says) and enough to play on.

The memory keeps each card's possible places on its own, not what ties cards together (see
``hedgerow.plugins.flourish.knowledge``), and so does the sampler.

What the view fixes is worked out once per view object (`plan`) and kept for the next
calls: a search samples the same view at every iteration, and then only the dealing
(`deal`) is done again.  Shuffles are `Rng.quick_shuffle` (several swap positions
from one word).

A view taken while the table waits for chance (no seat ever decides then) is refused, as
is a view whose counts do not add up: `ValueError`, with the reason.
"""

from __future__ import annotations

from itertools import compress
from typing import NamedTuple

from hedgerow.core import Rng
from hedgerow.plugins.flourish.cards import SIZE
from hedgerow.plugins.flourish.choices import patterns
from hedgerow.plugins.flourish.knowledge import COMPOST, DECK, DISCARD, MCG, chosen_cards, zones_of
from hedgerow.plugins.flourish.state import (
    FINAL,
    NO_LUCK,
    OVER,
    Choice,
    Config,
    Exchange,
    State,
    View,
)

#: Rejection rounds before the augmenting-path placement takes over.
TRIES = 64
#: Zones a card can be in: seven hands, then the piles (zone 7 is never used).
ZONES = 12
#: Card ids 1-98 marked free (id 0 is no card).
ALL_FREE = bytes([0]) + bytes([1]) * SIZE


class Plan(NamedTuple):
    """What a view fixes, worked out once per view: the table's `Config`, who has chosen,
    the seat's own cards, the room each zone has once the cards known to be there are in
    (`fixed`), the remembered cards with several possible zones (card, zones, slots), the
    mask of each of those, the cards nobody remembers (ascending), and every seat's memory
    and last exchange."""

    cfg: Config
    chosen: tuple[bool, ...]
    room: tuple[int, ...]
    fixed: tuple[tuple[int, ...], ...]
    spread: tuple[tuple[int, tuple[int, ...], int], ...]
    masks: tuple[tuple[int, int], ...]
    free: tuple[int, ...]
    memory: tuple[tuple[tuple[int, int], ...], ...]
    last: tuple[Exchange, ...]


#: The plans of the views sampled lately, by (view object, seat): a search samples the same
#: view object at every iteration, so its plan is made once (a plan depends on nothing but
#: its view).  A few are kept, for bots thinking side by side; cleared when full.
_PLANS: dict[tuple[int, int], tuple[View, Plan]] = {}
PLANS_KEPT = 8


def sample(v: View, seat: int, rng: Rng) -> State:
    """A complete state whose view for ``seat`` is ``v``, everything else dealt at random
    (see the module docstring)."""
    key = (id(v), seat)
    kept = _PLANS.get(key)
    if kept is not None and kept[0] is v:
        p = kept[1]
    else:
        p = plan(v, seat)
        if len(_PLANS) >= PLANS_KEPT:
            _PLANS.clear()
        _PLANS[key] = (v, p)
    return deal(v, seat, p, rng)


def plan(v: View, seat: int) -> Plan:
    """Work out what ``v`` fixes (see `Plan`); `ValueError` when it is not a whole view."""
    players = v.players
    cfg = Config(players=players, solo=v.solo, compost=v.compost, games=v.games)
    chosen = _check(v, seat, cfg)
    own = v.hand + (() if v.choice is None else chosen_cards(v.choice))
    free_at = bytearray(ALL_FREE)  # 1 where a card is hidden and not remembered
    for cards in (*v.gardens, own):
        for c in cards:
            if not 1 <= c <= SIZE or not free_at[c]:
                raise ValueError(f"card {c} is shown twice or is no card")
            free_at[c] = 0
    room = [0] * ZONES
    for j in range(players):
        if j != seat:
            room[j] = v.hand_sizes[j]
    room[DECK], room[COMPOST] = v.deck_count, v.compost_count
    room[DISCARD], room[MCG] = v.discard_count, v.mcg_count
    fixed: list[list[int]] = [[] for _ in range(ZONES)]
    entries = sorted([*((c, 1 << z) for c, z in v.known), *v.unsure])
    masks: list[tuple[int, int]] = []
    for card, mask in entries:
        if not 1 <= card <= SIZE or not free_at[card]:
            raise ValueError(f"seat {seat} remembers card {card}, which it sees or is no card")
        free_at[card] = 0
        if mask & (mask - 1):
            masks.append((card, mask))
            continue
        zone = mask.bit_length() - 1
        if not 0 <= zone < ZONES or room[zone] <= 0:
            raise ValueError(f"card {card} is known to be where there is no room for it")
        fixed[zone].append(card)
        room[zone] -= 1
    free = tuple(compress(range(SIZE + 1), free_at))
    if len(free) + len(masks) != sum(room):
        raise ValueError(f"the view's hand sizes and piles hold "
                         f"{sum(room) + len(entries) - len(masks)} cards out of seat {seat}'s "
                         f"sight, but {len(free) + len(entries)} cards are out of its sight")
    spread = []
    for card, mask in masks:
        zones = tuple(z for z in zones_of(mask) if room[z] > 0)
        slots = sum(room[z] for z in zones)
        if not slots:
            raise ValueError(f"no room for card {card} in the zones its memory allows")
        spread.append((card, zones, slots))
    memory, last = _others_knowledge(v, seat, own, entries)
    return Plan(cfg, chosen, tuple(room), tuple(tuple(f) for f in fixed), tuple(spread),
                tuple(masks), free, memory, last)


def deal(v: View, seat: int, p: Plan, rng: Rng) -> State:
    """A state dealt at random from the view ``v`` and its plan ``p``."""
    room = list(p.room)
    contents = [list(f) for f in p.fixed]
    _spread(p, room, contents, rng)
    free = list(p.free)
    rng.quick_shuffle(free)
    at = 0
    for zone in range(ZONES):
        part = free[at:at + room[zone]]
        at += room[zone]
        fixed = contents[zone]
        if zone in (DECK, MCG):  # ordered: put each fixed card at a uniform position
            for c in fixed:
                part.insert(rng.randbelow(len(part) + 1), c)
            contents[zone] = part
        elif fixed:
            contents[zone] = sorted(fixed + part)
        else:
            contents[zone] = sorted(part)
    players = p.cfg.players
    hands = [v.hand if j == seat else tuple(contents[j]) for j in range(players)]
    choices: list[Choice | None] = [None] * players
    choices[seat] = v.choice
    for j in range(players):
        if j != seat and p.chosen[j]:
            choices[j], hands[j] = _random_choice(hands[j], p.cfg, v.turn, rng)
    return State(
        cfg=p.cfg, luck=NO_LUCK, game=v.game, turn=v.turn, hands=tuple(hands),
        gardens=v.gardens, deck=tuple(contents[DECK]), compost=tuple(contents[COMPOST]),
        discard=tuple(contents[DISCARD]), mcg=tuple(contents[MCG]), aside=(),
        choices=tuple(choices), points=v.points, memory=p.memory, last=p.last,
        draws=(0,) * players, extras=v.extras, extra_luck=None, history=v.history)


def _check(v: View, seat: int, cfg: Config) -> tuple[bool, ...]:
    """Refuse a view no seat decides in or whose parts disagree; who has chosen."""
    players = cfg.players
    if v.seat != seat:
        raise ValueError(f"this is seat {v.seat}'s view, not seat {seat}'s")
    if v.luck != NO_LUCK:
        raise ValueError(f"the view was taken while the table waits for chance ({v.luck!r}): "
                         "no seat decides then, so there is nothing to sample")
    chosen = v.chosen or (False,) * players
    if not 0 <= seat < players or len(chosen) != players or len(v.hand_sizes) != players:
        raise ValueError(f"the view's seats disagree: seat {seat} of {players}, "
                         f"{len(v.hand_sizes)} hand sizes, {len(chosen)} choice flags")
    if chosen[seat] != (v.choice is not None):
        raise ValueError(f"seat {seat}'s own choice and its 'chosen' flag disagree")
    if (any(chosen) and not 0 <= v.turn <= FINAL) or not 0 <= v.turn <= OVER:
        raise ValueError(f"no seat chooses on turn {v.turn}")
    if len(v.gardens) != cfg.gardens or len(v.points) != cfg.gardens:
        raise ValueError(f"the view has {len(v.gardens)} gardens, the table {cfg.gardens}")
    return chosen


def _spread(p: Plan, room: list[int], contents: list[list[int]], rng: Rng) -> None:
    """Place the cards that may be in several zones: each picks a slot uniformly among the
    free slots of its zones, all over again when two pick the same slot; `TRIES` failures
    in a row hand over to `_assign`."""
    if not p.spread:
        return
    for _ in range(TRIES):
        taken: set[int] = set()
        picks: list[tuple[int, int]] = []
        for card, zones, slots in p.spread:
            r = rng.randbelow(slots)
            for zone in zones:
                if r < room[zone]:
                    break
                r -= room[zone]
            slot = zone << 7 | r
            if slot in taken:
                break
            taken.add(slot)
            picks.append((card, zone))
        else:
            break
    else:
        caps = {z: room[z] for z in range(ZONES) if room[z]}
        load = _assign(list(p.masks), caps, rng)
        picks = [(c, z) for z in caps for c in load[z]]
    for card, zone in picks:
        contents[zone].append(card)
        room[zone] -= 1


def _assign(cards: list[tuple[int, int]], caps: dict[int, int], rng: Rng,
            ) -> dict[int, list[int]]:
    """Put each (card, allowed zone mask) in a zone with room, at random; when the zones a
    card allows are full, move cards along an augmenting path (always possible when the
    view is a real one: the real deal is one answer)."""
    load: dict[int, list[int]] = {z: [] for z in caps}
    allowed: dict[int, list[int]] = {}
    for card, mask in cards:
        zones = [z for z in caps if mask >> z & 1]
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


def _random_choice(hand: tuple[int, ...], cfg: Config, turn: int, rng: Rng,
                   ) -> tuple[Choice, tuple[int, ...]]:
    """A uniformly random legal choice from ``hand`` (sorted), and the cards left."""
    final = turn == FINAL
    shapes = patterns(len(hand), cfg.gardens >= 3, cfg.compost and not final, final)
    plays, passes, extra = shapes[rng.randbelow(len(shapes))]
    if final:
        choice = Choice(tuple(hand[i] for i in plays))
    else:
        choice = Choice((hand[plays[0]],), tuple(hand[i] for i in passes),
                        hand[extra] if extra >= 0 else -1)
    taken = chosen_cards(choice)
    return choice, tuple(c for c in hand if c not in taken)


def _others_knowledge(v: View, seat: int, own: tuple[int, ...],
                      entries: list[tuple[int, int]],
                      ) -> tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[Exchange, ...]]:
    """Every seat's memory and last exchange: the seat's own from its view; another seat's
    only what the seat knows it knows (see the module docstring)."""
    players = v.players
    memory: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    passed: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    received: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    for card, source in v.last.received:
        if 0 <= source < players and source != seat:
            passed[source].append((card, seat))
            if card in own:
                memory[source].append((card, 1 << seat))
    for card, target in v.last.passed:
        if 0 <= target < players and target != seat:
            received[target].append((card, seat))
    memories = tuple(tuple(entries) if j == seat else tuple(sorted(memory[j]))
                     for j in range(players))
    last = tuple(v.last if j == seat else Exchange(tuple(passed[j]), tuple(received[j]))
                 for j in range(players))
    return memories, last
