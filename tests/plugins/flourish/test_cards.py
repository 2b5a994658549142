"""The card list as data (spec §12): its statistics (§12.1), the seed's example cards, the words."""

from __future__ import annotations

from collections import Counter

import pytest

from hedgerow.plugins.flourish.cards import (
    ANY,
    BOTH_NB,
    COLOURS,
    DECK,
    ONE_NB,
    OWN,
    PATH,
    PLANT,
    STONES,
    SYMBOL_NAMES,
    Ability,
    card,
    parse_ability,
)
from hedgerow.plugins.flourish.words import (
    ability_short,
    ability_text,
    card_line,
    card_name,
    card_text,
)


def test_ninety_eight_cards_numbered_in_order() -> None:
    assert [c.id for c in DECK] == list(range(1, 99))
    with pytest.raises(KeyError):
        card(99)


def test_types() -> None:
    kinds = Counter("plant" if c.kind == PLANT else SYMBOL_NAMES[c.kind] for c in DECK)
    assert kinds == {"plant": 42, "tree": 10, "path": 10, "wall": 10, "hive": 10, "lawn": 8,
                     "feature": 8}


def test_plant_symbols_per_colour() -> None:
    for colour in COLOURS:
        on = Counter("plant" if c.kind == PLANT else SYMBOL_NAMES[c.kind]
                     for c in DECK for _ in range(c.plants[colour]))
        assert on == {"plant": 12, "tree": 5, "path": 3, "hive": 2, "wall": 1}
    assert sum(c.white for c in DECK) == 2
    assert [c.name for c in DECK if c.white] == ["Rosa alba", "Rosa alba"]


def test_ability_slots_and_templates() -> None:
    assert sum(1 for c in DECK if c.eor and not c.eog) == 41
    assert sum(1 for c in DECK if c.eog and not c.eor) == 44
    assert sum(1 for c in DECK if c.eor and c.eog) == 13
    slots = [a for c in DECK for a in (c.eor, c.eog) if a is not None]
    coverage = Counter(f"{a.template}/{a.scope}" if a.template in ("COUNT", "SUM2")
                       else a.template for a in slots)
    assert coverage == {"COUNT/OWN": 39, "COUNT/ONE_NB": 5, "COUNT/BOTH_NB": 5,
                        "SUM2/OWN": 5, "SUM2/ONE_NB": 10, "EITHER": 8, "MAJ_ONE": 10,
                        "MAJ_BOTH": 5, "WALLS": 5, "COLOR_PATHS": 5, "HAVE_TREE": 2,
                        "HIVES3": 7, "FIVE_OF_ONE": 2, "ONE_EACH": 3}
    assert sum(1 for a in slots if a.symbol == ANY) == 8


def test_every_card_carries_at_most_one_stone_and_plants_none() -> None:
    for c in DECK:
        assert c.kind == PLANT or c.kind in STONES
        assert c.eor is not None or c.eog is not None


def test_only_paths_have_both_neighbour_scopes() -> None:
    both = {c.id for c in DECK for a in (c.eor, c.eog) if a is not None and a.scope == BOTH_NB}
    assert both and all(card(i).kind == PATH for i in both)


def test_the_seed_example_cards() -> None:
    assert card(53) == card(53)._replace(name="Moss Path", kind=PATH, plants=(2, 0, 0, 0, 0),
                                         eor=None, eog=Ability("COUNT", 3, 5, scope=BOTH_NB))
    assert card(43).eor == Ability("COUNT", 1, 0) and card(43).eog == Ability("COLOR_PATHS", 4, 0)
    assert card(91).eog == Ability("HAVE_TREE", 9) and card(91).plants == (0,) * 5
    assert card(83).eor == Ability("COUNT", 1, 0) and card(83).eog == Ability("COUNT", 1, ANY)
    assert card(65).eor == Ability("COUNT", 2, 2, scope=ONE_NB) and card(65).plants[1] == 1
    assert card(10).eor == Ability("SUM2", 1, 0, 1, 1, OWN) and card(10).plants[1] == 1


def test_parse_ability() -> None:
    assert parse_ability("-") is None
    assert parse_ability("SUM2(1,P,1,G,ONE_NB)") == Ability("SUM2", 1, 4, 1, 0, ONE_NB)
    with pytest.raises(ValueError):
        parse_ability("TWICE(3)")


def test_every_ability_has_words() -> None:
    for c in DECK:
        for a in (c.eor, c.eog):
            if a is not None:
                assert ability_text(a) and ability_short(a)
        assert card_line(c.id).startswith(c.code) and c.name in card_text(c.id)


def test_words_for_the_seed_cards() -> None:
    assert card_name(43) == "Oak (C43)"
    assert card_line(43) == "C43 Oak [Tree] G3 | round 1/G | end 4/G-Path"
    assert ability_text(card(53).eog) == (  # type: ignore[arg-type]
        "3 points for each tree in your two neighbours' gardens together")
    assert "theirs together" in card_text(53)
    assert ability_short(card(65).eor) == "2/B nb"  # type: ignore[arg-type]
    assert ability_short(card(22).eog) == "9 B>=all"  # type: ignore[arg-type]
    assert "Rosa Alba" in card_text(41)
