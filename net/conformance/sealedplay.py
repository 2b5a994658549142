"""A whole game at a sealed table (docs/protocol.md §10), played by the checker with the peer
under test, whichever side hosts: the sealed-deck scenarios and the sealed probes.

`SealedGame` takes over from `session.Session` once the seed is agreed, when the table's
fingerprint has no ``#open-deck``.  Its table is a `SealedTable` holding the checker's
seat, its party a `sealed.DeckCheck`.  Every frame of the peer's is handled in the order it
came (a sealed message may be what the next action needs, §10.7); play messages wait
while the table is held (a shuffle under way, cards every seat must see not open yet, an
action waiting for a public reveal round) and the checker acts only at a resting point,
with every card its seat is shown open (§10.7).  State hashes are the sealed ones
(§10.4), taken at resting points.

The scenarios, in the order they run:

* ``sealed-shuffle`` (§10.5): the first chance entry's shuffles, every pass of the peer's
  checked as it arrives (`DeckCheck`), the chance entry made with the decks' digests;
* ``sealed-repeat`` (§10.8, §5.8): in that shuffle the checker holds back its first pass
  that follows one of the peer's; the peer, whose deck stands still, sends its passes
  again, identical, and says ``waiting`` in its `Heartbeat`s; then the checker sends it;
* ``sealed-keys`` (§10.6): the cards the deal shows the checker's seat (and every seat)
  open with the peer's keys, each checked against its commitment;
* ``refuse-sealed-*`` (§10.13): at the checker's first turn, sealed bodies the peer must
  refuse and play on: a pass with a broken point (``MALFORMED``), a pass of a party that
  is not seated (party 2), a key for a card no deck holds, a `Disclose` of the peer's
  party, an `EscrowKey` at a table of two (each ``WRONG_PHASE``);
* the game (``play``), as at an open table, with the cards actions show (§10.7);
* ``sealed-disclose`` (§10.9), after the end report: the peer's `Disclose`; with both
  secrets the whole game verifies (every pass from its secret, the deal, every action);
* ``sealed-secrecy`` (§10.6, §10.1): every key the peer sent was for a card the rules
  showed (a private one to the checker's seat, a public one to every seat);
* ``halt-*`` (§10.10), with ``--halt FAULT`` only: the checker provokes one fault the
  table halts on (`sealed.FAULTS`); the peer must halt: it plays on no more (it may say
  so with `Leave(HALTED)`), and sends no `Error`.  The run ends there.

The `ILLEGAL` probe of an open table is no probe here: at a sealed table an action the
rules refuse halts the table (§10.7); ``--halt unheld-card`` checks that.  A simultaneous
step is played as at an open table, its reveals carrying the keys of the cards they show.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import secrets
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.sealed import Key, Sealed, tokens_in
from hedgerow.core.sealedtable import SealedTable, Waiting
from hedgerow.core.table import Applied
from hedgerow.net.logfile import LogReadResult
from hedgerow.net.messages import (
    PROTOCOL_VERSION,
    ActionCommit,
    ActionMsg,
    ActionReveal,
    CardKey,
    CardKeys,
    Disclose,
    ErrorCode,
    ErrorMsg,
    EscrowKey,
    EscrowOpen,
    EscrowShares,
    Heartbeat,
    Leave,
    LeaveReason,
    SealHeld,
    ShuffleStep,
    StateHash,
    action_commitment,
)

from .driver import Incoming, describe
from .report import Deviation, NotApplicable, Result, Unsupported, Verdict
from .sealed import FAULTS, PHASE_NAMES, SEALED_PROBES, DeckCheck
from .session import RETURN_AT

if TYPE_CHECKING:
    from hedgerow.core.ruleset import Ruleset

    from .session import Session

#: Why the shuffle scenarios and the sealed probes do not apply to a game without a deck.
NO_DECK = "the game shuffles no deck before play"
#: Why a fault of the deck (a pass, a key, a secret that breaks its passes) does not apply
#: in a game that shuffled no deck at all (Goofspiel).
NO_DECK_FAULT = "the game shuffled no deck: no pass, no key"
#: How long the peer's repeats of a stalled shuffle are waited for, at least (§5.8: 3
#: heartbeats, counted from a beat that may come a second late; and a margin).
STALL_WAIT = 6.0


class _Halted(Exception):
    """The peer under test halted after the hostile fault: how it showed."""


class _Stop(Exception):
    """The run ends at the hostile fault (its scenario is recorded)."""


class SealedGame:
    """The sealed table of one run (see the module docstring).  ``fault``: the hostile
    fault to provoke (a key of `sealed.FAULTS`), or empty."""

    def __init__(self, session: Session, fault: str = "") -> None:
        if fault and fault not in FAULTS:
            raise ValueError(f"no sealed fault {fault!r}: {', '.join(FAULTS)}")
        self.s = session
        self.fault = fault
        self.table: SealedTable | None = None
        self.check: DeckCheck | None = None
        self.unsealed: deque[Applied] = deque()  # applied, not hashed yet
        self.retries: list[Callable[[], bool]] = []  # actions waiting for cards to open
        self.pending: deque[Incoming] = deque()  # the peer's actions not applied yet
        self.expect_halt = False  # the fault is out: the peer must move on no more
        self.waiting_seen = False  # the peer's Heartbeat said `waiting` (§10.8)
        self.after_ours = False  # the checker moved last (the out-of-turn probe's moment)
        self.started = False  # the sealed deck started (the heartbeats carry `held`)

    def held(self, key: bytes) -> SealHeld | None:
        """What the checker's heartbeat to ``key`` says it holds of the sealed deck, once
        the deck has started (§10.8), with the highest seq it had from ``key``."""
        if self.check is None or not self.started:
            return None
        return self.check.held(self.s.driver.seen.get(key, 0))

    def asked(self, name: str) -> bool:
        """True for a sealed scenario this run reports (the one ``--halt`` fault only)."""
        return not name.startswith("halt-") or name == f"halt-{self.fault}"

    # -- the table -------------------------------------------------------------------------

    def new_table(self, ruleset: Ruleset, seed: bytes) -> SealedTable:
        """The checker's table once the seed is agreed, and its party."""
        s = self.s
        seats = s._seats()
        assert seats.players == 2, "the checker plays sealed tables of two seats"
        table = SealedTable(ruleset, seats.players, seed, seats=[seats.seat])
        peer_seat = next(seat for seat, key in seats.holders.items() if key == s.peer)
        self.check = DeckCheck(s.driver, table, table_id=s.driver.table_id, me=seats.seat,
                               peer=peer_seat, peer_key=s.peer, party_of=lambda seat: seat,
                               fault=self.fault)
        self.table = table
        return table

    def _deck(self) -> DeckCheck:
        assert self.check is not None
        return self.check

    def _table(self) -> SealedTable:
        assert self.table is not None
        return self.table

    # -- the game ------------------------------------------------------------------------

    async def play(self) -> str:
        """The game (the ``play`` scenario), with the sealed scenarios at their moments."""
        s, table, check = self.s, self._table(), self._deck()
        try:
            # The entries the table opened with (chance with no shuffle), hashed again as a
            # sealed table hashes them (§10.4), at their resting point.
            del s.ours[:]
            self.unsealed.extend(table.opening)
            check.withhold = True
            check.sealing.start()
            self.started = True
            await self._progress()
            if not await s._scenario("sealed-shuffle", self._deal):
                if check.sealing.decks:
                    raise Unsupported("not reached: sealed-shuffle did not pass")
                for name in ("sealed-repeat", "sealed-keys"):  # (a game with no deck)
                    s._scenario_na(name, NO_DECK)
            elif not await s._scenario("sealed-keys", self._keys):
                raise Unsupported("not reached: sealed-keys did not pass")
            await self._until(lambda: table.over() and self._at_rest()
                              and check.sealing.quiet(), "the peer's next move")
        except _Stop:
            s.stopped = f"the run ended at --halt {self.fault}"
            raise NotApplicable(s.stopped) from None
        return f"{table.index} entries ({check.tally.passes} passes of the peer's), all agree"

    async def _deal(self) -> str:
        check = self._deck()
        decks = check.sealing.decks.values()
        table = self._table()
        await self._until(lambda: not self._shuffling() and (
            any(d.done for d in decks) or (not decks and bool(table.active_seats()))),
            "the deal's shuffle: the peer's next pass")
        if not decks:
            raise NotApplicable(NO_DECK)
        check.release()
        return (f"{check.tally.passes} passes of the peer's checked, "
                f"{sum(d.done for d in decks)} deck(s) made")

    async def _keys(self) -> str:
        table, check = self._table(), self._deck()
        await self._until(lambda: self._at_rest() and not check.sealing.owed_to_me(),
                          "the peer's keys for the cards the deal shows")
        seat = self.s._seats().seat
        mine = len(table.opened[seat] - table.public.keys())
        return f"{mine} cards of seat {seat}'s, {len(table.public)} public: keys match"

    async def _repeat(self) -> str:
        """The checker's pass is held back, and its heartbeats say it lacks the peer's
        latest pass: the peer's deck stands still, so it sends that pass again, identical,
        and its heartbeats set ``waiting`` and say in ``held`` which passes it holds
        (§10.8)."""
        s, check = self.s, self._deck()
        before = check.tally.repeats
        last = [m for m in check.received if isinstance(m, ShuffleStep)][-1]
        phase = PHASE_NAMES[last.phase]
        check.lacking = (last.entry, last.draw, phase, last.party)
        try:
            await self._await_repeat(before)
        finally:
            check.lacking = None
        beat = s.driver.beats.get(s.peer)
        held = beat.held if beat is not None else None
        deck = next((d for d in held.decks if (d.entry, d.draw) == (last.entry, last.draw)),
                    None) if held is not None else None
        ours = {(PHASE_NAMES[m.phase], m.party) for m in check.sent
                if isinstance(m, ShuffleStep) and (m.entry, m.draw) == (last.entry, last.draw)}
        says = set() if deck is None else {
            (name, p) for name in ("relock", "lock", "rekey") for p in range(2)
            if getattr(deck, name) >> p & 1}
        s._ensure(ours <= says, "10.8", f"its heartbeats' held listing the checker's passes "
                  f"it holds of the deck of entry #{last.entry} ({sorted(ours)})",
                  "no held" if held is None else sorted(says))
        return f"its {phase} pass again; waiting; held as it stands"

    async def _await_repeat(self, before: int) -> None:
        s, check = self.s, self._deck()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(s.timeout, STALL_WAIT)
        while check.tally.repeats == before or not self.waiting_seen:
            left = deadline - loop.time()
            if left <= 0:
                want = ("its passes again" if check.tally.repeats == before
                        else "waiting set in its Heartbeat")
                raise Deviation("10.8", f"{want}, 3 heartbeats after its shuffle stood still "
                                "(the checker withheld its next pass)",
                                f"nothing of the kind within {max(s.timeout, STALL_WAIT):g} s")
            try:
                item = await s.driver.next(self._from_peer, "10.8", "", timeout=min(left, 0.5))
            except Deviation:
                self._look_at_beats()
                continue
            await self._handle(item)
            self._look_at_beats()

    def _look_at_beats(self) -> None:
        beat = self.s.driver.beats.get(self.s.peer)
        if beat is not None and beat.waiting:
            self.waiting_seen = True

    # -- the loop ----------------------------------------------------------------------

    async def _until(self, done: Callable[[], bool], expected: str) -> None:
        """Play (the checker's moves, the peer's frames in order) until ``done``."""
        s, table, check = self.s, self._table(), self._deck()
        seat = s._seats().seat
        while True:
            await self._progress()
            if check.faulted is not None and not self.expect_halt \
                    and self.fault != "bad-disclosure":
                await self._observe_halt()
                raise _Stop
            if check.withheld is not None and not self._ran("sealed-repeat") \
                    and not self.expect_halt:  # (a game of several decks: the fault first)
                await s._scenario("sealed-repeat", self._repeat)
                check.release()
                continue
            if done():
                return
            active = table.active_seats() if self._can_act() else ()
            if seat in active and self._probing():
                await self._moment()
            if len(active) > 1:
                await self._step(active)
                continue
            if active and active[0] == seat:
                await self._our_turn()
                continue
            if active and self.after_ours and not s.out_of_turn and not self.pending \
                    and self._probing():
                # The peer's turn right after the checker's, at rest: the probe of an action
                # out of turn (it would wait, not be refused, while the table is held).
                s.out_of_turn = True
                await s._scenario("refuse-out-of-turn", s._probe_out_of_turn)
            if active:
                self.after_ours = False
            if active and self.pending:
                self._their_move(self.pending.popleft())
                continue
            item = await self._next(expected)
            await self._handle(item)

    def _probing(self) -> bool:
        """False once the hostile fault is out: no probe of a table the fault halted, nor of
        one the fault is on its way to (the probe would wait out its timeout)."""
        return not self.expect_halt and self._deck().faulted is None

    def _ran(self, name: str) -> bool:
        return any(r.name == name for r in self.s.report.results)

    async def _progress(self) -> None:
        """Whatever can move without the peer: the reference party's passes and keys,
        the entries it added, actions that waited for cards, the hashes at rest."""
        check = self._deck()
        for _ in range(100):
            check.pump()
            moved = bool(check.added)
            self.unsealed.extend(check.added)
            check.added.clear()
            if self.retries and not self._shuffling():
                waiting, self.retries = self.retries, []
                for index, retry in enumerate(waiting):
                    if not retry():
                        self.retries.extend(waiting[index:])
                        break
                    moved = True
            self._seal()
            if not moved:
                return

    def _shuffling(self) -> bool:
        waiting = self._table().waiting
        return waiting is not None and bool(waiting.shuffles)

    def _held(self) -> bool:
        """The table may not move on (§10.6): a shuffle, cards for all not open, an action
        waiting for cards."""
        return bool(self.retries) or self._deck().sealing.public_pending() or self._shuffling()

    def _at_rest(self) -> bool:
        return not self._held() and not self.unsealed and self._table().waiting is None

    def _can_act(self) -> bool:
        """A seat acts only at a resting point, with every card it is shown open (§10.7)."""
        return self._at_rest() and not self._deck().sealing.owed_to_me()

    def _seal(self) -> None:
        """Hash every applied entry once its resting point's public cards are open (§10.4,
        §10.7); compare the peer's reports that waited."""
        s, table = self.s, self._table()
        if not self.unsealed or self._deck().sealing.public_pending():
            return
        while self.unsealed:
            applied = self.unsealed.popleft()
            entry = applied.entry
            after = self._deck().sealing.state_after(applied)  # (§10.4: at its resting point)
            assert entry.index == len(s.ours), (entry.index, len(s.ours))
            s.ours.append(table.entry_hash(entry, after))
        for key, reports in s.theirs.items():
            for index in sorted(i for i in reports if i < len(s.ours)):
                s._compare(key, index, reports[index])

    def _apply_when_open(self, submit: Callable[[], tuple[Applied, ...] | Waiting | Refusal],
                         expected: str, said: str = "") -> None:
        """Apply what ``submit`` submits to the checker's table now, or, while it waits for
        card keys (shared as they come), again at each retry until it applies; a refusal is a
        deviation at §10.7 (``expected``; ``said`` before the refusal's words)."""
        s, check = self.s, self._deck()

        def apply() -> bool:
            result = submit()
            if isinstance(result, Waiting):
                check.sealing.share_public(result.reveals)
                return False
            if isinstance(result, Refusal):
                raise Deviation("10.7", expected, f"{said}{result.code}: {result.message}")
            s._checks += 1
            self._applied(result)
            return True

        if not apply():
            self.retries.append(apply)

    def _applied(self, result: tuple[Applied, ...]) -> None:
        self.unsealed.extend(result)
        self._deck().sealing.pump()  # the cards each seat must now be shown

    # -- frames from the peer ----------------------------------------------------------

    def _from_peer(self, item: Incoming) -> bool:
        return item.rx.sender == self.s.peer

    async def _next(self, expected: str) -> Incoming:
        s = self.s
        if not self.expect_halt:
            return await s.driver.next(self._from_peer, "10", expected)
        try:
            return await s.driver.next(self._from_peer, "10.10", "")
        except Deviation:
            raise _Halted(f"nothing more from it for {s.timeout:g} s") from None

    async def _handle(self, item: Incoming) -> None:
        """One frame of the peer's, in the order it came."""
        s, check = self.s, self._deck()
        if item.env is None:
            raise Deviation("2", "an envelope that decodes", describe(item))
        body = item.env.body
        if self.expect_halt:
            self._after_fault(item)
        if isinstance(body, ShuffleStep | CardKeys | Disclose | EscrowKey | EscrowShares
                      | EscrowOpen):
            check.take(body)
        elif isinstance(body, StateHash):
            s._reports(s.peer, body)
        elif isinstance(body, ErrorMsg):
            await s._refused(s.peer, body)
        elif isinstance(body, ActionCommit | ActionReveal) and body.index < self._table().index:
            pass  # a repeat of a step that is over (§3.3 *Links that come back*)
        elif isinstance(body, ActionMsg | ActionCommit | ActionReveal):
            self.pending.append(item)
        elif isinstance(body, Leave):
            raise Deviation("5.8", "no Leave before the game is over", describe(item))
        # (anything else — a Start or SeatAssignment again — changes nothing here)

    def naming(self, text: str) -> str:
        """``, naming seat N`` (or ``party P``) when a halt's words name the checker, whose
        fault it was (§10.10); else nothing (the words are for a person: not checked)."""
        for name in (f"seat {self.s._seats().seat}", f"party {self._deck().me}"):
            if name in text:
                return f", naming {name}"
        return ""

    def _after_fault(self, item: Incoming) -> None:
        """A frame once the fault is out: the peer must have halted (§10.10)."""
        assert item.env is not None
        body, check = item.env.body, self._deck()
        section = FAULTS[self.fault][0]
        if isinstance(body, Leave):
            if body.why == LeaveReason.HALTED:
                raise _Halted(f"Leave(HALTED){self.naming(body.reason)}")
            raise Deviation(section, "the table halted (§10.10): Leave(HALTED), if it leaves",
                            describe(item))
        if isinstance(body, ErrorMsg):
            raise Deviation(section, "a halt that sends no Error (§10.10, §5.5)",
                            describe(item))
        # (Keys may cross the fault on the wire; an action or a further pass cannot: each
        # follows from what the fault changed.  But a pass of another deck shuffled at the
        # same time as the faulty pass's (Mandala's draws) may: it does not follow from it.)
        bad = check.faulted
        other_deck = (isinstance(bad, ShuffleStep) and isinstance(body, ShuffleStep)
                      and (body.entry, body.draw) != (bad.entry, bad.draw))
        moved = isinstance(body, ActionMsg | ActionCommit | ActionReveal) or (
            isinstance(body, ShuffleStep) and body not in check.received and not other_deck)
        if moved:
            raise Deviation(section, f"the table halted on the checker's fault "
                            f"({self.fault}): nothing more from the peer's table",
                            f"it played on: {describe(item)}")

    # -- moves -------------------------------------------------------------------------

    def _their_move(self, item: Incoming) -> None:
        s, table, check = self.s, self._table(), self._deck()
        assert item.env is not None
        index = table.index
        s._ensure(isinstance(item.env.body, ActionMsg), "3.3", f"an ActionMsg at the "
                  f"one-seat turn #{index}", describe(item))
        msg = item.env.body
        assert isinstance(msg, ActionMsg)
        active = table.active_seats()[0]
        s._ensure(msg.seat == active, "3.3", f"an action of the active seat {active}",
                  f"seat {msg.seat}")
        s._ensure(msg.index == index, "3.3", f"index {index} (the next index)", msg.index)
        s._ensure(msg.prev == table.head, "4.3", f"prev {table.head.hex()} (the digest of "
                  f"entry #{index - 1}, or the genesis)", msg.prev.hex())
        if msg.hashes is not None:
            s._reports(s.peer, msg.hashes)
        faces = check.sealing.open_attached(check.peer, msg.reveals)
        if isinstance(faces, str):
            raise Deviation("10.7", f"the cards action #{index} shows, each with every party's "
                            "key, opening to cards", faces)
        check.attached(msg.reveals)

        self._apply_when_open(
            lambda: table.submit(msg.seat, msg.action, index=msg.index, prev=msg.prev,
                                 reveals=faces),
            f"an action the rules take once its cards are open (#{index})", f"{msg.action}: ")

    async def _moment(self) -> None:
        """The peer waits for the checker (its turn or step): the probes that fit any
        such moment, the first time; the return once the log is long enough."""
        s, table = self.s, self._table()
        if not s.probed:
            s.probed = True
            s.report.results.append(Result(
                "refuse-illegal", "10.7", Verdict.NA, "a sealed table halts on it: --halt"))
            await s._probes()
            for name in SEALED_PROBES:
                if self._deck().sealing.decks:
                    await s._scenario(name, functools.partial(self._probe, name))
                else:
                    s._scenario_na(name, NO_DECK)
        if not s.returned and table.index >= RETURN_AT:
            s.returned = True
            if await s._scenario("return", s._return):
                await s._scenario("catch-up", s._catch_up)
            await s._midgame()
        if s.departures.due():
            self._unread()
            await s.departures.run(no_departure="a sealed table of two: no takeover")

    def _unread(self) -> None:
        """Hand the play messages taken but not applied back to the driver, in order (a
        scenario of `session` reads them there)."""
        self.s.driver.backlog[:0] = list(self.pending)
        self.pending.clear()

    async def _our_turn(self) -> None:
        """The checker's one-seat turn: the turn probes the first time, then its move."""
        s = self.s
        if not s.turn_probed and not self.expect_halt:
            s.turn_probed = True
            await s._turn_probes()
        if self.fault == "unheld-card" and self._deck().faulted is None:
            self._unheld()
        self._our_move()
        self.after_ours = True

    def _our_move(self) -> None:
        s, table, check = self.s, self._table(), self._deck()
        seats = s._seats()
        assert s.rng is not None
        action = s.rng.choice(list(table.legal_actions(seats.seat)))
        prepared = table.prepare(seats.seat, action)
        assert not isinstance(prepared, Refusal), prepared
        reveals = check.sealing.reveals_for(prepared)
        index, prev = table.index, table.head
        hashes = s._unreported(index)
        result = table.submit(seats.seat, prepared.action, index=index, prev=prev,
                              reveals=prepared.attached)
        assert not isinstance(result, Refusal), result
        s.driver.broadcast(seats.others(s.driver.key),
                           ActionMsg(index, prev, seats.seat, prepared.action, reveals, hashes))
        if not isinstance(result, Waiting):
            self._applied(result)
            return
        check.sealing.share_public(result.reveals)

        def later() -> bool:
            again = table.submit(seats.seat, prepared.action, index=index, prev=prev,
                                 reveals=prepared.attached)
            if isinstance(again, Waiting):
                check.sealing.share_public(again.reveals)
                return False
            assert not isinstance(again, Refusal), again
            self._applied(again)
            return True

        self.retries.append(later)

    def wire_action(self) -> Any:
        """A legal action of the checker's seat, as it would travel (for the probes)."""
        table, seat = self._table(), self.s._seats().seat
        for action in table.legal_actions(seat):
            prepared = table.prepare(seat, action)
            if not isinstance(prepared, Refusal):
                return prepared.action
        raise AssertionError("the checker's seat has no legal action to send")

    def _unheld(self) -> None:
        """The fault ``unheld-card``: an action of the checker's that names, for a card of
        its hand, a sealed card of the same deck its seat was never shown (in the pile or
        the peer's hand), sent as an honest action is, not applied (§10.7)."""
        s, table, check = self.s, self._table(), self._deck()
        seat = s._seats().seat
        seen = table.seen_by(seat) | table.opened[seat]
        unseen = [t for t in tokens_in(table.state) if t.key not in seen
                  and t.key not in table.public]
        for action in table.legal_actions(seat):
            prepared = table.prepare(seat, action)
            if isinstance(prepared, Refusal):
                continue
            swapped = []
            for name, value in prepared.action.args:
                if type(value) is Sealed and unseen:
                    value = next((t for t in unseen if (t.entry, t.draw)
                                  == (value.entry, value.draw)), unseen[0])
                swapped.append((name, value))
            forged = dataclasses.replace(prepared.action, args=tuple(swapped))
            if forged != prepared.action:
                msg = ActionMsg(table.index, table.head, seat, forged, (),
                                s._unreported(table.index))
                s.driver.broadcast(s._seats().others(s.driver.key), msg)
                check._faulted(msg)  # type: ignore[arg-type]
                return

    # -- simultaneous steps ----------------------------------------------------------------

    async def _step(self, active: tuple[int, ...]) -> None:
        """A simultaneous step at a sealed table (§3.3, §4.5, §10.7): as at an open table
        (`Session._step`), with choices as they travel and the keys of the cards each
        reveal shows, checked and opened; the step applies once every card it reads is
        open to all."""
        s, table, check = self.s, self._table(), self._deck()
        seats = s._seats()
        assert s.rng is not None
        index, seat = table.index, seats.seat
        others = seats.others(s.driver.key)
        commits: dict[int, bytes] = {}
        choices: dict[int, Action] = {}
        faces: dict[Key, object] = {}
        own: ActionReveal | None = None
        probing = self._probing()
        if seat in active and s.step_probed and not s.stalls.step_done and probing:
            s.stalls.step_done = True
            self._unread()
            await s._scenario("step-repeat", functools.partial(s.stalls.step_repeat, index,
                                                                active))
        first = seat in active and not s.step_probed and probing
        if seat in active:
            if first:
                s.step_probed = True
                await s._step_probes(before_commit=True)
            prepared = table.prepare(seat, s.rng.choice(list(table.legal_actions(seat))))
            assert not isinstance(prepared, Refusal), prepared
            salt = secrets.token_bytes(32)
            commits[seat] = action_commitment(index, seat, prepared.action, salt)
            s.driver.broadcast(others, ActionCommit(index, seat, commits[seat],
                                                    s._unreported(index)))
            own = ActionReveal(index, seat, prepared.action, salt,
                               check.sealing.reveals_for(prepared))
            choices[seat] = prepared.action
            faces.update(prepared.attached)
            if first:
                await s._step_probes(before_commit=False)
        theirs = [x for x in active if x != seat]
        while any(x not in commits for x in theirs):
            body = await self._step_message(index, ActionCommit, commits)
            assert isinstance(body, ActionCommit)
            old = commits.setdefault(body.seat, body.commitment)
            s._ensure(old == body.commitment, "3.3", f"one commitment for seat {body.seat} at "
                      f"#{index} ({old.hex()})", body.commitment.hex())
            if body.hashes is not None:
                s._reports(s.peer, body.hashes)
        if own is not None:
            s.driver.broadcast(others, own)
        while any(x not in choices for x in theirs):
            body = await self._step_message(index, ActionReveal, commits)
            assert isinstance(body, ActionReveal)
            got = action_commitment(index, body.seat, body.action, body.salt)
            s._ensure(got == commits[body.seat], "4.5", f"seat {body.seat}'s reveal at "
                      f"#{index} to match its commitment {commits[body.seat].hex()}",
                      f"action_commitment({index}, {body.seat}, {body.action}, salt) = "
                      f"{got.hex()}")
            shown = check.sealing.open_attached(check.peer, body.reveals)
            if isinstance(shown, str):
                raise Deviation("10.7", f"the cards seat {body.seat}'s reveal at #{index} "
                                "shows, each with every party's key, opening to cards", shown)
            check.attached(body.reveals)
            refusal = table.check_choice(body.seat, body.action, shown)
            if refusal is not None:
                raise Deviation("10.7", f"seat {body.seat}'s choice at #{index} legal at the "
                                "step's start, its cards open", f"{body.action}: "
                                f"{refusal.code}: {refusal.message}")
            choices[body.seat] = body.action
            faces.update(shown)
        ordered = {x: choices[x] for x in sorted(active)}

        self._apply_when_open(
            lambda: table.submit_step(ordered, index=index, prev=table.head, reveals=faces),
            f"a step the rules take once its cards are open (#{index})")

    async def _step_message(self, index: int, kind: type, commits: dict[int, bytes]
                            ) -> ActionCommit | ActionReveal:
        """The peer's next commitment or reveal (``kind``) for the step at ``index``, its
        other frames handled on the way: a repeat of a commitment checked, an `ActionMsg`
        or a reveal before every commitment is in a deviation."""
        s = self.s
        while True:
            if self.pending:
                item = self.pending.popleft()
            else:
                item = await self._next(f"{kind.__name__} of the peer's for the step at "
                                        f"#{index}")
                if item.env is None or not isinstance(
                        item.env.body, ActionMsg | ActionCommit | ActionReveal):
                    await self._handle(item)
                    continue
            assert item.env is not None
            body = item.env.body
            if isinstance(body, ActionCommit | ActionReveal) and body.index < index:
                continue  # a repeat of a step that is over
            if isinstance(body, ActionMsg):
                raise Deviation("3.3", f"no ActionMsg at the simultaneous step #{index} "
                                "(commit, then reveal)", describe(item))
            assert isinstance(body, ActionCommit | ActionReveal)
            s._ensure(body.index == index, "3.3", f"the step's index {index}", body.index)
            held = s._seats().seats_of(item.rx.sender)
            s._ensure(body.seat in held and body.seat in self._table().active_seats(), "5.3",
                      f"a seat of the step the sender holds ({held})", body.seat)
            if isinstance(body, kind):
                return body
            if isinstance(body, ActionCommit) and body.seat in commits:
                s._ensure(body.commitment == commits[body.seat], "3.3", "one commitment for "
                          f"seat {body.seat} at #{index}", body.commitment.hex())
                continue  # an identical repeat
            raise Deviation("3.3", f"no ActionReveal at #{index} before every commitment is "
                            "in (the checker's own included)", describe(item))

    # -- the probes ----------------------------------------------------------------------

    async def _probe(self, name: str) -> str:
        """One sealed body the peer must refuse, with its code, and play on (§10.13)."""
        s, check = self.s, self._deck()
        d = s.driver
        deck = next(iter(check.sealing.decks.values()))
        entry, draw = deck.job.entry, deck.job.draw
        peer_pass = next(m for m in check.received if isinstance(m, ShuffleStep))
        code = ErrorCode.WRONG_PHASE
        if name == "refuse-bad-points":
            seq, _ = d.envelope(Heartbeat(0))  # (its seq, for the broken envelope)
            data = _broken_points(d.table_id, d.key, seq, ShuffleStep(
                entry, draw, peer_pass.phase, check.me, peer_pass.points))
            code = ErrorCode.MALFORMED
        else:
            body: Any = {
                "refuse-no-party": dataclasses.replace(peer_pass, party=2),
                "refuse-undealt-key": CardKeys((CardKey(entry, draw, len(deck.items),
                                                        check.secret.card_key(entry, draw,
                                                                              0)),)),
                "refuse-other-secret": Disclose(check.peer, bytes(32)),
                "refuse-escrow": EscrowKey(check.me, deck.points[0]),
            }[name]
            seq, data = d.envelope(body)
        await d.refusal(s.peer, data, seq, code, "10.13")
        return f"refused {code.name}"

    # -- after the end -----------------------------------------------------------------

    async def after_end(self) -> bool:
        """The scenarios once the end reports are in: the disclosure and what it shows,
        then (``--halt bad-disclosure``) the halt it must cause; True to go on."""
        s = self.s
        ok = await s._scenario("sealed-disclose", self._disclose)
        ok = await s._scenario("sealed-secrecy", self._secrecy) and ok
        if self.fault in ("bad-shuffle", "wrong-key", "bad-disclosure") \
                and not self._deck().sealing.decks:
            # No deck all game: no pass to break, no key to get wrong, and any secret gives
            # the passes it made (none), so a changed one is no fault (§10.9).
            s._scenario_na(f"halt-{self.fault}", NO_DECK_FAULT)
            self._deck().send_honest_disclosure()  # (for the peer's log)
            return ok
        if self.fault == "bad-disclosure":
            self._deck().send_bad_disclosure()
            await self._observe_halt()
            s.stopped = f"the run ended at --halt {self.fault}"
            return False
        return ok

    async def _disclose(self) -> str:
        check = self._deck()
        while check.disclosed is None:
            await self._handle(await self._next("the peer's Disclose once the game is over "
                                                "and every card owed is open"))
        await self._progress()
        verdict = check.verdict()
        self.s._ensure(verdict.ok, "10.9", "a game that verifies with every secret",
                       verdict.message)
        return f"{len(check.sealing.decks)} deck(s) and every action verify"

    def log_complete(self, result: LogReadResult) -> bool:
        """True once the peer's log holds the end of the sealed deck (both secrets)."""
        return self._deck().log_complete(result.seals)

    def check_log(self, result: LogReadResult) -> str:
        """The sealed records of the peer's log file (`DeckCheck.check_log`)."""
        return self._deck().check_log(result.seals, len(result.entries))

    async def _secrecy(self) -> str:
        return self._deck().secrecy(self.s._seats().seat)

    async def _observe_halt(self) -> None:
        """The fault is out: record whether the peer halted, and end the run."""
        s = self.s
        self.expect_halt = True
        name = f"halt-{self.fault}"

        async def observe() -> str:
            try:
                if self.fault == "bad-disclosure":
                    while True:
                        await self._handle(await self._next(""))
                await self._until(lambda: False, "")
            except _Halted as how:
                shown = await s._halt_shown(FAULTS[self.fault][0], self.naming)
                if not shown:
                    return f"halted: {how}"
                # (a line of the report fits 80 columns)
                same = shown == f"feed: halted{self.naming(str(how))}"
                return f"{how}; feed too" if same else f"{how}; {shown}"
            shown = await s._halt_shown(FAULTS[self.fault][0], self.naming)
            return f"halted; {shown}" if shown else "halted"

        await s._scenario(name, observe)


def _broken_points(table_id: bytes, sender: bytes, seq: int, step: ShuffleStep) -> bytes:
    """A `ShuffleStep` envelope whose points are not whole 32-byte points (one byte short):
    a field rule broken (§10.13), which the codec here would not write, so written here
    field by field (proto/hedgerow.proto: Envelope 1-4 and 28, ShuffleStep 1-5)."""
    body = (_varint_field(1, step.entry) + _varint_field(2, step.draw)
            + _varint_field(3, int(step.phase)) + _varint_field(4, step.party)
            + _bytes_field(5, step.points[:-1]))
    return (_varint_field(1, PROTOCOL_VERSION) + _bytes_field(2, table_id)
            + _bytes_field(3, sender) + _varint_field(4, seq) + _bytes_field(28, body))


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _varint_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _bytes_field(number: int, data: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(data)) + data
