"""The extension hooks Flourish offers its variants (added to the host by ``hedgerow_addhooks``).

None is called per move.  The rules call them through the table's relay (only the variants a
table chose answer), at these points:

* once at setup: ``flourish_compost`` and ``flourish_games`` (the turn structure and the
  length of the match), stored in the state's `Config`;
* after the first deal, and after each answer to it: ``flourish_extra_chance`` and
  ``flourish_extra_resolve`` (a variant's own luck, e.g. the Garden Show's ribbons);
* at the end of every game: ``flourish_game_end`` (bonus points, e.g. ribbons won);
* once the table is over: ``flourish_medal_raise`` and ``flourish_outcome``.

Flourish implements the standard rule of each firstresult hook itself as a ``trylast``
default (``hedgerow.plugins.flourish``), so a chosen variant's answer comes first.  A
variant's data (``extras``) is plain tuples of ints, strings and bools, public to every
seat (every view shows it) and part of the state hash.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hedgerow.core import Chance, ChanceOutcome, Outcome, hookspec

if TYPE_CHECKING:  # annotations only: listing the games reads no rules
    from hedgerow.plugins.flourish.state import GameEnd, Result


@hookspec(firstresult=True)
def flourish_compost(players: int) -> bool | None:
    """May a seat discard a card to the compost pile on turns 1-9 (and draw one more)?

    Called once, by Flourish's ``setup``.  Standard rule: no.  When yes, the rules also
    reshuffle the compost pile into a new deck (a chance node) whenever a draw finds the
    deck empty.

    :param players: the number of seats.
    :return: True or False, or None to leave it to the next answer.
    """


@hookspec(firstresult=True)
def flourish_games(players: int) -> int | None:
    """How many games the table plays in a row, scores carried over (a match).

    Called once, by Flourish's ``setup``.  Standard rule: 1.  Each game after the first
    starts with a fresh shuffle of the whole deck (a chance node), at the same seats.

    :param players: the number of seats.
    :return: the number of games, or None to leave it to the next answer.
    """


@hookspec(firstresult=True)
def flourish_extra_chance(players: int, extras: tuple[object, ...]) -> Chance | None:
    """The luck a variant's own data still waits for before play starts.

    Called by the rules when the first game has been dealt, and again after every answer to
    it, until it returns None.  The engine draws the `Chance` from the table seed and the
    rules hand the result to ``flourish_extra_resolve``.  Standard rule: none.

    :param players: the number of seats.
    :param extras: the variant's data so far (``()`` before its first answer).
    :return: the `Chance` to draw, or None when the data is settled.
    """


@hookspec(firstresult=True)
def flourish_extra_resolve(players: int, extras: tuple[object, ...],
                           outcome: ChanceOutcome) -> tuple[object, ...] | None:
    """A variant's data once chance has answered its ``flourish_extra_chance``.

    Called by the rules with the engine's draw (one result per draw of the `Chance`).

    :param players: the number of seats.
    :param extras: the variant's data before the draw.
    :param outcome: the draw.
    :return: the new data (plain tuples), or None to leave it to the next answer.
    """


@hookspec(firstresult=True)
def flourish_game_end(players: int, game: int, gardens: tuple[tuple[int, ...], ...],
                      extras: tuple[object, ...]) -> GameEnd | None:
    """Bonus points at the end of a game, after its end-of-game scoring.

    Called by the rules once per game.  Standard rule: no bonus, the data unchanged.

    :param players: the number of seats.
    :param game: the game just finished (0-based).
    :param gardens: every seat's final garden (card ids; no McGregor: he has no bonus).
    :param extras: the variant's data.
    :return: a `GameEnd` (one bonus per seat, the new data, a note), or None.
    """


@hookspec
def flourish_medal_raise(players: int) -> int | None:
    """How much the cooperative and solo medal thresholds rise; every answer is added.

    Called by ``GameDef.outcome`` once the table is over.  Standard rule: 0.

    :param players: the number of seats.
    :return: points added to every threshold (None: none).
    """


@hookspec(firstresult=True)
def flourish_outcome(result: Result) -> Outcome | None:
    """The table's result once every game is over.

    Called by ``GameDef.outcome``.  Standard rule: a `Solo` result against McGregor with
    one seat, otherwise a `Ranked` result by total with the tie-break chain (unique plant
    symbols, unique stone symbols, end-of-round cards); ``hedgerow.plugins.flourish.ranking``
    has the pieces.

    :param result: every game's gardens and points, the variant's data, the medal raise.
    :return: a `Ranked`, `Cooperative`, `Solo` or `Match`, or None.
    """
