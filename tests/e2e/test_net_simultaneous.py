"""Simultaneous steps and chance between real peer processes (docs/protocol.md §3.3, §7).

Three headless bot peers play Goofspiel, the example game of docs/plugins.md, at an
open-deck table
(docs/examples/goofspiel.py): every round a prize is turned up by chance (a chance entry
every peer resolves from the seed) and every seat bids at once (commit, reveal, the step
applied whole).  Every peer must end on the same state hash, the one ``hedgerow simulate``'s
engine reaches with the same seed and bots, and every log must verify.  Then a peer that
reveals another bid than the one it committed to is caught and named by every honest peer.
"""

from __future__ import annotations

import pytest
from e2e.helpers import Table, hedgerow, peer_env

pytestmark = pytest.mark.e2e

GOOFSPIEL = "goofspiel"


def simulate_hash(players: int, seed_hex: str) -> str:
    """The final state hash of the in-process engine with random bots and this seed."""
    import goofspiel

    from hedgerow.core.playout import play
    from hedgerow.core.pluginhost import PluginHost

    plugins = PluginHost(autoload=False, extra=[goofspiel])
    ruleset = plugins.ruleset(GOOFSPIEL, (), players)
    return play(ruleset, players, bytes.fromhex(seed_hex),
                [plugins.bot("random")]).state_hash().hex()


def test_three_peers_play_goofspiel_and_agree(table: Table) -> None:
    env = peer_env(plugins=GOOFSPIEL)
    host, address = table.host(GOOFSPIEL, 3, "--bot", "random", "--open-deck", "-v", env=env)
    joiners = [table.join(address, "--bot", "random", "-v", env=peer_env(plugins=GOOFSPIEL))
               for _ in range(2)]
    results = []
    for peer in [host, *joiners]:
        code, result = peer.finish()
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
        results.append(result)
    assert {r["seat"] for r in results} == {0, 1, 2}
    assert len({r["seed"] for r in results}) == 1
    assert len({r["state_hash"] for r in results}) == 1
    assert all(r["outcome"] == results[0]["outcome"] for r in results)
    assert results[0]["outcome"]["kind"] == "ranked"
    # 8 rounds: a prize (chance) and three bids each
    assert {r["actions"] for r in results} == {8 * 4}
    assert results[0]["state_hash"] == simulate_hash(3, results[0]["seed"])
    # Every peer logged and described the same entries: chance first, then the bids.
    for peer in [host, *joiners]:
        lines = [e["text"] for e in peer.events if e.get("event") == "action"]
        assert len(lines) == 8 * 4
        assert lines[0] == "#0 chance: turn up a prize"
        assert [line.split(":")[0] for line in lines[1:5]] == [
            "#1 seat 0", "#2 seat 1", "#3 seat 2", "#4 chance"]
    for peer, result in zip([host, *joiners], results, strict=True):
        done = hedgerow("replay", result["log"], "--verify", env=peer.env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert result["state_hash"] in done.stdout
        assert done.stdout.startswith(f"ok: {8 * 4} entries replayed")


def test_a_reveal_that_breaks_its_commitment_is_caught_and_named(table: Table) -> None:
    honest = GOOFSPIEL
    host, address = table.host(GOOFSPIEL, 3, "--bot", "random", "--table", "table",
                               "--name", "ann", env=peer_env(plugins=honest))
    bob = table.join(address, "--bot", "random", "--name", "bob", env=peer_env(plugins=honest))
    cheat = table.join(address, "--bot", "random", "--name", "cheater", "--give-up", "3",
                       env=peer_env(plugins=f"{GOOFSPIEL},revealcheat"))
    seat = cheat.wait_event("joined")["seat"]
    problems = set()
    for peer in (host, bob):
        code, result = peer.finish()
        assert code == 1, peer.stderr
        assert result is not None and result["phase"] == "halted"
        problems.add(result["problem"])
        # The first round: entry #0 is the first prize, the bids would be #1 to #3.
        assert result["actions"] == 1
        assert f"refused ActionReveal from seat {seat} (cheater): BAD_REVEAL" in peer.stderr
    assert len(problems) == 1, problems  # every honest peer names the cheater in the same words
    (problem,) = problems
    assert problem.startswith(f"seat {seat} (cheater) cheated at the simultaneous step #1: "
                              f"seat {seat}'s reveal (bid(card="), problem
    assert problem.endswith(") does not match its commitment"), problem
    code, _ = cheat.finish()
    assert code == 1  # it gets nothing more from the honest peers and gives up
