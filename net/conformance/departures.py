"""The checker's departure scenarios (docs/protocol.md §5.9, with §5.7, §5.8 and §5.6): what
the peer under test does when a seat leaves, and the forged motions, takeovers and
handbacks it must not believe.  Both sides run them (`check-peer host` and `join`), once,
at the checker's first turn or step once the log holds `DEPART_AT` entries (after the
plain ``return`` of `session`):

* ``refuse-handback`` (§5.9): a `SeatHandback` of the peer's own seat from the checker,
  which runs no bot for it: ``WRONG_SEAT``;
* ``refuse-seat-taken`` (§5.9): a `SeatTaken` telling the peer, which plays on and never saw
  the checker lost, that the checker's bot plays its seat: ``WRONG_SEAT`` (a seated peer
  cannot make a playing peer stop by claiming its seat);
* ``refuse-motion-voter`` (§5.9): a `SeatMotion` whose proposer is not among its own
  ``voters``: ``WRONG_SEAT``;
* ``vote-not-departed`` (§5.9): a takeover and an end of the peer's own seat, which has not
  left, proposed by the checker as the only voter: the peer, not a voter, makes the checks
  and votes no (check 2 fails: "seat s has not left the table here"), with no `Error`;
* ``takeover`` (§5.8, §5.9): the checker goes silent at its turn, sending nothing, not even
  a heartbeat.  The peer sees it lost after 5 s and may seat a bot for it: its `SeatMotion`
  (a takeover, not before the checker was silent 5 s, the departed seat the checker's, the
  peer alone its voters and so its runner, ``index`` its next index), then its bot's
  actions for the checker's seat from the runner's key, each legal and chained.  A peer
  that waits instead (the default of §5.9, a choice its player makes) passes neither way:
  the scenario does not apply, and neither does ``reclaim`` (ours seats a bot with
  ``--take-over-after SECONDS``);
* ``return-lost`` (§5.7, §5.6): the checker comes back as a resumed peer does once it was
  seen lost: `Hello` with its seat, its `Start` again, `CatchUpRequest` from its own next
  index: nothing refused; a host answers with the same seats; the replies bring the
  checker's log up to the peer's, each entry the checker's own or legal;
* ``reclaim`` (§5.9 *Reclaim*): with a takeover in force, the peer says `SeatTaken` (the
  motion's seat, runner, bot and index) before its `SeatAssignment` and its `CatchUpReply`,
  the runner hands the seat back (`SeatHandback`, its next index), and the checker's vote
  on the motion that was queued while it was away (no, "this peer is not among the voters",
  as §5.9 tells a non-voter) counts for nothing and draws no `Error`.  The game that follows
  shows that the checker's seat is its own again.

`check_log` then asks the peer's log (``--log``, §6) and, at a host, the spectator's stream
(§3.4) for the seat events of what happened: the `TAKEOVER` (runner, bot, index, voters)
and the `RECLAIM` (the handback's index), in that order, and nothing else.

Not driven here: an agreed end that passes (at a table of two the only voter is the peer
under test, and a peer proposes an end only when its player asks: `ending` drives it at a
table of three), and a takeover of the peer under test's seat by the checker (the checker
cannot make the peer depart).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hedgerow.core.errors import Refusal
from hedgerow.net import rulesmatch
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    CatchUpReply,
    CatchUpRequest,
    ErrorCode,
    ErrorMsg,
    Hello,
    Leave,
    MotionKind,
    MotionVote,
    SeatAssignment,
    SeatEvent,
    SeatEventKind,
    SeatHandback,
    SeatMotion,
    SeatTaken,
    Start,
    StateHash,
    action_commitment,
)

from .driver import Incoming, Match, body_is, describe, describe_error
from .report import Deviation, NotApplicable, Unsupported

if TYPE_CHECKING:
    from .session import Session

#: The checker departs at its first turn or step once the log holds this many entries.
DEPART_AT = 14
#: A peer heard from for this long is lost (§5.8).
LOST_AFTER = 5.0
#: A motion that comes sooner than this after the checker fell silent came before the peer
#: could see it lost (5 s less a margin for the two clocks' reading of "the last envelope").
LOST_EARLIEST = 4.5
#: The bot's name in the checker's forged takeovers.
FORGED_BOT = "random"
#: The departure scenarios: name -> (section, what it checks).
SCENARIOS: dict[str, tuple[str, str]] = {
    "refuse-handback": ("5.9", "a handback of the peer's own seat: WRONG_SEAT"),
    "refuse-seat-taken": ("5.9", "SeatTaken of the peer's seat: WRONG_SEAT"),
    "refuse-motion-voter": ("5.9", "a motion its proposer doesn't vote: WRONG_SEAT"),
    "vote-not-departed": ("5.9", "motions on the peer's seat: it votes no"),
    "takeover": ("5.9", "the checker seen lost: a takeover, the bot plays"),
    "return-lost": ("5.7", "back after lost: Hello, Start, catch-up taken"),
    "reclaim": ("5.9", "SeatTaken first, the handback, the seat again"),
}
#: Why each does not apply when the game ended before the checker departed.
MOMENTS: dict[str, str] = {name: f"the game ended before {DEPART_AT} entries"
                           for name in SCENARIOS}


class Departures:
    """The departure scenarios of one `Session` (its driver, table, seats and reports)."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.done = False
        self.motion: SeatMotion | None = None  # the peer's takeover of the checker's seat
        self.taken: SeatTaken | None = None
        self.handback: SeatHandback | None = None
        self.after_hello: list[str] = []  # the bodies the peer sent after our Hello, in order
        self.vote_seq: int | None = None  # our vote on its motion, as a non-voter
        self.vote_refused: ErrorMsg | None = None
        self.commits: dict[int, bytes] = {}  # the open step's commitments, by seat
        self.choices: dict[int, ActionReveal] = {}  # and its reveals
        self.step_items: list[Incoming] = []  # the step messages taken, by arrival
        self.turns = self.steps = 0  # the peer's turns and the steps followed meanwhile

    # -- when and in which order -------------------------------------------------------

    def due(self) -> bool:
        """True at the moment to depart: once, after the plain return, at `DEPART_AT`."""
        return not self.done and self.s.returned and self.s._table().index >= DEPART_AT

    async def run(self, *, no_departure: str = "") -> None:
        """Every departure scenario, at the checker's turn or step (see the module); with
        ``no_departure`` (why the checker's seat cannot be taken over: a sealed table of
        two, §10.11) the forged ones only, the others not applying."""
        s = self.s
        self.done = True
        await s._scenario("refuse-handback", self._refuse_handback)
        await s._scenario("refuse-seat-taken", self._refuse_seat_taken)
        await s._scenario("refuse-motion-voter", self._refuse_motion_voter)
        await s._scenario("vote-not-departed", self._vote_not_departed)
        if no_departure:
            for name in ("takeover", "return-lost", "reclaim"):
                s._scenario_na(name, no_departure)
            return
        try:
            await s._scenario("takeover", self._takeover)
        finally:
            s.silent = False
        returned = await s._scenario("return-lost", self._return_lost)
        if returned and self.motion is not None:
            await s._scenario("reclaim", self._reclaim)
        elif returned:
            s._scenario_na("reclaim", "no takeover: the peer waited for the seat")
        # The open step's messages, for `Session._step` (a repeat of a commitment we took
        # is checked there as one; the peer may also send it again after our Hello).
        table = s._table()
        s.driver.backlog[:0] = [it for it in self.step_items if it.env is not None
                                and getattr(it.env.body, "index", -1) == table.index]
        self.step_items = []

    # -- the forged ones, while the checker plays --------------------------------------

    def _peer_seat(self) -> int:
        return self.s._seats().seats_of(self.s.peer)[0]

    async def _refuse_handback(self) -> str:
        s, d = self.s, self.s.driver
        seq, data = d.envelope(SeatHandback(self._peer_seat(), s._table().index))
        await d.refusal(s.peer, data, seq, ErrorCode.WRONG_SEAT, "5.9")
        return "refused WRONG_SEAT"

    async def _refuse_seat_taken(self) -> str:
        s, d = self.s, self.s.driver
        mine, index = s._seats().seat, s._table().index
        seq, data = d.envelope(SeatTaken(self._peer_seat(), mine, FORGED_BOT, index))
        try:
            await d.refusal(s.peer, data, seq, ErrorCode.WRONG_SEAT, "5.9")
        except Deviation:
            # A peer that believed it waits for our handback: give it one, so that the rest
            # of the game can still be checked.
            d.send(s.peer, SeatHandback(self._peer_seat(), index))
            raise
        return "refused WRONG_SEAT"

    async def _refuse_motion_voter(self) -> str:
        s, d = self.s, self.s.driver
        mine = s._seats().seat
        motion = SeatMotion(1, MotionKind.TAKEOVER, mine, self._peer_seat(), FORGED_BOT,
                            s._table().index, (self._peer_seat(),))
        seq, data = d.envelope(motion)
        await d.refusal(s.peer, data, seq, ErrorCode.WRONG_SEAT, "5.9")
        return "refused WRONG_SEAT"

    async def _vote_not_departed(self) -> str:
        """A takeover and an end of the peer's seat, which plays on: not a voter of either,
        the peer votes no on each (§5.9: the checks, then "this peer is not among the
        voters"), to the checker, and refuses neither."""
        s, d = self.s, self.s.driver
        mine, theirs, index = s._seats().seat, self._peer_seat(), s._table().index
        motions = (SeatMotion(2, MotionKind.TAKEOVER, theirs, mine, FORGED_BOT, index, (mine,)),
                   SeatMotion(3, MotionKind.END, theirs, 0, "", index, (mine,)))
        for motion in motions:
            _, data = d.envelope(motion)
            errors = await d.answers(s.peer, data, "5.9")
            s._ensure(not errors, "5.9", f"no Error for a well-formed motion of the checker's "
                      f"(#{motion.number}, {motion.kind.name})",
                      "; ".join(describe_error(e) for e in errors))
            item = await d.next(_vote_on(s.peer, motion.number), "5.9", "the peer's "
                                f"MotionVote on the checker's motion #{motion.number} "
                                f"({motion.kind.name} of seat {theirs}, which has not left)")
            assert item.env is not None and isinstance(item.env.body, MotionVote)
            vote = item.env.body
            s._ensure(vote.proposer == mine and not vote.accept, "5.9", f"a no to seat "
                      f"{mine}'s motion #{motion.number}", f"{vote}")
        return "a no to a takeover and to an end"

    # -- away ----------------------------------------------------------------------------

    async def _takeover(self) -> str:
        """Silent at our turn until the peer seats a bot for us and the bot has acted."""
        s, d = self.s, self.s.driver
        loop = asyncio.get_running_loop()
        s.silent = True
        since = loop.time()
        deadline = since + LOST_AFTER + s.timeout
        mine = s._seats().seat
        played = 0
        while self.motion is None or (not played and not s._table().over()):
            wait = max(0.1, deadline - loop.time()) if self.motion is None else s.timeout
            try:
                item = await d.next(self._from_peer, "5.9", "the bot's action for the "
                                    f"checker's seat {mine}, the takeover having passed",
                                    timeout=wait)
            except Deviation:
                if self.motion is None:
                    raise NotApplicable(f"the peer waited: no takeover in {wait:g} s "
                                        "away") from None
                raise
            body = self._body(item)
            if isinstance(body, SeatMotion):
                self._check_motion(body, loop.time() - since)
            elif isinstance(body, ActionMsg | ActionCommit | ActionReveal) and \
                    body.seat == mine:
                self._follow(item)
                played += 1
            else:
                self._other(item)
        assert self.motion is not None
        return (f"seen lost, a {self.motion.bot} bot from #{self.motion.index}; "
                f"{played} of its moves")

    def _check_motion(self, motion: SeatMotion, after: float) -> None:
        s = self.s
        mine, theirs, index = s._seats().seat, self._peer_seat(), s._table().index
        if motion.kind != MotionKind.TAKEOVER:
            raise Unsupported(f"the peer proposed {motion.kind.name} for the checker's seat; "
                              "the checker drives takeovers only")
        s._ensure(after >= LOST_EARLIEST, "5.8", f"no motion before the checker was silent "
                  f"{LOST_AFTER:g} s (it is lost then, not before)",
                  f"a motion {after:.1f} s after the checker fell silent")
        want = (mine, (theirs,), theirs, index)
        got = (motion.seat, motion.voters, motion.runner, motion.index)
        s._ensure(got == want, "5.9", f"SeatMotion(seat, voters, runner, index) {want}: the "
                  "departed seat, the peer alone as voter and runner, its next index", got)
        s._ensure(self.motion is None, "5.9", "one takeover motion while it is in force",
                  motion)
        self.motion = motion

    # -- back ----------------------------------------------------------------------------

    async def _return_lost(self) -> str:
        """`Hello`, `Start` again, our no to the motion queued while away (a non-voter's,
        §5.9), `CatchUpRequest` from our next index; everything the peer says until our log
        reaches its and, with a takeover, until the handback (kept for ``reclaim``)."""
        s, d = self.s, self.s.driver
        seats, table = s._seats(), s._table()
        s.silent = False
        d.send(s.peer, Hello(seats.fingerprint, rulesmatch.installed(s.plugins), s.name,
                             seats.seat, False, d.endpoint))
        assert s.start_msg is not None
        d.send(s.peer, s.start_msg)
        if self.motion is not None:
            self.vote_seq = d.send(s.peer, MotionVote(self._peer_seat(), self.motion.number,
                                                      False, "this peer is not among the voters"))
        d.send(s.peer, CatchUpRequest(table.index))
        replies, assigned = 0, not s.peer_is_host
        caught_up = False
        while not (caught_up and assigned and (self.motion is None or (
                self.handback is not None and table.index >= self.handback.index))):
            item = await d.next(self._from_peer, "5.7", self._awaited(caught_up, assigned))
            body = self._body(item)
            self.after_hello.append(type(body).__name__)
            if isinstance(body, SeatTaken):
                self.taken = self.taken or body
            elif isinstance(body, SeatHandback):
                s._ensure(body.seat == seats.seat and self.handback is None, "5.9",
                          f"one SeatHandback, of the checker's seat {seats.seat}", body)
                self.handback = body
            elif isinstance(body, SeatMotion):
                self._check_motion(body, LOST_AFTER)  # came after all: a takeover to reclaim
            elif isinstance(body, SeatAssignment):
                holders = {p.seat: p.public_key for p in body.peers}
                s._ensure(s.peer_is_host and body.seat == seats.seat
                          and holders == seats.holders, "5.7", "from the host only, the "
                          f"same seats (the checker at seat {seats.seat})",
                          f"seat {body.seat}, {sorted(holders)}")
                assigned = True
            elif isinstance(body, CatchUpReply):
                replies += 1
                self._caught(body)
                caught_up = body.next_index <= table.index
                if not caught_up:
                    d.send(s.peer, CatchUpRequest(table.index))
            elif isinstance(body, ErrorMsg) and self.vote_seq is not None and \
                    body.ref_seq == self.vote_seq:
                self.vote_refused = body
            else:
                self._other(item)
        return (f"the log caught up to #{table.index} in {replies} "
                f"repl{'y' if replies == 1 else 'ies'}")

    def _awaited(self, caught_up: bool, assigned: bool) -> str:
        want = [] if caught_up else ["a CatchUpReply up to the peer's log"]
        if not assigned:
            want.append("the host's SeatAssignment (the same seats)")
        if self.motion is not None and self.handback is None:
            want.append("the runner's SeatHandback")
        return "after the returning checker's Hello: " + ", ".join(want or ["its log"])

    def _caught(self, reply: CatchUpReply) -> None:
        """A catch-up reply: entries the checker holds must be its own, the others are fed
        to its table (checked by the rules) and their state hashes count as reports."""
        s = self.s
        table = s._table()
        s._ensure(reply.header == table.header, "5.6", f"the table's header {table.header}",
                  reply.header)
        for item in reply.entries:
            entry = item.entry
            if entry.index < table.index:
                s._ensure(entry == table.entries[entry.index], "5.6", f"entry #{entry.index} "
                          f"as the checker holds it: {table.entries[entry.index]}", entry)
            else:
                result = table.follow(entry.index, entry.seat, entry.action, prev=entry.prev)
                if isinstance(result, Refusal):
                    raise Deviation("5.6", f"entry #{entry.index} that the rules take",
                                    f"{entry}: {result.code}: {result.message}")
                s._sealed(result)
            if entry.index < len(s.ours):
                ours = s.ours[entry.index]
                s._ensure(item.state_hash == ours, "5.6", f"the state hash after entry "
                          f"#{entry.index}: {ours.hex()} (the rules')", item.state_hash.hex())

    async def _reclaim(self) -> str:
        s = self.s
        motion, taken, back = self.motion, self.taken, self.handback
        assert motion is not None and back is not None
        mine = s._seats().seat
        s._ensure(taken is not None, "5.9", "SeatTaken from the peer at which a takeover of "
                  "the checker's seat is in force, answering its Hello", "none came")
        assert taken is not None
        want = (mine, motion.runner, motion.bot, motion.index)
        got = (taken.seat, taken.runner, taken.bot, taken.index)
        s._ensure(got == want, "5.9", f"SeatTaken(seat, runner, bot, index) {want}: the "
                  "motion's", got)
        first = self.after_hello.index("SeatTaken")
        for later in ("SeatAssignment", "CatchUpReply"):
            if later in self.after_hello:
                s._ensure(self.after_hello.index(later) > first, "5.9", f"SeatTaken before "
                          f"anything else it sends the returning peer, the {later} included",
                          " then ".join(self.after_hello))
        s._ensure(back.index >= motion.index, "5.9", f"the handback's index at or after the "
                  f"takeover's #{motion.index} (the runner's next index)", back.index)
        s._ensure(self.vote_refused is None, "5.9", "the checker's no, as a non-voter, to the "
                  "motion queued while it was away: counted for nothing, not refused",
                  describe_error(self.vote_refused) if self.vote_refused else "")
        return f"SeatTaken first; the seat again from #{back.index}"

    # -- the peer's messages meanwhile -------------------------------------------------

    def _from_peer(self, item: Incoming) -> bool:
        return item.rx.sender == self.s.peer

    def _body(self, item: Incoming) -> object:
        if item.env is None:
            raise Deviation("2", "an envelope that decodes", describe(item))
        return item.env.body

    def _other(self, item: Incoming) -> None:
        """Anything but the motion and its aftermath: play (followed), state hashes (kept),
        the peer's answering `Start` (§3.2 step 5) and votes (ignored); an `Error` or a
        `Leave` is a deviation."""
        s = self.s
        body = self._body(item)
        if isinstance(body, StateHash):
            s._reports(s.peer, body)
        elif isinstance(body, ActionMsg | ActionCommit | ActionReveal):
            self._follow(item)
        elif isinstance(body, ErrorMsg):
            raise Deviation("5.9", "no Error: the checker sent nothing but what a departed "
                            "and returning peer sends", describe_error(body))
        elif isinstance(body, Leave):
            raise Deviation("5.9", "the peer playing on, the checker's seat departed",
                            describe(item))
        elif not isinstance(body, Start | MotionVote | SeatAssignment):
            raise Deviation("5.9", "play, hashes, the motion and its answers",
                            describe(item))

    def _follow(self, item: Incoming) -> None:
        """One play message of the peer's, for its own seat or, while its takeover is in
        force, the checker's: checked as in ``play`` and applied."""
        s = self.s
        table, seats = s._table(), s._seats()
        body = self._body(item)
        assert isinstance(body, ActionMsg | ActionCommit | ActionReveal)
        if isinstance(body, ActionCommit | ActionReveal) and body.index < table.index:
            return  # a repeat of a step that is over
        running = self.motion is not None and self.handback is None
        s._ensure(body.seat == self._peer_seat() or (body.seat == seats.seat and running),
                  "5.3", "the peer's own seat, or the checker's while its takeover is in "
                  "force (from the motion to the handback)",
                  f"{type(body).__name__} for seat {body.seat}"
                  + ("" if running else " with no takeover in force"))
        s._ensure(body.index == table.index, "3.3", f"index {table.index} (the next index)",
                  body.index)
        if isinstance(body, ActionMsg):
            if body.hashes is not None:
                s._reports(s.peer, body.hashes)
            result = table.submit(body.seat, body.action, index=body.index, prev=body.prev)
            if isinstance(result, Refusal):
                raise Deviation("3.3", f"a legal action for seat {body.seat} at "
                                f"#{body.index}", f"{body.action}: {result.code}: "
                                f"{result.message}")
            s._sealed(result)
            self.turns += 1
            return
        self.step_items.append(item)
        if isinstance(body, ActionCommit):
            if body.hashes is not None:
                s._reports(s.peer, body.hashes)
            old = self.commits.setdefault(body.seat, body.commitment)
            s._ensure(old == body.commitment, "3.3", f"one commitment for seat {body.seat}",
                      body.commitment.hex())
            return
        s._ensure(body.seat in self.commits and all(
            seat in self.commits for seat in table.active_seats()), "3.3", "no reveal "
            "before every commitment of the step is in", f"seat {body.seat}'s reveal")
        got = action_commitment(body.index, body.seat, body.action, body.salt)
        s._ensure(got == self.commits[body.seat], "4.5", f"seat {body.seat}'s reveal to "
                  "match its commitment", got.hex())
        refusal = table.check(body.seat, body.action)
        if isinstance(refusal, Refusal):
            raise Deviation("3.3", f"seat {body.seat}'s choice legal at the step's start",
                            f"{body.action}: {refusal.code}: {refusal.message}")
        self.choices[body.seat] = body
        if all(seat in self.choices for seat in table.active_seats()):
            result = table.submit_step({seat: r.action for seat, r in self.choices.items()},
                                       index=body.index)
            assert not isinstance(result, Refusal), result
            s._sealed(result)
            self.steps += 1
            self.commits, self.choices, self.step_items = {}, {}, []

    # -- the log -----------------------------------------------------------------------

    def events_due(self) -> int:
        """How many seat events a log of the peer's holds (the takeover, the reclaim; at a
        table of three the agreed end)."""
        ended = len(self.s.ending.events()) if self.s.ending is not None else 0
        return (self.motion is not None) + (self.motion is not None
                                            and self.handback is not None) + ended

    def check_log(self, events: Sequence[SeatEvent], section: str) -> None:
        """The seat events a log (§6) or a spectator's stream (§3.4) holds: the takeover and
        the reclaim that happened, in that order, and nothing else."""
        s = self.s
        want: list[tuple[object, ...]] = []
        if self.motion is not None:
            m = self.motion
            want.append((SeatEventKind.TAKEOVER, m.seat, m.runner, m.bot, m.index, m.voters))
        if self.motion is not None and self.handback is not None:
            want.append((SeatEventKind.RECLAIM, self.handback.seat, self.handback.index))
        if s.ending is not None:  # (a table of three: the agreed end)
            want += [_event_key(e) for e in s.ending.events()]
        got = [_event_key(e) for e in events]
        s._ensure(got == want, section, "the seat events "
                  f"{[_event_text(w) for w in want] or 'none'} (§5.9 'How it is logged')",
                  [_event_text(g) for g in got] or "none")


def _vote_on(key: bytes, number: int) -> Match:
    """A match for ``key``'s `MotionVote` on the checker's motion ``number``."""
    return lambda it: (body_is(MotionVote, key)(it) and it.env is not None
                       and isinstance(it.env.body, MotionVote) and it.env.body.number == number)


def _event_key(e: SeatEvent) -> tuple[object, ...]:
    """What a log's seat event must say: a takeover's seat, runner, bot, index and voters,
    an end's seat, index and voters, a reclaim's seat and index."""
    if e.kind == SeatEventKind.TAKEOVER:
        return (e.kind, e.seat, e.runner, e.bot, e.index, e.voters)
    if e.kind == SeatEventKind.END:
        return (e.kind, e.seat, e.index, e.voters)
    return (e.kind, e.seat, e.index)


def _event_text(event: tuple[object, ...]) -> str:
    kind = event[0]
    name = kind.name if isinstance(kind, SeatEventKind) else str(kind)
    return f"{name}{tuple(event[1:])}"
