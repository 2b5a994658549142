"""`SealedPlay`: the sealed deck as a phase of the peer — its messages, its log, its parties.

At a sealed table (docs/protocol.md §10) the table is a `SealedTable` and this peer's part in
the mental poker is a `hedgerow.net.sealing.Sealing`.  This object connects the two to the
peer: it draws and keeps the table's secret (`hedgerow.net.sealfile`) when the log is
created, starts the sealed messages once every peer has started the table, turns the
seating into parties (one per seated key, numbered by their lowest seat), sends and logs
what `Sealing` asks, hands it the sealed bodies that arrive, and tells play when cards are
opened (an action that waited for them goes on; the entries waiting for them are sealed).

Play (`hedgerow.net.sync.Sync`) asks it for the keys of the cards an action shows
(`reveals_for`) and to open the cards another seat's action shows (`open_attached`).  At
the end it verifies the game once every secret is in (`verdict`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealed import Key, Sealed
from hedgerow.core.sealedtable import Prepared, SealedTable
from hedgerow.core.table import Applied
from hedgerow.net import mentalpoker as mp
from hedgerow.net import sealfile
from hedgerow.net.context import (
    STALL_BACKOFF,
    STALL_BEATS,
    Decked,
    Keyed,
    Living,
    Seated,
    Speaking,
    Stall,
)
from hedgerow.net.logfile import LogReadResult, LogWriter
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    CardKeys,
    CardReveal,
    Disclose,
    Envelope,
    ErrorCode,
    EscrowKey,
    EscrowOpen,
    EscrowShares,
    PeerInfo,
    SealBody,
    SealHeld,
    SealRecord,
    ShuffleStep,
)
from hedgerow.net.sealing import Sealing
from hedgerow.net.sealreplay import SealedReplay, replay_sealed
from hedgerow.net.sealverify import Verdict
from hedgerow.net.seat import Link
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)


class SealContext(Speaking, Keyed, Seated, Living, Decked, Protocol):
    """What the sealed deck reads of the peer's shared state: who sits where, the log it
    writes its records to, and how to send and halt."""

    @property
    def table_id(self) -> bytes: ...

    @property
    def writer(self) -> LogWriter | None: ...

    @property
    def seq(self) -> int:
        """The seq of the last envelope this peer made."""


class SealedPlay:
    """The sealed deck of one peer's table (see the module docstring).

    ``applied(entries)``: chance entries the table added (play shows and seals them);
    ``opened()``: cards were opened (play retries what waited for them); ``author_of(seat)``:
    the seat whose peer plays ``seat`` now (a takeover moves it).
    """

    def __init__(self, ctx: SealContext, *, applied: Callable[[Sequence[Applied]], None],
                 opened: Callable[[], None], author_of: Callable[[int], int]) -> None:
        self.ctx = ctx
        self._applied = applied
        self._opened = opened
        self._author_of = author_of
        self.sealing: Sealing | None = None
        self._started = False
        self._resumed = False
        self._made: tuple[tuple[SealBody, int], ...] = ()
        self._agreed_end = False  # the table agreed to end the game here (§5.9)
        self.verdict: Verdict | None = None
        self._stall = Stall()  # the sealed deck standing still (`resend_stalled`)
        self._beat = 0  # heartbeats so far (`resend_stalled` counts them)
        #: party -> the beat we last sent it again what we made, and the beats to wait then
        self._answered: dict[int, tuple[int, int]] = {}
        #: party -> what its latest heartbeat says it holds (docs/protocol.md §10.8)
        self._held: dict[int, SealHeld] = {}
        #: party -> what we sent it (`_items`) -> the seq of the last envelope it went in
        self._sent: dict[int, dict[tuple[object, ...], int]] = {}

    # -- the parties ---------------------------------------------------------------------------

    def parties(self) -> list[bytes]:
        """The seated keys, by their lowest seat: party ``p`` is ``parties()[p]``."""
        roster = self.ctx.roster
        assert roster is not None
        keys: list[bytes] = []
        for member in sorted(roster, key=lambda m: m.seat):
            if member.key not in keys:
                keys.append(member.key)
        return keys

    def party_of_key(self, key: bytes) -> int:
        """The party of a seated key."""
        return self.parties().index(key)

    def party_of(self, seat: int) -> int:
        """The party that plays ``seat`` now (its own peer's, or its runner's)."""
        roster = self.ctx.roster
        assert roster is not None
        member = roster.by_seat(self._author_of(seat))
        assert member is not None
        return self.party_of_key(member.key)

    def _member(self, party: int) -> Member:
        roster = self.ctx.roster
        assert roster is not None
        key = self.parties()[party]
        member = roster.by_key(key)
        assert member is not None
        return member

    # -- starting ------------------------------------------------------------------------------

    def begin(self, table: SealedTable, log_path: Path, *, resumed: bool = False) -> None:
        """The table is built and its log open: draw the table's secret (or, resumed, read it
        back) and make this peer's `Sealing`."""
        secret = sealfile.load(log_path) if resumed else sealfile.create(log_path)
        parties = self.parties()
        self.sealing = Sealing(table, table_id=self.ctx.table_id, parties=len(parties),
                               me=parties.index(self.ctx.identity.public),
                               secret=mp.PeerSecret(secret), party_of=self.party_of, out=self)
        self._started = False

    def start(self) -> None:
        """Every peer has started the table: the sealed messages may flow (again, for a
        resumed peer: it sends what the others may lack)."""
        if self.sealing is not None and not self._started:
            self._started = True
            self.sealing.start()
            if self._resumed:
                for body, party in self._made:  # what it made before it died, unlogged
                    self.keep(body, party)
                self._made = ()
                self.sealing.resend()
                roster = self.ctx.roster
                assert roster is not None
                mine = set(roster.seats_of(self.ctx.identity.public))
                for seat in range(self.ctx.players):
                    if seat not in mine and self._author_of(seat) in mine:
                        self.sealing.seat_moved(seat)  # a seat our bot runs: its cards
            if self._agreed_end:
                self.sealing.disclose()

    def resume(self, log_path: Path, result: LogReadResult, peers: Sequence[PeerInfo],
               ruleset: Ruleset, me: bytes) -> SealedReplay:
        """Replay this peer's sealed log with its secret (`hedgerow.net.sealreplay`): the
        table and this peer's `Sealing`, from where the log ends."""
        keys: list[bytes] = []
        for info in sorted(peers, key=lambda p: p.seat):
            if info.public_key not in keys:
                keys.append(info.public_key)
        by_seat = {info.seat: keys.index(info.public_key) for info in peers}
        replay = replay_sealed(ruleset, result, parties=len(keys),
                               party_of=lambda seat: by_seat[self._author_of(seat)],
                               me=keys.index(me), secret=sealfile.load(log_path),
                               seats=sorted(s for s, p in by_seat.items() if keys[p] == me))
        if replay.sealing is not None and replay.mismatch is None:
            self.sealing = replay.sealing
            self.sealing.party_of = self.party_of
            self.sealing.out = self
            self._started = False
            self._resumed = True
            self._made = replay.made
        return replay

    def reset(self) -> None:
        """The seed agreement starts over: no table, no sealing (and nothing the peers said
        they held of the old one counts)."""
        self.sealing = None
        self._started = False
        self.verdict = None
        self._held.clear()
        self._sent.clear()

    # -- what play asks ------------------------------------------------------------------------

    def reveals_for(self, prepared: Prepared) -> tuple[CardReveal, ...]:
        """The keys that go with this peer's action for the cards it shows."""
        assert self.sealing is not None
        return self.sealing.reveals_for(prepared)

    def open_attached(self, seat: int, reveals: Sequence[CardReveal]
                      ) -> Mapping[Key, object] | str:
        """The faces of the cards ``seat``'s action shows, or why they do not open."""
        if not reveals:
            return {}
        assert self.sealing is not None
        return self.sealing.open_attached(self.party_of(seat), reveals)

    def share_public(self, tokens: Sequence[Sealed]) -> None:
        """The rules must read these cards before an action applies: open them to all."""
        if self.sealing is not None:
            self.sealing.share_public(tokens)
            self.sealing.pump()

    def waiting_seats(self) -> tuple[int, ...]:
        """The seats whose peers the table waits for (a shuffle pass, a card's key), when
        no seat acts: the table waits for them as for a seat on its turn."""
        if self.sealing is None or self.ctx.roster is None:
            return ()
        keys = self.parties()
        parties = self.sealing.waiting_on()
        return tuple(sorted(m.seat for m in self.ctx.roster
                            if m.key in keys and keys.index(m.key) in parties))

    def owed_to_me(self) -> bool:
        """True while cards this peer's seats must be shown are not open yet (or a chance
        waits for the deck: `chance_waits`)."""
        return self.sealing is not None and (self.sealing.owed_to_me() or self.chance_waits())

    def chance_waits(self) -> bool:
        """True while a chance entry waits for the deck: a shuffle, or a card it reads."""
        return self.sealing is not None and self.sealing.table.waiting is not None

    def unshown(self, seat: int) -> bool:
        """True while a card in ``seat``'s view is not open to this peer: the seat's legal
        actions cannot be listed yet (the rules may read any card of its hand).  So for a
        seat a bot just took over, until its peer's secret is recovered from the escrow
        (§10.11), and for a seat just handed back or dealt to, until every party's key to
        its new cards is in."""
        if self.sealing is None:
            return False
        table = self.sealing.table
        return any(card not in table.mine and card not in table.public
                   for card in table.seen_by(seat))

    def public_pending(self) -> bool:
        """True while cards every seat must see are not open yet (the entry that showed them
        is sealed, its hash sent, only then)."""
        return self.sealing is not None and self.sealing.public_pending()

    def state_after(self, applied: Applied) -> Any:
        """The public state the hash after ``applied``'s entry covers (`Sealing.state_after`;
        at a table with no sealed deck, the state after it)."""
        return applied.after if self.sealing is None else self.sealing.state_after(applied)

    def peer_back(self, key: bytes, *, restarted: bool = True) -> None:
        """The peer of ``key`` is back (it resumed, or its link returned): send it again
        what it may lack (`Sealing.resend`).  A peer whose link only came back is answered
        as a wait is (`asked_again`): a link so slow that the peer is lost and back again
        and again must not be filled with repeats."""
        if self.sealing is None or not self._started or key not in self.parties():
            return
        if restarted:  # what it held may be lost with its process: all again, once
            self._answered.pop(self.party_of_key(key), None)
            self._held.pop(self.party_of_key(key), None)
        self._answer(self.party_of_key(key), STALL_BEATS)

    def waiting(self, every: int = STALL_BEATS) -> bool:
        """True while the sealed deck has stood still for ``every`` beats with something
        still to come: our heartbeat then asks the others to send again what they made
        (``Heartbeat.waiting``, docs/protocol.md §10.8), for a message of theirs lost on a
        link that only they could see working."""
        return self._stall.still >= every

    def asked_again(self, key: bytes, every: int = STALL_BEATS) -> None:
        """The peer of ``key`` says its sealed deck waits (``Heartbeat.waiting``): send it
        again what we made (`_answer`)."""
        if self.sealing is None or not self._started or key not in self.parties():
            return
        self._answer(self.party_of_key(key), every)

    def _answer(self, party: int, every: int) -> None:
        """Send ``party`` again what we made: at once if we have not lately; else once
        ``every`` of our beats have passed since the last time, then twice as many, ... up
        to `STALL_BACKOFF` times ``every`` while it keeps asking (docs/protocol.md §10.8)."""
        assert self.sealing is not None
        if party == self.sealing.me:
            return
        last = self._answered.get(party)
        wait = every
        if last is not None:
            since, waited = self._beat - last[0], last[1]
            if since < waited:
                return
            if since <= 2 * waited:  # it kept asking: wait longer before the next time
                wait = min(2 * waited, STALL_BACKOFF * every)
        self._answered[party] = (self._beat, wait)
        held = self._held.get(party)
        for body in self.sealing.repeats(party, held):
            # (what it lacks, less what is still on its way to it)
            left = body if held is None else self._not_after(party, body, held.seen)
            if left is not None:
                self.send(party, left)

    def held_for(self, member: Member) -> SealHeld | None:
        """What our heartbeat to ``member`` says we hold of the sealed deck (None at an
        open table, or before the deck starts)."""
        if self.sealing is None or not self._started:
            return None
        return self.sealing.held(member.seq)

    def heard_held(self, key: bytes, held: SealHeld | None) -> None:
        """The peer of ``key`` says what it holds of the sealed deck (its heartbeat's
        ``held``; None: it does not say, and gets full repeats)."""
        if self.sealing is None or key not in self.parties():
            return
        party = self.party_of_key(key)
        if held is None:
            self._held.pop(party, None)
        else:
            self._held[party] = held

    def _not_after(self, party: int, body: SealBody, seen: int) -> SealBody | None:
        """``body`` less what we last sent ``party`` in an envelope after ``seen`` (it may
        still be on its way: a slow link holds seconds of messages); None if nothing is
        left."""
        sent = self._sent.get(party, {})
        if isinstance(body, CardKeys):
            keys = tuple(k for k in body.keys
                         if sent.get(("key", k.card, body.public), 0) <= seen)
            return CardKeys(keys, body.public) if keys else None
        return body if sent.get(_item(body), 0) <= seen else None

    def _record(self, party: int, body: SealBody) -> None:
        """``body`` went to ``party`` in our latest envelope."""
        sent = self._sent.setdefault(party, {})
        seq = self.ctx.seq
        if isinstance(body, CardKeys):
            for k in body.keys:
                sent[("key", k.card, body.public)] = seq
        else:
            sent[_item(body)] = seq

    def resend_stalled(self, every: int = STALL_BEATS) -> None:
        """Called once a heartbeat.  When the sealed deck has not moved for ``every`` beats
        while something is still to come (a pass, a key, the escrow, a secret at the end),
        send again what this peer made to every connected peer: a message sent while a link
        was still being made, or across a cut, may have been lost with neither side seeing
        the other lost.  Receivers ignore what they have (docs/protocol.md §10.10)."""
        self._beat += 1
        sealing, roster = self.sealing, self.ctx.roster
        if sealing is None or not self._started or roster is None or sealing.settled():
            self._stall.reset()
            return
        if not self._stall.due(sealing.progress(), every):
            return
        keys = self.parties()
        for party in sorted({keys.index(m.key) for m in roster.others()
                             if m.link == Link.CONNECTED and m.key in keys}):
            self._answer(party, every)  # (not again to one we just answered)

    def pump(self) -> None:
        """After the table changed: do what is now due."""
        if self.sealing is not None and self._started:
            self.sealing.pump()

    # -- receiving -----------------------------------------------------------------------------

    def on_body(self, rx: Received, env: Envelope, member: Member, body: SealBody) -> None:
        """A sealed message from a seated peer."""
        sealing = self.sealing
        if sealing is None:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_PHASE,
                            "this table has no sealed deck" if self.ctx.open_deck else
                            "a sealed-deck message before the table's seed is agreed")
            return
        refused = sealing.on_body(self.party_of_key(member.key), body)
        if isinstance(body, Disclose):
            self._check_end()
        if refused is not None:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_PHASE, refused)

    # -- the end -------------------------------------------------------------------------------

    def settled_end(self) -> bool:
        """At the end of a sealed game: the deck is verified (or the table halted), or every
        connected party has disclosed and nothing is left to open (a party that left before
        disclosing leaves the verification incomplete, and is not waited for)."""
        sealing, roster = self.sealing, self.ctx.roster
        if sealing is None or self.verdict is not None or sealing.halted:
            return True
        if roster is None or not sealing.quiet() or sealing.me not in sealing.disclosed:
            return False
        keys = self.parties()
        connected = {keys.index(m.key) for m in roster.others()
                     if m.link == Link.CONNECTED and m.key in keys}
        return connected <= sealing.disclosed.keys()

    def end_agreed(self) -> None:
        """The table agreed to end the game (docs/protocol.md §5.9): the hands are no
        longer secret, so each party discloses its secret as at a game's end (§10.9), and
        the game verifies as far as it went (fully once every party's secret is in: one
        that left before, and was not taken over, leaves it unverified)."""
        self._agreed_end = True
        if self.sealing is not None and self._started:
            self.sealing.disclose()
            self._check_end()

    def _check_end(self) -> None:
        sealing = self.sealing
        if sealing is None or self.verdict is not None or not sealing.all_disclosed:
            return
        if sealing.table.outcome() is None and not sealing.halted and not self._agreed_end:
            return
        self.verdict = sealing.verdict()
        log.info("sealed deck verified: %s", self.verdict.message)
        if not self.verdict.ok and not sealing.halted:
            self.ctx.halt(f"the game does not verify: {self.verdict.message}")
        self.ctx.notify()

    # -- SealOut: what `Sealing` asks --------------------------------------------------------------

    def send(self, party: int, body: SealBody) -> None:
        self.ctx.send(self._member(party), body)
        self._record(party, body)

    def broadcast(self, body: SealBody) -> None:
        self.ctx.broadcast(body)
        if self.sealing is not None:
            for party in range(self.sealing.parties):
                if party != self.sealing.me:
                    self._record(party, body)

    def halt(self, message: str, party: int | None) -> None:
        if party is not None:
            member = self._member(party)
            message = f"{member.label()} cheated: {message}"
        self.ctx.halt(message)

    def keep(self, body: SealBody, party: int) -> None:
        writer = self.ctx.writer
        sealing = self.sealing
        if writer is not None and not writer.closed and sealing is not None:
            writer.append_seal(SealRecord.of(party, body, sealing.table.index),
                               own=party == sealing.me)

    def applied(self, entries: Sequence[Applied]) -> None:
        self._applied(entries)

    def opened(self) -> None:
        self._opened()
        self._check_end()

    def recovered(self, party: int) -> None:
        log.info("party %d's secret recovered from the escrow", party)
        key = self.parties()[party]
        roster = self.ctx.roster
        assert roster is not None and self.sealing is not None
        for seat in roster.seats_of(key):
            self.sealing.seat_moved(seat)  # its runner is shown the seat's cards
        self.ctx.notify()

    # -- departures ------------------------------------------------------------------------------

    def takeover_problem(self, seat: int) -> str | None:
        """Why a bot cannot take ``seat`` here: at a sealed table of two parties nobody else
        holds the keys to its cards (docs/protocol.md §10.11); None when it can."""
        if self.sealing is None:
            return None
        if not self.sealing.escrowed:
            return ("a bot cannot take a seat at a sealed table of two players: nobody else "
                    "can open its cards (wait for the player, or end the game)")
        party = self._own_party(seat)
        if self.sealing.decks and not self.sealing.can_recover(party):
            return f"seat {seat}'s peer never escrowed its keys: a bot cannot open its cards"
        return None

    def taken_over(self, seat: int) -> None:
        """A takeover of ``seat`` passed: every remaining party opens its share of the
        departed peer's secret; once recovered, the runner is shown the seat's cards."""
        if self.sealing is None:
            return
        party, sealing = self._own_party(seat), self.sealing
        if party in sealing.recovered and party not in sealing.absent:
            sealing.recover(party)  # gone again after a reclaim: its secret is known
        elif party in sealing.recovered or not sealing.can_recover(party):
            sealing.seat_moved(seat)  # (no deck yet: nothing of its to open)
        else:
            sealing.recover(party)

    def handed_back(self, seat: int) -> None:
        """``seat`` is its own peer's again: it makes its own passes, and is shown the cards
        its seat was dealt while a bot played it."""
        if self.sealing is None:
            return
        self.sealing.returned(self._own_party(seat))
        self.sealing.seat_moved(seat)

    def _own_party(self, seat: int) -> int:
        """The party of ``seat``'s own peer (whoever plays it now)."""
        roster = self.ctx.roster
        assert roster is not None
        member = roster.by_seat(seat)
        assert member is not None
        return self.party_of_key(member.key)


def _item(body: SealBody) -> tuple[object, ...]:
    """What a sealed message is, for `SealedPlay._sent` (a `CardKeys` goes key by key)."""
    if isinstance(body, ShuffleStep):
        return ("pass", body.entry, body.draw, body.phase, body.party)
    if isinstance(body, EscrowOpen):
        return ("escrow-open", body.party, body.holder)
    if isinstance(body, (EscrowKey, EscrowShares, Disclose)):
        return (type(body).__name__, body.party)
    raise TypeError(f"no item for {type(body).__name__}")
