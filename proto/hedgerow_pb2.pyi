from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LeaveReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEAVE_UNSPECIFIED: _ClassVar[LeaveReason]
    LEAVE_QUIT: _ClassVar[LeaveReason]
    LEAVE_GAME_OVER: _ClassVar[LeaveReason]
    LEAVE_HALTED: _ClassVar[LeaveReason]
    LEAVE_GAVE_UP: _ClassVar[LeaveReason]

class MotionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOTION_UNSPECIFIED: _ClassVar[MotionKind]
    MOTION_TAKEOVER: _ClassVar[MotionKind]
    MOTION_END: _ClassVar[MotionKind]

class ShufflePhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHUFFLE_UNSPECIFIED: _ClassVar[ShufflePhase]
    SHUFFLE_RELOCK: _ClassVar[ShufflePhase]
    SHUFFLE_LOCK: _ClassVar[ShufflePhase]
    SHUFFLE_REKEY: _ClassVar[ShufflePhase]

class ErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    UNKNOWN: _ClassVar[ErrorCode]
    MALFORMED: _ClassVar[ErrorCode]
    STRANGER: _ClassVar[ErrorCode]
    OUT_OF_TURN: _ClassVar[ErrorCode]
    ILLEGAL: _ClassVar[ErrorCode]
    BROKEN_CHAIN: _ClassVar[ErrorCode]
    BAD_INDEX: _ClassVar[ErrorCode]
    WRONG_SEAT: _ClassVar[ErrorCode]
    RULES_MISMATCH: _ClassVar[ErrorCode]
    PROTOCOL_MISMATCH: _ClassVar[ErrorCode]
    TABLE_FULL: _ClassVar[ErrorCode]
    DESYNC: _ClassVar[ErrorCode]
    GAME_OVER: _ClassVar[ErrorCode]
    WRONG_TABLE: _ClassVar[ErrorCode]
    BAD_REVEAL: _ClassVar[ErrorCode]
    WRONG_PHASE: _ClassVar[ErrorCode]
    SEAT_TAKEN: _ClassVar[ErrorCode]

class SeatEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_EVENT_UNSPECIFIED: _ClassVar[SeatEventKind]
    SEAT_EVENT_TAKEOVER: _ClassVar[SeatEventKind]
    SEAT_EVENT_RECLAIM: _ClassVar[SeatEventKind]
    SEAT_EVENT_END: _ClassVar[SeatEventKind]
    SEAT_EVENT_ROLLBACK: _ClassVar[SeatEventKind]
LEAVE_UNSPECIFIED: LeaveReason
LEAVE_QUIT: LeaveReason
LEAVE_GAME_OVER: LeaveReason
LEAVE_HALTED: LeaveReason
LEAVE_GAVE_UP: LeaveReason
MOTION_UNSPECIFIED: MotionKind
MOTION_TAKEOVER: MotionKind
MOTION_END: MotionKind
SHUFFLE_UNSPECIFIED: ShufflePhase
SHUFFLE_RELOCK: ShufflePhase
SHUFFLE_LOCK: ShufflePhase
SHUFFLE_REKEY: ShufflePhase
UNKNOWN: ErrorCode
MALFORMED: ErrorCode
STRANGER: ErrorCode
OUT_OF_TURN: ErrorCode
ILLEGAL: ErrorCode
BROKEN_CHAIN: ErrorCode
BAD_INDEX: ErrorCode
WRONG_SEAT: ErrorCode
RULES_MISMATCH: ErrorCode
PROTOCOL_MISMATCH: ErrorCode
TABLE_FULL: ErrorCode
DESYNC: ErrorCode
GAME_OVER: ErrorCode
WRONG_TABLE: ErrorCode
BAD_REVEAL: ErrorCode
WRONG_PHASE: ErrorCode
SEAT_TAKEN: ErrorCode
SEAT_EVENT_UNSPECIFIED: SeatEventKind
SEAT_EVENT_TAKEOVER: SeatEventKind
SEAT_EVENT_RECLAIM: SeatEventKind
SEAT_EVENT_END: SeatEventKind
SEAT_EVENT_ROLLBACK: SeatEventKind

class Action(_message.Message):
    __slots__ = ("kind", "args")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    args: _containers.RepeatedCompositeFieldContainer[Arg]
    def __init__(self, kind: _Optional[str] = ..., args: _Optional[_Iterable[_Union[Arg, _Mapping]]] = ...) -> None: ...

class Arg(_message.Message):
    __slots__ = ("name", "value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    value: Value
    def __init__(self, name: _Optional[str] = ..., value: _Optional[_Union[Value, _Mapping]] = ...) -> None: ...

class Value(_message.Message):
    __slots__ = ("int", "str", "flag", "blob", "list", "card")
    INT_FIELD_NUMBER: _ClassVar[int]
    STR_FIELD_NUMBER: _ClassVar[int]
    FLAG_FIELD_NUMBER: _ClassVar[int]
    BLOB_FIELD_NUMBER: _ClassVar[int]
    LIST_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    int: int
    str: str
    flag: bool
    blob: bytes
    list: ValueList
    card: SealedCard
    def __init__(self, int: _Optional[int] = ..., str: _Optional[str] = ..., flag: _Optional[bool] = ..., blob: _Optional[bytes] = ..., list: _Optional[_Union[ValueList, _Mapping]] = ..., card: _Optional[_Union[SealedCard, _Mapping]] = ...) -> None: ...

class SealedCard(_message.Message):
    __slots__ = ("entry", "draw", "pos")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    POS_FIELD_NUMBER: _ClassVar[int]
    entry: int
    draw: int
    pos: int
    def __init__(self, entry: _Optional[int] = ..., draw: _Optional[int] = ..., pos: _Optional[int] = ...) -> None: ...

class ValueList(_message.Message):
    __slots__ = ("items",)
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Value]
    def __init__(self, items: _Optional[_Iterable[_Union[Value, _Mapping]]] = ...) -> None: ...

class TableHeader(_message.Message):
    __slots__ = ("fingerprint", "players", "seed")
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    fingerprint: str
    players: int
    seed: bytes
    def __init__(self, fingerprint: _Optional[str] = ..., players: _Optional[int] = ..., seed: _Optional[bytes] = ...) -> None: ...

class LogEntry(_message.Message):
    __slots__ = ("index", "seat", "action", "prev", "digest", "state_hash", "chance", "reveals")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    PREV_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    STATE_HASH_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    REVEALS_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    action: Action
    prev: bytes
    digest: bytes
    state_hash: bytes
    chance: bool
    reveals: _containers.RepeatedCompositeFieldContainer[CardReveal]
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., prev: _Optional[bytes] = ..., digest: _Optional[bytes] = ..., state_hash: _Optional[bytes] = ..., chance: _Optional[bool] = ..., reveals: _Optional[_Iterable[_Union[CardReveal, _Mapping]]] = ...) -> None: ...

class Envelope(_message.Message):
    __slots__ = ("protocol_version", "table_id", "sender", "seq", "hello", "seat_assignment", "seed_commit", "seed_reveal", "start", "action", "state_hash", "catch_up_request", "catch_up_reply", "heartbeat", "leave", "error", "action_commit", "action_reveal", "seat_motion", "motion_vote", "seat_taken", "seat_handback", "shuffle_step", "card_keys", "disclose", "escrow_key", "escrow_shares", "escrow_open", "spectator_feed")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SENDER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    HELLO_FIELD_NUMBER: _ClassVar[int]
    SEAT_ASSIGNMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMIT_FIELD_NUMBER: _ClassVar[int]
    SEED_REVEAL_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    STATE_HASH_FIELD_NUMBER: _ClassVar[int]
    CATCH_UP_REQUEST_FIELD_NUMBER: _ClassVar[int]
    CATCH_UP_REPLY_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    LEAVE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ACTION_COMMIT_FIELD_NUMBER: _ClassVar[int]
    ACTION_REVEAL_FIELD_NUMBER: _ClassVar[int]
    SEAT_MOTION_FIELD_NUMBER: _ClassVar[int]
    MOTION_VOTE_FIELD_NUMBER: _ClassVar[int]
    SEAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_HANDBACK_FIELD_NUMBER: _ClassVar[int]
    SHUFFLE_STEP_FIELD_NUMBER: _ClassVar[int]
    CARD_KEYS_FIELD_NUMBER: _ClassVar[int]
    DISCLOSE_FIELD_NUMBER: _ClassVar[int]
    ESCROW_KEY_FIELD_NUMBER: _ClassVar[int]
    ESCROW_SHARES_FIELD_NUMBER: _ClassVar[int]
    ESCROW_OPEN_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_FEED_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    table_id: bytes
    sender: bytes
    seq: int
    hello: Hello
    seat_assignment: SeatAssignment
    seed_commit: SeedCommit
    seed_reveal: SeedReveal
    start: Start
    action: ActionMsg
    state_hash: StateHash
    catch_up_request: CatchUpRequest
    catch_up_reply: CatchUpReply
    heartbeat: Heartbeat
    leave: Leave
    error: Error
    action_commit: ActionCommit
    action_reveal: ActionReveal
    seat_motion: SeatMotion
    motion_vote: MotionVote
    seat_taken: SeatTaken
    seat_handback: SeatHandback
    shuffle_step: ShuffleStep
    card_keys: CardKeys
    disclose: Disclose
    escrow_key: EscrowKey
    escrow_shares: EscrowShares
    escrow_open: EscrowOpen
    spectator_feed: SpectatorFeed
    def __init__(self, protocol_version: _Optional[int] = ..., table_id: _Optional[bytes] = ..., sender: _Optional[bytes] = ..., seq: _Optional[int] = ..., hello: _Optional[_Union[Hello, _Mapping]] = ..., seat_assignment: _Optional[_Union[SeatAssignment, _Mapping]] = ..., seed_commit: _Optional[_Union[SeedCommit, _Mapping]] = ..., seed_reveal: _Optional[_Union[SeedReveal, _Mapping]] = ..., start: _Optional[_Union[Start, _Mapping]] = ..., action: _Optional[_Union[ActionMsg, _Mapping]] = ..., state_hash: _Optional[_Union[StateHash, _Mapping]] = ..., catch_up_request: _Optional[_Union[CatchUpRequest, _Mapping]] = ..., catch_up_reply: _Optional[_Union[CatchUpReply, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., leave: _Optional[_Union[Leave, _Mapping]] = ..., error: _Optional[_Union[Error, _Mapping]] = ..., action_commit: _Optional[_Union[ActionCommit, _Mapping]] = ..., action_reveal: _Optional[_Union[ActionReveal, _Mapping]] = ..., seat_motion: _Optional[_Union[SeatMotion, _Mapping]] = ..., motion_vote: _Optional[_Union[MotionVote, _Mapping]] = ..., seat_taken: _Optional[_Union[SeatTaken, _Mapping]] = ..., seat_handback: _Optional[_Union[SeatHandback, _Mapping]] = ..., shuffle_step: _Optional[_Union[ShuffleStep, _Mapping]] = ..., card_keys: _Optional[_Union[CardKeys, _Mapping]] = ..., disclose: _Optional[_Union[Disclose, _Mapping]] = ..., escrow_key: _Optional[_Union[EscrowKey, _Mapping]] = ..., escrow_shares: _Optional[_Union[EscrowShares, _Mapping]] = ..., escrow_open: _Optional[_Union[EscrowOpen, _Mapping]] = ..., spectator_feed: _Optional[_Union[SpectatorFeed, _Mapping]] = ...) -> None: ...

class PluginVersion(_message.Message):
    __slots__ = ("name", "version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("fingerprint", "plugins", "display_name", "wanted_seat", "bot", "address", "spectator")
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    PLUGINS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    WANTED_SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    fingerprint: str
    plugins: _containers.RepeatedCompositeFieldContainer[PluginVersion]
    display_name: str
    wanted_seat: int
    bot: bool
    address: str
    spectator: bool
    def __init__(self, fingerprint: _Optional[str] = ..., plugins: _Optional[_Iterable[_Union[PluginVersion, _Mapping]]] = ..., display_name: _Optional[str] = ..., wanted_seat: _Optional[int] = ..., bot: _Optional[bool] = ..., address: _Optional[str] = ..., spectator: _Optional[bool] = ...) -> None: ...

class Peer(_message.Message):
    __slots__ = ("seat", "public_key", "address", "display_name", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    public_key: bytes
    address: str
    display_name: str
    bot: bool
    def __init__(self, seat: _Optional[int] = ..., public_key: _Optional[bytes] = ..., address: _Optional[str] = ..., display_name: _Optional[str] = ..., bot: _Optional[bool] = ...) -> None: ...

class SeatAssignment(_message.Message):
    __slots__ = ("seat", "players", "fingerprint", "peers", "round", "watchers")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    PEERS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    WATCHERS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    fingerprint: str
    peers: _containers.RepeatedCompositeFieldContainer[Peer]
    round: int
    watchers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., fingerprint: _Optional[str] = ..., peers: _Optional[_Iterable[_Union[Peer, _Mapping]]] = ..., round: _Optional[int] = ..., watchers: _Optional[_Iterable[str]] = ...) -> None: ...

class SeedCommit(_message.Message):
    __slots__ = ("seat", "commitment", "round")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    commitment: bytes
    round: int
    def __init__(self, seat: _Optional[int] = ..., commitment: _Optional[bytes] = ..., round: _Optional[int] = ...) -> None: ...

class SeedReveal(_message.Message):
    __slots__ = ("seat", "share", "round")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    share: bytes
    round: int
    def __init__(self, seat: _Optional[int] = ..., share: _Optional[bytes] = ..., round: _Optional[int] = ...) -> None: ...

class Start(_message.Message):
    __slots__ = ("header", "setup_hash", "round")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    SETUP_HASH_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    header: TableHeader
    setup_hash: bytes
    round: int
    def __init__(self, header: _Optional[_Union[TableHeader, _Mapping]] = ..., setup_hash: _Optional[bytes] = ..., round: _Optional[int] = ...) -> None: ...

class ActionMsg(_message.Message):
    __slots__ = ("index", "prev", "seat", "action", "reveals", "hashes")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    PREV_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REVEALS_FIELD_NUMBER: _ClassVar[int]
    HASHES_FIELD_NUMBER: _ClassVar[int]
    index: int
    prev: bytes
    seat: int
    action: Action
    reveals: _containers.RepeatedCompositeFieldContainer[CardReveal]
    hashes: StateHash
    def __init__(self, index: _Optional[int] = ..., prev: _Optional[bytes] = ..., seat: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., reveals: _Optional[_Iterable[_Union[CardReveal, _Mapping]]] = ..., hashes: _Optional[_Union[StateHash, _Mapping]] = ...) -> None: ...

class StateHash(_message.Message):
    __slots__ = ("index", "state_hash", "earlier")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STATE_HASH_FIELD_NUMBER: _ClassVar[int]
    EARLIER_FIELD_NUMBER: _ClassVar[int]
    index: int
    state_hash: bytes
    earlier: bytes
    def __init__(self, index: _Optional[int] = ..., state_hash: _Optional[bytes] = ..., earlier: _Optional[bytes] = ...) -> None: ...

class ActionCommit(_message.Message):
    __slots__ = ("index", "seat", "commitment", "hashes")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    HASHES_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    commitment: bytes
    hashes: StateHash
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., commitment: _Optional[bytes] = ..., hashes: _Optional[_Union[StateHash, _Mapping]] = ...) -> None: ...

class ActionReveal(_message.Message):
    __slots__ = ("index", "seat", "action", "salt", "reveals")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    REVEALS_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    action: Action
    salt: bytes
    reveals: _containers.RepeatedCompositeFieldContainer[CardReveal]
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., salt: _Optional[bytes] = ..., reveals: _Optional[_Iterable[_Union[CardReveal, _Mapping]]] = ...) -> None: ...

class CatchUpRequest(_message.Message):
    __slots__ = ("from_index",)
    FROM_INDEX_FIELD_NUMBER: _ClassVar[int]
    from_index: int
    def __init__(self, from_index: _Optional[int] = ...) -> None: ...

class CatchUpReply(_message.Message):
    __slots__ = ("header", "from_index", "entries", "next_index")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    FROM_INDEX_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_INDEX_FIELD_NUMBER: _ClassVar[int]
    header: TableHeader
    from_index: int
    entries: _containers.RepeatedCompositeFieldContainer[LogEntry]
    next_index: int
    def __init__(self, header: _Optional[_Union[TableHeader, _Mapping]] = ..., from_index: _Optional[int] = ..., entries: _Optional[_Iterable[_Union[LogEntry, _Mapping]]] = ..., next_index: _Optional[int] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ("next_index", "waiting", "held")
    NEXT_INDEX_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    next_index: int
    waiting: bool
    held: SealHeld
    def __init__(self, next_index: _Optional[int] = ..., waiting: _Optional[bool] = ..., held: _Optional[_Union[SealHeld, _Mapping]] = ...) -> None: ...

class SealHeld(_message.Message):
    __slots__ = ("seen", "decks", "wants", "escrow_keys", "escrow_shares", "disclosed")
    SEEN_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    WANTS_FIELD_NUMBER: _ClassVar[int]
    ESCROW_KEYS_FIELD_NUMBER: _ClassVar[int]
    ESCROW_SHARES_FIELD_NUMBER: _ClassVar[int]
    DISCLOSED_FIELD_NUMBER: _ClassVar[int]
    seen: int
    decks: _containers.RepeatedCompositeFieldContainer[DeckHeld]
    wants: _containers.RepeatedCompositeFieldContainer[CardWant]
    escrow_keys: int
    escrow_shares: int
    disclosed: int
    def __init__(self, seen: _Optional[int] = ..., decks: _Optional[_Iterable[_Union[DeckHeld, _Mapping]]] = ..., wants: _Optional[_Iterable[_Union[CardWant, _Mapping]]] = ..., escrow_keys: _Optional[int] = ..., escrow_shares: _Optional[int] = ..., disclosed: _Optional[int] = ...) -> None: ...

class DeckHeld(_message.Message):
    __slots__ = ("entry", "draw", "relock", "lock", "rekey")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    RELOCK_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    REKEY_FIELD_NUMBER: _ClassVar[int]
    entry: int
    draw: int
    relock: int
    lock: int
    rekey: int
    def __init__(self, entry: _Optional[int] = ..., draw: _Optional[int] = ..., relock: _Optional[int] = ..., lock: _Optional[int] = ..., rekey: _Optional[int] = ...) -> None: ...

class CardWant(_message.Message):
    __slots__ = ("entry", "draw", "pos", "parties")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    POS_FIELD_NUMBER: _ClassVar[int]
    PARTIES_FIELD_NUMBER: _ClassVar[int]
    entry: int
    draw: int
    pos: int
    parties: int
    def __init__(self, entry: _Optional[int] = ..., draw: _Optional[int] = ..., pos: _Optional[int] = ..., parties: _Optional[int] = ...) -> None: ...

class SpectatorFeed(_message.Message):
    __slots__ = ("first", "records", "lost", "left", "halted")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    LEFT_FIELD_NUMBER: _ClassVar[int]
    HALTED_FIELD_NUMBER: _ClassVar[int]
    first: int
    records: _containers.RepeatedScalarFieldContainer[bytes]
    lost: _containers.RepeatedScalarFieldContainer[int]
    left: _containers.RepeatedScalarFieldContainer[int]
    halted: str
    def __init__(self, first: _Optional[int] = ..., records: _Optional[_Iterable[bytes]] = ..., lost: _Optional[_Iterable[int]] = ..., left: _Optional[_Iterable[int]] = ..., halted: _Optional[str] = ...) -> None: ...

class Leave(_message.Message):
    __slots__ = ("reason", "why")
    REASON_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    reason: str
    why: LeaveReason
    def __init__(self, reason: _Optional[str] = ..., why: _Optional[_Union[LeaveReason, str]] = ...) -> None: ...

class SeatMotion(_message.Message):
    __slots__ = ("number", "kind", "seat", "runner", "bot", "index", "voters")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RUNNER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    VOTERS_FIELD_NUMBER: _ClassVar[int]
    number: int
    kind: MotionKind
    seat: int
    runner: int
    bot: str
    index: int
    voters: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, number: _Optional[int] = ..., kind: _Optional[_Union[MotionKind, str]] = ..., seat: _Optional[int] = ..., runner: _Optional[int] = ..., bot: _Optional[str] = ..., index: _Optional[int] = ..., voters: _Optional[_Iterable[int]] = ...) -> None: ...

class MotionVote(_message.Message):
    __slots__ = ("proposer", "number", "accept", "reason")
    PROPOSER_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    proposer: int
    number: int
    accept: bool
    reason: str
    def __init__(self, proposer: _Optional[int] = ..., number: _Optional[int] = ..., accept: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class SeatTaken(_message.Message):
    __slots__ = ("seat", "runner", "bot", "index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RUNNER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    runner: int
    bot: str
    index: int
    def __init__(self, seat: _Optional[int] = ..., runner: _Optional[int] = ..., bot: _Optional[str] = ..., index: _Optional[int] = ...) -> None: ...

class SeatHandback(_message.Message):
    __slots__ = ("seat", "index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    index: int
    def __init__(self, seat: _Optional[int] = ..., index: _Optional[int] = ...) -> None: ...

class ShuffleStep(_message.Message):
    __slots__ = ("entry", "draw", "phase", "party", "points", "commitments")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PARTY_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    COMMITMENTS_FIELD_NUMBER: _ClassVar[int]
    entry: int
    draw: int
    phase: ShufflePhase
    party: int
    points: bytes
    commitments: bytes
    def __init__(self, entry: _Optional[int] = ..., draw: _Optional[int] = ..., phase: _Optional[_Union[ShufflePhase, str]] = ..., party: _Optional[int] = ..., points: _Optional[bytes] = ..., commitments: _Optional[bytes] = ...) -> None: ...

class CardKey(_message.Message):
    __slots__ = ("entry", "draw", "pos", "key")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    POS_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    entry: int
    draw: int
    pos: int
    key: bytes
    def __init__(self, entry: _Optional[int] = ..., draw: _Optional[int] = ..., pos: _Optional[int] = ..., key: _Optional[bytes] = ...) -> None: ...

class CardKeys(_message.Message):
    __slots__ = ("keys", "public")
    KEYS_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[CardKey]
    public: bool
    def __init__(self, keys: _Optional[_Iterable[_Union[CardKey, _Mapping]]] = ..., public: _Optional[bool] = ...) -> None: ...

class CardReveal(_message.Message):
    __slots__ = ("entry", "draw", "pos", "keys")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    POS_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    entry: int
    draw: int
    pos: int
    keys: bytes
    def __init__(self, entry: _Optional[int] = ..., draw: _Optional[int] = ..., pos: _Optional[int] = ..., keys: _Optional[bytes] = ...) -> None: ...

class Disclose(_message.Message):
    __slots__ = ("party", "secret")
    PARTY_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    party: int
    secret: bytes
    def __init__(self, party: _Optional[int] = ..., secret: _Optional[bytes] = ...) -> None: ...

class EscrowKey(_message.Message):
    __slots__ = ("party", "key")
    PARTY_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    party: int
    key: bytes
    def __init__(self, party: _Optional[int] = ..., key: _Optional[bytes] = ...) -> None: ...

class EscrowShare(_message.Message):
    __slots__ = ("holder", "ephemeral", "sealed", "commitment")
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    EPHEMERAL_FIELD_NUMBER: _ClassVar[int]
    SEALED_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    holder: int
    ephemeral: bytes
    sealed: bytes
    commitment: bytes
    def __init__(self, holder: _Optional[int] = ..., ephemeral: _Optional[bytes] = ..., sealed: _Optional[bytes] = ..., commitment: _Optional[bytes] = ...) -> None: ...

class EscrowShares(_message.Message):
    __slots__ = ("party", "shares")
    PARTY_FIELD_NUMBER: _ClassVar[int]
    SHARES_FIELD_NUMBER: _ClassVar[int]
    party: int
    shares: _containers.RepeatedCompositeFieldContainer[EscrowShare]
    def __init__(self, party: _Optional[int] = ..., shares: _Optional[_Iterable[_Union[EscrowShare, _Mapping]]] = ...) -> None: ...

class EscrowOpen(_message.Message):
    __slots__ = ("party", "holder", "share")
    PARTY_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    party: int
    holder: int
    share: bytes
    def __init__(self, party: _Optional[int] = ..., holder: _Optional[int] = ..., share: _Optional[bytes] = ...) -> None: ...

class SealRecord(_message.Message):
    __slots__ = ("party", "index", "step", "keys", "disclose", "escrow_key", "escrow_shares", "escrow_open")
    PARTY_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    DISCLOSE_FIELD_NUMBER: _ClassVar[int]
    ESCROW_KEY_FIELD_NUMBER: _ClassVar[int]
    ESCROW_SHARES_FIELD_NUMBER: _ClassVar[int]
    ESCROW_OPEN_FIELD_NUMBER: _ClassVar[int]
    party: int
    index: int
    step: ShuffleStep
    keys: CardKeys
    disclose: Disclose
    escrow_key: EscrowKey
    escrow_shares: EscrowShares
    escrow_open: EscrowOpen
    def __init__(self, party: _Optional[int] = ..., index: _Optional[int] = ..., step: _Optional[_Union[ShuffleStep, _Mapping]] = ..., keys: _Optional[_Union[CardKeys, _Mapping]] = ..., disclose: _Optional[_Union[Disclose, _Mapping]] = ..., escrow_key: _Optional[_Union[EscrowKey, _Mapping]] = ..., escrow_shares: _Optional[_Union[EscrowShares, _Mapping]] = ..., escrow_open: _Optional[_Union[EscrowOpen, _Mapping]] = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ("code", "message", "ref_seq", "ref_index", "refusal")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    REF_SEQ_FIELD_NUMBER: _ClassVar[int]
    REF_INDEX_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    message: str
    ref_seq: int
    ref_index: int
    refusal: str
    def __init__(self, code: _Optional[_Union[ErrorCode, str]] = ..., message: _Optional[str] = ..., ref_seq: _Optional[int] = ..., ref_index: _Optional[int] = ..., refusal: _Optional[str] = ...) -> None: ...

class LogHeader(_message.Message):
    __slots__ = ("format_version", "game", "variants", "fingerprint", "players", "seed", "table_id", "own_seat", "seat_names")
    FORMAT_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    OWN_SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    format_version: int
    game: str
    variants: _containers.RepeatedScalarFieldContainer[str]
    fingerprint: str
    players: int
    seed: bytes
    table_id: bytes
    own_seat: int
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, format_version: _Optional[int] = ..., game: _Optional[str] = ..., variants: _Optional[_Iterable[str]] = ..., fingerprint: _Optional[str] = ..., players: _Optional[int] = ..., seed: _Optional[bytes] = ..., table_id: _Optional[bytes] = ..., own_seat: _Optional[int] = ..., seat_names: _Optional[_Iterable[str]] = ...) -> None: ...

class SeatEvent(_message.Message):
    __slots__ = ("kind", "seat", "runner", "bot", "index", "voters")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RUNNER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    VOTERS_FIELD_NUMBER: _ClassVar[int]
    kind: SeatEventKind
    seat: int
    runner: int
    bot: str
    index: int
    voters: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, kind: _Optional[_Union[SeatEventKind, str]] = ..., seat: _Optional[int] = ..., runner: _Optional[int] = ..., bot: _Optional[str] = ..., index: _Optional[int] = ..., voters: _Optional[_Iterable[int]] = ...) -> None: ...

class LogRecord(_message.Message):
    __slots__ = ("header", "entry", "seat_event", "seal")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    SEAT_EVENT_FIELD_NUMBER: _ClassVar[int]
    SEAL_FIELD_NUMBER: _ClassVar[int]
    header: LogHeader
    entry: LogEntry
    seat_event: SeatEvent
    seal: SealRecord
    def __init__(self, header: _Optional[_Union[LogHeader, _Mapping]] = ..., entry: _Optional[_Union[LogEntry, _Mapping]] = ..., seat_event: _Optional[_Union[SeatEvent, _Mapping]] = ..., seal: _Optional[_Union[SealRecord, _Mapping]] = ...) -> None: ...
