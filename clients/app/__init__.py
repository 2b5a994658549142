"""The seat client: a full-screen prompt_toolkit application over one `Seat`.

Entry points: `run_seat` (a table you are already seated at) and `run_lobby` (find, create
or join a table on the LAN, then play).  Modules, in the ptpython/pymux manner:

* ``state`` — `SeatState`: the seat's facts, the picker, overlays, messages;
* ``picker`` — the generic action picker, driven by the game's forms (no UI code);
* ``gameui`` — `ClientUI`: the game's UI object (docs/client.md), every call guarded;
* ``render`` — formatted text for every pane; ``results`` — the results screen;
* ``layout``, ``keys``, ``filters``, ``style`` — the screen, the keys, their conditions;
* ``application`` — `SeatApp`, wiring and running it all;
* ``fullscreen`` — what it shares with the replay viewer: running full screen, the log
  records in ``client.log`` meanwhile;
* ``lobby`` — the lobby application, its screens in ``lobby_tables``, ``lobby_address``,
  ``lobby_create``, ``lobby_seating`` and its network in ``lobby_backend``;
* ``local`` — `LocalSeat`, a table in this process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hedgerow.clients.app.application import SeatApp, run_seat
    from hedgerow.clients.app.lobby import run_lobby

__all__ = ["SeatApp", "run_lobby", "run_seat"]


def __getattr__(name: str) -> Any:
    """The entry points, imported on first use: a module of this package that needs no
    screen (``names``, for ``hedgerow replay``) is imported without prompt_toolkit and the
    application (a quarter of a second of CPU)."""
    if name in ("SeatApp", "run_seat"):
        from hedgerow.clients.app import application

        return getattr(application, name)
    if name == "run_lobby":
        from hedgerow.clients.app.lobby import run_lobby

        return run_lobby
    raise AttributeError(name)
