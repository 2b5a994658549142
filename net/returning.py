"""`Returning`: a peer that comes back to its table after its process went away.

Two ways back, each from the file the peer left behind:

* **resume** (docs/protocol.md §5.7): a seated peer rebuilds the table from its own log
  (`hedgerow.net.logfile.replay_log`, every entry checked again) and its table file (the
  seating, its key), listens at its old address when it can, says ``Hello`` to every
  seat, sends its ``Start`` again and fetches what it missed with ``CatchUpRequest``.  It
  acts only once caught up (play's ``syncing``), and once the other seats had their say
  about a takeover of its seat (§5.9: `hedgerow.net.departures.Departures.resume`);
* **reopen** (§3.2, "A host lost before play"): a host lost before the seed was agreed
  re-opens the table from its open-table file (`hedgerow.net.openfile`): the same table
  id, key and address, the seats as they were, and the next seed round.

Everything is checked before anything is bound or changed: a file of another identity,
a log that does not replay or rules not installed raise `HedgerowError` and leave the
peer as it was.  Of the other phases this needs only what its constructor takes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, Table
from hedgerow.net import openfile, rulesmatch, tablefile
from hedgerow.net.address import TableAddress, split_endpoint
from hedgerow.net.context import Decked, Keyed
from hedgerow.net.hashbook import HashBook
from hedgerow.net.keys import key_text
from hedgerow.net.logfile import LogReadResult, LogWriter, ReplayReport, read_log, replay_log
from hedgerow.net.members import Member, Roster
from hedgerow.net.messages import Body, CardReveal, Hello, PeerInfo, SeatEvent, Start
from hedgerow.net.sealreplay import SealedReplay, is_sealed
from hedgerow.net.seat import HistoryLine, Link, Phase

log = logging.getLogger(__name__)

#: Listen at (bind, port); the endpoint others reach this peer at.
Listen = Callable[[str, int], Awaitable[str]]


class ReturningContext(Keyed, Decked, Protocol):
    """What a returning peer reads and writes of the peer's shared state
    (`hedgerow.net.context.PeerContext`): nearly all of it, once — it rebuilds the seating,
    the table and the log from the file its process left behind."""

    table_id: bytes
    host_key: bytes | None
    is_host: bool
    bot: str | None
    seat_name: str
    round: int
    table: Table | None
    table_name: str
    writer: LogWriter | None
    log_path: Path | None
    open_path: Path | None

    @property
    def seat(self) -> int: ...

    @property
    def roster(self) -> Roster | None: ...

    @property
    def hashes(self) -> HashBook | None: ...

    def seated(self, ruleset: Ruleset, players: int, seat: int) -> None: ...

    def enter(self, phase: Phase) -> None: ...

    def now(self) -> float: ...

    def broadcast(self, body: Body) -> None: ...

    def notify(self) -> None: ...

    def save_table_file(self) -> None: ...


class ResumedPlay(Protocol):
    """What a resumed seat needs of play (`hedgerow.net.sync.Sync`)."""

    def resumed(self, history: Sequence[HistoryLine],
                reveals: Mapping[int, tuple[CardReveal, ...]] | None = None) -> None:
        """The log's entries in words (and the cards they showed); catch up before acting."""

    def applied(self, applied: Sequence[Applied]) -> None:
        """Entries the table added: show them and seal them."""

    def request_catch_up(self, member: Member | None) -> None:
        """Ask for the entries after our log's end."""


class ResumedSeal(Protocol):
    """What a returning peer needs of the sealed deck (`hedgerow.net.sealplay.SealedPlay`)."""

    def resume(self, log_path: Path, result: LogReadResult, peers: Sequence[PeerInfo],
               ruleset: Ruleset, me: bytes) -> SealedReplay:
        """Replay a sealed log with this peer's secret (`hedgerow.net.sealreplay`)."""

    def start(self) -> None:
        """The table goes on: send again what the others may lack."""


class ResumedStart(Protocol):
    """What a returning peer needs of the start of play (`hedgerow.net.startup.Startup`)."""

    @property
    def setup_hash(self) -> bytes | None:
        """The state hash after setup, which our Start carries."""

    def resumed(self, table: Table) -> None:
        """The table is rebuilt from the log: no Start barrier to wait at again."""

    def begin(self) -> None:
        """Every seat is taken: agree on the seed."""


class ResumedDepartures(Protocol):
    """What a resumed seat needs of departures (`hedgerow.net.departures.Departures`)."""

    def resume(self) -> None:
        """Hear the table out before acting (a takeover of our seat may be in force)."""

    def restore(self, events: Sequence[SeatEvent]) -> None:
        """The seat events of our own log."""


class Returning:
    """Resume a seat from its log, or re-open a host's table from its open-table file.

    ``listen(bind, port)`` binds this peer's sockets and returns the endpoint others reach
    it at; ``send_roster()`` sends every seated peer the seating (a re-opened host).
    """

    def __init__(self, ctx: ReturningContext, *, plugins: PluginHost | None, listen: Listen,
                 play: ResumedPlay, start: ResumedStart, departures: ResumedDepartures,
                 send_roster: Callable[[], None], sealed: ResumedSeal) -> None:
        self.ctx = ctx
        self.plugins = plugins
        self._listen = listen
        self._play = play
        self._start = start
        self._sealed = sealed
        self._departures = departures
        self._send_roster = send_roster

    def _rules(self, what: str) -> PluginHost:
        if self.plugins is None:
            raise ValueError(f"a {what} peer needs the plugin host to bind the table's rules")
        return self.plugins

    async def resume(self, log_path: Path, *, bind: str | None = None) -> None:
        """Come back to the table whose log is ``log_path``: rebuild, reconnect, catch up."""
        plugins = self._rules("resuming")
        ctx = self.ctx
        result = read_log(log_path)
        if result.header is None:
            raise HedgerowError(f"{log_path} is not a table log: {result.problem}")
        header = result.header
        if header.own_seat is None or not header.table_id:
            raise HedgerowError(f"{log_path} is not the log of a networked seat")
        saved = tablefile.load(log_path)
        me = next((p for p in saved.peers if p.seat == saved.own_seat), None)
        if me is None or me.public_key != ctx.identity.public:
            raise HedgerowError(
                f"{log_path} was played by another identity (key {key_text(me.public_key)[:8]}"
                f"…); use the key file of that seat (--key-file)" if me else
                f"{log_path}'s table file does not list its own seat")
        ruleset = rulesmatch.ruleset_for(plugins, header.fingerprint, header.players)
        history: list[HistoryLine] = []

        def describe(table: Table, applied: Applied) -> None:
            entry = applied.entry
            text = table.describe_entry(entry, applied.before)
            history.append(HistoryLine(entry.index, entry.seat, text))

        sealed = is_sealed(result)
        if sealed:
            replayed = self._sealed.resume(log_path, result, saved.peers, ruleset,
                                           ctx.identity.public)
            if replayed.table is not None:
                for applied in replayed.history:
                    describe(replayed.table, applied)
            report: ReplayReport | SealedReplay = replayed
        else:
            report = replay_log(ruleset, header, result.entries, on_step=describe)
        if report.mismatch is not None or report.table is None:
            raise HedgerowError(f"{log_path} does not replay: {report.mismatch}")
        host, port = split_endpoint(me.address)
        try:
            where = await self._listen(bind or host, port)  # others reconnect by themselves
        except OSError:
            where = await self._listen(bind or host, 0)
        ctx.table_id = header.table_id
        ctx.open_deck = rulesmatch.split_deck(header.fingerprint)[1]
        ctx.host_key = next((p.public_key for p in saved.peers if p.seat == 0), None)
        ctx.is_host = ctx.host_key == ctx.identity.public
        ctx.bot = ctx.bot or saved.bot
        ctx.seated(ruleset, header.players, saved.own_seat)
        ctx.round = saved.round  # the seed round of the log's seed (its Start says so)
        assert ctx.roster is not None and ctx.hashes is not None
        now = ctx.now()
        for info in saved.peers:
            if info.seat == ctx.seat:
                info = PeerInfo(info.seat, info.public_key, where, info.display_name, info.bot)
            member = ctx.roster.add(info, now, "bot" if info.bot else None)
            if member.key != ctx.identity.public:
                member.link = Link.WAITING
        table = ctx.table = report.table
        for item in result.entries:
            ctx.hashes.record_own(item.index, item.state_hash)
        self._start.resumed(table)
        # Damage in the middle: the intact prefix goes on, the damaged file is kept aside,
        # and catch-up refills the rest from the other peers, entry by checked entry.
        ctx.writer, aside = LogWriter.recover(log_path)
        if aside is not None:
            log.warning("%s is damaged (%s); kept as %s, continuing from entry #%d and "
                        "fetching the rest from the table", log_path, result.problem, aside.name,
                        len(result.entries))
        ctx.log_path = Path(log_path)
        ctx.save_table_file()
        ctx.enter(Phase.FINISHED if table.over() else Phase.PLAYING)
        self._departures.resume()
        self._departures.restore(result.events)  # takeovers in force, an agreed end (§5.9)
        self._play.resumed(history, {item.index: item.reveals for item in result.entries
                                     if item.reveals})
        # Chance the rules resolved after the last logged entry (the process died before
        # sealing it): sealed now, like any entry.
        self._play.applied(report.unlogged)
        hello = Hello(ctx.fingerprint, rulesmatch.installed(plugins),
                      ctx.seat_name[:64] or me.display_name, ctx.seat, ctx.bot is not None,
                      where)
        for m in ctx.roster.others():
            ctx.node.connect(m.key, m.info.address)
        ctx.broadcast(hello)
        if sealed:  # (once the links are made: it sends what the others may lack)
            self._sealed.start()
        # Our Start again: it may never have reached the others before we went away.
        setup = self._start.setup_hash
        assert setup is not None
        ctx.broadcast(Start(table.header, setup))
        self._play.request_catch_up(None)
        log.info("resumed seat %d at action #%d; catching up", ctx.seat, table.index)
        ctx.notify()

    async def reopen(self, path: Path, *, bind: str | None = None) -> None:
        """Re-open, as its host, the table of the open-table file ``path`` after this host
        was lost before the seed was agreed (docs/protocol.md §3.2, "A host lost before
        play"): the same table id, key and address; the seats as they were, each sent the
        seating of the next seed round.  A seat that does not answer within the lost time
        is freed, as while seating."""
        plugins = self._rules("re-opening")
        ctx = self.ctx
        saved = openfile.load(path)
        me = next(p for p in saved.peers if p.seat == 0)
        if me.public_key != ctx.identity.public:
            raise HedgerowError(f"{path} is the table of another identity (key "
                                f"{key_text(me.public_key)[:8]}…); use its key file "
                                "(--key-file, or --as NAME)")
        ruleset = rulesmatch.ruleset_for(plugins, saved.fingerprint, saved.players)
        host, port = split_endpoint(me.address)
        try:
            where = await self._listen(bind or host, port)  # the joiners dial this very one
        except OSError as exc:
            raise HedgerowError(f"cannot listen at {me.address} again ({exc}): the joiners "
                                "only know the table there") from None
        ctx.is_host = True
        ctx.host_key = ctx.identity.public
        ctx.table_id = saved.table_id
        ctx.open_deck = rulesmatch.split_deck(saved.fingerprint)[1]
        ctx.table_name = saved.name
        ctx.bot = ctx.bot or saved.bot
        ctx.seated(ruleset, saved.players, 0)
        ctx.round = saved.round + 1  # the round the crash abandoned is over for everyone
        ctx.open_path = Path(path)
        ctx.seat_name = ctx.seat_name or me.display_name
        assert ctx.roster is not None
        now = ctx.now()
        for info in saved.peers:
            if info.seat == 0:
                info = PeerInfo(0, info.public_key, where, ctx.seat_name[:64],
                                ctx.bot is not None)
                ctx.roster.add(info, now, ctx.bot)
                continue
            ctx.roster.add(info, now, "bot" if info.bot else None)  # silent for the lost
            ctx.node.connect(info.public_key, info.address)  # time: freed, as in seating
        log.info("table re-opened at %s (seed round %d)",
                 TableAddress(*split_endpoint(where), ctx.identity.public), ctx.round)
        self._send_roster()
        if ctx.roster.full:
            self._start.begin()
        ctx.notify()
