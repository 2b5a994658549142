"""Host and join from one user data folder (two terminals of one person on one machine).

One identity holds one seat, so the join must not use the host's key: it takes a second
local identity on its own and says so, or ``--as NAME`` gives each local player a key.
No environment variable is set beyond the test's own data folder (``HEDGEROW_HOME``, which
both processes share as one user's would) and discovery off.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from e2e.helpers import Table, hedgerow, peer_env
from e2e.test_tmux_play import TMUX, Terminal, title

from hedgerow.net import tablefile
from hedgerow.net.keys import key_text, load_identity

pytestmark = pytest.mark.e2e


@pytest.mark.timeout(90)
def test_host_and_join_from_one_data_folder_seat_two_players(tmp_path: Path) -> None:
    env = peer_env(tmp_path / "home")
    table = Table()
    try:
        host, address = table.host("petals", 2, "--bot", "random", env=env)
        joiner = table.join(address, "--bot", "random", env=env)
        assert joiner.wait_event("joined")["seat"] == 1
        host_status, host_result = host.finish()
        join_status, join_result = joiner.finish()
        assert (host_status, join_status) == (0, 0), joiner.stderr + host.stderr
        assert host_result and join_result
        assert host_result["state_hash"] == join_result["state_hash"]
        assert "hosted with your own identity" in joiner.stderr
        assert "local player 2" in joiner.stderr
        # The seat remembers the identity it was played with, for `hedgerow resume`.
        saved = tablefile.load(Path(join_result["log"]))
        assert saved.key_file is not None and saved.key_file.endswith("player-2.key_secret")
        keys = {p.seat: p.public_key for p in saved.peers}
        assert keys[0] != keys[1]
    finally:
        table.close()


@pytest.mark.timeout(90)
def test_as_name_keeps_a_key_per_local_player(tmp_path: Path) -> None:
    env = peer_env(tmp_path / "home")
    table = Table()
    try:
        host, address = table.host("petals", 2, "--bot", "random", "--as", "ann", env=env)
        joiner = table.join(address, "--bot", "random", "--as", "bob", env=env)
        assert joiner.wait_event("joined")["seat"] == 1
        assert (host.finish()[0], joiner.finish()[0]) == (0, 0), joiner.stderr
        assert "hosted with your own identity" not in joiner.stderr
        players = tmp_path / "home" / "keys" / "players"
        assert sorted(p.name for p in players.glob("*.key_secret")) == [
            "ann.key_secret", "bob.key_secret"]
    finally:
        table.close()


def test_a_key_file_that_is_the_tables_own_is_refused_naming_why(tmp_path: Path) -> None:
    env = peer_env(tmp_path / "home")
    table = Table()
    try:
        _host, address = table.host("petals", 2, "--bot", "random", env=env)
        own = str(tmp_path / "home" / "keys" / "identity.key_secret")
        done = hedgerow("join", address, "--bot", "random", "--key-file", own, env=env)
        assert done.returncode == 2, done.stdout + done.stderr
        assert "is the identity this table is hosted with" in done.stderr
        assert "--as NAME" in done.stderr
        assert done.stderr.count("\n") == 1
    finally:
        table.close()


def playing(screen: str) -> bool:
    """The table screen, play under way (not the seating room, not the seed agreement)."""
    return "Players" in screen and not any(w in title(screen) for w in ("Seating", "Seeding"))


@pytest.mark.timeout(90)
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: .ci/run)")
def test_two_terminals_on_one_machine_seat_two_people(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run = (f"env -u USER HEDGEROW_HOME={home} HEDGEROW_NO_DISCOVERY=1 {sys.executable} "
           "-m hedgerow.clients.cli")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = Terminal(tmp_path / "a", f"{run} host petals --players 2 --bind 127.0.0.1 --name ann")
    second: Terminal | None = None
    try:
        screen = first.wait(lambda s: "hedgerow join 127.0.0.1:" in s, "the seating room")
        line = next(x for x in screen.splitlines() if "hedgerow join 127.0.0.1:" in x)
        address = line.split("hedgerow join ", 1)[1].split()[0]
        assert address.endswith(key_text(load_identity(home / "keys" / "identity.key_secret")
                                          .public))
        second = Terminal(tmp_path / "b", f"{run} join {address}")
        second.wait(playing, "the joiner's table screen")
        first.wait(playing, "the host's table screen")
        # Two seats, two identities: each seat's table file names its own key.
        logs = sorted((home / "logs").glob("*.hlog"))
        assert [p.name[-10:] for p in logs] == ["seat0.hlog", "seat1.hlog"]
        saved = [tablefile.load(p) for p in logs]
        assert saved[0].key_file is None
        assert saved[1].key_file is not None and "player-2" in saved[1].key_file
        (keys,) = {tuple(p.public_key for p in s.peers) for s in saved}
        assert keys[0] != keys[1]
    finally:
        first.close()
        if second is not None:
            second.close()
