"""The lobby's seating room: who sits at the table taken, and how their link is.

Owns the drawing of the room (the table's rules and its deck, the address others join with
when this seat hosts it, each seat and its link, what the table is waiting for) and the
host's ``f``, which fills the open seats with bots.  The lobby hands the seat to the table
screen once play begins.  A joiner is not shown its own address: others join the host.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, Window

from hedgerow.clients.app.deckwords import described
from hedgerow.clients.app.lobby_protocol import Lobby
from hedgerow.clients.app.render import LINK_WORDS, wrap
from hedgerow.net.seat import Link, Phase


class SeatingScreen:
    """The seats of the table the lobby sits at."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.window = Window(FormattedTextControl(self.draw, focusable=True), wrap_lines=True)

    @property
    def keys(self) -> list[tuple[str, str]]:
        """The host can fill the open seats; anyone can leave."""
        seat = self.lobby.seat
        if seat is not None and seat.seat == 0:
            return [("f", "fill with bots"), ("q", "leave")]
        return [("q", "leave")]

    def fill_with_bots(self) -> None:
        """The host's ``f``: a bot in every seat still open."""
        lobby = self.lobby
        seat = lobby.seat
        if seat is None or seat.seat != 0:
            lobby.message = "Only the host can add bots."
            return
        free = sum(1 for i in seat.seats() if i.link == Link.WAITING)
        bots = lobby.bots(seat.ruleset.spec.name)
        if free <= 0 or not bots:
            lobby.message = "There is no open seat to fill."
            return
        lobby.backend.add_bots(seat, [bots[0]] * free)
        lobby.message = f"Starting {free} bot(s)…"

    def draw(self) -> StyleAndTextTuples:
        """The room."""
        seat = self.lobby.seat
        if seat is None:
            return []
        out: StyleAndTextTuples = [("class:heading", "Seating"), ("", "\n\n")]
        rules = seat.ruleset
        title = f"{rules.spec.title}{''.join(' + ' + v for v in rules.variant_names)}"
        deck = described(seat.players, seat.sealed)
        out.append(("", wrap(f"{title}, {seat.players} players{deck}.", self.lobby.width() - 1)
                     + "\n\n"))
        if seat.address and seat.is_host:
            out += [("", "Others join with:\n  "), ("bold", f"hedgerow join {seat.address}"),
                    ("", "\n\n")]
        infos = {i.seat: i for i in seat.seats()}
        for s in range(seat.players):
            info = infos.get(s)
            if info is None:
                out += [("", f"  seat {s}  "), ("class:link.waiting", "open"), ("", "\n")]
                continue
            word = LINK_WORDS.get(info.link, info.link.value)
            bot = " (bot)" if info.bot else ""
            out += [("", f"  seat {s}  {info.name or '(open)'}{bot}  "),
                    (f"class:link.{info.link.value}", word), ("", "\n")]
        phase = seat.phase()
        out.append(("", "\n"))
        if seat.host_gone():
            out.append(("class:prompt", "The host is gone before the game began: waiting for "
                                        "them to re-open the table (hedgerow resume)."))
        elif phase == Phase.SEEDING:
            out.append(("class:prompt", "Every seat is taken: agreeing on the deal…"))
        elif phase == Phase.HALTED:
            out.append(("class:error", f"The table stopped: {seat.problem()}"))
        else:
            out.append(("class:dim", "The game starts as soon as every seat is taken."))
        return out
