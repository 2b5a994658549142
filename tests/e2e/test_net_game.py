"""Networked games between real peer processes started through the command line.

Four headless bot peers (one ``hedgerow host``, three ``hedgerow join``) play whole Petals
games over CURVE on 127.0.0.1, sealed (the default) and with an open deck: every peer must
end on the same state hash, every peer's log must pass ``hedgerow replay --verify``, and
the logs must be identical, starting with the deal (a chance entry).  At the open-deck table
the hash is the one ``hedgerow simulate``'s engine reaches with the same seed and bots; at
the sealed table every peer verified the whole deck at the end instead.  Then: a joiner
whose rules differ is refused and told why, and a peer killed mid-game comes back with
``hedgerow resume``.
"""

from __future__ import annotations

import pytest
from e2e.helpers import Table, hedgerow, peer_env

pytestmark = pytest.mark.e2e


def simulate_hash(game: str, players: int, seed_hex: str, variants: tuple[str, ...] = ()) -> str:
    """The final state hash of the in-process engine with random bots and this seed."""
    from hedgerow.core.playout import play
    from hedgerow.core.pluginhost import PluginHost

    plugins = PluginHost()
    ruleset = plugins.ruleset(game, variants, players)
    return play(ruleset, players, bytes.fromhex(seed_hex),
                [plugins.bot("random")]).state_hash().hex()


@pytest.mark.parametrize("deck", ["sealed", "open"])
def test_four_bots_play_petals_and_agree(table: Table, deck: str) -> None:
    choice = ("--open-deck",) if deck == "open" else ()
    host, address = table.host("petals", 4, "--bot", "random", *choice, env=peer_env())
    joiners = [table.join(address, "--bot", "random", env=peer_env()) for _ in range(3)]
    results = []
    for peer in [host, *joiners]:
        code, result = peer.finish()
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
        results.append(result)
    assert {r["seat"] for r in results} == {0, 1, 2, 3}
    assert len({r["state_hash"] for r in results}) == 1
    assert len({r["seed"] for r in results}) == 1
    assert all(r["outcome"] == results[0]["outcome"] for r in results)
    assert {r["deck"] for r in results} == {deck}
    if deck == "open":
        assert results[0]["state_hash"] == simulate_hash("petals", 4, results[0]["seed"])
    else:
        assert {r["verified"] for r in results} == {"every shuffle, key and action checks out"}
    for peer, result in zip([host, *joiners], results, strict=True):
        done = hedgerow("replay", result["log"], "--verify", env=peer.env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert result["state_hash"] in done.stdout
    # Every peer logged the very same entries: the deal (chance, entry #0, resolved by each
    # peer from the seed, never sent) and then the seats' actions.
    from hedgerow.net.logfile import read_log

    logs = [read_log(r["log"]) for r in results]
    assert all(log.ok for log in logs)
    assert all([e.entry for e in log.entries] == [e.entry for e in logs[0].entries]
               for log in logs)  # (a list: a sealed card is not hashable)
    entries = logs[0].entries
    assert entries[0].entry.is_chance and entries[0].entry.action.kind == "chance"
    assert all(not e.entry.is_chance for e in entries[1:])
    assert len({tuple(e.state_hash for e in log.entries) for log in logs}) == 1
    assert entries[-1].state_hash.hex() == results[0]["state_hash"]
    # `hedgerow resume --json` of the finished game: the result again, the very record the
    # seat printed at its end, after an "over" event.
    import json

    done = hedgerow("resume", results[1]["log"], "--json", env=joiners[0].env)
    assert done.returncode == 0, done.stdout + done.stderr
    over, record = (json.loads(line) for line in done.stdout.splitlines())
    assert over["event"] == "over" and over["outcome"] == results[1]["outcome"]
    assert record == results[1]


def test_a_variant_the_joiner_lacks_is_refused_with_a_reason(table: Table) -> None:
    host, address = table.host("petals", 2, "--variant", "harmony", "--bot", "random",
                               env=peer_env())
    done = hedgerow("join", address, "--bot", "random", env=peer_env(block="harmony"))
    assert done.returncode != 0
    assert "you lack variant harmony 1.0.0 (install the package hedgerow " in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr  # one clear line
    # With --json the joiner says it on stdout too, and the host reports the refused peer.
    refused = table.join(address, "--bot", "random", "--name", "Wren",
                         env=peer_env(block="harmony"))
    event = refused.wait_event("refused")
    assert event["code"] == "join_refused" and "you lack variant harmony" in event["text"]
    assert refused.proc.wait(timeout=30) == 2
    seen = host.wait_event(lambda e: e.get("event") == "refused" and e["what"] == "Hello")
    assert seen["code"] == "RULES_MISMATCH" and "you lack variant harmony" in seen["message"]
    assert seen["text"].startswith("refused Hello from ")
    # The table still takes a peer with the right rules.
    good = table.join(address, "--bot", "random", env=peer_env())
    assert good.finish()[0] == 0
    assert host.finish()[0] == 0


def test_a_killed_peer_resumes_from_its_log_and_finishes(table: Table) -> None:
    # The bots pause before each move so the game is still on when the victim dies.
    slow = ("--bot", "random", "--delay", "0.05")
    host, address = table.host("petals", 4, *slow, env=peer_env())
    joiners = [table.join(address, *slow, "-v", env=peer_env()) for _ in range(3)]
    victim = joiners[1]
    seat = victim.wait_event("joined")["seat"]
    start = victim.wait_event("start")
    victim.wait_event(lambda e: e.get("event") == "action" and e["index"] >= 4)
    victim.kill()
    # The others notice the silence and say whom they wait for.
    host.wait_event(lambda e: e.get("event") == "waiting" and e["seat"] == seat, timeout=20)
    back = table.start(["resume", start["log"], "--bot", "random", "--json"], victim.env)
    back.wait_event("resumed")
    results = []
    for peer in [host, joiners[0], joiners[2], back]:
        code, result = peer.finish()
        assert code == 0, peer.stderr
        results.append(result)
    assert len({r["state_hash"] for r in results}) == 1
    # Nothing was lost: every peer verified the whole sealed deck, the resumed one too, and
    # its log holds every entry the host's does.
    assert {r["verified"] for r in results} == {"every shuffle, key and action checks out"}
    from hedgerow.net.logfile import read_log

    assert [e.entry for e in read_log(start["log"]).entries] == [
        e.entry for e in read_log(results[0]["log"]).entries]
    done = hedgerow("replay", start["log"], "--verify", env=victim.env)
    assert done.returncode == 0, done.stdout + done.stderr
