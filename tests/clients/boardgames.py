"""Helpers for the shared leaderboard's tests: board games played by a bot for a key, and
logs altered as a careful forger would.

`play_board_game` does what ``hedgerow play flowers --players 1`` does for a person, with a
bot's moves: the board's deal for the key's next game of the week, the start record, the
game, the record of its log.  ``python boardgames.py NAME GAMES WHEN [LEFT]`` does it in a
process of its own (run with ``HEDGEROW_HOME`` set: a machine of the multi-process tests):
``GAMES`` finished games then ``LEFT`` left at their deal, dealt at ``WHEN`` (ISO 8601); it
prints one JSON line per game, ``{"number": N, "score": S}`` (``score`` null when left).

`reframe` rewrites a log's entries and recomputes every digest and checksum, `with_header`
puts its entries under another header, `rig_the_deal` sorts the deal's shuffle.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hedgerow.clients.leaderboard import IsoWeek, Leaderboard
from hedgerow.clients.leaderboard_check import log_of_table
from hedgerow.clients.leaderboard_play import board_deal, record_log, start_game
from hedgerow.core.actions import Action
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.table import LogEntry
from hedgerow.net.keys import Identity, load_identity
from hedgerow.net.logfile import LogWriter, parse_log
from hedgerow.net.messages import LogHeader

#: Thursday of 2026-W49.
THURSDAY = datetime(2026, 12, 3, 14, 5, 9, tzinfo=UTC)


def rules_of(plugins: PluginHost) -> Any:
    """The installed rules a log header names."""
    return lambda h: plugins.ruleset(h.game, h.variants, h.players)


def play_board_game(plugins: PluginHost, identity: Identity, name: str, store: Leaderboard, *,
                    variants: tuple[str, ...] = (), when: datetime = THURSDAY,
                    finish: bool = True, bot: str = "random") -> tuple[bytes, int | None]:
    """One board game of ``identity``, kept in ``store``: its log and score (None when left
    unfinished: only the start record is kept)."""
    ruleset = plugins.ruleset("flowers", variants, 1)
    deal = board_deal(ruleset, identity, name, clock=lambda: when, store=store)
    start_game(deal, store, clock=lambda: when)
    if not finish:
        return b"", None
    table = play(ruleset, 1, deal.seed, [plugins.bot(bot, "flowers")])
    outcome = table.outcome()
    assert outcome is not None
    log = log_of_table(table, [name])
    record_log(identity, str(IsoWeek.of(when)), deal.number, log, store, rules_of(plugins),
               "flowers", clock=lambda: when)
    return log, outcome.scores[0]


# -- forging, as a careful forger would


def reframe(log: bytes, change: Any, path: Path) -> bytes:
    """The log rewritten as a careful forger would: ``change(entries)`` edits the (index,
    seat, action, state_hash) list, then every digest and checksum is recomputed."""
    result = parse_log(log)
    assert result.ok and result.header is not None
    items = [(e.entry.index, e.entry.seat, e.entry.action, e.state_hash) for e in result.entries]
    items = change(items)
    head = result.header.table_header.genesis
    with LogWriter(path, result.header, sync=False) as writer:
        for index, seat, action, state_hash in items:
            entry = LogEntry.after(head, index, seat, action)
            writer.append(entry, state_hash)
            head = entry.digest
    return path.read_bytes()


def with_header(log: bytes, path: Path, **fields: Any) -> bytes:
    """The same entries under a header with ``fields`` changed."""
    result = parse_log(log)
    assert result.header is not None
    header = LogHeader(**{**{f: getattr(result.header, f) for f in LogHeader.__dataclass_fields__},
                          **fields})
    with LogWriter(path, header, sync=False) as writer:
        for item in result.entries:
            writer.append(item.entry, item.state_hash)
    return path.read_bytes()


def rig_the_deal(items: list[Any]) -> list[Any]:
    """The deal's shuffle sorted (every card in order): a deal the seed does not give."""
    index, seat, action, state_hash = items[0]
    draws, first = action["draws"]
    items[0] = (index, seat, Action(action.kind, (("draws", (tuple(sorted(draws)), first)),)),
                state_hash)
    return items


def main(argv: list[str]) -> None:
    """``NAME GAMES WHEN [LEFT]``: see the module docstring."""
    name, games, when = argv[0], int(argv[1]), datetime.fromisoformat(argv[2])
    left = int(argv[3]) if len(argv) > 3 else 0
    plugins = PluginHost(autoload=False)
    identity = load_identity()
    with Leaderboard() as store:
        for number in range(games + left):
            _, score = play_board_game(plugins, identity, name, store, when=when,
                                       finish=number < games)
            print(json.dumps({"number": number, "score": score}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
