"""`Departures`: what a table does about a seat whose peer left or was lost (protocol §5.9).

A seat is *departed* while play is on and its link is lost or left (and no bot runs it).
Every remaining peer learns it from its own heartbeats and ``Leave`` (`Departures.departed`
lists them for the clients, which say who left and what the table can do now):

* **wait** for the player to come back with ``hedgerow resume`` (the default: nothing is
  sent);
* **seat a bot**: a remaining peer proposes ``SeatMotion(TAKEOVER, seat, runner, bot,
  index, voters)``; ``voters`` are the seats the proposer sees connected (itself included),
  ``runner`` is the lowest of them: its process runs the bot, which sees only that seat's
  view and authors that seat's actions from its own key.  Every voter checks the motion
  against its own view (`check`) and sends ``MotionVote`` to every other seated peer; the
  motion is in force at a peer once it holds an accepting vote from every voter (the
  proposer's motion is its vote), and fails at the first refusal.  A motion that does not
  gather its votes *expires* (`expire`): after `MOTION_EXPIRY_S` seconds open, at once when
  one of its voters departs, or when its seat is no longer departed; then the proposer may
  propose again;
* **end the game**: ``SeatMotion(END, ...)``, agreed the same way; the table is over with
  no winner.

Either agreement is written to the log as a `SeatEvent` record outside the hash chain: who
authors a seat is table metadata, not rules state, so the entries, their digests and every
state hash are those of an ordinary game, and ``replay --verify`` checks them unchanged.

**Reclaim.**  The departed player's peer comes back with ``hedgerow resume`` and says
``Hello`` with its key (§5.7).  Every peer that holds the takeover answers ``SeatTaken``
before anything else, so the returning peer waits (it may not act for its seat); the
runner stops its bot at once (between two of its decisions: everything runs on one event
loop), and sends ``SeatHandback(seat, index)`` to everyone: from entry ``index`` on, the
seat's own key authors it again.  The returning peer acts once it holds the handback and
has caught up to ``index``.  The handback is logged as a ``RECLAIM`` seat event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.game import Bot, BotSpec
from hedgerow.core.playout import make_bots
from hedgerow.core.table import Applied, Table
from hedgerow.net import wirerules as W
from hedgerow.net.context import Living, Seated, Speaking
from hedgerow.net.hashbook import Divergence, HashBook
from hedgerow.net.keys import Identity
from hedgerow.net.logfile import LogWriter
from hedgerow.net.members import Member, Takeover, Takeovers
from hedgerow.net.messages import (
    ActionCommit,
    CatchUpReply,
    Envelope,
    ErrorCode,
    Leave,
    LeaveReason,
    MotionKind,
    MotionVote,
    SeatEvent,
    SeatEventKind,
    SeatHandback,
    SeatMotion,
    SeatTaken,
    action_commitment,
)
from hedgerow.net.rollback import Rollback
from hedgerow.net.seat import Changes, Departed, Link, Motion, Phase
from hedgerow.net.shown import shown
from hedgerow.net.stepround import StepRound
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)

#: Open motions and early votes kept at once (more are dropped: propose again).
MOTIONS_KEPT = 32
#: An open motion expires this many seconds after a peer first held it (docs/protocol.md
#: §5.9): long enough for a person to read the box and answer.
MOTION_EXPIRY_S = 60.0
#: A resumed process waits at most this many seconds for every other seat to answer its
#: catch-up request before it acts for its seat (§5.9): a silent seat is gone.
ANSWER_WAIT_S = 6.0
#: Expired motions remembered, so that their late votes and repeats count for nothing.
EXPIRED_KEPT = 64


class DeparturesContext(Speaking, Seated, Living, Protocol):
    """What departures read of the peer's shared state (`hedgerow.net.context.PeerContext`):
    the table (its entries change through the table and play), the log for seat events,
    and the watchers' next change (a hosted bot waits for it)."""

    @property
    def identity(self) -> Identity: ...

    table: Table | None  # (replaced by a rollback, `hedgerow.net.rollback`)
    silent: bool  # (a seat that cannot take its entries back stops and goes silent)

    @property
    def writer(self) -> LogWriter | None: ...

    @property
    def changes(self) -> Changes: ...

    @property
    def hashes(self) -> HashBook | None: ...

    def names(self) -> dict[int, str]: ...


class DeparturesSeal(Protocol):
    """What departures need of the sealed deck (`hedgerow.net.sealplay.SealedPlay`)."""

    def takeover_problem(self, seat: int) -> str | None:
        """Why a bot cannot take ``seat`` at this table (a sealed one of two parties), or
        None."""

    def taken_over(self, seat: int) -> None:
        """A takeover of ``seat`` passed: recover its peer's secret, show the runner its
        cards."""

    def handed_back(self, seat: int) -> None:
        """``seat`` is its own peer's again: show it the cards dealt meanwhile."""

    def owed_to_me(self) -> bool:
        """True while cards this peer's seats (a taken seat's too) must be shown are not
        open yet."""

    def unshown(self, seat: int) -> bool:
        """True while a card in ``seat``'s view is not open to this peer (a seat taken over
        before its peer's secret is recovered: its actions cannot be listed yet)."""

    def end_agreed(self) -> None:
        """The table agreed to end the game: disclose our secret, as at a game's end."""


class DeparturesPlay(Protocol):
    """What departures need of play (`hedgerow.net.sync.Sync`): its open step (a hosted
    bot commits to it), sealing and applying entries, catch-up, and a returning peer."""

    @property
    def step(self) -> StepRound | None: ...

    @property
    def syncing(self) -> bool: ...

    def open_step(self) -> StepRound: ...

    def reveal_when_ready(self) -> None: ...

    def forget_commitment(self, seat: int) -> None: ...

    def applied(self, applied: Sequence[Applied]) -> None: ...

    def author(self, seat: int, action: Action) -> Refusal | None: ...

    def choice(self, seat: int, action: Action) -> Action | Refusal: ...

    def drain(self) -> None: ...

    def held(self) -> bool: ...

    def seal(self) -> None: ...

    def request_catch_up(self, member: Member | None, from_index: int | None = None
                         ) -> None: ...

    def peer_back(self, member: Member, *, restarted: bool = True) -> None: ...

    def rolled_back(self, index: int) -> None: ...

    in_doubt: Callable[[Divergence], bool]
    acknowledged: Callable[[], bool]


class Departures:
    """Departed seats, motions about them, takeovers in force, bots hosted and reclaims.

    ``takeovers`` are the takeovers in force, shared with play (which checks each action's
    author against them); ``find_bot(name)`` gives the `BotSpec` of a strategy this process
    can run (None when it cannot); ``accept(motion)`` decides a vote this peer casts by
    itself (a headless bot peer accepts, `run_headless`; None: the seat's client asks its
    player, then calls `vote`).
    """

    def __init__(self, ctx: DeparturesContext, sync: DeparturesPlay, takeovers: Takeovers, *,
                 find_bot: Callable[[str], BotSpec | None], sealed: DeparturesSeal) -> None:
        self.ctx = ctx
        self.sync = sync
        self.sealed = sealed
        self.takeovers = takeovers
        self._find_bot = find_bot
        self.accept: Callable[[SeatMotion], bool] | None = None
        self.delay = 0.0  # a hosted bot pauses this long before each move (as its runner's)
        self.motions: dict[tuple[int, int], Motion] = {}  # (proposer, number) -> open motion
        self.early: dict[tuple[int, int], dict[int, bool]] = {}  # votes before their motion
        self.expired: dict[tuple[int, int], str] = {}  # expired motions -> why (the newest)
        self.asked: list[Motion] = []  # motions waiting for this peer's player to vote
        self.held: Takeover | None = None  # our own seat, run by another peer's bot
        self.handed_back: int | None = None  # our seat came back at this entry
        #: The log index of the last action this process authored for its own seat (-1:
        #: none yet): no bot can have taken the seat over at or before it.
        self.authored: int = -1
        #: This process came back with ``hedgerow resume`` (it may hear of a takeover of its
        #: own seat from any peer that holds it, before it authored anything).
        self.resumed = False
        #: A resumed process: when it resumed, and the seats that answered its catch-up
        #: request since.  It does not act for its seat before every other seat answered
        #: (each tells of a takeover first) or `ANSWER_WAIT_S` passed.
        self.resumed_at: float | None = None
        #: Seats this process saw lost since the last action it authored: only such a seat
        #: can have run a bot for ours without our resuming (we were cut off from it).
        self.lost_seen: set[int] = set()
        self.answered: set[int] = set()
        #: Seats departed now, each with the number of its departure (a seat that goes
        #: again after it was back is departed under a new number), and the seats this
        #: process has not heard from since it resumed.
        self._away: dict[int, int] = {}
        self._departures_seen = 0
        self.unheard: set[int] = set()
        self.ended: SeatEvent | None = None  # the agreed end
        self.events: list[SeatEvent] = []  # every seat event this peer logged
        self._number = 0
        self._bots: dict[int, asyncio.Task[None]] = {}
        self._handing_back: set[int] = set()  # seats handed back once the open step ends
        #: Our own entries nobody else holds yet, taken back for a takeover during a cut.
        self.rollback = Rollback(ctx, sync)
        sync.in_doubt = lambda divergence: self.rollback.doubt(divergence, self.lost_seen)
        sync.acknowledged = self.rollback.acknowledged

    # -- what the clients read ----------------------------------------------------------

    def departed(self) -> list[Departed]:
        """Seats whose peer is lost or left while play is on and that no bot runs, each
        numbered by its departure (`Departed.number`: a seat gone again is news again)."""
        roster = self.ctx.roster
        gone = [] if roster is None or self.ctx.phase != Phase.PLAYING else [
            m for m in roster.others()
            if m.link in (Link.LOST, Link.LEFT) and m.seat not in self.runs]
        seats = {m.seat for m in gone}
        for seat in [s for s in self._away if s not in seats]:
            del self._away[seat]  # back, or a bot plays it: its next departure is new
            self.unheard.discard(seat)
        for m in gone:
            if m.seat not in self._away:
                self._departures_seen += 1
                self._away[m.seat] = self._departures_seen
        return [Departed(m.seat, m.info.display_name, m.link,
                         "" if m.left_why is None else m.left_why.name.lower(),
                         self._away[m.seat], m.seat in self.unheard)
                for m in gone]

    def voters(self, seat: int) -> tuple[int, ...]:
        """The seats that must agree on a motion about ``seat``: every seat this peer sees
        connected, itself included, without the seats bots run for departed players."""
        roster = self.ctx.roster
        if roster is None:
            return ()
        return tuple(m.seat for m in roster
                     if m.seat != seat and m.seat not in self.runs
                     and (m.key == roster.own_key or m.link == Link.CONNECTED))

    def resume(self) -> None:
        """This process came back with ``hedgerow resume``: it hears the table out first."""
        self.resumed = True
        self.resumed_at = self.ctx.now()
        self.rollback.resumed()

    def answered_by(self, member: Member) -> None:
        """``member`` answered our catch-up request: any takeover of our seat in force at that
        peer was told before it (§5.9)."""
        if self.resumed_at is not None and member.seat not in self.answered:
            self.answered.add(member.seat)
            self.hearing_out()

    def hearing_out(self) -> bool:
        """True while a resumed process still waits for the other seats' answers; the wait
        ends (and the screen is told) once every seat answered or `ANSWER_WAIT_S` passed."""
        if self.resumed_at is None:
            return False
        roster = self.ctx.roster
        unanswered = [m for m in roster.others() if m.seat not in self.answered
                      and m.link != Link.LEFT] if roster is not None else []
        if unanswered and self.ctx.now() - self.resumed_at < ANSWER_WAIT_S:
            return True
        if unanswered:
            log.info("no answer from %s since we resumed%s",
                     ", ".join(m.label() for m in unanswered),
                     "" if self.rollback.inquiry is not None else "; acting without it")
        for member in unanswered:
            if member.link == Link.WAITING:
                # Not heard from at all since we came back: its player is away too (they
                # must resume), and the table's choices about a departed seat apply.
                member.link = Link.LOST
                self.unheard.add(member.seat)
                self.saw_lost(member)
                log.warning("%s has not come back to the table (its player must run "
                            "hedgerow resume)", member.label())
        self.resumed_at = None
        self.departed()  # (numbers the departures just seen)
        self.ctx.notify()
        return False

    def takeover_problem(self, seat: int) -> str | None:
        """Why no bot can take ``seat`` over here now, or None: a sealed table of two
        parties (nobody else can open its cards), or this process has not caught up with
        the table since it came back (its log may lack entries the seat's own peer made:
        a bot playing from there would fork the game)."""
        sealed = self.sealed.takeover_problem(seat)
        if sealed is not None:
            return sealed
        quorum = self.quorum_problem(self.voters(seat))
        if quorum is not None:
            return quorum
        if self.rollback.inquiry is not None:
            return ("a bot cannot take the seat while you ask the others which of your moves "
                    "they hold (a bot played your seat while you were away)")
        if self.sync.syncing:
            return ("a bot cannot take the seat before you have caught up with the table "
                    "(nobody has answered since you came back)")
        return None

    def end_problem(self, seat: int) -> str | None:
        """Why this peer cannot propose ending the game without ``seat`` now (the quorum),
        or None."""
        return self.quorum_problem(self.voters(seat))

    def quorum_problem(self, voters: Sequence[int]) -> str | None:
        """Why ``voters`` may not seat a bot or end the game (None: they may).  At a table
        of three seats or more their own peers still play, the voters must be at least half
        of those seats, and when exactly half, hold the lowest of them: a peer cut off from
        the rest sees everyone else lost, and a bot it ran for them would fork the game from
        the one they play on (an end it agreed with itself would end a game they play on),
        so only one side of a partition may decide (§5.9).  At a table of two either side
        may (nobody can tell a partition from a crash there)."""
        playing = [s for s in range(self.ctx.players) if s not in self.runs]
        if len(playing) < 3 or 2 * len(voters) > len(playing) or (
                2 * len(voters) == len(playing) and playing[0] in voters):
            return None
        return (f"only {len(voters)} of the {len(playing)} seats still played by their own "
                f"players can agree here; a bot or an end needs more than half of them, or "
                f"half with seat {playing[0]} (the others may be playing on without this "
                f"peer)")

    def may_act(self) -> bool:
        """False while our own seat is run by another peer's bot, or has been handed back to
        us at an entry we have not caught up to yet, or (just resumed) while the other seats
        have not all answered: one of them may be about to say a bot runs it."""
        if (self.held is not None or self.rollback.doubted is not None
                or self.rollback.inquiry is not None or self.hearing_out()):
            return False
        table = self.ctx.table
        return self.handed_back is None or (table is not None
                                            and table.index >= self.handed_back)

    def catching_up(self, syncing: bool) -> Refusal | None:
        """Why this seat may not act while it catches up with the table (``syncing``: play
        has not caught up yet), or None.  A resumed process that asks the others what they
        hold of its log (§5.9, a cut seat that restarts) says so, naming the seats it still
        waits for (code "asking"): its catch-up waits for that."""
        asking = self.rollback.asking(self.runs)
        if asking is not None:
            return Refusal("asking", asking)
        if syncing:
            return Refusal("syncing", "this seat is still catching up with the table")
        return None

    @property
    def runs(self) -> dict[int, Takeover]:
        """The takeovers in force, by seat (the shared `Takeovers`)."""
        return self.takeovers.runs

    def run_headless(self, delay: float) -> None:
        """Nobody is at this seat to ask (a headless bot plays it): accept every motion that
        passes this peer's checks (unless a policy is set already), and let a bot this peer
        runs for a departed seat pause ``delay`` seconds before each move."""
        if self.accept is None:
            self.accept = lambda motion: True
        self.delay = delay

    # -- proposing and voting -----------------------------------------------------------

    def propose(self, kind: MotionKind, seat: int, bot: str = "") -> SeatMotion | Refusal:
        """Propose a takeover of departed ``seat`` by ``bot``, or the end of the game; the
        motion is sent to every other seated peer (or why it cannot be proposed)."""
        table = self.ctx.table
        if table is None or self.ctx.phase != Phase.PLAYING:
            return Refusal("wrong_phase", "the table is not playing")
        if seat not in {d.seat for d in self.departed()}:
            return Refusal("not_departed", f"seat {seat} has not left the table")
        voters = self.voters(seat)
        if kind == MotionKind.END:
            quorum = self.quorum_problem(voters)
            if quorum is not None:
                return Refusal("no_quorum", quorum)
        if kind == MotionKind.TAKEOVER:
            problem = self.takeover_problem(seat)
            if problem is not None:
                return Refusal("no_takeover", problem)
            if self._find_bot(bot) is None and min(voters) == self.ctx.seat:
                return Refusal("unknown_bot", f"this peer has no bot {bot!r} for this game")
        self._number += 1
        motion = SeatMotion(self._number, kind, seat,
                            min(voters) if kind == MotionKind.TAKEOVER else 0,
                            bot if kind == MotionKind.TAKEOVER else "", table.index, voters)
        problem = self.check(motion, self.ctx.seat)
        if problem is not None:
            return Refusal("bad_motion", problem)
        held = self._keep(Motion(self.ctx.seat, motion))
        held.votes[self.ctx.seat] = True
        self.ctx.broadcast(motion)
        log.info("proposed %s", describe(motion))
        self._maybe_pass(held)
        self.ctx.notify()
        return motion

    def check(self, motion: SeatMotion, proposer: int) -> str | None:
        """Why this peer cannot accept ``motion`` (docs/protocol.md §5.9), or None."""
        ctx, table = self.ctx, self.ctx.table
        if table is None or ctx.phase != Phase.PLAYING:
            return "the table is not playing here"
        if motion.seat >= ctx.players:
            return f"seat {motion.seat} does not exist"
        if motion.seat in self.runs:
            return f"a bot already plays seat {motion.seat}"
        member = ctx.roster.by_seat(motion.seat) if ctx.roster is not None else None
        if member is None or member.key == ctx.identity.public or \
                member.link not in (Link.LOST, Link.LEFT):
            return f"seat {motion.seat} has not left the table here"
        if motion.index != table.index:
            return f"the motion is for entry #{motion.index}, this peer is at #{table.index}"
        mine = self.voters(motion.seat)
        if motion.voters != mine:
            return (f"the voters differ: this peer sees seats "
                    f"{', '.join(str(s) for s in mine)} at the table")
        quorum = self.quorum_problem(motion.voters)
        if quorum is not None:
            return quorum
        if motion.kind == MotionKind.TAKEOVER:
            if motion.runner != min(motion.voters):
                return f"the runner must be the lowest voting seat, {min(motion.voters)}"
            sealed = self.sealed.takeover_problem(motion.seat)
            if sealed is not None:
                return sealed
            if motion.runner == ctx.seat and self._find_bot(motion.bot) is None:
                return f"this peer has no bot {motion.bot!r} for this game"
        for other in self.motions.values():
            if other.body.seat == motion.seat and other.body.kind != motion.kind and \
                    other.votes.get(ctx.seat):
                return "this peer agreed to another motion for that seat"
        return None

    def on_motion(self, rx: Received, env: Envelope, member: Member, body: SeatMotion) -> None:
        """A proposal from a seated peer: checked, then answered with a vote to everyone."""
        if member.seat not in body.voters or member.seat in self.runs:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"{member.label()} is not a voter of its own motion")
            return
        key = (member.seat, body.number)
        if key in self.motions or key in self.expired:
            return  # a repeat (of an open motion, or of one that expired here)
        motion = self._keep(Motion(member.seat, body))
        motion.votes.update({seat: vote for seat, vote in self.early.pop(key, {}).items()
                             if seat in body.voters})  # (a non-voter's vote counts for nothing)
        motion.votes[member.seat] = True
        self.ctx.note(member.key, b"motion", logging.INFO, "%s proposes %s", member.label(),
                      describe(body))
        problem = self.check(body, member.seat)
        if self.ctx.seat not in body.voters:
            problem = problem or "this peer is not among the voters"
        if problem is not None:
            self.vote(motion, False, problem)
        elif self.accept is not None:
            self.vote(motion, self.accept(body))
        else:
            self.asked.append(motion)  # the player decides (`vote`)
        self.ctx.notify()

    def vote(self, motion: Motion, accept: bool, reason: str = "") -> None:
        """Cast this peer's vote on ``motion`` and send it to every other seated peer."""
        if motion in self.asked:
            self.asked.remove(motion)
        if self.ctx.seat in motion.votes:
            return
        if accept:
            problem = self.check(motion.body, motion.proposer)
            if problem is not None:
                accept, reason = False, problem
        if not accept and not reason:
            reason = "the player declined"
        motion.votes[self.ctx.seat] = accept
        self.ctx.broadcast(MotionVote(motion.proposer, motion.body.number, accept,
                                      reason[:200]))
        self.ctx.note(self._key_of(motion.proposer), b"motion", logging.INFO, "voted %s on %s%s",
                      "yes" if accept else "no", describe(motion.body),
                      "" if accept else f": {reason}")
        self._maybe_pass(motion)
        self.ctx.notify()

    def on_vote(self, rx: Received, env: Envelope, member: Member, body: MotionVote) -> None:
        """A voter's answer: counted; the motion passes once every voter accepted."""
        key = (body.proposer, body.number)
        motion = self.motions.get(key)
        if motion is None:
            if key in self.expired:
                return  # too late: it expired here
            if len(self.early) < MOTIONS_KEPT:  # the motion itself may still be on its way
                self.early.setdefault(key, {})[member.seat] = body.accept
            return
        if member.seat not in motion.body.voters:
            # A non-voter votes too (no, §5.9: a peer that returns finds the motions about
            # its own seat queued in its links): its vote counts for nothing and is no error.
            self.ctx.note(member.key, b"vote", logging.INFO, "%s, not a voter, voted %s on "
                          "%s: it counts for nothing", member.label(),
                          "yes" if body.accept else "no", describe(motion.body))
            return
        motion.votes.setdefault(member.seat, body.accept)
        if not body.accept:
            self.ctx.note(member.key, b"vote", logging.INFO, "%s refused %s: %s",
                          member.label(), describe(motion.body),
                          shown(body.reason) or "no reason given")
        self._maybe_pass(motion)
        self.ctx.notify()

    def expire(self) -> None:
        """Drop the open motions that can no longer gather their votes here (docs/protocol.md
        §5.9): open for `MOTION_EXPIRY_S`, a voter departed, or the seat no longer departed.
        Their late votes and repeats count for nothing; the proposer may propose again."""
        self.departed()  # (a link changed: number a new departure, forget a seat back)
        self.rollback.tick(self.ctx.names())  # (a doubt that waited in vain halts)
        self._inquired()  # (a seat left meanwhile, or one is asked again)
        if not self.motions:
            return
        roster, now = self.ctx.roster, self.ctx.now()
        gone = {d.seat for d in self.departed()}
        for key, motion in list(self.motions.items()):
            body = motion.body
            lost = [s for s in body.voters
                    if (m := roster.by_seat(s) if roster else None) is not None
                    and m.key != self.ctx.identity.public and m.link in (Link.LOST, Link.LEFT)]
            if lost:
                why = f"voter seat {lost[0]} is gone"
            elif body.seat not in gone:
                why = f"seat {body.seat} is no longer empty"
            elif now - motion.since >= MOTION_EXPIRY_S:
                why = f"no answer from every voter within {MOTION_EXPIRY_S:g} s"
            else:
                continue
            del self.motions[key]
            if motion in self.asked:
                self.asked.remove(motion)
            self.expired[key] = why
            while len(self.expired) > EXPIRED_KEPT:
                del self.expired[next(iter(self.expired))]
            self.ctx.note(self._key_of(motion.proposer), b"motion", logging.INFO,
                          "%s expired: %s", describe(body), why)
            self.ctx.notify()

    def _key_of(self, seat: int) -> bytes:
        """The key that holds ``seat`` (whose messages a line about its motion counts
        against, `PeerContext.note`)."""
        member = self.ctx.roster.by_seat(seat) if self.ctx.roster is not None else None
        return member.key if member is not None else bytes([seat])

    def _keep(self, motion: Motion) -> Motion:
        motion.since = self.ctx.now()
        while len(self.motions) >= MOTIONS_KEPT:
            del self.motions[next(iter(self.motions))]
        self.motions[(motion.proposer, motion.body.number)] = motion
        return motion

    def _maybe_pass(self, motion: Motion) -> None:
        key = (motion.proposer, motion.body.number)
        if any(v is False for v in motion.votes.values()):
            self.motions.pop(key, None)
            if motion in self.asked:
                self.asked.remove(motion)
            return
        if not all(motion.votes.get(s) for s in motion.body.voters):
            return
        self.motions.pop(key, None)
        body = motion.body
        if self.ctx.phase != Phase.PLAYING or body.seat in self.runs:
            return
        self.sync.seal()
        if body.kind == MotionKind.END:
            event = SeatEvent(SeatEventKind.END, body.seat, 0, "", body.index, body.voters)
            self.ended = event
            self._log(event)
            self.ctx.enter(Phase.FINISHED)
            self.sealed.end_agreed()
            log.info("the table agreed to end the game at entry #%d (no winner)", body.index)
        else:
            self._take_over(Takeover(body.seat, body.runner, body.bot, body.index),
                            body.voters)
        self.ctx.notify()

    # -- takeovers in force -------------------------------------------------------------

    def _take_over(self, takeover: Takeover, voters: tuple[int, ...] = ()) -> None:
        self.runs[takeover.seat] = takeover
        # A commitment the departed process made in the open step died with its salt: the
        # bot commits afresh (§5.9).
        self.sync.forget_commitment(takeover.seat)
        self._log(SeatEvent(SeatEventKind.TAKEOVER, takeover.seat, takeover.runner,
                            takeover.bot, takeover.index, voters))
        member = self.ctx.roster.by_seat(takeover.seat) if self.ctx.roster else None
        if member is not None:
            member.bot_name = takeover.bot
        log.info("a %s bot run by seat %d plays seat %d from entry #%d", takeover.bot,
                 takeover.runner, takeover.seat, takeover.index)
        self.sealed.taken_over(takeover.seat)
        if takeover.runner == self.ctx.seat:
            spec = self._find_bot(takeover.bot)
            assert spec is not None  # checked before this peer accepted
            self._bots[takeover.seat] = asyncio.get_running_loop().create_task(
                self._guarded_bot(takeover.seat, spec))

    def restore(self, events: Sequence[SeatEvent]) -> None:
        """A resumed peer: the seat events of its own log, in order (takeovers still in
        force, an agreed end).  A bot this peer ran for a departed seat plays again once the
        peer has caught up; our own seat, if a bot runs it, waits for the handback."""
        self.events = list(events)
        for event in events:
            if event.kind == SeatEventKind.TAKEOVER:
                self.runs[event.seat] = Takeover(event.seat, event.runner, event.bot,
                                                 event.index)
            elif event.kind == SeatEventKind.RECLAIM:
                self.runs.pop(event.seat, None)
            elif event.kind == SeatEventKind.END:
                self.ended = event
        if self.ended is not None:
            self.ctx.enter(Phase.FINISHED)
            self.sealed.end_agreed()
        self.held = self.runs.get(self.ctx.seat)
        for takeover in list(self.runs.values()):
            member = self.ctx.roster.by_seat(takeover.seat) if self.ctx.roster else None
            if member is not None:
                member.bot_name = takeover.bot or "bot"
            spec = self._find_bot(takeover.bot)
            if takeover.runner == self.ctx.seat and takeover.seat != self.ctx.seat and spec:
                self._bots[takeover.seat] = asyncio.get_running_loop().create_task(
                    self._guarded_bot(takeover.seat, spec))

    def _log(self, event: SeatEvent) -> None:
        self.events.append(event)
        writer = self.ctx.writer
        if writer is not None and not writer.closed:
            writer.append_event(event)

    def returned(self, member: Member, *, resumed: bool = True) -> None:
        """A seated peer returned (§5.7) — ``resumed`` with a ``Hello``, or only its link
        came back: a bot that runs its seat hands it back, telling it first (§5.9); play
        re-sends our step messages.  A restarted process lost any commitment it had not
        revealed, unless that commitment was a bot's that plays its seat."""
        if self.ended is not None:
            # The table agreed to end the game while it was away: the end is outside the
            # chain, so catch-up cannot tell it.  To that peer this one has left a game that
            # is over (§5.9): it may end the game there too.
            self.ctx.send(member, Leave(f"the table agreed to end the game at entry "
                                        f"#{self.ended.index}", LeaveReason.GAME_OVER))
        bot_seat = member.seat in self.runs
        self.peer_back(member, resumed=resumed)
        self.sync.peer_back(member, restarted=resumed and not bot_seat)
        if self.sync.syncing:  # we resumed while it was away: it is whom we catch up from
            self.sync.request_catch_up(member)
        self.expire()

    def peer_back(self, member: Member, *, resumed: bool = True) -> None:
        """A seated peer came back (``resumed``: it said Hello again; else only its link
        returned): if a bot runs its seat, tell it (`SeatTaken`), and the runner stops its bot
        and hands the seat back.  Only the runner tells a peer that did not restart: such a
        peer believes no one else (§5.9)."""
        takeover = self.runs.get(member.seat)
        if takeover is None:
            return
        if resumed or takeover.runner == self.ctx.seat:
            self.ctx.send(member, SeatTaken(takeover.seat, takeover.runner, takeover.bot,
                                            takeover.index))
        if takeover.runner != self.ctx.seat or member.seat in self._handing_back:
            return
        step = self.sync.step
        if step is not None and member.seat in step.hosted:
            # Our bot committed for the seat in the open step: only we can reveal it, so
            # the bot stops choosing, the step finishes with its choice, and the seat is
            # handed back after it (§5.9).
            self._stop_bot(member.seat, keep_choice=True)
            self._handing_back.add(member.seat)
            self._bots[member.seat] = asyncio.get_running_loop().create_task(
                self._hand_back_after(member.seat, step.index))
            return
        self._stop_bot(member.seat)
        self._hand_back(member.seat)

    def _hand_back(self, seat: int) -> None:
        """The runner gives ``seat`` back from its next log index, to every seated peer."""
        self._handing_back.discard(seat)
        self.sync.seal()
        table = self.ctx.table
        index = table.index if table is not None else 0
        self.ctx.broadcast(SeatHandback(seat, index))
        self._handed_back(seat, index)

    async def _hand_back_after(self, seat: int, index: int) -> None:
        """Hand ``seat`` back once the step that starts at ``index`` is over."""
        while self.ctx.phase == Phase.PLAYING:
            step = self.sync.step
            if step is None or step.index != index:
                break
            await self._next_change()
        self._bots.pop(seat, None)
        if seat in self.runs:
            self._hand_back(seat)

    def _handed_back(self, seat: int, index: int) -> None:
        self.runs.pop(seat, None)
        self.sealed.handed_back(seat)
        self._log(SeatEvent(SeatEventKind.RECLAIM, seat, 0, "", index))
        member = self.ctx.roster.by_seat(seat) if self.ctx.roster else None
        if member is not None:
            member.bot_name = "bot" if member.info.bot else None
        log.info("seat %d is its player's again from entry #%d", seat, index)
        self.ctx.notify()

    def authored_own(self, index: int) -> None:
        """This process authored its seat's action at log ``index`` (or committed to the step
        that starts there)."""
        step = self.sync.step
        self.rollback.authored(index, self.lost_seen,
                               step=step is not None and step.index == index)
        self.authored = max(self.authored, index)
        self.lost_seen.clear()

    def saw_lost(self, member: Member) -> None:
        """``member`` fell silent here (lost): a takeover of our seat by it is possible now."""
        self.lost_seen.add(member.seat)

    def on_taken(self, rx: Received, env: Envelope, member: Member, body: SeatTaken) -> None:
        """To a returning peer: a bot runs our seat; wait for the runner's handback.

        Believed only when it can be true (§5.9): it names our seat, the takeover began
        after every action this process authored, and it comes from the runner itself or
        reaches a process that resumed and has authored nothing since.  A process that did
        not resume believes it only from a runner it saw lost since its last own action (a
        link that was cut both ways)."""
        if body.seat != self.ctx.seat:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT, f"seat {body.seat} is not ours")
            return
        roster = self.ctx.roster
        if body.runner == body.seat or roster is None or roster.by_seat(body.runner) is None:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"seat {body.runner} cannot run a bot for seat {body.seat}")
            return
        if body.index <= self.authored and not self._take_back(member, body):
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"seat {body.seat} authored entry #{self.authored} itself, after "
                            f"the takeover from #{body.index} that this names")
            return
        if self.ctx.phase == Phase.HALTED:
            return
        if member.seat != body.runner and (self.authored >= 0 or not self.resumed):
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"only seat {body.runner}, the runner named, may say it plays "
                            f"seat {body.seat}")
            return
        if not self.resumed and body.runner not in self.lost_seen:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"seat {body.runner} has not lost touch with us since our last "
                            f"action: no bot of its can play seat {body.seat}")
            return
        if self.handed_back is not None and self.handed_back >= body.index:
            return  # the handback came first
        if self.rollback.inquiry is not None:
            return  # (we ask what the others hold of our log: the first one is believed then)
        if (self.resumed and self.authored < 0 and self.held is None
                and self.rollback.forked(body.index)):
            # Our log holds our own entries from the takeover's index on, which nobody may
            # hold: we ask every seat before we believe it (§5.9, a cut seat that restarts).
            self.rollback.inquire(body, member)
            return
        self._believe(body)

    def _believe(self, body: SeatTaken) -> None:
        """A bot runs our seat (a `SeatTaken` we believe): we wait for the handback."""
        if self.held is None:
            self.held = Takeover(body.seat, body.runner, body.bot, body.index)
            self.runs[body.seat] = self.held
            self._log(SeatEvent(SeatEventKind.TAKEOVER, body.seat, body.runner, body.bot,
                                body.index))
            log.info("a %s bot run by seat %d played our seat from entry #%d; waiting for it "
                     "to hand the seat back", body.bot, body.runner, body.index)
            self.ctx.notify()

    def _take_back(self, member: Member, body: SeatTaken) -> bool:
        """A takeover of our seat from ``body.index``, at or before our own last action: we
        were cut off at our own turn (§5.9).  True once we took back our entries from there
        (or halted, at a sealed table); False when we may not (the SeatTaken is refused)."""
        if member.seat != body.runner or self.resumed:
            return False
        problem = self.rollback.problem(body.index, body.runner, self.lost_seen)
        if problem is not None:
            log.warning("a takeover of our seat from entry #%d by seat %d: not taking back "
                        "our entries (%s)", body.index, body.runner, problem)
            return False
        self.lost_seen = self.rollback.lost_since(body.index, self.lost_seen)
        event = self.rollback.roll_back(body)
        if event is not None:
            self.events.append(event)
            self.authored = self.rollback.last_before(body.index)
            # The table's entries from there, from every seat (each reply carries its
            # sender's hashes: an end reported while we were cut off is told again).
            self.sync.request_catch_up(None)
        return True

    def took_reply(self, member: Member, body: CatchUpReply) -> bool:
        """A catch-up reply while we ask what the others hold of our log (a resumed process
        told of a takeover our log passes): taken here, not by play.  True when taken."""
        if not self.rollback.answered(member, body):
            return False
        self._inquired()
        return True

    def _inquired(self) -> None:
        """Once every seat answered what it holds of our log: take back what nobody holds of
        ours (`Rollback.settle`), then believe the ``SeatTaken`` and a handback that came
        meanwhile, and catch up with the table."""
        inquiry = self.rollback.inquiry_done(self.runs)
        if inquiry is None:
            return
        event = self.rollback.settle(inquiry)
        if event is not None:
            self.events.append(event)
        if self.ctx.phase not in (Phase.PLAYING, Phase.FINISHED):
            return  # (a sealed table stops instead of taking back)
        self._believe(inquiry.taken)
        if inquiry.handback is not None:
            rx, env, member, body = inquiry.handback
            self.on_handback(rx, env, member, body)
        self.sync.request_catch_up(None)
        self.ctx.notify()

    def on_handback(self, rx: Received, env: Envelope, member: Member,
                    body: SeatHandback) -> None:
        """The runner's bot stopped: the seat is its own peer's again from ``index``."""
        takeover = self.runs.get(body.seat)
        if body.seat == self.ctx.seat and self.rollback.inquiry is not None:
            self.rollback.inquiry.handback = (rx, env, member, body)  # (believed after it)
            return
        if body.seat == self.ctx.seat:
            if takeover is not None and takeover.runner != member.seat:
                self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                                f"{member.label()} does not run seat {body.seat}")
                return
            if takeover is None and (self.authored >= 0 or not self.resumed):
                # Only a process that has just resumed may hear of its seat's handback
                # before the SeatTaken; one that plays its seat knows no bot runs it.
                self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                                f"no bot runs seat {body.seat}: it authored entry "
                                f"#{self.authored} itself")
                return
            self.held = None
            self.handed_back = body.index
            if takeover is None:  # the handback came before any SeatTaken
                self._log(SeatEvent(SeatEventKind.TAKEOVER, body.seat, member.seat, "",
                                    body.index))
            self._handed_back(body.seat, body.index)
            table = self.ctx.table
            if table is not None and table.index < body.index:
                self.sync.request_catch_up(member)
            return
        if takeover is None or takeover.runner != member.seat:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                            f"{member.label()} does not run seat {body.seat}")
            return
        self._handed_back(body.seat, body.index)

    # -- the hosted bot -----------------------------------------------------------------

    async def _next_change(self) -> None:
        """Wait for the next change at the table, or a second at most."""
        changed = self.ctx.changes.changed()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed, 1.0)

    def _stop_bot(self, seat: int, *, keep_choice: bool = False) -> None:
        """Stop the bot hosted for ``seat``; its choice in the open step is dropped unless
        ``keep_choice`` (the step is to finish with it)."""
        task = self._bots.pop(seat, None)
        if task is not None:
            task.cancel()
        step = self.sync.step
        if step is not None and not keep_choice:
            step.hosted.pop(seat, None)

    async def close(self) -> None:
        """Stop every hosted bot."""
        for seat in list(self._bots):
            task = self._bots[seat]
            self._stop_bot(seat)
            # (a failure was logged where it happened: closing goes on)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _guarded_bot(self, seat: int, spec: BotSpec) -> None:
        try:
            await self._run_bot(seat, spec)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot playing seat %d failed; the table waits for the seat", seat)

    async def _run_bot(self, seat: int, spec: BotSpec) -> None:
        """Play ``seat`` with ``spec`` from its own view until the game ends or it is handed
        back; every decision is taken at once, between two events of the loop."""
        bot: Bot | None = None
        rested = False
        me = asyncio.current_task()
        while True:
            ctx, table = self.ctx, self.ctx.table
            if (table is None or ctx.phase != Phase.PLAYING or seat not in self.runs
                    or self._bots.get(seat) is not me):
                # (stopped, `_stop_bot`: its cancel may not have reached it, since
                # ``asyncio.wait_for`` drops a cancel that comes with the change it waited
                # for; a stopped bot that went on would commit in the step handed back)
                return
            active = table.active_seats()
            # At a sealed table the bot waits while cards are being shown: those of its
            # seat (`unshown`: before the seat's secret is recovered its hand cannot be
            # read), or any the table waits for (an action now would only be queued,
            # `Sync.held`, and the bot would queue another at every look).
            if (seat in active and not self.sync.syncing and not self.sealed.owed_to_me()
                    and not self.sealed.unshown(seat) and not self.sync.held()):
                if self.delay and not rested:
                    await asyncio.sleep(self.delay)
                    rested = True
                    continue  # things may have changed meanwhile: look again
                rested = False
                if bot is None:
                    bot = make_bots(ctx.ruleset, ctx.players, table.header.seed, [spec])[seat]
                if self._act(bot, seat, active):
                    continue
            await self._next_change()

    def _act(self, bot: Bot, seat: int, active: tuple[int, ...]) -> bool:
        """One decision for ``seat``; True when it acted (look again at once)."""
        table = self.ctx.table
        assert table is not None
        legal = table.legal_actions(seat)  # (a sealed table's: from this peer's cards)
        if len(active) > 1:
            return self._commit_hosted(bot, seat, legal)
        action = bot.choose(table.view(seat), legal)
        index = table.index
        refused = self.sync.author(seat, action)
        if refused is not None:
            log.error("the bot for seat %d chose a refused action: %s", seat, refused)
            self._stop_bot(seat)
            return False
        return self.ctx.table is not table or table.index != index  # (else: it waits)

    def _commit_hosted(self, bot: Bot, seat: int, legal: Any) -> bool:
        """A simultaneous step: commit for the hosted seat (Sync reveals it with ours)."""
        table = self.ctx.table
        assert table is not None
        self.sync.seal()  # what the bot follows is in our log first (a full disk: it stops)
        if self.ctx.phase != Phase.PLAYING:
            return False
        step = self.sync.open_step()
        if seat in step.commits or seat in step.hosted:
            return False
        chosen = self.sync.choice(seat, bot.choose(table.view(seat), legal))
        if isinstance(chosen, Refusal):
            log.error("the bot for seat %d chose a refused action: %s", seat, chosen)
            self._stop_bot(seat)
            return False
        salt = secrets.token_bytes(W.SHARE_SIZE)
        commitment = action_commitment(step.index, seat, chosen, salt)
        step.hosted[seat] = (chosen, salt)
        step.commit(seat, commitment)
        self.ctx.broadcast(ActionCommit(step.index, seat, commitment))
        self.sync.reveal_when_ready()
        self.ctx.notify()
        return True


def describe(motion: SeatMotion) -> str:
    """A motion in words, for log lines and screens."""
    if motion.kind == MotionKind.END:
        return f"ending the game without seat {motion.seat} (at entry #{motion.index})"
    return (f"a {motion.bot} bot run by seat {motion.runner} for seat {motion.seat} "
            f"(at entry #{motion.index})")


