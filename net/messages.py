"""The wire protocol's messages as plain Python values (no protobuf here).

Every `Envelope` carries one body: one of the dataclasses in `Body`.  `hedgerow.net.codec`
turns them into bytes and back; docs/protocol.md specifies every field and when each
message is sent.  Log files hold a `LogHeader` then one `LoggedEntry` per log entry (a
seat's action, or chance the engine resolved: ``entry.seat == CHANCE_SEAT``).

All dataclasses are frozen; equal messages compare equal, and ``decode(encode(m)) == m``.
Limits the codec enforces on both encode and decode are the module constants below.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from hedgerow.core.actions import Action
from hedgerow.core.canon import HASH_SIZE, digest, encode
from hedgerow.core.table import LogEntry, TableHeader

if TYPE_CHECKING:
    from hedgerow.core.ruleset import Ruleset

#: The protocol version this implementation speaks (``Envelope.protocol_version``).  Version 2
#: added chance entries (``LogEntry.chance``) and whole simultaneous steps.
PROTOCOL_VERSION = 2
#: The log-file format version written (``LogHeader.format_version``).
LOG_FORMAT_VERSION = 2
#: Every log-file format version read: format 1 files predate chance entries and hold none.
LOG_FORMATS_READ = (1, 2)
#: Size of a table id (random, chosen by the table's host).
TABLE_ID_SIZE = 16
#: Size of a peer id: a raw CURVE (Curve25519) public key.
PUBLIC_KEY_SIZE = 32
#: Size of every hash on the wire (BLAKE2b-256): chain digests, state hashes, commitments.
#: The same as ``hedgerow.core.canon.HASH_SIZE``.
DIGEST_SIZE = HASH_SIZE
#: Size of a seed share and of an action-commitment salt.
SHARE_SIZE = 32
#: A table seed is 1 to 64 bytes (the BLAKE2b key size limit; commit-reveal gives 32).
MAX_SEED_SIZE = 64
#: Seats at one table, as far as the wire is concerned (games allow fewer).
MAX_PLAYERS = 32
#: Lists inside an action argument nest at most this deep.
MAX_VALUE_DEPTH = 16
#: A display name has at most this many characters.
MAX_NAME_LENGTH = 64
#: An address (``tcp://host:port``) has at most this many characters.
MAX_ADDRESS_LENGTH = 256
#: The largest envelope the codec encodes or decodes, in bytes.
MAX_ENVELOPE_SIZE = 4 * 1024 * 1024


class ErrorCode(IntEnum):
    """Why a message was refused (the ``ErrorCode`` enum of hedgerow.proto, same numbers)."""

    UNKNOWN = 0
    MALFORMED = 1
    STRANGER = 2
    OUT_OF_TURN = 3
    ILLEGAL = 4
    BROKEN_CHAIN = 5
    BAD_INDEX = 6
    WRONG_SEAT = 7
    RULES_MISMATCH = 8
    PROTOCOL_MISMATCH = 9
    TABLE_FULL = 10
    DESYNC = 11
    GAME_OVER = 12
    WRONG_TABLE = 13
    BAD_REVEAL = 14
    WRONG_PHASE = 15
    SEAT_TAKEN = 16


_REFUSAL_CODES = {
    "not_your_turn": ErrorCode.OUT_OF_TURN,
    "simultaneous": ErrorCode.OUT_OF_TURN,
    "malformed": ErrorCode.MALFORMED,
    "game_over": ErrorCode.GAME_OVER,
    "unknown_action": ErrorCode.ILLEGAL,
    "illegal_action": ErrorCode.ILLEGAL,
    "bad_index": ErrorCode.BAD_INDEX,
    "broken_chain": ErrorCode.BROKEN_CHAIN,
    "bad_seat": ErrorCode.WRONG_SEAT,
}


def error_code_for_refusal(refusal_code: str) -> ErrorCode:
    """The wire code for a `hedgerow.core.Refusal` code; a game's own codes are ``ILLEGAL``."""
    return _REFUSAL_CODES.get(refusal_code, ErrorCode.ILLEGAL)


# --------------------------------------------------------------------------------------
# Bodies


@dataclass(frozen=True, slots=True)
class Hello:
    """Joiner -> host: the rules the joiner runs and the seat it wants.

    ``plugins`` is ``((name, version), ...)`` sorted by name, names unique.
    """

    fingerprint: str
    plugins: tuple[tuple[str, str], ...] = ()
    display_name: str = ""
    wanted_seat: int | None = None
    bot: bool = False
    address: str = ""
    spectator: bool = False


@dataclass(frozen=True, slots=True)
class PeerInfo:
    """One seated peer, as the host lists it in a `SeatAssignment`."""

    seat: int
    public_key: bytes
    address: str
    display_name: str = ""
    bot: bool = False


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    """Host -> peer: your seat (None for a spectator), the table's size, rules and peers.

    ``peers`` are sorted by seat, each seat at most once.
    """

    seat: int | None
    players: int
    fingerprint: str
    peers: tuple[PeerInfo, ...] = ()


@dataclass(frozen=True, slots=True)
class SeedCommit:
    """A seat's commitment to its seed share (``hedgerow.core.seeding.commitment``)."""

    seat: int
    commitment: bytes


@dataclass(frozen=True, slots=True)
class SeedReveal:
    """A seat's seed share, sent once every seat's commitment is in."""

    seat: int
    share: bytes


@dataclass(frozen=True, slots=True)
class Start:
    """Host -> every peer: the table header, and the state hash before the first action."""

    header: TableHeader
    setup_hash: bytes


@dataclass(frozen=True, slots=True)
class ActionMsg:
    """The acting seat's action, to become log entry ``index`` chained to ``prev``."""

    index: int
    prev: bytes
    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class StateHash:
    """The sender's state hash after applying log entry ``index``."""

    index: int
    state_hash: bytes


@dataclass(frozen=True, slots=True)
class ActionCommit:
    """Simultaneous step starting at log index ``index``: ``seat`` commits to its action."""

    index: int
    seat: int
    commitment: bytes


@dataclass(frozen=True, slots=True)
class ActionReveal:
    """Simultaneous step: ``seat`` reveals the action and salt it committed to."""

    index: int
    seat: int
    action: Action
    salt: bytes


@dataclass(frozen=True, slots=True)
class CatchUpRequest:
    """Send me every log entry from ``from_index`` on."""

    from_index: int


@dataclass(frozen=True, slots=True)
class LoggedEntry:
    """A log entry with the state hash after it: one log-file record, one catch-up item."""

    entry: LogEntry
    state_hash: bytes

    @property
    def index(self) -> int:
        """The entry's log index."""
        return self.entry.index


@dataclass(frozen=True, slots=True)
class CatchUpReply:
    """Log entries ``from_index ..`` (consecutive), and the sender's log length."""

    header: TableHeader
    from_index: int
    entries: tuple[LoggedEntry, ...]
    next_index: int


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """I am alive, and my log holds ``next_index`` entries."""

    next_index: int = 0


@dataclass(frozen=True, slots=True)
class Leave:
    """I am leaving the table."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class ErrorMsg:
    """A refusal: the referenced message changed nothing.

    ``ref_seq`` is the refused envelope's ``seq``, ``ref_index`` the log index concerned,
    ``refusal`` the rules' own refusal code (``"petals.not_adjacent"``) for ``ILLEGAL``.
    """

    code: ErrorCode
    message: str
    ref_seq: int | None = None
    ref_index: int | None = None
    refusal: str = ""


#: Any message body an `Envelope` can carry.
Body = (
    Hello | SeatAssignment | SeedCommit | SeedReveal | Start | ActionMsg | StateHash
    | ActionCommit | ActionReveal | CatchUpRequest | CatchUpReply | Heartbeat | Leave | ErrorMsg
)


@dataclass(frozen=True, slots=True)
class Envelope:
    """One message on the wire: the table, the sender's public key, its sequence number, a body.

    The protocol version is not a field: the codec writes `PROTOCOL_VERSION` and refuses others.
    """

    table_id: bytes
    sender: bytes
    seq: int
    body: Body


# --------------------------------------------------------------------------------------
# Log file


@dataclass(frozen=True, slots=True)
class LogHeader:
    """The first record of a log file: what is needed to rebuild the table from its entries.

    ``variants`` are sorted by name; ``table_id`` is empty for local play; ``own_seat`` is
    the seat this peer held (None for a simulation); ``seat_names`` is empty or one per seat.
    """

    game: str
    variants: tuple[str, ...]
    fingerprint: str
    players: int
    seed: bytes
    table_id: bytes = b""
    own_seat: int | None = None
    seat_names: tuple[str, ...] = ()

    @property
    def table_header(self) -> TableHeader:
        """The core header (fingerprint, players, seed) whose genesis the first entry chains to."""
        return TableHeader(self.fingerprint, self.players, self.seed)

    @classmethod
    def for_table(cls, ruleset: Ruleset, players: int, seed: bytes, *, table_id: bytes = b"",
                  own_seat: int | None = None, seat_names: tuple[str, ...] = ()) -> LogHeader:
        """The header for a table of ``ruleset`` (game, variants and fingerprint from it)."""
        return cls(ruleset.game.name, ruleset.variant_names, ruleset.fingerprint, players, seed,
                   table_id, own_seat, seat_names)


# --------------------------------------------------------------------------------------
# Simultaneous steps


def action_commitment(index: int, seat: int, action: Action, salt: bytes) -> bytes:
    """The commitment an `ActionCommit` carries for ``action`` (docs/protocol.md).

    ``BLAKE2b-256`` in the ``hedgerow-action-commit-v1`` domain of ``salt`` (32 random
    bytes) and the canonical encoding of ``(index, seat, kind, args)``.
    """
    if len(salt) != SHARE_SIZE:
        raise ValueError(f"an action-commitment salt is {SHARE_SIZE} bytes")
    return digest(b"hedgerow-action-commit-v1", salt,
                  encode((index, seat, action.kind, action.args)))
