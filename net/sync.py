"""`Sync`: play — checking, applying and sealing log entries; simultaneous steps; catch-up.

An action is checked (author, index, chain, legality: `Table.submit` with ``index=`` and
``prev=``), applied and shown at once, then sealed: hashed and logged.  Every entry the table
adds is sealed the same way: the action's own, and the chance entries the engine resolves
after it (and after setup, `Table.opening`); nobody sends chance, every peer resolves it
itself.  The state hashes travel on the play messages a peer sends anyway: each ``ActionMsg``
and ``ActionCommit`` carries its author's hashes of the entries it has not reported yet, and
every receiver compares them with its own (`hedgerow.net.hashbook`).  A peer speaks up with a
``StateHash`` only when it finds a disagreement (or is told of one), so that every peer holds
every hash of the entry concerned and names the same seat; and once at the end, with the
hashes it has not reported (docs/protocol.md §3.3 "State hashes").
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

This phase reads the shared `PeerContext` as a `PlayContext` (the table, the hash book, the
log); its own state is the early-message buffer, the open simultaneous step, the entries not
sealed yet and the catch-up in progress.  From the rest of the peer it needs only
``redeliver`` (to hand an early message back to the peer's dispatch once its turn comes)
and ``author_of`` (who authors a seat's actions now).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from hedgerow.core.actions import Action
from hedgerow.core.chance import CHANCE_SEAT
from hedgerow.core.errors import Code, Refusal, RulesError
from hedgerow.core.sealed import Key, Sealed
from hedgerow.core.sealedtable import Prepared, SealedTable, Waiting
from hedgerow.core.table import Applied, LogEntry, Table
from hedgerow.net.context import (
    AHEAD_LIMIT,
    CATCH_UP_BATCH,
    STALL_BEATS,
    Living,
    Seated,
    Speaking,
    Stall,
    body_name,
)
from hedgerow.net.hashbook import AHEAD_LIMIT as HASHES_AHEAD
from hedgerow.net.hashbook import Divergence, HashBook
from hedgerow.net.logfile import LogWriter
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    Body,
    CardReveal,
    CatchUpReply,
    CatchUpRequest,
    Envelope,
    ErrorCode,
    LoggedEntry,
    StateHash,
    error_code_for_refusal,
)
from hedgerow.net.seat import HistoryLine, Link, Phase
from hedgerow.net.stepround import StepError, StepRound
from hedgerow.net.transport import Received
from hedgerow.net.wirerules import MAX_HASHES

log = logging.getLogger(__name__)

#: How many of our latest entries' messages a sealed table keeps to send again to a peer
#: that stays behind them (`Sync.resend_to_laggards`).
OWN_KEPT = 64
#: Entries of an open table sealed before their words are made (`Sync.history`): more are
#: put in words at once (the states before them are kept meanwhile).
UNDESCRIBED_KEPT = 256


def _out_of_turn(msg: ActionMsg, active: int) -> str:
    """The refusal of an action out of turn: the same words whether it came early or late."""
    if active == CHANCE_SEAT:
        return f"seat {msg.seat} may not act at #{msg.index}: it is a chance entry"
    return f"seat {msg.seat} may not act at #{msg.index}: it is seat {active}'s turn"


class PlayContext(Speaking, Seated, Living, Protocol):
    """What play reads of the peer's shared state (`hedgerow.net.context.PeerContext`): the
    table, whose entries it adds through the table itself, the hash book and the log."""

    @property
    def table(self) -> Table | None: ...

    @property
    def hashes(self) -> HashBook | None: ...

    @property
    def writer(self) -> LogWriter | None: ...

    def names(self) -> dict[int, str]: ...

    @property
    def seq(self) -> int:
        """The seq of the last envelope this peer made."""


#: Refusals that say the action came at the wrong moment (refused, the table goes on); at a
#: sealed table any other refusal of a checked author's action is a cheat (§10.7).
GATE_CODES = frozenset({Code.NOT_YOUR_TURN, Code.GAME_OVER, Code.BAD_INDEX, Code.BROKEN_CHAIN,
                        Code.BAD_SEAT, Code.MALFORMED, Code.SIMULTANEOUS})


class SealedDeck(Protocol):
    """What play needs of the sealed deck (`hedgerow.net.sealplay.SealedPlay`)."""

    def reveals_for(self, prepared: Prepared) -> tuple[CardReveal, ...]:
        """The keys to send with this peer's action for the cards it shows."""

    def open_attached(self, seat: int, reveals: Sequence[CardReveal]
                      ) -> Mapping[Key, object] | str:
        """The faces of the cards ``seat``'s action shows, or why they do not open."""

    def share_public(self, tokens: Sequence[Sealed]) -> None:
        """Open these cards to everyone: the rules read them before an action applies."""

    def public_pending(self) -> bool:
        """True while cards every seat must see are not open yet."""

    def state_after(self, applied: Applied) -> Any:
        """The public state the hash after ``applied``'s entry covers (§10.4)."""

    def pump(self) -> None:
        """Do what the sealed deck now owes (the table changed)."""

    def peer_back(self, key: bytes, *, restarted: bool = True) -> None:
        """The peer of ``key`` is back (``restarted``: it said Hello again): send it again
        what it may lack."""


#: An action made ready to travel at a sealed table: the action as sent, the faces it
#: shows (by card), and their keys.
Ready = tuple[Action, Mapping[Key, object], tuple[CardReveal, ...]]


class Sync:
    """Play, simultaneous steps and catch-up.

    ``redeliver(rx, env, member)`` dispatches an early message again once its index has
    come (the peer's handler for its body); ``author_of(seat)`` is the seat whose peer
    authors ``seat``'s actions now (its own, unless a bot took it over:
    `hedgerow.net.members.Takeovers`).
    """

    def __init__(self, ctx: PlayContext, *,
                 redeliver: Callable[[Received, Envelope, Member], None],
                 author_of: Callable[[int], int], sealed: SealedDeck) -> None:
        self.ctx = ctx
        self._redeliver = redeliver
        self.author_of = author_of
        self.sealed = sealed
        #: At a sealed table: actions waiting for a public reveal round (each a retry that
        #: says whether it is done), the cards each entry's action showed, and the keys and
        #: faces of the open step's choices by seat.
        self._waiting: list[Callable[[], bool]] = []
        self._reveals: dict[int, tuple[CardReveal, ...]] = {}
        self._step_reveals: dict[int, tuple[CardReveal, ...]] = {}
        self._step_faces: dict[int, Mapping[Key, object]] = {}
        #: Another seat's action that waits in `_waiting`, by index: a repeat of it (sent
        #: again to a peer its author saw standing before it) is not queued twice.
        self._queued: dict[int, ActionMsg] = {}
        #: At a sealed table: our own action (for our seat, or one our bot plays) that is
        #: sent and waits here for a public reveal round (`author`): its seat's move is
        #: made, though the table does not hold it yet (`waits_own`).
        self._sent_waiting: ActionMsg | None = None
        self.syncing = False  # resumed: catching up before acting
        self._history: list[HistoryLine] = []  # every sealed entry, in words (`history`)
        #: At an open table: sealed entries with the state before each, not in words yet.
        self._undescribed: list[tuple[LogEntry, Any]] = []
        self.catch_up_at: float | None = None  # when we last asked for entries
        self._ahead: dict[int, list[tuple[Received, Envelope, Member]]] = {}
        self._ahead_count = 0
        self._draining = False
        self._step: StepRound | None = None  # the simultaneous step being collected
        self._stall = Stall()  # the open step standing still (`resend_stalled_step`)
        self._unsealed: deque[Applied] = deque()  # applied, not yet hashed
        self._sealing = False
        #: At a sealed table: the messages of our recent entries by index (an action, or a
        #: step's commitments and reveals), sent again to a peer that stays behind them
        #: (`resend_to_laggards`), and how long each peer has stood still behind us.
        self._own: dict[int, list[Body]] = {}
        self._behind: dict[bytes, tuple[int, int]] = {}
        #: Our envelope seq when each entry's messages had gone out (noted at the beat
        #: after), and when we last sent them again to a peer (key, index): a peer that has
        #: not seen that envelope yet (its `SealHeld.seen`) is not sent them again.
        self._own_seq: dict[int, int] = {}
        self._again: dict[tuple[bytes, int], int] = {}
        #: Our commitments in the open step, as sent (with the hashes they carried), by seat.
        self._commits: dict[int, ActionCommit] = {}
        #: Entries whose state hash we sent in a StateHash of its own (a disagreement), and
        #: those we were asked about before we had sealed them; the end reported.
        self._told: set[int] = set()
        self._asked: set[int] = set()
        self._ended = False
        #: Whether a divergence may be a takeover of our seat during a cut, to wait for
        #: rather than halt on (set by departures: `hedgerow.net.rollback.Rollback.doubt`).
        self.in_doubt: Callable[[Divergence], bool] = lambda divergence: False
        #: False while our last own action is held by nobody else yet: our end report (and
        #: the end) waits (`hedgerow.net.rollback.Rollback.acknowledged`).
        self.acknowledged: Callable[[], bool] = lambda: True

    def resumed(self, history: Sequence[HistoryLine],
                reveals: Mapping[int, tuple[CardReveal, ...]] | None = None) -> None:
        """This seat came back with its log (``history``: its entries in words; ``reveals``:
        the cards its entries' actions showed, at a sealed table): it catches up with the
        table before it acts."""
        self.history.extend(history)
        self._reveals.update(reveals or {})
        if self.ctx.hashes is not None:
            # What the log holds was reported before this process, or checked against the
            # others' reports as it came: this process reports what it seals from now on
            # (and its last entry at the end, `report_end`).
            self.ctx.hashes.mark_reported(len(self.ctx.hashes.own))
        # a table with no other seat (a solo game) has nobody to catch up from
        self.syncing = bool(self.ctx.roster is not None and self.ctx.roster.others())

    @property
    def history(self) -> list[HistoryLine]:
        """Every sealed entry, in words.  At an open table an entry is put in words when the
        history is first read after it (`UNDESCRIBED_KEPT` at most wait): a bot's peer never
        reads it, and the words are the same later (the rules describe an entry from the
        state before it, which does not change).  A sealed table's words depend on the
        cards this peer sees when it seals the entry: they are made then (`seal`)."""
        if self._undescribed:
            table = self.table
            assert table is not None
            self._history.extend(HistoryLine(entry.index, entry.seat,
                                             table.describe_entry(entry, before))
                                 for entry, before in self._undescribed)
            self._undescribed.clear()
        return self._history

    @history.setter
    def history(self, lines: list[HistoryLine]) -> None:
        self._undescribed.clear()
        self._history = lines

    def reset(self) -> None:
        """Forget every entry and early message (the seed agreement starts over)."""
        self._history.clear()
        self._undescribed.clear()
        self._ahead.clear()
        self._ahead_count = 0
        self._step = None
        self._unsealed.clear()
        self._waiting.clear()
        self._queued.clear()
        self._sent_waiting = None
        self._reveals.clear()
        self._step_reveals.clear()
        self._step_faces.clear()
        self._own.clear()
        self._behind.clear()
        self._commits.clear()
        self._told.clear()
        self._asked.clear()
        self._ended = False

    def rolled_back(self, index: int) -> None:
        """Our entries from ``index`` on were taken back (`hedgerow.net.rollback`): forget
        what was kept about them; catch-up brings the table's own."""
        self.history = [line for line in self.history if line.index < index]
        if self._step is not None and self._step.index >= index:
            self._step = None
        self._unsealed.clear()
        self._waiting.clear()
        self._queued.clear()
        self._sent_waiting = None
        for kept in (self._reveals, self._own):
            for i in [i for i in kept if i >= index]:
                del kept[i]
        self._commits.clear()
        self._told = {i for i in self._told if i < index}
        self._asked = {i for i in self._asked if i < index}
        self._ended = False
        self.catch_up_at = None

    @property
    def table(self) -> Table | None:
        """The table being played (the shared one), None before the seed."""
        return self.ctx.table

    def reported_hash(self) -> bytes | None:
        """The state hash after the last entry as the peers report it (None before play):
        at a sealed table, once the entry is sealed, the hash this peer reported for it —
        the public state at its resting point (docs/protocol.md §10.4), never with cards
        opened to all since for the next entry (a read round), which the table now holds."""
        table, hashes = self.table, self.ctx.hashes
        if table is None:
            return None
        if isinstance(table, SealedTable) and hashes is not None and \
                0 < table.index == len(hashes.own):
            return hashes.own[-1]
        return table.reported_hash()

    @property
    def step(self) -> StepRound | None:
        """The simultaneous step being collected, if any."""
        return self._step

    def chose(self) -> bool:
        """True when this seat has already chosen for the open simultaneous step."""
        step, table = self._step, self.ctx.table
        return (table is not None and step is not None and step.index == table.index
                and step.own is not None)

    def committed(self) -> tuple[int, ...]:
        """The seats whose choice for the open simultaneous step is in (committed, not yet
        applied), in seat order; empty when no such step is open."""
        step, table = self._step, self.ctx.table
        if table is None or step is None or step.index != table.index:
            return ()
        return tuple(sorted(step.commits))

    def peer_back(self, member: Member, *, restarted: bool = True) -> None:
        """A seated peer returned: it gets our step commitments again (and our reveals, if
        every commitment is in), since what was sent while its link was down may be lost.

        ``restarted`` (it said Hello again, §5.7): it lost any commitment it had not
        revealed, so it may commit afresh.  A peer whose link only came back (a partition, a
        frozen process) keeps its commitment, and re-sends its own the same way.
        """
        if isinstance(self.table, SealedTable):
            self.sealed.peer_back(member.key, restarted=restarted)
        step = self._step
        if step is None:
            return
        if restarted:
            self.forget_commitment(member.seat)  # it lost its salt: it commits afresh
        self._send_step(member, step, skip=member.seat)

    def forget_commitment(self, seat: int) -> None:
        """Drop ``seat``'s unrevealed commitment in the open step: whoever made it can no
        longer reveal it (a bot took the seat over from a process that died)."""
        step = self._step
        if step is not None and seat not in step.reveals:
            step.commits.pop(seat, None)
            step.hosted.pop(seat, None)

    def resend_to_laggards(self, every: int = STALL_BEATS) -> None:
        """Called once a heartbeat.  At a sealed table, a peer whose heartbeat has said for
        ``every`` beats that it stands before one of our recent entries is sent again our
        messages of that entry and after (an action, or a step's commitments and reveals):
        they may have been lost on a link it could not see cut, and catch-up cannot bring
        an entry that waits, here, for cards that peer must help open (docs/protocol.md
        §10.8).  Receivers ignore what they have.  To a peer whose heartbeat says which of
        our envelopes it has seen (``Member.seen``), only what it has seen past: what is
        still on its way (a slow link) is not sent twice.

        Our own action that waits here for cards every seat must see (the rules read a card
        nobody was shown: a public reveal round, §10.6) is sent but not applied: a peer
        stands before it while its ``next_index`` is not past it, though it is our table's
        end too.  Lost on a cut link, it was never sent again (the peer, not knowing it,
        never sent its key to the card, and both waited for good: a sealed Mandala table
        stalled so under link cuts)."""
        table, roster = self.table, self.ctx.roster
        if (not isinstance(table, SealedTable) or roster is None or not self._own
                or self.ctx.phase not in (Phase.PLAYING, Phase.FINISHED)):
            self._behind.clear()
            self._own_seq.clear()
            self._again.clear()
            return
        present = [m for m in roster.others() if m.link != Link.LEFT]
        floor = min((m.next_index for m in present), default=table.index)
        for index in [i for i in self._own if i < floor or i < table.index - OWN_KEPT]:
            del self._own[index]
        end = max([table.index, *(index + 1 for index in self._own)])  # (ours, waiting)
        seq = self.ctx.seq
        self._own_seq = {i: self._own_seq.get(i, seq) for i in self._own}
        self._again = {k: v for k, v in self._again.items() if k[1] in self._own}
        for member in present:
            if member.link != Link.CONNECTED or member.next_index >= end:
                self._behind.pop(member.key, None)
                continue
            at, beats = self._behind.get(member.key, (member.next_index, 0))
            beats = beats + 1 if at == member.next_index else 1
            if beats >= every:
                beats = 0
                for index in sorted(i for i in self._own if i >= member.next_index):
                    last = self._again.get((member.key, index), self._own_seq[index])
                    if member.seen is not None and last > member.seen:
                        continue  # (on its way to it)
                    for body in self._own[index]:
                        self.ctx.send(member, body)
                    self._again[(member.key, index)] = self.ctx.seq
            self._behind[member.key] = (member.next_index, beats)

    def _keep_own(self, index: int, bodies: list[Body]) -> None:
        """Keep our messages of entry ``index`` (a sealed table) for `resend_to_laggards`."""
        if isinstance(self.table, SealedTable):
            self._own.setdefault(index, []).extend(bodies)

    def resend_stalled_step(self, every: int = STALL_BEATS) -> None:
        """Called once a heartbeat.  When the open step has not moved for ``every`` beats,
        send our commitments (and our reveals, once every commitment is in) again to every
        connected peer not past the step (its heartbeat says so): a link that was cut and
        came back may have lost them, though neither side saw the other lost.  Identical
        repeats are ignored by the receiver, so this is always safe (docs/protocol.md §3.3).
        """
        step, table = self._step, self.table
        if (step is None or table is None or step.index != table.index
                or self.ctx.phase != Phase.PLAYING or self.ctx.roster is None):
            self._stall.reset()
            return
        if not self._stall.due((step.index, len(step.commits), len(step.reveals)), every):
            return
        for member in self.ctx.roster.others():
            if member.link == Link.CONNECTED and member.next_index <= step.index:
                self._send_step(member, step)

    def _send_step(self, member: Member, step: StepRound, skip: int | None = None) -> None:
        """Send ``member`` our commitments for ``step`` (those of our own seat and of the
        seats our bots run, but ``skip``), and our reveals once every commitment is in."""
        for seat, action, salt in _own_choices(step):
            if seat == skip:
                continue
            self.ctx.send(member, self._commit_body(step, seat))
            if step.all_committed:
                self.ctx.send(member, ActionReveal(step.index, seat, action, salt,
                                                   self._step_reveals.get(seat, ())))

    def _commit_body(self, step: StepRound, seat: int) -> ActionCommit:
        """Our commitment of ``seat`` in ``step`` as we sent it (with the hashes it carried),
        to send again."""
        sent = self._commits.get(seat)
        if sent is not None and sent.index == step.index:
            return sent
        return ActionCommit(step.index, seat, step.commits[seat])

    def _hold_ahead(self, index: int, rx: Received, env: Envelope, member: Member) -> None:
        if self._ahead_count >= AHEAD_LIMIT:
            self.ctx.note(member.key, b"early", logging.WARNING, "dropped %s #%d from %s: too "
                          "many early messages (catch-up will fetch it)", body_name(env), index,
                          member.label())
            return
        self._ahead.setdefault(index, []).append((rx, env, member))
        self._ahead_count += 1

    def drain(self) -> None:
        """Process held early messages whose index has come."""
        if self._draining:
            return
        self._draining = True
        try:
            while self.table is not None and self._ahead and self.ctx.phase == Phase.PLAYING:
                index = min(self._ahead)
                if index > self.table.index:
                    break
                items = self._ahead.pop(index)
                self._ahead_count -= len(items)
                for rx, env, member in items:
                    self._redeliver(rx, env, member)
        finally:
            self._draining = False

    def on_action(self, rx: Received, env: Envelope, member: Member, msg: ActionMsg) -> None:
        if self.author_of(msg.seat) != member.seat:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"{member.label()} cannot act for seat {msg.seat}", ref_index=msg.index)
            return
        table = self.table
        if table is None or msg.index > table.index:
            self._hold_ahead(msg.index, rx, env, member)
            return
        if self.ctx.phase == Phase.HALTED:
            return
        if msg.index < table.index:
            self._on_past_action(rx, env, member, msg)
            return
        if self.ctx.phase == Phase.FINISHED and table.active_seats():
            # The table agreed to end the game (docs/protocol.md §5.9): no further action.
            self.ctx.refuse(rx, env, ErrorCode.GAME_OVER, "the table agreed to end the game "
                            f"at entry #{table.index}", ref_index=msg.index)
            return
        if len(table.active_seats()) > 1:
            self.ctx.refuse(rx, env, ErrorCode.OUT_OF_TURN, f"action #{msg.index} is a "
                            "simultaneous step: commit first (ActionCommit)", ref_index=msg.index)
            return
        faces: Mapping[Key, object] = {}
        if isinstance(table, SealedTable):
            if self._queued.get(msg.index) == msg:
                return  # a repeat of the action that waits here for its cards
            opened: Mapping[Key, object] | str = self.sealed.open_attached(msg.seat,
                                                                           msg.reveals)
            if isinstance(opened, str):
                self.ctx.halt(f"{member.label()} cheated: its action #{msg.index} {opened}",
                              index=msg.index)
                return
            faces = opened
        self._apply_received(rx, env, member, msg, faces)

    def held(self) -> bool:
        """At a sealed table: True while the table may not move on — a shuffle is under way,
        cards every seat must see are not open yet, or an action waits for cards
        (docs/protocol.md §10.6).  The
        next entry then waits, so that every peer applies it to the same public state and
        hashes the entry before it with the cards it showed to all."""
        table = self.table
        if not isinstance(table, SealedTable):
            return False
        waiting = table.waiting
        return (bool(self._waiting) or self.sealed.public_pending()
                or (waiting is not None and bool(waiting.shuffles)))

    def reading(self) -> bool:
        """At a sealed table: True while an action waits for cards the rules read as they
        apply it (a public reveal round, docs/protocol.md §10.7), or is queued until the
        cards the table waits for are open (`held`): no seat may act meanwhile."""
        return bool(self._waiting)

    def waits_own(self, seat: int) -> bool:
        """True while the action this peer made for ``seat`` is sent but waits for cards
        the rules read as they apply it (a public reveal round, docs/protocol.md §10.7):
        the seat has moved, and acts again only once the table holds that move and has
        come to rest (`hedgerow.net.peer.Peer.submit`)."""
        sent, table = self._sent_waiting, self.table
        return (sent is not None and sent.seat == seat and table is not None
                and table.index == sent.index)  # (not once the table holds that index)

    def _apply_received(self, rx: Received, env: Envelope, member: Member, msg: ActionMsg,
                        faces: Mapping[Key, object]) -> bool:
        """Apply another seat's action; False while it waits for a public reveal round."""
        table = self.table
        assert table is not None
        self._queued.pop(msg.index, None)
        if isinstance(table, SealedTable):
            if self.held():
                self._queued[msg.index] = msg
                self._waiting.append(
                    lambda: self._apply_received(rx, env, member, msg, faces))
                return False
            self.seal()  # the entries before it, hashed with the cards they showed
        try:
            if isinstance(table, SealedTable):
                result: tuple[Applied, ...] | Refusal | Waiting = table.submit(
                    msg.seat, msg.action, index=msg.index, prev=msg.prev, reveals=faces)
            else:
                result = table.submit(msg.seat, msg.action, index=msg.index, prev=msg.prev)
        except RulesError as exc:
            self.ctx.rules_failed(exc)
            return True
        if isinstance(result, Waiting):
            self._queued[msg.index] = msg
            self._wait(result, lambda: self._apply_received(rx, env, member, msg, faces))
            return False
        if isinstance(result, Refusal):
            if isinstance(table, SealedTable) and result.code not in GATE_CODES:
                self.ctx.halt(f"{member.label()} cheated: seat {msg.seat}'s action #{msg.index} "
                              f"is refused with its cards shown: {result.message}",
                              index=msg.index)
                return True
            text = result.message
            if result.code == Code.NOT_YOUR_TURN and table.active_seats():
                text = _out_of_turn(msg, table.active_seats()[0])
            self.ctx.refuse(rx, env, error_code_for_refusal(result.code), text,
                            ref_index=msg.index, refusal=result.code)
            return True
        if msg.reveals:
            self._reveals[msg.index] = msg.reveals
        if self.ctx.hashes is not None:
            self.ctx.hashes.confirm(msg.index)  # its author chained on every entry before it
        self.applied(result)
        self.heard(member, msg.hashes)
        self.drain()
        return True

    def _wait(self, waiting: Waiting, retry: Callable[[], bool]) -> None:
        """An action waits for the cards the rules must read: open them to all (every peer
        meets the same read), and apply it again once they are (`opened`).  The seat's
        watchers are told: what the deck holds the table up for changed (`reading`)."""
        self._waiting.append(retry)
        self.sealed.share_public(waiting.reveals)
        self.ctx.notify()

    def opened(self) -> None:
        """Cards were opened (a sealed table): what waited for them goes on."""
        if self._unsealed:
            self.seal()  # (nothing while cards every seat must see are still closed)
        waiting, self._waiting = self._waiting, []
        for index, retry in enumerate(waiting):
            if not retry():
                self._waiting.extend(waiting[index + 1:])
                break
        self._maybe_apply_step()
        if self._unsealed:
            self.seal()
        self.drain()
        self.ctx.notify()

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
        self.ctx.refuse(rx, env, error_code_for_refusal(why.code), why.message,
                        ref_index=msg.index, refusal=why.code)

    def applied(self, applied: Sequence[Applied], *, announce: ActionMsg | None = None
                ) -> None:
        """``applied`` entries are in the table: tell the author's peers (``announce``), show
        them, and seal them (hash, log, report) right after, off the path of the next action.

        What the seat client and a waiting bot see changes at once; the state hashes (the
        dearest step) follow in `seal`, scheduled on the loop.  A peer that dies between
        the two has not reported the entries and fetches them again when it returns.
        """
        table = self.table
        assert table is not None
        if announce is not None:
            self.ctx.broadcast(announce)
        first = not self._unsealed
        self._unsealed.extend(applied)
        if isinstance(table, SealedTable):
            self.sealed.pump()  # the cards each seat must now be shown
        if table.over() and self.ctx.phase == Phase.PLAYING:
            self.ctx.enter(Phase.FINISHED)
            log.info("game over after %d entries", table.index)
        self.ctx.notify()  # a bot whose turn it is now is woken before the seal below
        if first and self._unsealed:
            asyncio.get_running_loop().call_soon(self.seal)

    def seal(self) -> None:
        """Hash and log every applied entry not sealed yet, in order, and compare each hash
        with the reports already in.  The hashes are reported on this peer's next play
        message (`report`), or at the end (`report_end`).

        The entry is in the log file before this peer's hash of it is sent, so a reported
        hash always means "applied and saved here".  An entry sealed before (logged before
        this process resumed, while the rest of its simultaneous step was missing) is only
        checked against the hash in the log.
        """
        table = self.table
        if self._sealing or self.ctx.hashes is None or table is None:
            return
        if isinstance(table, SealedTable) and self.sealed.public_pending():
            return  # the hash after the entries covers the cards being shown to all
        self._sealing = True
        try:
            while self._unsealed:
                applied = self._unsealed.popleft()
                entry = applied.entry
                after = applied.after
                if isinstance(table, SealedTable):
                    after = self.sealed.state_after(applied)  # with its rest's public cards
                state_hash = table.entry_hash(entry, after)
                if isinstance(table, SealedTable) or len(self._undescribed) >= UNDESCRIBED_KEPT:
                    self.history.append(HistoryLine(
                        entry.index, entry.seat, table.describe_entry(entry, applied.before)))
                else:
                    self._undescribed.append((entry, applied.before))
                if entry.index < len(self.ctx.hashes.own):
                    if self.ctx.hashes.own[entry.index] != state_hash:
                        self.ctx.halt(f"entry #{entry.index} replays to another state than this "
                                      f"peer's own log says")
                    continue
                if self.ctx.writer is not None and not self.ctx.writer.closed:
                    self.ctx.writer.append(entry, state_hash, self._reveals.get(entry.index, ()))
                divergence = self.ctx.hashes.record_own(entry.index, state_hash)
                if divergence is not None:
                    self._diverged(divergence)
                if entry.index in self._asked:
                    self._asked.discard(entry.index)
                    self.tell(entry.index)
        finally:
            self._sealing = False
        self.report_end()

    # -- state hashes (docs/protocol.md §3.3 "State hashes") ----------------------------

    def report(self) -> StateHash | None:
        """Our hashes not reported yet, to ride on the play message we are about to send
        (mark them reported with `reported` once it is sent); None when there are none.
        More than one report holds go first in StateHash messages of their own."""
        book = self.ctx.hashes
        if book is None:
            return None
        hashes = book.unreported()
        first = book.sent
        while len(hashes) > MAX_HASHES:
            self.ctx.broadcast(StateHash.of(first, hashes[:MAX_HASHES]))
            first += MAX_HASHES
            hashes = hashes[MAX_HASHES:]
            book.mark_reported(first)
        return StateHash.of(first, hashes) if hashes else None

    def reported(self, report: StateHash | None) -> None:
        """``report`` went out on a play message."""
        if report is not None and self.ctx.hashes is not None:
            self.ctx.hashes.mark_reported(report.index + 1)

    def heard(self, member: Member, report: StateHash | None) -> None:
        """``member`` reported state hashes (on a play message we took, or a StateHash)."""
        if report is None or self.ctx.hashes is None:
            return
        divergence = self.ctx.hashes.report_all(member.seat, report.reported())
        if divergence is not None:
            self._diverged(divergence)

    def _diverged(self, divergence: Divergence) -> None:
        """A hash differs from ours: halt naming who diverged (again, as more reports refine
        it), and make sure every peer gets our own hash of that entry — unless it may be a
        takeover of our seat while we were cut off (`in_doubt`: nothing is told then)."""
        if self.ctx.phase != Phase.HALTED and self.in_doubt(divergence):
            return
        self.ctx.halt(divergence.describe(self.ctx.names()), tell=True, index=divergence.index)
        self.tell(divergence.index)

    def tell(self, index: int) -> None:
        """Send every peer our state hash of entry ``index`` in a StateHash of its own, once:
        someone found a disagreement there (we did, or a peer's StateHash or DESYNC error
        says so), and every peer must hold every seat's hash of it to name the same seats.
        Before we have sealed it, once we do."""
        book = self.ctx.hashes
        if book is None or index in self._told:
            return
        if index >= len(book.own):
            if index < len(book.own) + HASHES_AHEAD:
                self._asked.add(index)
            return
        self._told.add(index)
        self.ctx.broadcast(StateHash(index, book.own[index]))

    def report_end(self) -> None:
        """Once the game is over here (or the table agreed to end it) and every entry is
        sealed: report every hash not reported yet, the last entry's always, so that every
        peer knows this one holds the final state (docs/protocol.md §5.8)."""
        table, book = self.table, self.ctx.hashes
        if (self._ended or table is None or book is None or self._unsealed
                or not book.own or self.ctx.phase != Phase.FINISHED or not self.acknowledged()):
            return
        self._ended = True
        book.sent = min(book.sent, len(book.own) - 1)
        report = self.report()
        assert report is not None  # (the last entry at least)
        self.ctx.broadcast(report)
        self.reported(report)

    def on_state_hash(self, rx: Received, env: Envelope, member: Member,
                      body: StateHash) -> None:
        if self.ctx.hashes is None:
            return
        divergence = self.ctx.hashes.report_all(member.seat, body.reported())
        if divergence is not None:
            self._diverged(divergence)
        elif self.ctx.phase == Phase.FINISHED:
            self.report_end()  # (ours may have waited for this one: `acknowledged`)
            self.ctx.notify()  # one more seat confirmed the end

    def confirmed_end(self) -> bool:
        """True when the game is over here and no connected seat still owes its final hash.

        A seat that confirmed the final state, left, is lost (its last StateHash and Leave
        may have died with its process) or never came back (a resumed finished game) is not
        waited for: a finished game ends for everyone who holds its final hash, at once
        (docs/protocol.md §5.8).
        """
        ctx, table = self.ctx, self.table
        if table is None or ctx.hashes is None or ctx.roster is None:
            return False
        if ctx.phase != Phase.FINISHED or not self.acknowledged():
            return False
        last = table.index - 1
        # (A seat a bot plays for a departed player, or one an agreed end left out, is not
        # connected: not waited for either, §5.9.)
        return all(m.link != Link.CONNECTED or ctx.hashes.reported(m.seat, last)
                   for m in ctx.roster.others())

    def desync_settled(self) -> bool:
        """False while a desync's naming may still change (reports for it are on the way)."""
        ctx = self.ctx
        divergence = ctx.hashes.divergence if ctx.hashes is not None else None
        if divergence is None or ctx.roster is None:
            return True
        return all(m.seat in divergence.hashes or m.link != Link.CONNECTED for m in ctx.roster)

    # -- simultaneous steps -------------------------------------------------------------

    def open_step(self) -> StepRound:
        """The simultaneous step at the table's index (opened now if need be)."""
        return self._open_step()

    def reveal_when_ready(self) -> None:
        """Reveal this process's choices (its own and hosted seats') once every commitment
        of the step is in, and apply the step once complete."""
        self._maybe_reveal_step()

    def _open_step(self) -> StepRound:
        assert self.table is not None
        step = self._step
        if step is None or step.index != self.table.index:
            step = self._step = StepRound(self.table.index, self.table.active_seats())
        return step

    def play_own(self, action: Action, *, authored: Callable[[int], None]) -> Refusal | None:
        """This peer's seat plays ``action`` (the seat may act: the caller checked): committed
        in a simultaneous step, else applied and sent at once.  ``authored(index)`` is told
        the log index this peer authored for its own seat.  None, or why not."""
        table = self.table
        assert table is not None
        seat = self.ctx.seat
        active = table.active_seats()
        if seat not in active:
            who = ", ".join(str(s) for s in active)
            return Refusal(Code.NOT_YOUR_TURN, f"seat {seat} may not act now "
                                               f"(waiting for seat {who})")
        if len(active) > 1:
            refused = self.commit_step(action)
            if refused is None:
                authored(table.index)
            return refused
        index = table.index
        refused = self.author(seat, action)
        if refused is None:
            authored(index)
        return refused

    def author(self, seat: int, action: Action) -> Refusal | None:
        """Apply ``action`` of ``seat`` (this peer's own, or one its bot plays) on its turn
        and send it.  At a sealed table it travels as `SealedTable.prepare` makes it, with
        the keys of the cards it shows.  None once applied (or, at a sealed table, sent and
        waiting for cards every peer must see first), else why not."""
        table = self.table
        assert table is not None
        if isinstance(table, SealedTable) and self.held():
            # (a seat is not ready meanwhile; a race with it waits here)
            self._waiting.append(lambda: self._author_later(seat, action))
            return None
        refused = self._logged_first()
        if refused is not None:
            return refused
        index, prev = table.index, table.head
        report = self.report()  # our hashes of the entries sealed so far ride along
        try:
            if isinstance(table, SealedTable):
                ready = self._ready(table, seat, action)
                if isinstance(ready, Refusal):
                    return ready
                wire, faces, reveals = ready
                announce = ActionMsg(index, prev, seat, wire, reveals, report)
                result: tuple[Applied, ...] | Refusal | Waiting = table.submit(
                    seat, wire, index=index, prev=prev, reveals=faces)
            else:
                announce = ActionMsg(index, prev, seat, action, hashes=report)
                result = table.submit(seat, action, index=index, prev=prev)
        except RulesError as exc:
            self.ctx.rules_failed(exc)
            return Refusal("rules_failed", str(exc))
        if isinstance(result, Refusal):
            return result
        self.reported(report)
        self._keep_own(index, [announce])
        if isinstance(result, Waiting):
            self.ctx.broadcast(announce)
            self._sent_waiting = announce
            self._wait(result, lambda: self._apply_own(announce, faces))
            return None
        if announce.reveals:
            self._reveals[index] = announce.reveals
        self.applied(result, announce=announce)
        self.drain()
        return None

    def _logged_first(self) -> Refusal | None:
        """Before this peer acts: every entry it follows is sealed, so in its log (a seat
        whose log cannot be written stops there and acts no more, `PeerContext.log_failed`)."""
        self.seal()
        if self.ctx.phase != Phase.PLAYING:
            return Refusal("wrong_phase", f"the table is {self.ctx.phase.value} here")
        return None

    def _author_later(self, seat: int, action: Action) -> bool:
        """An own action that came while the table was held: authored now (False while
        still held)."""
        if self.held():
            self._waiting.append(lambda: self._author_later(seat, action))
            return False
        refused = self.author(seat, action)
        if refused is not None:
            log.warning("seat %d's action %s, held while cards were shown, is refused now: %s",
                        seat, action, refused.message)
            self.ctx.notify()  # its chooser chooses again
        return True

    def _apply_own(self, sent: ActionMsg, faces: Mapping[Key, object]) -> bool:
        """This peer's own action, sent before the cards it reads were open: applied now."""
        table = self.table
        assert isinstance(table, SealedTable)
        result = table.submit(sent.seat, sent.action, index=sent.index, prev=sent.prev,
                              reveals=faces)
        if isinstance(result, Waiting):
            self._wait(result, lambda: self._apply_own(sent, faces))
            return False
        if self._sent_waiting is sent:
            self._sent_waiting = None
        if isinstance(result, Refusal):
            self.ctx.halt(f"this peer's own action #{sent.index} is refused once its cards were "
                          f"shown: {result.message}", index=sent.index)
            return True
        if sent.reveals:
            self._reveals[sent.index] = sent.reveals
        self.applied(result)
        return True

    def _ready(self, table: SealedTable, seat: int, action: Action) -> Ready | Refusal:
        """``action`` of ``seat`` made ready to travel (`SealedTable.prepare`): the listed
        action it equals is taken, so that its cards are the seat's known cards (a bot may
        hand back an equal action built anew)."""
        listed = table.legal_actions(seat)
        with contextlib.suppress(ValueError):  # not listed: the rules will say why
            action = listed[listed.index(action)]
        prepared = table.prepare(seat, action)
        if isinstance(prepared, Refusal):
            return prepared
        return prepared.action, prepared.attached, self.sealed.reveals_for(prepared)

    def choice(self, seat: int, action: Action) -> Action | Refusal:
        """``seat``'s choice for the open simultaneous step, checked against the step's
        starting state and made ready to travel: the action to commit to (at a sealed table,
        as it travels; its cards' keys go with the reveal)."""
        table = self.table
        assert table is not None
        if not isinstance(table, SealedTable):
            result = table.check(seat, action)
            return result if isinstance(result, Refusal) else action
        ready = self._ready(table, seat, action)
        if isinstance(ready, Refusal):
            return ready
        wire, faces, reveals = ready
        self._step_reveals[seat] = reveals
        self._step_faces[seat] = faces
        return wire

    def commit_step(self, action: Action) -> Refusal | None:
        """This peer's seat chooses ``action`` for the open simultaneous step: checked
        against the step's starting state, then committed (nothing is revealed yet)."""
        assert self.table is not None
        refused = self._logged_first()
        if refused is not None:
            return refused
        step = self._open_step()
        if step.own is not None:
            return Refusal(Code.ALREADY_CHOSEN, f"seat {self.ctx.seat} already chose for this step")
        chosen = self.choice(self.ctx.seat, action)
        if isinstance(chosen, Refusal):
            return chosen
        commitment = step.choose(self.ctx.seat, chosen)
        report = self.report()
        body = self._commits[self.ctx.seat] = ActionCommit(step.index, self.ctx.seat,
                                                           commitment, report)
        self.ctx.broadcast(body)
        self.reported(report)
        self._maybe_reveal_step()
        self.ctx.notify()
        return None

    def _maybe_reveal_step(self) -> None:
        step = self._step
        if step is None or not step.all_committed:
            return
        mine = _own_choices(step)
        if not mine:
            return
        for seat, action, salt in mine:
            if seat not in step.reveals:
                step.reveals[seat] = action
                self.ctx.broadcast(ActionReveal(step.index, seat, action, salt,
                                                self._step_reveals.get(seat, ())))
        self._maybe_apply_step()

    def _maybe_apply_step(self) -> None:
        """Apply the step whole once every active seat's choice is revealed."""
        step = self._step
        table = self.table
        if (step is None or table is None or not step.complete or step.index != table.index
                or self.ctx.phase != Phase.PLAYING or self.held()):
            return
        self.seal()
        try:
            if isinstance(table, SealedTable):
                faces = {k: f for seat_faces in self._step_faces.values()
                         for k, f in seat_faces.items()}
                result: tuple[Applied, ...] | Refusal | Waiting = table.submit_step(
                    step.choices(), index=step.index, prev=table.head, reveals=faces)
            else:
                result = table.submit_step(step.choices(), index=step.index, prev=table.head)
        except RulesError as exc:
            self._step = None
            self.ctx.rules_failed(exc)
            return
        if isinstance(result, Waiting):
            self.sealed.share_public(result.reveals)  # applied again once they are open
            return
        self._step = None
        if isinstance(result, Refusal):  # each choice was checked as it was revealed
            self.ctx.halt(f"the simultaneous step at #{step.index} cannot be applied: {result}")
            return
        for applied in result:
            reveals = self._step_reveals.get(applied.entry.seat)
            if reveals and applied.entry.seat != -1:
                self._reveals[applied.entry.index] = reveals
        self._keep_own(step.index, [
            body for seat, action, salt in _own_choices(step)
            for body in (self._commit_body(step, seat),
                         ActionReveal(step.index, seat, action, salt,
                                      self._step_reveals.get(seat, ())))])
        self._commits.clear()
        self._step_reveals.clear()
        self._step_faces.clear()
        self.applied(result)
        self.drain()

    def _step_message(self, rx: Received, env: Envelope, member: Member,
                      body: ActionCommit | ActionReveal) -> StepRound | None:
        if self.author_of(body.seat) != member.seat:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"{member.label()} cannot act for seat {body.seat}",
                            ref_index=body.index)
            return None
        table = self.table
        if table is None or body.index > table.index:
            self._hold_ahead(body.index, rx, env, member)
            return None
        if self.ctx.phase != Phase.PLAYING:
            return None
        if body.index < table.index:
            self.ctx.refuse(rx, env, ErrorCode.BAD_INDEX, f"the step at #{body.index} is over",
                            ref_index=body.index)
            return None
        active = table.active_seats()
        if len(active) < 2 or body.seat not in active:
            self.ctx.refuse(rx, env, ErrorCode.OUT_OF_TURN,
                            f"seat {body.seat} has no simultaneous choice at #{body.index}",
                            ref_index=body.index)
            return None
        return self._open_step()

    def on_action_commit(self, rx: Received, env: Envelope, member: Member,
                         body: ActionCommit) -> None:
        step = self._step_message(rx, env, member, body)
        if step is None:
            return
        try:
            step.commit(body.seat, body.commitment)
        except StepError as exc:
            self.ctx.refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message, ref_index=body.index)
            return
        self.heard(member, body.hashes)
        self._maybe_reveal_step()
        self.ctx.notify()

    def on_action_reveal(self, rx: Received, env: Envelope, member: Member,
                         body: ActionReveal) -> None:
        step = self._step_message(rx, env, member, body)
        if step is None:
            return
        table = self.table
        assert table is not None
        if isinstance(table, SealedTable):
            opened: Mapping[Key, object] | str = self.sealed.open_attached(body.seat,
                                                                           body.reveals)
            if isinstance(opened, str):
                self.ctx.halt(f"{member.label()} cheated at the simultaneous step #{body.index}: "
                              f"its choice {opened}", index=body.index)
                return
            if body.seat not in step.reveals:
                self._step_faces[body.seat] = opened
                self._step_reveals[body.seat] = body.reveals

        def legality(seat: int, action: Action) -> Refusal | None:
            # the table is still at the step's start
            if isinstance(table, SealedTable):
                return table.check_choice(seat, action, self._step_faces.get(seat))
            result = table.check(seat, action)
            return result if isinstance(result, Refusal) else None

        try:
            step.reveal(body.seat, body.action, body.salt, legality)
        except StepError as exc:
            refusal = exc.refusal
            if refusal is None:
                self.ctx.refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message, ref_index=body.index)
            else:
                self.ctx.refuse(rx, env, error_code_for_refusal(refusal.code), exc.message,
                                ref_index=body.index, refusal=refusal.code)
            if exc.fatal:
                self.ctx.halt(f"{member.label()} cheated at the simultaneous step #{body.index}: "
                              f"{exc.message}", index=body.index)
            return
        self._maybe_apply_step()

    # -- catch-up -----------------------------------------------------------------------

    def request_catch_up(self, member: Member | None, from_index: int | None = None) -> None:
        """Ask ``member`` (None: everyone) for the entries after our log's end (or from
        ``from_index``: what it holds of ours from there, `hedgerow.net.rollback.Inquiry`)."""
        if self.table is None or self.ctx.roster is None:
            return
        self.catch_up_at = self.ctx.now()
        body = CatchUpRequest(self.table.index if from_index is None else from_index)
        if member is None:
            self.ctx.broadcast(body)
        else:
            self.ctx.send(member, body)

    def on_catch_up_request(self, rx: Received, env: Envelope, member: Member,
                            body: CatchUpRequest) -> None:
        table = self.table
        if table is None or self.ctx.hashes is None:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_PHASE, "play has not started here")
            return
        self.seal()
        sealed = len(self.ctx.hashes.own)  # (a sealed table may still wait to seal some)
        start = min(body.from_index, sealed)
        stop = min(sealed, start + CATCH_UP_BATCH)
        items = tuple(LoggedEntry(table.entries[i], self.ctx.hashes.own[i],
                                  self._reveals.get(i, ()))
                      for i in range(start, stop))
        self.ctx.send(member, CatchUpReply(table.header, start, items, sealed))

    def on_catch_up_reply(self, rx: Received, env: Envelope, member: Member,
                          body: CatchUpReply) -> None:
        table = self.table
        if table is None or self.ctx.hashes is None:
            return
        if body.header != table.header:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_TABLE, "the catch-up is for another table")
            return
        self.catch_up_at = None
        self.seal()  # our own hashes are all in the book before theirs are compared
        for item in body.entries:
            if self.ctx.phase == Phase.FINISHED and item.entry.index < table.index:
                # The game is over here (another seat's reply came first): what this one
                # sends is its word on entries we hold, its end report among them.
                self.heard(member, StateHash(item.entry.index, item.state_hash))
                continue
            if self.ctx.phase != Phase.PLAYING:
                break
            if not self._follow_entry(rx, env, member, item):
                return
        if body.next_index > table.index and self.ctx.phase == Phase.PLAYING:
            self.request_catch_up(member)
        elif self.syncing:
            self.syncing = False
            log.info("caught up with the table at entry #%d", table.index)
        self.ctx.notify()  # (a seat's word on the last entry may confirm the end)
        self.drain()

    def _follow_entry(self, rx: Received, env: Envelope, member: Member,
                      item: LoggedEntry) -> bool:
        """Feed one catch-up entry to the table in log order; False to drop the rest."""
        table = self.table
        assert table is not None and self.ctx.hashes is not None
        entry = item.entry
        if not entry.intact:
            self.ctx.refuse(rx, env, ErrorCode.BROKEN_CHAIN,
                            f"catch-up entry #{entry.index} has a wrong digest",
                            ref_index=entry.index)
            return False
        if table.index <= entry.index < table.index + table.following:
            return True  # held already: a simultaneous step cut short by an earlier reply
        if isinstance(table, SealedTable) and entry.index >= table.index:
            if self.held():
                return False  # cards are being shown: asked again once they are open
            self.seal()
        try:
            if isinstance(table, SealedTable):
                if entry.is_chance and entry.index >= table.index:
                    return False  # our table makes it once the shuffle is in: ask again then
                faces: Mapping[Key, object] | str = self.sealed.open_attached(entry.seat,
                                                                              item.reveals)
                if isinstance(faces, str):
                    self.ctx.refuse(rx, env, ErrorCode.BAD_REVEAL,
                                    f"catch-up entry #{entry.index}: {faces}",
                                    ref_index=entry.index)
                    return False
                sealed = table.follow(entry.index, entry.seat, entry.action, prev=entry.prev,
                                      reveals=faces)
                if isinstance(sealed, Waiting):
                    self.sealed.share_public(sealed.reveals)
                    return False  # the cards it reads first: asked again once they are open
                result = sealed
                if item.reveals and not isinstance(result, Refusal):
                    self._reveals[entry.index] = item.reveals
            else:
                result = table.follow(entry.index, entry.seat, entry.action, prev=entry.prev)
        except RulesError as exc:
            self.ctx.rules_failed(exc)
            return False
        if isinstance(result, Refusal) and entry.index < table.index:
            # An entry we have (our own chance entries included) that differs: a fork.
            divergence = self.ctx.hashes.report(member.seat, entry.index, item.state_hash)
            message = (divergence.describe(self.ctx.names()) if divergence is not None else
                       f"desync at entry #{entry.index}: {member.label()}'s log differs from "
                       f"this peer's ({result.message})")
            self.ctx.halt(message, tell=True, index=entry.index)
            return False
        if isinstance(result, Refusal):
            self.ctx.refuse(rx, env, error_code_for_refusal(result.code),
                            f"catch-up entry #{entry.index}: {result.message}",
                            ref_index=entry.index, refusal=result.code)
            return False
        self.ctx.hashes.confirm(entry.index + 1)  # its sender holds it and every one before
        if result:
            self.applied(result)
            if self._step is not None and self._step.index < table.index:
                self._step = None  # the step it was collecting is over
        divergence = self.ctx.hashes.report(member.seat, entry.index, item.state_hash)
        if divergence is not None:
            self.ctx.halt(divergence.describe(self.ctx.names()), tell=True, index=divergence.index)
            return False
        return True


def _own_choices(step: StepRound) -> list[tuple[int, Action, bytes]]:
    """The choices this process made in ``step``: its own seat's, then its bots' (seat,
    action, salt)."""
    mine = [] if step.own is None else [step.own]
    return mine + [(seat, action, salt) for seat, (action, salt) in step.hosted.items()]
