"""The departure prompt: who left the table, and what the table can do now (protocol §5.9).

When a seat's player is lost or leaves while play is on, every remaining seat sees a box
over the table naming them and the choices, each on a key:

    w  wait for them to come back (they run hedgerow resume)
    b  seat a bot in their place (every seat at the table must agree)
    e  end the game here, with no winner (every seat must agree)

``w`` only closes the box (waiting is what the table does anyway; it opens again if another
seat leaves). ``b`` and ``e`` propose a motion to the table. The bot ``b`` seats is picked
in the box with ``←``/``→`` among the installed bots that play this game; it starts on the
best one installed, by `hedgerow.core.botchoice.best_first` (``greedy``, then ``ismcts``,
then ``random``; a bot outside that list comes after them, by name). The table's runner (its
lowest remaining seat) must have that bot too, or the motion is refused and the box says
why. While our motion is open the box stays closed; if it fails or expires (docs/protocol.md
§5.9) and the seat is still empty, the box opens again. When another seat proposes one, the
box asks this player: ``y`` agrees, ``n`` declines. When a takeover passes the screen says
who plays the seat now, e.g. "Bot Aster (greedy) plays Ana's seat": the bot gets the first
bot name (`hedgerow.clients.botnames`) no seat at the table has. Once the table agreed to
end the game, the box says so (no winner) until the player leaves. The box reads the seat's
`hedgerow.net.seat.DepartureBoard` (``seat.departures``) and acts through its commands; at a
sealed table the box and the vote both say whose process would run the bot and so be shown
the seat's cards (docs/protocol.md §10.11), before anyone agrees; a
local seat's board (nobody departs) never shows it. It fits an 80x24 screen (at most 9
lines).
"""

from __future__ import annotations

import logging
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
from hedgerow.net.departures import describe
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
        self.waited: set[tuple[int, str]] = set()  # departures this player chose to wait for
        self._columns = columns
        self.bots = bots or [FALLBACK_BOT]  # the picker's choices, best first
        self.bot = self.bots[0]  # the picker's choice
        self.proposed: dict[int, tuple[int, int]] = {}  # seat -> our open motion about it
        self._events = 0  # the seat events already told
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
                     if (d.seat, d.link.value) not in self.waited and not self._pending(d.seat)),
                    None)

    def _pending(self, seat: int) -> bool:
        """True while our motion about ``seat`` is open (it has neither passed, failed nor
        expired)."""
        key = self.proposed.get(seat)
        return key is not None and key in self.departures.motions

    def ended(self) -> bool:
        """True once the table agreed to end the game (no winner)."""
        return self.departures.ended is not None

    def showing(self) -> bool:
        """True while the box is up."""
        return self.state.overlay is None and (self.ended() or self.asked() is not None
                                               or self.departed() is not None)

    def _name(self, seat: int) -> str:
        info = next((i for i in self.state.seat.seats() if i.seat == seat), None)
        return f"seat {seat} ({info.name})" if info is not None and info.name else \
            f"seat {seat}"

    def text(self) -> StyleAndTextTuples:
        """The box's lines."""
        if self.ended():
            return [("class:message", "The table agreed to end the game here: there is no "
                     "winner, and the log says how it ended.\n\n"),
                    ("bold", "  q"), ("", "  leave the table")]
        motion = self.asked()
        if motion is not None:
            who = _upper_first(self._name(motion.proposer))
            body = motion.body
            learns = ""
            if self.state.seat.sealed and body.kind == MotionKind.TAKEOVER:
                learns = (f"{_upper_first(self._runner_name(body.runner))} would be shown "
                          f"{self._name(body.seat)}'s cards.\n")
            return [("class:message", f"{who} proposes {describe(body)}.\n"), ("", learns),
                    ("", "\n"),
                    ("bold", "  y"), ("", "  agree\n"), ("bold", "  n"), ("", "  decline")]
        gone = self.departed()
        if gone is None:
            return []
        how = "left the table" if gone.link.value == "left" else \
            "is lost (no word from them for a while)"
        others = len(self.bots) - 1
        return [
            ("class:message", f"{_upper_first(self._name(gone.seat))} {how}.\n"),
            ("", "The table can:\n"),
            ("bold", "  w"), ("", "  wait for them to come back (hedgerow resume)\n"),
            ("bold", "  b"), ("", "  seat the bot "), ("bold", f"[{self.bot}]"),
            ("", " in their place (all seats agree)\n"),
            ("", f"     ←/→ another bot ({', '.join(self.bots)})\n" if others else ""),
            ("", self._runner_line(gone.seat)),
            ("bold", "  e"), ("", "  end the game here, no winner (all agree)"),
        ]

    def _runner_line(self, seat: int) -> str:
        """At a sealed table: who would run the bot, and so be shown the seat's cards (the
        lowest seat still at the table, docs/protocol.md §10.11)."""
        if not self.state.seat.sealed:
            return ""
        present = [s.seat for s in self.state.seat.seats()
                   if s.seat != seat and s.link in (Link.YOU, Link.CONNECTED)]
        if not present:
            return ""
        return f"     {self._runner_name(min(present))} would run it and see their cards\n"

    def _runner_name(self, seat: int) -> str:
        return "you" if seat == self.state.seat.seat else self._name(seat)

    def float(self, fits: Filter | None = None) -> Float:
        """The box, floating over the table while it is up."""
        box = Frame(Window(FormattedTextControl(self.text), wrap_lines=True),
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
        asked = Condition(lambda: self.showing() and not self.ended()
                          and self.asked() is not None)
        departed = Condition(lambda: self.showing() and not self.ended()
                             and self.asked() is None)

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

        return kb

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
            self.waited.add((gone.seat, gone.link.value))
            self.state.say(f"Waiting for {self._name(gone.seat)} to come back "
                           f"(hedgerow resume).")

    def propose(self, *, end: bool) -> None:
        """Ask the table to seat a bot for the departed seat, or to end the game."""
        gone, board = self.departed(), self.departures
        if gone is None:
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
            self.waited.add((gone.seat, gone.link.value))
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
        its player reclaimed."""
        events = self.departures.events
        if len(events) <= self._events:
            return
        for event in events[self._events:]:
            if event.kind == SeatEventKind.TAKEOVER:
                self.state.say(self.takeover_text(event.seat, event.bot) + ".")
            elif event.kind == SeatEventKind.RECLAIM:
                self.state.say(self.reclaim_text(event.seat))
        self._events = len(events)

    def reclaim_text(self, seat: int) -> str:
        """``Ana is back and plays their seat again`` (or, ours: you play it again)."""
        if seat == self.state.seat.seat:
            return "You are back: you play your seat again."
        info = next((i for i in self.state.seat.seats() if i.seat == seat), None)
        who = info.name if info is not None and info.name else f"Seat {seat}"
        return f"{who} is back and plays their seat again."
