"""`BotSupport`: what a game offers its bots, beside its rules and apart from them.

A game's rules (`hedgerow.core.game.GameDef`) are moves, chance, views and results: what
every peer at a table runs.  What a bot needs to think about the game (a way to deal a
complete state from a seat's view, and the game's own judgement of a position) is a
separate value, built for a table the same way the rules are (``GameSpec.bots(ext)``,
with the table's extension relay) and handed to the bots alone, through their
`hedgerow.core.botmodel.BotModel`.  The engine, the network and the replay never read
it.  A game without it still plays every bot: ``random`` as ever, ``greedy`` and
``ismcts`` uniformly at random (they say so once: `say_unsupported`).

Every function here is pure, as the rules are (no random generator but the one passed
in, no clock, no dict or set order), and works on the rules' own states:

* ``sample(view, seat, rng) -> S``: a complete state consistent with ``view``, what ``seat``
  sees: ``view(sample(v, seat, rng), seat) == v`` and the seat's legal actions the same,
  and everything the view does not fix (other hands, the deck's order, another seat's
  secret choice inside a step) dealt at random from what ``v`` says could be there, and
  only from that (after a reshuffle, the deck holds only what was in the discard pile).
  Search bots build every state they think about with it, so a bot never needs, or gets,
  the real state.
* ``score(state, seat) -> float`` (optional): ``seat``'s points as the game's own scoring
  would count them if it were scored now (in a cooperative game, the team's).
* ``evaluate(state, seat) -> float`` (optional): the game's own judgement of how good the
  position is for ``seat``, in points like ``score``: the score now plus what the rules
  say is likely to come (a group half built, a claim about to pay, a card in hand, what a
  pass gives away).  Where a game gives it, bots use it instead of ``score``.
* ``evaluate_each(state, seat, actions) -> Sequence[float | None]`` (optional, with
  ``evaluate``): for each of ``actions``, ``evaluate(after, seat)`` of the state ``after``
  that ``apply(state, seat, action)`` gives, exactly (the same float), without building
  ``after`` where the game can do it for less; None for an action it cannot judge so (its
  result waits for chance, the shortcut does not cover it, or it is refused): the caller
  applies that one itself.  Only for a ``state`` where ``seat`` acts alone.
* ``prospects(state, seat) -> float`` (optional, with ``evaluate``): ``evaluate`` without
  any term it has for what the other seats stand to gain (a share of their prospects
  counted against the seat).  A bot that sees one figure, as ``greedy`` does, needs that
  term to weigh what a move gives the others; a search that weighs every seat's figure
  against the others' (a lead) already counts the others' prospects in their own figures,
  and with ``evaluate`` it would count them again: it reads ``prospects`` where the game
  gives it (`BotModel.judges`, `BotModel.estimate`).
* ``lookahead`` (a number, default 1): how many of a seat's own turns a search should span
  by default to see what a decision leads to: 1, the seat's move and the others' replies;
  2 where a move often pays off only at the seat's next turn (a card passed in a draft
  comes back as a choice, a card taken from a shared row is one the others cannot take).
* ``for_themselves`` (default False): True where a search should take every other seat to
  play its own best action by its own ``evaluate`` rather than search its replies: where
  each seat builds its own tableau and the others touch it only through a shared supply.

* ``tempo`` (default False): True where the seat to move has an edge the game's judgement
  does not count (Mandala: a mandala just refilled goes to whoever plays on it first): a
  search, whose leaves are judged with its own seat to move after the others' replies,
  then also judges each leaf after its seat's own best move and takes the mean.

``lookahead``, ``for_themselves`` and ``tempo`` are hints, measured per game
(bench/README.md); a bot's own parameters override them.  The conformance kit
(`hedgerow.core.conformance`) checks ``sample``, ``score`` and ``evaluate_each`` against the
rules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from hedgerow.core.actions import Action
from hedgerow.core.rng import Rng

S = TypeVar("S")
V = TypeVar("V")

log = logging.getLogger("hedgerow.bots")


@dataclass(frozen=True, slots=True)
class BotSupport(Generic[S, V]):
    """One game's help for its bots, as bound for one table (see the module docstring)."""

    sample: Callable[[V, int, Rng], S]
    score: Callable[[S, int], float] | None = None
    evaluate: Callable[[S, int], float] | None = None
    evaluate_each: Callable[[S, int, Sequence[Action]], Sequence[float | None]] | None = None
    prospects: Callable[[S, int], float] | None = None
    lookahead: int = 1
    for_themselves: bool = False
    tempo: bool = False

    def __post_init__(self) -> None:
        if self.evaluate_each is not None and self.evaluate is None:
            raise ValueError("bot support: evaluate_each needs evaluate")
        if self.prospects is not None and self.evaluate is None:
            raise ValueError("bot support: prospects needs evaluate")
        if type(self.lookahead) is not int or self.lookahead < 1:
            raise ValueError("bot support: lookahead must be a whole number of turns, "
                             f"at least 1 (got {self.lookahead!r})")
        for hint in ("for_themselves", "tempo"):
            if type(getattr(self, hint)) is not bool:
                raise ValueError(f"bot support: {hint} must be True or False "
                                 f"(got {getattr(self, hint)!r})")

    @property
    def judge(self) -> Callable[[S, int], float] | None:
        """``evaluate`` where the game gives it, else ``score``, else None."""
        return self.evaluate if self.evaluate is not None else self.score

    @property
    def compare(self) -> Callable[[S, int], float] | None:
        """What a bot that weighs every seat's figure against the others' reads:
        ``prospects`` where the game gives it, else `judge`."""
        return self.prospects if self.prospects is not None else self.judge


_SAID: set[tuple[str, str]] = set()


def say_unsupported(bot: str, game: str, lacking: str, instead: str) -> None:
    """Say once per process, for each bot and game, that ``bot`` lacks what it thinks with
    at ``game`` (``lacking``: "no bot support", "no score or evaluate") and how it plays
    instead, as a warning on the ``hedgerow.bots`` logger (stderr unless a client routes
    its log elsewhere; the seat client writes it to its log file).

    A message only: it changes no choice a bot makes, so a game replays the same whether
    or not it was said.  Bots call it when they are made (``greedy``, ``ismcts``)."""
    if (bot, game) in _SAID:
        return
    _SAID.add((bot, game))
    log.warning("%s: %s offers %s (GameSpec.bots, docs/plugins.md \"Bot support\"), so %s "
                "plays %s", bot, game, lacking, bot, instead)
