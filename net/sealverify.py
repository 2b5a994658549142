"""The end-of-game verification of a sealed deck: every shuffle, every key, every action.

Once every party has disclosed its secret (`hedgerow.net.sealing`), a peer — or anyone
with the log, `hedgerow replay --verify` — checks the whole game:

1. **Every pass of every shuffle** follows from its party's secret
   (`mentalpoker.verify_step`): the right lock, a permutation of exactly the cards it was
   given, the right card keys and commitments.  The first pass that does not names its
   party: a card dropped, duplicated or changed, a lock that is not the one the secret
   gives, or commitments to other keys than it used.
2. **Every card opens**, so the deal is known: each deck's positions, opened with every
   party's key, are exactly its items.
3. **Every action replays with every card known**: the game is played again open, with the
   decks of step 2 as its chance outcomes and each action's sealed cards as their faces.
   An action the open game refuses (a card its author did not hold, say) names its seat;
   the open game must end with the sealed game's outcome.

A verdict says which, in words for people (`Verdict`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core.chance import Chance, ChanceOutcome, Pick
from hedgerow.core.errors import Refusal, RulesError
from hedgerow.core.rng import Rng
from hedgerow.core.sealed import Key, Sealed, plain, substitute
from hedgerow.core.sealedtable import SealedTable, ShuffleJob
from hedgerow.core.table import Table
from hedgerow.net import mentalpoker as mp


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the verification found: ``ok``, or the first fault and the party (seat) to
    blame; ``message`` says it to people."""

    ok: bool
    message: str
    party: int | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class ShuffleRecord:
    """A finished shuffle as the peers made it: the job (its items) and every pass."""

    job: ShuffleJob
    steps: tuple[mp.Step, ...]


def verify(table: SealedTable, *, table_id: bytes, shuffles: Sequence[ShuffleRecord],
           secrets: Mapping[int, bytes], parties: int,
           seat_party: Mapping[int, int] | None = None) -> Verdict:
    """Verify a finished sealed game (see the module docstring).  ``table`` has every entry
    applied; ``secrets`` are the disclosed secrets by party."""
    missing = [p for p in range(parties) if p not in secrets]
    if missing:
        return Verdict(False, "the verification is incomplete: "
                       + ", ".join(f"party {p}" for p in missing) + " did not disclose")
    keys = {p: mp.PeerSecret(secrets[p]) for p in range(parties)}
    cards: dict[bytes, tuple[int, int, int]] = {}
    finals: dict[tuple[int, int], tuple[bytes, ...]] = {}
    faces: dict[Key, object] = {}
    orders: dict[tuple[int, int], tuple[int, ...]] = {}
    for record in sorted(shuffles, key=lambda r: (r.job.entry, r.job.draw)):
        job = record.job
        items: list[mp.Item] = []
        for j, item in enumerate(job.items):
            if type(item) is Sealed:
                items.append(mp.Item(finals[(item.entry, item.draw)][item.pos], item.key))
            else:
                point = mp.card_point(table_id, job.entry, job.draw, j)
                cards[point] = (job.entry, job.draw, j)
                items.append(mp.Item(point))
        expected = mp.passes(items, parties)
        if [(s.phase, s.party) for s in record.steps] != expected:
            return Verdict(False, f"the shuffle of draw {job.draw} at entry #{job.entry} is "
                           "missing passes")
        relocked = any(i.sealed is not None for i in items)
        deck = [i.point for i in items]
        for step in record.steps:
            if not mp.verify_step(keys[step.party], step, job.entry, job.draw, items, deck,
                                  relocked):
                return Verdict(False, f"party {step.party}'s {step.phase} pass of the shuffle "
                               f"at entry #{job.entry} does not follow from its secret: it "
                               "dropped, duplicated or changed a card, or used other keys "
                               "than it committed to", step.party,
                               _seat(step.party, seat_party))
            deck = list(step.points)
        finals[(job.entry, job.draw)] = tuple(deck)
        under = {i.point: j for j, i in enumerate(items) if i.sealed is None}
        for j, item in enumerate(items):
            if item.sealed is not None:
                under[_underlying(item.sealed, finals, keys, parties)] = j
        order = []
        for pos, point in enumerate(deck):
            opened = mp.open_card(point, (keys[p].card_key(job.entry, job.draw, pos)
                                          for p in range(parties)))
            if opened not in under:
                return Verdict(False, f"the card at position {pos} of the shuffle at entry "
                               f"#{job.entry} is not one of its cards")
            order.append(under[opened])
            faces[(job.entry, job.draw, pos)] = job.items[under[opened]]
        if sorted(order) != list(range(len(items))):
            return Verdict(False, f"the shuffle at entry #{job.entry} deals a card twice")
        orders[(job.entry, job.draw)] = tuple(order)
    return _replay_open(table, orders, faces)


def _underlying(card: Key, finals: Mapping[tuple[int, int], tuple[bytes, ...]],
                keys: Mapping[int, mp.PeerSecret], parties: int) -> bytes:
    """The card point a sealed card of an earlier deck opens to."""
    point = finals[(card[0], card[1])][card[2]]
    return mp.open_card(point, (keys[p].card_key(*card) for p in range(parties)))


def _seat(party: int, seat_party: Mapping[int, int] | None) -> int | None:
    if seat_party is None:
        return party
    seats = [s for s, p in seat_party.items() if p == party]
    return min(seats) if seats else None


class _DealtChance:
    """Chance as the sealed game dealt it: its picks, and each shuffle as opened."""

    def __init__(self, seed: bytes, orders: Mapping[tuple[int, int], tuple[int, ...]]) -> None:
        self.seed = seed
        self.orders = orders

    def resolve(self, index: int, chance: Chance) -> ChanceOutcome:
        rng = Rng(self.seed, f"chance/{index}")
        out: list[int | tuple[int, ...]] = []
        for number, draw in enumerate(chance.draws):
            if isinstance(draw, Pick):
                out.append(rng.randbelow(draw.n))
            else:
                rng.shuffle(list(range(draw.n)))
                out.append(self.orders[(index, number)])
        return tuple(out)


def _replay_open(table: SealedTable, orders: Mapping[tuple[int, int], tuple[int, ...]],
                 faces: Mapping[Key, object]) -> Verdict:
    """Play the game again open, every card known; the verdict."""
    try:
        open_table = Table(table.ruleset, table.players, table.header.seed,
                           chance=_DealtChance(table.header.seed, orders))
    except (KeyError, RulesError) as exc:
        return Verdict(False, f"the deal does not replay open: {exc}")
    entries = table.entries
    i = 0
    while i < len(entries):
        entry = entries[i]
        if entry.is_chance:
            i += 1
            continue
        if open_table.index != entry.index:
            return Verdict(False, f"entry #{entry.index} does not replay open")
        active = open_table.active_seats()
        run = [e for e in entries[i:i + len(active)] if not e.is_chance]
        choices = {e.seat: _open_action(e.action, faces) for e in run}
        try:
            result: Any = (open_table.submit(entry.seat, choices[entry.seat])
                           if len(active) == 1 else open_table.submit_step(choices))
        except (KeyError, RulesError) as exc:
            return Verdict(False, f"entry #{entry.index} does not replay open: {exc}")
        if isinstance(result, Refusal):
            who = entry.seat if len(active) == 1 else _culprit(open_table, choices)
            return Verdict(False, f"seat {who}'s action at entry #{entry.index} is refused "
                           f"with every card known: {result.message}", seat=who)
        i += len(run) if len(active) > 1 else 1
    if plain(table.outcome()) != open_table.outcome():
        return Verdict(False, "the game replayed open ends with another result")
    return Verdict(True, "every shuffle, key and action checks out")


def _open_action(action: Any, faces: Mapping[Key, object]) -> Any:
    return substitute(action, faces)


def _culprit(table: Table, choices: Mapping[int, Any]) -> int:
    for seat, action in sorted(choices.items()):
        if isinstance(table.check(seat, action), Refusal):
            return seat
    return min(choices)
