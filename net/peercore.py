"""`PeerCore`: the state a table peer keeps, and how it sends, refuses and halts.

The table protocol (docs/protocol.md) is split by phase over a few mixins that share this
state: `hedgerow.net.lobby` (seating and returning peers), `hedgerow.net.startup` (seed
agreement and the start barrier), `hedgerow.net.sync` (actions, simultaneous steps,
state hashes, catch-up); `hedgerow.net.peer.Peer` puts them together with the sockets,
the heartbeats and the `Seat` interface.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from hedgerow.core.errors import HedgerowError, RulesError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, Table
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
    Start,
    StateHash,
)
from hedgerow.net.seat import HistoryLine, Phase
from hedgerow.net.seedround import SeedRound
from hedgerow.net.stepround import StepRound
from hedgerow.net.transport import Received

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
#: Refusals remembered for `Peer.refusals`.
REFUSALS_KEPT = 256
NO_TABLE = bytes(16)
#: The bodies that name the log index they are for (an Error refusing one carries it).
INDEXED = (ActionMsg, ActionCommit, ActionReveal, StateHash)


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


class PeerCore:
    """The shared state of a table peer and its sending helpers (see the module docstring).

    Not used alone: `hedgerow.net.peer.Peer` provides ``_on_frame`` for the sockets.
    """

    # The state the phases share (declared here so that every phase sees its type).
    identity: Identity
    seat_name: str
    bot: str | None
    plugins: PluginHost | None
    log_dir: Path | None
    heartbeat: float
    lost_after: float
    seat: int
    players: int
    ruleset: Ruleset
    table_id: bytes
    table: Table | None
    is_host: bool
    host_key: bytes | None
    roster: Roster | None
    endpoint: str
    address: str
    syncing: bool
    refusals: deque[RefusalRecord]
    key_file: str | None
    fixed_seed: bytes | None
    accept_host_seed: bool
    _phase: Phase
    _problem: str | None
    _seq: int
    _subscribers: list[Callable[[], None]]
    _tick: asyncio.Event
    _history: list[HistoryLine]
    _seed: SeedRound | None
    _revealed: bool
    _hashes: HashBook | None
    _starts: dict[int, Start]
    _started: set[int]
    _resumed: bool
    _setup_hash: bytes | None
    _ahead: dict[int, list[tuple[Received, Envelope, Member]]]
    _ahead_count: int
    _held: list[tuple[Received, Envelope]]
    _step: StepRound | None
    _writer: LogWriter | None
    _log_path: Path | None
    _catch_up_at: float | None
    _index_at_tick: int
    _joined: asyncio.Future[None] | None
    _draining: bool
    _unsealed: deque[Applied]
    _sealing: bool
    _tasks: list[asyncio.Task[None]]
    _closers: list[Callable[[], Awaitable[None]]]
    _closed: bool

    def __init__(self, identity: Identity, *, seat_name: str = "", bot: str | None = None,
                 plugins: PluginHost | None = None, log_dir: Path | None = None,
                 heartbeat: float = HEARTBEAT_S, lost_after: float = LOST_AFTER_S) -> None:
        from hedgerow.net.transport import Node

        self.identity: Identity = identity
        self.seat_name: str = seat_name
        self.bot: str | None = bot
        self.plugins: PluginHost | None = plugins
        self.log_dir: Path | None = log_dir
        self.heartbeat: float = heartbeat
        self.lost_after: float = lost_after
        self.node = Node(identity, self._on_frame)
        self.seat: int = -1
        self.players: int = 0
        self.ruleset = cast(Ruleset, None)  # set once seated
        self.table_id: bytes = b""
        self.table: Table | None = None
        self.is_host: bool = False
        self.host_key: bytes | None = None
        self.roster: Roster | None = None
        self.endpoint: str = ""
        self.address: str = ""
        self.syncing: bool = False  # resumed: catching up before acting
        self.refusals: deque[RefusalRecord] = deque(maxlen=REFUSALS_KEPT)
        self.key_file: str | None = None
        self.fixed_seed: bytes | None = None  # host: the seed dictated (hedgerow play --seed)
        self.accept_host_seed: bool = False  # joiner: accept a seed the host dictates
        self._phase: Phase = Phase.SEATING
        self._problem: str | None = None
        self._seq: int = 0  # envelopes created by this process (a reference, docs/protocol.md §5.2)
        self._subscribers: list[Callable[[], None]] = []
        self._tick: asyncio.Event = asyncio.Event()
        self._history: list[HistoryLine] = []
        self._seed: SeedRound | None = None
        self._revealed: bool = False
        self._hashes: HashBook | None = None
        self._starts: dict[int, Start] = {}  # Starts that came before our own seed
        self._started: set[int] = set()  # seats whose Start matched ours
        self._resumed: bool = False
        self._setup_hash: bytes | None = None
        self._ahead: dict[int, list[tuple[Received, Envelope, Member]]] = {}
        self._ahead_count: int = 0
        self._held: list[tuple[Received, Envelope]] = []
        self._step: StepRound | None = None
        self._writer: LogWriter | None = None
        self._log_path: Path | None = None
        self._catch_up_at: float | None = None
        self._index_at_tick: int = -1
        self._joined: asyncio.Future[None] | None = None
        self._draining: bool = False
        self._unsealed: deque[Applied] = deque()  # applied, not yet hashed
        self._sealing: bool = False
        self._tasks: list[asyncio.Task[None]] = []
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._closed: bool = False

    def _on_frame(self, rx: Received) -> None:
        """A frame from the sockets (`hedgerow.net.peer.Peer` decodes and dispatches it)."""
        raise NotImplementedError

    # ==================================================================================
    # Sending

    def _seated(self, ruleset: Ruleset, players: int, seat: int) -> None:
        """This peer holds ``seat`` at a ``players``-seat table of ``ruleset``."""
        self.ruleset = ruleset
        self.players = players
        self.seat = seat
        self.roster = Roster(players, self.identity.public)
        self._hashes = HashBook(players, seat)
        self._seed = SeedRound(players, seat)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _encode(self, body: Body, *, table_id: bytes | None = None) -> bytes:
        self._seq += 1
        tid = self.table_id if table_id is None else table_id
        if not tid and not isinstance(body, Hello):
            tid = NO_TABLE
        return encode_envelope(Envelope(tid, self.identity.public, self._seq, body))

    def _broadcast(self, body: Body) -> None:
        if self.roster is None:
            return
        data = self._encode(body)
        for m in self.roster.others():
            self.node.send(m.key, data)

    def _send(self, member: Member, body: Body) -> None:
        self.node.send(member.key, self._encode(body))

    def _notify(self) -> None:
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()
        for callback in list(self._subscribers):
            try:
                callback()
            except Exception:
                log.exception("a subscriber failed")

    def _names(self) -> dict[int, str]:
        return {} if self.roster is None else {m.seat: m.info.display_name for m in self.roster}

    def _who(self, key: bytes) -> str:
        member = self.roster.by_key(key) if self.roster is not None else None
        return member.label() if member is not None else f"stranger {key_text(key)[:8]}"

    def _refuse(self, rx: Received, env: Envelope | None, code: ErrorCode, message: str, *,
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
        log.warning("refused %s from %s: %s: %s", what, self._who(rx.sender), code.name, message)
        self.refusals.append(RefusalRecord(rx.sender, member.seat if member else None, what,
                                           code, message, ref_index))
        if env is not None and isinstance(env.body, ErrorMsg):
            return  # never answer an error with an error
        error = ErrorMsg(code, message, ref_seq, ref_index,
                         str(refusal))  # a plain str: the codec takes no StrEnum
        data = self._encode(error)
        if rx.route is not None:
            self.node.reply(rx.route, data)
        else:
            self.node.send(rx.sender, data)

    def _halt(self, message: str, *, tell: bool = False, index: int | None = None) -> None:
        """Stop the table; ``tell`` sends every seated peer Error(DESYNC) saying why."""
        first = self._phase != Phase.HALTED
        self._phase = Phase.HALTED
        self._problem = message
        if first:
            log.error("table halted: %s", message)
            if tell:
                self._broadcast(ErrorMsg(ErrorCode.DESYNC, message, None, index))
        self._notify()

    def _rules_failed(self, exc: RulesError) -> None:
        """The game broke its contract (a bug in the rules, `RulesError`): every peer running
        those rules stops at the same entry."""
        self._halt(f"the rules of {self.ruleset.fingerprint} failed: {exc}")
