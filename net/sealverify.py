"""The end-of-game verification of a sealed deck: every shuffle, every key, every action.

Once every party has disclosed its secret (`hedgerow.net.sealing`), a peer — or anyone
with the log, `hedgerow replay --verify` — checks the whole game:

1. **Every pass of every shuffle** follows from its party's secret
   (`mentalpoker.verify_step`): the right lock, a permutation of exactly the cards it was
   given, the right card keys and commitments.  The first pass that does not names its
   party: a card dropped, duplicated or changed, a lock that is not the one the secret
   gives, or commitments to other keys than it used.
2. **Every card opens**, so the deal is known: each deck's positions, opened with every
   party's key, are exactly its items.  Once every pass follows from its secret this holds
   by construction (position ``i`` holds, under every party's key for ``i``, the item the
   lock passes' permutations put there), so the deal is read off those permutations
   (`_deal`) with no curve operation (opening a deck's cards one by one cost a tenth of
   the verification).  An item that was a sealed card of an earlier deck (a face-down pile
   reshuffled) has that card's face, as the peers opened it.
3. **Every action replays with every card known**: the game is played again on a sealed
   table of the same rules fed the same decks, its public state moving as the peers' did
   (the same cards shown to all at the same points) while it knows every card's face; each
   seat's action is checked by the rules against that state with every face in (and a
   simultaneous choice against the step's start).  An action the rules then refuse (a card
   its author did not hold, a face other than it claimed) names its seat; the game must
   end with the sealed game's outcome.  (The state is laid out as the sealed game's, so a
   game whose sealed hands differ from its open ones, Mandala's, replays as it was played.)

A verdict says which, in words for people (`Verdict`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hedgerow.core.errors import Refusal, RulesError
from hedgerow.core.sealed import Key, Sealed, plain, substitute, tokens_in
from hedgerow.core.sealedtable import SealedTable, ShuffleJob, Waiting
from hedgerow.net import mentalpoker as mp


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the verification found: ``ok``, or the first fault and the party (seat) to
    blame; ``message`` says it to people."""

    ok: bool
    message: str
    party: int | None = None
    seat: int | None = None
    #: The game played again open, every card known (when the verification got that far):
    #: the very game the seats played, as an open table would have logged it.
    replayed: SealedTable | None = field(default=None, compare=False, repr=False)
    #: Every card's face, by its token's key (with ``replayed``).
    faces: Mapping[Key, object] = field(default_factory=dict, compare=False, repr=False)


#: Called before each seat's action is replayed with every card known: (seat, the action
#: with its cards' faces, the table that knows every card, before the action).
Watch = Callable[[int, Any, SealedTable], None]


@dataclass(frozen=True, slots=True)
class ShuffleRecord:
    """A finished shuffle as the peers made it: the job (its items) and every pass."""

    job: ShuffleJob
    steps: tuple[mp.Step, ...]


def verify(table: SealedTable, *, table_id: bytes, shuffles: Sequence[ShuffleRecord],
           secrets: Mapping[int, bytes], parties: int,
           seat_party: Mapping[int, int] | None = None, watch: Watch | None = None) -> Verdict:
    """Verify a finished sealed game (see the module docstring).  ``table`` has every entry
    applied; ``secrets`` are the disclosed secrets by party.  ``watch(seat, action, known)``
    is called before each seat's action is replayed, with the table that knows every card
    (what a test compares a seat's views with)."""
    missing = [p for p in range(parties) if p not in secrets]
    if missing:
        return Verdict(False, "the verification is incomplete: "
                       + ", ".join(f"party {p}" for p in missing) + " did not disclose")
    keys = {p: mp.PeerSecret(secrets[p]) for p in range(parties)}
    finals: dict[tuple[int, int], tuple[bytes, ...]] = {}
    faces: dict[Key, object] = {}
    for record in sorted(shuffles, key=lambda r: (r.job.entry, r.job.draw)):
        job = record.job
        items: list[mp.Item] = []
        for j, item in enumerate(job.items):
            if type(item) is Sealed:
                items.append(mp.Item(finals[(item.entry, item.draw)][item.pos], item.key))
            else:
                items.append(mp.Item(mp.card_point(table_id, job.entry, job.draw, j)))
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
        for pos, j in enumerate(_deal(record, keys)):
            face = job.items[j]
            while type(face) is Sealed:  # a card of an earlier deck: the card it is there
                face = faces[face.key]
            faces[(job.entry, job.draw, pos)] = face
    return _replay_known(table, faces, watch)


def _deal(record: ShuffleRecord, keys: Mapping[int, mp.PeerSecret]) -> list[int]:
    """Which item each position of a verified deck holds: the lock passes' permutations,
    composed (a lock pass puts at ``i`` what was at ``perm[i]``; the other passes keep
    every position)."""
    n = len(record.job.items)
    order = list(range(n))
    for step in record.steps:
        if step.phase == mp.LOCK:
            perm = keys[step.party].permutation(record.job.entry, record.job.draw, n)
            order = [order[j] for j in perm]
    return order


def _seat(party: int, seat_party: Mapping[int, int] | None) -> int | None:
    if seat_party is None:
        return party
    seats = [s for s, p in seat_party.items() if p == party]
    return min(seats) if seats else None


def _replay_known(table: SealedTable, faces: Mapping[Key, object],
                  watch: Watch | None) -> Verdict:
    """Replay the game on a table that knows every card (see the module docstring): the
    public state as the peers shared it, each seat's action checked by the rules against
    the state with every card's face in.  The verdict."""
    try:
        known = SealedTable(table.ruleset, table.players, table.header.seed,
                            seats=range(table.players))
        _answer(known, table, faces)
    except (KeyError, ValueError, RulesError) as exc:
        return Verdict(False, f"the deal does not replay with every card known: {exc}")
    entries = table.entries
    i = 0
    while i < len(entries):
        entry = entries[i]
        if entry.is_chance:
            i += 1
            continue
        if known.index != entry.index:
            return Verdict(False, f"entry #{entry.index} does not replay with every card known")
        active = known.active_seats()
        run = [e for e in entries[i:i + len(active)] if not e.is_chance]
        start = known.info_state()
        for e in run:  # each choice against the state the seat chose in, every card known
            action = substitute(e.action, faces)
            if watch is not None:
                watch(e.seat, plain(action), known)
            try:
                checked = known.gamedef.apply(start, e.seat, action)
            except (KeyError, ValueError, RulesError) as exc:
                return Verdict(False, f"entry #{e.index} does not replay with every card "
                               f"known: {exc}")
            if isinstance(checked, Refusal):
                return Verdict(False, f"seat {e.seat}'s action at entry #{e.index} is refused "
                               f"with every card known: {checked.message}", seat=e.seat)
        try:
            for e in run:
                shown = {t.key: faces[t.key] for t in tokens_in(e.action.args)}
                result: Any = known.follow(e.index, e.seat, e.action, prev=e.prev,
                                           reveals=shown)
                while isinstance(result, Waiting):
                    known.reveal_public({t.key: faces[t.key] for t in result.reveals})
                    result = known.follow(e.index, e.seat, e.action, prev=e.prev,
                                          reveals=shown)
                if isinstance(result, Refusal):
                    return Verdict(False, f"entry #{e.index} does not replay: {result.message}")
            _answer(known, table, faces)
        except (KeyError, ValueError, RulesError) as exc:
            return Verdict(False, f"entry #{entry.index} does not replay with every card "
                           f"known: {exc}")
        i += len(run)
    if plain(table.outcome()) != plain(known.outcome()):
        return Verdict(False, "the game replayed with every card known ends with another "
                       "result", replayed=known, faces=faces)
    return Verdict(True, "every shuffle, key and action checks out", replayed=known,
                   faces=faces)


def _answer(known: SealedTable, table: SealedTable, faces: Mapping[Key, object]) -> None:
    """Answer what ``known`` waits for as the peers did: the decks they made, the cards the
    rules read and the cards a resting point shows to all; and show it every card dealt."""
    for _ in range(100_000):
        dealt = {k: f for k, f in faces.items()
                 if (k[0], k[1]) in known.decks and k not in known.mine}
        if dealt:
            known.reveal_private(dealt)
        owed = known.take_obligations()
        for shown in owed:
            known.reveal_public({t.key: faces[t.key] for t in shown.public})
        waiting = known.waiting
        if waiting is not None:
            for job in waiting.shuffles:
                known.shuffled(job.entry, job.draw, table.decks[(job.entry, job.draw)])
            if waiting.reveals:
                known.reveal_public({t.key: faces[t.key] for t in waiting.reveals})
            known.settle()
        elif not dealt and not owed:
            return
    raise RulesError("the rules wait for chance without end")
