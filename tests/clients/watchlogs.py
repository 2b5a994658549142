"""Table logs for the replay viewer's tests: real ones, as peers write them.

* `sealed_logs` (a session fixture): one finished game of each built-in game at a sealed
  table of real peers over CURVE on 127.0.0.1, in this process, random bots in every seat
  (`departing.sealed_table`, `play_bot`): every seat's log, with its seal file and table
  file beside it, as a person's seat keeps them;
* `open_log`: an open-deck game played to the end (or for some moves) by a table in this
  process and logged as a seat's peer logs it (a fingerprint marking the open deck);
* `cut`: a copy of a log that ends after entry ``k`` (the records before it kept, the seal
  file copied), i.e. the log of a game under way, as its writer had it then.
"""

from __future__ import annotations

import asyncio
import random
import shutil
from pathlib import Path

import pytest
from departing import sealed_table

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.net import sealfile
from hedgerow.net.codec import decode_log_record
from hedgerow.net.logfile import MAGIC, LogWriter
from hedgerow.net.messages import LoggedEntry, LogHeader
from hedgerow.net.rulesmatch import table_fingerprint

#: (game, players) of the sealed games played for the tests.
GAMES = (("petals", 2), ("flowers", 2), ("mandala", 2), ("flourish", 3))
WAIT = 120.0


def play_sealed(game: str, players: int) -> list[Path]:
    """Play one sealed game of ``game`` with random bots; every seat's log, by seat."""
    async def main() -> list[Path]:
        peers = await sealed_table(game, (), players)
        try:
            spec = PluginHost().bot("random")
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [0] * players, [p.problem() for p in peers]
            assert {p.verdict() for p in peers} == {"every shuffle, key and action checks out"}
            paths = [p.log_path() for p in peers]
            assert all(path is not None for path in paths)
            return [Path(str(path)) for path in paths]
        finally:
            for p in peers:
                await p.close()

    return asyncio.run(asyncio.wait_for(main(), WAIT))


@pytest.fixture(scope="session")
def sealed_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """A finished sealed game of each built-in game: every seat's log, by game."""
    home = tmp_path_factory.mktemp("sealed-games")
    found = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HEDGEROW_HOME", str(home))
        for game, players in GAMES:
            found[game] = play_sealed(game, players)
    return found


def open_log(path: Path, game: str = "petals", players: int = 2, *, seed: int = 1,
             moves: int | None = None, own_seat: int = 0,
             names: tuple[str, ...] = ()) -> Path:
    """A seat's log of an open-deck table of ``game``, played with random legal actions
    (after ``moves`` turns or steps, or to the end)."""
    plugins = PluginHost()
    ruleset = plugins.ruleset(game, (), players)
    table_seed = seed_from_int(seed)
    fingerprint = table_fingerprint(ruleset, open_deck=True)
    table = Table(ruleset, players, table_seed, fingerprint=fingerprint)
    header = LogHeader.for_table(ruleset, players, table_seed, table_id=bytes(range(16)),
                                 own_seat=own_seat, fingerprint=fingerprint,
                                 seat_names=names or tuple(f"Bot {s}" for s in range(players)))
    choose = random.Random(seed)  # test tooling: which legal action each seat takes
    done = 0
    with LogWriter(path, header, sync=False) as writer:
        for applied in table.opening:
            writer.append(applied.entry, table.hash_of(applied.after))
        while table.active_seats() and (moves is None or done < moves):
            # (a turn is a step of one choice)
            result = table.submit_step({s: choose.choice(list(table.legal_actions(s)))
                                        for s in table.active_seats()})
            assert isinstance(result, tuple), result
            for applied in result:
                writer.append(applied.entry, table.hash_of(applied.after))
            done += 1
    return path


def cut(source: Path, entries: int, target: Path, *, seal: bool = True) -> Path:
    """A copy of ``source`` holding its first ``entries`` entries and the records written
    before the next one (the log of the game under way at that point), with the seal file
    beside it unless ``seal`` is False."""
    data = source.read_bytes()
    pos, seen = len(MAGIC), -1
    end = len(data)
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "little")
        record = decode_log_record(data[pos + 8:pos + 8 + length])
        if isinstance(record, LoggedEntry):
            seen += 1
            if seen == entries:
                end = pos
                break
        pos += 8 + length
    target.write_bytes(data[:end])
    if seal:
        shutil.copy(sealfile.path_for(source), sealfile.path_for(target))
    return target
