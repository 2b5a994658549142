"""FLOWERS, Flowers: A Mandala Game and Flourish played over the network by real processes.

Headless bot peers (one ``hedgerow host GAME --players N --bot random``, the others
``hedgerow join ADDRESS --bot random``) play whole games over CURVE on 127.0.0.1: 3 peers
for FLOWERS, 4 for Mandala, 5 for Flourish (simultaneous steps with commit-reveal).  Each
game passes the checks the Petals games pass (tests/e2e/test_net_game.py): every peer ends
finished on the same seed, state hash and outcome; every peer's log is whole, holds the same
entries with the same state hashes as every other (chance entries included: the deal,
Mandala's reshuffles, Flourish's compost reshuffle) and passes ``hedgerow replay --verify``;
every peer printed the same account of the game, one line per entry.  At a sealed table
(the plain games) every peer verified the deck at the end, and the log, verified and played
again open with the deals it opened to, ends on the reported outcome; at an open-deck table
(a dictated seed) the game is the very one ``hedgerow simulate`` plays with that seed.

The plain games agree on their seed by commit-reveal, so their outcomes are not fixed: the
tests check agreement, not a result.  The variant games (FLOWERS with summer, Mandala with
draw-four, Flourish cooperative with compost) let the host dictate the seed (``--seed``,
taken with ``--accept-host-seed``), so they are the same game on every run and can insist
on what happens in it (Mandala and compost reshuffles in the middle of the game).

Flourish's hidden information is checked where a networked peer shows it: its bot
(``viewspy``, the random bot writing down each view it is handed) must be shown exactly the
seat's view of the step's starting state, so a card passed to a neighbour shows up in the
receiver's hand and exchange and in the passer's memory, and nowhere in any other seat's
view; the account every peer prints names the cards played, never the cards passed.
Mandala's bots are ``viewspy`` too: no seat was shown the colour of another seat's
face-down cards.  Last,
a Flourish peer that reveals another turn than the one it committed to is caught and named
by both honest peers, and nothing of that turn reaches their logs.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from e2e.helpers import (
    PeerProcess,
    Table,
    hedgerow_each,
    peer_env,
    plain_data,
    played_open,
    same_moves,
)

pytestmark = pytest.mark.e2e

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
#: How long a whole game may take before the test fails (a guard against a hang, not a
#: timing: a game takes seconds, far more on a machine busy with other work).
GAME_WAIT = 120.0


@dataclass
class NetGame:
    """A finished networked game: what was asked for, each peer and its result."""

    game: str
    players: int
    variants: tuple[str, ...]
    peers: list[PeerProcess]
    names: list[str]
    results: list[dict[str, Any]]


def play_over_the_network(table: Table, tmp_path: Path, game: str, players: int,
                          variants: tuple[str, ...] = (), *, seed: int | None = None,
                          bot: str = "random", plugins: str = "") -> NetGame:
    """Host ``game`` with ``players`` bot peers (each with its own home under ``tmp_path``
    and its own name), play it to the end and collect every peer's result."""
    def env(i: int) -> dict[str, str]:
        home = tmp_path / f"peer{i}"
        home.mkdir()
        return peer_env(home, plugins=plugins)

    rules = [arg for v in variants for arg in ("--variant", v)]
    dictated = ["--seed", str(seed)] if seed is not None else []
    accept = ["--accept-host-seed"] if seed is not None else []
    host, address = table.host(game, players, *rules, *dictated, "--bot", bot,
                               "--name", NAMES[0], "-v", env=env(0))
    joiners = [table.join(address, *accept, "--bot", bot, "--name", NAMES[i], "-v", env=env(i))
               for i in range(1, players)]
    peers = [host, *joiners]
    results = []
    for peer in peers:
        code, result = peer.finish(timeout=GAME_WAIT)
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished", result
        results.append(result)
    return NetGame(game, players, variants, peers, list(NAMES[:players]), results)


def check_agreement(net: NetGame, seed: int | None = None) -> Any:
    """The Petals checks (see the module docstring); the finished game as an open table
    plays it (at a sealed table: verified and played again open from the log)."""
    from hedgerow.core.outcome import outcome_data
    from hedgerow.core.playout import play
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.seeding import seed_from_int
    from hedgerow.net.logfile import read_log
    from hedgerow.net.rulesmatch import table_fingerprint

    results = net.results
    first = results[0]
    assert sorted(r["seat"] for r in results) == list(range(net.players))
    for r in results:
        assert (r["game"], r["players"], r["variants"]) == (
            net.game, net.players, sorted(net.variants))
        assert r["problem"] is None
    for key in ("fingerprint", "seed", "state_hash", "actions", "outcome", "deck",
                "verified"):
        assert all(r[key] == first[key] for r in results), key
    if seed is not None:
        assert first["seed"] == seed_from_int(seed).hex()
    # A dictated seed opens the deck (the seed would name every card); else it is sealed.
    sealed = seed is None
    assert first["deck"] == ("sealed" if sealed else "open")
    assert first["verified"] == ("every shuffle, key and action checks out" if sealed
                                 else None)
    plugins = PluginHost()
    ruleset = plugins.ruleset(net.game, net.variants, net.players)
    assert first["fingerprint"] == ruleset.fingerprint
    finished = played_open(first["log"], ruleset)
    if not sealed:
        # The very game the in-process engine plays with this seed and these bots.
        engine = play(ruleset, net.players, bytes.fromhex(first["seed"]), [plugins.bot("random")])
        assert first["state_hash"] == engine.state_hash().hex()
        assert same_moves(finished.entries, engine.entries)
    assert first["actions"] == len(finished.entries)
    outcome = finished.outcome()
    assert outcome is not None
    assert first["outcome"] == json.loads(json.dumps(outcome_data(outcome)))
    # Every log is whole, names every seat as its peer did, and holds the same entries with
    # the same state hashes: the engine's entries, chance (resolved by each peer) included.
    logs = [read_log(r["log"]) for r in results]
    for log, r, name in zip(logs, results, net.names, strict=True):
        assert log.ok, log.problem
        assert log.header is not None and log.header.own_seat == r["seat"]
        assert log.header.fingerprint == table_fingerprint(ruleset, open_deck=not sealed)
        assert log.header.seat_names[r["seat"]] == name
        assert [(e.entry.index, e.entry.seat) for e in log.entries] == [
            (e.index, e.seat) for e in finished.entries]
        if not sealed:
            assert same_moves([e.entry for e in log.entries], finished.entries)
        assert log.entries[-1].state_hash.hex() == first["state_hash"]
    assert all([e.entry for e in log.entries] == [e.entry for e in logs[0].entries]
               for log in logs)  # (a list: a sealed card is not hashable)
    assert len({log.header.seat_names for log in logs if log.header is not None}) == 1
    assert len({tuple(e.state_hash for e in log.entries) for log in logs}) == 1
    assert logs[0].entries[0].entry.is_chance  # the deal, entry #0
    # Every peer told the same story, one line per entry.
    accounts = [[e["text"] for e in peer.events if e.get("event") == "action"]
                for peer in net.peers]
    story = accounts[0]  # the host's: it was watching before the table existed
    assert [line.split(" ")[0] for line in story] == [f"#{e.index}" for e in finished.entries]
    for account in accounts[1:]:
        # complete even when a joiner held the first entries before it was watched (a
        # dictated seed lets a joiner's table start at once)
        assert account == story
    # And every log replays to the same final state with every hash checked.  The replays
    # run at once, one per peer (five for Flourish), on a machine that may run other
    # workers' games too: the same guard against a hang as a game's.
    done = hedgerow_each([(["replay", r["log"], "--verify"], peer.env)
                          for r, peer in zip(results, net.peers, strict=True)],
                         timeout=GAME_WAIT)
    for replay in done:
        assert replay.returncode == 0, replay.stdout + replay.stderr
        assert replay.stdout.startswith(f"ok: {len(finished.entries)} entries replayed")
        assert first["state_hash"] in replay.stdout
    return finished


def chance_after_deal(finished: Any) -> list[int]:
    """The indices of the chance entries after the deal."""
    return [e.index for e in finished.entries[1:] if e.is_chance]


# -- FLOWERS ---------------------------------------------------------------------------------


def test_three_peers_play_flowers_and_agree(table: Table, tmp_path: Path) -> None:
    net = play_over_the_network(table, tmp_path, "flowers", 3)
    finished = check_agreement(net)
    assert net.results[0]["outcome"]["kind"] == "ranked"
    # Turn-based, after the deal: a seat plants (having maybe taken the face-down top
    # first), then the next seat in seat order plays.
    played = finished.entries[1:]
    for before, entry in itertools.pairwise(played):
        if entry.seat == before.seat:
            assert (before.action.kind, entry.action.kind) == ("take", "plant")
        else:
            assert before.action.kind == "plant" and entry.seat == (before.seat + 1) % 3


def test_three_peers_play_flowers_summer_from_a_dictated_seed(table: Table,
                                                              tmp_path: Path) -> None:
    net = play_over_the_network(table, tmp_path, "flowers", 3, ("summer",), seed=1)
    check_agreement(net, seed=1)
    assert net.results[0]["fingerprint"].startswith("flowers@1.0.0")
    assert "summer@" in net.results[0]["fingerprint"]


# -- Flowers: A Mandala Game -------------------------------------------------------------------


def test_four_peers_play_mandala_and_show_every_face_down_colour(table: Table,
                                                                 tmp_path: Path) -> None:
    net = play_over_the_network(table, tmp_path, "mandala", 4, bot="viewspy", plugins="viewspy")
    finished = check_agreement(net)
    assert net.results[0]["outcome"]["kind"] == "ranked"
    # Each seat was shown its own view (views_as_shown), in which every card on a mandala
    # shows its colour, another seat's face-down ones too (spec §5, §12.3).
    others_down = 0
    for seat, records in views_as_shown(net, finished).items():
        for record in records:
            for mandala in record["view"]["mandalas"]:
                for who, colour, _cards, up in mandala["plays"]:
                    assert 0 <= colour < 6
                    others_down += not up and who != seat
    assert others_down  # the check saw face-down plays of other seats


def test_four_peers_play_mandala_draw_four_with_reshuffles(table: Table,
                                                            tmp_path: Path) -> None:
    net = play_over_the_network(table, tmp_path, "mandala", 4, ("draw-four",), seed=1)
    finished = check_agreement(net, seed=1)
    # This game reshuffles the discard pile several times: chance entries in the middle of
    # the game, which each peer resolved on its own from the seed and all logged alike.
    assert len(chance_after_deal(finished)) >= 2


# -- Flourish ----------------------------------------------------------------------------------


def steps(finished: Any) -> list[list[Any]]:
    """The seats' entries after the deal, one list per simultaneous step (chance left out)."""
    out: list[list[Any]] = []
    for entry in finished.entries[1:]:
        if entry.is_chance:
            continue
        if not out or entry.seat <= out[-1][-1].seat:
            out.append([])
        out[-1].append(entry)
    return out


def test_five_peers_play_flourish_and_keep_passes_hidden(table: Table, tmp_path: Path) -> None:
    net = play_over_the_network(table, tmp_path, "flourish", 5, bot="viewspy", plugins="viewspy")
    finished = check_agreement(net)
    assert net.results[0]["outcome"]["kind"] == "ranked"
    # Ten simultaneous steps (nine play-and-pass turns and the final round), every seat in
    # each, logged in seat order.
    played = steps(finished)
    assert [[e.seat for e in step] for step in played] == [list(range(5))] * 10
    check_flourish_views(net, finished, played)


def test_five_peers_play_flourish_cooperative_with_compost(table: Table,
                                                           tmp_path: Path) -> None:
    # (seed 2: random bots' game from it reshuffles the compost pile mid-game)
    net = play_over_the_network(table, tmp_path, "flourish", 5, ("compost", "cooperative"),
                                seed=2)
    finished = check_agreement(net, seed=2)
    outcome = net.results[0]["outcome"]
    assert outcome["kind"] == "cooperative"
    assert outcome["total"] == sum(outcome["scores"])
    # The compost pile was shuffled into a new deck in the middle of the game.
    assert chance_after_deal(finished)
    assert [[e.seat for e in step] for step in steps(finished)] == [list(range(5))] * 10


def views_as_shown(net: NetGame, finished: Any) -> dict[int, list[dict[str, Any]]]:
    """What each networked seat's ``viewspy`` bot was shown, by seat, one record per
    decision; each checked to be exactly the seat's view where it decided (in a
    simultaneous step, the step's starting state: nothing of the other seats' choices), with
    the choice it made being the one every log holds."""
    from hedgerow.core.actions import Action
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.sealed import plain
    from hedgerow.core.table import Table as Engine

    shown: dict[int, list[dict[str, Any]]] = {}
    for peer, result in zip(net.peers, net.results, strict=True):
        lines = (peer.home / "views.jsonl").read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines]
        assert {r["seat"] for r in records} == {result["seat"]}
        shown[result["seat"]] = records
    plugins = PluginHost()
    ruleset = plugins.ruleset(net.game, net.variants, net.players)
    # What each seat should have been shown at each of its decisions, in log order, with
    # the action it chose: from the game replayed with every card known.
    expected: list[tuple[int, Any, Any]] = []
    named: dict[int, Callable[[Action], Any]] = {}  # sealed: what the table adds to a choice
    if net.results[0]["deck"] == "sealed":
        name_cards = ruleset.gamedef.name_cards

        def watch(seat: int, action: Any, known: Any) -> None:
            if name_cards is not None:
                state = known.info_state()
                named[len(expected)] = lambda chosen: plain(name_cards(state, seat, chosen))
            expected.append((seat, known.view(seat), action))

        played_open(net.results[0]["log"], ruleset, watch=watch)
    else:
        engine = Engine(ruleset, net.players, bytes.fromhex(net.results[0]["seed"]),
                        fingerprint=finished.table.header.fingerprint)
        for entry in finished.entries:
            if not entry.is_chance:
                expected.append((entry.seat, engine.view(entry.seat), entry.action))
            assert isinstance(engine.follow(entry.index, entry.seat, entry.action), tuple)
        assert engine.state_hash() == finished.table.state_hash()
    decisions = dict.fromkeys(range(net.players), 0)
    for n, (seat, view, action) in enumerate(expected):
        record = shown[seat][decisions[seat]]
        decisions[seat] += 1
        assert record["view"] == json.loads(json.dumps(plain_data(view)))
        chose = record["action"]
        if n in named:  # the logged action is the choice with the cards it takes named
            kind, args = chose
            made = named[n](Action(kind, tuple((k, _tupled(v)) for k, v in args)))
            chose = json.loads(json.dumps([made.kind, plain_data(made.args)]))
        assert chose == [action.kind, plain_data(action.args)]
    assert decisions == {s: len(shown[s]) for s in range(net.players)}
    return shown


def _tupled(value: Any) -> Any:
    """A value read back from JSON with its lists as the tuples an action holds."""
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def check_flourish_views(net: NetGame, finished: Any, played: list[list[Any]]) -> None:
    """What each networked seat was shown (see the module docstring)."""
    from hedgerow.plugins.flourish.abilities import left_of, right_of
    from hedgerow.plugins.flourish.words import card_name

    players = net.players
    shown = views_as_shown(net, finished)  # one view per step and seat
    assert all(len(shown[s]) == len(played) for s in range(players))
    assert all(r["view"]["choice"] is None for s in range(players) for r in shown[s])
    # A passed card shows, at the next step, in the receiver's hand and in what it
    # received, and in the passer's memory of where its cards went, in no one else's view.
    for k, step in enumerate(played[:-1]):
        after = {s: shown[s][k + 1]["view"] for s in range(players)}
        for entry in step:
            assert entry.action.kind == "turn"
            passer = entry.seat
            for card, receiver in ((entry.action["left"], left_of(passer, players)),
                                   (entry.action["right"], right_of(passer, players))):
                assert card in after[receiver]["hand"]
                assert [card, passer] in after[receiver]["last"][1]  # received
                assert [card, receiver] in after[passer]["last"][0]  # passed
                assert [card, receiver] in after[passer]["known"]
                for seat in set(range(players)) - {passer, receiver}:
                    seen = after[seat]
                    assert card not in seen["hand"]
                    assert all(card != c for part in seen["last"][:2] for c, _ in part)
                    assert card not in seen["last"][2]  # drawn
                    assert all(card != c for c, _ in seen["known"])
    # Every peer's account names the cards played and never a card passed.
    accounts = [[e["text"] for e in peer.events if e.get("event") == "action"]
                for peer in net.peers]
    lines = accounts[0][1:]  # after the deal, one line per seat's entry
    entries = [e for step in played for e in step]
    assert len(lines) == len(entries)
    for line, entry in zip(lines, entries, strict=True):
        play = entry.action["play"]  # one card in a turn, three in the final round
        assert all(card_name(c) in line for c in (play if isinstance(play, tuple) else [play]))
        if entry.action.kind == "turn":
            assert card_name(entry.action["left"]) not in line, line
            assert card_name(entry.action["right"]) not in line, line


def test_a_flourish_reveal_that_breaks_its_commitment_is_caught(table: Table,
                                                                tmp_path: Path) -> None:
    # tests/e2e/revealcheat.py: the peer commits to its bot's turn, then reveals another.
    from hedgerow.net.logfile import read_log

    def env(i: int, plugins: str = "") -> dict[str, str]:
        home = tmp_path / f"peer{i}"
        home.mkdir()
        return peer_env(home, plugins=plugins)

    host, address = table.host("flourish", 3, "--bot", "random", "--name", "ann", env=env(0))
    bob = table.join(address, "--bot", "random", "--name", "bob", env=env(1))
    cheat = table.join(address, "--bot", "random", "--name", "cheater", "--give-up", "3",
                       env=env(2, "revealcheat"))
    seat = cheat.wait_event("joined")["seat"]
    problems = set()
    for peer in (host, bob):
        code, result = peer.finish(timeout=GAME_WAIT)
        assert code == 1, peer.stderr
        assert result is not None and result["phase"] == "halted"
        assert result["actions"] == 1  # the deal; the first turn never resolved
        assert f"refused ActionReveal from seat {seat} (cheater): BAD_REVEAL" in peer.stderr
        problems.add(result["problem"])
        # Nothing of the first turn reached the log: no seat's choice, not even its own.
        log = read_log(result["log"])
        assert log.ok and [e.entry.index for e in log.entries] == [0]
    assert len(problems) == 1, problems  # both honest peers name the cheater in the same words
    (problem,) = problems
    assert problem.startswith(f"seat {seat} (cheater) cheated at the simultaneous step #1: "
                              f"seat {seat}'s reveal (turn("), problem
    assert problem.endswith(") does not match its commitment"), problem
    assert cheat.finish(timeout=GAME_WAIT)[0] == 1
