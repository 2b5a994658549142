"""The shared leaderboard's exchange: this machine's board service (docs/leaderboard.md,
docs/protocol.md §11).

`BoardShare` runs on the caller's asyncio loop for as long as Hedgerow shares the board
here (``hedgerow leaderboard`` for a few seconds, ``--serve`` until stopped, a solo board
game of ``hedgerow play`` while it lasts):

* it listens on a CURVE ROUTER (`hedgerow.net.transport.Node`, keyed with the player's
  identity) and answers ``BoardIndexRequest``/``BoardIdsRequest``/``BoardWant`` from the
  store; a ``BoardNudge`` makes it pull from the sender;
* it announces itself and finds the others on the LAN (`hedgerow.net.boardfind`), or is
  given peers (``--peer``), and *pulls* from each: the peer's index of groups (player,
  board, week) with their digests, the ids of the groups whose digest differs from its
  own, then the records it lacks, 32 at a time;
* every record received is checked (`check_record`: signature, the board's deal, a replay
  with the installed rules) before it is kept, and nothing else is ever written.

Bounds: requests are at most `MAX_REQUEST` bytes and answered at most `RATE` a second per
sender; answers at most `MAX_ANSWER`; one pull wants at most `MAX_WANTED` records; at most
`MAX_PEERS` machines are known at once; a machine whose records or requests were refused
`MAX_REFUSALS` times in a week is ignored (neither asked nor answered) for the rest of that
week; a refused record is never asked for again (the store remembers the latest ten
thousand); records that cannot be checked here (rules not installed) are remembered while
this runs (at most `MAX_SKIPPED`) so they are not asked for again, and not held against
their sender unless there are `MAX_UNVERIFIABLE` of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Set
from dataclasses import dataclass, field

from hedgerow.clients.leaderboard import Added, Clock, IsoWeek, Leaderboard, utc_now
from hedgerow.clients.leaderboard_check import Refused, Unverifiable, check_record
from hedgerow.core.errors import HedgerowError
from hedgerow.core.ruleset import Ruleset
from hedgerow.net.address import endpoint, split_endpoint
from hedgerow.net.boardrecord import GameRecord
from hedgerow.net.boardwire import (
    ANSWER_BUDGET,
    MAX_ANSWER,
    MAX_ASK,
    MAX_REQUEST,
    MAX_WANT,
    BoardBody,
    BoardError,
    BoardErrorCode,
    BoardMessage,
    BoardWireError,
    Games,
    Ids,
    IdsRequest,
    Index,
    IndexRequest,
    Nudge,
    Want,
    decode_message,
    encode_message,
)
from hedgerow.net.keys import Identity, key_text
from hedgerow.net.messages import LogHeader
from hedgerow.net.transport import Node, Received

log = logging.getLogger(__name__)

#: Refused records or requests from one machine in one week before it is ignored.
MAX_REFUSALS = 8
#: Records one machine sent that cannot be checked here, in one week, before it is ignored.
MAX_UNVERIFIABLE = 64
#: Record ids remembered as not checkable here (not asked for again while this runs).
MAX_SKIPPED = 10_000
#: Records wanted from one peer in one pull (the rest: the next pull).
MAX_WANTED = 4096
#: Requests answered per second per sender (a burst of twice as many).
RATE = 20.0
#: Seconds to wait for an answer.
ASK_TIMEOUT = 5.0
#: Seconds between two pulls from the same peer while the service runs.
SYNC_EVERY = 20.0
#: Machines known at once (found, nudged or named); beyond, a newcomer is not taken.
MAX_PEERS = 64
#: Pulls in a row that failed before a machine found on the LAN (not one named with
#: ``--peer``) is forgotten; it is taken again when it is found or nudges again.
MAX_FAILURES = 3
#: Seconds without any request served or pull under way before `BoardShare.settle` ends.
QUIET = 0.5


@dataclass(frozen=True, slots=True)
class BoardPeer:
    """Another machine's board service: its key and ``tcp://`` endpoint."""

    key: bytes
    endpoint: str

    @property
    def host(self) -> str:
        """Its address, ``HOST:PORT``."""
        host, port = split_endpoint(self.endpoint)
        return f"{host}:{port}"


@dataclass(slots=True)
class Pulled:
    """What one pull from one peer did."""

    peer: BoardPeer
    added: int = 0
    refused: list[str] = field(default_factory=list)
    unverifiable: int = 0
    error: str | None = None


Rules = Callable[[LogHeader], Ruleset]


class _Rate:
    """Requests per second per sender: a token bucket each, for the last 1024 senders."""

    def __init__(self) -> None:
        self._buckets: OrderedDict[bytes, tuple[float, float]] = OrderedDict()

    def allow(self, sender: bytes, now: float) -> bool:
        tokens, last = self._buckets.pop(sender, (2 * RATE, now))
        tokens = min(2 * RATE, tokens + (now - last) * RATE)
        allowed = tokens >= 1
        self._buckets[sender] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > 1024:
            self._buckets.popitem(last=False)
        return allowed


class BoardShare:
    """This machine's board service (see the module docstring).

    ``rules`` binds a log header to the installed rules; ``games`` are the games with a
    board.  ``discover`` announces and browses the LAN; ``peers`` are dialled besides.
    ``on_pulled`` is called after each pull (a line for the person, if they watch).
    """

    def __init__(self, identity: Identity, rules: Rules, games: Set[str], *,
                 store: Leaderboard | None = None, clock: Clock = utc_now,
                 bind: str = "0.0.0.0", port: int = 0, discover: bool = True,
                 peers: tuple[BoardPeer, ...] = (),
                 on_pulled: Callable[[Pulled], None] | None = None) -> None:
        self.identity = identity
        self.store = store if store is not None else Leaderboard()
        self._rules = rules
        self._games = frozenset(games)
        self._clock = clock
        self._bind = (bind, port)
        self._discover = discover
        self._on_pulled = on_pulled
        self._node = Node(identity, self._on_frame, router_max=MAX_REQUEST,
                          dealer_max=MAX_ANSWER, hwm=64)
        self._finder: object | None = None
        self.peers: dict[bytes, BoardPeer] = {p.key: p for p in peers}
        self._named = frozenset(self.peers)
        self._failures: dict[bytes, int] = {}
        self._served_at = 0.0
        self._pending: dict[tuple[bytes, int], asyncio.Future[BoardBody]] = {}
        self._requests = 0
        self._rate = _Rate()
        self._skipped: OrderedDict[bytes, None] = OrderedDict()
        self._unverifiable: dict[bytes, int] = {}
        self._pulling: dict[bytes, asyncio.Task[Pulled]] = {}
        self._again: set[bytes] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.endpoint: str | None = None
        self.pulls: list[Pulled] = []

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> str:
        """Listen, announce, and start pulling from every peer known or found; the
        endpoint this service listens on."""
        host, port = self._bind
        self.endpoint = await self._node.start(host, port)
        if self._discover:
            from hedgerow.net.boardfind import BoardFinder

            finder = BoardFinder(self.identity.public, self._found)
            self._finder = finder
            await finder.start(host, split_endpoint(self.endpoint)[1])
        for peer in list(self.peers.values()):
            self.pull_soon(peer)
        self._ticker = asyncio.create_task(self._tick())
        return self.endpoint

    async def close(self) -> None:
        """Stop: withdraw the announcement, cancel pulls, close the sockets and the store."""
        tasks = [t for t in (self._ticker, *self._pulling.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._finder is not None:
            from hedgerow.net.boardfind import BoardFinder

            assert isinstance(self._finder, BoardFinder)
            await self._finder.close()
        await self._node.close()
        self.store.close()

    async def settle(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for peers to be found, the pulls under way to end
        and the machines nudged to pull from this one: until nothing happened for `QUIET`
        seconds (after the first second, when answers to discovery arrive)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await asyncio.sleep(min(timeout, 1.0))
        while (left := deadline - loop.time()) > 0:
            if self._pulling:
                await asyncio.wait(set(self._pulling.values()), timeout=left)
                continue
            quiet = self._served_at + QUIET - loop.time()
            if quiet <= 0:
                return
            await asyncio.sleep(min(quiet, left))

    def nudge_all(self) -> None:
        """Tell every known peer this machine holds records it may lack."""
        if self.endpoint is None:
            return
        port = split_endpoint(self.endpoint)[1]
        for peer in list(self.peers.values()):
            self._node.connect(peer.key, peer.endpoint)
            self._node.send(peer.key, encode_message(BoardMessage(0, Nudge(port))))

    # -- finding peers -------------------------------------------------------------------

    def _found(self, key: bytes, host: str, port: int) -> None:
        if self._meet(BoardPeer(key, endpoint(host, port))):
            self.nudge_all()

    def _meet(self, peer: BoardPeer) -> bool:
        """Take ``peer`` (new, or at a new endpoint) and pull from it; False when it was
        known there already, is ignored this week, or `MAX_PEERS` are known."""
        if self.peers.get(peer.key) == peer or self.ignored(peer.key):
            return False
        if peer.key not in self.peers and len(self.peers) >= MAX_PEERS:
            log.info("not taking board service %s: %d known already", peer.host, MAX_PEERS)
            return False
        if peer.key in self.peers:  # it moved (a service listens on a new port each run)
            self._node.disconnect(peer.key)
        self.peers[peer.key] = peer
        self._failures.pop(peer.key, None)
        self.pull_soon(peer)
        return True

    def pull_soon(self, peer: BoardPeer) -> None:
        """Pull from ``peer`` now, or once the pull under way from it ends."""
        running = self._pulling.get(peer.key)
        if running is not None:
            self._again.add(peer.key)
            return
        task = asyncio.get_running_loop().create_task(self.pull(peer))
        self._pulling[peer.key] = task

        def done(_task: asyncio.Task[Pulled]) -> None:
            self._pulling.pop(peer.key, None)
            if peer.key in self._again:
                self._again.discard(peer.key)
                self.pull_soon(self.peers.get(peer.key, peer))

        task.add_done_callback(done)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(SYNC_EVERY)
            for peer in list(self.peers.values()):
                self.pull_soon(peer)

    # -- the server ----------------------------------------------------------------------

    def _week(self) -> IsoWeek:
        return IsoWeek.of(self._clock())

    def ignored(self, sender: bytes) -> bool:
        """Whether ``sender`` was refused too often this week (`MAX_REFUSALS`)."""
        return self.store.refusals(sender, self._week()) >= MAX_REFUSALS

    def _refuse(self, sender: bytes, why: str) -> int:
        count = self.store.refused(sender, self._week())
        log.info("refused from %s (%d this week): %s", key_text(sender)[:8], count, why)
        return count

    def _on_frame(self, rx: Received) -> None:
        if rx.route is None:
            self._on_answer(rx)
            return
        loop = asyncio.get_running_loop()
        if not self._rate.allow(rx.sender, loop.time()) or self.ignored(rx.sender):
            return  # dropped unanswered: nothing a flood sends costs more than this
        self._served_at = loop.time()
        try:
            if rx.data is None:
                raise BoardWireError("a board request is one frame")
            message = decode_message(rx.data, limit=MAX_REQUEST)
        except BoardWireError as exc:
            code = exc.code
            if code is BoardErrorCode.MALFORMED:
                self._refuse(rx.sender, f"a malformed request: {exc}")
                if self.ignored(rx.sender):
                    code = BoardErrorCode.IGNORED
            self._answer(rx, 0, BoardError(code, str(exc) if code is not BoardErrorCode.IGNORED
                                           else "ignored for the rest of this week"))
            return
        body = message.body
        answer: BoardBody
        if isinstance(body, IndexRequest):
            answer = Index(tuple(self.store.index()))
        elif isinstance(body, IdsRequest):
            answer = Ids(tuple(self.store.ids(body.groups)))
        elif isinstance(body, Want):
            answer = Games(self._budgeted(self.store.records(body.ids)))
        elif isinstance(body, Nudge):
            if rx.peer_ip:
                peer = BoardPeer(rx.sender, endpoint(rx.peer_ip, body.port))
                if not self._meet(peer) and self.peers.get(rx.sender) == peer:
                    self.pull_soon(peer)
            return
        else:
            self._refuse(rx.sender, f"{type(body).__name__} is not a request")
            answer = BoardError(BoardErrorCode.IGNORED if self.ignored(rx.sender) else
                                BoardErrorCode.MALFORMED, "not a request")
        self._answer(rx, message.request, answer)

    @staticmethod
    def _budgeted(records: list[GameRecord]) -> tuple[GameRecord, ...]:
        kept: list[GameRecord] = []
        size = 0
        for record in records:
            size += len(record.log) + 200
            if kept and size > ANSWER_BUDGET:
                break
            kept.append(record)
        return tuple(kept)

    def _answer(self, rx: Received, request: int, body: BoardBody) -> None:
        assert rx.route is not None
        self._node.reply(rx.route, encode_message(BoardMessage(request, body)))

    # -- the asker -----------------------------------------------------------------------

    def _on_answer(self, rx: Received) -> None:
        try:
            if rx.data is None:
                raise BoardWireError("a board answer is one frame")
            message = decode_message(rx.data, limit=MAX_ANSWER)
        except BoardWireError as exc:
            for (key, _), fut in list(self._pending.items()):
                if key == rx.sender and not fut.done():
                    fut.set_exception(exc)
            return
        waiting = self._pending.get((rx.sender, message.request))
        if waiting is not None and not waiting.done():
            waiting.set_result(message.body)

    async def _ask(self, peer: BoardPeer, body: BoardBody) -> BoardBody:
        self._requests += 1
        number = self._requests
        fut: asyncio.Future[BoardBody] = asyncio.get_running_loop().create_future()
        self._pending[(peer.key, number)] = fut
        try:
            self._node.connect(peer.key, peer.endpoint)
            self._node.send(peer.key, encode_message(BoardMessage(number, body)))
            answer = await asyncio.wait_for(fut, ASK_TIMEOUT)
        except TimeoutError:
            raise HedgerowError(f"{peer.host} did not answer within {ASK_TIMEOUT:g} s") \
                from None
        finally:
            self._pending.pop((peer.key, number), None)
        if isinstance(answer, BoardError):
            raise HedgerowError(f"{peer.host} answered: {answer.message}")
        return answer

    async def pull(self, peer: BoardPeer) -> Pulled:
        """Fetch from ``peer`` every record it holds that this machine lacks and can take."""
        pulled = Pulled(peer)
        try:
            if self.ignored(peer.key):
                pulled.error = "ignored this week: too many of its records were refused"
            else:
                await self._pull(peer, pulled)
                self.store.saw(peer.key, split_endpoint(peer.endpoint)[0], self._clock())
                self._failures.pop(peer.key, None)
        except BoardWireError as exc:  # an answer that is not one: bad input, it counts
            pulled.error = f"a malformed answer: {exc}"
            self._refuse(peer.key, pulled.error)
            self._failed(peer)
        except HedgerowError as exc:
            pulled.error = str(exc)
            self._failed(peer)
        self.pulls.append(pulled)
        del self.pulls[:-64]
        if self._on_pulled is not None:
            self._on_pulled(pulled)
        return pulled

    def _failed(self, peer: BoardPeer) -> None:
        """A pull from ``peer`` failed: close the link (it redials on the next pull), and
        forget a machine found on the LAN after `MAX_FAILURES` in a row."""
        self._node.disconnect(peer.key)
        failures = self._failures[peer.key] = self._failures.get(peer.key, 0) + 1
        if failures >= MAX_FAILURES and peer.key not in self._named \
                and self.peers.get(peer.key) == peer:
            del self.peers[peer.key]
            self._failures.pop(peer.key, None)

    async def _pull(self, peer: BoardPeer, pulled: Pulled) -> None:
        index = await self._ask(peer, IndexRequest())
        if not isinstance(index, Index):
            raise BoardWireError(f"an answer of {type(index).__name__} to an index request")
        mine = {g.key: g.digest for g in self.store.index(limit=1 << 30)}
        differing = [g for g in index.groups
                     if g.game in self._games and mine.get(g.key) != g.digest]
        wanted: list[bytes] = []
        for start in range(0, len(differing), MAX_ASK):
            answer = await self._ask(peer, IdsRequest(tuple(differing[start:start + MAX_ASK])))
            if not isinstance(answer, Ids):
                raise BoardWireError(f"an answer of {type(answer).__name__} to an ids request")
            for group in answer.groups:
                wanted += [i for i in group.ids if i not in self._skipped
                           and i not in wanted and not self.store.held(i)
                           and not self.store.was_refused(i)]
            if len(wanted) >= MAX_WANTED:
                break
        wanted = wanted[:MAX_WANTED]
        while wanted:
            chunk, wanted = wanted[:MAX_WANT], wanted[MAX_WANT:]
            answer = await self._ask(peer, Want(tuple(chunk)))
            if not isinstance(answer, Games):
                raise BoardWireError(f"an answer of {type(answer).__name__} to a want")
            got = {r.id for r in answer.records}
            if got:  # an answer cut short by its size budget: ask again for the rest
                wanted = [i for i in chunk if i not in got] + wanted
            for record in answer.records:
                if not self._take(peer, record, set(chunk), pulled):
                    return  # ignored from now on

    def _take(self, peer: BoardPeer, record: GameRecord, asked: set[bytes],
              pulled: Pulled) -> bool:
        """Check and keep one record from ``peer``; False once ``peer`` is to be ignored."""
        try:
            if record.id not in asked:
                raise Refused("a record that was not asked for")
            checked = check_record(record, self._rules, game=self._games)
            if self.store.add(record, checked, via=peer.host, at=self._clock()) in (
                    Added.NEW, Added.REPLACED, Added.CONFLICT):
                pulled.added += 1
        except Unverifiable as exc:
            self._skipped[record.id] = None
            while len(self._skipped) > MAX_SKIPPED:
                self._skipped.popitem(last=False)
            pulled.unverifiable += 1
            count = self._unverifiable[peer.key] = self._unverifiable.get(peer.key, 0) + 1
            if count > MAX_UNVERIFIABLE:
                self._refuse(peer.key, f"too many records this machine cannot check: {exc}")
                return not self.ignored(peer.key)
        except Refused as exc:
            pulled.refused.append(exc.message)
            self.store.refuse_record(record.id, exc.message)
            self._refuse(peer.key, exc.message)
            return not self.ignored(peer.key)
        return True
