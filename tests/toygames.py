"""Small test-only games that prove the core contract without any real game.

* ``posy``: a shuffled deck of cards 1..12; each seat holds 2 hidden cards, plays one per
  turn for its face value and draws; the game ends when every hand is empty.  It offers one
  extension hook, ``posy_rank(scores)`` (firstresult), with the default "highest total
  wins" implemented by the game plugin itself, and two variants: ``lowball`` (lowest total
  wins) and ``bonus`` (5 points for the first card played), which conflict; ``bonus`` is
  for 2-3 players only.
* ``duel``: three simultaneous rounds: every seat picks 1-3 at once; the highest unique
  pick scores its value.  Picks stay hidden until the round is complete.
* ``tokens``: every hidden card is a unique token dealt by chance; a seat plays its cards
  face up for their values and draws again.  A bot that could reach another seat's hidden
  card would find its token (the information-boundary tests look for exactly that).
* ``relay``: hidden hands passed around: each seat is dealt 3 cards (a chance node) and, in
  turn, passes two of its *own* dealt cards to its left neighbour; then the lowest hand
  wins.  A seat's view holds the cards it passed and where they are: what it has seen and
  still knows (contract: hidden information across passes).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from typing import Any

from hedgerow.core import (
    Action,
    BotSupport,
    Chance,
    GameDef,
    GameSpec,
    Outcome,
    Pick,
    Ranked,
    Refusal,
    Rng,
    SetupContext,
    Shuffle,
    VariantSpec,
    hookimpl,
    hookspec,
    permute,
)
from hedgerow.core.ui import HAND, Choose, DrawContext, Form, GameUI, Part, Target

# -- posy -----------------------------------------------------------------------------------


class PosySpecs:
    """Extension hooks of posy."""

    @hookspec(firstresult=True)
    def posy_rank(self, scores: tuple[int, ...]) -> tuple[int, ...] | None:
        """Rank per seat (1 best) from final scores."""

    @hookspec
    def posy_play_bonus(self, first: bool) -> int:
        """Extra points for a play; all answers are summed."""


@dataclass(frozen=True, slots=True)
class PosyState:
    pile: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    turn: int
    plays: int
    dealt: bool = True


@dataclass(frozen=True, slots=True)
class PosyView:
    seat: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int
    scores: tuple[int, ...]
    turn: int


def _rank_high(scores: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 + sum(1 for o in scores if o > s) for s in scores)


def build_posy(ext) -> GameDef:
    def setup(ctx: SetupContext) -> PosyState:
        n = ctx.players
        return PosyState(tuple(range(1, 13)), ((),) * n, (0,) * n, -1, 0, dealt=False)

    def chance(s: PosyState) -> Chance | None:
        return None if s.dealt else Chance((Shuffle(12), Pick(len(s.hands))), "deal")

    def resolve(s: PosyState, outcome) -> PosyState:
        order, first = outcome
        deck = permute(s.pile, order)
        n = len(s.hands)
        hands = tuple(tuple(deck[2 * i : 2 * i + 2]) for i in range(n))
        return PosyState(tuple(deck[2 * n :]), hands, s.scores, first, 0)

    def active(s: PosyState) -> tuple[int, ...]:
        return () if all(not h for h in s.hands) else (s.turn,)

    def legal(s: PosyState, seat: int) -> list[Action]:
        if seat not in active(s):
            return []
        return [Action.of("play", card=c) for c in sorted(set(s.hands[seat]))]

    def apply(s: PosyState, seat: int, a: Action) -> PosyState | Refusal:
        if a.kind != "play" or set(a.as_dict()) != {"card"}:
            return Refusal("posy.unknown", f"posy has no action {a}")
        card = a["card"]
        if card not in s.hands[seat]:
            return Refusal("posy.not_in_hand", f"card {card} is not in seat {seat}'s hand")
        hand = list(s.hands[seat])
        hand.remove(card)
        pile = s.pile
        if pile:
            hand.append(pile[0])
            pile = pile[1:]
        bonus = sum(ext.posy_play_bonus(first=s.plays == 0))
        scores = list(s.scores)
        scores[seat] += card + bonus
        hands = list(s.hands)
        hands[seat] = tuple(hand)
        n = len(s.hands)
        nxt = (seat + 1) % n
        while not hands[nxt] and any(hands):
            nxt = (nxt + 1) % n
        return PosyState(pile, tuple(hands), tuple(scores), nxt, s.plays + 1)

    def view(s: PosyState, seat: int) -> PosyView:
        return PosyView(
            seat, s.hands[seat], tuple(len(h) for h in s.hands), len(s.pile), s.scores, s.turn
        )

    def outcome(s: PosyState) -> Outcome | None:
        if active(s):
            return None
        ranking = ext.posy_rank(scores=s.scores)
        winners = tuple(i for i, r in enumerate(ranking) if r == 1)
        return Ranked(
            s.scores,
            ranking,
            winners,
            f"seat {winners[0]} ranked first",
            breakdown=(("points", s.scores),),
        )

    def describe(s: PosyState, seat: int, a: Action) -> str:
        return f"seat {seat} plays {a.get('card')}"

    def determinize(s: PosyState, seat: int, rng: Rng) -> PosyState:
        hidden = list(s.pile) + [c for i, h in enumerate(s.hands) if i != seat for c in h]
        rng.shuffle(hidden)
        hands, k = [], 0
        for i, h in enumerate(s.hands):
            if i == seat:
                hands.append(h)
            else:
                hands.append(tuple(hidden[k : k + len(h)]))
                k += len(h)
        return replace(s, hands=tuple(hands), pile=tuple(hidden[k:]))

    return GameDef("posy", setup, active, legal, apply, view, outcome, describe, determinize,
                   chance=chance, resolve=resolve)


def build_posy_bots(ext) -> BotSupport:
    """Posy's bot support: a state from a view, and the points so far."""

    def sample(v: PosyView, seat: int, rng: Rng) -> PosyState:
        # The view does not say which cards were played: any card not in the seat's hand
        # may be anywhere hidden.
        pool = [c for c in range(1, 13) if c not in v.hand]
        rng.shuffle(pool)
        hands, k = [], 0
        for i, size in enumerate(v.hand_sizes):
            if i == seat:
                hands.append(v.hand)
            else:
                hands.append(tuple(pool[k:k + size]))
                k += size
        played = 12 - v.pile_size - sum(v.hand_sizes)
        return PosyState(tuple(pool[k:k + v.pile_size]), tuple(hands), v.scores, v.turn, played)

    def score(s: PosyState, seat: int) -> float:
        return float(s.scores[seat])

    return BotSupport(sample=sample, score=score)


class PosyPlugin:
    """The posy game plugin (also the home of posy's default extension behaviour)."""

    @hookimpl
    def hedgerow_addhooks(self, pluginmanager) -> None:
        pluginmanager.add_hookspecs(PosySpecs)

    @hookimpl
    def hedgerow_register_games(self, register) -> None:
        register(GameSpec("posy", "Posy", "1.0.0", 2, 4, build_posy, summary="test game",
                          bots=build_posy_bots))

    @hookimpl(trylast=True)
    def posy_rank(self, scores: tuple[int, ...]) -> tuple[int, ...]:
        return _rank_high(scores)

    @hookimpl
    def hedgerow_game_ui(self, game: str):
        return PosyUI() if game == "posy" else None


class PosyUI(GameUI):
    """Posy in the seat client: its hand as one line, a card chosen by number."""

    game = "posy"
    parts = (Part("hand", HAND),)
    forms = {"play": Form((Choose("card", ("card",), "a card", free=True),))}

    def draw(self, part: str, ctx: DrawContext):
        if part != "hand":
            return None
        return [("bold", "hand"), *((("", f" {c}", Target("card", c))) for c in ctx.view.hand)]


class Lowball:
    @hookimpl
    def posy_rank(self, scores: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(1 + sum(1 for o in scores if o < s) for s in scores)


class Bonus:
    @hookimpl
    def posy_play_bonus(self, first: bool) -> int:
        return 5 if first else 0


class PosyVariants:
    @hookimpl
    def hedgerow_register_variants(self, register) -> None:
        register(
            VariantSpec(
                "posy", "lowball", "1.0.0", Lowball(), summary="lowest wins", conflicts=("bonus",)
            )
        )
        register(
            VariantSpec(
                "posy",
                "bonus",
                "1.0.0",
                Bonus(),
                summary="first play +5",
                conflicts=("lowball",),
                players=(2, 3),
            )
        )


# -- duel (simultaneous) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuelState:
    round: int
    picks: tuple[int, ...]  # 0 = not picked yet this round
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DuelView:
    seat: int
    round: int
    my_pick: int
    picked: tuple[bool, ...]
    scores: tuple[int, ...]


ROUNDS = 3


def build_duel(ext) -> GameDef:
    def setup(ctx: SetupContext) -> DuelState:
        return DuelState(0, (0,) * ctx.players, (0,) * ctx.players)

    def active(s: DuelState) -> tuple[int, ...]:
        if s.round >= ROUNDS:
            return ()
        return tuple(i for i, p in enumerate(s.picks) if p == 0)

    def legal(s: DuelState, seat: int) -> list[Action]:
        return [Action.of("pick", n=n) for n in (1, 2, 3)] if seat in active(s) else []

    def apply(s: DuelState, seat: int, a: Action) -> DuelState | Refusal:
        if a.kind != "pick" or a.get("n") not in (1, 2, 3) or len(a.args) != 1:
            return Refusal("duel.bad_pick", "pick a number from 1 to 3")
        picks = list(s.picks)
        picks[seat] = a["n"]
        if 0 in picks:
            return replace(s, picks=tuple(picks))
        scores = list(s.scores)
        unique = [p for p in picks if picks.count(p) == 1]
        if unique:
            best = max(unique)
            scores[picks.index(best)] += best
        return DuelState(s.round + 1, (0,) * len(picks), tuple(scores))

    def view(s: DuelState, seat: int) -> DuelView:
        return DuelView(seat, s.round, s.picks[seat], tuple(p != 0 for p in s.picks), s.scores)

    def outcome(s: DuelState) -> Outcome | None:
        if active(s):
            return None
        ranking = _rank_high(s.scores)
        winners = tuple(i for i, r in enumerate(ranking) if r == 1)
        return Ranked(s.scores, ranking, winners, "highest score")

    def describe(s: DuelState, seat: int, a: Action) -> str:
        return f"seat {seat} picks a number"

    def determinize(s: DuelState, seat: int, rng: Rng) -> DuelState:
        picks = tuple(
            p if (i == seat or p == 0) else 1 + rng.randbelow(3) for i, p in enumerate(s.picks)
        )
        return replace(s, picks=picks)

    return GameDef("duel", setup, active, legal, apply, view, outcome, describe, determinize)


def build_duel_bots(ext) -> BotSupport:
    """Duel's bot support: the others' hidden picks drawn at random, the points."""

    def sample(v: DuelView, seat: int, rng: Rng) -> DuelState:
        picks = tuple(v.my_pick if i == seat else (1 + rng.randbelow(3) if chose else 0)
                      for i, chose in enumerate(v.picked))
        return DuelState(v.round, picks, v.scores)

    def score(s: DuelState, seat: int) -> float:
        return float(s.scores[seat])

    return BotSupport(sample=sample, score=score)


class DuelPlugin:
    @hookimpl
    def hedgerow_register_games(self, register) -> None:
        register(
            GameSpec("duel", "Duel", "1.0.0", 2, 5, build_duel, summary="simultaneous test game",
                     bots=build_duel_bots)
        )


# -- relay (hidden information across passes) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class RelayState:
    hands: tuple[tuple[int, ...], ...]
    dealt: tuple[tuple[int, ...], ...]  # each seat's dealt cards (only these may be passed)
    passed: tuple[tuple[int, ...], ...]  # what each seat passed, in order
    turn: int


@dataclass(frozen=True, slots=True)
class RelayView:
    seat: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    passed: tuple[int, ...]
    passed_held: tuple[int, ...]  # my passed cards my neighbour holds: known, not hidden
    turn: int


RELAY_PASSES = 2


def build_relay(ext) -> GameDef:
    def setup(ctx: SetupContext) -> RelayState:
        n = ctx.players
        return RelayState(((),) * n, ((),) * n, ((),) * n, -1)

    def chance(s: RelayState) -> Chance | None:
        return Chance((Shuffle(4 * len(s.hands)),), "deal") if s.turn < 0 else None

    def resolve(s: RelayState, outcome) -> RelayState:
        (order,) = outcome
        n = len(s.hands)
        hands = tuple(tuple(sorted(1 + i for i in order[3 * k: 3 * k + 3])) for k in range(n))
        return RelayState(hands, hands, s.passed, 0)

    def active(s: RelayState) -> tuple[int, ...]:
        if s.turn < 0 or s.turn >= RELAY_PASSES * len(s.hands):
            return ()
        return (s.turn % len(s.hands),)

    def legal(s: RelayState, seat: int) -> list[Action]:
        if seat not in active(s):
            return []
        own = [c for c in s.hands[seat] if c in s.dealt[seat]]
        return [Action.of("pass", card=c) for c in own]

    def apply(s: RelayState, seat: int, a: Action) -> RelayState | Refusal:
        if Action.of("pass", card=a.get("card", -1)) != a or a not in legal(s, seat):
            return Refusal("relay.bad_pass", "pass one of your own dealt cards")
        card = a["card"]
        n = len(s.hands)
        hands = list(s.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        left = (seat + 1) % n
        hands[left] = tuple(sorted((*hands[left], card)))
        passed = list(s.passed)
        passed[seat] = (*passed[seat], card)
        return RelayState(tuple(hands), s.dealt, tuple(passed), s.turn + 1)

    def view(s: RelayState, seat: int) -> RelayView:
        left = s.hands[(seat + 1) % len(s.hands)]
        return RelayView(seat, s.hands[seat], tuple(len(h) for h in s.hands), s.passed[seat],
                         tuple(c for c in s.passed[seat] if c in left), s.turn)

    def outcome(s: RelayState) -> Outcome | None:
        if active(s) or s.turn < 0:
            return None
        totals = tuple(sum(h) for h in s.hands)
        ranking = tuple(1 + sum(o < t for o in totals) for t in totals)
        return Ranked(totals, ranking, tuple(i for i, r in enumerate(ranking) if r == 1),
                      "the lowest hand wins")

    def describe(s: RelayState, seat: int, a: Action) -> str:
        return f"seat {seat} passes a card left"

    def determinize(s: RelayState, seat: int, rng: Rng) -> RelayState:
        """Re-deal the cards ``seat`` has not seen, keeping where its passed cards are."""
        n = len(s.hands)
        left = (seat + 1) % n
        known = set(s.hands[seat]) | {c for c in s.passed[seat] if c in s.hands[left]}
        unknown = [c for h in s.hands for c in h if c not in known]
        rng.shuffle(unknown)
        hands, k = [], 0
        for h in s.hands:
            keep = tuple(c for c in h if c in known)
            take = len(h) - len(keep)
            hands.append(tuple(sorted(keep + tuple(unknown[k:k + take]))))
            k += take
        # a re-dealt hand's passable cards: what it was dealt, as far as this seat knows
        dealt = tuple(s.dealt[i] if i == seat else tuple(sorted(
            c for c in hands[i] if c not in s.passed[(i - 1) % n])) + tuple(
            c for c in s.passed[i]) for i in range(n))
        return RelayState(tuple(hands), dealt, s.passed, s.turn)

    return GameDef("relay", setup, active, legal, apply, view, outcome, describe, determinize,
                   chance=chance, resolve=resolve)


class RelayPlugin:
    @hookimpl
    def hedgerow_register_games(self, register) -> None:
        register(GameSpec("relay", "Relay", "1.0.0", 2, 4, build_relay, summary="passing test"))


# -- tokens (every hidden card a unique token, for information-boundary tests) ---------------


TOKEN_ROUNDS = 4
TOKEN_HAND = 3
TOKEN_SPACE = 1 << 30


def token_card(number: int) -> tuple[str, int]:
    """The card a chance draw of ``number`` makes: a token no other card shares (with
    overwhelming probability), and a value 1-5."""
    return (f"tok{number:09d}", number % 5 + 1)


@dataclass(frozen=True, slots=True)
class TokenState:
    hands: tuple[tuple[tuple[str, int], ...], ...]  # hidden: (token, value) per card
    played: tuple[tuple[tuple[str, int], ...], ...]  # face up
    turn: int
    plays: int
    drawer: int = -1  # the seat that draws next (chance), -1 for none
    dealt: bool = True


@dataclass(frozen=True, slots=True)
class TokenView:
    seat: int
    hand: tuple[tuple[str, int], ...]
    hand_sizes: tuple[int, ...]
    played: tuple[tuple[tuple[str, int], ...], ...]
    turn: int
    plays: int


def build_tokens(ext) -> GameDef:
    """``tokens``: each seat holds 3 hidden cards, each a unique token with a value 1-5
    (dealt by chance).  In turn each seat plays a card face up, scoring its value, and draws
    a new one (chance); after 4 turns each the highest total wins.  Playing the best card is
    clearly better than playing any card."""

    def setup(ctx: SetupContext) -> TokenState:
        n = ctx.players
        return TokenState(((),) * n, ((),) * n, 0, 0, dealt=False)

    def over(s: TokenState) -> bool:
        return s.dealt and s.drawer < 0 and s.plays >= TOKEN_ROUNDS * len(s.hands)

    def chance(s: TokenState) -> Chance | None:
        if not s.dealt:
            return Chance((Pick(TOKEN_SPACE),) * (TOKEN_HAND * len(s.hands)), "deal")
        return Chance((Pick(TOKEN_SPACE),), "draw") if s.drawer >= 0 else None

    def resolve(s: TokenState, outcome) -> TokenState:
        cards = [token_card(n) for n in outcome]
        if not s.dealt:
            hands = tuple(tuple(cards[TOKEN_HAND * i:TOKEN_HAND * (i + 1)])
                          for i in range(len(s.hands)))
            return replace(s, hands=hands, dealt=True)
        hands = list(s.hands)
        hands[s.drawer] = (*hands[s.drawer], cards[0])
        return replace(s, hands=tuple(hands), drawer=-1)

    def active(s: TokenState) -> tuple[int, ...]:
        return () if not s.dealt or s.drawer >= 0 or over(s) else (s.turn,)

    def legal(s: TokenState, seat: int) -> list[Action]:
        if seat not in active(s):
            return []
        return [Action.of("play", card=token) for token, _ in sorted(s.hands[seat])]

    def apply(s: TokenState, seat: int, a: Action) -> TokenState | Refusal:
        if seat not in active(s):
            return Refusal("tokens.not_your_turn", f"it is not seat {seat}'s turn")
        card = next((c for c in s.hands[seat] if Action.of("play", card=c[0]) == a), None)
        if card is None:
            return Refusal("tokens.not_in_hand", f"seat {seat} cannot play {a}")
        hands, played = list(s.hands), list(s.played)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        played[seat] = (*played[seat], card)
        plays = s.plays + 1
        drawer = seat if plays <= TOKEN_ROUNDS * len(s.hands) - len(s.hands) else -1
        return TokenState(tuple(hands), tuple(played), (seat + 1) % len(s.hands), plays,
                          drawer)

    def view(s: TokenState, seat: int) -> TokenView:
        return TokenView(seat, s.hands[seat], tuple(len(h) for h in s.hands), s.played,
                         s.turn, s.plays)

    def points(s: TokenState) -> tuple[int, ...]:
        return tuple(sum(v for _, v in p) for p in s.played)

    def outcome(s: TokenState) -> Outcome | None:
        if not over(s):
            return None
        scores = points(s)
        ranking = _rank_high(scores)
        return Ranked(scores, ranking, tuple(i for i, r in enumerate(ranking) if r == 1),
                      "the highest total wins")

    def describe(s: TokenState, seat: int, a: Action) -> str:
        return f"seat {seat} plays {a.get('card')}"

    return GameDef("tokens", setup, active, legal, apply, view, outcome, describe,
                   chance=chance, resolve=resolve)


def _token_points(s: TokenState) -> tuple[int, ...]:
    return tuple(sum(v for _, v in p) for p in s.played)


def build_tokens_bots(ext) -> BotSupport:
    """Tokens' bot support: a state from a view (other hands fresh tokens), the points."""

    def sample(v: TokenView, seat: int, rng: Rng) -> TokenState:
        hands = tuple(v.hand if i == seat else
                      tuple(token_card(rng.randbelow(TOKEN_SPACE)) for _ in range(size))
                      for i, size in enumerate(v.hand_sizes))
        return TokenState(hands, v.played, v.turn, v.plays)

    def score(s: TokenState, seat: int) -> float:
        return float(_token_points(s)[seat])

    return BotSupport(sample=sample, score=score)


class TokensPlugin:
    @hookimpl
    def hedgerow_register_games(self, register) -> None:
        register(GameSpec("tokens", "Tokens", "1.0.0", 2, 4, build_tokens,
                          summary="unique hidden tokens (information-boundary tests)",
                          bots=build_tokens_bots))


PLUGINS = (PosyPlugin(), PosyVariants(), DuelPlugin(), RelayPlugin(), TokensPlugin())


def toy_host(**kwargs):
    """A plugin host with the built-ins blocked and only the toy games loaded."""
    from hedgerow.core.pluginhost import PluginHost

    return PluginHost(builtins=(), autoload=False, extra=PLUGINS, **kwargs)


# Registered as a module plugin by `-p tests.toygames`-style loading in CLI tests.
this = sys.modules[__name__]


@hookimpl
def hedgerow_register_games(register) -> None:
    """Module-level form, used when this file is loaded with HEDGEROW_PLUGINS."""
    PosyPlugin.hedgerow_register_games(None, register)
    DuelPlugin.hedgerow_register_games(None, register)


@hookimpl
def hedgerow_addhooks(pluginmanager) -> None:
    pluginmanager.add_hookspecs(PosySpecs)


@hookimpl(trylast=True)
def posy_rank(scores: tuple[int, ...]) -> tuple[int, ...]:
    return _rank_high(scores)


@hookimpl
def hedgerow_register_variants(register) -> None:
    PosyVariants.hedgerow_register_variants(None, register)


# -- looking for hidden cards in what a bot holds ---------------------------------------------


def reachable_strings(*roots: object, limit: int = 500_000,
                      kind: type = str) -> set[Any]:
    """Every ``str`` (or ``kind``: ``bytes``, ``int``) reachable from ``roots`` (`reachable`)."""
    return {obj for obj in reachable(*roots, limit=limit) if isinstance(obj, kind)}


def reachable(*roots: object, limit: int = 500_000) -> list[object]:
    """Every object reachable from ``roots`` through ``gc.get_referents``, transitively.

    The walk does not enter modules, classes or a module's globals, and follows a function
    only into its closure cells and default values (not its globals): what a bot could reach
    from the objects it was handed (or finds on its call stack) without importing anything.
    It stops with an error after ``limit`` objects, so that a walk that escaped into the
    whole program is noticed.
    """
    import gc
    import types

    module_dicts = {id(vars(m)) for m in list(sys.modules.values()) if m is not None}
    seen: set[int] = set()
    found: list[object] = []
    stack: list[object] = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if len(seen) > limit:
            raise AssertionError(f"the walk reached more than {limit} objects")
        found.append(obj)
        if isinstance(obj, (types.ModuleType, type, int, float, str, bytes, bool)) or obj is None:
            continue
        if id(obj) in module_dicts:
            continue
        if isinstance(obj, types.FunctionType):
            stack.extend(c.cell_contents for c in (obj.__closure__ or ())
                         if _filled(c))
            stack.extend(obj.__defaults__ or ())
            stack.extend((obj.__kwdefaults__ or {}).values())
            continue
        stack.extend(gc.get_referents(obj))
    return found


def _filled(cell: object) -> bool:
    try:
        _ = cell.cell_contents  # type: ignore[attr-defined]
    except ValueError:
        return False
    return True


def hidden_tokens(state: TokenState, seat: int) -> set[str]:
    """The tokens of every card hidden from ``seat`` in ``state``: other seats' hands."""
    return {token for other, hand in enumerate(state.hands) if other != seat
            for token, _ in hand}
