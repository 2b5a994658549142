"""`Sealing`: one peer's part in a sealed deck — shuffling with the others, opening cards.

The engine (`hedgerow.core.sealedtable.SealedTable`) says what the table waits for and
which cards each seat must now be shown; this object does it with the other peers, by the
messages of docs/protocol.md §10 and the cryptography of `hedgerow.net.mentalpoker`:

* **Shuffles.**  For every shuffle the table waits for, the parties take their passes in
  order (relock, lock, rekey; party 0 first); each party makes its own pass as soon as the
  one before it has arrived, and sends it to everyone.  Every pass is checked as it comes
  (`mentalpoker.check_step`: valid, distinct points; a duplicated card is caught here).
  When a deck is complete, its digest goes to the table (`SealedTable.shuffled`).
* **Opening cards.**  For each card a seat must be shown (`SealedTable.take_obligations`),
  every party but the one holding the seat sends that peer its key (`CardKeys`); for a card
  everyone must see, every party sends its key to everyone (``public``).  Every key is
  checked against the commitment its party made in its rekey pass, and the card is opened
  once every party's key is in: its point is looked up among the deck's card points.
* **Cards an action shows** travel with the action (`CardReveal`: every party's key, which
  the author holds since the card was opened to it); `open_attached` checks and opens them.
* **The end.**  Once the game is over and every card owed is open, every party sends its
  secret (`Disclose`); with all of them, `hedgerow.net.sealverify` checks every pass of
  every shuffle and every key, and names the first party whose work does not follow from
  its secret.  A card that does not open to a card of its deck (a shuffle made wrongly)
  halts the table at once, and the parties disclose to find whose.

The peer around it sends and receives (``out``), logs what it must keep, and applies the
table's entries; this object holds no socket and no clock, so a whole sealed table can be
played in one process (tests/net/test_sealing.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hedgerow.core.sealed import Key, Sealed, substitute
from hedgerow.core.sealedtable import Obligations, Prepared, SealedTable, ShuffleJob
from hedgerow.core.table import Applied
from hedgerow.net import mentalpoker as mp
from hedgerow.net.messages import (
    MAX_HELD,
    CardKey,
    CardKeys,
    CardReveal,
    CardWant,
    DeckHeld,
    Disclose,
    EscrowKey,
    EscrowOpen,
    EscrowShare,
    EscrowShares,
    SealBody,
    SealHeld,
    ShufflePhase,
    ShuffleStep,
)
from hedgerow.net.sealverify import ShuffleRecord, Verdict, Watch, verify

log = logging.getLogger(__name__)

_PHASES = {mp.RELOCK: ShufflePhase.RELOCK, mp.LOCK: ShufflePhase.LOCK,
           mp.REKEY: ShufflePhase.REKEY}
_NAMES = {v: k for k, v in _PHASES.items()}
#: Shuffle steps and keys held for decks this peer has not reached yet (bounded).
EARLY_LIMIT = 4096


class SealOut(Protocol):
    """What `Sealing` needs from the peer around it."""

    def send(self, party: int, body: SealBody) -> None:
        """Send ``body`` to the peer of ``party``."""

    def broadcast(self, body: SealBody) -> None:
        """Send ``body`` to every other party."""

    def halt(self, message: str, party: int | None) -> None:
        """Stop the table: ``message`` for people, naming ``party`` (None: nobody yet)."""

    def keep(self, body: SealBody, party: int) -> None:
        """Write ``body`` (sent or received, by ``party``) to the log: what a resumed peer
        and a verifier need."""

    def applied(self, entries: Sequence[Applied]) -> None:
        """The table added ``entries`` (chance resolved once a shuffle was done)."""

    def opened(self) -> None:
        """Cards were opened or a chance the table waited for was settled (told once the
        deck rests): what waited (an action, a seal, a seat) may go on."""

    def recovered(self, party: int) -> None:
        """A departed party's secret was recovered from the escrow (a takeover may go on)."""


@dataclass
class _Deck:
    """One sealed shuffle in progress or done."""

    job: ShuffleJob
    items: list[mp.Item]
    passes: list[tuple[str, int]]
    relocked: bool
    steps: list[mp.Step] = field(default_factory=list)
    held: dict[tuple[str, int], mp.Step] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return len(self.steps) == len(self.passes)

    @property
    def points(self) -> Sequence[bytes]:
        """The deck as it stands (the items' points before any pass)."""
        return self.steps[-1].points if self.steps else [item.point for item in self.items]

    def commitment(self, party: int, pos: int) -> bytes:
        """``party``'s commitment to its key for position ``pos``."""
        for step in self.steps:
            if step.phase == mp.REKEY and step.party == party:
                return step.commitments[pos]
        raise KeyError((party, pos))


class Sealing:
    """One peer's side of a sealed deck (see the module docstring).

    ``parties`` is the number of parties (peers, in the order of their lowest seat),
    ``me`` this peer's party, ``seats_of(party)`` and ``party_of(seat)`` the seating (a
    party may hold several seats; a takeover moves a seat to its runner's party).  With no
    ``secret`` (and ``me`` -1) it only watches: it takes every pass and key it is given and
    makes none (a log verified by someone who did not play it).
    """

    def __init__(self, table: SealedTable, *, table_id: bytes, parties: int, me: int,
                 secret: mp.PeerSecret | None, party_of: Callable[[int], int],
                 out: SealOut) -> None:
        self.table = table
        self.table_id = table_id
        self.parties = parties
        self.me = me
        self.secret = secret
        self.party_of = party_of
        self.out = out
        self.decks: dict[tuple[int, int], _Deck] = {}
        self._early_steps: dict[tuple[int, int], list[mp.Step]] = {}
        self._cards: dict[bytes, tuple[int, int, int]] = {}  # card point -> (entry, draw, item)
        self._keys: dict[Key, dict[int, bytes]] = {}  # card -> party -> verified key
        #: card -> the parties whose key for it came to everyone (a public reveal round): a
        #: card is shown to all only then, never because this peer could open it already.
        self._public_from: dict[Key, set[int]] = {}
        self._early_keys: list[tuple[int, CardKeys]] = []
        self._want_public: set[Key] = set()
        #: The cards a resting point showed to every seat, not open yet (`public_pending`).
        self._rest_public: set[Key] = set()
        #: The cards each entry's resting point shows to every seat (its first look at the
        #: views after that entry, §10.6), by the entry's index: what its hash covers.
        self._rest_shown: dict[int, tuple[Key, ...]] = {}
        self._want_mine: set[Key] = set()
        self._sent_public: set[Key] = set()
        self.disclosed: dict[int, bytes] = {}
        self._disclosing = False
        self._moved = False  # cards opened or chance settled since `out.opened` was called
        self.halted = False
        # -- escrow (three parties or more, §10.11)
        self.escrow_keys: dict[int, bytes] = {}
        self._escrow: dict[int, dict[int, EscrowShare]] = {}  # dealer -> holder -> share
        self._open_shares: dict[int, dict[int, bytes]] = {}  # dealer -> holder -> share
        self._shares_sent = False
        #: Departed parties' secrets recovered from the escrow, by party.
        self.recovered: dict[int, mp.PeerSecret] = {}
        #: Parties whose passes another party makes (departed, their secret recovered).
        self.absent: set[int] = set()

    @property
    def escrowed(self) -> bool:
        """True at a table whose parties escrow their secrets (three parties or more)."""
        return self.parties >= 3

    def start(self) -> None:
        """Begin: publish our escrow key (three parties or more), then do what is due."""
        if self.escrowed and self.secret is not None and self.me not in self.escrow_keys:
            key = mp.escrow_key(self.secret)
            self.escrow_keys[self.me] = key
            msg = EscrowKey(self.me, key)
            self.out.broadcast(msg)
            self.out.keep(msg, self.me)
            self._deal_shares()
        self.pump()
    # -- driving -----------------------------------------------------------------------------

    def pump(self) -> None:
        """Do whatever the table now waits for or owes: passes to make, keys to send, cards
        to open.  Call after every change of the table and every sealed message."""
        for _ in range(1000):
            if self.halted or not self._step_once():
                break
        if self._moved and not self.halted:
            # Told once the deck rests: what waited for cards or a chance entry goes on.
            self._moved = False
            self.out.opened()

    def _step_once(self) -> bool:
        table = self.table
        progressed = False
        waiting = table.waiting
        if waiting is not None and waiting.shuffles:
            for job in waiting.shuffles:
                progressed |= self._start(job)
            # (The chance entry waits for the cards every seat must see: every peer makes
            # it on the same public state.)
            if (all(self.decks[(j.entry, j.draw)].done for j in waiting.shuffles)
                    and not self.public_pending()):
                for job in waiting.shuffles:
                    deck = self.decks[(job.entry, job.draw)]
                    table.shuffled(job.entry, job.draw, mp.deck_digest(deck.steps))
                self._settle()
                progressed = True
        elif waiting is not None and waiting.reveals:
            if all(t.key in table.public for t in waiting.reveals):
                self._settle()
                progressed = True
            else:
                progressed |= self.share_public(waiting.reveals)
        for owed in table.take_obligations():
            self._owe(owed)
            progressed = True
        if self._early_keys:
            early, self._early_keys = self._early_keys, []
            for party, msg in early:
                progressed |= self._take_keys(party, msg) is None
        progressed |= self._open_ready()
        if (not self._disclosing and self.quiet() and table.pending_chance() is None
                and not table.active_seats()):
            self.disclose()
            progressed = True
        return progressed

    def _settle(self) -> None:
        applied = self.table.settle()
        self._moved = True
        if applied:
            self.out.applied(applied)

    # -- shuffles ----------------------------------------------------------------------------

    def _start(self, job: ShuffleJob) -> bool:
        """Register ``job`` (the first time) and make this party's passes that are due."""
        key = (job.entry, job.draw)
        deck = self.decks.get(key)
        progressed = False
        if deck is None:
            items = [self._item(job, j, item) for j, item in enumerate(job.items)]
            deck = _Deck(job, items, mp.passes(items, self.parties),
                         any(i.sealed is not None for i in items))
            self.decks[key] = deck
            for step in self._early_steps.pop(key, []):
                slot = (step.phase, step.party)
                deck.held[slot] = step
            progressed = True
        return self._advance(deck) or progressed

    def _item(self, job: ShuffleJob, j: int, item: object) -> mp.Item:
        """An item as the shuffle takes it: a fresh card point, or a sealed card's point."""
        if type(item) is Sealed:
            return mp.Item(self.decks[(item.entry, item.draw)].points[item.pos], item.key)
        point = mp.card_point(self.table_id, job.entry, job.draw, j)
        self._cards[point] = (job.entry, job.draw, j)
        return mp.Item(point)

    def maker(self, party: int) -> int:
        """The party that makes ``party``'s passes: itself, or for a departed party whose
        secret was recovered, the lowest party still present."""
        if party not in self.absent:
            return party
        return min(p for p in range(self.parties) if p not in self.absent)

    def _secret_of(self, party: int) -> mp.PeerSecret:
        if party == self.me:
            assert self.secret is not None
            return self.secret
        return self.recovered[party]

    @property
    def escrow_complete(self) -> bool:
        """True once every party's shares are in (always, at a table of two parties): from
        then on a departed party's secret can be recovered for a takeover."""
        return not self.escrowed or len(self._escrow) == self.parties

    def _advance(self, deck: _Deck) -> bool:
        """Accept held passes in order, and make ours when it is due (once the escrow is
        complete: a takeover stays possible whenever a shuffle has begun)."""
        progressed = False
        if not self.escrow_complete:
            return progressed
        while not deck.done and not self.halted:
            phase, party = deck.passes[len(deck.steps)]
            step = deck.held.pop((phase, party), None)
            if step is None and self.maker(party) == self.me:
                step = mp.make_step(self._secret_of(party), phase, party, deck.job.entry,
                                    deck.job.draw, deck.items, deck.points, deck.relocked)
                self.out.broadcast(_message(deck.job, step))
                self.out.keep(_message(deck.job, step), party)
            elif step is None:
                return progressed
            else:
                try:
                    mp.check_step(step, len(deck.items))
                except mp.MentalPokerError as exc:
                    self._halt(f"{exc} (the shuffle of draw {deck.job.draw} at entry "
                               f"#{deck.job.entry})", party)
                    return True
                self.out.keep(_message(deck.job, step), party)
            deck.steps.append(step)
            progressed = True
        return progressed

    def on_body(self, party: int, body: SealBody) -> str | None:
        """A sealed message from ``party``'s peer (or read back from a log), handed to its
        handler; why it is refused, or None."""
        if isinstance(body, ShuffleStep):
            return self.on_shuffle_step(party, body)
        if isinstance(body, CardKeys):
            return self.on_card_keys(party, body)
        if isinstance(body, Disclose):
            return self.on_disclose(party, body)
        if isinstance(body, EscrowKey):
            return self.on_escrow_key(party, body)
        if isinstance(body, EscrowShares):
            return self.on_escrow_shares(party, body)
        if isinstance(body, EscrowOpen):
            return self.on_escrow_open(party, body)
        return f"no sealed message {type(body).__name__}"

    def on_shuffle_step(self, party: int, msg: ShuffleStep) -> str | None:
        """A pass from ``party``'s peer; why it is refused, or None."""
        if msg.party == self.me and party != self.me:
            return None  # our own pass, made while a bot ran our seat: we make our own
        if party != msg.party and self.maker(msg.party) != party:
            # (A party's own pass is taken from it at any time: a returning party makes
            # its passes again before every peer has seen it reclaim its seat, §10.11.)
            return f"party {party} cannot make party {msg.party}'s pass"
        step = mp.Step(_NAMES[msg.phase], msg.party, _split(msg.points),
                       _split(msg.commitments))
        key = (msg.entry, msg.draw)
        deck = self.decks.get(key)
        if deck is None:
            early = self._early_steps.setdefault(key, [])
            if sum(len(v) for v in self._early_steps.values()) > EARLY_LIMIT:
                return "too many shuffle steps ahead of this peer"
            if step not in early:
                early.append(step)
            return None
        slot = (step.phase, step.party)
        if slot not in deck.passes:
            return f"no {step.phase} pass of party {step.party} in this shuffle"
        done = deck.passes.index(slot) < len(deck.steps)
        if done:
            if deck.steps[deck.passes.index(slot)] != step:
                self._halt(f"party {party} sent two different {step.phase} passes for the "
                           f"shuffle of draw {msg.draw} at entry #{msg.entry}", party)
            return None
        held = deck.held.get(slot)
        if held is not None and held != step:
            self._halt(f"party {party} sent two different {step.phase} passes for the "
                       f"shuffle of draw {msg.draw} at entry #{msg.entry}", party)
            return None
        deck.held[slot] = step
        self.pump()
        return None

    # -- opening cards -------------------------------------------------------------------------

    def _owe(self, owed: Obligations) -> None:
        """Send our keys for the cards seats must now be shown."""
        self._rest_shown.setdefault(owed.index - 1, tuple(t.key for t in owed.public))
        self._rest_public.update(t.key for t in owed.public if t.key not in self.table.public)
        if self.secret is None:  # a watcher: it waits for the public keys of everyone
            self._want_public.update(t.key for t in owed.public)
            return
        self.share_public(owed.public)
        by_party: dict[int, list[CardKey]] = {}
        for seat, tokens in owed.private:
            holder = self.party_of(seat)
            if holder == self.me:
                for token in tokens:
                    self._want_mine.add(token.key)
                    self._key(token.key)  # our own key opens it too
                continue
            by_party.setdefault(holder, []).extend(self._key(t.key) for t in tokens)
        for party, keys in sorted(by_party.items()):
            self.out.send(party, CardKeys(tuple(keys)))

    def share_public(self, tokens: Iterable[Sealed]) -> bool:
        """Send everyone our keys for cards every seat must see (once each): the cards the
        rules must read before an action applies (`Waiting.reveals`), or that a view shows
        every seat."""
        fresh = [t.key for t in tokens if t.key not in self._sent_public
                 and t.key not in self.table.public]
        if not fresh:
            return False
        if self.secret is None:
            self._want_public.update(fresh)
            return False
        self._sent_public.update(fresh)
        self._want_public.update(fresh)
        for card in fresh:
            self._public_from.setdefault(card, set()).add(self.me)
        msg = CardKeys(tuple(self._key(k) for k in fresh), public=True)
        self.out.broadcast(msg)
        self.out.keep(msg, self.me)
        return True

    def _key(self, card: Key) -> CardKey:
        key = self._secret_of(self.me).card_key(*card)
        self._keys.setdefault(card, {})[self.me] = key
        return CardKey(*card, key)

    def on_card_keys(self, party: int, msg: CardKeys) -> str | None:
        """Keys from ``party``; why they are refused, or None (a wrong key halts the table
        naming the party)."""
        refused = self._take_keys(party, msg)
        self.pump()
        return refused

    def _take_keys(self, party: int, msg: CardKeys) -> str | None:
        if any((k.entry, k.draw) not in self.decks or not self.decks[(k.entry, k.draw)].done
               for k in msg.keys):
            if len(self._early_keys) > EARLY_LIMIT:
                return "too many card keys ahead of this peer"
            self._early_keys.append((party, msg))
            return None
        for key in msg.keys:
            deck = self.decks[(key.entry, key.draw)]
            if key.pos >= len(deck.items):
                return f"no card {key.card} in that deck"
            if not mp.check_key(key.key, deck.commitment(party, key.pos)):
                self._halt(f"party {party} sent a wrong key for the card at position "
                           f"{key.pos} of the deck of entry #{key.entry}", party)
                return None
            self._keys.setdefault(key.card, {})[party] = key.key
        if msg.public:
            for k in msg.keys:
                if k.card not in self.table.public:
                    self._want_public.add(k.card)
                    self._public_from.setdefault(k.card, set()).add(party)
        self.out.keep(msg, party)  # a private one too: this peer's own cards, to resume
        return None

    def _keys_for(self, card: Key) -> dict[int, bytes]:
        """Every key for ``card`` this peer holds, the recovered parties' computed."""
        keys = self._keys.setdefault(card, {})
        for party, secret in self.recovered.items():
            if party not in keys:
                keys[party] = secret.card_key(*card)
        return keys

    def _open_ready(self) -> bool:
        """Open every wanted card whose keys are all in; show them to the table."""
        public: dict[Key, object] = {}
        mine: dict[Key, object] = {}
        for card in sorted(self._want_public | self._want_mine):
            keys = self._keys_for(card)
            if len(keys) < self.parties:
                continue
            sent = self._public_from.get(card, set()) | self.absent
            if card in self._want_public and len(sent) < self.parties:
                if card not in self._want_mine:
                    continue
                self._want_mine.discard(card)  # ours already: shown to all once the round ends
                mine[card] = self._open(card, keys)
                continue
            face = self._open(card, keys)
            if face is None:
                return True
            if card in self._want_public:
                public[card] = face
            else:
                mine[card] = face
        if not public and not mine:
            return False
        self._want_public -= public.keys()
        self._rest_public -= public.keys()
        self._want_mine -= mine.keys() | public.keys()
        if mine:
            self.table.reveal_private(mine)
        if public:
            self.table.reveal_public(public)
        self._moved = True
        return True

    def _open(self, card: Key, keys: Mapping[int, bytes]) -> object | None:
        """The face of ``card``, or None after halting: it does not open to a card."""
        deck = self.decks[(card[0], card[1])]
        point = mp.open_card(deck.points[card[2]], (keys[p] for p in range(self.parties)))
        found = self._cards.get(point)
        if found is None:
            self._halt(f"the card at position {card[2]} of the deck of entry #{card[0]} does "
                       "not open to a card: a shuffle was made wrongly; the parties disclose "
                       "their secrets to find whose", None)
            self.disclose()
            return None
        entry, draw, index = found
        return self.decks[(entry, draw)].job.items[index]

    def reveals_for(self, prepared: Prepared) -> tuple[CardReveal, ...]:
        """The keys to send with this peer's action for the cards it shows."""
        out = []
        for card in sorted(prepared.attached):
            keys = self._keys_for(card)
            if len(keys) < self.parties:
                raise ValueError(f"the card {card} is not open to this peer")
            out.append(CardReveal(*card, b"".join(keys[p] for p in range(self.parties))))
        return tuple(out)

    def open_attached(self, author: int, reveals: Sequence[CardReveal]
                      ) -> dict[Key, object] | str:
        """The faces of the cards an action of ``author``'s peer shows, or why not (a
        wrong key, a card that does not open: the caller halts naming the author)."""
        faces: dict[Key, object] = {}
        for reveal in reveals:
            deck = self.decks.get((reveal.entry, reveal.draw))
            if deck is None or not deck.done or reveal.pos >= len(deck.items):
                return f"it shows a card {reveal.card} no deck holds"
            keys = _split(reveal.keys)
            if len(keys) != self.parties:
                return f"it shows the card {reveal.card} with {len(keys)} keys, not one per party"
            for party, key in enumerate(keys):
                if not mp.check_key(key, deck.commitment(party, reveal.pos)):
                    return (f"it shows the card {reveal.card} with a wrong key for party "
                            f"{party}")
            point = mp.open_card(deck.points[reveal.pos], keys)
            found = self._cards.get(point)
            if found is None:
                return f"the card {reveal.card} it shows does not open to a card"
            self._keys.setdefault(reveal.card, {}).update(enumerate(keys))
            self._public_from[reveal.card] = set(range(self.parties))
            faces[reveal.card] = self.decks[(found[0], found[1])].job.items[found[2]]
        return faces

    # -- what waits ----------------------------------------------------------------------------

    def waiting_on(self) -> set[int]:
        """The parties this peer waits for: whose escrow or pass is due in a shuffle the
        table waits for, or whose key is missing for a card it waits to open."""
        parties: set[int] = set()
        waiting = self.table.waiting
        if waiting is not None and waiting.shuffles and not self.escrow_complete:
            # The shuffle begins once every party has escrowed its secret (§10.11).
            # (Shares go out once every key is in: until then, only a missing key is owed.)
            keys_in = len(self.escrow_keys) == self.parties
            parties.update(p for p in range(self.parties)
                           if p not in (self._escrow if keys_in else self.escrow_keys))
        elif waiting is not None:
            for job in waiting.shuffles:
                deck = self.decks.get((job.entry, job.draw))
                if deck is not None and not deck.done:
                    parties.add(self.maker(deck.passes[len(deck.steps)][1]))
        for card in self._want_public | self._want_mine:
            keys = self._keys_for(card)
            sent = self._public_from.get(card, set()) | self.absent
            for party in range(self.parties):
                if party not in keys or (card in self._want_public
                                         and card not in self._want_mine and party not in sent):
                    parties.add(self.maker(party))
        parties.discard(self.me)
        return parties

    def owed_to_me(self) -> bool:
        """True while cards this peer's seats must be shown are not open yet."""
        return bool(self._want_mine)

    def public_pending(self) -> bool:
        """True while cards a resting point shows every seat are not open yet (the table
        moves on only once they are: the entry before is hashed with them, the next applies
        to them).  A read round for an action is not counted: the action waits for it."""
        if self._rest_public:
            self._rest_public -= self.table.public.keys()  # (opened by an action's reveals)
        return bool(self._rest_public)

    def state_after(self, applied: Applied) -> Any:
        """The public state the hash after ``applied``'s entry covers (docs/protocol.md
        §10.4): the state after the entry with the faces of the cards its resting point
        shows to every seat put in, and no card opened later (a read round for the next
        action, say) — the same state however late this peer seals the entry.  A peer
        seals an entry once those cards are open (`public_pending`); one still closed here
        stays sealed in it (a log that lacks its keys replays to another hash)."""
        public = self.table.public
        faces: dict[Key, object] = {}
        todo = [k for k in self._rest_shown.get(applied.entry.index, ()) if k in public]
        while todo:  # (a face that is itself a token of an earlier deck is put in too)
            key = todo.pop()
            if key in faces:
                continue
            face = faces[key] = public[key]
            if type(face) is Sealed and face.key in public:
                todo.append(face.key)
        if not faces:
            return applied.after
        return substitute(applied.after, faces, remember=self.table.mark_public)

    def hash_after(self, applied: Applied) -> bytes:
        """The state hash after ``applied``'s entry as every peer reports and logs it
        (docs/protocol.md §10.4): `state_after`'s, bound to the entry — a log's replay and
        a spectator check it, and show it, so."""
        return self.table.entry_hash(applied.entry, self.state_after(applied))

    def quiet(self) -> bool:
        """Nothing owed, nothing waited for: the table rests."""
        return (self.table.waiting is None and not self._want_public and not self._want_mine)

    # -- the end -------------------------------------------------------------------------------

    def disclose(self) -> bool:
        """Send our secret, once: the game is over (or the table halted on a bad card).
        True when it was sent now."""
        if self._disclosing or self.secret is None:
            return False
        self._disclosing = True
        msg = Disclose(self.me, self.secret.secret)
        self.disclosed[self.me] = self.secret.secret
        self.out.broadcast(msg)
        self.out.keep(msg, self.me)
        return True

    def on_disclose(self, party: int, msg: Disclose) -> str | None:
        """``party``'s secret; why it is refused, or None."""
        if msg.party != party:
            return f"party {party} cannot disclose party {msg.party}'s secret"
        if not self.table.outcome() and not self.halted:
            log.info("party %d disclosed its secret before the end", party)
        if self.disclosed.get(party, msg.secret) != msg.secret:
            return "a second, different secret"
        self.disclosed[party] = msg.secret
        self.out.keep(msg, party)
        return None

    @property
    def all_disclosed(self) -> bool:
        """True once every party's secret is in (a departed party's, recovered from the
        escrow, counts)."""
        return len(self.disclosed.keys() | self.recovered.keys()) == self.parties

    def verdict(self, watch: Watch | None = None) -> Verdict:
        """Verify the game with the disclosed secrets (`hedgerow.net.sealverify`)."""
        shuffles = [ShuffleRecord(d.job, tuple(d.steps)) for d in self.decks.values() if d.done]
        secrets = {p: s.secret for p, s in self.recovered.items()} | self.disclosed
        return verify(self.table, table_id=self.table_id, shuffles=shuffles,
                      secrets=secrets, parties=self.parties, watch=watch)

    # -- escrow --------------------------------------------------------------------------------

    def _deal_shares(self) -> None:
        """Once every party's escrow key is in: split our secret among the others, each
        share sealed to its holder (once)."""
        if self._shares_sent or len(self.escrow_keys) < self.parties or self.secret is None:
            return
        self._shares_sent = True
        holders = [p for p in range(self.parties) if p != self.me]
        shares = mp.escrow_shares(self.secret, holders)
        sealed = []
        for holder in holders:
            ephemeral, box = mp.seal_share(self.secret, holder, self.escrow_keys[holder],
                                           shares[holder])
            sealed.append(EscrowShare(holder, ephemeral, box,
                                      mp.share_commitment(shares[holder])))
        msg = EscrowShares(self.me, tuple(sealed))
        self._escrow[self.me] = {s.holder: s for s in sealed}
        self.out.broadcast(msg)
        self.out.keep(msg, self.me)
        self.pump()

    def on_escrow_key(self, party: int, msg: EscrowKey) -> str | None:
        """``party``'s escrow key; why it is refused, or None."""
        if msg.party != party:
            return f"party {party} cannot publish party {msg.party}'s escrow key"
        if not self.escrowed:
            return "a table of two parties escrows nothing"
        if not mp.valid_point(msg.key):
            self._halt(f"party {party}'s escrow key is not a valid point", party)
            return None
        if self.escrow_keys.get(party, msg.key) != msg.key:
            self._halt(f"party {party} published two different escrow keys", party)
            return None
        if party not in self.escrow_keys:
            self.escrow_keys[party] = msg.key
            self.out.keep(msg, party)
        self._deal_shares()
        return None

    def on_escrow_shares(self, party: int, msg: EscrowShares) -> str | None:
        """``party``'s sealed shares of its secret; why they are refused, or None."""
        if msg.party != party:
            return f"party {party} cannot deal party {msg.party}'s shares"
        if not self.escrowed:
            return "a table of two parties escrows nothing"
        if [s.holder for s in msg.shares] != [p for p in range(self.parties) if p != party]:
            return "escrow shares go one to each other party"
        shares = {s.holder: s for s in msg.shares}
        if self._escrow.get(party, shares) != shares:
            self._halt(f"party {party} dealt two different sets of escrow shares", party)
            return None
        if party not in self._escrow:
            self._escrow[party] = shares
            self.out.keep(msg, party)
        self.pump()
        return None

    def can_recover(self, party: int) -> bool:
        """True when the other parties can recover ``party``'s secret together: the table
        escrows, and ``party`` dealt its shares."""
        return self.escrowed and party in self._escrow and party != self.me

    def recover(self, party: int) -> None:
        """A takeover of ``party``'s seat passed: open the shares of its secret we can (ours,
        and those sealed to parties whose secret we recovered before) to every party.  A
        party taken over again after a reclaim is absent again at once (its secret is
        known): the lowest party present makes its passes from the next one due."""
        if party in self.recovered and party != self.me:
            self.absent.add(party)
            self.out.recovered(party)
            self.pump()
            return
        if not self.can_recover(party):
            return
        self.absent.add(party)
        for holder, share in sorted(self._escrow[party].items()):
            if holder == self.me and self.secret is not None:
                opener = self.secret
            elif holder in self.recovered:
                opener = self.recovered[holder]
            else:
                continue
            opened = mp.open_share(opener, share.ephemeral, share.sealed)
            msg = EscrowOpen(party, holder, opened)
            self.out.broadcast(msg)
            self.out.keep(msg, self.me)
            self._take_share(msg)
        self.pump()

    def on_escrow_open(self, party: int, msg: EscrowOpen) -> str | None:
        """A share of a departed party's secret, opened by ``party``'s peer.  Shares of our
        own secret (opened while a bot ran our seat, sent again as we return) are ignored:
        we hold our secret, and are not absent (§10.11)."""
        if msg.party == self.me:
            return None
        if msg.party not in self._escrow or msg.holder not in self._escrow[msg.party]:
            return f"no share of party {msg.party}'s secret was sealed to party {msg.holder}"
        if msg.holder != party and msg.holder not in self.recovered:
            return f"party {party} cannot open the share sealed to party {msg.holder}"
        if mp.share_commitment(msg.share) != self._escrow[msg.party][msg.holder].commitment:
            self._halt(f"party {party} opened a wrong share of party {msg.party}'s secret",
                       party)
            return None
        self.out.keep(msg, party)
        self._take_share(msg)
        self.pump()
        return None

    def _take_share(self, msg: EscrowOpen) -> None:
        shares = self._open_shares.setdefault(msg.party, {})
        shares[msg.holder] = msg.share
        if msg.party in self.recovered or len(shares) < self.parties - 1:
            return
        secret = mp.PeerSecret(mp.combine_shares(shares[h] for h in sorted(shares)))
        for deck in self.decks.values():
            for step in deck.steps:
                if step.phase == mp.REKEY and step.party == msg.party and not mp.check_key(
                        secret.card_key(deck.job.entry, deck.job.draw, 0), step.commitments[0]):
                    self._halt(f"party {msg.party}'s escrowed secret does not open its cards: "
                               "it dealt wrong shares", msg.party)
                    return
        self.recovered[msg.party] = secret
        self.absent.add(msg.party)
        self.out.recovered(msg.party)

    def seat_moved(self, seat: int) -> None:
        """``seat`` changed hands (a takeover, a handback): show its new holder the cards
        the seat sees."""
        tokens = sorted(self.table.seen_by(seat) - self.table.public.keys())
        holder = self.party_of(seat)
        if holder == self.me:
            for card in tokens:
                self._want_mine.add(card)
                self._key(card)
        elif tokens and holder not in self.absent:
            self.out.send(holder, CardKeys(tuple(self._key(card) for card in tokens)))
        self.pump()

    def progress(self) -> tuple[int, ...]:
        """Where the sealed deck stands (it moved when this changed): entries, escrow, passes,
        keys, disclosed secrets."""
        return (self.table.index, len(self.escrow_keys), len(self._escrow),
                sum(len(d.steps) for d in self.decks.values()),
                sum(len(k) for k in self._keys.values()), len(self.table.public),
                len(self.disclosed), len(self._want_public), len(self._want_mine))

    def settled(self) -> bool:
        """Nothing more to come: the table rests, or the game is over and every secret is
        in (or the table halted)."""
        if self.halted:
            return True
        if self.table.over():
            return self.all_disclosed
        return self.quiet()

    def returned(self, party: int) -> None:
        """A departed party is back (a reclaim): it makes its own passes again, from the
        next pass not made yet (those made for it meanwhile stand: they are the ones it
        would make, §10.11), and its keys count only once it sends them."""
        self.absent.discard(party)

    def held(self, seen: int = 0) -> SealHeld:
        """What this peer holds of the sealed deck, for its heartbeats (docs/protocol.md
        §10.8): every pass of every deck (those held for their turn, and for decks not
        reached yet, included), the cards it waits to open with the parties whose key it
        lacks (a public key, while the card is being shown to everyone), and the escrow keys,
        shares and secrets in.  ``seen``: the seq of the last envelope from its receiver."""
        decks: list[DeckHeld] = []
        for key in sorted(self.decks.keys() | self._early_steps.keys()):
            deck = self.decks.get(key)
            steps = ([*deck.steps, *deck.held.values()] if deck is not None
                     else self._early_steps[key])
            if steps:
                decks.append(DeckHeld(key[0], key[1], *(
                    _mask(s.party for s in steps if s.phase == name)
                    for name in (mp.RELOCK, mp.LOCK, mp.REKEY))))
        wants: list[CardWant] = []
        for card in sorted(self._want_public | self._want_mine):
            keys = self._keys_for(card)
            sent = self._public_from.get(card, set()) | self.absent
            public = card in self._want_public
            lacking = sum(1 << p for p in range(self.parties) if p != self.me
                          and (p not in keys or (public and p not in sent)))
            if lacking:
                wants.append(CardWant(*card, lacking))
        return SealHeld(seen, tuple(decks[-MAX_HELD:]), tuple(wants[:MAX_HELD]),
                        _mask(self.escrow_keys), _mask(self._escrow), _mask(self.disclosed))

    def resend(self, party: int | None = None) -> None:
        """Send again what this peer made that ``party`` (None: every other) may lack — a
        returning peer, or one back from a cut link: our passes, our escrow, our keys for
        the cards shown to all or to its seats.  Receivers ignore what they have."""
        if self.secret is None:
            return
        if party is not None:
            for body in self.repeats(party):
                self.out.send(party, body)
            return
        for body in self._made(None, None):
            self.out.broadcast(body)
        for holder in range(self.parties):
            if holder != self.me and holder not in self.absent:
                keys = self._private(holder, None)
                if keys:
                    self.out.send(holder, CardKeys(keys))

    def repeats(self, party: int, held: SealHeld | None = None) -> list[SealBody]:
        """What to send ``party`` again (`resend`): everything we made that it may lack, or,
        given what it holds (``held``, from its heartbeat), only what it lacks — our passes it
        does not hold, our escrow key, shares and secret if it lacks them, and our keys for
        the cards it waits to open (docs/protocol.md §10.8)."""
        if self.secret is None or party == self.me:
            return []
        out = self._made(party, held)
        if party not in self.absent:
            keys = self._private(party, held)
            if keys:
                out.append(CardKeys(keys))
        return out

    def _made(self, party: int | None, held: SealHeld | None) -> list[SealBody]:
        """Our passes, escrow, opened shares, public keys and secret, for ``party`` (None:
        everyone) less what ``held`` says it holds."""
        me = self.me
        have = {d.deck: d for d in held.decks} if held is not None else {}
        out: list[SealBody] = []
        for deck in self.decks.values():
            got = have.get((deck.job.entry, deck.job.draw))
            out += [_message(deck.job, s) for s in deck.steps if self.maker(s.party) == me
                    and (got is None or not _passes(got, s.phase) >> s.party & 1)]
        if me in self.escrow_keys and not (held is not None and held.escrow_keys >> me & 1):
            out.append(EscrowKey(me, self.escrow_keys[me]))
        if me in self._escrow and not (held is not None and held.escrow_shares >> me & 1):
            shares = self._escrow[me]
            out.append(EscrowShares(me, tuple(shares[h] for h in sorted(shares))))
        for dealer in sorted(self.absent - {party}):  # the shares we opened for a takeover
            opened = self._open_shares.get(dealer, {})
            out += [EscrowOpen(dealer, holder, opened[holder]) for holder in sorted(opened)
                    if holder == me or holder in self.recovered]
        public = sorted(self._sent_public if held is None
                        else self._sent_public & _wanted_from(held, me))
        if public:
            out.append(CardKeys(tuple(self._key(card) for card in public), public=True))
        if self._disclosing and not (held is not None and held.disclosed >> me & 1):
            out.append(Disclose(me, self._secret_of(me).secret))
        return out

    def _private(self, holder: int, held: SealHeld | None) -> tuple[CardKey, ...]:
        """Our keys for the cards ``holder``'s seats are shown (not to all), or of those the
        ones ``held`` says it waits for and has no public key of ours for."""
        cards = {card for seat in range(self.table.players) if self.party_of(seat) == holder
                 for card in self.table.seen_by(seat)} - self.table.public.keys()
        if held is not None:
            cards &= _wanted_from(held, self.me)
            cards -= self._sent_public
        return tuple(self._key(card) for card in sorted(cards))

    def _halt(self, message: str, party: int | None) -> None:
        if self.halted:
            return
        self.halted = True
        self.out.halt(message, party)


def _message(job: ShuffleJob, step: mp.Step) -> ShuffleStep:
    return ShuffleStep(job.entry, job.draw, _PHASES[step.phase], step.party,
                       b"".join(step.points), b"".join(step.commitments))


def _mask(parties: Iterable[int]) -> int:
    """A set of parties as a bit mask."""
    return sum(1 << p for p in set(parties))


def _passes(deck: DeckHeld, phase: str) -> int:
    """The parties whose ``phase`` pass a `DeckHeld` says are held."""
    return {mp.RELOCK: deck.relock, mp.LOCK: deck.lock, mp.REKEY: deck.rekey}[phase]


def _wanted_from(held: SealHeld, party: int) -> set[Key]:
    """The cards ``held`` says its sender waits for ``party``'s key to."""
    return {w.card for w in held.wants if w.parties >> party & 1}


def _split(packed: bytes) -> tuple[bytes, ...]:
    return tuple(packed[i:i + 32] for i in range(0, len(packed), 32))

