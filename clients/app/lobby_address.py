"""The lobby's join-by-address screen: one text field (prompt_toolkit's `TextArea`).

Owns the address typed so far (``HOST:PORT/KEY``, as ``hedgerow host`` prints it); Enter
asks the lobby to join it.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, HSplit, VSplit, Window
from prompt_toolkit.widgets import TextArea

from hedgerow.clients.app.lobby_protocol import Lobby


class AddressScreen:
    """The address field and its heading."""

    keys = [("Enter", "join"), ("Esc", "back")]

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.field = TextArea(multiline=False, style="bold")
        self.container = HSplit([
            Window(FormattedTextControl(self.draw), height=4),
            VSplit([Window(width=2), self.field]),
            Window(),  # the rest of the screen, empty
        ])

    @property
    def address(self) -> str:
        """What is typed in the field."""
        return self.field.text.strip()

    def draw(self) -> StyleAndTextTuples:
        """The heading over the field."""
        return [("class:heading", "Join by address"), ("", "\n\n"),
                ("", "Address (HOST:PORT/KEY, as hedgerow host prints it):\n")]

    def join(self) -> None:
        """Enter: join the table at the address typed."""
        lobby = self.lobby
        if self.address and not lobby.busy:
            lobby.run_task(lobby.join(self.address))
