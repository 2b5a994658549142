"""The departure prompt: who left the table, and what the table can do now (protocol §5.9).

When a seat's player is lost or leaves while play is on, every remaining seat sees a box
over the table naming them and the choices, each on a key:

    w  wait for them to come back (they run hedgerow resume)
    b  seat a bot in their place (every seat at the table must agree)
    e  end the game here, with no winner (every seat must agree)

``w`` only closes the box (waiting is what the table does anyway).  Each departure is news:
a player who comes back and goes again opens the box again (`Departed.number`), and so does
another seat leaving.  While a seat is empty and the box is closed, ``s`` opens it again
(the key line and the help say so), and the message line says whom the table waits for.
``b`` and ``e`` propose a motion to the table. The bot ``b`` seats is picked
in the box with ``←``/``→`` among the installed bots that play this game; it starts on the
best one installed, by `hedgerow.core.botchoice.best_first` (``greedy``, then ``ismcts``,
then ``random``; a bot outside that list comes after them, by name). The table's runner (its
lowest remaining seat) must have that bot too, or the motion is refused and the box says
why.  Where no bot can take the seat (a sealed table of two players, or this seat has not
caught up with the table since it came back: `DepartureBoard.takeover_problem`), the box
says why in place of ``b``; on the smaller side of a cut (the quorum of docs/protocol.md
§5.9: `DepartureBoard.end_problem`) neither a bot nor an end may be proposed, and the box
says why once, in place of both.  While our motion is open the box stays closed; if it fails or
expires (docs/protocol.md §5.9) and the seat is still empty, the box opens again. When
another seat proposes one, the box asks this player: ``y`` agrees, ``n`` declines. When a
takeover passes the screen says who plays the seat now, e.g. "Bot Aster (greedy) plays
Ana's seat": the bot gets the first bot name (`hedgerow.clients.botnames`) no seat at the
table has.  A player who comes back with ``hedgerow resume`` while another seat is still
away is shown the same box about that seat, once the table has had its few seconds to
answer ("has not come back since you returned: they must run hedgerow resume").  Once the
table agreed to end the game, the box closes for good: the screen shows the end like any
other (`hedgerow.clients.app.results`).  The box reads the seat's
`hedgerow.net.seat.DepartureBoard` (``seat.departures``) and acts through its commands; at a
sealed table the box and the vote both say whose process would run the bot and so be shown
the seat's cards (docs/protocol.md §10.11), before anyone agrees; a
local seat's board (nobody departs) never shows it.  Seats are named as everywhere on the
screen (`SeatState.name_of`), and every line is broken between words to fit the box, which
fits an 80x24 screen (at most 11 lines).
"""

from __future__ import annotations

import logging
import textwrap
from typing import Any

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, Float, FormattedTextControl, Window
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.widgets import Frame

from hedgerow.clients.app.state import SeatState
from hedgerow.core.botchoice import best_first
from hedgerow.core.errors import Refusal
from hedgerow.net.messages import MotionKind, SeatEventKind
from hedgerow.net.seat import Departed, DepartureBoard, Link, Motion

log = logging.getLogger(__name__)

#: The bot when the box knows of no installed bot (it is built in).
FALLBACK_BOT = "random"
WIDTH = 62


def installed_bots(plugins: Any, game: str) -> list[str]:
    """The bots ``plugins`` (a `PluginHost`) can run for ``game``, best first."""
    bots = getattr(plugins, "bots", None) or {}
    return best_first(name for name, spec in bots.items() if spec.plays(game))


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


class DeparturePrompt:
    """The box and its keys for one seat's screen."""

    def __init__(self, state: SeatState, *, columns: Any = None,
                 bots: list[str] | None = None) -> None:
        self.state = state
        #: Departures this player chose to wait for: (seat, departure number, link).
        self.waited: set[tuple[int, int, str]] = set()
        self._columns = columns
        self.bots = bots or [FALLBACK_BOT]  # the picker's choices, best first
        self.bot = self.bots[0]  # the picker's choice
        self.proposed: dict[int, tuple[int, int]] = {}  # seat -> our open motion about it
        self._events = 0  # the seat events already told
        self._taken_back: str | None = None  # our own move taken back (a rollback, §5.9)
        self._waiting: tuple[int, str] | None = None  # the seat our wait message is about
        state.box = self.showing
        state.seat.subscribe(self._changed)

    @property
    def departures(self) -> DepartureBoard:
        """The seat's departed seats and motions (`hedgerow.net.seat.DepartureBoard`)."""
        return self.state.seat.departures

    def asked(self) -> Motion | None:
        """The first motion waiting for this player's vote, or None."""
        asked = self.departures.asked
        return asked[0] if asked else None

    def departed(self) -> Departed | None:
        """The first departed seat this player has not chosen to wait for, or None."""
        return next((d for d in self.departures.departed()
                     if _key(d) not in self.waited and not self._pending(d.seat)), None)

    def _pending(self, seat: int) -> bool:
        """True while our motion about ``seat`` is open (it has neither passed, failed nor
        expired)."""
        key = self.proposed.get(seat)
        return key is not None and key in self.departures.motions

    def ended(self) -> bool:
        """True once the table agreed to end the game (no winner)."""
        return self.departures.ended is not None

    def showing(self) -> bool:
        """True while the box is up (never once the game is over: the results say it)."""
        return self.state.overlay is None and not self.ended() and \
            self.state.outcome is None and \
            (self.asked() is not None or self.departed() is not None)

    def _name(self, seat: int) -> str:
        """The seat's name, as the rest of the screen gives it."""
        return self.state.name_of(seat)

    def _inner(self) -> int:
        """The columns inside the box's frame."""
        return max(20, min(WIDTH, self._width() - 2) - 2)

    def text(self) -> StyleAndTextTuples:
        """The box's lines, each broken between words to fit inside it."""
        inner = self._inner()
        motion = self.asked()
        if motion is not None:
            who = _upper_first(self._name(motion.proposer))
            body = motion.body
            out = _para("class:message", f"{who} proposes "
                        f"{self._described(body.kind, body.seat, body.bot, body.runner)}.",
                        inner)
            if self.state.seat.sealed and body.kind == MotionKind.TAKEOVER:
                out += _para("", f"{_upper_first(self._runner_name(body.runner))} would be "
                             f"shown {self._name(body.seat)}'s cards.", inner)
            return [*out, ("", "\n"), *_item("y", "agree", inner),
                    *_item("n", "decline", inner, last=True)]
        gone = self.departed()
        if gone is None:
            return []
        name = _upper_first(self._name(gone.seat))
        if gone.unheard:
            what = (f"{name} has not come back since you returned: they must run "
                    "hedgerow resume.")
        elif gone.link.value == "left" and gone.why == "game_over":
            what = (f"{name} is no longer playing: the game is over for them (the table "
                    "agreed to end it while you were away).")
        elif gone.link.value == "left":
            what = f"{name} left the table."
        else:
            what = f"{name} is lost (no word from them for a while)."
        out = _para("class:message", what, inner) + _para("", "The table can:", inner)
        end = self.departures.end_problem(gone.seat)
        if _over_for(gone):  # (they will not come back to it)
            if end is not None:
                return out + _item("", _upper_first(end) + ".", inner, style="class:dim") + \
                    _item("w", "not now (s shows this again)", inner, last=True)
            return out + _item("e", "end the game here too, no winner", inner) + \
                _item("w", "not now (s shows this again)", inner, last=True)
        out += _item("w", "wait for them to come back (hedgerow resume)", inner)
        problem = self.departures.takeover_problem(gone.seat)
        if problem is None:
            out += _item("b", f"seat the bot [{self.bot}] in their place (all seats agree)",
                         inner)
            if len(self.bots) > 1:
                out += _item("", f"←/→ another bot ({', '.join(self.bots)})", inner)
            runner = self._runner_line(gone.seat)
            if runner:
                out += _item("", runner, inner)
        elif problem != end:  # (the quorum stops both: its words are said once, below)
            out += _item("", _upper_first(problem) + ".", inner, style="class:dim")
        if end is not None:
            return out + _item("", _upper_first(end) + ".", inner, style="class:dim", last=True)
        return out + _item("e", "end the game here, no winner (all agree)", inner, last=True)

    def _described(self, kind: MotionKind, seat: int, bot: str, runner: int) -> str:
        """A motion in words, the seats named as on the screen."""
        if kind == MotionKind.END:
            return f"ending the game without {self._name(seat)}"
        return f"a {bot} bot, run by {self._name(runner)}, for {self._name(seat)}'s seat"

    def _runner_line(self, seat: int) -> str:
        """At a sealed table: who would run the bot, and so be shown the seat's cards (the
        lowest seat still at the table, docs/protocol.md §10.11)."""
        if not self.state.seat.sealed:
            return ""
        present = [s.seat for s in self.state.seat.seats()
                   if s.seat != seat and s.link in (Link.YOU, Link.CONNECTED)]
        if not present:
            return ""
        return (f"{self._runner_name(min(present))} would run it and see "
                f"{self._name(seat)}'s cards")

    def _runner_name(self, seat: int) -> str:
        return "you" if seat == self.state.seat.seat else self._name(seat)

    def float(self, fits: Filter | None = None) -> Float:
        """The box, floating over the table while it is up."""
        box = Frame(Window(FormattedTextControl(self.text)),
                    title="A seat is empty", style="class:overlay",
                    width=lambda: D.exact(min(WIDTH, self._width() - 2)))
        showing: Filter = Condition(self.showing)
        return Float(ConditionalContainer(box, filter=showing if fits is None
                                          else showing & fits))

    def _width(self) -> int:
        if self._columns is not None:
            return int(self._columns())
        from prompt_toolkit.application.current import get_app

        return get_app().output.get_size().columns

    # -- keys ---------------------------------------------------------------------------

    def key_bindings(self) -> KeyBindings:
        """``w``/``b``/``e`` for a departure, ``y``/``n`` for a motion, while the box is up
        (they take precedence over the table's own keys)."""
        kb = KeyBindings()
        asked = Condition(lambda: self.showing() and self.asked() is not None)
        departed = Condition(lambda: self.showing() and self.asked() is None)
        closed = Condition(lambda: self.state.overlay is None and not self.showing()
                           and not self.ended() and self.state.outcome is None
                           and bool(self.departures.departed()))

        @kb.add("y", filter=asked, eager=True)
        def _agree(event: KeyPressEvent) -> None:
            self.vote(True)

        @kb.add("n", filter=asked, eager=True)
        def _decline(event: KeyPressEvent) -> None:
            self.vote(False)

        @kb.add("w", filter=departed, eager=True)
        def _wait(event: KeyPressEvent) -> None:
            self.wait()

        @kb.add("b", filter=departed, eager=True)
        def _bot(event: KeyPressEvent) -> None:
            self.propose(end=False)

        @kb.add("e", filter=departed, eager=True)
        def _end(event: KeyPressEvent) -> None:
            self.propose(end=True)

        @kb.add("left", filter=departed, eager=True)
        def _previous_bot(event: KeyPressEvent) -> None:
            self.pick(-1)

        @kb.add("right", filter=departed, eager=True)
        def _next_bot(event: KeyPressEvent) -> None:
            self.pick(+1)

        @kb.add("s", filter=closed)
        def _reopen(event: KeyPressEvent) -> None:
            self.reopen()

        return kb

    def reopen(self) -> None:
        """``s``: the box again, for every seat that is empty now (while our own motion
        about it is open, say so instead)."""
        self.state.message = None
        gone = self.departures.departed()
        self.waited -= {_key(d) for d in gone}
        if self.departed() is None and gone:
            self.state.say("Your proposal is open: the table waits for every seat's answer.")

    def pick(self, step: int) -> None:
        """Move the bot picker ``step`` places (wrapping around)."""
        at = self.bots.index(self.bot) if self.bot in self.bots else 0
        self.bot = self.bots[(at + step) % len(self.bots)]

    def vote(self, accept: bool) -> None:
        """This player's answer to the motion shown."""
        motion = self.asked()
        if motion is None:
            return
        self.departures.vote(motion, accept)
        self.state.say("You agreed; the table waits for every seat's answer." if accept
                       else "You declined; the table goes on waiting.")

    def wait(self) -> None:
        """Close the box: the table waits for the player to come back."""
        gone = self.departed()
        if gone is not None:
            self.waited.add(_key(gone))
            text = (f"Waiting for {self._name(gone.seat)} to come back (hedgerow resume); "
                    "s shows the choices again." if not _over_for(gone) else
                    f"The game is over for {self._name(gone.seat)}; s to end it here too.")
            self._waiting = (gone.seat, text)
            self.state.say(text)

    def propose(self, *, end: bool) -> None:
        """Ask the table to seat a bot for the departed seat, or to end the game."""
        gone, board = self.departed(), self.departures
        if gone is None:
            return
        if not end and _over_for(gone):
            self.state.say(f"The game is over for {self._name(gone.seat)}: e ends it here too.")
            return
        if end:
            result = board.propose(MotionKind.END, gone.seat)
        else:
            result = board.propose(MotionKind.TAKEOVER, gone.seat, self.bot)
        if isinstance(result, Refusal):
            self.state.say(f"Cannot propose that: {result.message}")
            return
        self.proposed[gone.seat] = (self.state.seat.seat, result.number)
        if not self._pending(gone.seat):  # (a client that keeps no motions: closed for good)
            self.waited.add(_key(gone))
        self.state.say(f"Proposed a {self.bot} bot for the seat; every seat must agree."
                       if not end else "Proposed ending the game; every seat must agree.")

    # -- who took a seat ----------------------------------------------------------------

    def takeover_text(self, seat: int, bot: str) -> str:
        """``Bot Aster (greedy) plays Ana's seat``: the bot's name is the first bot name
        no seat at the table has."""
        from hedgerow.clients.botnames import bot_name

        taken = {i.name for i in self.state.seat.seats()}
        number = 1
        while bot_name(number) in taken:
            number += 1
        info = next((i for i in self.state.seat.seats() if i.seat == seat), None)
        owner = f"{info.name}'s seat" if info is not None and info.name else f"seat {seat}"
        return f"{bot_name(number)} ({bot or 'bot'}) plays {owner}"

    def _changed(self) -> None:
        """Tell the player about each takeover once it is in force here, and each seat
        its player reclaimed; a wait that is over (the player is back) is said to be."""
        self._wait_over()
        events = self.departures.events
        if len(events) <= self._events:
            return
        own = self.state.seat.seat
        for event in events[self._events:]:
            if event.kind == SeatEventKind.ROLLBACK:
                # Our move, made while cut off, never reached the table: a bot played the
                # turn for us meanwhile, and its move stands (docs/protocol.md §5.9).
                self._taken_back = (f"You were cut off: your move never reached the table, "
                                    f"so the one a bot made for you stands (log line "
                                    f"{event.index + 1}).")
                self.state.say(self._taken_back, lasting=True)
            elif event.kind == SeatEventKind.TAKEOVER and event.seat == own and \
                    self._taken_back is not None:
                continue  # (said with the move taken back)
            elif event.kind == SeatEventKind.TAKEOVER:
                self.state.say(self.takeover_text(event.seat, event.bot) + ".")
            elif event.kind == SeatEventKind.RECLAIM and event.seat == own and \
                    self._taken_back is not None:
                self.state.say(f"{self._taken_back} You play your seat again.", lasting=True)
                self._taken_back = None
            elif event.kind == SeatEventKind.RECLAIM:
                self.state.say(self.reclaim_text(event.seat))
        self._events = len(events)

    def _wait_over(self) -> None:
        """The seat our "Waiting for …" line is about is no longer empty: say who is back
        (or drop the line, if another took its place)."""
        if self._waiting is None:
            return
        seat, text = self._waiting
        if self.state.message != text:
            self._waiting = None
        elif all(d.seat != seat for d in self.departures.departed()):
            # (on this seat's turn, what to do now takes the line: the players table shows
            # who is back)
            self._waiting = None
            back = not self.ended() and not self.state.seat.legal_actions()
            self.state.say(f"{self._name(seat)} is back." if back else None)

    def reclaim_text(self, seat: int) -> str:
        """``Ana is back and plays their seat again`` (or, ours: you play it again)."""
        if seat == self.state.seat.seat:
            return "You are back: you play your seat again."
        return f"{self._name(seat)} is back and plays their seat again."


def _over_for(gone: Departed) -> bool:
    """The seat left a game that is over for it (its table ended it while we were away)."""
    return gone.link.value == "left" and gone.why == "game_over"


def _key(gone: Departed) -> tuple[int, int, str]:
    """What a wait is for: the seat, its departure's number and its link (a seat lost and
    then seen to leave is told again)."""
    return (gone.seat, gone.number, gone.link.value)


def _para(style: str, text: str, width: int) -> StyleAndTextTuples:
    """``text`` broken between words into lines of ``width`` columns, ending its line."""
    return [(style, textwrap.fill(text, width, break_on_hyphens=False) + "\n")]


def _item(key: str, text: str, width: int, *, last: bool = False,
          style: str = "") -> StyleAndTextTuples:
    """One choice: its key in bold, two spaces in, and its words beside it, broken
    between words, the lines after the first under the words."""
    lines = textwrap.wrap(text, width - 5, break_on_hyphens=False) or [""]
    out: StyleAndTextTuples = [("", "  "), ("bold", f"{key:<3}" if key else "   "),
                               (style, lines[0])]
    for line in lines[1:]:
        out += [("", "\n     "), (style, line)]
    return out if last else [*out, ("", "\n")]
