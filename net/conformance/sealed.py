"""The checker's own party in a sealed deck (docs/protocol.md §10), and what it checks of
the peer under test's sealed messages.

`DeckCheck` is a strict counterpart for one peer under test at a sealed table of two
parties.  Its own part is the reference one (`hedgerow.net.sealing.Sealing` over a
`hedgerow.core.sealedtable.SealedTable`: its passes, keys and secret follow §10.3-§10.9 to
the byte), sent by the checker's raw `Driver`; everything the peer sends is checked here
before the reference takes it, and a fault the reference would halt on is a `Deviation`:

* a `ShuffleStep` (§10.5, §10.13): the peer's own party, a slot of the shuffle, the deck's
  size, one commitment per point in a rekey pass, every point and commitment valid, no two
  points alike (a dropped or duplicated card), an identical repeat or nothing;
* `CardKeys` (§10.6): each key matches the commitment of the peer's rekey pass; a private
  key is only for a card the rules show the checker's seat, a public one only for a card
  they show every seat (checked against the whole game at its end, `secrecy`: a key for a
  card the rules never showed is a leak);
* the cards an action shows (§10.7: `CardReveal`, every party's key, checked and opened);
* `Disclose` (§10.9): the peer's party and secret, then the whole game verified with both
  secrets (`hedgerow.net.sealverify`: every pass follows from its party's secret, the deal
  is known, every action replays legal with every card known).

It also says what the checker *sends*: `fault` replaces one of its honest messages by the
faulty one a hostile probe needs (a pass with a card duplicated, a wrong key, a wrong
secret), and `withhold` keeps its first pass that follows one of the peer's back, so that
the peer's deck stands still and its repeats can be seen (§10.8).
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hedgerow.core.sealed import Key
from hedgerow.core.sealedtable import SealedTable
from hedgerow.core.table import Applied
from hedgerow.net import mentalpoker as mp
from hedgerow.net.messages import (
    CardKey,
    CardKeys,
    CardReveal,
    DeckHeld,
    Disclose,
    EscrowKey,
    EscrowOpen,
    EscrowShares,
    SealBody,
    SealHeld,
    SealRecord,
    ShufflePhase,
    ShuffleStep,
)
from hedgerow.net.sealing import Sealing
from hedgerow.net.sealverify import Verdict

from .driver import Driver
from .report import Deviation

#: The hostile faults a run may provoke once (``--halt``): each halts the table (§10.10).
FAULTS: dict[str, tuple[str, str]] = {
    "bad-shuffle": ("10.5", "a pass with a card duplicated: the peer halts"),
    "wrong-key": ("10.6", "a card key not its commitment: the peer halts"),
    "unheld-card": ("10.7", "an action with a card not held: the peer halts"),
    "bad-disclosure": ("10.9", "a secret that breaks its passes: the peer halts"),
}
#: The scenarios of the sealed deck that run before the game: name -> (section, what).
SEALED_START: dict[str, tuple[str, str]] = {
    "sealed-shuffle": ("10.5", "the deal's shuffle: each pass of the peer's"),
    "sealed-repeat": ("10.8", "a stalled shuffle: its passes again, waiting"),
    "sealed-keys": ("10.6", "the deal's cards open with the peer's keys"),
}
#: The sealed probes at the checker's first turn.
SEALED_PROBES: dict[str, tuple[str, str]] = {
    "refuse-bad-points": ("10.13", "a pass with a broken point: MALFORMED"),
    "refuse-no-party": ("10.13", "a pass of a party not seated: WRONG_PHASE"),
    "refuse-undealt-key": ("10.13", "a key for a card no deck has: WRONG_PHASE"),
    "refuse-other-secret": ("10.13", "the peer's party disclosed: WRONG_PHASE"),
    "refuse-escrow": ("10.13", "an EscrowKey at a table of two: WRONG_PHASE"),
}
#: The sealed scenarios once the game is over (and the hostile faults, one a run).
SEALED_END: dict[str, tuple[str, str]] = {
    "sealed-disclose": ("10.9", "the peer's secret: the whole game verifies"),
    "sealed-secrecy": ("10.6", "every key the peer sent: a card shown"),
    **{f"halt-{name}": what for name, what in FAULTS.items()},
}
#: Every sealed scenario's name.
SEALED = {**SEALED_START, **SEALED_PROBES, **SEALED_END}
PHASE_NAMES = {ShufflePhase.RELOCK: mp.RELOCK, ShufflePhase.LOCK: mp.LOCK,
                ShufflePhase.REKEY: mp.REKEY}
_PHASES = {v: k for k, v in PHASE_NAMES.items()}


@dataclass(slots=True)
class Tally:
    """What was checked of the peer's sealed messages, for the report lines."""

    passes: int = 0  # distinct passes of the peer's, checked on arrival
    private: set[Key] = field(default_factory=set)  # cards it sent the checker a key for
    public: set[Key] = field(default_factory=set)  # cards it sent everyone its key for
    attached: set[Key] = field(default_factory=set)  # cards its actions showed
    repeats: int = 0  # identical repeats of what it sent before


class DeckCheck:
    """The checker's party at a sealed table of two parties (see the module docstring).

    ``me`` and ``peer`` are the two parties (by lowest seat, §10.3), ``party_of`` maps a
    seat to its party, ``peer_key`` is the peer under test's key.  ``fault`` names the one
    hostile fault (`FAULTS`) to provoke, or is empty."""

    def __init__(self, driver: Driver, table: SealedTable, *, table_id: bytes, me: int,
                 peer: int, peer_key: bytes, party_of: Callable[[int], int],
                 fault: str = "") -> None:
        self.driver = driver
        self.table = table
        self.me, self.peer, self.peer_key = me, peer, peer_key
        self.fault = fault
        self.secret = mp.PeerSecret(secrets.token_bytes(mp.SECRET))
        self.sealing = Sealing(table, table_id=table_id, parties=2, me=me,
                               secret=self.secret, party_of=party_of, out=self)
        self.tally = Tally()
        #: Entries the sealed deck added (chance entries resolved once a shuffle is done).
        self.added: list[Applied] = []
        #: Every distinct sealed message the peer sent, as first received.
        self.received: list[SealBody] = []
        #: Every sealed message the checker sent (faulty ones included), in order.
        self.sent: list[SealBody] = []
        self.disclosed: bytes | None = None  # the peer's secret
        self.halted: Deviation | None = None  # what made the checker's reference halt
        self._section = "10"
        # -- the repeat scenario (§10.8): the checker's first pass after one of the peer's
        self.withhold = False
        self.withheld: ShuffleStep | None = None
        #: (entry, draw, phase, party): a pass of the peer's the checker's heartbeats say
        #: it lacks, while the repeat scenario waits for it again.
        self.lacking: tuple[int, int, str, int] | None = None
        # -- the hostile fault, once it is on the wire
        self.faulted: SealBody | None = None
        self.held_disclose: Disclose | None = None  # the bad secret, until the end report
        self.honest_disclose: Disclose | None = None  # and the true one it stands for

    # -- SealOut: what the reference party asks ----------------------------------------

    def send(self, party: int, body: SealBody) -> None:
        assert party == self.peer
        if self.fault == "wrong-key" and self.faulted is None and isinstance(body, CardKeys):
            # The wrong key, then the right one: a peer that ignored the first would play on.
            # (The first key of either kind: a game may never show the peer's seat a card
            # of the checker's privately; FLOWERS seldom does.)
            wrong = _wrong_key(body)
            self._faulted(wrong)
            self.sent.append(wrong)
            self.driver.send(self.peer_key, wrong)
        self.sent.append(body)
        self.driver.send(self.peer_key, body)

    def broadcast(self, body: SealBody) -> None:
        if self.fault == "wrong-key" and self.faulted is None and isinstance(body, CardKeys):
            self.send(self.peer, body)  # (a key to every party: the peer's is its seat's)
            return
        if isinstance(body, ShuffleStep):
            if self.withhold and self.withheld is None and self.tally.passes \
                    and self.fault != "bad-shuffle":  # (its first pass is the fault)
                self.withheld = body  # sent once the peer's repeats are seen
                return
            if self.fault == "bad-shuffle" and self.faulted is None:
                body = _duplicated(body)
                self._faulted(body)
        elif isinstance(body, Disclose) and self.fault == "bad-disclosure" \
                and self.faulted is None:
            # Sent once the peer's end report is in (`send_bad_disclosure`): the halt it
            # causes must not cut the report short.
            self.held_disclose = Disclose(body.party, bytes(b ^ 0x5A for b in body.secret))
            self.honest_disclose = body
            return
        self.sent.append(body)
        self.driver.send(self.peer_key, body)

    def halt(self, message: str, party: int | None) -> None:
        who = "the peer under test" if party == self.peer else "nobody yet"
        self.halted = Deviation(self._section, "sealed-deck messages the checker's reference "
                                "party takes", f"{message} (it named {who})")

    def keep(self, body: SealBody, party: int) -> None:
        """(The checker writes no log.)"""

    def applied(self, entries: object) -> None:
        assert isinstance(entries, tuple | list)
        self.added.extend(entries)

    def opened(self) -> None:
        """(The play loop looks at the table after every message.)"""

    def recovered(self, party: int) -> None:
        """(No escrow at a table of two parties.)"""

    def _faulted(self, body: SealBody) -> None:
        self.faulted = body

    # -- the checker's own moves -------------------------------------------------------

    def held(self, seen: int) -> SealHeld:
        """What the checker's heartbeats say it holds of the deck (§10.8): the truth, but
        for the pass `lacking` names (the repeat scenario asks for it again)."""
        held = self.sealing.held(seen)
        if self.lacking is None:
            return held
        entry, draw, phase, party = self.lacking
        decks = tuple(DeckHeld(d.entry, d.draw,
                               *(getattr(d, name) & ~(1 << party) if name == phase
                                 and (d.entry, d.draw) == (entry, draw)
                                 else getattr(d, name) for name in ("relock", "lock", "rekey")))
                      for d in held.decks)
        return dataclasses.replace(held, decks=decks)

    def send_bad_disclosure(self) -> None:
        """The fault ``bad-disclosure``: the checker's secret, changed (§10.9)."""
        body = self.held_disclose
        if body is not None and self.faulted is None:
            self._faulted(body)
            self.sent.append(body)
            self.driver.send(self.peer_key, body)

    def send_honest_disclosure(self) -> None:
        """The true secret after all, when ``bad-disclosure`` does not apply (a game with no
        deck: no pass for a changed secret to break)."""
        body, self.held_disclose = self.honest_disclose, None
        if body is not None:
            self.sent.append(body)
            self.driver.send(self.peer_key, body)

    def release(self) -> None:
        """Send the pass held back for the repeat scenario."""
        if self.withheld is not None:
            body, self.withheld = self.withheld, None
            self.withhold = False
            self.broadcast(body)

    def pump(self) -> None:
        """Let the reference party do what is due (passes, keys, the secret at the end)."""
        self.sealing.pump()
        self._raise()

    def _raise(self) -> None:
        if self.halted is not None:
            raise self.halted

    # -- what the peer sends -------------------------------------------------------------

    def take(self, body: SealBody) -> None:
        """A sealed message from the peer under test: checked, then taken by the reference
        party; a `Deviation` at the first fault."""
        repeat = body in self.received
        if not repeat:
            self.received.append(body)
        else:
            self.tally.repeats += 1
        if isinstance(body, ShuffleStep):
            self._section = "10.5"
            self._step(body, repeat)
        elif isinstance(body, CardKeys):
            self._section = "10.6"
            self._keys(body)
        elif isinstance(body, Disclose):
            self._section = "10.9"
            _ensure(body.party == self.peer, "10.9", f"a Disclose of the peer's own party "
                    f"{self.peer}", f"party {body.party}")
            _ensure(self.disclosed in (None, body.secret), "10.9", "one secret (a repeat "
                    "identical)", "a second, different secret")
            self.disclosed = body.secret
        elif isinstance(body, EscrowKey | EscrowShares | EscrowOpen):
            raise Deviation("10.11", "no escrow at a table of two parties",
                            type(body).__name__)
        refused = self.sealing.on_body(self.peer, body)
        self._raise()
        if refused is not None:
            raise Deviation(self._section, f"a {type(body).__name__} the checker can take "
                            "(§10.13)", refused)
        self.sealing.pump()
        self._raise()

    def _step(self, msg: ShuffleStep, repeat: bool) -> None:
        _ensure(msg.party == self.peer, "10.13", f"passes of the peer's own party "
                f"{self.peer} only (it makes no other party's, §10.11)", f"party {msg.party}")
        deck = self.sealing.decks.get((msg.entry, msg.draw))
        if deck is None:
            if msg.entry < self.table.index:  # a deck the checker's table never had
                raise Deviation("10.5", f"a pass of a shuffle of the game (entry "
                                f"#{msg.entry}, draw {msg.draw})", "no such shuffle")
            return  # for a deck the checker has not reached yet: held (§10.5)
        step = mp.Step(PHASE_NAMES[msg.phase], msg.party, _split(msg.points),
                       _split(msg.commitments))
        slot = (step.phase, step.party)
        _ensure(slot in deck.passes, "10.5", f"one of the shuffle's passes {deck.passes}",
                slot)
        try:
            mp.check_step(step, len(deck.items))
        except mp.MentalPokerError as exc:
            raise Deviation("10.5", f"a {step.phase} pass of {len(deck.items)} distinct valid "
                            f"points (entry #{msg.entry}, draw {msg.draw})",
                            str(exc)) from None
        made = deck.passes.index(slot)
        if made < len(deck.steps):
            _ensure(deck.steps[made] == step, "10.5", f"an identical repeat of its "
                    f"{step.phase} pass", "a second, different pass for the same slot")
        elif not repeat:
            self.tally.passes += 1

    def _keys(self, msg: CardKeys) -> None:
        for key in msg.keys:
            (self.tally.public if msg.public else self.tally.private).add(key.card)

    def attached(self, reveals: tuple[CardReveal, ...]) -> None:
        """Cards one of the peer's actions shows (checked by `Sealing.open_attached`)."""
        self.tally.attached.update(r.card for r in reveals)

    # -- the end -------------------------------------------------------------------------

    def secrecy(self, seat: int) -> str:
        """Every key the peer sent opened a card the rules showed: a private one a card
        shown to the checker's ``seat``, a public one (or one an action attached) a card
        shown to every seat; a `Deviation` for a key the rules never called for (§10.6)."""
        table, tally = self.table, self.tally
        shown = table.opened[seat] | table.public.keys()
        leaked = sorted(tally.private - shown)
        _ensure(not leaked, "10.6", f"private keys only for cards the rules showed seat "
                f"{seat}", f"a key for the card {_card(leaked)} (never shown to it)")
        early = sorted((tally.public | tally.attached) - table.public.keys())
        _ensure(not early, "10.6", "public keys only for cards the rules showed every seat",
                f"a public key for the card {_card(early)} (never shown to all)")
        return (f"{len(tally.private)} private, {len(tally.public | tally.attached)} public "
                "keys: all cards shown")

    def log_complete(self, seals: Sequence[tuple[int, SealRecord]]) -> bool:
        """True once a log's seal records hold both secrets (the peer writes them last)."""
        return {r.party for _, r in seals if r.disclose is not None} >= {self.me, self.peer}

    def check_log(self, seals: Sequence[tuple[int, SealRecord]], entries: int) -> str:
        """The seal records of the peer's log (§10.8, §6): each holds one sealed message,
        at an index of the log, in order; every pass of every shuffle is there, with its
        party, and no other; both secrets, as disclosed; every key the checker sent the
        peer's seat (its cards: what it needs to resume) and every public key of both
        parties."""
        last = 0
        steps: set[tuple[int, ShuffleStep]] = set()
        keys: set[tuple[int, bool, CardKey]] = set()
        secrets_in: dict[int, bytes] = {}
        for _, record in seals:
            _ensure(record.problem() is None and last <= record.index <= entries, "10.8",
                    f"seal records of one message each, in order, at indices up to {entries}",
                    record)
            last = record.index
            body = record.body
            if isinstance(body, ShuffleStep):
                _ensure(record.party == body.party, "10.8", f"the record of a pass of party "
                        f"{body.party} made by that party", f"party {record.party}")
                steps.add((record.party, body))
            elif isinstance(body, CardKeys):
                keys.update((record.party, body.public, k) for k in body.keys)
            elif isinstance(body, Disclose):
                secrets_in[body.party] = body.secret
        made = {(step.party, ShuffleStep(deck.job.entry, deck.job.draw, _PHASES[step.phase],
                                         step.party, b"".join(step.points),
                                         b"".join(step.commitments)))
                for deck in self.sealing.decks.values() for step in deck.steps}
        _ensure(steps == made, "10.8", f"the {len(made)} passes of the game's shuffles, "
                "each once", f"{len(steps)} pass records, {len(made - steps)} missing, "
                f"{len(steps - made)} not of this game")
        want = {self.me: self.secret.secret, self.peer: self.disclosed}
        _ensure(secrets_in == want, "10.9", "both parties' secrets as disclosed",
                f"the secrets of parties {sorted(secrets_in)}"
                + (" (not the ones disclosed)" if secrets_in.keys() == want.keys() else ""))
        sent = {(self.me, m.public, k) for m in self.sent if isinstance(m, CardKeys)
                for k in m.keys}
        public = {(self.peer, True, k) for m in self.received
                  if isinstance(m, CardKeys) and m.public for k in m.keys}
        missing = (sent | public) - keys
        _ensure(not missing, "10.8", "a record of every key the peer's seat was sent and "
                "every public key", f"{len(missing)} keys not recorded")
        return f"{len(seals)} seal records"

    def verdict(self) -> Verdict:
        """The whole game verified with both secrets (§10.9)."""
        return self.sealing.verdict()


def _ensure(ok: bool, section: str, expected: str, got: object) -> None:
    if not ok:
        raise Deviation(section, expected, str(got))


def _split(packed: bytes) -> tuple[bytes, ...]:
    return tuple(packed[i:i + 32] for i in range(0, len(packed), 32))


def _card(keys: list[Key]) -> str:
    if not keys:
        return "none"
    entry, draw, pos = keys[0]
    more = f" and {len(keys) - 1} more" if len(keys) > 1 else ""
    return f"{entry}.{draw}.{pos}{more}"


def _duplicated(step: ShuffleStep) -> ShuffleStep:
    """``step`` with its first point in its second position too: a card duplicated, another
    dropped (§10.5: caught on arrival, two equal points)."""
    points = step.points[:32] * 2 + step.points[64:]
    return ShuffleStep(step.entry, step.draw, step.phase, step.party, points, step.commitments)


def _wrong_key(msg: CardKeys) -> CardKeys:
    """``msg`` with its first key replaced by another valid scalar than the one committed
    to (its double): a wrong key (§10.6)."""
    first = msg.keys[0]
    wrong = mp.smul(first.key, (2).to_bytes(32, "little"))
    return CardKeys((CardKey(first.entry, first.draw, first.pos, wrong), *msg.keys[1:]),
                    msg.public)
