"""What Petals offers its bots, beside its rules: ``build(ext)`` -> `BotSupport`.

Nothing here is part of the rules; the rules never import it.  The pieces:

* `sample`: a complete state from one seat's view (the unseen cards dealt back where the
  view says unseen cards are);
* `standing`: ``score``, the figure a seat ranks by if the game stopped now, under the
  table's score rule (``petals_score_rule``);
* `evaluate`: ``evaluate``, that figure as the seat is likely to end with it;
* `preview`: ``evaluate_each``, the judgement after each placement of a turn without
  building the state after it.

Petals keeps the default hints: a search spans one of the seat's turns (``lookahead=1``),
and the others' replies are searched (``for_themselves=False``).
"""

from __future__ import annotations

from hedgerow.core.botsupport import BotSupport
from hedgerow.core.game import Extensions
from hedgerow.plugins.petals.bots.evaluate import evaluator
from hedgerow.plugins.petals.bots.preview import previewer
from hedgerow.plugins.petals.bots.sample import sample as sample_view
from hedgerow.plugins.petals.bots.standing import scorer
from hedgerow.plugins.petals.game import final_scoring, score_rule
from hedgerow.plugins.petals.state import State, View


def build(ext: Extensions) -> BotSupport[State, View]:
    """Petals' bot support at a table with the variants behind ``ext``."""
    rule = score_rule(ext)
    finish = final_scoring(ext)
    evaluate = evaluator(rule, finish)
    return BotSupport(sample=sample_view, score=scorer(rule), evaluate=evaluate,
                      evaluate_each=previewer(evaluate, finish))
