"""The wire protocol's messages as plain Python values (no protobuf here).

Every `Envelope` carries one body: one of the dataclasses in `Body`.  `hedgerow.net.codec`
turns them into bytes and back; docs/protocol.md specifies every field and when each
message is sent.  Log files hold a `LogHeader` then one `LoggedEntry` per log entry (a
seat's action, or chance the engine resolved: ``entry.seat == CHANCE_SEAT``).

All dataclasses are frozen; equal messages compare equal, and ``decode(encode(m)) == m``.
Each field's annotation names its validation rule (`hedgerow.net.wirerules`, where the
limits are); the codec enforces the rules on both encode and decode.

**Why this mirror of hedgerow.proto is written by hand, not generated from its descriptor.**
What this module says is more than the .proto can: each field's validation rule (a seat
below the table's size, a 32-byte digest, a bounded name), the rules across fields
(``problem``: peers sorted by seat, a known motion kind), the kernel's own types in place
of their wire form (`Action`, `TableHeader`, `LogEntry`), and the enums with their words.
A generator would need all of that written into the .proto as custom options, and would
still emit a file like this one to be reviewed; the callers (and mypy) read these
dataclasses, never the generated protobuf classes (only the codec does).
What could drift is locked instead: tests/net/test_codec.py checks that every dataclass has
exactly the fields of its proto message (by name; only the codec converts, by name), that
every field names a rule, and that the enums have the proto's numbers.  A new message is
written in both places, and that test says so at once if one side is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Annotated

from hedgerow.core.actions import Action
from hedgerow.core.canon import digest, encode
from hedgerow.core.table import LogEntry, TableHeader
from hedgerow.net import wirerules as W

if TYPE_CHECKING:
    from hedgerow.core.ruleset import Ruleset

#: The protocol version this implementation speaks (``Envelope.protocol_version``).  Version 2
#: added chance entries (``LogEntry.chance``) and whole simultaneous steps; version 3 the
#: sealed deck (docs/protocol.md §10); version 4 the lean wire: state hashes ride on the play
#: messages (``ActionMsg.hashes``, ``ActionCommit.hashes``) and a ``StateHash`` is sent only
#: on a disagreement and at the end (§3.3 "State hashes").
PROTOCOL_VERSION = 4
#: The log-file format version written (``LogHeader.format_version``).  Format 3 added seat
#: events (`SeatEvent`: a takeover, a reclaim, an agreed end), records outside the hash
#: chain; format 4 the sealed deck's records (`SealRecord`, ``LogEntry.reveals``); format 5
#: the rollback (a `SeatEvent` of kind ``ROLLBACK``: a seat cut off at its own turn drops
#: its own entries nobody else applied, docs/protocol.md §5.9).
LOG_FORMAT_VERSION = 5
#: Every log-file format version read: format 1 files predate chance entries and hold none;
#: format 2 files hold no seat events; format 3 files no sealed records; format 4 files no
#: rollback.
LOG_FORMATS_READ = (1, 2, 3, 4, 5)
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
# Bodies.  Each field is the proto field of the same name (the codec converts by name), and
# its annotation names its validation rule (hedgerow.net.wirerules).  Adding a field is the
# .proto, the field here with its rule, and the code that uses it.


class LeaveReason(IntEnum):
    """Why a peer leaves (the ``LeaveReason`` enum of hedgerow.proto, without its LEAVE_ prefix)."""

    UNSPECIFIED = 0  # not said, or a reason this version does not know
    QUIT = 1  # the player (or the program) left a table still in play
    GAME_OVER = 2  # the game has ended; the leaver confirmed its final state
    HALTED = 3  # the table halted (a desync or a failed seed agreement)
    GAVE_UP = 4  # a bot peer waited too long with nothing happening


@dataclass(frozen=True, slots=True)
class Hello:
    """Joiner -> host: the rules the joiner runs and the seat it wants.

    ``plugins`` is ``((name, version), ...)`` sorted by name, names unique.
    """

    fingerprint: Annotated[str, W.FINGERPRINT]
    plugins: Annotated[tuple[tuple[str, str], ...], W.items(tuple)] = ()
    display_name: Annotated[str, W.PEER_NAME] = ""
    wanted_seat: Annotated[int | None, W.optional(W.SEAT)] = None
    bot: Annotated[bool, W.flag] = False
    address: Annotated[str, W.ADDRESS] = ""
    spectator: Annotated[bool, W.flag] = False

    def problem(self) -> str | None:
        """The plugin list's rule: (name, version) string pairs, names unique and sorted."""
        if not all(len(p) == 2 and all(type(x) is str for x in p) for p in self.plugins):
            return "plugins must be (name, version) pairs of strings"
        if len(self.plugins) > W.MAX_PLUGINS:
            return f"plugins lists more than {W.MAX_PLUGINS} plugins"
        try:
            for name, version in self.plugins:
                W.PLUGIN_TEXT("a plugin name", name)
                W.PLUGIN_VERSION("a plugin version", version)
            W.sorted_unique("plugin names", [name for name, _ in self.plugins])
        except W.Malformed as exc:
            return str(exc)
        return None


@dataclass(frozen=True, slots=True)
class PeerInfo:
    """One seated peer, as the host lists it in a `SeatAssignment` (proto ``Peer``)."""

    seat: Annotated[int, W.SEAT]
    public_key: Annotated[bytes, W.blob(W.PUBLIC_KEY_SIZE)]
    address: Annotated[str, W.ADDRESS]
    display_name: Annotated[str, W.PEER_NAME] = ""
    bot: Annotated[bool, W.flag] = False


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    """Host -> peer: your seat (None for a spectator), the table's size, rules and peers.

    ``peers`` are sorted by seat, each seat at most once.
    """

    seat: Annotated[int | None, W.optional(W.SEAT)]
    players: Annotated[int, W.PLAYERS]
    fingerprint: Annotated[str, W.FINGERPRINT]
    peers: Annotated[tuple[PeerInfo, ...], W.items(PeerInfo)] = ()
    round: Annotated[int, W.ROUND] = 1  # the seed round this seating leads to (§3.2)
    #: The spectators watching the table, by name (§3.4), at most `MAX_WATCHERS`.
    watchers: Annotated[tuple[str, ...], W.items(str, W.PEER_NAME)] = ()

    def problem(self) -> str | None:
        """Seats below ``players``; peers sorted by seat, each seat at most once."""
        if len(self.watchers) > MAX_WATCHERS:
            return f"watchers lists more than {MAX_WATCHERS} names"
        if self.seat is not None and self.seat >= self.players:
            return f"seat must be an integer in [0, {self.players})"
        seats = [p.seat for p in self.peers]
        if any(s >= self.players for s in seats):
            return f"peer seat must be an integer in [0, {self.players})"
        if seats != sorted(set(seats)):
            return "peers must be sorted by seat, each seat at most once"
        return None


@dataclass(frozen=True, slots=True)
class SeedCommit:
    """A seat's commitment to its seed share (``hedgerow.core.seeding.commitment``)."""

    seat: Annotated[int, W.SEAT]
    commitment: Annotated[bytes, W.DIGEST]
    round: Annotated[int, W.ROUND] = 1  # the seed round it belongs to


@dataclass(frozen=True, slots=True)
class SeedReveal:
    """A seat's seed share, sent once every seat's commitment is in."""

    seat: Annotated[int, W.SEAT]
    share: Annotated[bytes, W.SHARE]
    round: Annotated[int, W.ROUND] = 1  # the seed round it belongs to


@dataclass(frozen=True, slots=True)
class Start:
    """Host -> every peer: the table header, and the state hash before the first action."""

    header: Annotated[TableHeader, W.table_header]
    setup_hash: Annotated[bytes, W.DIGEST]
    round: Annotated[int, W.ROUND] = 1  # the seed round that gave the header's seed


@dataclass(frozen=True, slots=True)
class ActionMsg:
    """The acting seat's action, to become log entry ``index`` chained to ``prev``."""

    index: Annotated[int, W.INDEX]
    prev: Annotated[bytes, W.DIGEST]
    seat: Annotated[int, W.SEAT]
    action: Annotated[Action, W.action]
    #: At a sealed table: the cards the action shows, with every party's key (§10.5).
    reveals: Annotated[tuple[CardReveal, ...], W.items(CardReveal)] = ()
    #: The author's state hashes of entries before ``index`` it has not reported yet
    #: (docs/protocol.md §3.3 "State hashes"); None when there are none.
    hashes: Annotated[StateHash | None, W.optional(W.anything)] = None

    def problem(self) -> str | None:
        """The hashes are of entries before this one."""
        return _before(self.hashes, self.index)


def _before(hashes: StateHash | None, index: int) -> str | None:
    if hashes is not None and hashes.index >= index:
        return f"a play message at #{index} reports state hashes up to #{hashes.index}"
    return None


@dataclass(frozen=True, slots=True)
class StateHash:
    """The sender's state hash after applying log entry ``index`` and, in ``earlier``, after
    each of the entries just before it (oldest first, 32 bytes each, end to end): a report
    of the entries ``first .. index``."""

    index: Annotated[int, W.INDEX]
    state_hash: Annotated[bytes, W.DIGEST]
    earlier: Annotated[bytes, W.hashes] = b""

    @property
    def first(self) -> int:
        """The first entry reported."""
        return self.index - len(self.earlier) // W.DIGEST_SIZE

    def reported(self) -> list[tuple[int, bytes]]:
        """Every (entry index, state hash) reported, oldest first."""
        size = W.DIGEST_SIZE
        first = self.first
        return [(first + i, self.earlier[i * size:(i + 1) * size])
                for i in range(len(self.earlier) // size)] + [(self.index, self.state_hash)]

    @classmethod
    def of(cls, first: int, hashes: list[bytes]) -> StateHash:
        """The report of entries ``first .. first + len(hashes) - 1`` (at least one)."""
        return cls(first + len(hashes) - 1, hashes[-1], b"".join(hashes[:-1]))

    def problem(self) -> str | None:
        """The earlier entries exist: index 0 is the first."""
        if len(self.earlier) // W.DIGEST_SIZE > self.index:
            return "a state hash report reaches before entry #0"
        return None


@dataclass(frozen=True, slots=True)
class ActionCommit:
    """Simultaneous step starting at log index ``index``: ``seat`` commits to its action."""

    index: Annotated[int, W.INDEX]
    seat: Annotated[int, W.SEAT]
    commitment: Annotated[bytes, W.DIGEST]
    #: As in `ActionMsg`: the sender's unreported state hashes of entries before ``index``.
    hashes: Annotated[StateHash | None, W.optional(W.anything)] = None

    def problem(self) -> str | None:
        """The hashes are of entries before the step."""
        return _before(self.hashes, self.index)


@dataclass(frozen=True, slots=True)
class ActionReveal:
    """Simultaneous step: ``seat`` reveals the action and salt it committed to."""

    index: Annotated[int, W.INDEX]
    seat: Annotated[int, W.SEAT]
    action: Annotated[Action, W.action]
    salt: Annotated[bytes, W.SHARE]
    #: At a sealed table: the cards the choice shows, with every party's key (§10.5).
    reveals: Annotated[tuple[CardReveal, ...], W.items(CardReveal)] = ()


@dataclass(frozen=True, slots=True)
class CatchUpRequest:
    """Send me every log entry from ``from_index`` on."""

    from_index: Annotated[int, W.INDEX]


@dataclass(frozen=True, slots=True)
class LoggedEntry:
    """A log entry with the state hash after it: one log-file record, one catch-up item.

    On the wire it is the flat proto ``LogEntry`` (the codec converts it: a chance entry is
    seat 0 with ``chance`` set).
    """

    entry: Annotated[LogEntry, W.log_entry]
    state_hash: Annotated[bytes, W.DIGEST]
    #: At a sealed table: the cards the entry's action showed, with every party's key.
    reveals: Annotated[tuple[CardReveal, ...], W.items(CardReveal)] = ()

    @property
    def index(self) -> int:
        """The entry's log index."""
        return self.entry.index


@dataclass(frozen=True, slots=True)
class CatchUpReply:
    """Log entries ``from_index ..`` (consecutive), and the sender's log length."""

    header: Annotated[TableHeader, W.table_header]
    from_index: Annotated[int, W.INDEX]
    entries: Annotated[tuple[LoggedEntry, ...], W.items(LoggedEntry)]
    next_index: Annotated[int, W.INDEX]

    def problem(self) -> str | None:
        """Entries are consecutive from ``from_index``; ``next_index`` is past the last."""
        for offset, item in enumerate(self.entries):
            if item.entry.index != self.from_index + offset:
                return "catch-up entries must have consecutive indices from from_index"
        if self.next_index < self.from_index + len(self.entries):
            return "next_index is below the last entry sent"
        return None


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """I am alive, and my log holds ``next_index`` entries.  ``waiting``: my sealed deck
    has stood still for a while, waiting for a pass, a key, an escrow message or a secret:
    send me again what you made (docs/protocol.md §10.8)."""

    next_index: Annotated[int, W.INDEX] = 0
    waiting: Annotated[bool, W.flag] = False
    held: Annotated[SealHeld | None, W.optional(W.anything)] = None


#: A set of parties as a bit mask (bit ``p``: party ``p``).
PARTIES = W.uint(1 << W.MAX_PARTIES)
#: At most this many decks and wanted cards in one `SealHeld`.
MAX_HELD = 1024


@dataclass(frozen=True, slots=True)
class DeckHeld:
    """The passes of the shuffle of draw ``draw`` of chance entry ``entry`` that a party
    holds: per phase, the parties whose pass it holds (bit masks)."""

    entry: Annotated[int, W.INDEX]
    draw: Annotated[int, W.DRAW]
    relock: Annotated[int, PARTIES] = 0
    lock: Annotated[int, PARTIES] = 0
    rekey: Annotated[int, PARTIES] = 0

    @property
    def deck(self) -> tuple[int, int]:
        """(entry, draw): which deck."""
        return (self.entry, self.draw)


@dataclass(frozen=True, slots=True)
class CardWant:
    """A card a party waits to open, and the parties (a bit mask, not empty) whose key for
    it it still waits for: a public one while the card is being shown to everyone."""

    entry: Annotated[int, W.INDEX]
    draw: Annotated[int, W.DRAW]
    pos: Annotated[int, W.POSITION]
    parties: Annotated[int, PARTIES]

    @property
    def card(self) -> tuple[int, int, int]:
        """(entry, draw, pos): the sealed card."""
        return (self.entry, self.draw, self.pos)

    def problem(self) -> str | None:
        """At least one party."""
        return None if self.parties else "a wanted card names the parties it waits for"


@dataclass(frozen=True, slots=True)
class SealHeld:
    """What a party holds of the sealed deck, on its `Heartbeat` (docs/protocol.md §10.8):
    the receiver repeats to it only what it lacks, and of that nothing it sent after the
    envelope ``seen`` (still on its way).  Party sets are bit masks."""

    seen: Annotated[int, W.INDEX] = 0
    decks: Annotated[tuple[DeckHeld, ...], W.items(DeckHeld)] = ()
    wants: Annotated[tuple[CardWant, ...], W.items(CardWant)] = ()
    escrow_keys: Annotated[int, PARTIES] = 0
    escrow_shares: Annotated[int, PARTIES] = 0
    disclosed: Annotated[int, PARTIES] = 0

    def problem(self) -> str | None:
        """At most `MAX_HELD` decks and wanted cards, each ascending and unique."""
        if len(self.decks) > MAX_HELD or len(self.wants) > MAX_HELD:
            return f"a SealHeld names at most {MAX_HELD} decks and {MAX_HELD} wanted cards"
        decks = [d.deck for d in self.decks]
        wants = [w.card for w in self.wants]
        if decks != sorted(set(decks)) or wants != sorted(set(wants)):
            return "a SealHeld's decks and wanted cards are unique and ascending"
        return None


#: At most this many names in `SeatAssignment.watchers` (a table takes fewer spectators).
MAX_WATCHERS = 32
#: At most this many log records in one `SpectatorFeed`, each at most `MAX_FEED_RECORD`
#: bytes (a log record's own limit, docs/protocol.md §6).
MAX_FEED_RECORDS = 256
MAX_FEED_RECORD = 1 << 20


@dataclass(frozen=True, slots=True)
class SpectatorFeed:
    """Host -> spectator (§3.4): records ``first ..`` of the table's public record stream
    (its log's records without the private ones), each a ``LogRecord`` payload, and which
    seats are away (``lost``, ``left``, ascending) and why the table halted (``halted``)."""

    first: Annotated[int, W.INDEX] = 0
    records: Annotated[tuple[bytes, ...], W.items(bytes)] = ()
    lost: Annotated[tuple[int, ...], W.items(int, W.SEAT)] = ()
    left: Annotated[tuple[int, ...], W.items(int, W.SEAT)] = ()
    halted: Annotated[str, W.MESSAGE] = ""

    def problem(self) -> str | None:
        """At most `MAX_FEED_RECORDS` records of at most `MAX_FEED_RECORD` bytes; seats
        unique and ascending."""
        if len(self.records) > MAX_FEED_RECORDS:
            return f"a feed holds at most {MAX_FEED_RECORDS} records"
        if any(len(r) > MAX_FEED_RECORD for r in self.records):
            return f"a log record is at most {MAX_FEED_RECORD} bytes"
        return _seats_problem("lost", self.lost) or _seats_problem("left", self.left)


@dataclass(frozen=True, slots=True)
class Leave:
    """I am leaving the table: ``why`` for the program, ``reason`` for a person."""

    reason: Annotated[str, W.REASON] = ""
    why: Annotated[LeaveReason, W.enum(LeaveReason)] = LeaveReason.UNSPECIFIED


@dataclass(frozen=True, slots=True)
class ErrorMsg:
    """A refusal: the referenced message changed nothing (proto ``Error``).

    ``ref_seq`` is the refused envelope's ``seq``, ``ref_index`` the log index concerned,
    ``refusal`` the rules' own refusal code (``"petals.not_adjacent"``) for ``ILLEGAL``.
    """

    code: Annotated[ErrorCode, W.enum(ErrorCode)]
    message: Annotated[str, W.MESSAGE]
    ref_seq: Annotated[int | None, W.optional(W.INDEX)] = None
    ref_index: Annotated[int | None, W.optional(W.INDEX)] = None
    refusal: Annotated[str, W.REFUSAL] = ""


# --------------------------------------------------------------------------------------
# Departures: seat takeover, reclaim and an agreed end (docs/protocol.md §5.9)

#: A vote's reason is at most this many characters.
MAX_REASON_LENGTH = 200


class MotionKind(IntEnum):
    """What a `SeatMotion` proposes (``MotionKind`` of hedgerow.proto, without MOTION_)."""

    UNSPECIFIED = 0  # a kind this version does not know: refused
    TAKEOVER = 1  # a bot run by the runner's peer plays the departed seat
    END = 2  # the game ends here by agreement, with no winner


def _seats_problem(name: str, seats: tuple[int, ...]) -> str | None:
    if list(seats) != sorted(set(seats)):
        return f"{name} must be unique and ascending"
    return None


@dataclass(frozen=True, slots=True)
class SeatMotion:
    """A remaining seated peer proposes what the table does about a departed ``seat``.

    ``voters`` (ascending) are every seat whose acceptance the motion needs, the proposer's
    included; for a takeover ``runner`` is the lowest of them and ``bot`` the strategy.
    """

    number: Annotated[int, W.uint(low=1)]
    kind: Annotated[MotionKind, W.enum(MotionKind)]
    seat: Annotated[int, W.SEAT]
    runner: Annotated[int, W.SEAT] = 0
    bot: Annotated[str, W.NAME] = ""
    index: Annotated[int, W.INDEX] = 0
    voters: Annotated[tuple[int, ...], W.items(int, W.SEAT)] = ()

    def problem(self) -> str | None:
        """A known kind; a takeover names its bot; voters ascending, without the seat."""
        if self.kind == MotionKind.UNSPECIFIED:
            return "the motion's kind is not one this version knows"
        if self.kind == MotionKind.TAKEOVER and not self.bot:
            return "a takeover names its bot"
        if not self.voters:
            return "a motion names its voters"
        if self.seat in self.voters:
            return "the departed seat cannot vote"
        return _seats_problem("voters", self.voters)


@dataclass(frozen=True, slots=True)
class MotionVote:
    """A voter's answer to the motion ``number`` of seat ``proposer``."""

    proposer: Annotated[int, W.SEAT]
    number: Annotated[int, W.uint(low=1)]
    accept: Annotated[bool, W.flag] = False
    reason: Annotated[str, W.text(MAX_REASON_LENGTH)] = ""


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """To a returning peer: its ``seat`` is run by ``runner``'s bot since entry ``index``."""

    seat: Annotated[int, W.SEAT]
    runner: Annotated[int, W.SEAT]
    bot: Annotated[str, W.NAME]
    index: Annotated[int, W.INDEX]


@dataclass(frozen=True, slots=True)
class SeatHandback:
    """The runner's bot stopped: from entry ``index`` on, ``seat``'s own peer authors it."""

    seat: Annotated[int, W.SEAT]
    index: Annotated[int, W.INDEX]


class SeatEventKind(IntEnum):
    """What a `SeatEvent` log record says (``SeatEventKind``, without SEAT_EVENT_)."""

    UNSPECIFIED = 0
    TAKEOVER = 1
    RECLAIM = 2
    END = 3
    ROLLBACK = 4


@dataclass(frozen=True, slots=True)
class SeatEvent:
    """A log record outside the hash chain: who authors ``seat`` from entry ``index`` on, or
    the agreed end before entry ``index``."""

    kind: Annotated[SeatEventKind, W.enum(SeatEventKind)]
    seat: Annotated[int, W.SEAT]
    runner: Annotated[int, W.SEAT] = 0
    bot: Annotated[str, W.NAME] = ""
    index: Annotated[int, W.INDEX] = 0
    voters: Annotated[tuple[int, ...], W.items(int, W.SEAT)] = ()

    def problem(self) -> str | None:
        """A known kind; voters ascending."""
        if self.kind == SeatEventKind.UNSPECIFIED:
            return "the seat event's kind is not one this version knows"
        return _seats_problem("voters", self.voters)


# --------------------------------------------------------------------------------------
# The sealed deck (docs/protocol.md §10)


class ShufflePhase(IntEnum):
    """The pass a `ShuffleStep` belongs to (``ShufflePhase``, without SHUFFLE_)."""

    UNSPECIFIED = 0
    RELOCK = 1
    LOCK = 2
    REKEY = 3


@dataclass(frozen=True, slots=True)
class ShuffleStep:
    """One party's pass over the sealed shuffle of draw ``draw`` of chance entry ``entry``:
    the deck's points after it, and in a rekey pass the commitments to its card keys."""

    entry: Annotated[int, W.INDEX]
    draw: Annotated[int, W.DRAW]
    phase: Annotated[ShufflePhase, W.enum(ShufflePhase)]
    party: Annotated[int, W.PARTY]
    points: Annotated[bytes, W.points]
    commitments: Annotated[bytes, W.points] = b""

    def problem(self) -> str | None:
        """A known pass; at least one point; commitments exactly in a rekey pass, one per
        point."""
        if self.phase == ShufflePhase.UNSPECIFIED:
            return "the shuffle step's phase is not one this version knows"
        if not self.points:
            return "a shuffle step holds at least one point"
        if self.phase == ShufflePhase.REKEY:
            if len(self.commitments) != len(self.points):
                return "a rekey step commits to one key per point"
        elif self.commitments:
            return "only a rekey step carries commitments"
        return None


@dataclass(frozen=True, slots=True)
class CardKey:
    """The sender's key for position ``pos`` of the deck of (``entry``, ``draw``)."""

    entry: Annotated[int, W.INDEX]
    draw: Annotated[int, W.DRAW]
    pos: Annotated[int, W.POSITION]
    key: Annotated[bytes, W.SCALAR]

    @property
    def card(self) -> tuple[int, int, int]:
        """(entry, draw, pos): the sealed card it opens."""
        return (self.entry, self.draw, self.pos)


@dataclass(frozen=True, slots=True)
class CardKeys:
    """Keys that open sealed cards: for the receiver's seats only, or (``public``) for every
    seat (sent to every peer)."""

    keys: Annotated[tuple[CardKey, ...], W.items(CardKey)]
    public: Annotated[bool, W.flag] = False

    def problem(self) -> str | None:
        """One to `MAX_DECK` keys, each card once."""
        if not 1 <= len(self.keys) <= W.MAX_DECK:
            return f"card keys come 1 to {W.MAX_DECK} at a time"
        if len({k.card for k in self.keys}) != len(self.keys):
            return "a card's key is sent once per message"
        return None


@dataclass(frozen=True, slots=True)
class CardReveal:
    """A sealed card shown with an action: every party's key for it, in party order."""

    entry: Annotated[int, W.INDEX]
    draw: Annotated[int, W.DRAW]
    pos: Annotated[int, W.POSITION]
    keys: Annotated[bytes, W.points]

    @property
    def card(self) -> tuple[int, int, int]:
        """(entry, draw, pos): the sealed card it shows."""
        return (self.entry, self.draw, self.pos)

    def problem(self) -> str | None:
        """At least one key."""
        return None if self.keys else "a card reveal holds every party's key"


@dataclass(frozen=True, slots=True)
class Disclose:
    """Party ``party``'s sealed-deck secret, sent once the game is over (or the table halted
    on a card that would not open), for every peer to verify every shuffle and key."""

    party: Annotated[int, W.PARTY]
    secret: Annotated[bytes, W.SHARE]


@dataclass(frozen=True, slots=True)
class EscrowKey:
    """Party ``party``'s escrow key ``E = e B``, to which the others seal its shares
    (tables of three parties or more, docs/protocol.md §10.11)."""

    party: Annotated[int, W.PARTY]
    key: Annotated[bytes, W.POINT]


@dataclass(frozen=True, slots=True)
class EscrowShare:
    """One share of a party's secret, sealed to party ``holder``, with its commitment."""

    holder: Annotated[int, W.PARTY]
    ephemeral: Annotated[bytes, W.POINT]
    sealed: Annotated[bytes, W.SHARE]
    commitment: Annotated[bytes, W.DIGEST]


@dataclass(frozen=True, slots=True)
class EscrowShares:
    """Party ``party``'s secret split among every other party, one sealed share each."""

    party: Annotated[int, W.PARTY]
    shares: Annotated[tuple[EscrowShare, ...], W.items(EscrowShare)]

    def problem(self) -> str | None:
        """Holders ascending, each once, never the party itself."""
        holders = [s.holder for s in self.shares]
        if not holders or holders != sorted(set(holders)) or self.party in holders:
            return "escrow shares go one to each other party, by ascending holder"
        return None


@dataclass(frozen=True, slots=True)
class EscrowOpen:
    """The share of party ``party``'s secret that was sealed to ``holder``, opened for a
    takeover of ``party``'s seat."""

    party: Annotated[int, W.PARTY]
    holder: Annotated[int, W.PARTY]
    share: Annotated[bytes, W.SHARE]


@dataclass(frozen=True, slots=True)
class SealRecord:
    """A log-file record of the sealed deck: a sealed message this peer sent or received,
    the party that made it, and this peer's next log index then (what a resumed peer and a
    verifier need to replay it at the same point, §10.8)."""

    party: Annotated[int, W.PARTY]
    index: Annotated[int, W.INDEX] = 0
    step: Annotated[ShuffleStep | None, W.optional(W.anything)] = None
    keys: Annotated[CardKeys | None, W.optional(W.anything)] = None
    disclose: Annotated[Disclose | None, W.optional(W.anything)] = None
    escrow_key: Annotated[EscrowKey | None, W.optional(W.anything)] = None
    escrow_shares: Annotated[EscrowShares | None, W.optional(W.anything)] = None
    escrow_open: Annotated[EscrowOpen | None, W.optional(W.anything)] = None

    def problem(self) -> str | None:
        """Exactly one message."""
        return None if len(self._held()) == 1 else "a seal record holds exactly one message"

    def _held(self) -> list[SealBody]:
        return [x for x in (self.step, self.keys, self.disclose, self.escrow_key,
                            self.escrow_shares, self.escrow_open) if x is not None]

    @property
    def body(self) -> SealBody:
        """The message it records."""
        (body,) = self._held()
        return body

    @classmethod
    def of(cls, party: int, body: SealBody, index: int = 0) -> SealRecord:
        """The record of ``body``, made by ``party`` when this peer's next index was
        ``index``."""
        if isinstance(body, ShuffleStep):
            return cls(party, index, step=body)
        if isinstance(body, CardKeys):
            return cls(party, index, keys=body)
        if isinstance(body, Disclose):
            return cls(party, index, disclose=body)
        if isinstance(body, EscrowKey):
            return cls(party, index, escrow_key=body)
        if isinstance(body, EscrowShares):
            return cls(party, index, escrow_shares=body)
        return cls(party, index, escrow_open=body)


#: The sealed deck's messages (§10): what `hedgerow.net.sealing` sends and receives.
SealBody = ShuffleStep | CardKeys | Disclose | EscrowKey | EscrowShares | EscrowOpen


#: Any message body an `Envelope` can carry.
Body = (
    Hello | SeatAssignment | SeedCommit | SeedReveal | Start | ActionMsg | StateHash
    | ActionCommit | ActionReveal | CatchUpRequest | CatchUpReply | Heartbeat | Leave | ErrorMsg
    | SeatMotion | MotionVote | SeatTaken | SeatHandback | ShuffleStep | CardKeys | Disclose
    | EscrowKey | EscrowShares | EscrowOpen | SpectatorFeed
)


@dataclass(frozen=True, slots=True)
class Envelope:
    """One message on the wire: the table, the sender's public key, its sequence number, a body.

    The protocol version is not a field: the codec writes `PROTOCOL_VERSION` and refuses others.
    """

    table_id: bytes
    sender: Annotated[bytes, W.blob(W.PUBLIC_KEY_SIZE)]
    seq: Annotated[int, W.uint(low=1)]
    body: Body

    def problem(self) -> str | None:
        """A table id of 16 bytes, or empty in a Hello sent by address."""
        if isinstance(self.body, Hello) and self.table_id == b"":
            return None  # a Hello sent by address, before the joiner knows the table id
        if type(self.table_id) is not bytes or len(self.table_id) != W.TABLE_ID_SIZE:
            return f"table_id must be {W.TABLE_ID_SIZE} bytes"
        return None


# --------------------------------------------------------------------------------------
# Log file


@dataclass(frozen=True, slots=True)
class LogHeader:
    """The first record of a log file: what is needed to rebuild the table from its entries.

    ``variants`` are sorted by name; ``table_id`` is empty for local play; ``own_seat`` is
    the seat this peer held (None for a simulation); ``seat_names`` is empty or one per seat.
    The proto's ``format_version`` is the codec's to write and check.
    """

    game: Annotated[str, W.REQUIRED_TEXT]
    variants: Annotated[tuple[str, ...], W.items(str, W.TEXT)]
    fingerprint: Annotated[str, W.REQUIRED_TEXT]
    players: Annotated[int, W.PLAYERS]
    seed: Annotated[bytes, W.seed]
    table_id: Annotated[bytes, W.TABLE_ID_OR_EMPTY] = b""
    own_seat: Annotated[int | None, W.optional(W.SEAT)] = None
    seat_names: Annotated[tuple[str, ...], W.items(str, W.NAME)] = ()

    def problem(self) -> str | None:
        """Variants unique and sorted; own_seat below players; one seat name per seat or none."""
        try:
            W.sorted_unique("variants", list(self.variants))
        except W.Malformed as exc:
            return str(exc)
        if self.own_seat is not None and self.own_seat >= self.players:
            return f"own_seat must be an integer in [0, {self.players})"
        if len(self.seat_names) not in (0, self.players):
            return "seat_names must be empty or one per seat"
        return None

    @property
    def table_header(self) -> TableHeader:
        """The core header (fingerprint, players, seed) whose genesis the first entry chains to."""
        return TableHeader(self.fingerprint, self.players, self.seed)

    @classmethod
    def for_table(cls, ruleset: Ruleset, players: int, seed: bytes, *, table_id: bytes = b"",
                  own_seat: int | None = None, seat_names: tuple[str, ...] = (),
                  fingerprint: str | None = None) -> LogHeader:
        """The header for a table of ``ruleset`` (game and variants from it; the fingerprint
        the table's, by default its rules')."""
        return cls(ruleset.spec.name, ruleset.variant_names, fingerprint or ruleset.fingerprint,
                   players, seed, table_id, own_seat, seat_names)


# --------------------------------------------------------------------------------------
# Simultaneous steps


def action_commitment(index: int, seat: int, action: Action, salt: bytes) -> bytes:
    """The commitment an `ActionCommit` carries for ``action`` (docs/protocol.md).

    ``BLAKE2b-256`` in the ``hedgerow-action-commit-v1`` domain of ``salt`` (32 random
    bytes) and the canonical encoding of ``(index, seat, kind, args)``.
    """
    if len(salt) != W.SHARE_SIZE:
        raise ValueError(f"an action-commitment salt is {W.SHARE_SIZE} bytes")
    return digest(b"hedgerow-action-commit-v1", salt,
                  encode((index, seat, action.kind, action.args)))
