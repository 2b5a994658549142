"""The extension hooks Petals offers its variants (added to the host by ``hedgerow_addhooks``).

The rules call ``petals_final_scoring`` and ``petals_winner`` at the end of a game, never
per move; the bots' judgement (`hedgerow.plugins.petals.bots`) calls
``petals_final_scoring`` too, on positions of its own making (see its docstring).
``petals_score_rule`` is asked once when a table's bot support is built and once when a
seat client opens the table.  Each is called only with the variants a table chose active.
Petals implements each itself as a ``trylast`` default, so a variant that answers (returns
something other than None) replaces the standard rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hedgerow.core import Ranked, hookspec

if TYPE_CHECKING:  # annotations only: listing the games reads no rules
    from hedgerow.plugins.petals.scorerule import ScoreRule
    from hedgerow.plugins.petals.scoring import Points


@hookspec(firstresult=True)
def petals_final_scoring(
    trackers: tuple[Points, ...], remaining: tuple[tuple[int, ...], ...]
) -> tuple[Points, ...] | None:
    """Score the cards left in hand once the final round is over (rules §6).

    Called by the Petals rules when the last final-round turn ends, before the winner is
    decided.  The standard rule adds every number on each seat's remaining card to that
    flower's element (symbols add 0).

    The bots' judgement calls it too, on made-up inputs: to learn what one card adds when
    it is the card left in hand, it asks once per card and player count with every
    tracker at 0 and that one card left to one seat (the others' hands empty), and
    remembers the answer; a search also asks it of states it plays out to the end.  So an
    answer must depend only on its arguments (no table state, no count of calls), and a
    variant whose final scoring does not add a fixed amount per card is judged by the bots
    as if it did (what each card adds to empty trackers).

    :param trackers: each seat's Fire, Water, Earth, Air scores before this step.
    :param remaining: each seat's cards left in hand (card ids, see ``petals.cards``).
    :return: each seat's trackers after this step, or None to leave it to the next answer.
    """


@hookspec(firstresult=True)
def petals_winner(trackers: tuple[Points, ...]) -> Ranked | None:
    """Decide the winners and the ranking from the final trackers (rules §7).

    Called by ``GameDef.outcome`` once the game is over.  The standard rule: a seat that won
    no tracker is eliminated; the others score the sum of their two lowest trackers, highest
    first, tie-broken by lowest tracker, trackers won, then total.
    ``hedgerow.plugins.petals.ranking`` has the pieces to build an answer.

    :param trackers: each seat's final Fire, Water, Earth, Air scores.
    :return: the `Ranked` result (scores, ranking, winners, eliminated, explanation, breakdown
        with at least the "Fire", "Water", "Earth" and "Air" columns), or None.
    """


@hookspec(firstresult=True)
def petals_score_rule() -> ScoreRule | None:
    """The figure players are ranked by, as every screen shows it (`scorerule.ScoreRule`).

    Called once when a table's bot support is built (the bots' ``score`` and ``evaluate``
    judge a position by this figure), and by Petals' UI object (``hedgerow_game_ui`` with
    the table's ruleset) when a seat client opens the table: the help's sentence on
    scoring, the players table's score column and the results' chart all come from the
    answer.  A variant that answers ``petals_winner`` should answer this too, so that the
    screens show, and the bots play for, what decides its winner.  The standard answer is
    `scorerule.STANDARD` (the two lowest trackers added); Harmony answers
    `scorerule.HARMONY` (highest minus lowest, the smallest wins).

    :return: a `hedgerow.plugins.petals.scorerule.ScoreRule`, or None.
    """
