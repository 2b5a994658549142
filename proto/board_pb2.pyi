from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BoardGame(_message.Message):
    __slots__ = ("player", "week", "number", "log", "signature")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    WEEK_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    player: bytes
    week: str
    number: int
    log: bytes
    signature: bytes
    def __init__(self, player: _Optional[bytes] = ..., week: _Optional[str] = ..., number: _Optional[int] = ..., log: _Optional[bytes] = ..., signature: _Optional[bytes] = ...) -> None: ...

class BoardGroup(_message.Message):
    __slots__ = ("game", "variants", "week", "player", "count", "digest", "ids")
    GAME_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    WEEK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    game: str
    variants: str
    week: str
    player: bytes
    count: int
    digest: bytes
    ids: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, game: _Optional[str] = ..., variants: _Optional[str] = ..., week: _Optional[str] = ..., player: _Optional[bytes] = ..., count: _Optional[int] = ..., digest: _Optional[bytes] = ..., ids: _Optional[_Iterable[bytes]] = ...) -> None: ...

class BoardIndexRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class BoardIndex(_message.Message):
    __slots__ = ("groups",)
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    groups: _containers.RepeatedCompositeFieldContainer[BoardGroup]
    def __init__(self, groups: _Optional[_Iterable[_Union[BoardGroup, _Mapping]]] = ...) -> None: ...

class BoardIdsRequest(_message.Message):
    __slots__ = ("groups",)
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    groups: _containers.RepeatedCompositeFieldContainer[BoardGroup]
    def __init__(self, groups: _Optional[_Iterable[_Union[BoardGroup, _Mapping]]] = ...) -> None: ...

class BoardIds(_message.Message):
    __slots__ = ("groups",)
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    groups: _containers.RepeatedCompositeFieldContainer[BoardGroup]
    def __init__(self, groups: _Optional[_Iterable[_Union[BoardGroup, _Mapping]]] = ...) -> None: ...

class BoardWant(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, ids: _Optional[_Iterable[bytes]] = ...) -> None: ...

class BoardGames(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[BoardGame]
    def __init__(self, games: _Optional[_Iterable[_Union[BoardGame, _Mapping]]] = ...) -> None: ...

class BoardNudge(_message.Message):
    __slots__ = ("port",)
    PORT_FIELD_NUMBER: _ClassVar[int]
    port: int
    def __init__(self, port: _Optional[int] = ...) -> None: ...

class BoardError(_message.Message):
    __slots__ = ("code", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class BoardMessage(_message.Message):
    __slots__ = ("protocol", "request", "index_request", "index", "ids_request", "ids", "want", "games", "nudge", "error")
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    INDEX_REQUEST_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    IDS_REQUEST_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    WANT_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NUDGE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    protocol: int
    request: int
    index_request: BoardIndexRequest
    index: BoardIndex
    ids_request: BoardIdsRequest
    ids: BoardIds
    want: BoardWant
    games: BoardGames
    nudge: BoardNudge
    error: BoardError
    def __init__(self, protocol: _Optional[int] = ..., request: _Optional[int] = ..., index_request: _Optional[_Union[BoardIndexRequest, _Mapping]] = ..., index: _Optional[_Union[BoardIndex, _Mapping]] = ..., ids_request: _Optional[_Union[BoardIdsRequest, _Mapping]] = ..., ids: _Optional[_Union[BoardIds, _Mapping]] = ..., want: _Optional[_Union[BoardWant, _Mapping]] = ..., games: _Optional[_Union[BoardGames, _Mapping]] = ..., nudge: _Optional[_Union[BoardNudge, _Mapping]] = ..., error: _Optional[_Union[BoardError, _Mapping]] = ...) -> None: ...
