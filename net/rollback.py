"""`Rollback`: a seat cut off during its own turn takes back what nobody else applied.

A partition is not a cheat (docs/protocol.md §5.9, "A seat cut off at its own turn").  When
a seat's link is cut both ways while its process goes on, the process may author its own
entry #N while nobody hears it, and the others, who saw the seat lost, may agree that a bot
plays it from #N: two different entries #N.  When the link returns, the others' entry
stands (they agreed on it, and the runner's ``SeatTaken`` says so); this process drops its
own entries from the takeover's index on and takes the seat back from there, as a peer
that resumed would.  It may do so only when that loses nothing anyone saw as final:

* every entry it drops is after the last one another peer showed that it holds (its state
  hash came back equal to ours, or it sent an action or entries chained on ours: the hash
  book's ``agreed``), and this process authored one of them for its own seat;
* the ``SeatTaken`` comes from the runner it names, a seat this process saw lost since its
  last own action before the takeover's index (a takeover needs every voter to have lost
  touch with the seat, so a peer heard all along cannot have run a bot for it);
* the table's deck is open.  At a sealed table the action this process drops may have
  shown cards, and the sealed deck's state (keys sent, cards opened, the escrow recovered
  by the runner) is not unwound in a running process: such a seat stops instead, with a
  clear message, and goes silent (`stop`): the others, whose table is sound, see it lost
  and may seat a bot again.

An own move that ended the game here is taken back too (the game goes on, from the
table's entry): so that the others never get our state hash of an entry they do not hold,
our end report waits until another seat showed it holds our last action of a turn
(`acknowledged`), and so does the end here (a seat cut off as its own move ends the game
keeps waiting for them, rather than leave a game that goes on without it).

**A cut seat that restarts.**  A process that comes back with ``hedgerow resume`` cannot
tell from its log which of its entries another peer applied (its log's entries count as
held, `resumed`).  When a ``SeatTaken`` names an index before the end of its log and the
log holds an entry of its own seat from there, it asks every other seat (each that has not
left) for its entries from that index (`Inquiry`) and believes the ``SeatTaken`` only once
all have answered: the first index where each one's log leaves ours (a different entry, or
its end) says what that seat holds of ours.  From the latest such index on nobody holds our
entries; if one of ours is among them, they are taken back as a live cut seat's are, then
the ``SeatTaken`` is believed (§5.9).

*A seat that does not answer* (lost: its link silent, though it has not left).  Waiting for
it open-endedly left the resumed player before a table that never started again, with
nothing saying why; deciding without it risks taking back an entry it holds (a fork when it
returns).  The table's own departure machinery does not end the wait: a lost seat never
becomes *left* by itself, and a bot cannot be seated for it while we ask (our player may not
propose it before we caught up, and we vote on the motion with our own log's index).  So we
go on without a lost seat only when the answers in hand decide (`decided`): nothing of ours
would be taken back, or a seat that answered holds *another* entry than ours where the
answers leave our log, so the table's entry there is not ours and no seat on the table's
chain holds ours from there (one that did would be forked from the one that answered
already).  Otherwise (every answer is a prefix of our log and the silent seat, the runner
say, may hold its bot's entry there) we keep asking and take nothing back, and say whom we
wait for and for how long: to the player (``held_back``, code "asking", `asking`) and in the
log at each new ask, every `DOUBT_S` seconds.  The player may leave meanwhile.  A seat that
left, or that a bot plays here, is not waited for.  Known limit: the inquiry lives in this
process only.  A player who leaves while it waits and resumes later is told of no takeover
(the runner handed the seat back to the first process), so the new process keeps its own
entries; if the runner's bot had made another one that some seat did not hear, the table
forks (tests/net/test_inquiry_lost.py, the xfail case).  A fix would log the ``SeatTaken``
and handback as learned and reopen the inquiry on resume.

A rollback is logged: a ``ROLLBACK`` seat event after the entries it voids (which stay in
the file), so the log reads, replays and resumes as the table's (§6).  Until the runner's
``SeatTaken`` comes, a hash that differs from ours on such an entry is *doubted*, not a
desync: this process stops acting and waits `DOUBT_S` seconds for the ``SeatTaken``, then
halts as for any desync.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Protocol

from hedgerow.core.sealedtable import SealedTable
from hedgerow.core.table import Table
from hedgerow.net.context import Living, Seated
from hedgerow.net.hashbook import Divergence, HashBook
from hedgerow.net.logfile import LogWriter, replay_log
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    CatchUpReply,
    Envelope,
    LoggedEntry,
    SeatEvent,
    SeatEventKind,
    SeatHandback,
    SeatTaken,
)
from hedgerow.net.seat import Link, Phase
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)

#: How long a doubted divergence waits for the runner's ``SeatTaken`` before it halts.
DOUBT_S = 10.0


class RollbackContext(Seated, Living, Protocol):
    """What a rollback reads and replaces of the peer's shared state
    (`hedgerow.net.context.PeerContext`)."""

    table: Table | None
    silent: bool

    @property
    def hashes(self) -> HashBook | None: ...

    @property
    def writer(self) -> LogWriter | None: ...

    def now(self) -> float: ...

    def notify(self) -> None: ...


class RolledPlay(Protocol):
    """What a rollback needs of play (`hedgerow.net.sync.Sync`)."""

    def seal(self) -> None: ...

    def request_catch_up(self, member: Member | None, from_index: int | None = None
                         ) -> None: ...

    def rolled_back(self, index: int) -> None:
        """Forget what play kept about entries ``index`` and later."""


@dataclass
class Inquiry:
    """A resumed process told of a takeover of its seat from ``taken.index``, before the end
    of its log: the ``SeatTaken`` (and its sender), a ``SeatHandback`` that came meanwhile,
    and for each other seat that answered, the first index from ``taken.index`` on where its
    log leaves ours (it holds our entries before it, none from it), and the seats whose log
    holds another entry there (``differs``; the others' logs end there).  ``began``: when
    we first asked; ``asked_at``: when we last asked those that have not answered."""

    taken: SeatTaken
    teller: Member
    asked_at: float
    began: float = 0.0
    handback: tuple[Received, Envelope, Member, SeatHandback] | None = None
    leaves: dict[int, int] = field(default_factory=dict)
    differs: set[int] = field(default_factory=set)

    def start(self) -> int:
        """The first index from which no seat that answered holds our entries."""
        return max([self.taken.index, *self.leaves.values()])


class Rollback:
    """This process's own entries that no other peer acknowledged, and taking them back.

    ``authored(index)`` is told each action this process authors for its own seat (with
    the seats it saw lost since the one before), ``lost`` reads the seats seen lost since the
    last one.
    """

    def __init__(self, ctx: RollbackContext, play: RolledPlay) -> None:
        self.ctx = ctx
        self.play = play
        #: Our own actions in this process: (log index, seats seen lost before it, a
        #: commitment to a simultaneous step rather than an action of our turn).
        self.own: list[tuple[int, frozenset[int], bool]] = []
        #: A divergence on entries we may take back, and until when we wait for the
        #: ``SeatTaken`` that explains it.
        self.doubted: Divergence | None = None
        self.doubt_until = 0.0
        #: A resumed process asking the others what they hold of its log (`inquire`).
        self.inquiry: Inquiry | None = None

    # -- what this process did ----------------------------------------------------------

    def authored(self, index: int, lost: set[int], *, step: bool = False) -> None:
        """We authored our seat's action at ``index`` (``step``: committed to the step that
        starts there); ``lost``: the seats seen lost before it."""
        self.own.append((index, frozenset(lost), step))

    def acknowledged(self) -> bool:
        """False while our last action of a turn is held by nobody else yet (no other seat's
        hash of it or of a later entry came back), though another seat may still say so
        (not every other seat left).  Our end report waits meanwhile, and so does the end:
        if the others saw us lost instead, a bot may be playing that very turn for us
        (§5.8, §5.9).  A commitment to a simultaneous step does not wait (every seat's own
        entry in the last step is acknowledged only by the end reports themselves)."""
        book, roster = self.ctx.hashes, self.ctx.roster
        turns = [at for at, _, step in self.own if not step]
        if book is None or roster is None or not turns:
            return True
        if all(m.link == Link.LEFT for m in roster.others()):
            return True
        return book.agreed > max(turns)

    def resumed(self) -> None:
        """This process came back with its log: what the log holds counts as held by the
        others (we cannot know which of its entries they applied)."""
        book, table = self.ctx.hashes, self.ctx.table
        if book is not None and table is not None:
            book.agreed = max(book.agreed, table.index)

    def lost_since(self, index: int, lost: set[int]) -> set[int]:
        """The seats seen lost since our last own action before ``index`` (``lost``: since
        our last one)."""
        seen = set(lost)
        for at, before, _ in self.own:
            if at >= index:
                seen |= before
        return seen

    def last_before(self, index: int) -> int:
        """Our last own action before ``index`` (-1: none)."""
        return max((at for at, _, _ in self.own if at < index), default=-1)

    # -- may we take back from ``index``? ------------------------------------------------

    def problem(self, index: int, runner: int, lost: set[int]) -> str | None:
        """Why this process may not take back its entries from ``index`` for a takeover run
        by ``runner`` (None: it may)."""
        table, book = self.ctx.table, self.ctx.hashes
        if table is None or book is None or self.ctx.writer is None:
            return "play has not started here"
        if self.ctx.phase not in (Phase.PLAYING, Phase.FINISHED):
            return f"the table is {self.ctx.phase.value} here"
        if not any(at >= index for at, _, _ in self.own):
            return f"this process authored nothing for seat {self.ctx.seat} from #{index} on"
        if index < book.agreed:
            return (f"another peer holds this seat's entries up to #{book.agreed - 1}: they "
                    f"are final")
        if runner not in self.lost_since(index, lost):
            return (f"seat {runner} has not lost touch with us since our last action before "
                    f"#{index}: no bot of its can play seat {self.ctx.seat}")
        return None

    def doubt(self, divergence: Divergence, lost: set[int]) -> bool:
        """A hash that differs from ours: True while it may come from a takeover of our seat
        during a cut (every differing seat was lost to us since our last own action before
        the entry, and we may still take the entry back), so we wait for the runner's
        ``SeatTaken`` instead of halting; or while we ask the others what they hold of our
        log from before the entry (`inquiry`)."""
        table, book = self.ctx.table, self.ctx.hashes
        if table is None or book is None or isinstance(table, SealedTable):
            return False
        if self.inquiry is not None and divergence.index >= self.inquiry.taken.index:
            return True  # (decided once every seat answered)
        index = divergence.index
        mine = divergence.hashes.get(self.ctx.seat)
        differ = {s for s, h in divergence.hashes.items() if h != mine}
        seen = self.lost_since(index, lost)
        if (not differ or not differ <= seen or index < book.agreed
                or not any(at >= index for at, _, _ in self.own)):
            return False
        if self.doubted is None or self.doubted.index != index:
            self.doubt_until = self.ctx.now() + DOUBT_S
            log.warning("seats %s hold another entry #%d than ours, which nobody else holds: "
                        "waiting for a bot's takeover of our seat to explain it",
                        ", ".join(str(s) for s in sorted(differ)), index)
        self.doubted = divergence
        self.ctx.notify()
        return True

    # -- a resumed process: who holds what of our log? --------------------------------

    def forked(self, index: int) -> bool:
        """True when our log holds an entry of our own seat at ``index`` or later: a
        resumed process told of a takeover from ``index`` must ask before it believes it."""
        table = self.ctx.table
        return table is not None and any(
            entry.seat == self.ctx.seat for entry in table.entries[index:])

    def inquire(self, body: SeatTaken, teller: Member) -> None:
        """Ask every other seat for its entries from ``body.index`` (`Inquiry`)."""
        now = self.ctx.now()
        self.inquiry = Inquiry(body, teller, now, now)
        log.info("a takeover of our seat from entry #%d, which our log passes: asking every "
                 "seat which of our entries from there it holds", body.index)
        self.play.request_catch_up(None, body.index)
        self.ctx.notify()

    def answered(self, member: Member, reply: CatchUpReply) -> bool:
        """A catch-up reply while we ask (`inquiry`): noted, and kept from play (its entries
        may not chain on ours).  True when it was taken here."""
        inquiry, table = self.inquiry, self.ctx.table
        if inquiry is None or table is None:
            return False
        index = inquiry.taken.index
        if reply.from_index <= index:
            theirs = {item.entry.index: item.entry for item in reply.entries}
            leaves = index
            while leaves < table.index and theirs.get(leaves) == table.entries[leaves]:
                leaves += 1
            inquiry.leaves[member.seat] = leaves
            inquiry.differs.discard(member.seat)
            if leaves < table.index and leaves in theirs:
                inquiry.differs.add(member.seat)
            self.ctx.notify()
        return True

    def waited(self, bots: Collection[int]) -> list[Member]:
        """The seats the inquiry still waits for: every other seat that has not answered,
        unless it left or a bot plays it here (``bots``: the table goes on without its own
        process, and the bot's runner answers for the table)."""
        inquiry, roster = self.inquiry, self.ctx.roster
        if inquiry is None or roster is None:
            return []
        return [m for m in roster.others() if m.link != Link.LEFT and m.seat not in bots
                and m.seat not in inquiry.leaves]

    def decided(self, inquiry: Inquiry) -> str | None:
        """Why the answers in hand settle the inquiry whatever the seats that did not answer
        hold (None: they do not).  Either no entry of our seat is left from where nobody who
        answered holds ours (nothing would be taken back), or a seat that answered holds
        *another* entry there than ours: the table's entry at that index is not ours, so a
        seat on the table's chain holds none of ours from there (one that held ours there
        would be forked from that seat already, whatever we do)."""
        if self.ctx.table is None:
            return None
        start = inquiry.start()
        if not self.forked(start):
            return (f"the seats that answered hold every entry of ours up to #{start - 1}, "
                    f"and none of ours comes after")
        other = sorted(s for s in inquiry.differs if inquiry.leaves[s] == start)
        if other:
            return f"seat {other[0]} holds another entry #{start} than ours"
        return None

    def inquiry_done(self, bots: Collection[int] = ()) -> Inquiry | None:
        """The inquiry, once it can be settled (then it is over: `settle`): every other seat
        that has not left and that no bot plays here (``bots``) answered it, or those that
        did not are lost here (§5.8) and the answers in hand decide (`decided`).  None while
        it waits: the seats it waits for are asked again every `DOUBT_S` seconds, and the
        log says whom it waits for and why each time (`asking` tells the player)."""
        inquiry = self.inquiry
        if inquiry is None:
            return None
        waiting = self.waited(bots)
        if waiting:
            lost = all(m.link == Link.LOST for m in waiting)
            why = self.decided(inquiry) if lost else None
            if why is None:
                if self.ctx.now() - inquiry.asked_at >= DOUBT_S:
                    inquiry.asked_at = self.ctx.now()
                    for member in waiting:
                        self.play.request_catch_up(member, inquiry.taken.index)
                    log.warning("still waiting for %s to say which of our entries from #%d it "
                                "holds (asked again): until then this seat does not play "
                                "(a bot played it from #%d meanwhile, and our own entries "
                                "there may or may not be the table's)",
                                self._silent(waiting, inquiry), inquiry.taken.index,
                                inquiry.taken.index)
                    self.ctx.notify()
                return None
            log.warning("going on without an answer from %s: %s", self._silent(waiting, inquiry),
                        why)
        self.inquiry = None
        return inquiry

    def asking(self, bots: Collection[int] = ()) -> str | None:
        """While the inquiry waits: for the player, whom it waits for and why (None: no
        inquiry is open)."""
        inquiry = self.inquiry
        if inquiry is None:
            return None
        waiting = self.waited(bots)
        lead = ("a bot played this seat while it was away; asking the others which of its "
                "moves they hold")
        if not waiting:
            return lead
        lost = [m.seat for m in waiting if m.link == Link.LOST]
        if len(lost) == len(waiting):
            state = ", which is lost" if len(lost) == 1 else ", which are lost"
        else:
            state = f" ({_seats(lost)} {'is' if len(lost) == 1 else 'are'} lost)" if lost else ""
        return (f"{lead}: no answer yet from {_seats([m.seat for m in waiting])}{state}; this "
                f"seat plays again once "
                f"{'it answers or leaves' if len(waiting) == 1 else 'they answer or leave'}")

    def _silent(self, waiting: list[Member], inquiry: Inquiry) -> str:
        """The seats waited for, for the log: each with how long it has been silent."""
        now = self.ctx.now()
        words = []
        for m in waiting:
            since = now - (m.last_seen if m.last_seen > inquiry.began else inquiry.began)
            state = {Link.LOST: "lost", Link.WAITING: "not heard from since we resumed"
                     }.get(m.link, m.link.value)
            words.append(f"{m.label()} ({state}, silent for {since:.0f} s)")
        return ", ".join(words)

    def settle(self, inquiry: Inquiry) -> SeatEvent | None:
        """Every seat answered, or the answers in hand decide (`inquiry_done`): take back our
        entries from where no seat that answered holds them, when one of them is our own
        seat's (the ``ROLLBACK`` event; None when nothing is taken back, or when a sealed
        table stops instead)."""
        table, book = self.ctx.table, self.ctx.hashes
        if table is None or book is None or self.ctx.writer is None:
            return None
        start = inquiry.start()
        if not self.forked(start):
            return None
        book.agreed = start  # (what the others showed that they hold; nothing from there)
        taken = inquiry.taken
        return self.roll_back(SeatTaken(taken.seat, taken.runner, taken.bot, start))

    def tick(self, names: dict[int, str]) -> None:
        """Once a beat: a doubt that waited `DOUBT_S` in vain is a desync."""
        doubted = self.doubted
        if doubted is None or self.ctx.now() < self.doubt_until:
            return
        self.doubted = None
        if self.ctx.phase in (Phase.PLAYING, Phase.FINISHED):
            self.ctx.halt(doubted.describe(names) + " (no takeover of this seat explains it)",
                          tell=True, index=doubted.index)

    # -- taking back --------------------------------------------------------------------

    def stop(self, why: str) -> None:
        """This seat cannot take its entries back: it stops and goes silent (as a seat whose
        log cannot be written does), so the others see it lost and what they do about a
        departed seat applies; nobody is told of a desync (their table is sound)."""
        self.ctx.silent = True
        self.ctx.halt(f"{why}: this seat stops here; the table goes on without it (the "
                      f"others see it lost and may seat a bot again), and this seat's log "
                      f"keeps the game as this seat saw it")

    def roll_back(self, body: SeatTaken) -> SeatEvent | None:
        """Drop our entries from ``body.index`` on (checked: `problem`) and log it; the
        ``ROLLBACK`` event, or None when this table cannot (a sealed deck: halted)."""
        table, book, writer = self.ctx.table, self.ctx.hashes, self.ctx.writer
        assert table is not None and book is not None and writer is not None
        index = body.index
        self.play.seal()  # everything applied is in the log and the book first
        cut_off = (f"this seat was cut off at its own turn and a {body.bot} bot run by seat "
                   f"{body.runner} played it from entry #{index} meanwhile")
        if isinstance(table, SealedTable):
            self.stop(f"{cut_off}; at a sealed table this seat cannot take back its own "
                      f"entries from #{index} (their cards' keys went out with them)")
            return None

        dropped = table.index - index
        logged = [LoggedEntry(entry, book.own[entry.index]) for entry in table.entries[:index]]
        report = replay_log(self.ctx.ruleset, writer.header, logged)
        if report.table is None or report.mismatch is not None:
            self.ctx.halt(f"cannot take back entries from #{index}: our own log does not "
                          f"replay ({report.mismatch})")
            return None
        head = logged[-1].entry.digest if logged else table.header.genesis
        event = SeatEvent(SeatEventKind.ROLLBACK, self.ctx.seat, body.runner, body.bot, index)
        writer.roll_back(event, head)
        book.roll_back(index)
        self.ctx.table = report.table
        if self.ctx.phase == Phase.FINISHED:
            self.ctx.enter(Phase.PLAYING)  # our own move had ended the game here, alone
        self.play.rolled_back(index)
        self.own = [mine for mine in self.own if mine[0] < index]
        self.doubted = None
        log.warning("this seat was cut off at its own turn: took back our %d entr%s from #%d "
                    "(nobody else applied them); a %s bot run by seat %d played the seat "
                    "meanwhile", dropped, "y" if dropped == 1 else "ies", index, body.bot,
                    body.runner)
        return event


def _seats(seats: list[int]) -> str:
    """``seat 1``, ``seats 1 and 3``, ``seats 0, 1 and 3`` (as clients name them)."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(str(s) for s in seats[:-1])} and {seats[-1]}"
