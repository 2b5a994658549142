"""Flourish's 98 cards as data (rules: docs/rules/flourish.md; list: shared spec §12).

A card has a type (a plant, or one of six stone symbols), its plant symbols (five colours,
plus Rosa Alba's white symbol, a wild), and an end-of-round and/or end-of-game ability.
Every ability is one of the eleven templates of the spec (§5), stored as an `Ability`
record; `hedgerow.plugins.flourish.abilities` scores them and
`hedgerow.plugins.flourish.words` writes them out.

Symbols are small ints so that a garden's tally is a tuple of counts: the colours
``G R B Y P`` are 0-4, the stones ``TREE PATH WALL HIVE LAWN FEATURE`` are 5-10, and
``ANY`` (any stone symbol, an ability icon printed on no card) is 11.  Card ids run from 1
to 98 (``C01`` to ``C98`` in the spec); `CARDS` is indexed by id (index 0 unused).
"""

from __future__ import annotations

from typing import NamedTuple

GREEN, RED, BLUE, YELLOW, PURPLE = range(5)
TREE, PATH, WALL, HIVE, LAWN, FEATURE = range(5, 11)
ANY = 11
#: A plant card's type (it carries no stone symbol).
PLANT = -1

COLOURS = (GREEN, RED, BLUE, YELLOW, PURPLE)
STONES = (TREE, PATH, WALL, HIVE, LAWN, FEATURE)
LETTER = {"G": GREEN, "R": RED, "B": BLUE, "Y": YELLOW, "P": PURPLE, "TREE": TREE,
          "PATH": PATH, "WALL": WALL, "HIVE": HIVE, "LAWN": LAWN, "FEATURE": FEATURE,
          "ANY": ANY, "PLANT": PLANT}
#: Names of the symbols, by symbol number.
SYMBOL_NAMES = ("green", "red", "blue", "yellow", "purple", "tree", "path", "wall", "hive",
                "lawn", "feature", "stone")
#: One-letter codes of the colours, and short codes of the stones, by symbol number.
SYMBOL_CODES = ("G", "R", "B", "Y", "P", "Tree", "Path", "Wall", "Hive", "Lawn", "Feat", "Any")

# Ability templates (spec §5) and scopes.
COUNT, SUM2, EITHER = "COUNT", "SUM2", "EITHER"
MAJ_ONE, MAJ_BOTH = "MAJ_ONE", "MAJ_BOTH"
WALLS, COLOR_PATHS, HAVE_TREE, HIVES3 = "WALLS", "COLOR_PATHS", "HAVE_TREE", "HIVES3"
FIVE_OF_ONE, ONE_EACH = "FIVE_OF_ONE", "ONE_EACH"
TEMPLATES = (COUNT, SUM2, EITHER, MAJ_ONE, MAJ_BOTH, WALLS, COLOR_PATHS, HAVE_TREE, HIVES3,
             FIVE_OF_ONE, ONE_EACH)
OWN, ONE_NB, BOTH_NB = "OWN", "ONE_NB", "BOTH_NB"


class Ability(NamedTuple):
    """One scoring ability: a template with its numbers.

    ``points`` is the weight or the flat award (``w1`` of the spec), ``symbol`` the symbol it
    counts or compares (-1 when none); ``points2``/``symbol2`` are the second weight and
    symbol of ``SUM2`` and ``EITHER``; ``scope`` is ``OWN``, ``ONE_NB`` or ``BOTH_NB``.
    """

    template: str
    points: int
    symbol: int = -1
    points2: int = 0
    symbol2: int = -1
    scope: str = OWN


class Card(NamedTuple):
    """One card.  ``kind`` is `PLANT` or a stone symbol; ``plants`` counts its G, R, B, Y, P
    symbols; ``white`` its Rosa Alba symbols; ``eor``/``eog`` its abilities (None: none)."""

    id: int
    name: str
    kind: int
    plants: tuple[int, int, int, int, int]
    white: int
    eor: Ability | None
    eog: Ability | None

    @property
    def code(self) -> str:
        """``"C43"``: the card's id as the spec writes it."""
        return f"C{self.id:02d}"


# ID | name | type | plant symbols | end of round | end of game  (spec §12, OUR DECISION)
_TABLE = """
01|Mentha spicata|PLANT|G1|COUNT(1,G,OWN)|-
02|Hedera helix|PLANT|G1|SUM2(1,P,1,G,OWN)|-
03|Dryopteris filix-mas|PLANT|G1|EITHER(1,R,1,B)|-
04|Hosta sieboldiana|PLANT|G2|SUM2(1,R,1,B,ONE_NB)|-
05|Buxus sempervirens|PLANT|G1|-|MAJ_ONE(6,G)
06|Festuca glauca|PLANT|G2|-|MAJ_BOTH(9,G)
07|Thymus vulgaris|PLANT|G2|-|COUNT(1,G,OWN)
08|Alchemilla mollis|PLANT|G1 R1|COUNT(1,R,OWN)|-
09|Papaver rhoeas|PLANT|R1|COUNT(1,R,OWN)|-
10|Rosa gallica|PLANT|R1|SUM2(1,G,1,R,OWN)|-
11|Dianthus barbatus|PLANT|R1|EITHER(1,B,1,Y)|-
12|Tulipa gesneriana|PLANT|R2|SUM2(1,B,1,Y,ONE_NB)|-
13|Pelargonium zonale|PLANT|R1|-|MAJ_ONE(6,R)
14|Fuchsia magellanica|PLANT|R2|-|MAJ_BOTH(9,R)
15|Lobelia cardinalis|PLANT|R2|-|COUNT(1,R,OWN)
16|Monarda didyma|PLANT|R1 B1|COUNT(1,B,OWN)|-
17|Delphinium elatum|PLANT|B1|COUNT(1,B,OWN)|-
18|Myosotis sylvatica|PLANT|B1|SUM2(1,R,1,B,OWN)|-
19|Centaurea cyanus|PLANT|B1|EITHER(1,Y,1,P)|-
20|Hydrangea macrophylla|PLANT|B2|SUM2(1,Y,1,P,ONE_NB)|-
21|Campanula persicifolia|PLANT|B1|-|MAJ_ONE(6,B)
22|Muscari armeniacum|PLANT|B2|-|MAJ_BOTH(9,B)
23|Nigella damascena|PLANT|B2|-|COUNT(1,B,OWN)
24|Agapanthus africanus|PLANT|B1 Y1|COUNT(1,Y,OWN)|-
25|Helianthus annuus|PLANT|Y1|COUNT(1,Y,OWN)|-
26|Narcissus pseudonarcissus|PLANT|Y1|SUM2(1,B,1,Y,OWN)|-
27|Calendula officinalis|PLANT|Y1|EITHER(1,P,1,G)|-
28|Rudbeckia hirta|PLANT|Y2|SUM2(1,P,1,G,ONE_NB)|-
29|Primula vulgaris|PLANT|Y1|-|MAJ_ONE(6,Y)
30|Solidago virgaurea|PLANT|Y2|-|MAJ_BOTH(9,Y)
31|Coreopsis verticillata|PLANT|Y2|-|COUNT(1,Y,OWN)
32|Tagetes erecta|PLANT|Y1 P1|COUNT(1,P,OWN)|-
33|Lavandula angustifolia|PLANT|P1|COUNT(1,P,OWN)|-
34|Allium giganteum|PLANT|P1|SUM2(1,Y,1,P,OWN)|-
35|Iris germanica|PLANT|P1|EITHER(1,G,1,R)|-
36|Syringa vulgaris|PLANT|P2|SUM2(1,G,1,R,ONE_NB)|-
37|Clematis viticella|PLANT|P1|-|MAJ_ONE(6,P)
38|Verbena bonariensis|PLANT|P2|-|MAJ_BOTH(9,P)
39|Wisteria sinensis|PLANT|P2|-|COUNT(1,P,OWN)
40|Echinacea purpurea|PLANT|P1 G1|COUNT(1,G,OWN)|-
41|Rosa alba|PLANT|W1|COUNT(1,R,OWN)|-
42|Rosa alba|PLANT|W1|-|ONE_EACH(9)
43|Oak|TREE|G3|COUNT(1,G,OWN)|COLOR_PATHS(4,G)
44|Beech|TREE|G2|-|COUNT(2,TREE,OWN)
45|Maple|TREE|R3|COUNT(1,R,OWN)|COLOR_PATHS(4,R)
46|Crab Apple|TREE|R2|-|COUNT(2,TREE,OWN)
47|Blue Spruce|TREE|B3|COUNT(1,B,OWN)|COLOR_PATHS(4,B)
48|Jacaranda|TREE|B2|-|COUNT(2,TREE,OWN)
49|Golden Birch|TREE|Y3|COUNT(1,Y,OWN)|COLOR_PATHS(4,Y)
50|Laburnum|TREE|Y2|-|COUNT(2,TREE,OWN)
51|Plum|TREE|P3|COUNT(1,P,OWN)|COLOR_PATHS(4,P)
52|Redbud|TREE|P2|-|COUNT(2,TREE,OWN)
53|Moss Path|PATH|G2|-|COUNT(3,TREE,BOTH_NB)
54|Fern Walk|PATH|G1|SUM2(1,G,1,R,ONE_NB)|-
55|Brick Path|PATH|R2|-|COUNT(2,HIVE,BOTH_NB)
56|Rose Walk|PATH|R1|SUM2(1,R,1,B,ONE_NB)|-
57|Slate Path|PATH|B2|-|COUNT(2,WALL,BOTH_NB)
58|Brook Steps|PATH|B1|SUM2(1,B,1,Y,ONE_NB)|-
59|Gravel Path|PATH|Y2|-|COUNT(2,LAWN,BOTH_NB)
60|Sunny Walk|PATH|Y1|SUM2(1,Y,1,P,ONE_NB)|-
61|Flagstone Path|PATH|P2|-|COUNT(2,PATH,BOTH_NB)
62|Lilac Walk|PATH|P1|SUM2(1,P,1,G,ONE_NB)|-
63|Clover Hive|HIVE|G1|COUNT(2,R,ONE_NB)|-
64|Skep|HIVE|G1|-|HIVES3(9)
65|Poppy Hive|HIVE|R1|COUNT(2,B,ONE_NB)|-
66|Red Skep|HIVE|R1|-|HIVES3(9)
67|Cornflower Hive|HIVE|B1|COUNT(2,Y,ONE_NB)|-
68|Blue Skep|HIVE|B1|-|HIVES3(9)
69|Honey Hive|HIVE|Y1|COUNT(2,P,ONE_NB)|-
70|Golden Skep|HIVE|Y1|-|HIVES3(9)
71|Heather Hive|HIVE|P1|COUNT(2,G,ONE_NB)|-
72|Violet Skep|HIVE|P1|-|HIVES3(9)
73|Dry Stone Wall|WALL|-|-|WALLS(3)
74|Ivy Wall|WALL|-|-|WALLS(3)
75|Garden Gate|WALL|-|-|WALLS(3)
76|Brick Wall|WALL|-|-|WALLS(3)
77|Trellis|WALL|-|-|WALLS(3)
78|Fern Wall|WALL|G1|MAJ_ONE(6,G)|-
79|Rose Wall|WALL|R1|MAJ_ONE(6,R)|-
80|Wisteria Wall|WALL|B1|MAJ_ONE(6,B)|-
81|Sunflower Wall|WALL|Y1|MAJ_ONE(6,Y)|-
82|Clematis Wall|WALL|P1|MAJ_ONE(6,P)|-
83|Green Lawn|LAWN|-|COUNT(1,G,OWN)|COUNT(1,ANY,OWN)
84|Croquet Lawn|LAWN|-|COUNT(1,R,OWN)|COUNT(1,ANY,OWN)
85|Bowling Lawn|LAWN|-|COUNT(1,B,OWN)|COUNT(1,ANY,OWN)
86|Meadow|LAWN|-|COUNT(1,Y,OWN)|COUNT(1,ANY,OWN)
87|Wildflower Lawn|LAWN|-|COUNT(1,P,OWN)|COUNT(1,ANY,OWN)
88|Picnic Lawn|LAWN|-|EITHER(1,G,1,B)|COUNT(1,ANY,OWN)
89|Tennis Lawn|LAWN|-|EITHER(1,R,1,Y)|COUNT(1,ANY,OWN)
90|Orchard Lawn|LAWN|-|EITHER(1,B,1,P)|COUNT(1,ANY,OWN)
91|Sundial|FEATURE|-|-|HAVE_TREE(9)
92|Tree Swing|FEATURE|-|-|HAVE_TREE(9)
93|Beekeeper's Bench|FEATURE|-|-|HIVES3(9)
94|Apiary Sign|FEATURE|-|-|HIVES3(9)
95|Fountain|FEATURE|-|-|FIVE_OF_ONE(9)
96|Statue|FEATURE|-|-|FIVE_OF_ONE(9)
97|Gazebo|FEATURE|-|-|ONE_EACH(9)
98|Birdbath|FEATURE|-|-|ONE_EACH(9)
"""


def parse_ability(text: str) -> Ability | None:
    """``"SUM2(1,P,1,G,ONE_NB)"`` as an `Ability`; ``"-"`` as None."""
    if text == "-":
        return None
    template, _, rest = text.partition("(")
    args = rest.rstrip(")").split(",")
    if template not in TEMPLATES:
        raise ValueError(f"unknown ability template in {text!r}")
    scope = args.pop() if args[-1] in (OWN, ONE_NB, BOTH_NB) else OWN
    if template in (SUM2, EITHER):
        w1, s1, w2, s2 = args
        return Ability(template, int(w1), LETTER[s1], int(w2), LETTER[s2], scope)
    if len(args) == 2:
        return Ability(template, int(args[0]), LETTER[args[1]], scope=scope)
    (points,) = args
    return Ability(template, int(points), scope=scope)


def _symbols(text: str) -> tuple[tuple[int, int, int, int, int], int]:
    counts = [0] * 5
    white = 0
    if text != "-":
        for part in text.split():
            if part[0] == "W":
                white += int(part[1:])
            else:
                counts[LETTER[part[0]]] += int(part[1:])
    return (counts[0], counts[1], counts[2], counts[3], counts[4]), white


def _parse(table: str) -> tuple[Card, ...]:
    cards = []
    for line in table.strip().splitlines():
        ident, name, kind, plants, eor, eog = line.split("|")
        counts, white = _symbols(plants)
        cards.append(Card(int(ident), name, LETTER[kind], counts, white,
                          parse_ability(eor), parse_ability(eog)))
    return tuple(cards)


DECK: tuple[Card, ...] = _parse(_TABLE)
#: Card by id; index 0 is a placeholder so that ``CARDS[id]`` works.
CARDS: tuple[Card, ...] = (DECK[0]._replace(id=0, name="(none)"), *DECK)
#: Every card id, in id order (the order the deal's shuffle permutes).
IDS: tuple[int, ...] = tuple(c.id for c in DECK)
SIZE = len(DECK)


def card(ident: int) -> Card:
    """The card with id ``ident``; KeyError when there is none."""
    if not 1 <= ident <= SIZE:
        raise KeyError(ident)
    return CARDS[ident]
