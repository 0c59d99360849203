"""Showhand in the game registry: its rooms, a table's hands, its records.

Bots: :class:`~qipai.bots.showhand.SimplePolicy`.  托管 keeps the cards it is offered,
then folds (:class:`~qipai.bots.showhand.TrusteePolicy`); an absent player is folded after
the room's grace; an escaper folds.

Rooms: the base (the unit of the bets), the ante, the cap (in coins, a multiple of the
base), the rake (0 by default); the minimum coins 100 × base, never below the preset's
least stack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from qipai.bots import showhand as bots
from qipai.chance import V2
from qipai.errors import InvalidActionError
from qipai.games.showhand import hands
from qipai.games.showhand.actions import Action, Bet, Fold, Raise, ShowHand
from qipai.games.showhand.rules import ENGINE_VERSION, MAX_PLAYERS, RULES, Rules
from qipai.games.showhand.state import State, replay
from qipai.games.showhand.view import View
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

MIN_COINS_UNITS = 100
"""A room's default minimum coins, in units of its base."""


class ShowhandGame(GameType[Rules, State, Action, View]):
    """梭哈: two to four seats, 28 cards (module docstring)."""

    name = "showhand"
    title = "梭哈"
    seats = (2, 4)
    default_seats = 4
    web_module = "showhand"
    engine_version = ENGINE_VERSION
    record_options = ("players", "stacks")
    folds_absent = True
    room_fields: ClassVar[frozenset[str]] = frozenset({"base", "ante", "cap", "rake_percent"})

    presets = RULES
    action_type = Action

    def __init__(self) -> None:
        self.bot = bots.SimplePolicy()
        self.trustee = bots.TrusteePolicy()

    # --- rooms ---

    def room_defaults(self, preset: str, base: int) -> dict[str, Json]:
        """The preset's ante; its cap in units × ``base``; no rake."""
        rules = RULES[preset]
        return {"ante": rules.ante, "cap": rules.cap_units * base}

    def default_min_coins(self, room: RoomNumbers) -> int:
        """100 × base."""
        return MIN_COINS_UNITS * room.base

    def least_min_coins(self, preset: str, room: RoomNumbers) -> int:
        """The preset's least stack, in units of the base."""
        return RULES[preset].min_stack_units * room.base

    def rules_for_room(self, preset: str, room: RoomNumbers) -> Rules:
        """The preset with the room's base, ante and cap.

        :raises InvalidActionError: ``bad_rules`` for a cap that is not a multiple of the
            base.
        """
        rules = RULES[preset]
        cap = room.cap if room.cap is not None else 0
        if cap % room.base:
            raise InvalidActionError("bad_rules", f"the cap {cap} is not a multiple of the base")
        return rules.derive(rules.name, base=room.base, ante=room.ante, cap_units=cap // room.base)

    # --- a table's hands ---

    def new_hand(self, rules: Rules, setup: HandSetup[State]) -> State:
        """The balances are the stacks (the 梭 level is the smallest, at most the cap)."""
        return State.new(rules, seed=setup.seed, stacks=setup.balances)

    def winners(self, state: State) -> tuple[int, ...]:
        """The winner (several only in a tie)."""
        return tuple(state.winners)

    def escape_cost(self, state: State, seat: int) -> EscapeCost:
        """Leaving folds: the chips already in the pot (public)."""
        return EscapeCost.exact(chips_put_in(state, seat))

    def reveal(self, state: State) -> dict[str, object]:
        """Each seat's cards, the hole card first (``hands``), their ``categories`` (of
        the cards so far: a pair among four cards is a pair), and the face-down card 3 or 4
        a seat has still to swap or keep (``pending``)."""
        seat_hands = [state.hand_of(seat) for seat in range(state.players)]
        flip = state.rules.flush_beats_full_house
        category = hands.category_of_cards
        categories = [category(cards, flush_beats_full_house=flip) for cards in seat_hands]
        return {"hands": seat_hands, "categories": categories, "pending": state.pending}

    def feats(self, state: State) -> tuple[frozenset[str], ...]:
        """The category of each seat's cards at the end (``straight_flush``, ``four``…);
        and ``fold_after_raise`` for a seat that bet or raised, then folded."""
        flip = state.rules.flush_beats_full_house
        raises = (Bet, Raise, ShowHand)
        dumped = folds_after_raising(state.history, state.players, raises, Fold)
        return tuple(
            frozenset({hands.category_of_cards(state.hand_of(seat), flush_beats_full_house=flip)})
            | dumped[seat]
            for seat in range(state.players)
        )

    # --- records ---

    def replay(
        self, rules: Rules, seed: int, steps: Sequence[tuple[int | None, Action]], **options: object
    ) -> State:
        """:func:`~qipai.games.showhand.state.replay` (its options checked: the ``engine``
        is dropped, one version plays every recorded hand alike)."""
        only_options(options, "players", "stacks", "chance", "engine")
        return replay(
            rules,
            seed,
            steps,
            players=entry(options, "players", int, MAX_PLAYERS),
            stacks=seats_option(options, "stacks"),
            chance=entry(options, "chance", str, V2),
        )

    def table_options(self, state: State) -> dict[str, object]:
        """The number of players and their stacks."""
        return {"players": state.players, "stacks": state.start_stacks}


GAME = register(ShowhandGame())
"""Showhand, registered."""
