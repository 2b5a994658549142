"""Play: checking, applying and sealing log entries; simultaneous steps; catch-up.

An action is checked (author, index, chain, legality: `Table.submit` with ``index=`` and
``prev=``), applied and shown at once, then sealed: hashed, logged and reported with
``StateHash`` (`hedgerow.net.hashbook` compares the reports).  Every entry the table adds is
sealed the same way: the action's own, and the chance entries the engine resolves after it
(and after setup, `Table.opening`); nobody sends chance, every peer resolves it itself.
Actions that arrive before their turn wait in a bounded buffer; an action for a filled index
is refused with the same words a peer still at that index would use, so every honest peer
refuses identically.

Simultaneous steps commit, then reveal (`hedgerow.net.stepround`): every reveal is checked
against its commitment and against the step's starting state as it comes in (a reveal that
fails either is a cheat: the table halts naming the seat), and once every seat has revealed
the step is applied whole (`Table.submit_step`).  A peer that is behind fetches entries
with ``CatchUpRequest`` and feeds them to its table in log order (`Table.follow`); an entry
it already has (its own chance entries included) must be identical, else the logs forked
and the table halts naming who diverged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import cast

from hedgerow.core.actions import Action
from hedgerow.core.chance import CHANCE_SEAT
from hedgerow.core.errors import Code, Refusal, RulesError
from hedgerow.core.table import Applied, LogEntry
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    CatchUpReply,
    CatchUpRequest,
    Envelope,
    ErrorCode,
    LoggedEntry,
    StateHash,
    error_code_for_refusal,
)
from hedgerow.net.peercore import AHEAD_LIMIT, CATCH_UP_BATCH, PeerCore, body_name
from hedgerow.net.seat import HistoryLine, Phase
from hedgerow.net.stepround import StepError, StepRound
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)


def _out_of_turn(msg: ActionMsg, active: int) -> str:
    """The refusal of an action out of turn: the same words whether it came early or late."""
    if active == CHANCE_SEAT:
        return f"seat {msg.seat} may not act at #{msg.index}: it is a chance entry"
    return f"seat {msg.seat} may not act at #{msg.index}: it is seat {active}'s turn"


class Sync(PeerCore):
    """Play, simultaneous steps and catch-up (a mixin of `hedgerow.net.peer.Peer`)."""

    # The shared state (`PeerCore`) this phase reads and writes beyond the obvious.
    _phase: Phase
    _draining: bool
    _sealing: bool
    _step: StepRound | None
    syncing: bool

    def _hold_ahead(self, index: int, rx: Received, env: Envelope, member: Member) -> None:
        if self._ahead_count >= AHEAD_LIMIT:
            log.warning("dropped %s #%d from %s: too many early messages (catch-up will "
                        "fetch it)", body_name(env), index, member.label())
            return
        self._ahead.setdefault(index, []).append((rx, env, member))
        self._ahead_count += 1

    def _drain(self) -> None:
        """Process held early messages whose index has come."""
        if self._draining:
            return
        self._draining = True
        try:
            while self.table is not None and self._ahead and self._phase == Phase.PLAYING:
                index = min(self._ahead)
                if index > self.table.index:
                    break
                items = self._ahead.pop(index)
                self._ahead_count -= len(items)
                for rx, env, member in items:
                    self._dispatch(rx, env, member)
        finally:
            self._draining = False

    def _on_action(self, rx: Received, env: Envelope, member: Member) -> None:
        msg = cast(ActionMsg, env.body)
        if msg.seat != member.seat:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT,
                         f"{member.label()} cannot act for seat {msg.seat}", ref_index=msg.index)
            return
        table = self.table
        if table is None or msg.index > table.index:
            self._hold_ahead(msg.index, rx, env, member)
            return
        if self._phase == Phase.HALTED:
            return
        if msg.index < table.index:
            self._on_past_action(rx, env, member, msg)
            return
        if len(table.active_seats()) > 1:
            self._refuse(rx, env, ErrorCode.OUT_OF_TURN, f"action #{msg.index} is a "
                         "simultaneous step: commit first (ActionCommit)", ref_index=msg.index)
            return
        try:
            result = table.submit(msg.seat, msg.action, index=msg.index, prev=msg.prev)
        except RulesError as exc:
            self._rules_failed(exc)
            return
        if isinstance(result, Refusal):
            text = result.message
            if result.code == Code.NOT_YOUR_TURN and table.active_seats():
                text = _out_of_turn(msg, table.active_seats()[0])
            self._refuse(rx, env, error_code_for_refusal(result.code), text,
                         ref_index=msg.index, refusal=result.code)
            return
        self._applied(result)
        self._drain()

    def _on_past_action(self, rx: Received, env: Envelope, member: Member,
                        msg: ActionMsg) -> None:
        """An action for an index already filled: refused exactly as when it was current."""
        assert self.table is not None
        entry = self.table.entries[msg.index]
        if msg.prev != entry.prev:
            why = Refusal(Code.BROKEN_CHAIN, f"action #{msg.index} does not chain to the log head")
        elif msg.seat != entry.seat:
            why = Refusal(Code.NOT_YOUR_TURN, _out_of_turn(msg, entry.seat))
        elif msg.action == entry.action:
            return  # a repeat of what we have (after a reconnect)
        else:
            why = Refusal(Code.BAD_INDEX, f"seat {msg.seat} already played action #{msg.index}")
        self._refuse(rx, env, error_code_for_refusal(why.code), why.message,
                     ref_index=msg.index, refusal=why.code)

    def _applied(self, applied: Sequence[Applied], *, announce: ActionMsg | None = None
                 ) -> None:
        """``applied`` entries are in the table: tell the author's peers (``announce``), show
        them, and seal them (hash, log, report) right after, off the path of the next action.

        What the seat client and a waiting bot see changes at once; the state hashes (the
        dearest step) follow in `_seal`, scheduled on the loop.  A peer that dies between
        the two has not reported the entries and fetches them again when it returns.
        """
        table = self.table
        assert table is not None
        if announce is not None:
            self._broadcast(announce)
        first = not self._unsealed
        self._unsealed.extend(applied)
        if not table.active_seats() and self._phase == Phase.PLAYING:
            self._phase = Phase.FINISHED
            log.info("game over after %d entries", table.index)
        self._notify()  # a bot whose turn it is now is woken before the seal below
        if first and self._unsealed:
            asyncio.get_running_loop().call_soon(self._seal)

    def _seal(self) -> None:
        """Hash, log and report every applied entry not sealed yet, in order.

        The entry is in the log file before this peer's StateHash for it is sent, so a
        StateHash always means "applied and saved here".  An entry sealed before (logged
        before this process resumed, while the rest of its simultaneous step was missing)
        is only checked against the hash in the log.
        """
        table = self.table
        if self._sealing or self._hashes is None or table is None:
            return
        self._sealing = True
        try:
            while self._unsealed:
                applied = self._unsealed.popleft()
                entry = applied.entry
                if applied.after is table.state:
                    state_hash = table.state_hash()  # cached for the current state
                else:  # a state already superseded
                    state_hash = table.hash_of(applied.after)
                text = table.describe_entry(entry, applied.before)
                self._history.append(HistoryLine(entry.index, entry.seat, text))
                if entry.index < len(self._hashes.own):
                    if self._hashes.own[entry.index] != state_hash:
                        self._halt(f"entry #{entry.index} replays to another state than this "
                                   f"peer's own log says")
                    continue
                if self._writer is not None and not self._writer.closed:
                    self._writer.append(entry, state_hash)
                self._broadcast(StateHash(entry.index, state_hash))
                divergence = self._hashes.record_own(entry.index, state_hash)
                if divergence is not None:
                    self._halt(divergence.describe(self._names()), tell=True,
                               index=divergence.index)
        finally:
            self._sealing = False

    def _on_state_hash(self, rx: Received, env: Envelope, member: Member) -> None:
        body = cast(StateHash, env.body)
        if self._hashes is None:
            return
        divergence = self._hashes.report(member.seat, body.index, body.state_hash)
        if divergence is not None:
            self._halt(divergence.describe(self._names()), tell=True, index=divergence.index)
        elif self._phase == Phase.FINISHED:
            self._notify()  # one more seat confirmed the end

    # -- simultaneous steps -------------------------------------------------------------

    def _open_step(self) -> StepRound:
        assert self.table is not None
        step = self._step
        if step is None or step.index != self.table.index:
            step = self._step = StepRound(self.table.index, self.table.active_seats())
        return step

    def _commit_step(self, action: Action) -> Refusal | None:
        """This peer's seat chooses ``action`` for the open simultaneous step: checked
        against the step's starting state, then committed (nothing is revealed yet)."""
        assert self.table is not None
        step = self._open_step()
        if step.own is not None:
            return Refusal(Code.ALREADY_CHOSEN, f"seat {self.seat} already chose for this step")
        result = self.table.check(self.seat, action)
        if isinstance(result, Refusal):
            return result
        commitment = step.choose(self.seat, action)
        self._broadcast(ActionCommit(step.index, self.seat, commitment))
        self._maybe_reveal_step()
        self._notify()
        return None

    def _maybe_reveal_step(self) -> None:
        step = self._step
        if step is None or step.own is None or not step.all_committed:
            return
        seat, action, salt = step.own
        if seat not in step.reveals:
            step.reveals[seat] = action
            self._broadcast(ActionReveal(step.index, seat, action, salt))
        self._maybe_apply_step()

    def _maybe_apply_step(self) -> None:
        """Apply the step whole once every active seat's choice is revealed."""
        step = self._step
        table = self.table
        if (step is None or table is None or not step.complete or step.index != table.index
                or self._phase != Phase.PLAYING):
            return
        self._step = None
        try:
            result = table.submit_step(step.choices(), index=step.index, prev=table.head)
        except RulesError as exc:
            self._rules_failed(exc)
            return
        if isinstance(result, Refusal):  # each choice was checked as it was revealed
            self._halt(f"the simultaneous step at #{step.index} cannot be applied: {result}")
            return
        self._applied(result)
        self._drain()

    def _step_message(self, rx: Received, env: Envelope, member: Member) -> StepRound | None:
        body = env.body
        assert isinstance(body, (ActionCommit, ActionReveal))
        if body.seat != member.seat:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT,
                         f"{member.label()} cannot act for seat {body.seat}", ref_index=body.index)
            return None
        table = self.table
        if table is None or body.index > table.index:
            self._hold_ahead(body.index, rx, env, member)
            return None
        if self._phase != Phase.PLAYING:
            return None
        if body.index < table.index:
            self._refuse(rx, env, ErrorCode.BAD_INDEX, f"the step at #{body.index} is over",
                         ref_index=body.index)
            return None
        active = table.active_seats()
        if len(active) < 2 or body.seat not in active:
            self._refuse(rx, env, ErrorCode.OUT_OF_TURN,
                         f"seat {body.seat} has no simultaneous choice at #{body.index}",
                         ref_index=body.index)
            return None
        return self._open_step()

    def _on_action_commit(self, rx: Received, env: Envelope, member: Member) -> None:
        step = self._step_message(rx, env, member)
        if step is None:
            return
        body = cast(ActionCommit, env.body)
        try:
            step.commit(body.seat, body.commitment)
        except StepError as exc:
            self._refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message, ref_index=body.index)
            return
        self._maybe_reveal_step()
        self._notify()

    def _on_action_reveal(self, rx: Received, env: Envelope, member: Member) -> None:
        step = self._step_message(rx, env, member)
        if step is None:
            return
        body = cast(ActionReveal, env.body)
        table = self.table
        assert table is not None

        def legality(seat: int, action: Action) -> Refusal | None:
            result = table.check(seat, action)  # the table is still at the step's start
            return result if isinstance(result, Refusal) else None

        try:
            step.reveal(body.seat, body.action, body.salt, legality)
        except StepError as exc:
            refusal = exc.refusal
            if refusal is None:
                self._refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message, ref_index=body.index)
            else:
                self._refuse(rx, env, error_code_for_refusal(refusal.code), exc.message,
                             ref_index=body.index, refusal=refusal.code)
            if exc.fatal:
                self._halt(f"{member.label()} cheated at the simultaneous step #{body.index}: "
                           f"{exc.message}", index=body.index)
            return
        self._maybe_apply_step()

    # -- catch-up -----------------------------------------------------------------------

    def _request_catch_up(self, member: Member | None) -> None:
        """Ask ``member`` (None: everyone) for the entries after our log's end."""
        if self.table is None or self.roster is None:
            return
        self._catch_up_at = self._now()
        body = CatchUpRequest(self.table.index)
        if member is None:
            self._broadcast(body)
        else:
            self._send(member, body)

    def _on_catch_up_request(self, rx: Received, env: Envelope, member: Member) -> None:
        body = cast(CatchUpRequest, env.body)
        table = self.table
        if table is None or self._hashes is None:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, "play has not started here")
            return
        self._seal()
        start = min(body.from_index, table.index)
        stop = min(table.index, start + CATCH_UP_BATCH)
        items = tuple(LoggedEntry(table.entries[i], self._hashes.own[i])
                      for i in range(start, stop))
        self._send(member, CatchUpReply(table.header, start, items, table.index))

    def _on_catch_up_reply(self, rx: Received, env: Envelope, member: Member) -> None:
        body = cast(CatchUpReply, env.body)
        table = self.table
        if table is None or self._hashes is None:
            return
        if body.header != table.header:
            self._refuse(rx, env, ErrorCode.WRONG_TABLE, "the catch-up is for another table")
            return
        self._catch_up_at = None
        self._seal()  # our own hashes are all in the book before theirs are compared
        for item in body.entries:
            if self._phase != Phase.PLAYING:
                break
            if not self._follow_entry(rx, env, member, item):
                return
        if body.next_index > table.index and self._phase == Phase.PLAYING:
            self._request_catch_up(member)
        elif self.syncing:
            self.syncing = False
            log.info("caught up with the table at entry #%d", table.index)
            self._notify()
        self._drain()

    def _follow_entry(self, rx: Received, env: Envelope, member: Member,
                      item: LoggedEntry) -> bool:
        """Feed one catch-up entry to the table in log order; False to drop the rest."""
        table = self.table
        assert table is not None and self._hashes is not None
        entry = item.entry
        if entry.digest != LogEntry.chain(entry.prev, entry.index, entry.seat, entry.action):
            self._refuse(rx, env, ErrorCode.BROKEN_CHAIN,
                         f"catch-up entry #{entry.index} has a wrong digest",
                         ref_index=entry.index)
            return False
        if table.index <= entry.index < table.index + table.following:
            return True  # held already: a simultaneous step cut short by an earlier reply
        try:
            result = table.follow(entry.index, entry.seat, entry.action, prev=entry.prev)
        except RulesError as exc:
            self._rules_failed(exc)
            return False
        if isinstance(result, Refusal) and entry.index < table.index:
            # An entry we have (our own chance entries included) that differs: a fork.
            divergence = self._hashes.report(member.seat, entry.index, item.state_hash)
            message = (divergence.describe(self._names()) if divergence is not None else
                       f"desync at entry #{entry.index}: {member.label()}'s log differs from "
                       f"this peer's ({result.message})")
            self._halt(message, tell=True, index=entry.index)
            return False
        if isinstance(result, Refusal):
            self._refuse(rx, env, error_code_for_refusal(result.code),
                         f"catch-up entry #{entry.index}: {result.message}",
                         ref_index=entry.index, refusal=result.code)
            return False
        if result:
            self._applied(result)
            if self._step is not None and self._step.index < table.index:
                self._step = None  # the step it was collecting is over
        divergence = self._hashes.report(member.seat, entry.index, item.state_hash)
        if divergence is not None:
            self._halt(divergence.describe(self._names()), tell=True, index=divergence.index)
            return False
        return True
