"""A tournament's schedule: which bot sits in which seat of game ``i``, its seed, its batches.

Everything here is a pure function of the tournament's settings, so any worker anywhere
computes the same schedule, and game ``i`` is the same game whoever plays it.

**Seeds.**  Game ``i`` of a tournament with ``--seed S`` is played with the table seed
``seed_from_int(S + i)``: the seed ``hedgerow simulate --seed S+i`` uses, so any single
game of a tournament can be watched again with ``simulate`` (with the bots in the seat
order the game record lists).  Two tournaments whose seeds are closer than their game
counts share deals (in other seats); pick seeds far apart for independent samples.

**Seats.**  With ``k`` bots and ``p`` seats, a *lineup* lists ``m = min(p, k)`` different
bots; seat ``s`` gets the bot at ``lineup[s mod m]``, so when there are more seats than bots
the bots repeat around the table in the same order.  The lineups are every ordered choice
of ``m`` of the ``k`` bots, grouped into *blocks* of ``k``: a block starts from a lineup
whose first bot is bot 0 and shifts every bot number by 1, 2, ... ``k - 1`` (mod ``k``) for
the next games.  So:

* over each block of ``k`` games, every bot sits in every seat exactly as often as every
  other bot (once per seat when ``p <= k``; a bot fills ``p/k`` seats on average);
* over each *cycle* of ``k!/(k-m)!`` games, every ordered lineup is played once: every bot
  meets every other bot in every seat order (with 3 bots at a 2-seat table, A-B, B-A,
  A-C, C-A, B-C and C-B all occur).

Balance is exact when the game count is a multiple of the block (best, of the cycle);
`block_size` and `cycle_size` say what they are.  Two bots at two seats: a block is 2 games
and the bots swap seats every game.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import permutations


def seed_number(seed: int, game: int) -> int:
    """The number game ``game`` (from 0) is seeded with: ``seed_from_int`` of it is its seed."""
    return seed + game


def block_size(bots: int) -> int:
    """Games over which every bot sits in every seat equally often."""
    return bots


def cycle_size(bots: int, players: int) -> int:
    """Games over which every ordered lineup of bots is played once."""
    m = min(bots, players)
    return math.perm(bots, m)


@lru_cache(maxsize=64)
def _block_starts(bots: int, players: int) -> tuple[tuple[int, ...], ...]:
    """The first lineup of every block: bot 0 first, then every ordering of the rest."""
    m = min(bots, players)
    return tuple((0, *rest) for rest in permutations(range(1, bots), m - 1))


def lineup(game: int, bots: int, players: int) -> tuple[int, ...]:
    """The bot (an index into the tournament's bot list) in each seat of game ``game``."""
    if bots < 1 or players < 1 or game < 0:
        raise ValueError(f"no lineup for game {game} of {bots} bots at {players} seats")
    starts = _block_starts(bots, players)
    block, shift = divmod(game, bots)
    first = starts[block % len(starts)]
    chosen = tuple((b + shift) % bots for b in first)
    return tuple(chosen[s % len(chosen)] for s in range(players))


class Batcher:
    """Cuts a tournament's games into tasks as workers ask for them, sized by how long games take.

    A task's size does not change any result (each game depends only on its number), so it
    is chosen for speed alone: the first tasks hold one game each; after that a task holds
    about ``target`` seconds of play at the mean pace measured so far (the caller reports
    each finished task with `observe`), at most ``largest`` games, and at most a share of
    what is left so the last games spread over every worker.  Short games thus travel in
    batches of hundreds (a million games are not a million tasks, and a scheduler's cost
    per task vanishes), long ones one by one (the progress bar moves and no worker ends up
    holding a long tail).
    """

    def __init__(self, games: int, workers: int, *, target: float = 1.0,
                 largest: int = 1000) -> None:
        if games < 1 or workers < 1:
            raise ValueError(f"no tasks for {games} games on {workers} workers")
        self.games = games
        self.workers = workers
        self.target = target
        self.largest = largest
        self.next_game = 0
        self._played = 0
        self._seconds = 0.0

    def size(self) -> int:
        """How many games the next task gets."""
        left = self.games - self.next_game
        if self._played == 0 or self._seconds <= 0:
            wanted = 1
        else:
            wanted = int(self.target * self._played / self._seconds)
        share = math.ceil(left / (2 * self.workers))
        return max(1, min(wanted, self.largest, share, left))

    def next(self) -> tuple[int, int] | None:
        """The next task, ``(start, stop)`` game numbers, or None when every game is given out."""
        if self.next_game >= self.games:
            return None
        start = self.next_game
        self.next_game += self.size()
        return start, self.next_game

    def observe(self, games: int, seconds: float) -> None:
        """A task finished: ``games`` games took ``seconds`` of a worker's time."""
        self._played += games
        self._seconds += max(0.0, seconds)
