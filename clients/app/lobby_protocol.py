"""What a lobby screen needs from the lobby that shows it: the `Lobby` protocol.

The four screens (`lobby_tables`, `lobby_address`, `lobby_create`, `lobby_seating`) type
against this small protocol, not against `hedgerow.clients.app.lobby.LobbyScreen`, which
builds them: each side stands alone (a screen can be built and tested with any object that
has these members, and the lobby module is the only one that knows all four screens).
`LobbyScreen` provides it; mypy checks that where it passes itself to each screen.
"""

from __future__ import annotations

from typing import Any, Protocol

from hedgerow.clients.app.lobby_backend import Backend
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.seat import Seat


class Lobby(Protocol):
    """The lobby's shared state and actions, as its screens use them."""

    #: The network: the tables seen, creating and joining a table, starting bots.
    backend: Backend
    #: The plugin host: the games, variants and bots installed here.
    plugins: PluginHost
    #: This player's name at a table.
    seat_name: str
    #: The seat taken (None until a table is created or joined).
    seat: Seat | None
    #: A background action (creating, joining) is under way.
    busy: bool

    @property
    def message(self) -> str | None:
        """The message line of the screen showing now."""

    @message.setter
    def message(self, text: str | None) -> None:
        """Say ``text`` on the screen showing now (None: nothing)."""

    def bots(self, game: str) -> list[str]:
        """The bots that can play ``game``, best first."""

    def width(self) -> int:
        """The terminal's width, for wrapping."""

    def run_task(self, coro: Any) -> None:
        """Run ``coro`` in the background; its errors become the message."""

    async def create(self) -> None:
        """Open the table the create form describes, and wait in the seating room."""

    def watch(self, address: str) -> None:
        """Leave the lobby to watch the table at ``address``."""

    async def join(self, address: str) -> None:
        """Take a seat at the table at ``address``, and wait in the seating room."""
