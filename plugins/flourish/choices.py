"""The actions a seat may take (``GameDef.legal_actions``) and reading one back (`parse`).

Every turn is one action per seat, chosen at the same time as everyone else:

* turns 1-9 with left and right neighbours: ``turn(play, left, right)``, three distinct
  cards of the hand: the one to play, the one passed left, the one passed right;
* turns 1-9 with one neighbour (two players) or against McGregor: ``turn(play, passed)``,
  ``passed`` the two cards given away, lower id first;
* with the compost variant, either form may add ``compost``: a fourth distinct card;
* the final round: ``final(play)``, the three cards to play, lowest id first (the other two
  are discarded).

The order is fixed: by the hand's order (ids ascending) of the played card, then of the
passed cards, each choice without a compost discard first and then with each possible one.
A 6-card hand gives 120 actions (60 with one neighbour), four times as many with compost,
and 10 in the final round.  `TurnChoices` makes each `Action` only when asked for.

At a sealed table (``hedgerow.plugins.flourish.hidden``) a seat lists its actions from its
information state, where its hand is `Known` faces (put in the order of the public state,
so it is sorted here again), and an action travels with a `Sealed` token for each card it
names; `parse` takes both.  It never reads a sealed card: a card is checked to be in the
hand and distinct from the others by equality, and the "lowest id first" order of the two
cards passed to one neighbour, which cannot be checked without reading them, is checked
only where the cards are faces (the open game; the author's own legal actions keep it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, permutations

from hedgerow.core import Action, Refusal
from hedgerow.core.lazyactions import LazyActions
from hedgerow.core.sealed import Sealed, SealedRead
from hedgerow.plugins.flourish.hidden import NO_CARD, distinct, in_order, increasing, is_card
from hedgerow.plugins.flourish.state import FINAL, Choice, State

#: One action's shape: (play indices, pass indices, compost index or -1) into a hand.
Pattern = tuple[tuple[int, ...], tuple[int, ...], int]
TURN, FINAL_KIND = "turn", "final"


def neighbours_apart(state: State) -> bool:
    """True when a seat passes one card left and one right (three or more gardens)."""
    return state.cfg.gardens >= 3


@lru_cache(maxsize=64)
def patterns(size: int, split: bool, compost: bool, final: bool) -> tuple[Pattern, ...]:
    """Every action shape for a hand of ``size`` cards, in the documented order."""
    out: list[Pattern] = []
    if final:
        return tuple((tuple(c), (), -1) for c in combinations(range(size), 3))
    for play in range(size):
        rest = [i for i in range(size) if i != play]
        passes = (list(permutations(rest, 2)) if split
                  else list(combinations(rest, 2)))
        for pair in passes:
            out.append(((play,), pair, -1))
            if compost:
                for extra in rest:
                    if extra not in pair:
                        out.append(((play,), pair, extra))
    return tuple(out)


def make_action(hand: Sequence[int], pattern: Pattern, split: bool) -> Action:
    """The action a pattern stands for with this hand."""
    plays, passes, extra = pattern
    if len(plays) == 3:
        return Action(FINAL_KIND, (("play", (hand[plays[0]], hand[plays[1]],
                                             hand[plays[2]])),))
    play, first, second = hand[plays[0]], hand[passes[0]], hand[passes[1]]
    if split:
        args: tuple[tuple[str, int | tuple[int, ...]], ...] = (
            ("left", first), ("play", play), ("right", second))
    else:
        args = (("passed", (first, second)), ("play", play))
    if extra >= 0:
        args = (("compost", hand[extra]), *args)
    return Action(TURN, args)


@lru_cache(maxsize=32)
def listed(hand: tuple[int, ...], split: bool, compost: bool, final: bool,
           ) -> tuple[Action, ...]:
    """Every action for this hand, made once (listing the same hand again is free)."""
    return tuple(make_action(hand, p, split)
                 for p in patterns(len(hand), split, compost, final))


#: The card types of a hand whose listing may be shared (`listed`): plain ids only.
_PLAIN = frozenset({int})


class TurnChoices(LazyActions):
    """A seat's legal actions, made one at a time when indexed; listed whole (and kept for
    the same hand) when iterated; ``in`` is answered by parsing."""

    __slots__ = ("_compost", "_final", "_hand", "_patterns", "_seat", "_split", "_turn")

    def __init__(self, state: State, seat: int, split: bool, compost: bool, final: bool,
                 ) -> None:
        # Not the state itself: this list is handed to the seat's bot, and the state holds
        # every hand (docs/plugins.md, "What a bot is handed").
        self._turn = state.turn
        self._seat = seat
        hand = state.hands[seat]
        try:  # an information state's hand is in the public state's order: sort it
            self._hand: Sequence[int] = sorted(hand)
        except SealedRead:
            self._hand = in_order(hand)
        self._split = split
        self._compost = compost
        self._final = final
        self._patterns = patterns(len(self._hand), split, compost, final)

    def __len__(self) -> int:
        return len(self._patterns)

    def _at(self, index: int) -> Action:
        return make_action(self._hand, self._patterns[index], self._split)

    def __iter__(self) -> Iterator[Action]:
        hand = self._hand
        if {*map(type, hand)} <= _PLAIN:
            return iter(listed(tuple(hand), self._split, self._compost, self._final))
        # Known faces (a sealed table's information state) are equal to plain ids: the
        # listing kept for a plain hand would hand back plain cards, and the other way.
        return super().__iter__()

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        # A search asks this many times an iteration, mostly of actions of another
        # sample's hand: the common shape is answered straight from its cards (this list
        # exists only while the seat may choose, which `parse` would check first).
        if not self._split and not self._final and action.kind == TURN:
            cards = _pair_turn(action.args)
            if cards is not None:
                return _pair_legal(cards, self._hand)
        return isinstance(parse_hand(self._hand, self._seat, action, self._turn, self._split,
                                     self._compost), Choice)


def legal_actions(state: State, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now (empty when it is not choosing)."""
    if state.luck or state.turn > FINAL or not 0 <= seat < state.cfg.players:
        return ()
    if state.choices[seat] is not None:
        return ()
    final = state.turn == FINAL
    return TurnChoices(state, seat, neighbours_apart(state), state.cfg.compost and not final,
                       final)


def _card(value: object) -> int | None:
    return value if type(value) is int or is_card(value) else None


def _cards(value: object, count: int) -> tuple[int, ...] | None:
    if type(value) is not tuple or len(value) != count:
        return None
    if not all(type(v) is int or is_card(v) for v in value):
        return None
    return value


def _refuse(code: str, message: str) -> Refusal:
    return Refusal(f"flourish.{code}", message)


def _pair_turn(args: tuple[tuple[str, object], ...]) -> tuple[int, int, int] | None:
    """``(play, first, second)`` when the args are ``passed=(first, second), play=play``
    with card ids (the common action of a seat with one neighbour, which a search asks
    about often); None for any other shape, which `parse` reads in full."""
    if len(args) != 2 or args[0][0] != "passed" or args[1][0] != "play":
        return None
    passed, play = args[0][1], args[1][1]
    if type(passed) is not tuple or len(passed) != 2 or type(play) is not int:
        return None
    first, second = passed
    if type(first) is not int or type(second) is not int:
        return None
    return play, first, second


def _pair_legal(cards: tuple[int, int, int], hand: Sequence[int]) -> bool:
    """Whether a `_pair_turn` is legal with ``hand``: three distinct cards held, the
    passed pair lowest id first (what `parse` checks of that shape)."""
    play, first, second = cards
    return (first < second and play != first and play != second
            and play in hand and first in hand and second in hand)


def _ordered_wrongly(first: int, second: int) -> bool:
    """True when two faces are not in ascending order (sealed cards are not compared)."""
    return type(first) is not Sealed and type(second) is not Sealed and first >= second


def parse(state: State, seat: int, action: Action) -> Choice | Refusal:
    """The `Choice` an action stands for, or why it is not legal for ``seat`` now."""
    if state.luck or state.turn > FINAL:
        return _refuse("not_now", "nobody chooses now")
    if state.choices[seat] is not None:
        return _refuse("already_chosen", f"seat {seat} has chosen this turn")
    return parse_hand(state.hands[seat], seat, action, state.turn, neighbours_apart(state),
                      state.cfg.compost)


def parse_hand(hand: Sequence[int], seat: int, action: Action, turn: int, split: bool,
               compost_on: bool) -> Choice | Refusal:
    """`parse` for a seat that may choose now, from its ``hand`` alone (in any order), the
    ``turn``, whether neighbours sit apart (``split``) and whether the table plays the
    compost variant: all a `TurnChoices` keeps of the state."""
    if turn != FINAL and action.kind == TURN and not split:
        cards = _pair_turn(action.args)
        if cards is not None and _pair_legal(cards, hand):
            return Choice((cards[0],), cards[1:], -1)
    args = dict(action.args)
    if turn == FINAL:
        if action.kind != FINAL_KIND or set(args) != {"play"}:
            return _refuse("bad_action", "the final round takes final(play=(three cards))")
        play = _cards(args["play"], 3)
        if play is None:
            return _refuse("bad_action", "play three cards: play=(a, b, c)")
        if not increasing(play):
            return _refuse("bad_order", "list the three cards once each, lowest id first")
        if any(c not in hand for c in play):
            return _refuse("not_in_hand", f"seat {seat} does not hold all of {play}")
        return Choice(play)
    if action.kind != TURN:
        return _refuse("bad_action", f"turn {turn + 1} takes a turn(...) action")
    names = {"play", "left", "right"} if split else {"play", "passed"}
    compost = args.get("compost")
    if compost is not None:
        if not compost_on:
            return _refuse("no_compost", "this table plays without the compost variant")
        names.add("compost")
    if set(args) != names:
        want = "turn(play, left, right)" if split else "turn(play, passed=(a, b))"
        return _refuse("bad_action", f"this turn takes {want}" +
                       (" and optionally compost" if compost_on else ""))
    card = _card(args["play"])
    if split:
        left, right = _card(args["left"]), _card(args["right"])
        passes: tuple[int, ...] | None = None if left is None or right is None else (left, right)
    else:
        passes = _cards(args["passed"], 2)
    extra = _card(compost) if compost is not None else NO_CARD
    if card is None or passes is None or extra is None:
        return _refuse("bad_action", "cards are named by their ids (ints)")
    if compost is not None and extra not in hand:
        return _refuse("not_in_hand", f"seat {seat} does not hold card {extra!r} to compost")
    if not split and _ordered_wrongly(passes[0], passes[1]):
        return _refuse("bad_order", "list the two passed cards lowest id first")
    chosen = (card, *passes) + ((extra,) if compost is not None else ())
    if not distinct(chosen):
        return _refuse("not_distinct", "play, pass and compost distinct cards")
    if any(c not in hand for c in chosen):
        return _refuse("not_in_hand", f"seat {seat} does not hold all of {chosen}")
    return Choice((card,), passes, extra)
