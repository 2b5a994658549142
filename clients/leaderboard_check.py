"""The leaderboard's gate: a game's log is replayed with the installed rules before it counts.

`check_log` reads a table log (the bytes of a ``.hlog`` file, docs/protocol.md "Log file"),
replays every entry (`hedgerow.net.logfile.replay_log`: the hash chain, each chance entry
against the seed, every action against the rules, the state hash after each), and returns the
`Checked` facts the leaderboard keeps: whose game, which rules, the score and the rank the
replayed game reaches.  Anything else is refused with a `Refused` that says why: a damaged
or altered log, a game that is not over, a game that is not solo, another game than the
board's, a log that names no player, or a claimed score the replay does not reach.

`log_of_table` writes the log of a `Table` played in this process, in the same file format
(``hedgerow play`` submits the log its seat wrote; this builds one for a table that wrote
none, as the tests' solo games).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from hedgerow.core.errors import HedgerowError, Refusal
from hedgerow.core.outcome import Solo
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, Table
from hedgerow.net.boardrecord import GameRecord, deal_seed
from hedgerow.net.keys import key_text
from hedgerow.net.logfile import LogWriter, parse_log, replay_log
from hedgerow.net.messages import LogHeader


class Refused(HedgerowError):
    """A log the leaderboard does not accept; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="refused")


class Unverifiable(Refused):
    """A log this machine cannot check: its game, variant or rules version is not the one
    installed here.  Not held against the machine that sent it (it may be right)."""


@dataclass(frozen=True, slots=True)
class Checked:
    """What a replayed log proves.

    * ``game_id``: the hex digest of the log's last entry (the genesis digest of the rules
      and seed, for a log with no entry yet); it commits to the rules, the seed and every
      action, so one game has one id however its header is dressed up.
    * ``game``, ``variants`` (sorted), ``fingerprint``: the rules it was played with.
    * ``player``: the name the log gives the one seat.
    * ``score``, ``rank``: the replayed `Solo` result (the rank is the game's own label);
      for an unfinished game (``over`` False), the game's floor
      (``GameSpec.leaderboard_floor``, which ``floor`` holds either way) and
      ``"unfinished"``.
    * ``seed``, ``genesis``, ``chain``: the deal's seed, the chain's start and every logged
      entry's digest, in order (what tells whether one log continues another).
    """

    game_id: str
    game: str
    variants: tuple[str, ...]
    fingerprint: str
    player: str
    score: int
    rank: str
    over: bool = True
    floor: int = 0
    seed: bytes = b""
    genesis: bytes = b""
    chain: tuple[bytes, ...] = ()

    def continues(self, other: Checked) -> bool:
        """Whether this log is ``other``'s log with zero or more entries more (the same
        deal, the same player name)."""
        return (self.genesis == other.genesis and self.player == other.player
                and len(self.chain) >= len(other.chain)
                and self.chain[:len(other.chain)] == other.chain)


#: The rank shown for a game that is not over.
UNFINISHED = "unfinished"


def check_log(data: bytes, rules: Callable[[LogHeader], Ruleset], *, game: str | Set[str],
              claimed: int | None = None, unfinished: bool = False) -> Checked:
    """Replay the log ``data`` with the rules ``rules(header)`` binds; what it proves, or
    `Refused`.

    ``rules`` is e.g. ``lambda h: host.ruleset(h.game, h.variants, h.players)``, or the very
    ruleset a table was played with (a log of other rules is then refused: the fingerprints
    differ).  ``game`` is the board's game: a log of any other game is refused.  ``claimed`` is the
    score the caller says the game reached; it is refused unless the replay reaches exactly
    that score (None: take the replay's score).  With ``unfinished`` a game that is not over
    is taken too (scored at the game's floor); else it is refused.
    """
    result = parse_log(data)
    header = result.header
    if header is None:
        raise Refused(f"not a table log: {result.problem}")
    if result.problem is not None:
        raise Refused(f"the log is damaged at {result.problem}")
    if header.game not in ({game} if isinstance(game, str) else game):
        raise Refused(f"the log is a game of {header.game[:40]!r}, which has no leaderboard"
                      if not isinstance(game, str) else
                      f"the log is a game of {header.game}, not {game}")
    if header.players != 1:
        raise Refused(f"the log is a {header.players}-player game; the leaderboard takes "
                      "solo games only")
    player = header.seat_names[0].strip() if header.seat_names else ""
    if not player:
        raise Refused("the log does not name its player")
    try:
        ruleset = rules(header)
    except HedgerowError as exc:
        raise Unverifiable(f"the log's rules are not installed here: {exc.message}") from None
    report = replay_log(ruleset, header, result.entries)
    if report.mismatch is not None and report.mismatch.kind == "rules":
        raise Unverifiable(f"the log does not replay here: {report.mismatch}")
    if report.mismatch is not None:
        raise Refused(f"the log does not replay: {report.mismatch}")
    table = report.table
    outcome = table.outcome() if table is not None else None
    genesis = header.table_header.genesis
    chain = tuple(item.entry.digest for item in result.entries)

    def facts(game_id: bytes, score: int, rank: str, over: bool) -> Checked:
        return Checked(game_id.hex(), header.game, tuple(header.variants),
                       header.fingerprint, player, score, rank, over,
                       ruleset.spec.leaderboard_floor, header.seed, genesis, chain)

    if table is None or outcome is None or report.unlogged:
        if not unfinished:
            raise Refused("the game in the log is not over")
        if claimed is not None:
            raise Refused("a score is claimed for a game that is not over")
        return facts(chain[-1] if chain else genesis, ruleset.spec.leaderboard_floor,
                     UNFINISHED, False)
    if not isinstance(outcome, Solo):
        raise Refused(f"the game in the log ends in a {outcome.kind} result, not a solo score")
    if claimed is not None and claimed != outcome.score:
        raise Refused(f"the log replays to {outcome.score} points, not the {claimed} claimed")
    return facts(table.head, outcome.score, outcome.grade, True)


def log_of_table(table: Table, seat_names: Sequence[str]) -> bytes:
    """The log file (bytes) of ``table``: its header with ``seat_names``, then every entry
    with the state hash after it, as a networked seat writes it while playing.

    The states are rebuilt by following the entries on a fresh table of the same rules and
    seed (the table keeps only its current state).
    """
    fresh = Table(table.ruleset, table.players, table.header.seed)
    made: dict[int, Applied] = {a.entry.index: a for a in fresh.opening}
    entries = table.entries
    for entry in entries:
        if entry.index in made:
            continue
        followed = fresh.follow(entry.index, entry.seat, entry.action, prev=entry.prev)
        if isinstance(followed, Refusal):  # the table accepted it: a bug, not bad input
            raise HedgerowError(f"entry #{entry.index} does not follow again: {followed}")
        made.update((a.entry.index, a) for a in followed)
    header = LogHeader.for_table(table.ruleset, table.players, table.header.seed,
                                 seat_names=tuple(seat_names))
    with tempfile.TemporaryDirectory(prefix="hedgerow-log-") as folder:
        path = Path(folder) / "table.hlog"
        with LogWriter(path, header, sync=False) as writer:
            for entry in entries:
                writer.append(entry, fresh.hash_of(made[entry.index].after))
        return path.read_bytes()


def board_name(variants: Sequence[str]) -> str:
    """How a board's variant set is named: sorted names joined by ``+``, ``""`` for none."""
    return "+".join(sorted(variants))


def check_record(record: GameRecord, rules: Callable[[LogHeader], Ruleset], *,
                 game: str | Set[str]) -> Checked:
    """What a shared-board record proves, or `Refused`: well formed, signed by its player's
    key, a log that replays (finished or not), and a deal from the board's seed for that
    player, week and game number (`hedgerow.net.boardrecord.deal_seed`)."""
    if (problem := record.problem()) is not None:
        raise Refused(f"a malformed record: {problem}")
    try:
        date.fromisocalendar(int(record.week[:4]), int(record.week[6:]), 1)
    except ValueError:
        raise Refused(f"{record.week} is not a week") from None
    if not record.signed():
        raise Refused(f"the signature is not {key_text(record.player)[:8]}'s: the record was "
                      "altered, or signed by another key")
    checked = check_log(record.log, rules, game=game, unfinished=True)
    expected = deal_seed(record.player, checked.game, board_name(checked.variants),
                         record.week, record.number)
    if checked.seed != expected:
        raise Refused(f"the deal is not the board's deal for game {record.number + 1} of "
                      f"{record.week} of key {key_text(record.player)[:8]} (a game with a "
                      "dictated seed never counts)")
    return checked
