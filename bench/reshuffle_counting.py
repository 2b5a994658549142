"""Card counting after a reshuffle: how many states the bots' sampler deals that no table
could be in (issue 27, "Rules and views").

    python bench/reshuffle_counting.py                 # Mandala and Flourish, 60 games each
    python bench/reshuffle_counting.py --games 200 --samples 8

**Mandala.**  When a draw finds the deck empty, the discard pile (every card of it seen by
every seat) is shuffled into a new deck.  From then on the deck can only hold cards of that
pile, less the cards drawn from it since: for a seat, less its own draws for certain.  For
seeded games (random legal plays, 2-4 players, with and without Draw four), at every
decision point after a reshuffle, every seat's view is sampled ``--samples`` times, and a
sample is *impossible* when its deck holds more cards of a colour than the pile had, less
the seat's own draws from it.  The pile and the draws are followed here from the states of
the real game (the deck's top cards a turn took), not read from the view, so the script
measures any version of the sampler the same way.

**Flourish with Compost, and alone against McGregor.**  The compost pile is shuffled into a
new deck when the deck runs out, and in a solo game the two cards passed to McGregor are
shuffled into his deck every turn.  The compost's cards are face down, so a seat knows only
the ones it remembers (its own discards, cards it passed, the two it gave McGregor): a
sample is *impossible* when a card the seat remembers is outside the places its memory
allows, or a card is in two places or none (`tests/plugins/flourish/invariants.py` checks
the same at every step of its tests).  Samples are counted from the first such shuffle on.

Petals and FLOWERS never reshuffle (their only chance is the deal).

Prints, per game, the samples after a reshuffle and how many were impossible.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hedgerow.core.chance import outcome_of, permute
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.rng import Rng
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.mandala.cards import expand

COLOURS = 6


def _counts(cards: Any) -> list[int]:
    out = [0] * COLOURS
    for c in cards:
        out[c] += 1
    return out


class Deck:
    """What the deck of one real game may hold, followed entry by entry: the pile the
    current deck was made of (None before the first reshuffle) and each seat's draws from
    it since."""

    def __init__(self, players: int) -> None:
        self.pile: list[int] | None = None
        self.drawn = [[0] * COLOURS for _ in range(players)]

    def follow(self, game: Any, before: Any, entry: Any) -> Any:
        """The state after ``entry`` (applied to ``before``), noting what it drew."""
        if entry.seat < 0:
            outcome = outcome_of(entry.action)
            after = game.resolve(before, outcome)
            if before.phase != "reshuffle":
                return after  # the deal
            self.pile = list(before.discard)
            self.drawn = [[0] * COLOURS for _ in self.drawn]
            made = permute(expand(before.discard), outcome[0])
            took = made[len(after.deck):]
        else:
            after = game.apply(before, entry.seat, entry.action)
            took = before.deck[len(after.deck):]
        if self.pile is not None:
            for c in took:
                self.drawn[before.turn][c] += 1
        return after

    def impossible(self, sampled: Any, seat: int) -> bool:
        """True when ``sampled``'s deck holds a card this deck cannot (module docstring)."""
        if self.pile is None:
            return False
        deck = _counts(sampled.deck)
        return any(deck[c] > self.pile[c] - self.drawn[seat][c] for c in range(COLOURS))


def mandala(plugins: PluginHost, games: int, samples: int) -> tuple[int, int, int]:
    """(samples after a reshuffle, impossible ones, reshuffles seen) over seeded games."""
    total = bad = reshuffles = 0
    for number in range(games):
        players = 2 + number % 3
        variants = ["draw-four"] if number % 2 else []
        ruleset = plugins.ruleset("mandala", variants, players)
        game, bots = ruleset.gamedef, ruleset.bots
        assert bots is not None
        table = Table(ruleset, players, seed_from_int(10_000 + number))
        rng = Rng(seed_from_int(number), "counting")
        deck = Deck(players)
        state = table.state
        while table.active_seats():
            if deck.pile is not None:
                for seat in range(players):
                    v = game.view(state, seat)
                    for k in range(samples):
                        sampled = bots.sample(v, seat, rng.fork(f"{table.index}/{seat}/{k}"))
                        total += 1
                        bad += deck.impossible(sampled, seat)
            (seat,) = table.active_seats()
            legal = game.legal_actions(state, seat)
            start = table.index
            table.play(seat, legal[rng.randbelow(len(legal))])
            for entry in table.entries[start:]:
                reshuffles += state.phase == "reshuffle"
                state = deck.follow(game, state, entry)
    return total, bad, reshuffles


def flourish(plugins: PluginHost, games: int, samples: int) -> tuple[int, int, int]:
    """(samples after a compost reshuffle or McGregor's shuffle, impossible ones, shuffles
    seen)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from plugins.flourish.invariants import every_card_once, memory_is_true

    total = bad = shuffles = 0
    for number in range(games):
        players = 1 + number % 7
        ruleset = plugins.ruleset("flourish", ["compost"], players)
        game, bots = ruleset.gamedef, ruleset.bots
        assert bots is not None
        table = Table(ruleset, players, seed_from_int(20_000 + number))
        rng = Rng(seed_from_int(number), "counting")
        after = False
        while table.active_seats():
            state = table.state
            if after:
                for seat in range(players):
                    v = game.view(state, seat)
                    for k in range(samples):
                        sampled = bots.sample(v, seat, rng.fork(f"{table.index}/{seat}/{k}"))
                        total += 1
                        try:
                            every_card_once(sampled)
                            memory_is_true(sampled)
                        except AssertionError:
                            bad += 1
            choices = {s: (lambda lg: lg[rng.randbelow(len(lg))])(game.legal_actions(state, s))
                       for s in table.active_seats()}
            start = table.index
            table.play_step(choices)
            reshuffled = len(table.state.compost) < len(state.compost)
            mcgregor = players == 1 and any(e.seat < 0 for e in table.entries[start:])
            if reshuffled or mcgregor:
                after = True
                shuffles += 1
    return total, bad, shuffles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--samples", type=int, default=4)
    args = parser.parse_args(argv)
    plugins = PluginHost()
    total, bad, reshuffles = mandala(plugins, args.games, args.samples)
    print(f"mandala: {bad} of {total} samples after a reshuffle were impossible "
          f"({args.games} games, {reshuffles} reshuffles)", flush=True)
    total, bad, reshuffles = flourish(plugins, args.games, args.samples)
    print(f"flourish+compost: {bad} of {total} samples after a compost reshuffle or "
          f"McGregor's shuffle were impossible ({args.games} games, 1-7 players, "
          f"{reshuffles} shuffles)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
