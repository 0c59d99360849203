"""One adapter per game: what a table needs to run hands of it, the same way for all three.

A :class:`Engine` starts a hand for a room (the room's rules, the seats' balances as the
stacks or the huanle threshold, the dealer or first bidder rotation, the seed), lists a
seat's actions, picks a bot's and a 托管 seat's action, and applies the preset's 托管 and
escape rules.  The table (:mod:`qipai.hall.table`) holds the clock and the seats; the
engines hold no state of their own.

============  ==========================  ====================  ===========================
game          bots                        托管                   escape / absent player
============  ==========================  ====================  ===========================
Dou Dizhu     ``GreedyPolicy``            ``TrusteePolicy``,     the engine's model (caishen,
                                          recorded in the hand   huanle, zhengtu); yifa and jj
                                          (``Trustee`` action)   have none: 托管 to the end
Zha Jin Hua   ``SimplePolicy``            ``FoldPolicy``;        托管 (fold); an absent player
                                          自动跟注 switched off   is folded after the grace
Showhand      ``SimplePolicy``            ``TrusteePolicy``      托管 (keep, then fold); as ZJH
============  ==========================  ====================  ===========================

The Dou Dizhu deal: yifa and zhengtu deal the whole hand at once (the engine does);
caishen, huanle and jj, whose 明牌 may be chosen before or during the deal, are dealt in
paced steps (:meth:`Engine.deal_step`): a window for 明牌开始 before the first card, then
one step to each card count where huanle's or jj's 明牌 factor changes (8 cards: ×4 or
×5 up to there, ×3 after; then 16), then the 17th card, which starts the bidding.  jj's
cards arrive from each player's highest to his lowest.

>>> from qipai.hall.rooms import default_rooms
>>> rooms = {room.id: room for room in default_rooms()}
>>> engine = engine_for("doudizhu")
>>> state = engine.new_hand(rooms["doudizhu-jj"], HandSetup(seed=5, balances=(100, 100, 100)))
>>> [str(engine.deal_step(state)), deal_targets(state.rules)]
['deal 8', (8, 16, 17)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from qipai.bots import doudizhu as ddz_bots
from qipai.bots import showhand as sh_bots
from qipai.bots import zhajinhua as zjh_bots
from qipai.errors import InvalidActionError
from qipai.games import doudizhu, showhand, zhajinhua
from qipai.games.doudizhu.actions import HAND_CARDS, Deal, Escape, Trustee
from qipai.games.doudizhu.events import Played
from qipai.games.doudizhu.hand import Phase
from qipai.games.doudizhu.rules import EscapeModel
from qipai.games.showhand import hands as sh_hands
from qipai.games.zhajinhua import hands as zjh_hands
from qipai.games.zhajinhua.actions import AutoCall
from qipai.hall.rooms import Room
from qipai.hall.wire import parse_action

MAX_DEALS = 20
"""Dou Dizhu deals one hand may take (all-pass redeals) before the table voids it: a
table of 托管 seats, which always decline, would redeal for ever."""


_R = TypeVar("_R")


def _rules_of(room: Room, kind: type[_R]) -> _R:
    """The room's rule set, which must be of ``kind`` (the engine's game).

    :raises InvalidActionError: ``wrong_game`` for a room of another game.
    """
    rules = room.game_rules()
    if not isinstance(rules, kind):
        raise InvalidActionError("wrong_game", f"room {room.id!r} is a {room.game} room")
    return rules


class GameState(Protocol):
    """What the table reads from any game's ``State``."""

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` (the dealer dealing, or the hand over)."""
        ...

    @property
    def events(self) -> Sequence[Any]:
        """Every event of the hand so far."""
        ...

    def returns(self) -> tuple[int, ...]:
        """Points or chips per seat once over."""
        ...

    def view(self, seat: int) -> Any:
        """What ``seat`` may see now."""
        ...

    def apply(self, action: Any, seat: int | None = None) -> Any:
        """Validate, then apply ``action`` for ``seat``; it raises and changes nothing."""
        ...


@dataclass(frozen=True, slots=True)
class HandSetup:
    """What a table knows when it starts a hand."""

    seed: int
    """The hand's seed (it decides every card)."""
    balances: tuple[int, ...]
    """Each seat's coins before the hand (the stacks of Zha Jin Hua and Showhand)."""
    hand_number: int = 0
    """The hand's number at its table, 0 for the first (zhengtu's first-bidder rotation)."""
    previous: Any = None
    """The table's previous hand, if any: only at a table that plays on (Zha Jin Hua: its
    winner deals; a new table draws its dealer from the seed)."""


class Engine:
    """The table's view of one game; every method is pure apart from ``state.apply``."""

    game: str = ""
    """``doudizhu``, ``zhajinhua`` or ``showhand``."""
    folds_absent: bool = False
    """Zha Jin Hua and Showhand: a disconnected player is given the room's grace before
    托管 (which folds him); Dou Dizhu: 托管 starts at once."""

    def new_hand(self, room: Room, setup: HandSetup) -> Any:
        """Start (and, where it is dealt at once, deal) a hand of ``room``.

        :raises InvalidActionError: the engine's own errors (``bad_stacks``...).
        """
        raise NotImplementedError

    def parse(self, text: object) -> Any:
        """The game's action written ``text``.

        :raises InvalidActionError: ``bad_action``.
        """
        return parse_action(self.game, text)

    def is_command(self, action: Any) -> bool:
        """Actions that are table commands, not moves (Dou Dizhu ``trustee``, ``escape``)."""
        del action
        return False

    def actions(self, state: Any, seat: int) -> list[Any]:
        """What ``seat`` may do now: its turn's actions, and out of turn 明牌 (Dou Dizhu)
        or 自动跟注 (Zha Jin Hua)."""
        if state.is_terminal:
            return []
        return list(state.legal_actions(seat))

    def bot_action(self, state: Any, seat: int) -> Any:
        """The bot's action for the seat to act."""
        raise NotImplementedError

    def trustee_action(self, state: Any, seat: int) -> Any:
        """The preset's 托管 action for the seat to act."""
        raise NotImplementedError

    def enter_trustee(self, state: Any, seat: int) -> None:
        """What entering 托管 changes in the hand (nothing, by default)."""
        del state, seat

    def leave_trustee(self, state: Any, seat: int) -> None:
        """What leaving 托管 changes in the hand (nothing, by default)."""
        del state, seat

    def escape(self, state: Any, seat: int) -> bool:
        """Apply the preset's escape if the engine has one (it ends the hand): ``True``;
        ``False`` when the table must play the seat in 托管 instead."""
        del state, seat
        return False

    def deal_step(self, state: Any) -> Any | None:
        """The dealer's next step while the hand is being dealt in steps, else ``None``."""
        del state
        return None

    def is_dealing(self, state: Any) -> bool:
        """Whether the hand has not started yet: its first deal is still being dealt and
        nobody has had a decision (明牌 meanwhile is none).  ``False`` by default."""
        del state
        return False

    def deciding(self, state: Any) -> tuple[int, ...]:
        """The seats still to choose while several choose at the same time (Dou Dizhu
        huanle and jj 加倍), each on the same time limit; ``()`` otherwise."""
        del state
        return ()

    def winners(self, state: Any) -> tuple[int, ...]:
        """The seats that won the finished hand (none after a Dou Dizhu escape)."""
        raise NotImplementedError

    def is_stalled(self, state: Any) -> bool:
        """Whether the hand can no longer be expected to end (see :data:`MAX_DEALS`)."""
        del state
        return False

    def reveal(self, state: Any) -> dict[str, Any]:
        """Every hidden card of the hand now, for the replay of a finished hand: at least
        ``hands``, each seat's cards (hidden information: never for a hand in play)."""
        raise NotImplementedError


def deal_targets(rules: doudizhu.Rules) -> tuple[int, ...]:
    """The card counts the paced Dou Dizhu deal stops at (module docstring); ``()`` for
    rules whose whole hand is dealt at once."""
    show = rules.show
    if not (show.before_deal or show.during_deal):
        return ()
    stops = {min(most, HAND_CARDS - 1) for most, _ in show.during_deal}
    return tuple(sorted(stops | {HAND_CARDS}))


class DoudizhuEngine(Engine):
    """Dou Dizhu: greedy bots, the platforms' 托管, the engine's escape model."""

    game = "doudizhu"

    def __init__(self) -> None:
        self._bot = ddz_bots.GreedyPolicy()
        self._trustee = ddz_bots.TrusteePolicy()

    def new_hand(self, room: Room, setup: HandSetup) -> doudizhu.State:
        """A hand dealt from the seed; ``first_seat`` 0 (matchmaking shuffled the seats, or
        in a room that keeps its tables gave seat 0 to the player who entered first),
        balances given only where the rules have a doubling threshold (huanle)."""
        rules = _rules_of(room, doudizhu.Rules)
        balances = setup.balances if rules.doubling_threshold is not None else None
        return doudizhu.State.new(
            rules,
            seed=setup.seed,
            first_seat=0,
            hand_number=setup.hand_number,
            balances=balances,
        )

    def is_command(self, action: Any) -> bool:
        """``trustee on/off`` and ``escape`` go through the table's commands."""
        return isinstance(action, (Trustee, Escape))

    def bot_action(self, state: Any, seat: int) -> Any:
        """:class:`~qipai.bots.doudizhu.GreedyPolicy`."""
        return self._bot.choose(state.view(seat))

    def trustee_action(self, state: Any, seat: int) -> Any:
        """:class:`~qipai.bots.doudizhu.TrusteePolicy` (the jj timeout rule too)."""
        return self._trustee.choose(state.view(seat))

    def enter_trustee(self, state: Any, seat: int) -> None:
        """Recorded in the hand (jj's 托管 liability depends on it)."""
        if not state.is_terminal:
            state.set_trustee(seat, True)

    def leave_trustee(self, state: Any, seat: int) -> None:
        """Recorded in the hand."""
        if not state.is_terminal:
            state.set_trustee(seat, False)

    def escape(self, state: Any, seat: int) -> bool:
        """caishen, huanle, zhengtu: the engine's escape; yifa, jj: none (``False``)."""
        if state.rules.escape is EscapeModel.NONE:
            return False
        state.escape(seat)
        return True

    def deal_step(self, state: Any) -> Any | None:
        """``Deal`` up to the next stop of :func:`deal_targets` while dealing."""
        if state.is_terminal or state.current_player is not None:
            return None
        dealt = state.cards_dealt
        target = next((t for t in deal_targets(state.rules) if t > dealt), HAND_CARDS)
        return Deal(target - dealt)

    def is_dealing(self, state: Any) -> bool:
        """The first deal of a paced deal (caishen, huanle, jj), before the bidding; a
        redeal after all passed comes after the hand started."""
        return bool(state.deal_number == 1 and state.phase is Phase.DEAL)

    def deciding(self, state: Any) -> tuple[int, ...]:
        """huanle, jj: the seats still to choose 加倍 (``State.deciding``)."""
        return tuple(state.deciding)

    def winners(self, state: Any) -> tuple[int, ...]:
        """The landlord, or both farmers; nobody after an escape."""
        if state.winner is None or state.landlord is None:
            return ()
        if state.winner == state.landlord:
            return (state.landlord,)
        return tuple(seat for seat in range(doudizhu.state.SEATS) if seat != state.landlord)

    def is_stalled(self, state: Any) -> bool:
        """More than :data:`MAX_DEALS` deals."""
        return bool(state.deal_number > MAX_DEALS)

    def reveal(self, state: Any) -> dict[str, Any]:
        """``hands``, the ``bottom`` and the physical cards of every play so far
        (``played``, in order; the view's plays carry their ranks only)."""
        played = [event.cards for event in state.events if isinstance(event, Played)]
        return {"hands": state.hands, "bottom": state.bottom, "played": played}


class ZhajinhuaEngine(Engine):
    """Zha Jin Hua: simple bots; 托管 folds; the dealer drawn from the seed at a new
    table, the previous winner at a table that plays on."""

    game = "zhajinhua"
    folds_absent = True

    def __init__(self) -> None:
        self._bot = zjh_bots.SimplePolicy()
        self._trustee = zjh_bots.FoldPolicy()

    def new_hand(self, room: Room, setup: HandSetup) -> zhajinhua.State:
        """The balances are the stacks; the first hand's dealer is drawn from the seed,
        later ones follow the rules' dealer rule (the previous winner)."""
        previous = setup.previous
        dealer = None if previous is None else previous.next_dealer
        return zhajinhua.State.new(
            _rules_of(room, zhajinhua.Rules),
            seed=setup.seed,
            players=len(setup.balances),
            stacks=setup.balances,
            dealer=dealer,
        )

    def bot_action(self, state: Any, seat: int) -> Any:
        """:class:`~qipai.bots.zhajinhua.SimplePolicy`."""
        return self._bot.choose(state.view(seat))

    def trustee_action(self, state: Any, seat: int) -> Any:
        """:class:`~qipai.bots.zhajinhua.FoldPolicy`: fold."""
        return self._trustee.choose(state.view(seat))

    def enter_trustee(self, state: Any, seat: int) -> None:
        """自动跟注 is switched off, or it would keep calling for the absent player."""
        if not state.is_terminal and state.auto_call[seat]:
            state.apply(AutoCall(False), seat)

    def winners(self, state: Any) -> tuple[int, ...]:
        """The one winner."""
        return () if state.winner is None else (state.winner,)

    def reveal(self, state: Any) -> dict[str, Any]:
        """Each seat's three cards (``hands``) and their ``categories``."""
        categories = [zjh_hands.category_of_cards(cards) for cards in state.hands]
        return {"hands": state.hands, "categories": categories}


class ShowhandEngine(Engine):
    """Showhand: simple bots; 托管 keeps, then folds."""

    game = "showhand"
    folds_absent = True

    def __init__(self) -> None:
        self._bot = sh_bots.SimplePolicy()
        self._trustee = sh_bots.TrusteePolicy()

    def new_hand(self, room: Room, setup: HandSetup) -> showhand.State:
        """The balances are the stacks (the 梭 level is the smallest, at most the cap)."""
        return showhand.State.new(
            _rules_of(room, showhand.Rules), seed=setup.seed, stacks=setup.balances
        )

    def actions(self, state: Any, seat: int) -> list[Any]:
        """The turn's actions of the seat to act (Showhand has nothing out of turn)."""
        if seat != state.current_player:
            return []
        return list(state.legal_actions())

    def bot_action(self, state: Any, seat: int) -> Any:
        """:class:`~qipai.bots.showhand.SimplePolicy`."""
        return self._bot.choose(state.view(seat))

    def trustee_action(self, state: Any, seat: int) -> Any:
        """:class:`~qipai.bots.showhand.TrusteePolicy`: keep, else fold."""
        return self._trustee.choose(state.view(seat))

    def winners(self, state: Any) -> tuple[int, ...]:
        """The winner (several only in a tie)."""
        return tuple(state.winners)

    def reveal(self, state: Any) -> dict[str, Any]:
        """Each seat's cards, the hole card first (``hands``), their ``categories`` (of
        the cards so far: a pair among four cards is a pair), and the face-down card 3 or 4
        a seat has still to swap or keep (``pending``)."""
        hands = [state.hand_of(seat) for seat in range(state.players)]
        flip = state.rules.flush_beats_full_house
        category = sh_hands.category_of_cards
        categories = [category(cards, flush_beats_full_house=flip) for cards in hands]
        return {"hands": hands, "categories": categories, "pending": state.pending}


_ENGINES: dict[str, type[Engine]] = {
    "doudizhu": DoudizhuEngine,
    "zhajinhua": ZhajinhuaEngine,
    "showhand": ShowhandEngine,
}


def engine_for(game: str) -> Engine:
    """The adapter of ``game``.

    :raises InvalidActionError: ``unknown_game``.
    """
    make = _ENGINES.get(game)
    if make is None:
        raise InvalidActionError("unknown_game", f"no game named {game!r}")
    return make()
