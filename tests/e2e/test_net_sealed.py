"""The sealed deck between real processes: what a curious peer can learn, cheats, a kill -9.

Every table here is sealed (the default of ``hedgerow host``).  Bot peers play over CURVE
on 127.0.0.1.

* **A curious peer** (seat 0) keeps everything it receives and stores: its log holds every
  sealed message it was sent (shuffle passes, card keys, escrow) and every entry, beside
  its table file and the secret of its seal file.  Mid-game the test takes a copy of all of
  it and does what the peer's own code would do with it (`replay_sealed` with its secret
  opens every card it can): no card of another seat's hand that the rules did not show
  seat 0 opens, because another party's key for it is missing from the record (a masked
  card point without that key fits every card alike).  The attack that worked on the open
  deck, the game replayed from the seed in the log header, gives another hand than the
  one the seat holds.  Seat 1's own copy, with its own secret, names its hand, and the end
  of game verification agrees with it.  With three seats at Flourish, the cards two other
  seats pass each other stay sealed to the third.
* **Cheats** (tests/e2e/sealcheat.py): a peer that duplicates a card in its shuffle, one
  that sends a wrong key, one that plays a card it does not hold: every honest peer halts
  and names it.
* **kill -9 in the middle of a shuffle**: the peer resumes from its log and seal file,
  makes the same passes again, and the game finishes on one hash everywhere, every log
  verifying.  (A kill in the middle of a game: tests/e2e/test_net_game.py.)
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from e2e.helpers import PeerProcess, Table, hedgerow_each, peer_env

pytestmark = pytest.mark.e2e
GAME_WAIT = 120.0


def copy_of(log: str, into: Path) -> Path:
    """Everything a seat's process keeps of a table (its log, its seal file with its secret,
    its table file), copied now (the process goes on writing the originals)."""
    into.mkdir()
    source = Path(log)
    for suffix in ("", ".seal", ".table.json"):
        shutil.copy2(source.with_name(source.name + suffix), into)
    return into / source.name


def replay_as(ruleset: Any, log: Path, seat: int, players: int) -> Any:
    """Replay a seat's copy with its secret, as its own code would on resuming: the table
    (its information state) and the `Sealing` holding every key it received."""
    from hedgerow.net import sealfile
    from hedgerow.net.logfile import read_log
    from hedgerow.net.sealreplay import replay_sealed

    result = read_log(log)
    replayed = replay_sealed(ruleset, result, parties=players, party_of=lambda s: s, me=seat,
                             secret=sealfile.load(log), seats=[seat])
    assert replayed.mismatch is None, replayed.mismatch
    assert replayed.table is not None and replayed.sealing is not None
    return replayed


def unseen_cards(curious: Any, seat: int, other: int) -> set[Any]:
    """The sealed cards in ``other``'s view that ``seat``'s copy holds no face of."""
    table = curious.table
    return {k for k in table.seen_by(other)
            if k not in table.public and k not in table.mine and k not in table.seen_by(seat)}


def check_curious(ruleset: Any, players: int, copies: dict[int, Path],
                  pairs: list[tuple[int, int]]) -> dict[int, Any]:
    """For each (curious seat, other seat): the curious seat's record opens none of the
    other seat's cards it was not shown, because a key of another party is missing."""
    replays = {seat: replay_as(ruleset, path, seat, players) for seat, path in copies.items()}
    for seat, other in pairs:
        curious = replays[seat]
        hidden = unseen_cards(curious, seat, other)
        assert hidden, f"seat {other} holds no card hidden from seat {seat} yet"
        sealing = curious.sealing
        assert not set(sealing.disclosed) - {seat}  # no other secret before the end
        for card in hidden:
            keys = sealing._keys_for(card)
            assert len(keys) < players, (card, sorted(keys))
            assert other in range(players)
    return replays


def finish_all(peers: list[PeerProcess]) -> list[dict[str, Any]]:
    results = []
    for peer in peers:
        code, result = peer.finish(timeout=GAME_WAIT)
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished", result
        results.append(result)
    assert len({r["state_hash"] for r in results}) == 1
    assert {r["verified"] for r in results} == {"every shuffle, key and action checks out"}
    return results


def test_a_curious_peer_cannot_name_the_other_seats_hand(table: Table, tmp_path: Path) -> None:
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.sealed import plain
    from hedgerow.core.table import Table as Engine
    from hedgerow.net.logfile import read_log
    from hedgerow.net.logverify import replay

    slow = ("--bot", "random", "--delay", "0.4", "-v")
    host, address = table.host("petals", 2, *slow, env=peer_env())
    joiner = table.join(address, *slow, env=peer_env())
    joiner.wait_event("joined")
    logs = {0: host.wait_event("start")["log"], 1: joiner.wait_event("start")["log"]}
    for peer in (host, joiner):  # the deal and a move or two
        peer.wait_event(lambda e: e.get("event") == "action" and e["index"] >= 2)
    ruleset = PluginHost().ruleset("petals", (), 2)
    for attempt in range(50):
        copies = {seat: copy_of(log, tmp_path / f"seat{seat}-{attempt}")
                  for seat, log in logs.items()}
        replays = check_curious(ruleset, 2, copies, [(0, 1), (1, 0)])
        # Seat 1's own copy names its hand (its cards are faces in its information
        # state), once no card is on its way to it (a copy taken between a draw and the
        # keys that open it to seat 1 holds that one card sealed: taken again).
        own = replays[1].table
        hand = plain(own.info_state().hands[1])
        if all(type(card) is int for card in hand):
            break
        time.sleep(0.1)
    assert hand and all(type(card) is int for card in hand)
    # ...seat 0's shows it sealed, and the seed in the log header deals another game.
    assert all(type(card) is not int for card in replays[0].table.state.hands[1])
    header = read_log(copies[0]).header
    assert header is not None
    from_seed = Engine(ruleset, 2, header.seed).state.hands[1]
    assert sorted(from_seed) != sorted(hand)
    results = finish_all([host, joiner])
    # The end of game verification, with every secret, agrees with what seat 1 held.
    done = replay(ruleset, read_log(results[1]["log"]))
    assert done.verdict is not None and done.verdict.ok
    faces = done.verdict.faces
    sealed_hand = replays[0].table.state.hands[1]
    assert sorted(faces[card.key] for card in sealed_hand) == sorted(hand)


def test_a_third_seat_does_not_learn_the_cards_two_others_pass(table: Table,
                                                               tmp_path: Path) -> None:
    from hedgerow.core.pluginhost import PluginHost

    slow = ("--bot", "random", "--delay", "0.3", "-v")
    host, address = table.host("flourish", 3, *slow, env=peer_env())
    joiners = [table.join(address, *slow, env=peer_env()) for _ in range(2)]
    peers = [host, *joiners]
    logs = {0: host.wait_event("start")["log"]}
    for peer in joiners:
        logs[peer.wait_event("joined")["seat"]] = peer.wait_event("start")["log"]
    for peer in peers:  # the deal and two steps: cards passed both ways
        peer.wait_event(lambda e: e.get("event") == "action" and e["index"] >= 7)
    copies = {seat: copy_of(log, tmp_path / f"seat{seat}") for seat, log in logs.items()}
    ruleset = PluginHost().ruleset("flourish", (), 3)
    check_curious(ruleset, 3, copies, [(0, 1), (0, 2), (1, 2), (2, 0)])
    finish_all(peers)


@pytest.mark.parametrize("how, named", [
    ("duplicate", "two positions hold the same point (a card duplicated)"),
    ("wrongkey", "sent a wrong key"),
    ("unheld", "is refused with its cards shown"),
])
def test_a_cheat_at_the_sealed_deck_is_named_and_the_table_halts(table: Table, how: str,
                                                                  named: str) -> None:
    play = ("--bot", "random")
    host, address = table.host("petals", 3, *play, "--name", "ann", env=peer_env())
    bob = table.join(address, *play, "--name", "bob", env=peer_env())
    bob.wait_event("joined")
    cheat = table.join(address, *play, "--name", "cheater", "--give-up", "3",
                       env=peer_env(plugins="sealcheat", HEDGEROW_SEALCHEAT=how))
    seat = cheat.wait_event("joined")["seat"]
    problems = set()
    for peer in (host, bob):
        code, result = peer.finish(timeout=GAME_WAIT)
        assert code == 1, peer.stderr
        assert result is not None and result["phase"] == "halted", result
        problems.add(result["problem"])
    assert len(problems) == 1, problems  # the same words at both honest peers
    (problem,) = problems
    assert problem.startswith(f"seat {seat} (cheater) cheated"), problem
    assert named in problem, problem


def test_a_peer_killed_in_the_middle_of_a_shuffle_resumes_and_the_game_finishes(
        table: Table, tmp_path: Path) -> None:
    def env(i: int, **extra: str) -> dict[str, str]:
        home = tmp_path / f"peer{i}"
        home.mkdir(exist_ok=True)
        return peer_env(home, **extra)

    play = ("--bot", "random")
    host, address = table.host("petals", 3, *play, env=env(0))
    bob = table.join(address, *play, env=env(1))
    bob.wait_event("joined")
    victim = table.join(address, *play,
                        env=env(2, plugins="sealcheat", HEDGEROW_SEALCHEAT="die-in-shuffle"))
    log = victim.wait_event("start")["log"]
    assert victim.proc.wait(timeout=GAME_WAIT) == -9  # killed itself mid-shuffle
    back = table.start(["resume", log, "--bot", "random", "--json"], env(2))
    results = finish_all([host, bob, back])
    done = hedgerow_each([(["replay", r["log"], "--verify"], peer.env)
                          for r, peer in zip(results, (host, bob, back), strict=True)],
                         timeout=GAME_WAIT)
    for replay in done:
        assert replay.returncode == 0, replay.stdout + replay.stderr
        assert "sealed deck: every shuffle, key and action checks out" in replay.stdout
