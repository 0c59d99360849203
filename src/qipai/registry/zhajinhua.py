"""Zha Jin Hua in the game registry: its rooms, a table's hands, its records.

Bots: :class:`~qipai.bots.zhajinhua.SimplePolicy`.  托管 folds
(:class:`~qipai.bots.zhajinhua.FoldPolicy`), and 自动跟注 is switched off when it starts,
or it would keep calling for the absent player; an absent player is folded after the
room's grace.  An escaper folds: he loses what he has bet.  The first hand's dealer is
drawn from the seed; at a table that plays on, the previous winner deals.

Rooms: 底分 (``base``), and the preset's ante, top bet and cap in units of it; the rake
(5% of the winner's gain by default); the minimum coins are the cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from qipai.bots import zhajinhua as bots
from qipai.chance import V2
from qipai.games import zhajinhua
from qipai.games.zhajinhua import hands
from qipai.games.zhajinhua.actions import Action, AutoCall, Fold, Raise
from qipai.games.zhajinhua.rules import ENGINE_VERSION, RULES, Rules
from qipai.games.zhajinhua.state import State
from qipai.games.zhajinhua.view import View
from qipai.jsontypes import Json, entry
from qipai.registry.gametype import (
    EscapeCost,
    GameType,
    HandSetup,
    RoomNumbers,
    chips_put_in,
    folds_after_raising,
    only_options,
    register,
    seats_option,
)

RAKE_PERCENT = 5
"""The house's share of the winner's gain in a room that sets none (抽水)."""


class ZhajinhuaGame(GameType[Rules, State, Action, View]):
    """扎金花: two to six seats (module docstring)."""

    name = "zhajinhua"
    title = "扎金花"
    seats = (2, 6)
    default_seats = 5
    web_module = "zhajinhua"
    engine_version = ENGINE_VERSION
    record_options = ("players", "stacks", "dealer")
    folds_absent = True
    room_fields: ClassVar[frozenset[str]] = frozenset(
        {"base", "ante", "top_bet", "cap", "rake_percent"}
    )

    presets = RULES
    action_type = Action

    def __init__(self) -> None:
        self.bot = bots.SimplePolicy()
        self.trustee = bots.FoldPolicy()

    # --- rooms ---

    def room_defaults(self, preset: str, base: int) -> dict[str, Json]:
        """The preset's ante, top bet and cap, each × ``base``; the rake."""
        rules = RULES[preset]
        return {
            "ante": rules.ante * base,
            "top_bet": rules.top_bet * base,
            "cap": rules.cap * base,
            "rake_percent": RAKE_PERCENT,
        }

    def default_min_coins(self, room: RoomNumbers) -> int:
        """The cap: a player can always bet up to it."""
        return room.cap or 0

    def least_min_coins(self, preset: str, room: RoomNumbers) -> int:
        """The cap."""
        del preset
        return room.cap or 0

    def rules_for_room(self, preset: str, room: RoomNumbers) -> Rules:
        """The preset with the room's base (its stake levels × base), ante, top bet, cap."""
        rules = RULES[preset]
        return rules.derive(
            rules.name,
            ante=room.ante,
            base_bet=room.base,
            stake_levels=tuple(level * room.base for level in rules.stake_levels),
            top_bet=room.top_bet,
            cap=room.cap,
        )

    # --- a table's hands ---

    def new_hand(self, rules: Rules, setup: HandSetup[State]) -> State:
        """The balances are the stacks; the first hand's dealer is drawn from the seed,
        later ones follow the rules' dealer rule (the previous winner)."""
        previous = setup.previous
        dealer = None if previous is None else previous.next_dealer
        return State.new(
            rules,
            seed=setup.seed,
            players=len(setup.balances),
            stacks=setup.balances,
            dealer=dealer,
        )

    def enter_trustee(self, state: State, seat: int) -> None:
        """自动跟注 is switched off."""
        if not state.is_terminal and state.auto_call[seat]:
            state.apply(AutoCall(False), seat)

    def winners(self, state: State) -> tuple[int, ...]:
        """The one winner."""
        return () if state.winner is None else (state.winner,)

    def escape_cost(self, state: State, seat: int) -> EscapeCost:
        """Leaving folds: the chips already in the pot (public)."""
        return EscapeCost.exact(chips_put_in(state, seat))

    def reveal(self, state: State) -> dict[str, object]:
        """Each seat's three cards (``hands``) and their ``categories``."""
        categories = [hands.category_of_cards(cards) for cards in state.hands]
        return {"hands": state.hands, "categories": categories}

    def feats(self, state: State) -> tuple[frozenset[str], ...]:
        """The category of each seat's three cards (``straight_flush`` 顺金, ``trips``
        豹子…), folded or not; and ``fold_after_raise`` for a seat that raised then folded."""
        dumped = folds_after_raising(state.history, state.players, (Raise,), Fold)
        return tuple(
            frozenset({hands.category_of_cards(cards)}) | more
            for cards, more in zip(state.hands, dumped, strict=True)
        )

    def dealt(self, state: State, seats: int) -> dict[str, object]:
        """Each seat's three cards and the ``dealer``."""
        del seats
        return {"seats": [list(cards) for cards in state.hands], "dealer": state.dealer}

    # --- records ---

    def replay(
        self, rules: Rules, seed: int, steps: Sequence[tuple[int | None, Action]], **options: object
    ) -> State:
        """:func:`~qipai.games.zhajinhua.replay` (its options checked).

        :raises TypeError: ``players`` not given, or an option the engine lacks.
        """
        only_options(options, "players", "stacks", "dealer", "chance", "engine")
        if "players" not in options:
            raise TypeError("replay() missing 1 required keyword-only argument: 'players'")
        return zhajinhua.replay(
            rules,
            seed,
            steps,
            players=entry(options, "players", int, 0),
            stacks=seats_option(options, "stacks"),
            dealer=entry(options, "dealer", (int, type(None)), None),
            chance=entry(options, "chance", str, V2),
            engine=entry(options, "engine", int, ENGINE_VERSION),
        )

    def table_options(self, state: State) -> dict[str, object]:
        """The number of players, their stacks and the dealer given (``None``: drawn)."""
        return {
            "players": state.players,
            "stacks": state.start_stacks,
            "dealer": state.dealer_given,
        }


GAME = register(ZhajinhuaGame())
"""Zha Jin Hua, registered."""
