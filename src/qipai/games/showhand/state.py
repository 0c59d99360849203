"""The Showhand hand: one :class:`State`, driven by the :class:`.Rules` fields.

A hand runs: antes, card 1 (the hole card 底牌) face down and card 2 face up to every
player, betting round 1; then for each of cards 3, 4, 5: the card (3 and 4 face down with
the 换牌 decision, phase ``SWAP``), then a betting round (phase ``BET``); after card 5,
extra betting rounds until the most allowed is reached, unless someone 梭'd, opened (开)
or all but one folded; then the showdown.  Every input is an :mod:`action <.actions>`
given to :meth:`State.apply`, which validates it completely, then changes the state and
returns the :mod:`events <.events>` it caused.  The deck is shuffled by the hand's own
source of chance, the seed's :class:`~qipai.chance.DealStream` (``chance="v1"``:
``random.Random(seed)``), so ``replay(rules, seed, state.history, stacks=...)`` rebuilds
the same hand.

>>> state = State.new("yifa", seed=3, players=2)
>>> state.phase.name, state.round, state.pot
('BET', 1, 4)
>>> seat = state.current_player
>>> [str(a) for a in state.legal_actions()]
['fold', 'check', 'bet 1', 'bet 2', 'bet 3', 'bet 4', 'bet 5']
>>> _ = state.apply(Bet(5))
>>> state.apply(Check())
Traceback (most recent call last):
...
qipai.errors.IllegalActionError: cannot_check: there are 5 chips to call
>>> _ = state.apply(Fold())
>>> state.is_terminal, state.winners == (seat,), sum(state.returns())
(True, True, 0)

Readings where the 易发 page is silent (each documented in ``docs/showhand.md``):

- Amounts.  ``bet``/``raise`` amounts are raise-to amounts within the round, in chips, a
  multiple of the base (or exactly the most still allowed).  Rounds 1-3: any amount up to
  the round's limit (5, 10, 20 × base), re-raises allowed within it.  Round 4 and the extra
  rounds: the only bet is 20 × base, nobody raises it except with 梭.
- The most (梭 level).  Fixed when the hand starts: the smallest stack at the table less
  the ante, at most the cap; no player's bets in a hand pass it, so every player can
  always call and there are no side pots.  梭 raises the actor's bets in the hand to it.
- The cap (100 × base) counts bets only; the ante is apart.
- 换牌.  Cards 3 and 4 are dealt face down; each player still in decides, in turn from
  the last round's leader; the decisions stay private until all are made, then the new up
  cards are turned together and the round's leader is chosen from them.
- 开.  The leader (best up cards) may open as the first action of round 4 or of an extra
  round; the hand goes to the showdown at once.
- Extra rounds (after round 4, nobody 梭'd, the most not reached): no check; bet 20 ×
  base, call, 梭, fold, or (the leader) 开.
- When every player still in has bet the most, the remaining cards are dealt (with their
  换牌 decisions) without betting, then the showdown.
- Folded players get no more cards; their hole card is never shown.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from qipai.cards import Card, poker_deck, shuffled
from qipai.chance import V2, LegacyChance, chance_for
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.events import is_spectator
from qipai.games.showhand.actions import (
    Action,
    Bet,
    Call,
    Check,
    Fold,
    Keep,
    Open,
    Raise,
    ShowHand,
    Swap,
)
from qipai.games.showhand.events import (
    Acted,
    AntePosted,
    CardDealt,
    CardTurned,
    Event,
    HandEnded,
    HandStarted,
    Opened,
    RoundStarted,
    Showdown,
    SwapChosen,
)
from qipai.games.showhand.hands import category_of, evaluate_mask, evaluate_partial_mask, mask_of
from qipai.games.showhand.rules import (
    CARDS_PER_PLAYER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    Rules,
    get_rules,
)
from qipai.games.showhand.view import View, make_view

__all__ = ["DECK", "Phase", "State", "Step", "replay"]

DECK: tuple[Card, ...] = poker_deck(RANKS)
"""The 28 cards, 8 to A in four suits."""

_CHECK, _CALL, _FOLD, _SHOWHAND, _OPEN = Check(), Call(), Fold(), ShowHand(), Open()
_SWAP_CHOICES: tuple[Action, ...] = (Swap(), Keep())


class Phase(enum.Enum):
    """Where a hand stands."""

    SWAP = "swap"
    """换牌: players still in decide whether to swap the new face-down card."""
    BET = "bet"
    """A betting round."""
    OVER = "over"
    """One player left, or the showdown is done."""


_SWAP_PHASE, _BET_PHASE, _OVER = Phase.SWAP, Phase.BET, Phase.OVER


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action and who applied it."""

    seat: int
    """The acting seat."""
    action: Action
    """The action."""


def refuse(code: str, message: str) -> IllegalActionError:
    """The :class:`~qipai.errors.IllegalActionError` to raise (messages name no hidden card)."""
    return IllegalActionError(code, message)


_COPIED = (
    "stacks", "bets", "round_bets", "folded", "hole", "pending", "up", "_queue",
    "_deck", "events", "history", "swapped", "_live", "_masks",
)  # fmt: skip
_PLAIN = (
    "rules", "seed", "chance", "players", "start_stacks", "most", "pot", "phase", "round",
    "cards_dealt", "current_player", "leader", "level", "_acted", "opened_by", "winners",
    "reason", "_legal_cache", "_legal",
)  # fmt: skip


class State:
    """One Showhand hand.  Create it with :meth:`new`; change it only with :meth:`apply`.

    The attributes are read-only for callers; hidden cards leave only through
    :meth:`view` and the events' :meth:`~.events.Event.visible_to`.
    """

    __slots__ = (*_COPIED, *_PLAIN)

    rules: Rules
    """The rule set."""
    seed: int
    """The seed of the hand's generator (secret: it decides every card)."""
    chance: str
    """The chance version the deck was shuffled with (:mod:`qipai.chance`)."""
    players: int
    """Players at the table (2-4), seats ``0 .. players-1``."""
    start_stacks: tuple[int, ...]
    """Chips each seat brought, before the ante."""
    stacks: list[int]
    """Chips each seat holds now, out of the pot."""
    most: int
    """The most one player may bet in this hand: the 梭 level."""
    pot: int
    """Chips in the pot (antes and bets); 0 once paid out."""
    bets: list[int]
    """Each seat's bets in this hand, the ante excluded."""
    round_bets: list[int]
    """Each seat's bets in the current round."""
    folded: list[bool]
    """Seats that folded."""
    hole: list[Card]
    """Each seat's hole card (hidden)."""
    pending: list[Card | None]
    """A face-down card 3 or 4 awaiting its seat's 换牌 decision (hidden)."""
    swapped: list[bool | None]
    """The 换牌 decision of each seat this time (``None``: not yet or not asked)."""
    up: list[list[Card]]
    """Each seat's face-up cards in the order they were turned."""
    phase: Phase
    """The current phase."""
    round: int
    """The betting round (1-4, then extra rounds 5, 6 ...), or the next one during 换牌."""
    cards_dealt: int
    """Cards each player still in holds (2-5)."""
    current_player: int | None
    """Who acts now (``None`` once over)."""
    leader: int
    """Who shows the best up cards and led the current betting round."""
    level: int
    """The round's bet: the most any seat has put in this round."""
    opened_by: int | None
    """Who opened (开), if anyone."""
    winners: tuple[int, ...]
    """The winner once over (empty before)."""
    reason: str
    """``fold`` or ``showdown`` once over, else ``""``."""
    events: list[Event]
    """Every event so far."""
    history: list[Step]
    """Every action applied, with its seat."""
    _queue: list[int]
    _deck: list[Card]
    """The cards still to deal, the next one last."""
    _live: list[int]
    """The seats still in, in seat order (:attr:`active`)."""
    _masks: list[int]
    """Each seat's up cards as a card mask."""
    _acted: int
    _legal_cache: dict[_LegalKey, _Legal]
    _legal: _Legal
    """The actions :meth:`legal_actions` listed for the state as it is now, and by their
    ids their steps (see :func:`_listed`): :meth:`apply` needs no further check for them.
    Emptied by every change."""

    # --- creation ---------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: str | Rules = "yifa",
        *,
        seed: int,
        players: int = MAX_PLAYERS,
        stacks: Sequence[int] | None = None,
        deck: Sequence[Card] | None = None,
        chance: str = V2,
    ) -> State:
        """Start a hand: antes, the hole card and the first up card, betting round 1.

        :param rules: a preset name or a :class:`.Rules`.
        :param seed: seeds the hand's own generator (the shuffle).
        :param players: 2-4 (ignored when ``stacks`` is given).
        :param stacks: chips each seat brings (default: the minimum to sit, for everyone).
        :param deck: a prearranged deck instead of the shuffle: the 28 cards, dealt from
            the front, seat by seat (all cards 1, then all cards 2, ...), folded seats skipped.
        :param chance: the chance version (:mod:`qipai.chance`): ``v2`` (the one draw is
            the shuffle of the 28 cards of :data:`DECK`, dealt from the front), or ``v1``
            (``random.Random(seed)``) to replay a ``qipai-hand/1`` record.
        :raises InvalidActionError: ``unknown_rules``, ``bad_players``, ``bad_stacks``
            (a stack below the minimum to sit), ``bad_deck`` or ``bad_chance``.
        """
        rule_set = get_rules(rules)
        chips = _check_stacks(rule_set, players, stacks)
        if deck is not None and (len(deck) != len(DECK) or set(deck) != set(DECK)):
            raise InvalidActionError("bad_deck", "a deck is the 28 cards 8-A, each once")
        source = chance_for(seed, chance)
        state = cls.__new__(cls)
        state._setup(rule_set, seed, chips)
        state.chance = source.version
        if deck is None and isinstance(source, LegacyChance):
            state._deck = _shuffle_v1(source)
        else:
            state._deck = shuffled(DECK, source) if deck is None else list(deck)
            state._deck.reverse()  # pop() deals from the front
        state._start()
        return state

    def _setup(self, rules: Rules, seed: int, stacks: tuple[int, ...]) -> None:
        n = len(stacks)
        self.rules, self.seed, self.players, self.start_stacks = rules, seed, n, stacks
        self.most = min(rules.cap, min(stacks) - rules.ante)
        self.stacks, self.pot = list(stacks), 0
        self.bets, self.round_bets, self.folded = [0] * n, [0] * n, [False] * n
        self.pending, self.swapped = [None] * n, [None] * n
        self.up = [[] for _ in range(n)]
        self._live, self._masks = list(range(n)), [0] * n
        self.phase, self.round, self.cards_dealt = _BET_PHASE, 0, 0
        self.current_player, self.leader, self.level, self._acted = None, 0, 0, 0
        self.opened_by, self.winners, self.reason = None, (), ""
        self._queue, self.events, self.history = [], [], []
        self._legal_cache, self._legal = _legal_cache(rules), _NO_LEGAL

    def _start(self) -> None:
        self.events += _opening(self.rules, self.start_stacks, self.most)
        ante = self.rules.ante
        self.stacks = [chips - ante for chips in self.start_stacks]
        self.pot = ante * self.players
        self.hole = self._deal(1, face_up=False)
        self._show(self._deal(2, face_up=True))
        self.cards_dealt = 2
        self._start_round(1)

    def clone(self) -> State:
        """An independent copy (lists copied, immutable values shared)."""
        other = State.__new__(State)
        for name in _PLAIN:
            setattr(other, name, getattr(self, name))
        for name in _COPIED:
            setattr(other, name, list(getattr(self, name)))
        other.up = [list(cards) for cards in self.up]
        return other

    # --- queries ----------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.phase is _OVER

    @property
    def active(self) -> list[int]:
        """Seats still in the hand (not folded), in seat order."""
        return list(self._live)

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards, the hole card first (hidden information: not for views)."""
        return (self.hole[seat], *self.up[seat])

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to match the round's bet."""
        return self.level - self.round_bets[seat]

    def room(self, seat: int) -> int:
        """The highest round bet ``seat`` may reach: what the most leaves this round."""
        return self.most - (self.bets[seat] - self.round_bets[seat])

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What the player to act may do now (empty once over), in this order: ``fold``,
        ``check`` or ``call``, bets or raises by amount, ``showhand``, ``open``; or
        ``swap``, ``keep`` in a 换牌 decision.  With ``seat``: that seat's actions, none
        out of turn (Showhand has no out-of-turn action)."""
        if seat is not None and seat != self.current_player:
            return []
        seat = self.current_player
        if seat is None:
            return []
        if self.phase is _SWAP_PHASE:
            self._legal = _SWAP_LEGAL
            return list(_SWAP_CHOICES)
        round_bet = self.round_bets[seat]
        key = (
            self.most,
            self.round,
            self.level,
            round_bet,
            self.bets[seat] - round_bet,
            seat == self.leader and self._acted == 0,
        )
        cache = self._legal_cache
        legal = cache.get(key)
        if legal is None:
            if len(cache) >= _CACHE_SIZE:
                cache.clear()
            legal = cache[key] = _listed(self._betting_actions(seat))
        self._legal = legal
        return list(legal[0])

    def _betting_actions(self, seat: int) -> tuple[Action, ...]:
        """The betting actions of ``seat`` now; they depend only on the key that
        :meth:`legal_actions` memoises them under."""
        actions: list[Action] = [_FOLD]
        if self.level == self.round_bets[seat]:
            if self._may_check():
                actions.append(_CHECK)
        else:
            actions.append(_CALL)
        actions += _bet_actions(self.level == 0, self._amounts(seat))
        if self._may_show_hand(seat):
            actions.append(_SHOWHAND)
        if self._may_open(seat):
            actions.append(_OPEN)
        return tuple(actions)

    def _may_check(self) -> bool:
        return not self.rules.is_extra_round(self.round)

    def _amounts(self, seat: int) -> tuple[int, ...]:
        """The legal raise-to amounts of ``seat`` in this round."""
        rules, level, top = self.rules, self.level, self.room(seat)
        if rules.is_fixed_round(self.round):
            late = rules.late_bet
            return (late,) if level == 0 and late <= top else ()
        return _amounts_between(level, min(rules.round_limit(self.round), top), top, rules.base)

    def _may_show_hand(self, seat: int) -> bool:
        return self.round >= self.rules.show_hand_from_round and self.level < self.room(seat)

    def _may_open(self, seat: int) -> bool:
        return (
            self.round >= self.rules.open_from_round
            and seat == self.leader
            and self._acted == 0
            and self.cards_dealt == CARDS_PER_PLAYER
        )

    def view(self, seat: int) -> View:
        """What ``seat`` may see now: a fresh immutable snapshot; with
        :data:`~qipai.games.events.SPECTATOR`, what everyone may see (a spectator's view).

        :raises InvalidActionError: ``bad_seat``.
        """
        if not is_spectator(seat):
            self._check_seat(seat)
        return make_view(self, seat)

    def returns(self) -> tuple[int, ...]:
        """Chips won (+) or lost (-) by each seat; zeros until the hand is over."""
        if self.phase is not _OVER:
            return (0,) * self.players
        pairs = zip(self.stacks, self.start_stacks, strict=True)
        return tuple(now - before for now, before in pairs)

    def must_leave(self) -> tuple[int, ...]:
        """Losers whose chips fell below the minimum to sit (once over; else empty)."""
        if self.phase is not _OVER:
            return ()
        low = self.rules.min_stack
        return tuple(
            s for s in range(self.players) if s not in self.winners and self.stacks[s] < low
        )

    # --- verify / can / do ------------------------------------------------------------

    def check(self, action: Action, seat: int | None = None) -> int:
        """Raise if ``action`` may not be applied now; return the acting seat.

        :raises InvalidActionError: ``bad_action`` (not an action), ``bad_seat``.
        :raises IllegalActionError: ``hand_over``, ``not_your_turn``, ``wrong_phase``,
            ``cannot_check``, ``nothing_to_call``, ``use_raise``, ``use_bet``,
            ``bad_amount``, ``showhand_too_early``, ``cannot_showhand`` or ``cannot_open``.
        """
        checker = _CHECKS.get(type(action))
        if checker is None:
            raise InvalidActionError("bad_action", f"not a Showhand action: {action!r}")
        if seat is not None:
            self._check_seat(seat)
        if self.phase is Phase.OVER:
            raise refuse("hand_over", "the hand is over")
        actor = self.current_player if seat is None else seat
        if actor != self.current_player or actor is None:
            raise refuse("not_your_turn", f"seat {self.current_player} is to act, not {actor}")
        if (checker is _check_swap) != (self.phase is Phase.SWAP):
            raise refuse("wrong_phase", f"{action} is not possible in phase {self.phase.value}")
        checker(self, action, actor)
        return actor

    def can_apply(self, action: Action, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        try:
            self.check(action, seat)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Validate ``action`` completely, then apply it; return (and log) its events.

        ``seat`` is who acts; it defaults to :attr:`current_player`.

        :raises InvalidActionError: see :meth:`check`.
        :raises IllegalActionError: see :meth:`check`; the state is then unchanged.
        """
        current = self.current_player
        steps = self._legal[1].get(id(action))
        if steps is not None and (seat is None or (type(seat) is int and seat == current)):
            assert current is not None  # listed by legal_actions for this very state
            step = steps[current] or _new_step(steps, current, action)
        else:
            step = Step(self.check(action, seat), action)
        self._legal = _NO_LEGAL
        events = self.events
        mark = len(events)
        self.history.append(step)
        _DOS[type(action)](self, action, step.seat)
        return events[mark:]

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise InvalidActionError("bad_seat", f"a seat is 0-{self.players - 1}, not {seat!r}")

    # --- checks of the betting actions ---------------------------------------------------

    def _check_check(self, action: Action, seat: int) -> None:
        if self.level != self.round_bets[seat]:
            raise refuse("cannot_check", f"there are {self.to_call(seat)} chips to call")
        if not self._may_check():
            raise refuse("cannot_check", "no check in the extra rounds: bet, showhand or fold")

    def _check_call(self, action: Action, seat: int) -> None:
        if self.level == self.round_bets[seat]:
            raise refuse("nothing_to_call", "nothing to call: check or bet")

    def _check_fold(self, action: Action, seat: int) -> None:
        del action, seat  # folding is always possible on one's turn

    def _check_bet(self, action: Bet | Raise, seat: int) -> None:
        if isinstance(action, Bet) and self.level:
            raise refuse("use_raise", f"there is a bet of {self.level}: raise it")
        if isinstance(action, Raise) and not self.level:
            raise refuse("use_bet", "there is no bet to raise: bet")
        amounts = self._amounts(seat)
        if action.amount not in amounts:
            allowed = ", ".join(map(str, amounts)) or "none"
            raise refuse("bad_amount", f"{action} is not allowed; amounts now: {allowed}")

    def _check_show_hand(self, action: Action, seat: int) -> None:
        if self.round < self.rules.show_hand_from_round:
            raise refuse("showhand_too_early", "梭 is allowed from the third card on")
        if not self._may_show_hand(seat):
            raise refuse("cannot_showhand", "the most allowed is bet already: call or fold")

    def _check_open(self, action: Action, seat: int) -> None:
        if not self._may_open(seat):
            raise refuse(
                "cannot_open", "only the best up cards may open, first in round 4 or later"
            )

    # --- doing the betting actions -------------------------------------------------------

    def _put(self, seat: int, round_bet: int, text: str) -> None:
        """Bring ``seat``'s round bet to ``round_bet`` and log the action."""
        round_bets, bets = self.round_bets, self.bets
        put = round_bet - round_bets[seat]
        self.stacks[seat] -= put
        self.pot += put
        total = bets[seat] = bets[seat] + put
        round_bets[seat] = round_bet
        self._acted += 1
        key = (seat, text, put, round_bet, total)
        self.events.append(_ACTED.get(key) or _remember(_ACTED, key, Acted(*key)))

    def _do_check(self, action: Action, seat: int) -> None:
        self._put(seat, self.round_bets[seat], "check")
        self._next_to_act()

    def _do_call(self, action: Action, seat: int) -> None:
        self._put(seat, self.level, "call")
        self._next_to_act()

    def _do_raise_to(self, seat: int, amount: int, text: str) -> None:
        self._put(seat, amount, text)
        self.level = amount
        live = self._live
        i = live.index(seat)
        self._queue = live[i + 1 :] + live[:i]
        self._next_to_act()

    def _do_bet(self, action: Bet | Raise, seat: int) -> None:
        self._do_raise_to(seat, action.amount, str(action))

    def _do_show_hand(self, action: Action, seat: int) -> None:
        self._do_raise_to(seat, self.room(seat), "showhand")

    def _do_fold(self, action: Action, seat: int) -> None:
        self.folded[seat] = True
        self._acted += 1
        key = (seat, "fold", 0, self.round_bets[seat], self.bets[seat])
        self.events.append(_ACTED.get(key) or _remember(_ACTED, key, Acted(*key)))
        if seat in self._queue:
            self._queue.remove(seat)
        live = self._live
        live.remove(seat)
        if len(live) == 1:
            self._finish(list(live), "fold")
        else:
            self._next_to_act()

    def _do_open(self, action: Action, seat: int) -> None:
        self.opened_by = seat
        self._acted += 1
        self.events.append(Opened(seat))
        self._showdown()

    # --- the flow of the hand ---------------------------------------------------------

    def _deal(self, number: int, *, face_up: bool) -> list[Card]:
        """Deal card ``number`` to every seat still in, in seat order; log it."""
        deck, events, cards = self._deck, self.events, []
        for seat in self._live:
            card = deck.pop()
            cards.append(card)
            key = (seat, id(card), number, face_up)
            events.append(
                _DEALT.get(key) or _remember(_DEALT, key, CardDealt(seat, card, number, face_up))
            )
        return cards

    def _show(self, cards: list[Card]) -> None:
        """Add ``cards`` (one per seat still in, in seat order) to their seats' up cards."""
        up, masks = self.up, self._masks
        for seat, card in zip(self._live, cards, strict=True):
            up[seat].append(card)
            masks[seat] |= _BIT_BY_ID.get(id(card)) or mask_of((card,))

    def _order_from(self, first: int) -> list[int]:
        """Seats still in, counterclockwise (seat + 1) from ``first``."""
        live = self._live
        for i, seat in enumerate(live):
            if seat >= first:
                return live[i:] + live[:i]
        return list(live)

    def _next_to_act(self) -> None:
        if self._queue:
            self.current_player = self._queue.pop(0)
        elif self.phase is _SWAP_PHASE:
            self._turn_cards()
        else:
            self._end_round()

    def _start_round(self, number: int) -> None:
        self.round = number
        leader = self.leader = self._best_up_cards()
        self.level, self._acted = 0, 0
        self.round_bets = [0] * self.players
        if self.bets[leader] >= self.most:  # everyone still in has bet the most
            self._end_round()
            return
        self.phase = _BET_PHASE
        key = (number, leader)
        self.events.append(
            _ROUND_STARTED.get(key) or _remember(_ROUND_STARTED, key, RoundStarted(*key))
        )
        self._queue = self._order_from(leader)
        self._next_to_act()

    def _end_round(self) -> None:
        if self.cards_dealt < CARDS_PER_PLAYER:
            self._deal_next()
        elif self.opened_by is None and self.bets[self._live[0]] < self.most:
            self._start_round(self.round + 1)  # an extra round
        else:
            self._showdown()

    def _deal_next(self) -> None:
        number = self.cards_dealt + 1
        self.cards_dealt = number
        if number not in self.rules.swap_cards:
            self._show(self._deal(number, face_up=True))
            self._start_round(self.round + 1)
            return
        pending = self.pending
        for seat, card in zip(self._live, self._deal(number, face_up=False), strict=True):
            pending[seat] = card
        self.phase = _SWAP_PHASE
        self.swapped = [None] * self.players
        self._queue = self._order_from(self.leader)
        self._next_to_act()

    def _do_swap(self, action: Action, seat: int) -> None:
        swap = type(action) is Swap
        self.swapped[seat] = swap
        self.events.append(_SWAP_CHOSEN[seat, swap])
        self._next_to_act()

    def _turn_cards(self) -> None:
        """Every decision is made: turn the new up cards together, then bet."""
        cards, events = [], self.events
        for seat in self._live:
            card = self.pending[seat]
            assert card is not None
            if self.swapped[seat]:
                card, self.hole[seat] = self.hole[seat], card
            self.pending[seat] = None
            cards.append(card)
            key = (seat, id(card))
            events.append(_TURNED.get(key) or _remember(_TURNED, key, CardTurned(seat, card)))
        self._show(cards)
        self._start_round(self.round + 1)

    def _best_up_cards(self) -> int:
        """The first seat still in (in seat order) with the strongest up cards."""
        best, best_score = -1, -1
        masks = self._masks
        for seat in self._live:
            score = evaluate_partial_mask(masks[seat])
            if score > best_score:
                best, best_score = seat, score
        return best

    def _showdown(self) -> None:
        flip = self.rules.flush_beats_full_house
        shown = tuple((seat, self.hand_of(seat)) for seat in self._live)
        scores = [evaluate_mask(mask_of(cards), flip) for _, cards in shown]
        categories = tuple(category_of(score, flush_beats_full_house=flip) for score in scores)
        self.events.append(Showdown(shown, categories))
        best = max(scores)
        winners = [seat for (seat, _), score in zip(shown, scores, strict=True) if score == best]
        self._finish(winners, "showdown")

    def _finish(self, winners: list[int], reason: str) -> None:
        """Pay the pot: split evenly in a tie (which distinct cards cannot make), the odd
        chips to the first winners in seat order."""
        share, odd = divmod(self.pot, len(winners))
        for i, seat in enumerate(winners):
            self.stacks[seat] += share + (1 if i < odd else 0)
        self.events.append(HandEnded(tuple(winners), self.pot, reason))
        self.pot = 0
        self.winners, self.reason = tuple(winners), reason
        self.phase, self.current_player, self._queue = _OVER, None, []


_LegalKey = tuple[int, int, int, int, int, bool]
_Legal = tuple[tuple[Action, ...], dict[int, list[Step | None]]]


def _listed(actions: tuple[Action, ...]) -> _Legal:
    """``actions`` and, by their ids (the tuple keeps them alive, so an id names one of
    them), the :class:`Step` of each by seat, made on first use: :meth:`State.apply`
    reuses it."""
    return actions, {id(a): [None] * MAX_PLAYERS for a in actions}


def _new_step(steps: list[Step | None], seat: int, action: Action) -> Step:
    step = steps[seat] = Step(seat, action)
    return step


_NO_LEGAL: _Legal = ((), {})
_SWAP_LEGAL: _Legal = _listed(_SWAP_CHOICES)
_LEGAL: dict[int, tuple[Rules, dict[_LegalKey, _Legal]]] = {}
"""By ``id`` of a rule set (kept alive here, so the id stays its own): its betting
actions, and their ids, by (most, round, round's bet, own round bet, own earlier bets,
first action of the leader): they recur every hand."""


def _legal_cache(rules: Rules) -> dict[_LegalKey, _Legal]:
    """The legal-actions cache of ``rules`` (found by identity: hashing a rule set is slow)."""
    entry = _LEGAL.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_LEGAL) >= _CACHE_SIZE:
            _LEGAL.clear()
        entry = _LEGAL[id(rules)] = (rules, {})
    return entry[1]


_E = TypeVar("_E", bound=Event)
_K = TypeVar("_K")
_ACTED: dict[tuple[int, str, int, int, int], Acted] = {}
_DEALT: dict[tuple[int, int, int, bool], CardDealt] = {}
"""By (seat, ``id`` of the card, number, face up); the event keeps its card alive."""
_TURNED: dict[tuple[int, int], CardTurned] = {}
"""By (seat, ``id`` of the card)."""
_ROUND_STARTED: dict[tuple[int, int], RoundStarted] = {}
_SWAP_CHOSEN = {
    (seat, swap): SwapChosen(seat, swap) for seat in range(MAX_PLAYERS) for swap in (True, False)
}
_OPENINGS: dict[tuple[int, tuple[int, ...]], tuple[Rules, tuple[Event, ...]]] = {}
"""By ``id`` of a rule set (kept alive here) and the stacks: the first events of a hand."""
_BIT_BY_ID = {id(card): mask_of((card,)) for card in DECK}
"""The card-mask bit of each card of :data:`DECK`, by its ``id``."""


def _remember(table: dict[_K, _E], key: _K, event: _E) -> _E:
    """Store ``event`` under ``key`` in ``table`` (events are frozen values that recur
    every hand: each is made once), emptying the table when it is full."""
    if len(table) >= _CACHE_SIZE:
        table.clear()
    table[key] = event
    return event


def _opening(rules: Rules, stacks: tuple[int, ...], most: int) -> tuple[Event, ...]:
    """The events that start every hand of ``rules`` with ``stacks``: the start, the antes."""
    key = (id(rules), stacks)
    entry = _OPENINGS.get(key)
    if entry is None or entry[0] is not rules:
        started = HandStarted(rules.name, stacks, most)
        antes = tuple(AntePosted(seat, rules.ante) for seat in range(len(stacks)))
        if len(_OPENINGS) >= _CACHE_SIZE:
            _OPENINGS.clear()
        entry = _OPENINGS[key] = (rules, (started, *antes))
    return entry[1]


_AMOUNTS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
_BET_ACTIONS: dict[tuple[bool, tuple[int, ...]], tuple[Action, ...]] = {}
_CACHE_SIZE = 10_000
"""Entries each cache above may hold before it is emptied (custom rules may vary amounts)."""


def _amounts_between(level: int, high: int, top: int, base: int) -> tuple[int, ...]:
    """Raise-to amounts over ``level`` up to ``high``: multiples of ``base``, plus ``top``
    itself when ``high`` is the most still allowed (memoised: they recur every hand)."""
    key = (level, high, top, base)
    amounts = _AMOUNTS.get(key)
    if amounts is None:
        values = list(range((level // base + 1) * base, high + 1, base))
        if high == top and high > level and (not values or values[-1] != high):
            values.append(high)
        if len(_AMOUNTS) >= _CACHE_SIZE:
            _AMOUNTS.clear()
        amounts = _AMOUNTS[key] = tuple(values)
    return amounts


def _bet_actions(opening: bool, amounts: tuple[int, ...]) -> tuple[Action, ...]:
    """``Bet`` (``opening``) or ``Raise`` actions of ``amounts``, made once per amount list."""
    key = (opening, amounts)
    actions = _BET_ACTIONS.get(key)
    if actions is None:
        make = Bet if opening else Raise
        if len(_BET_ACTIONS) >= _CACHE_SIZE:
            _BET_ACTIONS.clear()
        actions = _BET_ACTIONS[key] = tuple(make(a) for a in amounts)
    return actions


_Check = Callable[[State, Action, int], None]
_Do = Callable[[State, Action, int], None]


def _check_swap(state: State, action: Action, seat: int) -> None:
    """换牌 and 不换 need nothing beyond the phase and the turn (checked by the caller)."""
    del state, action, seat


_CHECKS: dict[type[Action], _Check] = {
    Bet: State._check_bet,  # type: ignore[dict-item]
    Raise: State._check_bet,  # type: ignore[dict-item]
    Check: State._check_check,
    Call: State._check_call,
    Fold: State._check_fold,
    ShowHand: State._check_show_hand,
    Open: State._check_open,
    Swap: _check_swap,
    Keep: _check_swap,
}
_DOS: dict[type[Action], _Do] = {
    Bet: State._do_bet,  # type: ignore[dict-item]
    Raise: State._do_bet,  # type: ignore[dict-item]
    Check: State._do_check,
    Call: State._do_call,
    Fold: State._do_fold,
    ShowHand: State._do_show_hand,
    Open: State._do_open,
    Swap: State._do_swap,
    Keep: State._do_swap,
}


_DECK_RANGE = range(len(DECK))


def _shuffle_v1(source: LegacyChance) -> list[Card]:
    """The 28 cards in the order of chance ``v1`` (``random.Random(seed)``), the first to
    deal last: each card gets a random key and the deck is sorted by them."""
    draw = source.rng.random
    keys = [draw() for _ in _DECK_RANGE]  # the key of each card, in deck order
    by_key = dict(zip(keys, DECK, strict=True))
    if len(by_key) == len(DECK):
        return [by_key[key] for key in sorted(keys, reverse=True)]
    deck = [DECK[i] for i in sorted(_DECK_RANGE, key=keys.__getitem__)]  # equal keys
    deck.reverse()
    return deck


def _check_stacks(rules: Rules, players: int, stacks: Sequence[int] | None) -> tuple[int, ...]:
    if stacks is None:
        if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidActionError("bad_players", f"{MIN_PLAYERS}-{MAX_PLAYERS} players")
        return (rules.min_stack,) * players
    chips = tuple(stacks)
    if not MIN_PLAYERS <= len(chips) <= MAX_PLAYERS:
        raise InvalidActionError("bad_players", f"{MIN_PLAYERS}-{MAX_PLAYERS} players")
    low = max(rules.min_stack, rules.ante + 1)
    if any(not isinstance(c, int) or c < low for c in chips):
        raise InvalidActionError("bad_stacks", f"every stack needs at least {low} chips")
    return chips


def replay(
    rules: str | Rules,
    seed: int,
    history: Iterable[Step | tuple[int | None, Action] | Action],
    *,
    players: int = MAX_PLAYERS,
    stacks: Sequence[int] | None = None,
    deck: Sequence[Card] | None = None,
    chance: str = V2,
) -> State:
    """Rebuild a hand from its rules, seed and actions (``state.history``).

    The keyword arguments are those the hand was created with (:meth:`State.new`).  A
    bare action is applied by whoever is to act.

    :raises InvalidActionError: / :raises IllegalActionError: if an action does not apply.
    """
    state = State.new(rules, seed=seed, players=players, stacks=stacks, deck=deck, chance=chance)
    for item in history:
        if isinstance(item, Step):
            state.apply(item.action, item.seat)
        elif isinstance(item, tuple):
            state.apply(item[1], item[0])
        else:
            state.apply(item)
    return state
