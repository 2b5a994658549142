"""The lobby's list of tables LAN discovery sees, and joining the one picked.

Owns the selection in the list and its drawing: name, game, variants, free seats and host
of each open table.  Enter asks the lobby to join the selected table (one with a free seat).

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

from hedgerow.clients.app.lobby_protocol import Lobby
from hedgerow.clients.app.render import wrap


class TablesScreen:
    """The tables on the LAN, one selected."""

    keys = [("↑↓", "choose"), ("Enter", "join"), ("c", "create"), ("a", "address"),
            ("q", "quit")]

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

    def draw(self) -> StyleAndTextTuples:
        """The list, or a line saying there is none yet."""
        tables = list(self.lobby.backend.tables())
        out: StyleAndTextTuples = [("class:heading", "Tables on the LAN"), ("", "\n\n")]
        if not tables:
            out.append(("class:dim", wrap("No open table seen yet (looking…).  Press c to "
                                          "create one, or a to join by address.",
                                          self.lobby.width()) + "\n"))
        head = f"  {'NAME':<22} {'GAME':<10} {'VARIANTS':<12} {'SEATS':<9} HOST\n"
        if tables:
            out.append(("bold", head))
        self.selected = min(self.selected, max(0, len(tables) - 1))
        for i, t in enumerate(tables):
            variants = (",".join(t.variants) or "-")[:12]
            seats = f"{t.free_seats}/{t.seats} free"
            line = (f"  {t.name[:22]:<22} {t.game[:10]:<10} {variants:<12} {seats:<9} "
                    f"{t.address}\n")
            out.append(("class:menu.current" if i == self.selected else "", line))
        return out
