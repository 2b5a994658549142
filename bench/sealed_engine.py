"""The sealed table's engine work per action, against the open table's, in one process.

    python bench/sealed_engine.py [--games 3] [--repeat 3] [GAME:PLAYERS ...]

A seeded game is recorded at an open `Table` (the ``random``-like choice of a seeded stream),
then played again twice: at an open `Table` (each action: a view, the legal actions, submit,
the state hash) and at a table of sealed peers in this process (`SealedTable` per seat, an
`OpenDealer` answering the shuffles and showing the cards each seat is owed: each action, for
every peer: its seat's view, the author's legal actions and `prepare`, submit on every peer,
the obligations met, the state hash: `hedgerow.core.sealedcheck.SealedRun`'s dealer without
its checks, its observer and its open twin, which would be most of the time measured).  It
prints the CPU per action of one peer at each, and their ratio; the best of ``--repeat``
runs, so that a busy machine's interruptions drop out.
No sockets, no curve, no log: what is left is the engine (`hedgerow.core.sealedtable`,
`hedgerow.core.sealed`, the rules), which is what a sealed peer adds to an open one besides
its messages.  Games with simultaneous steps (Flourish) are not played here: the recording
plays one seat at a time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealedtable import OpenDealer, SealedTable, Waiting
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table

Move = tuple[int, Any, int]  # seat, action, its place among the legal actions


def record(rules: Ruleset, players: int, seed: int) -> list[Move]:
    table = Table(rules, players, seed_from_int(seed))
    rng = Rng(seed_from_int(seed), "sealed-engine")
    moves: list[Move] = []
    while table.active_seats():
        seat = table.active_seats()[0]
        legal = list(table.legal_actions(seat))
        action = legal[rng.randbelow(len(legal))]
        moves.append((seat, action, legal.index(action)))
        table.submit(seat, action)
    return moves


def play_open(rules: Ruleset, players: int, seed: int, moves: list[Move]) -> None:
    table = Table(rules, players, seed_from_int(seed))
    for seat, action, _ in moves:
        table.view(seat)
        table.legal_actions(seat)
        table.submit(seat, action)
        table.state_hash()


class SealedPeers:
    """Every seat's sealed peer in this process, a trusted dealer answering them."""

    def __init__(self, rules: Ruleset, players: int, seed: int) -> None:
        self.dealer = OpenDealer(seed_from_int(seed))
        self.peers = [SealedTable(rules, players, seed_from_int(seed), seats=[s])
                      for s in range(players)]
        self.settle()

    def show_all(self, tokens: Any) -> None:
        faces = {t.key: self.dealer.face(t.key) for t in tokens}
        for peer in self.peers:
            peer.reveal_public(faces)

    def settle(self) -> None:
        first = self.peers[0]
        for _ in range(10_000):
            waiting = first.waiting
            if waiting is not None:
                if waiting.shuffles:
                    chance = first.pending_chance()
                    assert chance is not None
                    for (entry, draw), deck in self.dealer.deal(chance, waiting.shuffles).items():
                        for peer in self.peers:
                            peer.shuffled(entry, draw, deck)
                if waiting.reveals:
                    self.show_all(waiting.reveals)
                for peer in self.peers:
                    if peer.pending_chance() is not None:
                        peer.settle()
                continue
            owed = [peer.take_obligations() for peer in self.peers]
            if not owed[0]:
                return
            for obligations in owed[0]:
                if obligations.public:
                    self.show_all(obligations.public)
                for seat, tokens in obligations.private:
                    self.peers[seat].reveal_private(
                        {t.key: self.dealer.face(t.key) for t in tokens})
        raise RuntimeError("the sealed peers never came to rest")

    def play(self, moves: list[Move]) -> None:
        for seat, _, place in moves:
            for number, peer in enumerate(self.peers):
                peer.view(number)
            made = self.peers[seat].prepare(seat, list(self.peers[seat].legal_actions(seat))[place])
            assert not isinstance(made, Refusal), made
            for peer in self.peers:
                while True:
                    result = peer.submit(seat, made.action, reveals=made.attached)
                    if isinstance(result, Waiting):
                        self.show_all(result.reveals)
                        continue
                    assert not isinstance(result, Refusal), result
                    break
            self.settle()
            for peer in self.peers:
                peer.state_hash()


def measure(rules: Ruleset, players: int, games: int, repeat: int) -> tuple[float, float, int]:
    """(open CPU per action, sealed CPU per action and peer, actions), best of ``repeat``."""
    recorded = [(seed, record(rules, players, seed)) for seed in range(games)]
    actions = sum(len(moves) for _, moves in recorded)
    best_open = best_sealed = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for seed, moves in recorded:
            play_open(rules, players, seed, moves)
        best_open = min(best_open, (time.process_time() - start) / actions)
        start = time.process_time()
        for seed, moves in recorded:
            SealedPeers(rules, players, seed).play(moves)
        best_sealed = min(best_sealed, (time.process_time() - start) / actions / players)
    return best_open, best_sealed, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="*", default=["petals:2", "flowers:4", "mandala:2"],
                        help="GAME:PLAYERS (default: petals:2 flowers:4 mandala:2)")
    parser.add_argument("--games", type=int, default=3, help="seeded games of each")
    parser.add_argument("--repeat", type=int, default=3, help="runs, the best kept")
    args = parser.parse_args()
    plugins = PluginHost()
    for text in args.tables:
        game, _, players = text.partition(":")
        rules = plugins.ruleset(game, (), int(players))
        opened, sealed, actions = measure(rules, int(players), args.games, args.repeat)
        print(f"{game} {players} players, {actions} actions: open {opened * 1e3:.3f} ms, "
              f"sealed {sealed * 1e3:.3f} ms per action and peer ({sealed / opened:.1f}x)")


if __name__ == "__main__":
    main()
