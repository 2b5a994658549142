"""The agreed end (docs/protocol.md §5.9 *An agreed end*), driven at a table of three where
the checker holds two seats (``check-peer join GAME --players 3``): its own seat 0 and a
*helper* seat 2 with a key of its own (a second `Driver`); the peer under test holds seat
1.  At the checker's first one-seat turn once the log holds `END_AT` entries (after the
plain ``return`` of `session`):

* ``end-no-quorum`` (§5.9, §5.8): seat 2 leaves (`Leave(QUIT)`; the checker waits until
  the peer has handled it: the sentinel sent after it on the same link is answered), and
  the checker proposes an end of seat 2 with itself as the only voter.  The peer is not
  among the voters: it makes the checks and votes no (check 4: the voters are not the
  seats it sees, and one of three is short of the quorum, check 5), with no `Error`; the
  motion fails at that peer whatever the voters say, so its table plays on: an action the
  rules do not know is still refused ``ILLEGAL`` (not as at a table that is over).  The
  checker's helper seat drew no `Error` for anything it sent before it left;
* ``agreed-end`` (§5.9): the checker proposes the end again, its voters the seats the
  peer sees (0 and 1), ``index`` the next index: the peer votes yes, and from then on the
  table is over there at that index: the checker's own legal move at that index is
  refused ``GAME_OVER`` (§3.3 check 5, "no further action is accepted");
* ``end-return`` (§5.9): the departed seat 2 comes back (`Hello` with its seat): the peer,
  at which the end is in force, answers `Leave(why = GAME_OVER)` (its reason names the
  entry, "the table agreed to end the game at entry #N"), and answers the returning
  seat's `CatchUpRequest` as usual (a reply with no entries past the end, ``next_index``
  the end's index);
* then ``end`` (`session`): the peer's end report holds its hash of every entry before
  the end;
* ``end-exit`` (§5.8 *Ending*): the checker's end report in, the peer sends no action,
  commitment or reveal, and if it leaves, its `Leave` says ``GAME_OVER``;
* the peer's log (``--log``) holds the `END` seat event (seat 2, the motion's index and
  voters) and nothing else outside the chain (`Departures.check_log`).

At a table of three the departure scenarios of a table of two (`departures`: the checker
departs and is taken over) do not run.  Our own peer seats a bot for a departed seat only
when it is the lowest remaining seat (`hedgerow join --take-over-after`); at seat 1 it
waits, votes yes and ends.  A peer that proposes a takeover of seat 2 itself gets the
checker's no and is asked for the end all the same (again, up to `RETRIES` times, when its
takeover crossed the checker's end and it voted no for holding its own yes, check 6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hedgerow.core.actions import Action
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
    LeaveReason,
    MotionKind,
    MotionVote,
    SeatEvent,
    SeatEventKind,
    SeatMotion,
)

from .driver import Incoming, describe, describe_error
from .report import Deviation

if TYPE_CHECKING:
    from .session import Session

#: The checker's helper seat at a table of three: the seat that departs.
HELPER_SEAT = 2
#: The agreed end comes at the checker's first one-seat turn once the log holds this many
#: entries (after the checker's plain return, `session.RETURN_AT`).
END_AT = 14
#: How many times the checker proposes the end when a takeover of the peer's crossed it.
RETRIES = 3
#: The scenarios of the agreed end: name -> (section, what it checks).
ENDING: dict[str, tuple[str, str]] = {
    "end-no-quorum": ("5.9", "an end voted by one seat of three: a no"),
    "agreed-end": ("5.9", "an end of a departed seat: yes, then over"),
    "end-return": ("5.9", "the departed seat back: Leave(GAME_OVER)"),
    "end-exit": ("5.8", "after the end: no action, Leave(GAME_OVER)"),
}
#: Why each does not apply when the game ended before the moment came.
MOMENTS: dict[str, str] = {name: f"the game ended before {END_AT} entries" for name in ENDING}


class AgreedEnd:
    """The agreed-end scenarios of one `Session` at a table of three."""

    def __init__(self, session: Session, seat: int = HELPER_SEAT) -> None:
        self.s = session
        self.seat = seat  # the helper seat that departs
        self.done = False
        self.gone: set[int] = set()  # the helper seats that left (no more heartbeats)
        self.agreed: SeatMotion | None = None  # the end the peer voted yes to
        self.number = 0  # the checker's last motion number
        self.countered = False  # the checker voted no on a motion of the peer's meanwhile

    def due(self, active: tuple[int, ...]) -> bool:
        """True at the moment: once, after the plain return, at the checker's own one-seat
        turn once the log holds `END_AT` entries."""
        s = self.s
        return (not self.done and s.returned and active == (s._seats().seat,)
                and s._table().index >= END_AT)

    async def run(self) -> None:
        """Every agreed-end scenario up to ``end`` (see the module)."""
        s = self.s
        self.done = True
        await s._scenario("end-no-quorum", self._no_quorum)
        if await s._scenario("agreed-end", self._agreed_end):
            await s._scenario("end-return", self._end_return)

    async def after_end(self) -> None:
        """``end-exit``, once the end reports are in."""
        if self.agreed is not None:
            await self.s._scenario("end-exit", self._end_exit)

    # -- the scenarios -----------------------------------------------------------------

    async def _no_quorum(self) -> str:
        s = self.s
        d, seats, table = s.driver, s._seats(), s._table()
        await self._depart()
        motion = self._motion((seats.seat,))
        vote = await self._vote(motion, "a MotionVote with accept false: not a voter, the "
                                "peer makes the checks and the voters (the proposer alone) "
                                "are not the seats it sees, one of three short of the quorum")
        s._ensure(not vote.accept, "5.9", "a no to an end whose only voter is its proposer "
                  "(check 4: not the seats this peer sees; check 5: the quorum)",
                  f"a yes ({vote.reason!r})")
        index = table.index
        seq, data = d.envelope(ActionMsg(index, table.head, seats.seat,
                                         Action("check-peer-no-such-action")))
        await d.refusal(s.peer, data, seq, ErrorCode.ILLEGAL, "5.9", ref_index=index,
                        refusal=True)
        return "voted no; still plays (an action: ILLEGAL)"

    async def _agreed_end(self) -> str:
        s = self.s
        d, seats, table = s.driver, s._seats(), s._table()
        peer_seat = seats.seats_of(s.peer)[0]
        voters = tuple(sorted((seats.seat, peer_seat)))
        for _ in range(RETRIES):
            motion = self._motion(voters)
            self.countered = False
            vote = await self._vote(motion, f"a MotionVote with accept true: seat "
                                    f"{self.seat} left, index #{motion.index}, voters {voters} "
                                    "the seats it sees, two of three (the quorum)")
            if vote.accept or not self.countered:
                break
            # (Its own takeover crossed ours: it may vote no while it holds its own yes,
            # check 6; the checker's no ended that motion, so it asks again.)
        s._ensure(vote.accept, "5.9", f"a yes to the end of departed seat {self.seat} with "
                  f"voters {voters} at #{motion.index}", f"a no: {vote.reason!r}")
        self.agreed = motion
        index = table.index
        move = table.legal_actions(seats.seat)[0]
        seq, data = d.envelope(ActionMsg(index, table.head, seats.seat, move))
        await d.refusal(s.peer, data, seq, ErrorCode.GAME_OVER, "5.9", ref_index=index)
        return f"voted yes; over at #{index}: a move refused"

    async def _end_return(self) -> str:
        s = self.s
        seats, agreed = s._seats(), self.agreed
        assert agreed is not None
        helper = s.helpers[self.seat]
        self.gone.discard(self.seat)
        helper.send(s.peer, Hello(seats.fingerprint, rulesmatch.installed(s.plugins), s.name,
                                  self.seat, False, helper.endpoint))
        item = await helper.next(
            lambda it: it.rx.sender == s.peer and it.env is not None
            and isinstance(it.env.body, Leave | ErrorMsg), "5.9",
            f"Leave(GAME_OVER) answering the Hello of seat {self.seat}, which returns to a "
            f"table that agreed to end at #{agreed.index}")
        assert item.env is not None
        leave = item.env.body
        s._ensure(isinstance(leave, Leave) and leave.why == LeaveReason.GAME_OVER, "5.9",
                  "Leave(why = GAME_OVER): to the returning seat, this peer has left a game "
                  "that is over", describe(item))
        helper.send(s.peer, CatchUpRequest(agreed.index))
        item = await helper.next(
            lambda it: it.rx.sender == s.peer and it.env is not None
            and isinstance(it.env.body, CatchUpReply | ErrorMsg), "5.9",
            f"a CatchUpReply for from_index {agreed.index} (answered as usual)")
        assert item.env is not None
        reply = item.env.body
        s._ensure(isinstance(reply, CatchUpReply) and not reply.entries
                  and reply.next_index == agreed.index, "5.9", "a CatchUpReply with no "
                  f"entries and next_index {agreed.index} (the end's index)", describe(item))
        self.gone.add(self.seat)  # (the helper is gone again: the game is over for it)
        return "Leave(GAME_OVER); catch-up answered"

    async def _end_exit(self) -> str:
        s = self.s
        d = s.driver
        play = d.take(lambda it: it.rx.sender == s.peer and it.env is not None
                      and isinstance(it.env.body, ActionMsg | ActionCommit | ActionReveal))
        s._ensure(not play, "5.9", "no action, commitment or reveal once the end is agreed",
                  describe(play[0]) if play else "")
        try:
            item = await d.next(lambda it: it.rx.sender == s.peer and (
                it.env is None or isinstance(it.env.body, Leave | ErrorMsg | ActionMsg
                                             | ActionCommit | ActionReveal)), "5.8", "")
        except Deviation:
            return "no action after the end; it stays at the table"
        body = item.env.body if item.env is not None else None
        s._ensure(isinstance(body, Leave) and body.why == LeaveReason.GAME_OVER, "5.8",
                  "nothing more, or Leave(why = GAME_OVER): its game is over and confirmed",
                  describe(item))
        return "no action after the end; Leave(GAME_OVER)"

    # -- small things ------------------------------------------------------------------

    async def _depart(self) -> None:
        """Seat ``seat`` leaves: its `Leave`, then the sentinel on the same link, whose
        answer says the peer has handled the `Leave` (§1: a link's envelopes in order).
        Whatever the helper seat was answered before is checked first: no `Error`."""
        s = self.s
        helper = s.helpers[self.seat]
        errors = helper.take(lambda it: it.rx.sender == s.peer and (
            it.env is None or isinstance(it.env.body, ErrorMsg)))
        s._ensure(not errors, "3.3", f"no Error for seat {self.seat}'s envelopes (the "
                  "checker's second seat played by the rules)",
                  describe(errors[0]) if errors else "")
        helper.take(lambda it: True)  # (the rest of what it was sent: not its to check)
        _, data = helper.envelope(Leave(f"check-peer: seat {self.seat} leaves, so that the "
                                        "table may agree to end the game", LeaveReason.QUIT))
        self.gone.add(self.seat)
        refused = await helper.answers(s.peer, data, "5.8")
        s._ensure(not refused, "5.8", f"no Error for seat {self.seat}'s Leave",
                  "; ".join(describe_error(e) for e in refused))

    def _motion(self, voters: tuple[int, ...]) -> SeatMotion:
        s = self.s
        self.number += 1
        return SeatMotion(self.number, MotionKind.END, self.seat, 0, "", s._table().index,
                          voters)

    async def _vote(self, motion: SeatMotion, expected: str) -> MotionVote:
        """Send ``motion`` to the peer and take its vote on it.  A motion of the peer's own
        meanwhile (a takeover of the departed seat) gets the checker's no; an `Error` is a
        deviation; the peer's state hashes are kept."""
        s = self.s
        d, mine = s.driver, s._seats().seat
        seq = d.send(s.peer, motion)

        def answer(it: Incoming) -> bool:
            return it.rx.sender == s.peer and (it.env is None or isinstance(
                it.env.body, MotionVote | SeatMotion | ErrorMsg))

        while True:
            item = await d.next(answer, "5.9", expected)
            if item.env is None:
                raise Deviation("2", "an envelope that decodes", describe(item))
            body = item.env.body
            if isinstance(body, ErrorMsg):
                raise Deviation("5.9", f"no Error for the checker's SeatMotion (seq {seq}): "
                                "its proposer is among its voters", describe_error(body))
            if isinstance(body, SeatMotion):
                self.countered = True
                proposer = s._seats().seats_of(s.peer)[0]
                d.send(s.peer, MotionVote(proposer, body.number, False,
                                          "check-peer asks the table to end the game"))
                continue
            assert isinstance(body, MotionVote)
            if body.proposer == mine and body.number == motion.number:
                return body

    def events(self) -> list[SeatEvent]:
        """The seat events a log of the peer's holds for the end (§5.9 *How it is
        logged*)."""
        m = self.agreed
        if m is None:
            return []
        return [SeatEvent(SeatEventKind.END, m.seat, 0, "", m.index, m.voters)]
