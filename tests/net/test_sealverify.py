"""The end-of-game verification of a sealed deck (`hedgerow.net.sealverify`): the deal it
reads off the verified passes is the deal the peers opened, card for card, also for a deck
of cards that were already sealed (Flourish's face-down compost shuffled into a new deck,
which a 3-player game never reaches: the deck lasts)."""

from __future__ import annotations

from sealnet import LocalTable

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import Key
from hedgerow.net import mentalpoker as mp
from hedgerow.net.sealing import Sealing

HOST = PluginHost(autoload=False)


def opened_by_keys(sealing: Sealing) -> dict[Key, object]:
    """Every position of every deck opened with every party's disclosed key, one by one: the
    face of the fresh card its point is."""
    fresh: dict[bytes, object] = {}
    for (entry, draw), deck in sealing.decks.items():
        for j, item in enumerate(deck.job.items):
            if deck.items[j].sealed is None:
                fresh[mp.card_point(sealing.table_id, entry, draw, j)] = item
    secrets = [mp.PeerSecret(sealing.disclosed[p]) for p in range(sealing.parties)]
    faces: dict[Key, object] = {}
    for (entry, draw), deck in sealing.decks.items():
        for pos, point in enumerate(deck.points):
            card = mp.open_card(point, (s.card_key(entry, draw, pos) for s in secrets))
            faces[(entry, draw, pos)] = fresh[card]
    return faces


def test_a_reshuffled_face_down_compost_verifies_with_the_faces_the_peers_opened() -> None:
    table = LocalTable(HOST.ruleset("flourish", ("compost",), 5), 5, 0)
    table.play()
    assert not table.halted
    sealing = table.peers[0].sealing
    assert any(deck.relocked for deck in sealing.decks.values())  # a deck of sealed cards
    verdict = sealing.verdict()
    assert verdict.ok, verdict.message
    assert dict(verdict.faces) == opened_by_keys(sealing)
    for peer in table.peers:
        assert peer.sealing.verdict().ok
        for card, face in {**peer.table.public, **peer.table.mine}.items():
            assert verdict.faces[card] == face


def test_the_deal_of_a_108_card_deck_is_every_card_opened_with_every_key() -> None:
    table = LocalTable(HOST.ruleset("flowers", (), 4), 4, 3)
    table.play()
    sealing = table.peers[2].sealing
    verdict = sealing.verdict()
    assert verdict.ok, verdict.message
    assert len(verdict.faces) == 108
    assert dict(verdict.faces) == opened_by_keys(sealing)
