"""The game contract: what a game, a variant and a bot plugin hand to the host.

A game is data plus pure functions (`GameDef`).  The engine calls them directly, so pluggy
is never in the per-move path.  A game plugin registers a `GameSpec` whose ``build``
receives the table's `Extensions` (its variants' hooks) and returns the `GameDef` that
table runs.

Purity contract for every `GameDef` function:

* never mutate an argument: ``apply`` returns a *new* state (sharing unchanged parts is fine);
* depend only on the arguments: no random generator at all (luck comes from chance nodes,
  `hedgerow.core.chance`), no clock, no dict/set order;
* return a `Refusal` instead of raising for any action that is not legal now.

The contract (version 2) in one place:

* **Turns.**  ``active_seats(state)`` names who acts.  One seat: an ordinary turn, that
  seat's action is applied at once.
* **Simultaneous steps.**  Several seats: every one of them chooses one action from
  ``legal_actions(state, seat)`` against the *same* starting state, and nobody sees another's
  choice first.  Once all choices are in, the engine applies them with ``apply`` in
  ascending seat order and logs them in that order.  The game must keep the step whole: after
  applying seat ``a``'s choice, the active seats are the remaining ones and each remaining
  choice (legal against the starting state) still applies.  A game that breaks this is a
  bug the engine reports (`RulesError`) and the conformance kit catches.  Views of the
  states inside a step are never shown to anyone.
* **Chance.**  ``chance(state)`` returns a `Chance` while the state waits for luck (the deal
  after ``setup``, a reshuffle); the engine resolves it and calls ``resolve``.  While a chance
  is pending no other function is called on that state.
* **Outcomes.**  ``outcome(state)`` is one of `Ranked`, `Cooperative`, `Solo`, `Match`
  (`hedgerow.core.outcome`).
* **Hidden information.**  ``view(state, seat)`` is everything ``seat`` knows, and only that:
  its own hidden cards, public cards, counts of others' hidden cards, *and what it has seen
  and still knows* — cards it passed to a neighbour, cards it saw revealed and that went
  back into a hand, cards played face down in front of it.  ``determinize(state, seat,
  rng)`` (optional) re-deals, from the state, only what ``seat`` cannot know.
* **Bots.**  A bot gets its seat's view, the legal actions and a `BotContext`, never the
  state: its rules are a `hedgerow.core.botmodel.BotModel`, which works only on states it
  sampled from the bot's view and played on from there.  What a bot needs beyond the rules
  (a sampler, the game's judgement of a position) is not part of them: a game offers it
  beside them, as a `hedgerow.core.botsupport.BotSupport` (``GameSpec.bots``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from hedgerow.core.actions import Action
from hedgerow.core.botmodel import BotModel
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.chance import Chance, ChanceOutcome
from hedgerow.core.errors import Refusal
from hedgerow.core.outcome import Outcome
from hedgerow.core.rng import Rng

S = TypeVar("S")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class SetupContext:
    """What ``GameDef.setup`` gets: the player count.  Setup holds no randomness: a state that
    needs a shuffled deck asks for it with a chance node, which the engine resolves next."""

    players: int


@dataclass(frozen=True, slots=True)
class GameDef(Generic[S, V]):
    """One game's rules, as bound for one table (its variants chosen).

    * ``setup(ctx) -> S``: the initial state for ``ctx.players`` seats, before any luck (the
      deal is the first chance node).
    * ``active_seats(state) -> tuple[int, ...]``: who must act now; one seat for a normal turn,
      several for a simultaneous step, ``()`` when the game is over.
    * ``legal_actions(state, seat) -> Sequence[Action]``: every action ``seat`` may take now
      (empty when it is not that seat's turn), in a deterministic order.
    * ``apply(state, seat, action) -> S | Refusal``: validate and apply; a new state or why not.
    * ``view(state, seat) -> V``: what ``seat`` may see. ``V`` is not ``S``: it holds the
      seat's own hidden cards, public cards and counts of others' hidden cards, nothing else.
    * ``outcome(state) -> Outcome | None``: the result once the game is over, else None: a
      `Ranked`, `Cooperative`, `Solo` or `Match`.
    * ``describe(state, seat, action) -> str``: the action in plain words, given the state it
      applies to (for logs and the client).
    * ``determinize(state, seat, rng) -> S`` (optional): a state that ``seat`` cannot tell from
      ``state``: everything hidden from ``seat`` (and only that: not what it has seen) is
      re-dealt at random.  Write it from the state, never from the view: the conformance
      kit checks with it that the view leaks nothing, which a determinize built from the
      view cannot show (the kit also re-deals by itself, through chance: see
      `hedgerow.core.conformance`).
    * ``hash_data(state) -> object`` (optional): plain data (ints, strings, tuples) that names
      the state exactly, for the canonical state hash; by default the state itself.
    * ``chance(state) -> Chance | None`` (optional, with ``resolve``): the luck the state waits
      for, or None.  ``setup`` of a game with a deck returns a state whose chance is the deal.
    * ``resolve(state, outcome) -> S`` (optional, with ``chance``): the state once chance
      answered ``outcome`` (one result per draw of the pending `Chance`).
    * ``name_cards(state, seat, action) -> Action`` (optional): at a sealed table
      (`hedgerow.core.sealedtable`), ``action`` with the hidden cards it takes named, for an
      action that takes cards by description ("two red cards" rather than "these two
      cards").  It is called on the acting seat's information state, where the seat's own
      cards are `hedgerow.core.sealed.Known` faces; the action it returns names the cards
      it takes as those values (an extra argument the rules accept), so that the other
      peers learn which of the seat's sealed cards were taken.  Not needed by a game whose
      actions name their cards; never called at an open table.

    See the module docstring for simultaneous steps and hidden information.
    """

    name: str
    setup: Callable[[SetupContext], S]
    active_seats: Callable[[S], tuple[int, ...]]
    legal_actions: Callable[[S, int], Sequence[Action]]
    apply: Callable[[S, int, Action], S | Refusal]
    view: Callable[[S, int], V]
    outcome: Callable[[S], Outcome | None]
    describe: Callable[[S, int, Action], str]
    determinize: Callable[[S, int, Rng], S] | None = None
    hash_data: Callable[[S], object] | None = None
    chance: Callable[[S], Chance | None] | None = None
    resolve: Callable[[S, ChanceOutcome], S] | None = None
    name_cards: Callable[[S, int, Action], Action] | None = None

    def __post_init__(self) -> None:
        if (self.chance is None) != (self.resolve is None):
            raise ValueError(f"game {self.name!r}: chance and resolve come together")

    def pending_chance(self, state: S) -> Chance | None:
        """The chance ``state`` waits for, or None (always None for a game without chance)."""
        return self.chance(state) if self.chance is not None else None


class Extensions(Protocol):
    """A table's relay to its game's extension hooks: ``ext.petals_winner(...)`` calls the
    hook with only the variants chosen for that table (plus the game's own defaults)."""

    active: tuple[str, ...]

    def __getattr__(self, name: str) -> Callable[..., Any]: ...


@dataclass(frozen=True, slots=True)
class on_first_use:  # (lower case: read as a function, build=on_first_use("pkg.game"))
    """``module.name(ext)``, the module imported at the first call: a game's ``build`` or
    ``bots`` given this way leaves its rules and bot support unread until a table is built
    (``hedgerow games`` lists the games from their specs alone).  Picklable, as a module
    function is."""

    module: str
    name: str = "build"

    def __call__(self, ext: Extensions) -> Any:
        import importlib

        return getattr(importlib.import_module(self.module), self.name)(ext)


class rules_module:  # (lower case: read as a module, ranking = rules_module(...))
    """A plugin module's stand-in for one of its rules modules until the first use.

    A game's plugin module is loaded by every ``hedgerow`` command, and its standard-rule
    hooks call into the rules; importing them there made listing the games import every
    game's rules.  Written as::

        if TYPE_CHECKING:
            from hedgerow.plugins.mandala import ranking
        else:
            ranking = rules_module(globals(), "ranking", "hedgerow.plugins.mandala.ranking")

    the first attribute read imports the module and puts it in the plugin module's globals
    in place of this object, so from then on ``ranking.standard_end`` is an ordinary module
    attribute (a hook that runs every move pays nothing), and the type checker sees the
    real module all along.
    """

    __slots__ = ("_as", "_name", "_scope")

    def __init__(self, scope: dict[str, Any], as_name: str, module: str) -> None:
        self._scope = scope
        self._as = as_name
        self._name = module

    def __getattr__(self, attr: str) -> Any:
        import importlib

        module = importlib.import_module(self._name)
        if self._scope.get(self._as) is self:
            self._scope[self._as] = module
        return getattr(module, attr)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game plugin registers through ``hedgerow_register_games``.

    ``build(ext)`` returns the `GameDef` for a table whose chosen variants answer through
    ``ext``.  Extension hookspecs the game offers its variants are added through
    ``hedgerow_addhooks``.

    ``bots(ext)`` (optional) returns the game's `BotSupport` for the same table: what its
    bots may use beyond the rules (a sampler, the game's judgement of a position).  Without
    it every bot still plays, ``greedy`` and ``ismcts`` uniformly at random.

    ``leaderboard``: True when finished solo games of this game go on the weekly solo
    leaderboard (``hedgerow leaderboard``, docs/leaderboard.md); its result for one player
    must then be a `Solo` with a score.  ``leaderboard_floor`` is the lowest score a solo game
    can reach: what a board game left unfinished counts (docs/leaderboard.md), so that leaving
    a game is never better than finishing it.
    """

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    build: Callable[[Extensions], GameDef[Any, Any]]
    summary: str = ""
    default_players: int | None = None
    bots: Callable[[Extensions], BotSupport[Any, Any]] | None = None
    leaderboard: bool = False
    leaderboard_floor: int = 0

    @property
    def players_default(self) -> int:
        """The player count used when none is given."""
        return self.default_players or self.min_players


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """What a variant plugin registers through ``hedgerow_register_variants``.

    ``impl`` is the object (module, class or instance) holding the variant's implementations
    of its game's extension hooks.  The host registers it with the plugin manager and calls
    it only at tables that chose this variant.  ``conflicts`` names variants it cannot be
    combined with; ``players`` narrows the game's player range when given.
    """

    game: str
    name: str
    version: str
    impl: object
    summary: str = ""
    conflicts: tuple[str, ...] = ()
    players: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class BotContext:
    """What a bot is made with, and all it ever gets besides its views and legal actions.

    * ``model``: the bot's only door to the rules (`hedgerow.core.botmodel.BotModel`): it
      samples complete states from a view and plays them forward.  It never holds the
      table's real state, and takes states from nowhere but itself (a convention in one
      process, not a wall: docs/plugins.md, "What a bot is handed, and what that promises").
    * ``seat``, ``players``: where the bot sits, at a table of how many.
    * ``rng``: the bot's own random stream (``bot/<seat>`` keyed by a one-way digest of the
      table seed, never the seed, which names every card); a bot that uses no other
      randomness plays the same game in any process.
    * ``game``: the game's name (``"petals"``), for bots with game-specific knowledge.
    * ``params``: the parameters chosen with the bot, as written after its name
      (``"1s"`` for ``ismcts:1s``; ``""`` when none): see `hedgerow.core.botchoice`.
    """

    model: BotModel
    seat: int
    players: int
    rng: Rng
    game: str = ""
    params: str = ""


class Bot(Protocol):
    """A seat player.  It sees only its seat's view and the legal actions.

    ``choose`` may take its time (a search bot thinks for a second): callers run it off
    their event loop, so it must not touch anything but its own objects.
    """

    def choose(self, view: Any, legal: Sequence[Action]) -> Action: ...


def _no_params(params: str) -> None:
    if params:
        raise ValueError(f"takes no parameters (got {params!r})")


@dataclass(frozen=True, slots=True)
class BotSpec:
    """What a bot plugin registers through ``hedgerow_register_bots``.

    * ``make(ctx) -> Bot``: a bot for one seat (`BotContext`).
    * ``games``: the games it can play; empty means any game (it uses only the `BotModel`).
    * ``check(params)``: raises ``ValueError`` with a plain message when ``params`` (the text
      after ``name:``) is not something this bot understands; by default a bot takes none.
    * ``params_help``: one line on the parameters it takes (``hedgerow games`` and errors
      show it).
    * ``params``: the parameters *chosen* for a seat.  A plugin registers its spec with none;
      `hedgerow.core.botchoice.resolve` returns a copy with the checked parameters, and the
      bot receives them as ``BotContext.params``.
    """

    name: str
    version: str
    make: Callable[[BotContext], Bot]
    summary: str = ""
    games: tuple[str, ...] = field(default=())
    check: Callable[[str], None] = _no_params
    params_help: str = ""
    params: str = ""

    def plays(self, game: str) -> bool:
        """True when this bot can sit at a table of ``game``."""
        return not self.games or game in self.games

    @property
    def label(self) -> str:
        """``name`` or ``name:params``: how the choice is written on a command line."""
        return f"{self.name}:{self.params}" if self.params else self.name
