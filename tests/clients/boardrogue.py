"""A hostile board service for tests: real CURVE sockets and the real codec, answering what
a test chooses.

`RogueBoard` listens like a board service (docs/protocol.md §11.1) and answers a pull from
the records it is given (`serve`), grouped as a test says, or with whatever bytes
``answer`` returns for a request (garbage, a huge frame, records nobody asked for).  It also
sends (`flood`) frames of its own choosing to another service.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hedgerow.clients.leaderboard_share import BoardPeer
from hedgerow.net.boardrecord import GameRecord
from hedgerow.net.boardwire import (
    MAX_ANSWER,
    BoardMessage,
    Games,
    Group,
    Ids,
    IdsRequest,
    Index,
    IndexRequest,
    Want,
    decode_message,
    encode_message,
    group_digest,
)
from hedgerow.net.keys import Identity, generate
from hedgerow.net.transport import Node, Received

#: (game, variants, week, player): a group as the rogue claims it.
GroupKey = tuple[str, str, str, bytes]


class RogueBoard:
    """A board service that says what the test wants (see the module docstring)."""

    def __init__(self, identity: Identity | None = None) -> None:
        self.identity = identity or generate()
        self.node = Node(self.identity, self._on_frame, router_max=MAX_ANSWER * 2,
                         dealer_max=MAX_ANSWER * 2)
        self.groups: dict[GroupKey, dict[bytes, GameRecord]] = {}
        self.answer: Callable[[BoardMessage], bytes | None] | None = None
        self.asked: list[str] = []
        self.peer: BoardPeer | None = None

    async def start(self) -> BoardPeer:
        """Listen on 127.0.0.1; the service as a `BoardPeer`."""
        self.peer = BoardPeer(self.identity.public, await self.node.start("127.0.0.1", 0))
        return self.peer

    async def close(self) -> None:
        await self.node.close()

    def serve(self, records: Iterable[GameRecord], game: str = "flowers",
              variants: str = "") -> None:
        """Offer ``records``, each in the group of its player and week under ``game`` and
        ``variants`` (whatever its log says)."""
        for record in records:
            key = (game, variants, record.week, record.player)
            self.groups.setdefault(key, {})[record.id] = record

    def _on_frame(self, rx: Received) -> None:
        if rx.route is None or rx.data is None:
            return
        message = decode_message(rx.data, limit=MAX_ANSWER * 2)
        self.asked.append(type(message.body).__name__)
        data = self.answer(message) if self.answer is not None else None
        if data is None:
            data = encode_message(BoardMessage(message.request, self._honest(message)))
        self.node.reply(rx.route, data)

    def _honest(self, message: BoardMessage) -> Index | Ids | Games:
        body = message.body
        if isinstance(body, IndexRequest):
            return Index(tuple(self._group(key, with_ids=False) for key in self.groups))
        if isinstance(body, IdsRequest):
            return Ids(tuple(self._group(g.key, with_ids=True) for g in body.groups
                             if g.key in self.groups))
        assert isinstance(body, Want)
        held = {i: r for group in self.groups.values() for i, r in group.items()}
        return Games(tuple(held[i] for i in body.ids if i in held))

    def _group(self, key: GroupKey, *, with_ids: bool) -> Group:
        ids = tuple(sorted(self.groups[key]))
        return Group(*key, count=len(ids), digest=group_digest(ids),
                     ids=ids if with_ids else ())

    def flood(self, target: BoardPeer, frames: Iterable[bytes]) -> int:
        """Send ``frames`` to ``target``'s service; how many the socket took."""
        self.node.connect(target.key, target.endpoint)
        return sum(self.node.send(target.key, frame) for frame in frames)
