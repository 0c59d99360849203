"""The game type: one object per game, and the registry that finds it by name.

A game is a :class:`GameType` subclass: what it is (name, title, seat counts, presets,
the web client's module), how a room of it is configured (the room fields it takes, their
defaults, the room's numbers applied to a preset, the minimum coins, how its results turn
into coins: :class:`Payout`), how a table runs a hand of it (the engine, the bots and 托管,
escapes, paced deals) and how a hand is recorded and replayed.  Every engine's hand is a
:class:`GameState`.  See the package's docstring for how games are found.

A game's type is generic over the game's own types, ``GameType[Rules, State, Action,
View]``, so that each game's module is checked against its engine.  The hall, which holds a
game chosen at run time by name, sees :data:`SomeGame` and :data:`SomeState`: the same
types with the game left open (``docs/architecture.md``).
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Protocol, Self, TypeAlias, TypeVar

from qipai.errors import InvalidActionError
from qipai.games.events import SPECTATOR, Event
from qipai.games.presets import lookup
from qipai.jsontypes import Json

BUILTIN: Mapping[str, str] = {
    "doudizhu": "qipai.registry.doudizhu",
    "zhajinhua": "qipai.registry.zhajinhua",
    "showhand": "qipai.registry.showhand",
}
"""The shipped games and the module that defines each one's :class:`GameType` (as
``GAME``), imported on first use: importing the registry loads no game."""


@dataclass(frozen=True)
class EscapeCost:
    """What leaving the hand now costs a seat, as far as that seat can know: at least
    :attr:`least`, at most :attr:`most` (equal where nothing hidden from it changes the
    price; the escape itself is charged the true price, which lies between)."""

    least: int
    """The least it can cost (points or chips)."""
    most: int
    """The most it can cost."""

    @classmethod
    def exact(cls, cost: int) -> EscapeCost:
        """A price nothing hidden changes."""
        return cls(cost, cost)


ActionT = TypeVar("ActionT")
"""A game's action type (its ``Action`` base class)."""
ViewT = TypeVar("ViewT")
"""A game's view type (its ``View``)."""
RulesT = TypeVar("RulesT", bound="GameRules")
"""A game's rule set type (its ``Rules``)."""
StateT = TypeVar("StateT", bound="SomeState")
"""A game's hand type (its ``State``)."""
# the same, where a protocol or class only gives them out (_co) or takes them in (_contra)
ViewT_co = TypeVar("ViewT_co", covariant=True)
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
ActionT_co = TypeVar("ActionT_co", covariant=True)
StateT_co = TypeVar("StateT_co", covariant=True)


class AppliedStep(Protocol):
    """One step of a hand's history: who applied an action (``None``: the dealer), and
    which (the game's own action)."""

    @property
    def seat(self) -> int | None:
        """The acting seat, or ``None`` for the dealer."""
        ...

    @property
    def action(self) -> object:
        """The action applied."""
        ...


class GameState(Protocol[ActionT, ViewT_co]):
    """One hand of any game: the protocol every engine's ``State`` follows, generic over
    the game's action and view types.

    A hand is a deterministic state machine: made from a seed by the game's ``State.new``,
    it lists the legal actions, validates then applies one (returning its events; an
    invalid action raises and changes nothing), and shows each seat only its own view.
    """

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` (the dealer dealing, several choosing at once, or
        the hand over)."""
        ...

    @property
    def events(self) -> Sequence[Event]:
        """Every event of the hand so far, in order: each one says which seats may see it
        (:meth:`~qipai.games.events.Event.visible_to`)."""
        ...

    @property
    def history(self) -> Sequence[AppliedStep]:
        """Every action applied so far, in order, with its seat: what a hand's record
        keeps, to be replayed from its seed (:func:`~qipai.hall.records.record_hand`)."""
        ...

    def legal_actions(self, seat: int | None = None) -> Sequence[ActionT]:
        """What ``seat`` may do now (``None``: whoever is to act)."""
        ...

    def apply(self, action: ActionT, seat: int | None = None) -> Sequence[Event]:
        """Validate, then apply ``action`` for ``seat``: its events.

        :raises InvalidActionError: malformed, and :class:`~qipai.errors.IllegalActionError`
            not allowed now; nothing changes.
        """
        ...

    def view(self, seat: int) -> ViewT_co:
        """What ``seat`` may see now: the only way hidden information leaves a hand; with
        :data:`~qipai.games.events.SPECTATOR`, what everyone may see."""
        ...

    def returns(self) -> tuple[int, ...]:
        """Each seat's points (or chips) once the hand is over, zeros before."""
        ...


SomeState: TypeAlias = "GameState[Any, Any]"
"""A hand of a game not known statically (the hall's, found by name): its action and view
types are the game's own, left open."""


class GameRules(Protocol):
    """A game's rule set as the registry reads it: a named frozen dataclass."""

    @property
    def name(self) -> str:
        """The rule set's name (its preset's, or the name given to a derived set)."""
        ...

    def derive(self, name: str, **changes: object) -> Self:
        """A copy called ``name`` with ``changes`` to its fields (checked)."""
        ...


class ActionParser(Protocol[ActionT_co]):
    """What reads a game's action from its text: the game's ``Action`` class."""

    def parse(self, text: str) -> ActionT_co:
        """The action written ``text``.

        :raises InvalidActionError: for text that is no action of the game.
        """
        ...


class RoomNumbers(Protocol):
    """The numbers of a room that a game reads (the hall's ``Room`` has them all)."""

    @property
    def coefficient(self) -> int:
        """Coins per point of score (房间系数)."""
        ...

    @property
    def base(self) -> int:
        """The unit of the bets (底分)."""
        ...

    @property
    def ante(self) -> int | None:
        """What each player puts in before the deal (锅底)."""
        ...

    @property
    def top_bet(self) -> int | None:
        """The largest stake (顶注)."""
        ...

    @property
    def cap(self) -> int | None:
        """The most one player may bet in one hand (封顶)."""
        ...

    @property
    def rake_percent(self) -> int:
        """Percent of each winner's gain the house takes."""
        ...

    @property
    def doubling_threshold(self) -> int | None:
        """Coins a player must hold above to 加倍."""
        ...

    @property
    def tasks(self) -> tuple[str, ...]:
        """The ids of the 任务 a hand's task is drawn from (``()``: no task)."""
        ...


class Payout(enum.Enum):
    """How a preset's results become coins (computed in :mod:`qipai.hall.coins`)."""

    WITHIN_BALANCES = enum.auto()
    """Points × the room's coefficient, held within the balances; the room's rake."""
    LOSERS_TO_ZERO = enum.auto()
    """Points × coefficient; losers pay down to zero, winners win at most their own
    balance; the room's fee from each seat."""
    POINTS_ONLY = enum.auto()
    """Points for the leaderboard; no coin moves."""
    MINIMISED = enum.auto()
    """Points × coefficient, each transfer the least of what is owed and the balances
    (积分最小化)."""
    CHIPS = enum.auto()
    """The returns are chips, which are coins already (zero-sum); the room's rake."""


@dataclass(frozen=True, slots=True)
class HandSetup(Generic[StateT_co]):
    """What a table knows when it starts a hand (of a game whose hands are ``StateT_co``)."""

    seed: int
    """The hand's seed (it decides every card)."""
    balances: tuple[int, ...]
    """Each seat's coins before the hand (the stacks of the betting games)."""
    hand_number: int = 0
    """The hand's number at its table, 0 for the first (a rotation may depend on it)."""
    previous: StateT_co | None = None
    """The table's previous hand, if any: only at a table that plays on."""


BASIC_TRUSTEE = "basic"
"""The 托管 style every game has: its :attr:`GameType.trustee` policy."""


class Policy(Protocol[ViewT_contra, ActionT_co]):
    """A bot: an action chosen from a seat's view (:mod:`qipai.bots`)."""

    def choose(self, view: ViewT_contra) -> ActionT_co:
        """The action to take."""
        ...


class GameType(Generic[RulesT, StateT, ActionT, ViewT]):
    """One game as everything outside its package sees it, over the game's own rule set,
    hand, action and view types.  Subclass it (``GameType[Rules, State, Action, View]``),
    set the class attributes and :attr:`bot` / :attr:`trustee`, implement
    :meth:`new_hand`, :meth:`parse`, :meth:`winners`, :meth:`reveal`, :meth:`replay` and
    :meth:`rules_for_room`; the rest have defaults for a simple game."""

    name: ClassVar[str] = ""
    """The game's key: rooms, records and messages name it (``doudizhu``)."""
    title: ClassVar[str] = ""
    """Its Chinese name (斗地主)."""
    seats: ClassVar[tuple[int, int]] = (2, 2)
    """The fewest and the most seats at a table."""
    default_seats: ClassVar[int] = 2
    """A room's table size when its configuration gives none."""
    web_module: ClassVar[str] = ""
    """The browser client's module of the game (``js/games/<web_module>.js``)."""
    engine_version: ClassVar[int] = 1
    """The version of the engine's play (records carry it): raised on every change that
    plays a recorded hand differently."""
    record_options: ClassVar[tuple[str, ...]] = ()
    """The table options ``State.new`` takes besides the rules and the seed, recorded
    with each hand (``players``, ``stacks``...)."""
    folds_absent: ClassVar[bool] = False
    """Whether a disconnected player is given the room's grace before 托管 (which folds
    him), rather than 托管 at once."""
    room_fields: ClassVar[frozenset[str]] = frozenset()
    """The game-specific room fields its rooms take (``coefficient``, ``ante``...)."""
    presets: Mapping[str, RulesT] = MappingProxyType({})
    """The game's rule sets by name."""
    action_type: ActionParser[ActionT]
    """The game's action base class, whose ``parse(text)`` reads an action."""
    bot: Policy[ViewT, ActionT]
    """The policy of a bot's seat (set by the subclass's ``__init__``)."""

    trustee: Policy[ViewT, ActionT]
    """The 托管 policy: the system playing for an absent player (the ``basic`` style)."""
    trustee_styles: ClassVar[tuple[str, ...]] = (BASIC_TRUSTEE,)
    """The 托管 styles a room may choose (its ``trustee`` field), the basic one first."""

    # --- what it is ------------------------------------------------------------------

    def get_rules(self, name: str) -> RulesT:
        """The preset ``name``.

        :raises InvalidActionError: ``unknown_rules``.
        """
        return lookup(self.presets, name, self.name)

    def rules_with(self, preset: str, changes: Mapping[str, object]) -> RulesT:
        """The preset with ``changes`` applied, each a field of its rules given as TOML
        gives it: a number, a boolean, or an enum's value (``"jj_linear"``).

        :raises InvalidActionError: ``unknown_rules``; ``bad_rules`` for a field the rules
            lack, the ``name``, or a value of the wrong kind.
        """
        rules = self.get_rules(preset)
        if not changes:
            return rules
        return rules.derive(rules.name, **coerce_changes(rules, changes))

    # --- its rooms -------------------------------------------------------------------

    def fields_of(self, preset: str) -> frozenset[str]:
        """The game-specific room fields of a room of ``preset`` (default
        :attr:`room_fields`)."""
        del preset
        return self.room_fields

    def room_defaults(self, preset: str, base: int) -> dict[str, Json]:
        """Defaults of the room fields a room of ``preset`` leaves out (``base`` is the
        room's unit of bets, given or 1); the hall fills in the rest."""
        del preset, base
        return {}

    def default_min_coins(self, room: RoomNumbers) -> int:
        """The coins a player needs to join a room that sets no minimum."""
        del room
        return 0

    def least_min_coins(self, preset: str, room: RoomNumbers) -> int:
        """The lowest minimum a room may set (a stack a hand can always be played with)."""
        del preset, room
        return 0

    def rules_for_room(self, preset: str, room: RoomNumbers) -> RulesT:
        """The preset with the room's numbers applied: what the room's tables play.

        :raises InvalidActionError: the engine's own errors for numbers it refuses.
        """
        raise NotImplementedError

    def payout(self, preset: str) -> Payout:
        """How a hand of ``preset`` settles into coins."""
        del preset
        return Payout.CHIPS

    # --- a table's hands --------------------------------------------------------------

    def new_hand(self, rules: RulesT, setup: HandSetup[StateT]) -> StateT:
        """Start (and, where it is dealt at once, deal) a hand of ``rules``.

        :raises InvalidActionError: the engine's own errors (``bad_stacks``...).
        """
        raise NotImplementedError

    def parse(self, text: str) -> ActionT:
        """The game's action written ``text`` (``str(action)`` gives it back; default: the
        game's ``Action.parse``, :attr:`action_type`).

        :raises InvalidActionError: for text that is no action of the game.
        """
        return self.action_type.parse(text)

    def is_command(self, action: ActionT) -> bool:
        """Actions that are table commands, not moves (``trustee``, ``escape``)."""
        del action
        return False

    def actions(self, state: StateT, seat: int) -> list[ActionT]:
        """What ``seat`` may do now, out of turn included (none once the hand is over)."""
        if state.is_terminal:
            return []
        return list(state.legal_actions(seat))

    @property
    def quick_bot(self) -> Policy[ViewT, ActionT]:
        """The policy of every seat in a bulk play-out (:meth:`play_out`: a simulated
        match plays thousands of hands), where speed counts more than strength:
        :attr:`bot`, unless the game has a faster one."""
        return self.bot

    def spectator_view(self, state: StateT) -> ViewT:
        """What a spectator 观战 may see of ``state`` now: the game's view for
        :data:`~qipai.games.events.SPECTATOR`, the public facts without a card any player
        holds unseen (the events a spectator may see: ``event.visible_to(SPECTATOR)``).
        A game whose ``view`` does not take :data:`~qipai.games.events.SPECTATOR`
        overrides this."""
        view: ViewT = state.view(SPECTATOR)
        return view

    def bot_action(self, state: StateT, seat: int) -> ActionT:
        """The bot's action for ``seat``: :attr:`bot`'s choice from the seat's view."""
        return self.bot.choose(state.view(seat))

    def trustee_action(self, state: StateT, seat: int, style: str = BASIC_TRUSTEE) -> ActionT:
        """The 托管 action for ``seat`` in the room's 托管 ``style``: the policy's choice
        from the seat's view (:meth:`trustee_policy`)."""
        return self.trustee_policy(style).choose(state.view(seat))

    def trustee_policy(self, style: str) -> Policy[ViewT, ActionT]:
        """The 托管 policy of ``style`` (one of :attr:`trustee_styles`): :attr:`trustee`
        for the basic one."""
        del style
        return self.trustee

    def enter_trustee(self, state: StateT, seat: int) -> None:
        """What entering 托管 changes in the hand (nothing, by default)."""
        del state, seat

    def leave_trustee(self, state: StateT, seat: int) -> None:
        """What leaving 托管 changes in the hand (nothing, by default)."""
        del state, seat

    def escape(self, state: StateT, seat: int) -> bool:
        """Apply the preset's escape if it has one (it ends the hand): ``True``; ``False``
        when the table must play the seat in 托管 to the end instead."""
        del state, seat
        return False

    def deal_step(self, state: StateT) -> ActionT | None:
        """The dealer's next step while the hand is dealt in paced steps, else ``None``."""
        del state
        return None

    def is_dealing(self, state: StateT) -> bool:
        """Whether the hand has not started yet (its first deal is still being dealt)."""
        del state
        return False

    def deciding(self, state: StateT) -> tuple[int, ...]:
        """The seats still to choose while several choose at the same time, on one time
        limit; ``()`` otherwise."""
        del state
        return ()

    def winners(self, state: StateT) -> tuple[int, ...]:
        """The seats that won the finished hand."""
        raise NotImplementedError

    def seat_to_act(self, state: StateT) -> int | None:
        """The seat whose decision is due: the one to act, or, while several choose at
        the same time, the first of them; ``None`` while the dealer deals or once over."""
        deciding = self.deciding(state)
        return deciding[0] if deciding else state.current_player

    def play_out(self, state: StateT) -> StateT:
        """Play ``state`` to its end, the dealer's steps and the :attr:`quick_bot` at every
        decision; it stops early at a hand the game gives up on (:meth:`is_stalled`).
        Returns ``state``."""
        while not state.is_terminal and not self.is_stalled(state):
            step = self.deal_step(state)
            if step is not None:
                state.apply(step)
                continue
            seat = self.seat_to_act(state)
            assert seat is not None  # not over, not dealing: somebody decides
            state.apply(self.quick_bot.choose(self.quick_view(state, seat)), seat)
        return state

    def quick_view(self, state: StateT, seat: int) -> ViewT:
        """What :attr:`quick_bot` decides from in :meth:`play_out`: ``seat``'s view (the
        default), or a cheaper one without what that bot never reads."""
        view: ViewT = state.view(seat)
        return view

    def is_stalled(self, state: StateT) -> bool:
        """Whether the hand can no longer be expected to end (the table voids it)."""
        del state
        return False

    def reveal(self, state: StateT) -> dict[str, object]:
        """Every hidden card of the hand now, for the replay of a finished hand: at least
        ``hands``, each seat's cards (never for a hand in play)."""
        raise NotImplementedError

    def escape_cost(self, state: StateT, seat: int) -> EscapeCost | None:
        """What leaving the hand in play now would cost ``seat`` (points or chips, as
        ``returns()``), for the player to see before he leaves: computed from his view
        alone (a range where the price depends on what he may not see); ``None`` where the
        seat is then played by 托管 to the end, so that the cost is the hand's result (the
        default)."""
        del state, seat
        return None

    def task_of(self, state: StateT) -> str | None:
        """The id of the hand's 任务, for its record (``None``, the default: a hand or a
        game without tasks)."""
        del state
        return None

    def roles(self, state: StateT) -> tuple[str | None, ...]:
        """Each seat's role in the finished hand, for the history (Dou Dizhu's
        ``landlord`` / ``farmer``); ``None`` for games without roles (the default)."""
        return (None,) * len(state.returns())

    def feats(self, state: StateT) -> tuple[frozenset[str], ...]:
        """What each seat did or held in the finished hand, as short names the hall's
        每日任务 count (``docs/hall.md``, "The economy"): e.g. ``bomb`` and ``rocket``
        played, or the category of the seat's cards (``straight_flush``…).  Default:
        nothing."""
        return (frozenset(),) * len(state.returns())

    def explain(self, state: StateT) -> dict[str, Json]:
        """Why the finished hand's points are what they are, for the result panel (JSON
        values; game-specific keys).  Default: nothing beyond the points themselves."""
        del state
        return {}

    def dealt(self, state: StateT, seats: int) -> dict[str, object]:
        """What the finished hand dealt, for the replay page's re-deal in the browser: at
        least ``seats``, each seat's cards in the order dealt (default: from the events
        ``CardDealt(seat, card)``)."""
        cards: list[list[object]] = [[] for _ in range(seats)]
        for event in state.events:
            if type(event).__name__ == "CardDealt":
                cards[getattr(event, "seat")].append(getattr(event, "card"))  # noqa: B009
        return {"seats": cards}

    def warm_up(self) -> None:
        """Build whatever the engine caches (tables), so that no player's first turn
        waits for it."""

    # --- its records -----------------------------------------------------------------

    def replay(
        self,
        rules: RulesT,
        seed: int,
        steps: Sequence[tuple[int | None, ActionT]],
        **options: object,
    ) -> StateT:
        """The hand of ``rules`` and ``seed`` after ``steps``, each ``(seat, action)``;
        ``options``: the :attr:`record_options`, the ``chance`` version and the ``engine``
        version that played it (a game whose returns changed gives an older engine's),
        each checked as the engine reads it (:func:`only_options`, :func:`seats_option`,
        :func:`~qipai.jsontypes.entry`).

        :raises InvalidActionError: for options or steps the engine refuses.
        :raises TypeError: an option the engine lacks, or of another kind.
        """
        raise NotImplementedError

    def table_options(self, state: StateT) -> dict[str, object]:
        """The :attr:`record_options` of a hand, read from its state (default: the state's
        attributes of the same names)."""
        return {name: getattr(state, name, None) for name in self.record_options}


class BettingHand(Protocol):
    """A hand of a betting game: each seat's stack now and at the start."""

    @property
    def stacks(self) -> Sequence[int]:
        """Each seat's chips now."""
        ...

    @property
    def start_stacks(self) -> Sequence[int]:
        """Each seat's chips when the hand started."""
        ...


def chips_put_in(state: BettingHand, seat: int) -> int:
    """The chips ``seat`` has put in the pot of a betting game's hand so far: what it
    loses by folding (a betting game's escape: 托管 folds it)."""
    return int(state.start_stacks[seat] - state.stacks[seat])


def coerce_changes(rules: object, changes: Mapping[str, object]) -> dict[str, object]:
    """``changes`` to a dataclass rule set, each value made the field's type: an enum from
    its value (a tuple of enums from a list of values), a number or a boolean checked.

    :raises InvalidActionError: ``bad_rules`` for an unknown field, ``name``, or a value
        that is not of the field's kind.
    """
    hints = typing.get_type_hints(type(rules))
    names = {field.name for field in dataclasses.fields(rules)} - {"name"}  # type: ignore[arg-type]  # rules are dataclasses
    coerced: dict[str, object] = {}
    for name, value in changes.items():
        if name not in names:
            raise InvalidActionError("bad_rules", f"no rule {name!r} to change")
        coerced[name] = _coerce(name, hints[name], value)
    return coerced


def _coerce(name: str, hint: object, value: object) -> object:
    item_hint = _enum_items(hint)
    if item_hint is not None:
        if not isinstance(value, (list, tuple)):
            raise InvalidActionError("bad_rules", f"{name} is a list, not {value!r}")
        return tuple(_coerce(name, item_hint, item) for item in value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            known = ", ".join(str(member.value) for member in hint)
            raise InvalidActionError("bad_rules", f"{name} is one of {known}") from None
    allowed = typing.get_args(hint) or (hint,)
    kinds = tuple(kind for kind in allowed if isinstance(kind, type))
    if value is None and type(None) in kinds:
        return None
    if isinstance(value, bool) != (bool in kinds) or not isinstance(value, kinds):
        raise InvalidActionError("bad_rules", f"{name} cannot be {value!r}")
    return value


def _is_enum(hint: object) -> bool:
    return isinstance(hint, type) and issubclass(hint, enum.Enum)


def _enum_items(hint: object) -> object | None:
    """The enum of a ``tuple[SomeEnum, ...]`` hint, else ``None``."""
    args: tuple[object, ...] = typing.get_args(hint)
    if typing.get_origin(hint) is tuple and args and _is_enum(args[0]):
        return args[0]
    return None


def only_options(options: Mapping[str, object], *names: str) -> None:
    """Refuse a replay's option that is none of ``names`` (:meth:`GameType.replay`), as a
    function refuses a keyword it lacks.

    :raises TypeError: an option of another name.
    """
    other = sorted(set(options) - set(names))
    if other:
        raise TypeError(f"replay() got an unexpected keyword argument {other[0]!r}")


def seats_option(options: Mapping[str, object], name: str) -> Sequence[int] | None:
    """A replay's option ``name`` that gives each seat an integer (stacks, balances), or
    ``None`` where it is not given (:meth:`GameType.replay`).

    >>> seats_option({"stacks": (100, 200)}, "stacks"), seats_option({}, "stacks")
    ((100, 200), None)

    :raises TypeError: a value of another kind.
    """
    value = options.get(name)
    if value is None or (
        isinstance(value, (list, tuple)) and all(isinstance(v, int) for v in value)
    ):
        return value
    raise TypeError(f"{name} must be a list of integers or null, not {value!r}")


SomeGame: TypeAlias = "GameType[Any, Any, Any, Any]"
"""A game not known statically: what the registry gives for a name (the hall, the
records, the replays hold games they do not know).  Its types are the game's own, left
open; the game's own module is checked with them."""

_GAMES: dict[str, SomeGame] = {}

G = TypeVar("G", bound=SomeGame)


def register(game: G) -> G:
    """Make ``game`` known by its name (again: the newer wins); returns it.

    :raises InvalidActionError: ``bad_game`` for a game without a name or whose seat
        counts do not hold its default.
    """
    low, high = game.seats
    if not game.name or not 1 <= low <= game.default_seats <= high:
        raise InvalidActionError("bad_game", f"a game needs a name and seats: {game.name!r}")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget the game called ``name`` (a test's own game; a shipped game comes back on
    the next look-up)."""
    _GAMES.pop(name, None)


def _load_builtins() -> None:
    for name, module in BUILTIN.items():
        if name not in _GAMES:
            register(importlib.import_module(module).GAME)


def game_names() -> tuple[str, ...]:
    """Every registered game: the shipped ones first (in :data:`BUILTIN`'s order), then the
    others in the order they registered."""
    _load_builtins()
    shipped = tuple(BUILTIN)
    return shipped + tuple(name for name in _GAMES if name not in BUILTIN)


def game_type(name: object) -> SomeGame:
    """The game called ``name``.

    :raises InvalidActionError: ``unknown_game``.
    """
    if isinstance(name, str) and name in _GAMES:
        return _GAMES[name]
    _load_builtins()
    if not isinstance(name, str) or name not in _GAMES:
        known = ", ".join(_GAMES)
        raise InvalidActionError("unknown_game", f"a game is one of {known}: {name!r}")
    return _GAMES[name]


FOLD_AFTER_RAISE = "fold_after_raise"
"""The feat of a seat that raised and later folded in the same hand: counted by the
console's chip-dumping flag (``docs/operations.md``), never by a 任务."""


class _Stepped(Protocol):
    @property
    def seat(self) -> int: ...

    @property
    def action(self) -> object: ...


def folds_after_raising(
    history: Sequence[_Stepped], seats: int, raises: tuple[type, ...], fold: type
) -> tuple[frozenset[str], ...]:
    """For each seat, :data:`FOLD_AFTER_RAISE` if it raised (an action of a type in
    ``raises``) and then folded (``fold``) in ``history``."""
    raised: set[int] = set()
    folded: set[int] = set()
    for step in history:
        if isinstance(step.action, raises):
            raised.add(step.seat)
        elif isinstance(step.action, fold) and step.seat in raised:
            folded.add(step.seat)
    dumped = frozenset({FOLD_AFTER_RAISE})
    return tuple(dumped if seat in folded else frozenset() for seat in range(seats))
