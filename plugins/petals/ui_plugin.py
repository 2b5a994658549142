"""The built-in plugin ``petals-ui``: Petals' face in the seat client, registered the way a
third party's would be.

One hook, ``hedgerow_game_ui``, answering Petals' `GameUI` object
(`hedgerow.plugins.petals.ui.ui_for`) for ``"petals"`` and None for other games.  The UI
module (and the drawing and rules it reads) is imported only when a seat client asks: every
``hedgerow`` command loads this plugin, and ``hedgerow games`` should not pay for screens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hedgerow.core import hookimpl

if TYPE_CHECKING:
    from hedgerow.core.ui import GameUI

GAME = "petals"


@hookimpl
def hedgerow_game_ui(game: str, ruleset: Any) -> GameUI | None:
    """Petals' UI object for the table's rules (its score rule, and its winner for the
    order of the results chart); None for other games."""
    if game != GAME:
        return None
    from hedgerow.plugins.petals.ui import ui_for  # only at a table

    return ui_for(ruleset)
