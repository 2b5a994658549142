"""A seat cut off during its own turn on the simulated LAN (docs/protocol.md §5.9, "A seat
cut off at its own turn"; docs/reliability.md).

Three hosts, one headless bot peer each (real processes, real ZeroMQ over CURVE), an
open-deck Petals table with ``--take-over-after 3``.  The last joiner's port on the bridge
goes down right after the seat before it played, so it authors its own entry while nobody
hears it (its bot waits 3 s before each move: the partition must land inside that wait,
and on a busy machine reading the event and running `ip` took longer than 1.5 s); it
stays down 12 s, long enough for the others to see it lost and seat a bot that plays
another entry for it, and for the cut peer, alone, to be refused a bot for the others (it
is no majority).  When the port comes back the cut peer takes its entry back, reclaims its
seat and plays on: every peer finishes with the same hash, every log verifies and holds
the same entries, and the cut peer's log has the rollback before its takeover and
reclaim.  The same cut at a person's seat (the seat
client in tmux, 80x24): the player plays while cut off, and once back is told that their
move never reached the table and the bot's stands, and plays on.

The bot may make the very move the cut seat made (a random bot with few choices: 1 table
of 13 here).  Then the table holds the cut seat's entry, nothing is taken back, and the
cut seat refuses the takeover (§5.9); the table still finishes as one, which is checked,
and the test plays another table, since the case under test did not come up.  A third test
makes that case certain: every bot plays its first legal action.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from e2e.helpers import PeerProcess, hedgerow, peer_env
from e2e.test_tmux_play import TMUX, Terminal
from reliability.lan import Lan

from hedgerow.net.logfile import read_log

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("lan_ok")]


#: The bot peers' arguments at the tables cut at a seat's own turn.
BOT = ("--bot", "random", "--take-over-after", "3", "-v")


def cut_at_its_turn(lan: Lan, envs: list[dict[str, str]],
                    peers: list[PeerProcess], bot: tuple[str, ...] = BOT) -> dict[str, Any]:
    """Seat a host and two joiners on ``lan`` (each put in ``peers`` as it starts, for the
    caller to stop), then cut seat 2's port right after seat 1 played, at seat 2's own turn:
    its bot waits 3 s before each move, and the partition must land inside that wait.  The
    event of seat 1's action as the cut peer saw it."""
    host = PeerProcess(["host", "petals", "--players", "3", "--open-deck", "--json", *bot,
                        "--delay", "0.7"], envs[0], lan[0].prefix())
    peers.append(host)
    address = host.wait_event("open")["address"]
    peers.append(PeerProcess(["join", address, "--json", *bot, "--delay", "0.7"], envs[1],
                             lan[1].prefix()))
    assert peers[1].wait_event("joined")["seat"] == 1
    cut = PeerProcess(["join", address, "--json", *bot, "--delay", "3"], envs[2],
                      lan[2].prefix())
    peers.append(cut)
    assert cut.wait_event("joined")["seat"] == 2
    before = cut.wait_event(lambda e: e.get("event") == "action" and e.get("seat") == 1
                            and e.get("index", 0) >= 3, timeout=60)
    lan.partition(2)  # seat 2's turn: its bot moves in 3 s, heard by nobody
    return before


def authored_alone(cut: PeerProcess, index: int) -> int:
    """How many entries the cut peer applied from ``index`` on before its rollback: its
    seat's own, one after another (a Petals move whose symbol triggers an effect is followed
    by the same seat's effect entry, so the seat may author two while nobody hears it).
    The first entry at ``index`` again is the bot's, after the rollback."""
    count = 0
    for event in cut.events:
        if event.get("event") != "action" or event.get("index", -1) < index:
            continue
        if event["index"] != index + count or event.get("seat") != 2:
            break
        count += 1
    return count


def finished_as_one(peers: list[PeerProcess], results: list[tuple[int, Any]],
                    envs: list[dict[str, str]]) -> str:
    """Check that the table finished as one: every peer (``results``: what each one's
    ``finish`` gave) exited 0 with the same hash, and every log verifies and holds the same
    entries.  Every peer's stderr, for the caller's messages."""
    stderr = "\n".join(f"--- seat {i}:\n{p.stderr[-3000:]}" for i, p in enumerate(peers))
    assert [code for code, _ in results] == [0] * len(peers), stderr
    assert len({r["state_hash"] for _, r in results if r}) == 1, stderr
    logs = [r["log"] for _, r in results if r]
    for log, env in zip(logs, envs, strict=True):
        verified = hedgerow("replay", log, "--verify", env=env, timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    entries = [[e.entry for e in read_log(log).entries] for log in logs]
    assert all(e == entries[0] for e in entries), stderr
    return stderr


#: When the bot happened to make the very move the cut seat made, the table holds the cut
#: seat's own entry there and it takes nothing back (docs/protocol.md §5.9; with a random
#: bot's few choices in Petals it came up in 1 of 13 tables run here, and once in CI): the
#: cut peer's warning, and the refusal of the takeover the runner is told of.
SAME_MOVE = "another peer holds this seat's entries"
SAME_MOVE_REFUSED = "itself, after the takeover from"

#: Tables tried before a cut whose bot made another move than the cut seat's is given up on.
TRIES = 4


def test_a_seat_cut_off_at_its_own_turn_takes_its_entry_back_and_the_table_finishes() -> None:
    for _ in range(TRIES):
        if cut_table_finishes():
            return
    pytest.fail(f"in {TRIES} tables the bot made the cut seat's own move every time")


def test_a_bot_that_makes_the_cut_seats_own_move_takes_nothing_back() -> None:
    """Every seat's bot plays its first legal action, so the bot the runner seats makes the
    cut seat's very move: the table holds the cut seat's entry, which it keeps (§5.9)."""
    assert not cut_table_finishes(("--bot", "first", "--take-over-after", "3", "-v"),
                                  plugins="reliability.firstbot")


def cut_table_finishes(bot: tuple[str, ...] = BOT, plugins: str = "") -> bool:
    """One table cut at seat 2's turn (the test above): False when the bot made the cut
    seat's own move (the table still finishes as one, checked here, but nothing is taken
    back and the case under test did not come up)."""
    with Lan(3) as lan:
        envs = [peer_env(plugins=plugins) for _ in range(3)]
        peers: list[PeerProcess] = []
        try:
            cut_at_its_turn(lan, envs, peers, bot)
            cut = peers[2]
            time.sleep(12)
            lan.heal(2)
            results = [p.finish(timeout=120) for p in peers]
            stderr = finished_as_one(peers, results, envs)
            kinds = [e["kind"] for e in results[2][1]["seat_events"]]  # type: ignore[index]
            if SAME_MOVE in cut.stderr:
                assert kinds == [], stderr
                assert SAME_MOVE_REFUSED in peers[0].stderr, stderr  # (its takeover's)
                assert "is its player's again" in peers[0].stderr, stderr  # (its bot stopped)
                return False
            assert kinds == ["rollback", "takeover", "reclaim"], f"{kinds}\n{stderr}"
            rollback = results[2][1]["seat_events"][0]  # type: ignore[index]
            taken = authored_alone(cut, rollback["index"])
            assert taken, cut.events
            said = "entry" if taken == 1 else "entries"
            assert f"took back our {taken} {said} from #{rollback['index']}" in cut.stderr, \
                cut.stderr
            assert "refused SeatTaken" not in cut.stderr
            return True
        finally:
            for p in peers:
                p.stop()


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: .ci/run)")
def test_a_person_cut_off_at_their_turn_is_told_their_move_was_taken_back(tmp_path: Path
                                                                          ) -> None:
    for attempt in range(TRIES):
        if person_told(tmp_path / str(attempt)):
            return
    pytest.fail(f"in {TRIES} tables the bot made the cut person's own move every time")


def person_told(tmp_path: Path) -> bool:
    """One table where Bea (in tmux) is cut at her turn: False when the bot made her very
    move (nothing to tell her then)."""
    tmp_path.mkdir()
    with Lan(3) as lan:
        envs = [peer_env() for _ in range(3)]
        bot = ("--bot", "random", "--take-over-after", "3", "--delay", "1.0")
        host = PeerProcess(["host", "petals", "--players", "3", "--open-deck", "--json", *bot],
                           envs[0], lan[0].prefix())
        peers = [host]
        term = None
        try:
            address = host.wait_event("open")["address"]
            peers.append(PeerProcess(["join", address, "--json", *bot], envs[1],
                                     lan[1].prefix()))
            peers[1].wait_event("joined")
            command = (f"{' '.join(lan[2].prefix())} env HEDGEROW_HOME={envs[2]['HEDGEROW_HOME']} "
                       f"HEDGEROW_NO_DISCOVERY=1 {sys.executable} -m hedgerow.clients.cli join "
                       f"{address} --name Bea")
            term = Terminal(tmp_path, command)
            term.wait(lambda s: "Your turn" in s, "Bea's turn", 90)
            lan.partition(2)
            term.keys("Enter")  # Bea plays while nobody hears her
            term.wait(lambda s: "Waiting for" in s, "her move, made here")
            time.sleep(12)  # the others see her lost and seat a bot, which plays her turn
            lan.heal(2)
            screen = term.wait(lambda s: "never reached the table" in s
                               or SAME_MOVE_REFUSED in host.stderr, "the news", 60)
            if "never reached the table" not in screen:
                return False  # (the bot made her move: the table holds it, nothing to tell)
            rows = screen.splitlines()
            assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), screen
            text = " ".join(screen.split())
            assert "You were cut off: your move never reached the table, so the one a bot " \
                   "made for you stands" in text, screen
            screen = term.wait(lambda s: "You play your seat again" in s, "her seat back", 60)
            assert "Stopped" not in screen and "desync" not in screen, screen
            return True
        finally:
            if term is not None:
                term.close()
            for p in peers:
                p.stop()
