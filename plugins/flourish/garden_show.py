"""The Garden Show, the Flourish variant of three games in a row with ribbons (spec §10.4).

* The table plays three games at the same seats (``flourish_games``); each starts with a
  fresh shuffle of the whole deck (the game's own deal, a chance node); scores carry over.
  One table, one log, one result: a `Match`.
* Ribbons: 24 tokens, two of each of twelve kinds (the five colours, the six stone types,
  and PLANTS: every plant symbol).  After the first deal chance shuffles them and each seat
  gets three, face up; while any seat holds two of a kind, chance deals them all again
  (``flourish_extra_chance`` / ``flourish_extra_resolve``).  The ribbon token order is kind
  by kind (GREEN, GREEN, RED, RED, ...); seat ``s`` gets positions ``3s`` to ``3s + 2``.
* After each game's end-of-game scoring (``flourish_game_end``) a seat wins each face-up
  ribbon of its own whose symbol its garden holds *strictly* more of than every other
  seat's garden (a Rosa Alba counts as the ribbon's colour, and in PLANTS as one symbol):
  +7 points, and the ribbon is turned over for good.  A ribbon not won stays for the next
  game.
* The grand winner has the highest total after game three; ties go to the most ribbons
  won, then the tie-break chain on the third game's gardens, then the victory is shared.

Competitive only (it conflicts with ``cooperative``), for 2 to 7 players.  The ribbons are
public: every view shows them (``View.extras``: per seat, three ``(kind, won)`` pairs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hedgerow.core import Chance, ChanceOutcome, Match, Ranked, Shuffle, VariantSpec, hookimpl
from hedgerow.core.chance import permute
from hedgerow.core.game import rules_module

if TYPE_CHECKING:  # the rules load when a table first calls a hook (`rules_module`)
    from hedgerow.core import ranking as core_ranking
    from hedgerow.plugins.flourish import ranking, scoring, state, tally
    from hedgerow.plugins.flourish.state import GameEnd, Result
    from hedgerow.plugins.flourish.tally import Tally
else:
    core_ranking = rules_module(globals(), "core_ranking", "hedgerow.core.ranking")
    ranking = rules_module(globals(), "ranking", "hedgerow.plugins.flourish.ranking")
    scoring = rules_module(globals(), "scoring", "hedgerow.plugins.flourish.scoring")
    state = rules_module(globals(), "state", "hedgerow.plugins.flourish.state")
    tally = rules_module(globals(), "tally", "hedgerow.plugins.flourish.tally")

GAMES = 3
RIBBON_POINTS = 7
PER_SEAT = 3
PLANTS = 11
KINDS = ("green", "red", "blue", "yellow", "purple", "tree", "path", "wall", "hive", "lawn",
         "feature", "plants")
#: The 24 ribbon tokens in their unshuffled order: two of each kind.
TOKENS = tuple(k for k in range(len(KINDS)) for _ in range(2))
CRITERIA = ("points", "ribbons won", "unique plant symbols", "unique stone symbols",
            "cards with an end-of-round ability")

Ribbons = tuple[tuple[tuple[int, bool], ...], ...]


def ribbon_count(t: Tally, kind: int) -> int:
    """How many of a ribbon's symbols a garden with tally ``t`` holds."""
    return tally.plant_symbols(t) if kind == PLANTS else tally.symbols(t, kind)


def has_duplicate(ribbons: Ribbons) -> bool:
    """True when some seat holds two ribbons of one kind."""
    return any(len({k for k, _ in held}) < len(held) for held in ribbons)


def deal_ribbons(players: int, outcome: ChanceOutcome) -> Ribbons:
    """Each seat's three ribbons, face up, from a shuffle of the 24 tokens."""
    (order,) = outcome
    assert isinstance(order, tuple)
    tokens = permute(TOKENS, order)
    return tuple(tuple((k, False) for k in sorted(tokens[PER_SEAT * s:PER_SEAT * (s + 1)]))
                 for s in range(players))


def judge(gardens: tuple[tuple[int, ...], ...], ribbons: Ribbons,
          ) -> tuple[tuple[int, ...], Ribbons, str]:
    """The ribbons won at the end of a game: each seat's bonus, the ribbons after, words."""
    counts = scoring.tallies(gardens)
    bonus = []
    after = []
    won_words = []
    for seat, held in enumerate(ribbons):
        points = 0
        flipped = []
        for kind, won in held:
            if not won:
                mine = ribbon_count(counts[seat], kind)
                if all(mine > ribbon_count(t, kind)
                       for other, t in enumerate(counts) if other != seat):
                    won = True
                    points += RIBBON_POINTS
                    won_words.append(f"seat {seat} wins the {KINDS[kind]} ribbon ({mine})")
            flipped.append((kind, won))
        bonus.append(points)
        after.append(tuple(flipped))
    note = "; ".join(won_words) if won_words else "no ribbon won"
    return tuple(bonus), tuple(after), note


def ribbons_won(ribbons: Ribbons) -> tuple[int, ...]:
    """How many ribbons each seat has turned over."""
    return tuple(sum(1 for _, won in held if won) for held in ribbons)


def match_outcome(result: Result) -> Match:
    """The match: each game's result, the running totals, and the grand winner."""
    seats = result.cfg.players
    games = tuple(ranking.ranked_game(record, seats) for record in result.games)
    totals: list[tuple[int, ...]] = []
    running = (0,) * seats
    for record in result.games:
        running = tuple(a + b for a, b in
                        zip(running, ranking.game_totals(record)[:seats], strict=True))
        totals.append(running)
    ribbons = _ribbons(result.extras)
    won = ribbons_won(ribbons) if ribbons else (0,) * seats
    last = ranking.tie_keys(result.games[-1].gardens[:seats])
    keys = [(running[s], won[s], *last[s]) for s in range(seats)]
    ranks = core_ranking.competition_ranks(keys)
    final = Ranked(
        scores=running,
        ranking=ranks,
        winners=core_ranking.winners(ranks),
        explanation=ranking.explain(keys, CRITERIA),
        breakdown=(("Total", running), ("Ribbons won", won)),
    )
    return Match(games=games, totals=tuple(totals), final=final)


def _ribbons(extras: tuple[object, ...]) -> Ribbons:
    return extras  # type: ignore[return-value]  # our own data, in the documented shape


class GardenShowRules:
    """The Garden Show's implementation of Flourish's extension hooks."""

    @hookimpl
    def flourish_games(self, players: int) -> int:
        """Three games in a row."""
        return GAMES

    @hookimpl
    def flourish_extra_chance(self, players: int, extras: tuple[object, ...]) -> Chance | None:
        """Deal the ribbons, and deal again while a seat holds two of a kind."""
        if not extras:
            return Chance((Shuffle(len(TOKENS)),), "shuffle the ribbons and deal three to "
                                                   "each player")
        if has_duplicate(_ribbons(extras)):
            return Chance((Shuffle(len(TOKENS)),), "deal the ribbons again: a player holds "
                                                   "two of a kind")
        return None

    @hookimpl
    def flourish_extra_resolve(self, players: int, extras: tuple[object, ...],
                               outcome: ChanceOutcome) -> tuple[object, ...]:
        """The ribbons as dealt."""
        return deal_ribbons(players, outcome)

    @hookimpl
    def flourish_game_end(self, players: int, game: int,
                          gardens: tuple[tuple[int, ...], ...],
                          extras: tuple[object, ...]) -> GameEnd:
        """Ribbons won this game: +7 each."""
        bonus, after, note = judge(gardens, _ribbons(extras))
        return state.GameEnd(bonus, after, f"game {game + 1}: {note}")

    @hookimpl
    def flourish_outcome(self, result: Result) -> Match:
        """The match result."""
        return match_outcome(result)


@hookimpl
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register the Garden Show for Flourish."""
    register(VariantSpec(
        game="flourish",
        name="garden-show",
        version="1.0.0",
        impl=GardenShowRules(),
        summary="three games in a row with running totals; win the ribbons dealt to you "
                "(+7 each) by having strictly the most of their symbol",
        conflicts=("cooperative",),
        players=(2, 7),
    ))
