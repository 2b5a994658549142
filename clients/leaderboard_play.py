"""A board game played on this machine: its deal, its start, its record (docs/leaderboard.md).

A solo game of a game with a board (FLOWERS), played by a person without ``--seed``, is a
*board game*: `board_deal` fixes it before anything is dealt: the player's key (this
user's identity), the ISO week of this machine's clock, the player's next game number in
that week on that board, and the seed `hedgerow.net.boardrecord.deal_seed` gives them.
`deal_notice` is what the screen says before the deal; `start_game` signs and keeps the
*start record* (the log's header alone: the game counts from now on, at the game's floor);
`record_played` signs and keeps the log the seat wrote, finished or not, and says what
the board now holds.  A game left unfinished and finished later (``hedgerow resume``) is
picked up by `refresh_own`, which every board command runs: the log file's path is kept
beside the start record (``own_logs``) from the moment the seat has one, so a game whose
process was killed is found too.

Records are kept only through `take`, the same gate records from other machines pass.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Set
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from hedgerow.clients.leaderboard import (
    Added,
    Clock,
    IsoWeek,
    Leaderboard,
    board_name,
    boards,
    fingerprint,
    leaderboard_command,
    utc_now,
)
from hedgerow.clients.leaderboard_check import Checked, check_record
from hedgerow.core.errors import HedgerowError
from hedgerow.core.ruleset import Ruleset
from hedgerow.net.boardrecord import GameRecord, deal_seed, sign_record
from hedgerow.net.keys import Identity
from hedgerow.net.logfile import LogWriter, read_log
from hedgerow.net.messages import LogHeader

log = logging.getLogger(__name__)

Rules = Callable[[LogHeader], Ruleset]


@dataclass(frozen=True, slots=True)
class BoardDeal:
    """One board game of ``identity``: game ``number`` (from 0) of ``week``."""

    identity: Identity
    ruleset: Ruleset
    name: str
    week: IsoWeek
    number: int

    @property
    def seed(self) -> bytes:
        """The deal's seed: the board's, never the player's."""
        return deal_seed(self.identity.public, self.ruleset.spec.name,
                         board_name(self.ruleset.variant_names), str(self.week), self.number)

    @property
    def header(self) -> LogHeader:
        """The start record's log header (the seat's own log adds its table id)."""
        return self.header_for(None)

    def header_for(self, fingerprint: str | None) -> LogHeader:
        """The start record's log header with the table's ``fingerprint`` (None: the
        rules'; a networked table's dictated deal is an open deck, and its fingerprint says
        so: docs/protocol.md §10.12)."""
        return LogHeader.for_table(self.ruleset, 1, self.seed, own_seat=0,
                                   seat_names=(self.name,), fingerprint=fingerprint)


def is_board_game(ruleset: Ruleset, players: int, dictated: bool) -> bool:
    """Whether a game of ``ruleset`` for ``players`` counts on a board: solo, a game with a
    board, and a deal nobody dictated."""
    return players == 1 and ruleset.spec.leaderboard and not dictated


def board_deal(ruleset: Ruleset, identity: Identity, name: str, *, clock: Clock = utc_now,
               store: Leaderboard) -> BoardDeal:
    """The next board game of ``identity`` on ``ruleset``'s board, this week."""
    week = IsoWeek.of(clock())
    number = store.next_number(identity.public, ruleset.spec.name, ruleset.variant_names,
                               week)
    return BoardDeal(identity, ruleset, name, week, number)


def deal_notice(deal: BoardDeal, *, resumable: bool = True) -> list[str]:
    """What the screen says before the deal (lines of at most 80 characters): that it
    counts, from when, and what leaving costs (``resumable``: whether a game left can be
    finished later, as a networked seat's can with ``hedgerow resume``; ``--local`` play's
    cannot)."""
    spec = deal.ruleset.spec
    board = "".join(f" + {v}" for v in deal.ruleset.variant_names)
    floor = spec.leaderboard_floor
    later = ("until you finish it (hedgerow resume)." if resumable else
             "for good: a game played with --local cannot be resumed.")
    return [
        f"This {spec.title}{board} game counts on the weekly leaderboard the LAN shares:",
        f"game {deal.number + 1} of {deal.week} for {deal.name} "
        f"(key {fingerprint(deal.identity.public)}).",
        "Its deal comes from your key, the week and the game's number: nobody chooses it,",
        "and it is never dealt again. It counts from the moment it is dealt: if you",
        f"leave before the end, it counts {floor} points (no finished game scores less)",
        later,
        f"To practise without counting: hedgerow play {spec.name} --players 1 --seed N",
    ]


def take(store: Leaderboard, record: GameRecord, rules: Rules, games: Set[str] | str, *,
         via: str, at: datetime) -> tuple[Checked, Added]:
    """Check ``record`` (`check_record`) and keep it; `Refused` if it fails."""
    checked = check_record(record, rules, game=games)
    return checked, store.add(record, checked, via=via, at=at)


def _header_log(header: LogHeader) -> bytes:
    with tempfile.TemporaryDirectory(prefix="hedgerow-board-") as folder:
        path = Path(folder) / "start.hlog"
        with LogWriter(path, header, sync=False):
            pass
        return path.read_bytes()


def start_game(deal: BoardDeal, store: Leaderboard, *, clock: Clock = utc_now,
               fingerprint: str | None = None) -> None:
    """Sign and keep the start record of ``deal``: from now on the game counts.
    ``fingerprint``: the seat's table's, as its log will carry it (None: the rules')."""
    record = sign_record(deal.identity, str(deal.week), deal.number,
                         _header_log(deal.header_for(fingerprint)))
    take(store, record, lambda _h: deal.ruleset, deal.ruleset.spec.name, via="here",
         at=clock())


def record_log(identity: Identity, week: str, number: int, log: bytes, store: Leaderboard,
               rules: Rules, games: Set[str] | str, *,
               clock: Clock = utc_now) -> tuple[Checked, Added]:
    """Sign ``log`` as ``identity``'s game ``number`` of ``week`` and keep it."""
    record = sign_record(identity, week, number, log)
    return take(store, record, rules, games, via="here", at=clock())


def record_played(deal: BoardDeal, log_path: str | Path | None, *, claimed: int | None = None,
                  clock: Clock = utc_now, store: Leaderboard, resumable: bool = True) -> str:
    """Keep what the seat of ``deal`` wrote (finished or not); a line for the player."""
    if log_path is None:
        return (f"Not recorded on the leaderboard: this seat kept no log (game "
                f"{deal.number + 1} of {deal.week} counts as unfinished)")
    try:
        log = Path(log_path).read_bytes()
        checked, _ = record_log(deal.identity, str(deal.week), deal.number, log, store,
                                lambda _h: deal.ruleset, deal.ruleset.spec.name, clock=clock)
    except OSError as exc:
        return f"Not recorded on the leaderboard: cannot read the log: {exc}"
    except HedgerowError as exc:
        return f"Not recorded on the leaderboard: {exc.message}"
    see = leaderboard_command(deal.ruleset.spec.name, deal.ruleset.variant_names)
    if not checked.over:
        if resumable:
            store.remember_log(deal.identity.public, str(deal.week), deal.number,
                               Path(log_path))
        until = "until you finish it (hedgerow resume)" if resumable else "for good"
        return (f"Game {deal.number + 1} of {deal.week} is on the leaderboard as unfinished: "
                f"it counts {checked.score} points\n{until}. See: {see}")
    store.forget_log(deal.identity.public, str(deal.week), deal.number)
    if claimed is not None and claimed != checked.score:
        return (f"The log replays to {checked.score} points, not the {claimed} shown: "
                "the board keeps the replay's")
    return (f"Recorded on the leaderboard: game {deal.number + 1} of {deal.week}, "
            f"{checked.player}, {checked.score} points ({checked.rank}).\nSee: {see}")


def refresh_own(identity: Identity, store: Leaderboard, rules: Rules, games: Set[str], *,
                clock: Clock = utc_now) -> list[str]:
    """Keep the newer logs of this key's unfinished games (finished with ``hedgerow
    resume`` since): a line for each game that moved on."""
    rows = store.own_logs(identity.public)
    lines = []
    for week, number, path in rows:
        try:
            log = path.read_bytes()
            checked, added = record_log(identity, week, number, log, store, rules, games,
                                        clock=clock)
        except FileNotFoundError:  # removed: the game stays as the board holds it
            store.forget_log(identity.public, week, number)
            continue
        except (OSError, HedgerowError):
            continue
        if checked.over:
            store.forget_log(identity.public, week, number)
        if added in (Added.REPLACED, Added.CONFLICT):
            state = f"{checked.score} points ({checked.rank})" if checked.over else "unfinished"
            lines.append(f"Game {number + 1} of {week} updated from its log: {state}")
    return lines


class BoardSession:
    """A board game of ``hedgerow play`` from its notice to its record, with this machine's
    board service running meanwhile (so the LAN can pull the game as it goes).

    `prepare` shows `deal_notice` and asks before anything is dealt; `start` (once the
    table exists, before its deal is shown) keeps the start record and where the seat
    writes its log, and starts sharing; `finish` keeps the seat's log, tells the machines
    found that there is something new, gives them up to `LINGER` seconds to pull it, and
    stops.  ``resumable`` is False for ``--local`` play (a game left there cannot be taken
    up again).
    """

    #: Seconds the service stays up after the game so that the machines nudged can pull it.
    LINGER = 2.0

    def __init__(self, plugins: Any, deal: BoardDeal, *, clock: Clock = utc_now,
                 resumable: bool = True) -> None:
        self.deal = deal
        self.resumable = resumable
        self._plugins = plugins
        self._clock = clock
        self._share: Any = None
        self._started = False

    @classmethod
    def prepare(cls, plugins: Any, ruleset: Ruleset, name: str, *,
                ask: Callable[[str], str] = input, clock: Clock = utc_now,
                identity: Identity | None = None,
                resumable: bool = True) -> BoardSession | None:
        """The session of the next board game, once the person said yes; None if not."""
        from hedgerow.net.keys import load_identity

        identity = identity or load_identity()
        with Leaderboard() as store:
            for line in refresh_own(identity, store, _rules(plugins), set(boards(plugins.games)),
                                    clock=clock):
                print(line)
            deal = board_deal(ruleset, identity, name, clock=clock, store=store)
        print("\n".join(deal_notice(deal, resumable=resumable)))
        try:
            answer = ask("Press Enter to deal, or q and Enter to stop: ")
        except EOFError:
            answer = "q"
        if answer.strip().lower() not in ("", "y", "yes"):
            print("Nothing was dealt.")
            return None
        return cls(plugins, deal, clock=clock, resumable=resumable)

    @property
    def seed(self) -> bytes:
        """The seed to deal the table from."""
        return self.deal.seed

    async def start(self, log_path: str | Path | None) -> None:
        """Keep the start record (the game counts from now on) and where the seat writes
        the game's log (``log_path``, so that `refresh_own` finds it however this process
        ends), then share the board while the game lasts.  `HedgerowError` when the start
        record cannot be kept: the game must then not be played (it would not count, so
        leaving it would cost nothing)."""
        from hedgerow.clients.leaderboard_share import BoardShare

        deal = self.deal
        store = Leaderboard()
        try:
            start_game(deal, store, clock=self._clock, fingerprint=_fingerprint_of(log_path))
            if log_path is not None and self.resumable:
                store.remember_log(deal.identity.public, str(deal.week), deal.number,
                                   Path(log_path))
        except BaseException:
            store.close()
            raise
        self._started = True
        share = BoardShare(deal.identity, _rules(self._plugins), set(boards(self._plugins.games)),
                           store=store, clock=self._clock)
        try:
            await share.start()
        except (OSError, HedgerowError) as exc:
            log.warning("the leaderboard is not shared during this game: %s", exc)
            await share.close()
            return
        self._share = share

    async def finish(self, log_path: str | Path | None, claimed: int | None) -> str | None:
        """Keep the seat's log; the line for the person (None when the game never started:
        `start` failed)."""
        share, self._share = self._share, None
        if not self._started:
            return None
        if share is None:
            with Leaderboard() as store:
                return record_played(self.deal, log_path, claimed=claimed,
                                     clock=self._clock, store=store,
                                     resumable=self.resumable)
        try:
            line = record_played(self.deal, log_path, claimed=claimed, clock=self._clock,
                                 store=share.store, resumable=self.resumable)
            if share.peers:
                share.nudge_all()
                await share.settle(self.LINGER)
        finally:
            await share.close()
        return line


def _fingerprint_of(log_path: str | Path | None) -> str | None:
    """The table fingerprint in the header of the seat's log, if it has begun one."""
    if log_path is None or not Path(log_path).exists():
        return None
    header = read_log(log_path).header
    return header.fingerprint if header is not None else None


def _rules(plugins: Any) -> Rules:
    return lambda h: plugins.ruleset(h.game, h.variants, h.players)
