"""The lobby's list of tables LAN discovery sees, and joining the one picked.

Owns the selection in the list and its drawing: name, game, variants, deck, free seats and
host of each table (a table being played is listed while it takes spectators: no free
seat, but ``w`` watches it).  The deck is ``sealed`` (no player's program can see a card it was
not shown) or ``open`` (the host chose the faster start), ``?`` when the announcement does
not say (`deckwords.deck_word`); the host column is left out when the
screen is too narrow for it (the address is what the seating room shows).  Enter asks the
lobby to join the selected table (one with a free seat), ``w`` to watch it.

Why the list is drawn here rather than with prompt_toolkit's ``RadioList``: the list is
whatever discovery saw a moment ago, so it is empty at first and changes under the cursor
while the player reads it, and Enter must act (join), not mark a choice.  ``RadioList``
(prompt_toolkit 3.0.53) asserts that its values are never empty, keeps its own index over a
list it does not expect to change, and binds Enter and Space to selecting; wrapping it would
take more code than the one selection index and the drawing below.  The text fields of the
lobby are prompt_toolkit's ``TextArea`` (lobby_address, lobby_create).
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, Window

from hedgerow.clients.app.deckwords import deck_word
from hedgerow.clients.app.lobby_protocol import Lobby
from hedgerow.clients.app.render import wrap


class TablesScreen:
    """The tables on the LAN, one selected."""

    keys = [("↑↓", "choose"), ("Enter", "join"), ("w", "watch"), ("c", "create"),
            ("a", "address"), ("q", "quit")]

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.selected = 0
        self.window = Window(FormattedTextControl(self.draw, focusable=True), wrap_lines=True)

    def up(self) -> None:
        self.selected = max(0, self.selected - 1)

    def down(self) -> None:
        self.selected += 1

    def join(self) -> None:
        """Enter: join the selected table, or say why not."""
        lobby = self.lobby
        tables = list(lobby.backend.tables())
        if not tables:
            lobby.message = "No table to join yet: press c to create one."
            return
        t = tables[min(self.selected, len(tables) - 1)]
        if t.free_seats <= 0:
            lobby.message = f"{t.name} has no free seat."
            return
        lobby.run_task(lobby.join(f"{t.address}/{t.host_key}"))

    def watch(self) -> None:
        """w: watch the selected table as a spectator (docs/protocol.md §3.4), or say why
        not."""
        lobby = self.lobby
        tables = list(lobby.backend.tables())
        if not tables:
            lobby.message = "No table to watch yet (looking…)."
            return
        t = tables[min(self.selected, len(tables) - 1)]
        if getattr(t, "watch", None) is False:
            lobby.message = f"{t.name} takes no spectators."
            return
        lobby.watch(f"{t.address}/{t.host_key}")

    def draw(self) -> StyleAndTextTuples:
        """The list, or a line saying there is none yet."""
        tables = list(self.lobby.backend.tables())
        width = self.lobby.width()
        out: StyleAndTextTuples = [("class:heading", "Tables on the LAN"), ("", "\n\n")]
        if not tables:
            out.append(("class:dim", wrap("No open table seen yet (looking…).  Press c to "
                                          "create one, or a to join by address.",
                                          width) + "\n"))
            return out
        rows = [(t.name, t.game, ",".join(t.variants) or "-", deck_word(t.deck),
                 f"{t.free_seats}/{t.seats} free", t.address) for t in tables]
        head = ("NAME", "GAME", "VARIANTS", "DECK", "SEATS", "HOST")
        fixed = [min(most, max(len(r[i]) for r in [head, *rows]))
                 for i, most in ((1, 10), (2, 12), (3, 6), (4, 9))]
        host_w = max(len(r[5]) for r in [head, *rows])
        room = width - 1 - 2 - sum(w + 1 for w in fixed)  # (a last column left free)
        show_host = room - host_w - 1 >= 12
        name_w = max(8, min(22, room - host_w - 1 if show_host else room))
        widths = [name_w, *fixed]

        def line(cells: tuple[str, ...]) -> str:
            text = "  " + " ".join(c[:w].ljust(w) for c, w in zip(cells, widths, strict=False))
            return (text + " " + cells[5] if show_host else text.rstrip()) + "\n"

        out.append(("bold", line(head)))
        self.selected = min(self.selected, max(0, len(tables) - 1))
        for i, row in enumerate(rows):
            out.append(("class:menu.current" if i == self.selected else "", line(row)))
        return out
