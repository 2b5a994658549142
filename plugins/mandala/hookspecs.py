"""The extension hooks Mandala offers its variants (added to the host by ``hedgerow_addhooks``).

Each is ``firstresult`` and is called only with the variants a table chose active.  Mandala
implements each itself as a ``trylast`` default (in the plugin module), so a variant that
answers (returns something other than None) replaces the standard rule.  None of them is
called per move:

* ``mandala_draw_rule``: once, when a table's rules are built;
* ``mandala_game_end``: after every mandala resolution and every pass (the only events
  after which the standard end conditions can become true);
* ``mandala_winner``: once, for the outcome; and by ``BotSupport.score`` (what bots maximise)
  whenever it meets a new set of gardens, mid-game too.
"""

from __future__ import annotations

from hedgerow.core import Ranked, hookspec
from hedgerow.plugins.mandala.drawing import DrawRule


@hookspec(firstresult=True)
def mandala_draw_rule() -> DrawRule | None:
    """The draw rule a table plays with (spec §6 step 2 and the keep-one rule of §7).

    Called once by ``build`` when a table's rules are bound; the rules then use the answer
    for every play, for drawing and for deciding which plays are legal.  The standard rule
    draws 2 cards after a play of exactly one card and none after several, never above a
    hand of 8.

    :return: a `DrawRule` (``hedgerow.plugins.mandala.drawing``), or None to leave it to the
        next answer.
    """


@hookspec(firstresult=True)
def mandala_game_end(tiles: tuple[tuple[int, ...], ...], open_mandalas: int, passes: int,
                     players: int) -> str | None:
    """Whether the game ends now, and why (spec §10).

    Called by the rules after every mandala resolution (once the tiles are taken, the cards
    put away and the mandala refilled or closed) and after every pass.  The standard rule
    ends the game when a player holds 3 complete flowers, when all three mandalas are
    closed, or when every player has passed in a row.  ``hedgerow.plugins.mandala.scoring``
    has `complete_flowers`.

    :param tiles: each seat's tiles in the order taken (ids, see ``mandala.cards``).
    :param open_mandalas: how many mandalas still take plays (0 to 3).
    :param passes: turns passed in a row, the last one included (0 after a resolution).
    :param players: the number of seats.
    :return: ``""`` when the game goes on, the reason in plain words when it ends, or None
        to leave it to the next answer.
    """


@hookspec(firstresult=True)
def mandala_winner(tiles: tuple[tuple[int, ...], ...], ended: str) -> Ranked | None:
    """Score the tiles and decide the ranking once the game is over (spec §11).

    Called by ``GameDef.outcome``, and by ``BotSupport.score`` on a game still running (with
    ``ended`` empty): its ``scores`` must then be each seat's points if the game were scored
    now, which is what bots maximise.  The answer depends on its arguments alone (``score``
    remembers it by them).  The standard rule: the most points win; ties go to the most
    complete flowers, then the most tiles, then the victory is shared.
    ``hedgerow.plugins.mandala.ranking`` has the pieces to build an answer.

    :param tiles: each seat's tiles in the order taken.
    :param ended: why the game ended (the answer of ``mandala_game_end``).
    :return: the `Ranked` result (scores, ranking, winners, explanation, breakdown), or None.
    """
