"""The networked commands' answers to bad input: one clear line and a non-zero exit.

``hedgerow replay --verify`` on sound, damaged and forged logs; ``join`` and ``resume``
with arguments that cannot work.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e.helpers import hedgerow, peer_env

from hedgerow.core.outcome import headline
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.net.keys import generate, key_text
from hedgerow.net.logfile import LogWriter
from hedgerow.net.messages import LogHeader

pytestmark = pytest.mark.e2e


def write_log(path: Path, *, forge_at: int | None = None) -> str:
    """A complete Petals log as a peer of an open-deck table writes it (``forge_at``: a
    wrong state hash there)."""
    from hedgerow.core.table import Table
    from hedgerow.net.rulesmatch import table_fingerprint

    plugins = PluginHost()
    ruleset = plugins.ruleset("petals", (), 3)
    seed = seed_from_int(5)
    finished = play(ruleset, 3, seed, [plugins.bot("random")])
    fingerprint = table_fingerprint(ruleset, open_deck=True)
    replay = Table(ruleset, 3, seed, fingerprint=fingerprint)
    header = LogHeader.for_table(ruleset, 3, seed, table_id=bytes(16), own_seat=0,
                                 seat_names=("ann", "bob", "cy"), fingerprint=fingerprint)
    with LogWriter(path, header, sync=False) as writer:
        applied = list(replay.opening)  # the deal, chance entry #0
        for entry in finished.entries:
            result = replay.follow(entry.index, entry.seat, entry.action)
            assert isinstance(result, tuple), result
            applied += result
        for item in applied:
            entry = item.entry
            state_hash = replay.hash_of(item.after) if entry.index != forge_at else bytes(32)
            writer.append(entry, state_hash)
    assert [(e.seat, e.action) for e in replay.entries] == [
        (e.seat, e.action) for e in finished.entries]
    return finished.state_hash().hex()


def test_replay_verifies_a_sound_log_and_prints_a_game(tmp_path: Path) -> None:
    log = tmp_path / "game.hlog"
    final = write_log(log)
    done = hedgerow("replay", str(log), "--verify", env=peer_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: ") and final in done.stdout
    shown = hedgerow("replay", str(log), env=peer_env())
    assert shown.returncode == 0
    lines = shown.stdout.splitlines()
    # Petals 2.0.0 deals through a chance node: the deal is entry #0, the first turn #1.
    assert lines[0] == f"petals@2.1.0, 3 seats, open deck, seed {seed_from_int(5).hex()}"
    assert lines[1].startswith("#0 chance: ")
    # each seat by its name at the table, where the rules' words say "Seat N"
    assert lines[2].split(" ")[1] in ("ann", "bob", "cy"), lines[2]
    assert not any("Seat " in line or "seat " in line for line in lines[1:-1]), shown.stdout
    # then who won, by name, in one line before the verdict
    outcome = play(PluginHost().ruleset("petals", (), 3), 3, seed_from_int(5),
                   [PluginHost().bot("random")]).outcome()
    assert outcome is not None
    assert lines[-2] == f"Result: {headline(outcome, ['ann', 'bob', 'cy'])}.", lines[-3:]
    assert lines[-1].startswith("ok: ")


def test_replay_names_the_entry_of_a_forged_state_hash(tmp_path: Path) -> None:
    log = tmp_path / "forged.hlog"
    write_log(log, forge_at=7)
    done = hedgerow("replay", str(log), "--verify", env=peer_env())
    assert done.returncode == 1
    assert done.stdout.startswith("FAILED: mismatch at entry #7: the state hash after")


def test_replay_names_where_a_damaged_file_breaks(tmp_path: Path) -> None:
    log = tmp_path / "damaged.hlog"
    write_log(log)
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0xFF
    log.write_bytes(bytes(data))
    done = hedgerow("replay", str(log), "--verify", "--json", env=peer_env())
    assert done.returncode == 1
    assert '"ok": false' in done.stdout and "the file is damaged at byte" in done.stdout
    garbage = tmp_path / "garbage.hlog"
    garbage.write_bytes(b"not a log at all")
    done = hedgerow("replay", str(garbage), "--verify", env=peer_env())
    assert done.returncode == 1 and "not a table log" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["join", "127.0.0.1:4567/short", "--bot", "random"], "is not a table key"),
    (["join", "127.0.0.1:4567", "--bot", "random"], "has no table key"),
    (["join", f"127.0.0.1:1/{key_text(generate().public)}", "--bot", "random", "--timeout",
      "0.5"], "no answer from the table"),
    # Nothing listens there: said after a few seconds of refused connections, not at the end
    # of the 30 s.
    (["join", f"127.0.0.1:1/{key_text(generate().public)}", "--bot", "random", "--timeout",
      "30"], "nothing listens at 127.0.0.1:1: check the address"),
    (["join", f"nosuch.invalid:4567/{key_text(generate().public)}", "--bot", "random",
      "--timeout", "30"], "the host name 'nosuch.invalid' did not resolve"),
    (["join", "127.0.0.1:4567/x", "--bot", "random", "--as", "../x"], "--as takes a short name"),
    (["join", f"127.0.0.1:1/{key_text(generate().public)}", "--bot", "nobody"],
     "unknown bot 'nobody'"),
    (["resume", "/no/such.hlog", "--bot", "random"], "no such log file"),
    (["host", "petals", "--players", "9", "--bot", "random"], "petals is for 2 to"),
    (["host", "petals", "--bot", "random", "--port", "70000"], "--port must be between"),
])
def test_bad_arguments_get_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = hedgerow(*args, env=peer_env())
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("hedgerow: error: ") and message in done.stderr
    assert done.stderr.count("\n") == 1


def test_resume_needs_the_table_file_and_the_seats_identity(tmp_path: Path) -> None:
    log = tmp_path / "game.hlog"
    write_log(log)
    done = hedgerow("resume", str(log), "--bot", "random", env=peer_env())
    assert done.returncode == 2 and "table.json is missing" in done.stderr
    from hedgerow.net import tablefile
    from hedgerow.net.messages import PeerInfo

    peers = tuple(PeerInfo(s, generate().public, f"tcp://127.0.0.1:{2000 + s}") for s in range(3))
    tablefile.save(log, tablefile.TableFile(bytes(16), 0, peers))
    done = hedgerow("resume", str(log), "--bot", "random", env=peer_env())
    assert done.returncode == 2 and "was played by another identity" in done.stderr


def test_a_wrong_table_key_is_named_at_once_and_the_table_goes_on() -> None:
    # A well-formed key that is not the host's: the CURVE handshake fails on every
    # connection, which the joiner sees within a few seconds (docs/protocol.md §1), so it says
    # nobody there answers to that key rather than waiting out its 30 s to blame the network.
    from e2e.helpers import Table

    from hedgerow.net.address import parse_address

    procs = Table()
    try:
        host, address = procs.host("petals", 2, "--bot", "random", env=peer_env())
        where = parse_address(address)
        wrong = f"127.0.0.1:{where.port}/{key_text(generate().public)}"
        done = hedgerow("join", wrong, "--bot", "random", "--timeout", "30", env=peer_env())
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.startswith(f"hedgerow: error: nobody at 127.0.0.1:{where.port} "
                                      "answers to the table key "), done.stderr
        assert "check the key after the / against the address" in done.stderr
        assert done.stderr.count("\n") == 1
        # The right key still joins, and the game is played.
        good = procs.join(address, "--bot", "random", env=peer_env())
        assert good.finish()[0] == 0 and host.finish()[0] == 0
    finally:
        procs.close()


def test_a_program_that_is_not_a_table_is_named_too() -> None:
    # Something listens, but speaks no CURVE at all (here a socket that accepts and closes).
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        done = hedgerow("join", f"127.0.0.1:{port}/{key_text(generate().public)}", "--bot",
                        "random", "--timeout", "30", env=peer_env())
    finally:
        server.close()
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"nobody at 127.0.0.1:{port} answers to the table key" in done.stderr
