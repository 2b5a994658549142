"""What Mandala offers its bots, beside its rules: ``build(ext)`` -> `BotSupport`.

Nothing here is part of the rules; the rules never import it.  The pieces:

* `sample`: a complete state from one seat's view, the deck after a reshuffle dealt only
  from the cards the reshuffled pile can still hold;
* `scorenow`: ``score``, a seat's points if the game were scored now, asked of the table's
  own ranking (``mandala_winner``, through `hedgerow.plugins.mandala.game.ranker`);
* `outlook`: ``evaluate``, that score plus what the open mandalas promise.

Mandala keeps the default hints (``lookahead=1``, ``for_themselves=False``).
"""

from __future__ import annotations

from hedgerow.core.botsupport import BotSupport
from hedgerow.core.game import Extensions
from hedgerow.plugins.mandala.bots.outlook import Outlook
from hedgerow.plugins.mandala.bots.sample import sample as sample_view
from hedgerow.plugins.mandala.bots.scorenow import ScoreNow
from hedgerow.plugins.mandala.game import ranker
from hedgerow.plugins.mandala.state import State, View


def build(ext: Extensions) -> BotSupport[State, View]:
    """Mandala's bot support at a table with the variants behind ``ext``."""
    rank = ranker(ext)
    score = ScoreNow(rank)
    return BotSupport(sample=sample_view, score=score, evaluate=Outlook(rank, score))
