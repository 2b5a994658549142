"""`PeerContext`: what every phase of one table peer shares, and how each sends, refuses and
halts.

`hedgerow.net.peer.Peer` runs the table protocol (docs/protocol.md) as phase objects
(seating, startup, play, links, departures, a returning peer).  Each keeps its own state;
what they share is this one object, passed to each constructor:

* who this peer is and where it sits: its key and sockets (``identity``, ``node``), the
  seating (``seat``, ``players``, ``ruleset``, ``table_id``, ``is_host``, ``host_key``,
  ``roster``), set once by `seated`; the seed round (``round``: counts the seed agreements
  begun, from 1; the host sets it, docs/protocol.md §3.2);
* the table as far as it goes: ``table`` (None before the seed), ``phase`` and ``problem``,
  the state-hash book (``hashes``).  The phase changes in one place, `PeerContext.enter`,
  and only along `MOVES` (no phase object assigns it);
* the log file and the table file beside it (``writer``, ``log_path``, `save_table_file`);
  at the host, before there is a log, the open-table file (``open_path``,
  `save_open_table`, `hedgerow.net.openfile`);
* the sender (`send`, `broadcast`), the refuser (`refuse`, which answers with an ``Error``
  and remembers the refusal in ``refusals``), `halt`, and `notify` for the seat's watchers.

No phase takes the whole object: each names what it reads and writes of it as a protocol
of its own (built from `Speaking`, `Seated` and `Living`), and anything it needs from
another phase is a callable or a small protocol in its constructor, so each phase's reach
is visible, and checked by the type checker, where it is built (`Peer.__init__`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from hedgerow.core.errors import HedgerowError, RulesError
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Table
from hedgerow.net import openfile, rulesmatch, tablefile
from hedgerow.net.codec import encode_envelope
from hedgerow.net.hashbook import HashBook
from hedgerow.net.keys import Identity, key_text
from hedgerow.net.logfile import LogWriter
from hedgerow.net.members import Member, Roster
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    Body,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Hello,
    StateHash,
)
from hedgerow.net.seat import Changes, Phase
from hedgerow.net.shown import shown
from hedgerow.net.throttle import Throttle
from hedgerow.net.transport import Node, Received
from hedgerow.net.wirerules import MAX_MESSAGE_LENGTH, MAX_REFUSAL_LENGTH

log = logging.getLogger(__name__)

#: Seconds between heartbeats, and of silence after which a seat is lost.
HEARTBEAT_S = 1.0
LOST_AFTER_S = 5.0
#: Messages for later log indices kept until their turn comes (more are dropped and
#: fetched again by catch-up).
AHEAD_LIMIT = 256
#: Messages from peers not yet in the roster kept while seats fill.
HELD_LIMIT = 64
#: Entries per CatchUpReply.
CATCH_UP_BATCH = 256
#: Beats a seed agreement or an open step may stand still before this peer sends its own
#: messages of it again (`Startup.resend_stalled`, `Sync.resend_stalled_step`).
STALL_BEATS = 3
#: While it still stands, the wait before each further repeat doubles, up to this many times
#: `STALL_BEATS` (3, 6, 12, 12... beats): repeats that cross a slow link must not fill it.
STALL_BACKOFF = 4
#: Refusals remembered in ``refusals`` (each message at most 1024 characters), and at
#: most this many of them from one stranger.
REFUSALS_KEPT = 256
STRANGER_REFUSALS_KEPT = 16
NO_TABLE = bytes(16)
#: The bodies that name the log index they are for (an Error refusing one carries it).
INDEXED = (ActionMsg, ActionCommit, ActionReveal, StateHash)


#: Where the table's phase may go from each phase (`PeerContext.enter`): seating fills and
#: the seed is agreed (or a resumed seat comes back straight to play, or to a finished
#: game); a seat lost before anyone acted sends the table back to seating (§3.2); play
#: ends, by the rules or by agreement (§5.9); anything may halt, and a halted table stays.
MOVES: dict[Phase, frozenset[Phase]] = {
    Phase.SEATING: frozenset({Phase.SEEDING, Phase.PLAYING, Phase.FINISHED, Phase.HALTED}),
    Phase.SEEDING: frozenset({Phase.SEATING, Phase.PLAYING, Phase.FINISHED, Phase.HALTED}),
    Phase.PLAYING: frozenset({Phase.SEATING, Phase.FINISHED, Phase.HALTED}),
    # (back to playing: a seat cut off as its own move ended the game takes it back, §5.9)
    Phase.FINISHED: frozenset({Phase.SEATING, Phase.PLAYING, Phase.HALTED}),
    Phase.HALTED: frozenset(),
}


class Stall:
    """Heartbeats counted while something this peer takes part in (the seed agreement, an
    open step) stands still, so that it sends its own messages of it again: a link cut and
    re-made may have lost them without either side seeing the other lost."""

    def __init__(self) -> None:
        self.mark: tuple[int, ...] | None = None  # where it stood at the last beat
        self.beats = 0  # beats since it last moved, or since it was last due
        self.still = 0  # beats since it last moved
        self.repeats = 0  # times it was due since it last moved

    def reset(self) -> None:
        """Nothing to watch now."""
        self.mark, self.beats, self.still, self.repeats = None, 0, 0, 0

    def due(self, mark: tuple[int, ...], every: int = STALL_BEATS) -> bool:
        """Called once a heartbeat with where it stands: True once it has stood still for
        ``every`` beats, then again after twice as many, four times, ... at most
        `STALL_BACKOFF` times ``every`` beats apart while it still does."""
        if mark != self.mark:
            self.mark, self.beats, self.still, self.repeats = mark, 0, 0, 0
            return False
        self.beats += 1
        self.still += 1
        if self.beats < backoff(every, self.repeats):
            return False
        self.beats = 0
        self.repeats += 1
        return True


def backoff(every: int, repeats: int) -> int:
    """Beats to wait before a repeat after ``repeats`` repeats: ``every``, then doubling up
    to `STALL_BACKOFF` times ``every``."""
    return every * min(1 << min(repeats, 8), STALL_BACKOFF)


class JoinRefused(HedgerowError):
    """The table would not seat this peer (the message says why)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="join_refused")


@dataclass(frozen=True, slots=True)
class RefusalRecord:
    """A message this peer refused: from whom, what, and why (also logged)."""

    sender: bytes
    seat: int | None
    what: str
    code: ErrorCode
    message: str
    ref_index: int | None = None


def body_name(env: Envelope | None) -> str:
    """The name of an envelope's body, for log lines ("a message" when it did not decode)."""
    return "a message" if env is None else type(env.body).__name__


class Speaking(Protocol):
    """How a phase speaks: to every seated peer, to one, a refusal, a log line about
    another peer's message, and to the seat's watchers; and the loop's clock."""

    def now(self) -> float: ...

    def broadcast(self, body: Body) -> None: ...

    def send(self, member: Member, body: Body) -> None: ...

    def refuse(self, rx: Received, env: Envelope | None, code: ErrorCode, message: str, *,
               ref_index: int | None = None, ref_seq: int | None = None,
               refusal: str = "") -> None: ...

    def note(self, sender: bytes, kind: bytes, level: int, msg: str, *args: object,
             extra: Mapping[str, object] | None = None) -> None:
        """A log line another peer's message caused, rate-limited per sender and kind."""

    def notify(self) -> None: ...


class Keyed(Protocol):
    """Who this peer is, and its sockets."""

    @property
    def identity(self) -> Identity: ...

    @property
    def node(self) -> Node: ...


class Seated(Protocol):
    """Where this peer sits (read only: `PeerContext.seated` sets it)."""

    @property
    def seat(self) -> int: ...

    @property
    def players(self) -> int: ...

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def roster(self) -> Roster | None: ...


class Decked(Protocol):
    """What names the table's deck: sealed, or open by its host's choice (§10)."""

    open_deck: bool

    @property
    def fingerprint(self) -> str: ...

    @property
    def sealed(self) -> bool: ...


class Living(Protocol):
    """The table's life: its phase, moved only by `enter`, and its stops."""

    @property
    def phase(self) -> Phase: ...

    def enter(self, phase: Phase) -> None: ...

    def halt(self, message: str, *, tell: bool = False, index: int | None = None) -> None: ...

    def rules_failed(self, exc: RulesError) -> None: ...


class PeerContext:
    """The state every phase of a peer shares and the helpers they act through.  No phase
    takes all of it: each declares what it reads and writes as a protocol of its own
    (`hedgerow.net.sync.PlayContext`, ...), built from `Speaking`, `Keyed`, `Seated` and
    `Living`,
    and this object is each of them."""

    def __init__(self, identity: Identity, node: Node, *, seat_name: str = "",
                 bot: str | None = None, log_dir: Path | None = None,
                 key_file: str | None = None) -> None:
        self.identity = identity
        self.node = node
        self.seat_name = shown(seat_name, None)  # sent to the others: plain text only
        self.bot = bot  # the strategy playing this seat, if a bot does
        self.log_dir = log_dir
        self.key_file = key_file  # saved in the table file for `hedgerow resume`
        # The seating (set by `seated`).
        self.seat = -1
        self.players = 0
        self.ruleset = cast(Ruleset, None)
        self.table_id = b""
        self.is_host = False
        self.host_key: bytes | None = None
        self.roster: Roster | None = None
        self.hashes: HashBook | None = None
        self.round = 1  # the seed round (§3.2): one more each time the table starts over
        self.open_deck = False  # the table plays with an open deck, by its host's choice (§10)
        # The table.
        self.table: Table | None = None
        self._phase = Phase.SEATING
        self.problem: str | None = None
        self._writer: LogWriter | None = None
        #: Told of every new log writer (the host's spectators stream its records, §3.4).
        self.on_writer: Callable[[LogWriter | None], None] | None = None
        #: The spectators watching the table, by name (the host's list, §3.4).
        self.watchers: tuple[str, ...] = ()
        #: This seat could not write its log (a full disk): it went silent, lost to the
        #: others, and stopped (`log_failed`).
        self.silent = False
        self.log_path: Path | None = None
        self.open_path: Path | None = None  # the host's open-table file, before the log
        self.table_name = ""  # the table's name on the LAN (kept in the open-table file)
        self.refusals: deque[RefusalRecord] = deque(maxlen=REFUSALS_KEPT)
        self._kept: dict[bytes, int] = {}  # refusals kept per sender
        self.throttle = Throttle()  # how many lines about others' messages are written
        self.changes = Changes()  # the seat's watchers
        self._seq = 0  # envelopes created by this process (a reference, docs/protocol.md §5.2)

    def seated(self, ruleset: Ruleset, players: int, seat: int) -> None:
        """This peer holds ``seat`` at a ``players``-seat table of ``ruleset``."""
        self.ruleset = ruleset
        self.players = players
        self.seat = seat
        self.roster = Roster(players, self.identity.public)
        self.hashes = HashBook(players, seat)

    @property
    def writer(self) -> LogWriter | None:
        """This seat's log (once the seed is agreed); a record it cannot write stops the
        seat (`log_failed`)."""
        return self._writer

    @writer.setter
    def writer(self, writer: LogWriter | None) -> None:
        self._writer = writer
        if writer is not None:
            writer.on_failure = self.log_failed
        if self.on_writer is not None:
            self.on_writer(writer)

    def log_failed(self, problem: str) -> None:
        """This seat's log cannot be written (a full disk, docs/protocol.md §6): it stops at
        once, before it reports (`StateHash`) or acts on an entry it has not logged, and goes
        silent (nothing more is sent, not even a heartbeat or a ``Leave``): to the others it
        is lost, not gone (§5.8), so what they do about a departed seat applies (§5.9).
        The log holds every entry up to the last one written whole; ``hedgerow resume``,
        once there is room again, catches up the rest from the table: nothing is lost."""
        if self.silent:
            return
        self.silent = True
        self.halt(f"this seat cannot write its log ({problem}): the others see it lost and "
                  "may wait for it, seat a bot or end the game.  Free some space (or set "
                  "HEDGEROW_HOME to a folder on another disk), then run hedgerow resume: "
                  "nothing is lost")

    @property
    def fingerprint(self) -> str:
        """The table's fingerprint: its rules', marked when the deck is open (§10.12)."""
        return rulesmatch.table_fingerprint(self.ruleset, open_deck=self.open_deck)

    @property
    def sealed(self) -> bool:
        """True at a table whose deck is sealed (every networked table of two seats or more,
        unless its host opened it with an open deck; a lone seat has nobody to hide from)."""
        return not self.open_deck and self.players > 1

    @property
    def phase(self) -> Phase:
        """Where the table is in its life (changed only by `enter`)."""
        return self._phase

    def enter(self, phase: Phase) -> None:
        """The table moves to ``phase``: the one place the phase changes.  Entering the phase
        it is in changes nothing; a move `MOVES` does not list is a bug, and raises."""
        if phase == self._phase:
            return
        if phase not in MOVES[self._phase]:
            raise RuntimeError(f"the table cannot go from {self._phase.value} to {phase.value}")
        log.debug("the table goes from %s to %s", self._phase.value, phase.value)
        self._phase = phase

    def now(self) -> float:
        """The event loop's clock."""
        return asyncio.get_running_loop().time()

    # -- sending ------------------------------------------------------------------------

    def encode(self, body: Body, *, table_id: bytes | None = None) -> bytes:
        """``body`` in a new envelope from this peer (the next ``seq``)."""
        self._seq += 1
        tid = self.table_id if table_id is None else table_id
        if not tid and not isinstance(body, Hello):
            tid = NO_TABLE
        return encode_envelope(Envelope(tid, self.identity.public, self._seq, body))

    @property
    def seq(self) -> int:
        """The ``seq`` of the last envelope this peer made (what a repeat compares with a
        peer's ``SealHeld.seen``, docs/protocol.md §10.8)."""
        return self._seq

    def broadcast(self, body: Body) -> None:
        """Send ``body`` to every other seated peer (one envelope; nothing once this seat
        went silent, `log_failed`)."""
        if self.roster is None or self.silent:
            return
        data = self.encode(body)
        for m in self.roster.others():
            self.node.send(m.key, data)

    def send(self, member: Member, body: Body) -> None:
        """Send ``body`` to one seated peer (nothing once this seat went silent)."""
        if not self.silent:
            self.node.send(member.key, self.encode(body))

    def notify(self) -> None:
        """Tell every watcher of the seat that something changed."""
        self.changes.notify()

    def wake(self) -> None:
        """Wake `Peer.wait_until` callers only (a refusal: nothing the screen shows)."""
        self.changes.wake()

    # -- naming -------------------------------------------------------------------------

    def names(self) -> dict[int, str]:
        """Each seat's display name."""
        return {} if self.roster is None else {m.seat: m.info.display_name for m in self.roster}

    def who(self, key: bytes) -> str:
        """A seat's label, or a stranger's key, for log lines."""
        member = self.roster.by_key(key) if self.roster is not None else None
        return member.label() if member is not None else f"stranger {key_text(key)[:8]}"

    # -- refusing and halting -----------------------------------------------------------

    def refuse(self, rx: Received, env: Envelope | None, code: ErrorCode, message: str, *,
               ref_index: int | None = None, ref_seq: int | None = None,
               refusal: str = "") -> None:
        """Log a refused message and answer its sender with an Error; nothing else changes.

        The Error names the refused envelope's ``seq`` (``ref_seq`` when it did not decode)
        and the log index concerned: ``ref_index``, else the body's own ``index`` (an action,
        a step's commit or reveal, a state hash), as docs/protocol.md §2.3 says.
        """
        if ref_index is None and env is not None and isinstance(env.body, INDEXED):
            ref_index = env.body.index
        if env is not None:
            ref_seq = env.seq
        member = self.roster.by_key(rx.sender) if self.roster is not None else None
        what = body_name(env)
        # The message may echo what was refused: bounded and escaped before it goes anywhere.
        message = shown(message, MAX_MESSAGE_LENGTH)
        who = self.who(rx.sender)
        # ``refused`` (the fields of the line) lets a client report it its own way:
        # ``hedgerow host --json`` prints it as an event (`hedgerow.clients.netseat`).
        self.note(rx.sender, bytes([code]), logging.WARNING, "refused %s from %s: %s: %s",
                  what, who, code.name, shown(message),
                  extra={"refused": {"what": what, "from": who, "code": code.name,
                                     "message": message}})
        self._keep(RefusalRecord(rx.sender, member.seat if member else None, what, code,
                                 message, ref_index))
        self.wake()
        if (env is not None and isinstance(env.body, ErrorMsg)) or self.silent:
            return  # never answer an error with an error (nor anything, once silent)
        error = ErrorMsg(code, message, ref_seq, ref_index,  # a plain str: no StrEnum
                         shown(str(refusal), MAX_REFUSAL_LENGTH))
        data = self.encode(error)
        if rx.route is not None:
            self.node.reply(rx.route, data)
        else:
            self.node.send(rx.sender, data)

    def note(self, sender: bytes, kind: bytes, level: int, msg: str, *args: object,
             extra: Mapping[str, object] | None = None) -> None:
        """Log a line that ``sender``'s message caused (a refusal, a motion and the vote it
        got, an ``Error`` it sent), rate-limited per sender and ``kind`` of line and for all
        senders together (docs/protocol.md §5.1, `hedgerow.net.throttle`): a line not
        written is counted, and the next line written says how many were not.  ``extra``
        goes to the log record (`logging.Logger.log`)."""
        if not log.isEnabledFor(level):
            return  # (not written anyway: it takes nothing from the budget)
        if self.throttle.allow(sender + kind, self.now()):
            hidden = self.throttle.take_suppressed()
            log.log(level, msg + (f" ({hidden} more lines about other peers' messages not "
                                  "logged)" if hidden else ""), *args, extra=extra)

    def _keep(self, record: RefusalRecord) -> None:
        """Remember ``record`` among the latest refusals; a stranger (no seat) fills at most
        `STRANGER_REFUSALS_KEPT` of them, so it cannot push everyone else's out."""
        if record.seat is None and self._kept.get(record.sender, 0) >= STRANGER_REFUSALS_KEPT:
            return
        if len(self.refusals) == self.refusals.maxlen:
            oldest = self.refusals[0].sender
            self._kept[oldest] -= 1
            if not self._kept[oldest]:
                del self._kept[oldest]
        self.refusals.append(record)
        self._kept[record.sender] = self._kept.get(record.sender, 0) + 1

    def halt(self, message: str, *, tell: bool = False, index: int | None = None) -> None:
        """Stop the table; ``tell`` sends every seated peer Error(DESYNC) saying why."""
        first = self.phase != Phase.HALTED
        self.enter(Phase.HALTED)
        self.problem = message
        if first:
            log.error("table halted: %s", shown(message, None))
            if tell:
                self.broadcast(ErrorMsg(ErrorCode.DESYNC, shown(message, MAX_MESSAGE_LENGTH),
                                        None, index))
        self.notify()

    def rules_failed(self, exc: RulesError) -> None:
        """The game broke its contract (a bug in the rules, `RulesError`): every peer running
        those rules stops at the same entry."""
        self.halt(f"the rules of {self.ruleset.fingerprint} failed: {exc}")

    # -- files --------------------------------------------------------------------------

    def save_table_file(self) -> None:
        """Save the seating beside the log (once there is a log), for `hedgerow resume`."""
        if self.log_path is None or self.roster is None:
            return
        tablefile.save(self.log_path, tablefile.TableFile(
            self.table_id, self.seat, self.roster.peer_infos(), self.key_file, self.bot,
            self.round))

    def save_open_table(self) -> None:
        """The host, before its log exists: save the seating and the seed round in the
        open-table file, so a crashed host can re-open the table (`hedgerow.net.openfile`)."""
        if not self.is_host or self.open_path is None or self.log_path is not None \
                or self.roster is None:
            return
        try:
            openfile.save(self.open_path, openfile.OpenTable(
                self.table_id, self.fingerprint, self.players, self.table_name,
                self.round, self.roster.peer_infos(), self.key_file, self.bot))
        except OSError as exc:
            log.warning("cannot save %s: %s", self.open_path, exc)

    def drop_open_table(self) -> None:
        """The open-table file is no longer needed: the log took over, or the host left."""
        if self.open_path is not None:
            self.open_path.unlink(missing_ok=True)
