"""What Flourish offers its bots, beside its rules: ``build(ext)`` -> `BotSupport`.

Nothing here is part of the rules; the rules never import it.  The pieces:

* `sample`: a complete state from one seat's view, every card it remembers kept within the
  places its memory allows (`hedgerow.plugins.flourish.knowledge`);
* `scorenow`: ``score``, a seat's points if the game ended as its gardens stand, through
  the table's own end-of-game hooks (`hedgerow.plugins.flourish.game.bind`);
* `evaluate`: ``evaluate``, that score plus what the hands promise.

One hint, measured: ``lookahead=2``, since the cards a step passes come back as the next
step's choices (bench/README.md, ISMCTS: the search spanning two steps beat greedy where
one step did not).
"""

from __future__ import annotations

from hedgerow.core.botsupport import BotSupport
from hedgerow.core.game import Extensions
from hedgerow.plugins.flourish.bots.evaluate import Potential
from hedgerow.plugins.flourish.bots.sample import sample as sample_view
from hedgerow.plugins.flourish.bots.scorenow import ScoreNow
from hedgerow.plugins.flourish.game import bind
from hedgerow.plugins.flourish.state import State, View


def build(ext: Extensions) -> BotSupport[State, View]:
    """Flourish's bot support at a table with the variants behind ``ext``."""
    bound = bind(ext)
    score = ScoreNow(bound.hooks.game_end, bound.outcome_of, bound.medal_raise)
    return BotSupport(sample=sample_view, score=score, evaluate=Potential(score), lookahead=2)
