"""The Zha Jin Hua hand: one :class:`State`, validate-then-apply, driven by :class:`.Rules`.

A hand: everyone pays the ante 锅底, three cards go face down to each seat starting with
the dealer 庄家, and the seat after the dealer acts first; then in turn.  On his turn a
player may :class:`.Look` (free; he goes on in the same turn), then :class:`.Call`,
:class:`.Raise`, :class:`.Fold` or — from his second turn — :class:`.Compare`.
:class:`.AutoCall` (自动跟注 / 取消跟注) may be switched at any time by any player still in.
The hand ends when one player is left, or when a payment takes a player's total to the
cap 封顶: then all remaining hands are opened in betting order.  Chance (the dealer of a
table's first hand, the deal) comes from the hand's own source of chance, the seed's
:class:`~qipai.chance.DealStream` (``chance="v1"``: ``random.Random(seed)``), so
``replay(rules, seed, state.history, players=...)`` rebuilds the same hand.

>>> state = State.new("yifa", seed=3, players=3, dealer=0)
>>> state.current_player, state.pot, state.stacks
(1, 3, (199, 199, 199))
>>> _ = state.apply(Look())
>>> _ = state.apply(Call())          # a seen player pays 2 × the stake
>>> state.stacks[1], state.current_player
(197, 2)
>>> state.apply(Compare(0))
Traceback (most recent call last):
...
qipai.errors.IllegalActionError: compare_too_early: compare from round 2; this is round 1

Readings and choices (see ``docs/zhajinhua.md``): a betting round is a player's own turn
number; a payment past the cap is cut to reach it (``clip_to_cap``); a player is offered
only what his stack can pay (fold and look always); the cap showdown opens the remaining
hands from the first actor on, the strongest wins whatever the order, and a hand equal to
the best so far beats it (the one opened earlier loses); the 235 rule holds only between
two hands (a compare, a showdown of two): in a showdown of three or more a 235 is the
lowest hand; a compare shows nobody the two hands, the two players included: everyone
learns only who lost, and both keep their blind / seen status.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from qipai.cards import Card, poker_deck, shuffled
from qipai.chance import V2, chance_for
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.events import is_spectator
from qipai.games.zhajinhua.actions import (
    ACTION_TYPES,
    Action,
    AutoCall,
    Call,
    Compare,
    Fold,
    Look,
    Raise,
)
from qipai.games.zhajinhua.events import (
    AntesPaid,
    AutoCallChanged,
    Called,
    CapReached,
    CardsDealt,
    CardsSeen,
    Compared,
    Event,
    Folded,
    HandEnded,
    HandStarted,
    Looked,
    Raised,
)
from qipai.games.zhajinhua.hands import category_of_cards, compare_cards
from qipai.games.zhajinhua.rules import (
    ENGINE_VERSION,
    LAST_RAKING_ENGINE,
    LEGACY_RAKE_PERCENT,
    DealerRule,
    Rules,
    get_rules,
)
from qipai.games.zhajinhua.view import View, make_view

HAND_CARDS = 3
"""Cards each seat is dealt."""


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action and who applied it."""

    seat: int
    """The acting seat."""
    action: Action
    """The action."""


@dataclass(frozen=True, slots=True)
class CompareRecord:
    """One compare 比牌 of the hand."""

    initiator: int
    """Who asked (he loses ties)."""
    target: int
    """The opponent."""
    amount: int
    """What the initiator paid."""
    loser: int
    """Who went out."""


def refuse(code: str, message: str) -> IllegalActionError:
    """The :class:`~qipai.errors.IllegalActionError` to raise (messages name no card)."""
    return IllegalActionError(code, message)


class State:
    """One Zha Jin Hua hand.  Create it with :meth:`new`; drive it with :meth:`apply`."""

    def __init__(
        self, rules: Rules, dealer: int, hands: Sequence[tuple[Card, ...]], stacks: Sequence[int]
    ) -> None:
        n = len(hands)
        self.rules = rules
        """The rule set."""
        self.players = n
        """Number of seats."""
        self.dealer = dealer
        """庄家."""
        self.first = (dealer + 1) % n
        """The first to act; betting order starts here."""
        self.hands = tuple(hands)
        """Each seat's three cards (hidden: read them through :meth:`view`)."""
        self.start_stacks = tuple(stacks)
        """Stacks before the ante."""
        self._stacks = list(stacks)
        self._put = [0] * n
        self.pot = 0
        """Chips in the pot (0 once paid to the winner)."""
        self.stake = rules.base_bet
        """The current stake 单注."""
        self._seen = [False] * n
        self._folded = [False] * n
        self._out = [False] * n
        self._auto = [False] * n
        self._turns = [0] * n
        self.current_player: int | None = self.first
        """Whose turn it is (``None`` once over)."""
        self.compares: list[CompareRecord] = []
        """Every compare so far."""
        self.winner: int | None = None
        """Who won, once over."""
        self.seed: int | None = None
        """The seed the hand was dealt from (``None`` if it was built without one)."""
        self.chance: str = V2
        """The chance version the hand was dealt with (:mod:`qipai.chance`)."""
        self.dealer_given: int | None = None
        """The dealer :meth:`new` was given; ``None`` if it drew him from the seed."""
        self.reason: str | None = None
        """``last_standing`` or ``cap``, once over."""
        self.opened: tuple[int, ...] = ()
        """The cap showdown's seats in opening order."""
        self.events: list[Event] = []
        """Every event so far."""
        self.history: list[Step] = []
        """Every applied action."""

    # --- construction -----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: str | Rules,
        *,
        seed: int,
        players: int,
        stacks: Sequence[int] | None = None,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
        chance: str = V2,
    ) -> State:
        """Start a hand: choose the dealer (random if ``None``), take the antes, deal.

        ``stacks`` default to the cap for everyone (the minimum to sit).  ``deck`` (tests,
        hand records) replaces the shuffle: its cards are dealt in order, one at a time,
        from the dealer on.  ``chance`` is the chance version (:mod:`qipai.chance`): ``v2``,
        or ``v1`` (``random.Random(seed)``) to replay a ``qipai-hand/1`` record.  The draws,
        in order: ``randbelow(players)`` for the dealer (only when ``dealer`` is ``None``),
        then the shuffle of :func:`~qipai.cards.poker_deck` (only without ``deck``).

        :raises InvalidActionError: ``unknown_rules``, ``bad_players``, ``bad_stacks``,
            ``bad_seat``, ``bad_deck``, ``bad_chance``.
        """
        rule_set = get_rules(rules)
        if not rule_set.min_players <= players <= rule_set.max_players:
            raise InvalidActionError(
                "bad_players",
                f"{rule_set.min_players}-{rule_set.max_players} players, not {players}",
            )
        chips = [rule_set.cap] * players if stacks is None else list(stacks)
        if len(chips) != players or any(c < rule_set.ante for c in chips):
            raise InvalidActionError("bad_stacks", f"{players} stacks of at least the ante")
        if dealer is not None:
            _check_seat(dealer, players)
        rng = chance_for(seed, chance)
        first = rng.randbelow(players) if dealer is None else dealer
        if deck is None:
            deck = shuffled(poker_deck(), rng)
        elif len(set(deck)) != len(deck) or len(deck) < HAND_CARDS * players:
            raise InvalidActionError("bad_deck", f"{HAND_CARDS * players}+ distinct cards needed")
        order = [(first + i) % players for i in range(players)]
        dealt: list[list[Card]] = [[] for _ in range(players)]
        for i in range(HAND_CARDS * players):
            dealt[order[i % players]].append(deck[i])
        state = cls(rule_set, first, [tuple(h) for h in dealt], chips)
        state.seed = seed
        state.dealer_given = dealer
        state.chance = rng.version
        state._start()
        return state

    def _start(self) -> None:
        ante = self.rules.ante
        self.events.append(HandStarted(self.rules.name, self.players, self.dealer, self.stacks))
        for seat in range(self.players):
            self._pay(seat, ante)
        self.events.append(AntesPaid(ante, self.pot))
        self.events.append(CardsDealt(self.dealer, self.first))

    def clone(self) -> State:
        """An independent copy (events and history are copied lists of frozen values)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        for name, value in self.__dict__.items():
            if isinstance(value, list):
                other.__dict__[name] = list(value)
        return other

    # --- queries ----------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.winner is not None

    @property
    def stacks(self) -> tuple[int, ...]:
        """Each seat's chips now."""
        return tuple(self._stacks)

    @property
    def put(self) -> tuple[int, ...]:
        """Each seat's total put into the pot (ante included)."""
        return tuple(self._put)

    @property
    def seen(self) -> tuple[bool, ...]:
        """Seats that are seen 明牌."""
        return tuple(self._seen)

    @property
    def folded(self) -> tuple[bool, ...]:
        """Seats that folded."""
        return tuple(self._folded)

    @property
    def out(self) -> tuple[bool, ...]:
        """Seats that lost a compare."""
        return tuple(self._out)

    @property
    def auto_call(self) -> tuple[bool, ...]:
        """Seats with 自动跟注 on."""
        return tuple(self._auto)

    @property
    def turns(self) -> tuple[int, ...]:
        """Turns each seat has completed."""
        return tuple(self._turns)

    @property
    def round(self) -> int:
        """The betting round of the player to act (his own turn number, from 1)."""
        seat = self.current_player
        return 0 if seat is None else self._turns[seat] + 1

    def is_alive(self, seat: int) -> bool:
        """Whether ``seat`` is still in the hand (neither folded nor out by a compare)."""
        return not (self._folded[seat] or self._out[seat])

    def call_cost(self, seat: int) -> int:
        """What a call would cost ``seat`` now (cut at the cap with ``clip_to_cap``)."""
        return self._cost(seat, self.stake)

    def _cost(self, seat: int, stake: int, times: int = 1) -> int:
        amount = stake * self.rules.call_factor(self._seen[seat]) * times
        if self.rules.clip_to_cap:
            amount = min(amount, self.rules.cap - self._put[seat])
        return amount

    def compare_cost(self, seat: int) -> int:
        """What a compare would cost ``seat`` now (double a call)."""
        return self._cost(seat, self.stake, self.rules.compare_factor)

    @property
    def next_dealer(self) -> int | None:
        """The next hand's dealer under the rules' :class:`.DealerRule` (``None`` until over)."""
        if self.winner is None:
            return None
        if self.rules.dealer_rule is DealerRule.WINNER:
            return self.winner
        return (self.dealer + 1) % self.players

    def returns(self) -> tuple[int, ...]:
        """Each seat's net chips for the hand (zero-sum: the winner takes the whole pot; the
        house's rake is the hall's business); zeros until over."""
        if not self.is_terminal:
            return (0,) * self.players
        return self._net()

    def _net(self) -> tuple[int, ...]:
        return tuple(s - s0 for s, s0 in zip(self._stacks, self.start_stacks, strict=True))

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What ``seat`` (default: the player to act) may apply now.

        The player to act gets his turn's actions; any seat still in gets the
        :class:`.AutoCall` switch (when the rules allow it).

        :raises InvalidActionError: ``bad_seat``.
        """
        if seat is not None:
            _check_seat(seat, self.players)
        if self.is_terminal:
            return []
        actor = self.current_player if seat is None else seat
        assert actor is not None
        actions = self._turn_actions(actor) if actor == self.current_player else []
        if self.rules.auto_call and self.is_alive(actor):
            actions.append(AutoCall(not self._auto[actor]))
        return actions

    def _turn_actions(self, seat: int) -> list[Action]:
        stack = self._stacks[seat]
        actions: list[Action] = [] if self._seen[seat] else [Look()]
        if self.call_cost(seat) <= stack:
            actions.append(Call())
        actions += [
            Raise(to) for to in self.rules.raise_levels(self.stake) if self._cost(seat, to) <= stack
        ]
        actions.append(Fold())
        if self.round >= self.rules.compare_from_round and self.compare_cost(seat) <= stack:
            actions += [Compare(t) for t in range(self.players) if t != seat and self.is_alive(t)]
        return actions

    def view(self, seat: int) -> View:
        """What ``seat`` may see now: a fresh immutable snapshot; with
        :data:`~qipai.games.events.SPECTATOR`, what everyone may see (a spectator's view).

        :raises InvalidActionError: ``bad_seat``.
        """
        if not is_spectator(seat):
            _check_seat(seat, self.players)
        return make_view(self, seat)

    def sees_own_cards(self, seat: int) -> bool:
        """Whether ``seat`` may see his own cards now: seen and not folded, or the end."""
        return self.is_terminal or (self._seen[seat] and not self._folded[seat])

    # --- verify / can / do ------------------------------------------------------------

    def check(self, action: Action, seat: int | None = None) -> int:
        """Raise if ``action`` may not be applied now; return the acting seat.

        :raises InvalidActionError: ``bad_action``, ``bad_seat``.
        :raises IllegalActionError: ``hand_over``, ``not_your_turn``, ``not_in_hand``,
            ``not_in_rules``, ``auto_call_unchanged``, ``already_seen``, ``cannot_afford``,
            ``raise_too_low``, ``over_top_bet``, ``not_a_level``, ``compare_too_early``,
            ``bad_target``.
        """
        if not isinstance(action, ACTION_TYPES):
            raise InvalidActionError("bad_action", f"not a Zha Jin Hua action: {action!r}")
        if seat is not None:
            _check_seat(seat, self.players)
        if self.is_terminal:
            raise refuse("hand_over", "the hand is over")
        if isinstance(action, AutoCall):
            return self._check_auto(action, seat)
        actor = self.current_player if seat is None else seat
        assert actor is not None
        if actor != self.current_player:
            raise refuse("not_your_turn", f"seat {self.current_player} is to act, not {actor}")
        _CHECKS[type(action)](self, action, actor)
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

        ``seat`` defaults to the player to act; :class:`.AutoCall` may name any seat
        still in.  Automatic calls the action triggers are among the returned events.

        :raises InvalidActionError: / :raises IllegalActionError: see :meth:`check`; the
            state is then unchanged.
        """
        actor = self.check(action, seat)
        mark = len(self.events)
        _DOS[type(action)](self, action, actor)
        self.history.append(Step(actor, action))
        return self.events[mark:]

    def _check_auto(self, action: AutoCall, seat: int | None) -> int:
        actor = self.current_player if seat is None else seat
        assert actor is not None
        if not self.rules.auto_call:
            raise refuse("not_in_rules", f"{self.rules.name} has no 自动跟注")
        if not self.is_alive(actor):
            raise refuse("not_in_hand", f"seat {actor} is no longer in the hand")
        if self._auto[actor] == action.on:
            raise refuse(
                "auto_call_unchanged", f"自动跟注 is already {'on' if action.on else 'off'}"
            )
        return actor

    def _afford(self, seat: int, amount: int, what: str) -> None:
        if amount > self._stacks[seat]:
            raise refuse(
                "cannot_afford", f"{what} costs {amount}; seat {seat} has {self._stacks[seat]}"
            )

    def _check_look(self, action: Look, seat: int) -> None:
        if self._seen[seat]:
            raise refuse("already_seen", f"seat {seat} has looked already")

    def _check_call(self, action: Call, seat: int) -> None:
        self._afford(seat, self.call_cost(seat), "the call")

    def _check_raise(self, action: Raise, seat: int) -> None:
        to = action.to
        if to > self.rules.top_bet:
            raise refuse(
                "over_top_bet", f"the stake may not exceed the top bet {self.rules.top_bet}"
            )
        if to <= self.stake:
            raise refuse("raise_too_low", f"raise above the stake {self.stake}, not to {to}")
        if to not in self.rules.stake_levels:
            raise refuse("not_a_level", f"stake levels are {self.rules.stake_levels}")
        self._afford(seat, self._cost(seat, to), str(action))

    def _check_fold(self, action: Fold, seat: int) -> None:
        del action, seat

    def _check_compare(self, action: Compare, seat: int) -> None:
        if self.round < self.rules.compare_from_round:
            raise refuse(
                "compare_too_early",
                f"compare from round {self.rules.compare_from_round}; this is round {self.round}",
            )
        target = action.target
        if target >= self.players or target == seat or not self.is_alive(target):
            raise refuse("bad_target", f"seat {target} is no opponent still in the hand")
        self._afford(seat, self.compare_cost(seat), "the compare")

    # --- doing ------------------------------------------------------------------------

    def _pay(self, seat: int, amount: int) -> None:
        self._stacks[seat] -= amount
        self._put[seat] += amount
        self.pot += amount

    def _do_look(self, action: Look, seat: int) -> None:
        self._seen[seat] = True
        self.events += [Looked(seat), CardsSeen(seat, self.hands[seat])]

    def _do_call(self, action: Call, seat: int) -> None:
        amount = self.call_cost(seat)
        self._pay(seat, amount)
        self.events.append(Called(seat, self.stake, amount, auto=False))
        self._end_turn(seat)

    def _do_raise(self, action: Raise, seat: int) -> None:
        amount = self._cost(seat, action.to)
        self.stake = action.to
        self._pay(seat, amount)
        self.events.append(Raised(seat, action.to, amount))
        self._end_turn(seat)

    def _do_fold(self, action: Fold, seat: int) -> None:
        self._folded[seat] = True
        self._auto[seat] = False
        self.events.append(Folded(seat))
        self._end_turn(seat)

    def _do_compare(self, action: Compare, seat: int) -> None:
        target = action.target
        amount = self.compare_cost(seat)
        self._pay(seat, amount)
        won = compare_cards(self.hands[seat], self.hands[target]) > 0  # ties: initiator loses
        loser = target if won else seat
        self._out[loser] = True
        self._auto[loser] = False
        self.compares.append(CompareRecord(seat, target, amount, loser))
        # 所有玩家看不到两人的牌面: the event names who lost, no card, and nobody turns seen
        self.events.append(Compared(seat, target, amount, loser))
        self._end_turn(seat)

    def _do_auto(self, action: AutoCall, seat: int) -> None:
        self._auto[seat] = action.on
        self.events.append(AutoCallChanged(seat, action.on))
        self._auto_calls()

    def _end_turn(self, seat: int) -> None:
        self._advance(seat)
        self._auto_calls()

    def _advance(self, seat: int) -> None:
        """``seat``'s turn is done: end the hand, or pass the turn on."""
        self._turns[seat] += 1
        if not self._finished_after(seat):
            self.current_player = self._next_alive(seat)

    def _auto_calls(self) -> None:
        """自动跟注: call for each player to act who has it on, until one has it off."""
        while self.current_player is not None and self._auto[self.current_player]:
            seat = self.current_player
            amount = self.call_cost(seat)
            if amount > self._stacks[seat]:
                self._auto[seat] = False
                self.events.append(AutoCallChanged(seat, on=False))
                return
            self._pay(seat, amount)
            self.events.append(Called(seat, self.stake, amount, auto=True))
            self._advance(seat)

    def _next_alive(self, seat: int) -> int:
        n = self.players
        return next(s for s in ((seat + i) % n for i in range(1, n + 1)) if self.is_alive(s))

    def betting_order(self) -> list[int]:
        """Seats still in, from the first actor on (the cap showdown's opening order)."""
        n = self.players
        return [s for s in ((self.first + i) % n for i in range(n)) if self.is_alive(s)]

    def _finished_after(self, seat: int) -> bool:
        """End the hand if one player is left or ``seat``'s total reached the cap."""
        alive = self.betting_order()
        if len(alive) == 1:
            self._finish(alive[0], "last_standing", ())
            return True
        if self._put[seat] >= self.rules.cap:
            self.events.append(CapReached(seat, self._put[seat]))
            self._finish(showdown_winner(self.hands, alive), "cap", tuple(alive))
            return True
        return False

    def _finish(self, winner: int, reason: str, opened: tuple[int, ...]) -> None:
        pot = self.pot
        self._stacks[winner] += pot
        self.pot = 0
        self.winner, self.reason, self.opened = winner, reason, opened
        self.current_player = None
        categories = tuple(category_of_cards(cards) for cards in self.hands)
        self.events.append(
            HandEnded(winner, reason, pot, self._net(), self.hands, opened, categories)
        )


def showdown_winner(hands: Sequence[Sequence[Card]], order: Sequence[int]) -> int:
    """系统自动开牌: the strongest of ``order``'s hands, opened in that order; equal hands:
    the one opened earlier loses.

    The 235 rule holds only when exactly two hands are opened.  Among three or more a 235
    is the lowest hand, so the ranking is transitive and the winner does not depend on the
    order (only a tie does).

    >>> from qipai.cards import parse_cards
    >>> hands = [parse_cards(h) for h in ("2d3c5h", "KsKhKd", "9s9h4c")]
    >>> {showdown_winner(hands, order) for order in ((0, 1, 2), (1, 0, 2), (2, 1, 0))}
    {1}
    >>> showdown_winner(hands, (1, 0)), showdown_winner(hands, (0, 1))
    (0, 0)
    """
    rule_235 = len(order) == 2
    best = order[0]
    for seat in order[1:]:
        if compare_cards(hands[seat], hands[best], rule_235=rule_235) >= 0:
            best = seat
    return best


_Check = Callable[[State, Action, int], None]
_Do = Callable[[State, Action, int], None]

_CHECKS: dict[type[Action], _Check] = {
    Look: State._check_look,  # type: ignore[dict-item]
    Call: State._check_call,  # type: ignore[dict-item]
    Raise: State._check_raise,  # type: ignore[dict-item]
    Fold: State._check_fold,  # type: ignore[dict-item]
    Compare: State._check_compare,  # type: ignore[dict-item]
}
_DOS: dict[type[Action], _Do] = {
    Look: State._do_look,  # type: ignore[dict-item]
    Call: State._do_call,  # type: ignore[dict-item]
    Raise: State._do_raise,  # type: ignore[dict-item]
    Fold: State._do_fold,  # type: ignore[dict-item]
    Compare: State._do_compare,  # type: ignore[dict-item]
    AutoCall: State._do_auto,  # type: ignore[dict-item]
}


def _check_seat(seat: object, players: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise InvalidActionError("bad_seat", f"a seat is 0-{players - 1}, not {seat!r}")


class RakedState(State):
    """A hand replayed for a record of an engine up to :data:`~.rules.LAST_RAKING_ENGINE`,
    which raked the winner: its :meth:`returns` are that engine's, the winner's after
    :data:`~.rules.LEGACY_RAKE_PERCENT` of his profit (rounded down).  Everything else —
    stacks, events, views — is today's engine's.  Only :func:`replay` makes one."""

    def returns(self) -> tuple[int, ...]:
        """The old engine's returns: the zero-sum chips less the legacy rake.

        >>> steps = [Raise(10), Look(), Call(), Call(), Fold()]   # seat 1 wins 21
        >>> new = replay("yifa", 5, steps, players=2, dealer=0)
        >>> old = replay("yifa", 5, steps, players=2, dealer=0, engine=2)
        >>> new.returns(), old.returns()                          # 5 % of 21 is 1
        ((-21, 21), (-21, 20))
        """
        percent = LEGACY_RAKE_PERCENT.get(self.rules.name, 0)
        return tuple(r - max(r, 0) * percent // 100 for r in super().returns())


def replay(
    rules: str | Rules,
    seed: int,
    history: Iterable[Step | tuple[int | None, Action] | Action],
    *,
    players: int,
    stacks: Sequence[int] | None = None,
    dealer: int | None = None,
    deck: Sequence[Card] | None = None,
    chance: str = V2,
    engine: int = ENGINE_VERSION,
) -> State:
    """Rebuild a hand from its rules, seed, creation arguments and actions.

    A bare action is applied by whoever is to act.  ``engine`` is the engine version the
    hand was played by (a hand record's ``engine``): up to
    :data:`~.rules.LAST_RAKING_ENGINE` the hand is a :class:`RakedState`, whose returns are
    that engine's (after its rake), as the record's ``result`` holds them.

    :raises InvalidActionError: ``bad_engine`` for an engine below 1 or newer than this
        one; / :raises IllegalActionError: if an action does not apply.
    """
    if not 1 <= engine <= ENGINE_VERSION:
        raise InvalidActionError("bad_engine", f"engines are 1-{ENGINE_VERSION}, not {engine}")
    kind = RakedState if engine <= LAST_RAKING_ENGINE else State
    state = kind.new(
        rules, seed=seed, players=players, stacks=stacks, dealer=dealer, deck=deck, chance=chance
    )
    for item in history:
        if isinstance(item, Step):
            state.apply(item.action, item.seat)
        elif isinstance(item, tuple):
            state.apply(item[1], item[0])
        else:
            state.apply(item)
    return state
