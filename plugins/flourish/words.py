"""Cards and abilities in words, for the client and the logs: full sentences and short forms.

* `ability_text`: an ability in full (``"1 point for each green symbol in your garden"``);
* `ability_short`: the same in a few characters (``"1/G"``, ``"6 G>=nb"``, ``"9 Hive x3"``);
* `card_text` / `card_line`: a card's name, type, symbols and both abilities, long or short;
* `card_name`: ``"Oak (C43)"``.

Rosa Alba's rule, the two-player Path rule and the best-choice rule are the same for every
card, so they are explained once (`ROSA_ALBA`, `ONE_NEIGHBOUR`, `BEST_CHOICE`), not on
every card.
"""

from __future__ import annotations

from hedgerow.plugins.flourish.cards import (
    ANY,
    BOTH_NB,
    COLOR_PATHS,
    COUNT,
    EITHER,
    FIVE_OF_ONE,
    HAVE_TREE,
    HIVES3,
    MAJ_BOTH,
    MAJ_ONE,
    ONE_EACH,
    ONE_NB,
    PATH,
    PLANT,
    SUM2,
    SYMBOL_CODES,
    SYMBOL_NAMES,
    WALLS,
    Ability,
    card,
)

ROSA_ALBA = ("Rosa Alba's white symbol stands for one plant symbol of any colour, chosen "
             "afresh for each ability to score the most; in a comparison it counts on both "
             "sides.")
ONE_NEIGHBOUR = ("With one neighbour (two players, or you and McGregor), every neighbour "
                 "ability looks at that one garden, and a Path's neighbour ability counts "
                 "your garden and theirs together.")
BEST_CHOICE = "Where an ability leaves a choice (which neighbour, which colour), the best counts."


#: The templates worded "<points> <condition>" (``{colour}``: the ability's colour).
_CONDITIONS = {
    MAJ_ONE: ("if you have at least one {colour} symbol and at least as many as one of your "
              "neighbours"),
    MAJ_BOTH: ("if you have at least one {colour} symbol and at least as many as each of your "
               "neighbours"),
    WALLS: "for each wall in your garden, this one included",
    COLOR_PATHS: "for each path in your garden showing a {colour} symbol",
    HAVE_TREE: "if your garden has a tree",
    HIVES3: "if your garden has three hives or more",
    FIVE_OF_ONE: "if your garden has five symbols or more of one colour",
    ONE_EACH: "if your garden has a symbol of every plant colour",
}
#: `ability_short` of the templates after the first three.
_SHORT = {
    MAJ_ONE: "{points} {code}>=nb",
    MAJ_BOTH: "{points} {code}>=all",
    WALLS: "{points}/Wall",
    COLOR_PATHS: "{points}/{code}-Path",
    HAVE_TREE: "{points} Tree",
    HIVES3: "{points} Hive x3",
    FIVE_OF_ONE: "{points} 5-of-1",
    ONE_EACH: "{points} all colours",
}


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _thing(symbol: int) -> str:
    if symbol < 5:
        return f"{SYMBOL_NAMES[symbol]} symbol"
    if symbol == ANY:
        return "stone symbol (any non-plant card)"
    return SYMBOL_NAMES[symbol]


def _where(scope: str) -> str:
    if scope == ONE_NB:
        return "in one neighbour's garden (the better one)"
    if scope == BOTH_NB:
        return "in your two neighbours' gardens together"
    return "in your garden"


def ability_text(ability: Ability) -> str:
    """``ability`` as one sentence."""
    a = ability
    t = a.template
    if t == COUNT:
        return f"{_points(a.points)} for each {_thing(a.symbol)} {_where(a.scope)}"
    if t == SUM2:
        return (f"{_points(a.points)} for each {SYMBOL_NAMES[a.symbol]} symbol and "
                f"{_points(a.points2)} for each {SYMBOL_NAMES[a.symbol2]} symbol "
                f"{_where(a.scope)}")
    if t == EITHER:
        return (f"{_points(a.points)} for each {SYMBOL_NAMES[a.symbol]} symbol or "
                f"{_points(a.points2)} for each {SYMBOL_NAMES[a.symbol2]} symbol in your "
                "garden, whichever is more")
    if t in _CONDITIONS:
        colour = SYMBOL_NAMES[a.symbol] if 0 <= a.symbol < 5 else ""
        return f"{_points(a.points)} " + _CONDITIONS[t].format(colour=colour)
    raise ValueError(f"unknown template {t!r}")


def ability_short(ability: Ability) -> str:
    """``ability`` in a few characters: ``1/G``, ``1/P+1/G``, ``1/R|1/B``, ``2/B nb``,
    ``3/Tree nb+nb``, ``6 G>=nb``, ``9 G>=all``, ``3/Wall``, ``4/G-Path``, ``9 Tree``,
    ``9 Hive x3``, ``9 5-of-1``, ``9 all colours``."""
    a = ability
    t = a.template
    code, code2 = SYMBOL_CODES[a.symbol], SYMBOL_CODES[a.symbol2]
    scope = {ONE_NB: " nb", BOTH_NB: " nb+nb"}.get(a.scope, "")
    if t == COUNT:
        return f"{a.points}/{code}{scope}"
    if t == SUM2:
        return f"{a.points}/{code}+{a.points2}/{code2}{scope}"
    if t == EITHER:
        return f"{a.points}/{code}|{a.points2}/{code2}"
    return _SHORT[t].format(points=a.points, code=code)


def symbols_short(ident: int) -> str:
    """A card's plant symbols: ``"G1 R1"``, ``"W1"``, or ``""``."""
    c = card(ident)
    parts = [f"{SYMBOL_CODES[i]}{n}" for i, n in enumerate(c.plants) if n]
    if c.white:
        parts.append(f"W{c.white}")
    return " ".join(parts)


def card_name(ident: int) -> str:
    """``"Oak (C43)"``."""
    c = card(ident)
    return f"{c.name} ({c.code})"


def kind_name(ident: int) -> str:
    """``"Tree"``, or ``"Plant"``."""
    kind = card(ident).kind
    return "Plant" if kind == PLANT else SYMBOL_NAMES[kind].capitalize()


def card_line(ident: int) -> str:
    """One short line: ``"C43 Oak [Tree] G3 | round 1/G | end 4/G-Path"``."""
    c = card(ident)
    parts = [f"{c.code} {c.name} [{kind_name(ident)}]"]
    symbols = symbols_short(ident)
    if symbols:
        parts[0] += f" {symbols}"
    if c.eor is not None:
        parts.append(f"round {ability_short(c.eor)}")
    if c.eog is not None:
        parts.append(f"end {ability_short(c.eog)}")
    return " | ".join(parts)


def card_text(ident: int) -> str:
    """A card in full: name, type, symbols, and each ability as a sentence."""
    c = card(ident)
    symbols = symbols_short(ident) or "no plant symbols"
    lines = [f"{c.name} ({c.code}), {kind_name(ident).lower()}, {symbols}."]
    if c.eor is not None:
        lines.append(f"End of round: {ability_text(c.eor)}.")
    if c.eog is not None:
        lines.append(f"End of game: {ability_text(c.eog)}.")
    if c.kind == PATH and any(a is not None and a.scope in (ONE_NB, BOTH_NB)
                              for a in (c.eor, c.eog)):
        lines.append("With one neighbour it counts your garden and theirs together.")
    if c.white:
        lines.append(ROSA_ALBA)
    return " ".join(lines)
