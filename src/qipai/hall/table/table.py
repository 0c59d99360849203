"""A table 牌桌: one room's seats playing hands, sans-I/O (``docs/architecture.md``).

A :class:`Table` is driven by calls that each carry the time ``now`` (seconds on the
caller's clock): :meth:`~Table.start_hand`, :meth:`~Table.contribute`, :meth:`~Table.act`,
:meth:`~Table.set_trustee`, :meth:`~Table.escape`, :meth:`~Table.disconnect`,
:meth:`~Table.reconnect` and :meth:`~Table.tick` (call it when :meth:`~Table.deadline` is
reached).  What each seat
must be told comes out of :meth:`~Table.drain` as :class:`Outbound` frames, plain
JSON-able dicts (``docs/hall.md``, "Tables").  The table reads no clock, touches no socket
and no database; a call that raises an :class:`~qipai.errors.IllegalActionError` or
:class:`~qipai.errors.InvalidActionError` has changed nothing and produced no frame.

Events are numbered per table, from 1, over all its hands.  Each human seat receives every
number once: the event if :meth:`~qipai.games.events.Event.visible_to` it, else
``{"hidden": true}`` in its place.  Bots receive nothing.  The last :data:`HISTORY_LIMIT`
entries (events and the public ``hand_start`` / ``hand_over`` frames) are kept for
:meth:`~Table.frames_since`.

A table with an ``entropy_window`` deals each hand only once its connected players have
sent their entropy (:meth:`~Table.contribute`) or the window has ended, whichever comes
first: the ``hand_start`` frame publishes the house seed's commitment and the window's
end, and the hand is dealt from the house seed mixed with the contributions
(:func:`~qipai.hall.seeds.deal_seed`; its record is a ``qipai-hand/3`` one).  A table
without a window (``entropy_window=0``, the default) deals at once, straight from the
house seed, as hands were dealt before (``qipai-hand/2`` records).

>>> import random
>>> from qipai.hall.rooms import default_rooms
>>> room = default_rooms()[0]
>>> seats = [SeatInfo("ann", "Ann", 10_000)]
>>> seats += [SeatInfo(None, f"bot{i}", 10_000) for i in range(1, room.seats)]
>>> table = Table(room, 1, seats, now=0.0, bot_delay=1.0, rng=random.Random(1))
>>> table.start_hand("h1", seed=42, now=0.0)
>>> [type(f.frame).__name__ for f in table.drain()][:3]
['HandStart', 'Event', 'Event']
>>> while table.deadline() is not None:
...     table.tick(table.deadline())
>>> table.is_over, sum(table.outcome.settlement.net) + table.outcome.settlement.house
(True, 0)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.events import SPECTATOR
from qipai.hall.coins import loss_of
from qipai.hall.frames import OutFrame, Snapshot
from qipai.hall.rooms import Room
from qipai.hall.seeds import Entropy, commitment, deal_seed, entropy_value
from qipai.hall.table import asks, clock, moves
from qipai.hall.table import frames as table_frames
from qipai.hall.table.end import hand_outcome, hand_over_frame
from qipai.hall.table.frames import hand_start_frame, turn_frame
from qipai.hall.table.hand import HandState, TableHand
from qipai.hall.table.history import HISTORY_LIMIT, FrameHistory, event_frame
from qipai.hall.table.seats import SeatStatus, check_seat, check_seats, is_int, players
from qipai.hall.table.state import AskedDecisions, TurnClock
from qipai.hall.table.values import (
    BOT_POLICY,
    BotTurn,
    HandOutcome,
    HandTerms,
    Outbound,
    SeatInfo,
)
from qipai.hall.wire import parse_action
from qipai.registry import EscapeCost, HandSetup

__all__ = [
    "BOT_POLICY",
    "DEAL_STEP_SECONDS",
    "HISTORY_LIMIT",
    "BotTurn",
    "HandOutcome",
    "HandTerms",
    "Outbound",
    "SeatInfo",
    "Table",
]

DEAL_STEP_SECONDS = 1.0
"""Default seconds between the steps of a paced deal (明牌 windows)."""


class Table:
    """One table of ``room``: its seats, its current hand, its clock and its frames.

    :param number: the table's number (in every frame).
    :param seats: who sits where (``SeatInfo(None, ...)`` = a bot), fixed for the table.
    :param now: the time the table is created.
    :param bot_delay: seconds a bot or a 托管 seat waits before it acts.
    :param rng: a generator for the table's own choices (the shipped bots draw nothing).
    :param deal_step: seconds between the steps of a paced deal.
    :param entropy_window: the longest a hand waits for its players' entropy before it is
        dealt (seconds; 0: no entropy, each hand dealt at once straight from its seed, and
        recorded as ``qipai-hand/2``).
    :param bot_wait: ``None`` (the default): a bot's move (or a 托管 seat's in a style
        other than the basic one) is decided inside :meth:`tick` when it is due.  A number
        of seconds: the table asks for it instead (:meth:`bot_turn`), plays the answer
        given to :meth:`decided` when due, and plays the basic 托管 action when no answer
        has come ``bot_wait`` seconds after the move was due (``docs/bots.md``, "Bots off
        the event loop").
    :raises InvalidActionError: ``bad_seats`` (not one :class:`SeatInfo` per seat of the
        room, or a negative balance), ``bad_delay``.
    """

    def __init__(
        self,
        room: Room,
        number: int,
        seats: Sequence[SeatInfo],
        *,
        now: float,
        bot_delay: float = 0.0,
        rng: random.Random,
        deal_step: float = DEAL_STEP_SECONDS,
        entropy_window: float = 0.0,
        terms: HandTerms | None = None,
        bot_wait: float | None = None,
    ) -> None:
        check_seats(room, seats)
        delays = (bot_delay, deal_step, entropy_window, 0.0 if bot_wait is None else bot_wait)
        if not all(delay >= 0 for delay in delays):
            raise InvalidActionError("bad_delay", "delays are >= 0 seconds")
        self.room = room
        """The room."""
        self.number = number
        """The table's number."""
        self.seats: tuple[SeatInfo, ...] = tuple(seats)
        """Who sits where, with the balances after the last hand."""
        self.bot_delay = bot_delay
        """Seconds a bot or 托管 seat waits before it acts."""
        self.deal_step = deal_step
        """Seconds between paced deal steps."""
        self.entropy_window = entropy_window
        """The longest a hand waits for its players' entropy (0: dealt at once)."""
        self.bot_wait = bot_wait
        """``None``: bots decide inside :meth:`tick`; else the seconds after a bot's move
        is due that the table waits for :meth:`decided` before the basic 托管 plays."""
        self.rng = rng
        """The table's generator."""
        self.hand_id: str | None = None
        """The current (or last) hand's id."""
        self.commitment: str | None = None
        """The current (or last) hand's seed commitment."""
        self.hands_started = 0
        """Hands started at this table."""
        self.outcome: HandOutcome | None = None
        """The last hand's outcome once it is over; ``None`` while a hand runs."""
        self.terms = terms or HandTerms(room.game_rules(), room.payout)
        """The rules the table's hands are played by, and how they settle (the room's,
        unless a match gives its own: its rule changes, match points only)."""
        self.engine = room.game_type
        """The room's game type: the engine the hands are played by."""
        self.human_seats = tuple(seat for seat, info in enumerate(seats) if info.player is not None)
        """The seats of human players (the ones frames are sent to)."""
        self.seat_status = tuple(SeatStatus() for _ in seats)
        """What the table knows of each seat beyond the hand (托管, connection, escape)."""
        self.hand = TableHand(entropy=[None] * len(seats))
        """The hand started last (an empty one before the first)."""
        self.clock = TurnClock(now)
        """When the decision of the moment started."""
        self.asked = AskedDecisions()
        """The table's position, and the answer kept for a decision asked (``bot_wait``)."""
        self.history = FrameHistory()
        """The numbered events and public frames kept for :meth:`frames_since`."""
        self._out: list[Outbound] = []
        self.unanswered = 0
        """Moves the basic 托管 played for want of an answer in time (``bot_wait``)."""
        self.watched = False
        """Whether spectators 观战 watch it: each frame is then made for
        :data:`~qipai.games.events.SPECTATOR` too (``Outbound(SPECTATOR, frame)``, from the
        spectator's own view: events he may see, placeholders for the rest, turns without
        ``legal``/``options``)."""

    # --- queries ----------------------------------------------------------------------

    @property
    def game_state(self) -> HandState | None:
        """The live engine state of the current hand (never send it: views and events
        only; the table alone may change it)."""
        return self.hand.state

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (or waits for its players' entropy)."""
        return self.hand.collecting or self.hand.playing

    @property
    def collecting(self) -> bool:
        """Whether the hand started waits for its players' entropy (not dealt yet)."""
        return self.hand.collecting

    @property
    def entropy(self) -> Entropy:
        """The current (or last) hand's contributions so far, per seat."""
        return tuple(self.hand.entropy)

    @property
    def is_over(self) -> bool:
        """Whether the last hand started is over (``False`` before the first hand)."""
        return self.hand.state is not None and not self.in_hand

    @property
    def last_event(self) -> int:
        """The number of the table's last event (0 before any)."""
        return self.history.n

    def deadline(self) -> float | None:
        """When :meth:`tick` must next be called: the end of the entropy window, the
        decision time limit, a bot's or 托管 seat's move, the end of an absent player's
        grace, the next deal step; ``None`` when nothing is pending."""
        return clock.deadline(self)

    # --- decisions asked for (bot_wait) -----------------------------------------------

    def bot_turn(self) -> BotTurn | None:
        """The decision the table will need next from a bot's policy, to be computed
        elsewhere and given back with :meth:`decided`; ``None`` when the next move is not
        a bot's (or strong 托管's), or without ``bot_wait``.  Ask again after every
        change: a new :attr:`BotTurn.position` means a new question."""
        return asks.bot_turn(self, clock.move_due(self))

    def decided(self, turn: BotTurn, action: object, now: float) -> None:
        """The answer to ``turn`` (:meth:`bot_turn`) came at ``now``: the table plays it
        at the move's time, or at once if that has passed (call :meth:`tick` at
        :meth:`deadline`).  An answer for a position the table has left is dropped; one
        that is not a legal move when played gives way to the basic 托管 action."""
        asks.decided(self, turn, action, now)

    # --- frames -----------------------------------------------------------------------

    def _send(self, frame: OutFrame) -> None:
        for seat in self.human_seats:
            self._out.append(Outbound(seat, frame))
        if self.watched:
            self._out.append(Outbound(SPECTATOR, frame))

    def _public(self, frame: OutFrame) -> None:
        """A frame every seat gets, kept in the history."""
        self.history.public(frame)
        self._send(frame)

    def _publish(self) -> None:
        """Number the hand's new events and send each seat its frame of each."""
        for entry in self.history.number(self.hand.dealt_state.events):
            for seat in self.human_seats:
                self._out.append(Outbound(seat, event_frame(self.number, entry, seat)))
            if self.watched:
                self._out.append(Outbound(SPECTATOR, event_frame(self.number, entry, SPECTATOR)))

    def _flush(self) -> None:
        """After a change: the new events, then the hand's end or everyone's turn frame."""
        if self.hand.state is None:
            return
        self._publish()
        if self.outcome is None and not self.in_hand:
            self._finish()
        elif self.hand.playing:
            seated = players(self.seats, self.seat_status)
            for seat in self.human_seats:
                self._out.append(Outbound(seat, turn_frame(self, seat, seated)))
            if self.watched:
                self._out.append(Outbound(SPECTATOR, turn_frame(self, None, seated)))

    def drain(self) -> list[Outbound]:
        """The frames produced since the last drain, in order (one per recipient seat)."""
        out, self._out = self._out, []
        return out

    def snapshot(self, seat: int) -> Snapshot:
        """A full resync for ``seat``: its view of the hand (``None`` before the first
        hand, and while a hand waits for entropy: ``entropy_deadline`` says until when)
        after event ``n``, the players and the turn's deadline.

        :raises InvalidActionError: ``bad_seat``.
        """
        self._check_seat(seat)
        return table_frames.snapshot(self, seat)

    def spectator_snapshot(self) -> Snapshot:
        """What a spectator 观战 sees of the table now: a snapshot with ``seat`` ``None`` and
        the game's spectator view (no card a player holds unseen)."""
        return table_frames.snapshot(self, None)

    def ending(self, seat: int) -> list[OutFrame]:
        """How the finished hand ended, for ``seat`` back after it: a :meth:`snapshot` (the
        final view) and the ``hand_over`` frame.  Small enough to keep without the table.

        :raises InvalidActionError: ``bad_seat``.
        :raises IllegalActionError: ``no_hand`` / ``hand_not_over`` unless a hand is over.
        """
        outcome = self.outcome
        if outcome is None:
            code = "no_hand" if self.hand.state is None else "hand_not_over"
            raise IllegalActionError(code, "no finished hand at this table")
        return [self.snapshot(seat), hand_over_frame(self, outcome)]

    def frames_since(self, seat: int, n: int) -> list[OutFrame] | None:
        """What ``seat`` missed after event ``n``: each later event (or its placeholder)
        and the ``hand_start`` / ``hand_over`` frames sent from then on, in order, then
        the current turn frame while a hand runs.  ``None`` when ``n`` is not a number
        this table has reached or is older than the history: send :meth:`snapshot`.

        :raises InvalidActionError: ``bad_seat``.
        """
        self._check_seat(seat)
        if not is_int(n):
            return None
        frames = self.history.since(n, lambda entry: event_frame(self.number, entry, seat))
        if frames is None:
            return None
        if self.hand.playing:
            frames.append(turn_frame(self, seat))
        return frames

    # --- checks -----------------------------------------------------------------------

    def _check_seat(self, seat: object) -> None:
        check_seat(len(self.seats), seat)

    def _check_human(self, seat: int) -> SeatStatus:
        self._check_seat(seat)
        if self.seats[seat].is_bot:
            raise IllegalActionError("bot_seat", f"seat {seat} is a bot's")
        return self.seat_status[seat]

    def _check_in_hand(self) -> HandState:
        if self.hand.collecting:
            raise IllegalActionError(
                "not_dealt", "the hand waits for its players' entropy: it is not dealt yet"
            )
        if self.hand.state is None:
            raise IllegalActionError("no_hand", "no hand has started at this table")
        if not self.in_hand:
            raise IllegalActionError("hand_over", "the hand is over")
        return self.hand.state

    # --- changing the hand ------------------------------------------------------------

    def check_start(self) -> None:
        """Refuse now what :meth:`start_hand` would refuse whatever its hand and seed: the
        hall asks before it records a hand, so that no hand is recorded that the table
        then refuses to deal.

        :raises IllegalActionError: ``hand_in_progress``, ``not_enough_coins`` (a seat
            below the room's minimum).
        """
        if self.in_hand:
            raise IllegalActionError("hand_in_progress", "the hand in progress is not over")
        for seat, info in enumerate(self.seats):
            if info.balance < self.room.min_coins:
                raise IllegalActionError(
                    "not_enough_coins", f"seat {seat} holds {info.balance} < {self.room.min_coins}"
                )

    def start_hand(self, hand_id: str, seed: int, now: float) -> None:
        """Start a new hand from the house ``seed`` (drawn by the caller from :mod:`secrets`).

        Sends a ``hand_start`` frame with the seed's commitment and the end of the entropy
        window (``entropy_deadline``), then deals: at once without a window (or with no
        connected player), else once every connected player has contributed
        (:meth:`contribute`) or at the window's end (:meth:`tick`).  The hand is dealt from
        :func:`~qipai.hall.seeds.deal_seed` of the house seed and the contributions.
        The seats keep their 托管 and connection state from the last hand.

        :raises InvalidActionError: ``bad_hand`` (``hand_id`` not a non-empty string),
            ``bad_seed``.
        :raises IllegalActionError: as :meth:`check_start`.
        """
        self.check_start()
        if not isinstance(hand_id, str) or not hand_id:
            raise InvalidActionError("bad_hand", f"a hand id is a non-empty string: {hand_id!r}")
        published = commitment(seed)
        balances = tuple(info.balance for info in self.seats)
        entropy: list[str | None] = [None] * len(self.seats)
        # dealt without entropy: the hand itself when it is dealt at once, else a trial
        # deal that raises now whatever dealing would raise (a stack the game refuses)
        first = deal_seed(seed, entropy) if self.entropy_window > 0 else seed
        setup = HandSetup(first, balances, self.hands_started, self.hand.state)
        state = self.engine.new_hand(self.terms.rules, setup)
        waits = self.entropy_window > 0 and any(
            self.seat_status[seat].connected for seat in self.human_seats
        )
        window_end = now + self.entropy_window if waits else None
        self.hand = TableHand(entropy, setup, seed, balances, window_end)
        self.hand_id, self.commitment, self.outcome = hand_id, published, None
        self.history.new_hand()
        self.hands_started += 1
        for s in self.seat_status:
            s.escaped = False
        self._public(hand_start_frame(self))
        if not waits:
            moves.dealt(self, state, now)
        self._flush()

    def _all_contributed(self) -> bool:
        """Whether every connected human seat has sent its entropy."""
        return all(
            self.hand.entropy[seat] is not None or not self.seat_status[seat].connected
            for seat in self.human_seats
        )

    def contribute(self, seat: int, hand_id: str, value: str, now: float) -> None:
        """``seat``'s entropy for hand ``hand_id``: ``value``, 16 to 64 bytes in hex digits
        (either case; recorded in lowercase), mixed into the seed the hand is dealt from.
        The hand is dealt at once when every connected human seat has contributed.

        :raises InvalidActionError: ``bad_seat``, ``bad_entropy``.
        :raises IllegalActionError: ``bot_seat``, ``wrong_hand`` (not the hand started
            last), ``already_contributed``, ``entropy_closed`` (that hand is dealt already:
            the window ended, or every other connected player's came first).
        """
        self._check_human(seat)
        recorded = entropy_value(value)
        if self.hand_id is None or hand_id != self.hand_id:
            raise IllegalActionError(
                "wrong_hand", f"hand {hand_id!r} is not the hand started at this table"
            )
        if self.hand.entropy[seat] is not None:
            raise IllegalActionError("already_contributed", f"seat {seat} has contributed")
        if not self.hand.collecting:
            raise IllegalActionError("entropy_closed", f"hand {hand_id} is dealt already")
        self.hand.entropy[seat] = recorded
        if self._all_contributed():
            moves.deal(self, now)
            self._flush()

    def act(self, seat: int, text: str, now: float) -> None:
        """``seat`` plays ``text`` (an action's text form), on its turn or out of turn
        where the game allows (明牌, 自动跟注).

        Due timers are not run first: call :meth:`tick` when :meth:`deadline` passes.

        :raises InvalidActionError: ``bad_seat``, ``bad_action``.
        :raises IllegalActionError: ``no_hand``, ``hand_over``, ``bot_seat``, ``escaped``,
            ``in_trustee`` (cancel 托管 first), ``not_a_move`` (``trustee``/``escape``:
            use :meth:`set_trustee` / :meth:`escape`), or the engine's code
            (``not_your_turn``, ``illegal_move``, ``bid_too_low``, ``cannot_afford``...).
        """
        self._check_seat(seat)
        action = parse_action(self.room.game, text)
        self._check_in_hand()
        status = self._check_human(seat)
        if status.escaped:
            raise IllegalActionError("escaped", f"seat {seat} has left the hand")
        if status.trustee:
            raise IllegalActionError("in_trustee", f"seat {seat} is in 托管: cancel it first")
        if self.engine.is_command(action):
            raise IllegalActionError("not_a_move", f"{text!r} is a table command, not a move")
        moves.apply(self, action, seat, now)
        self._flush()

    def set_trustee(self, seat: int, on: bool, now: float) -> None:
        """托管 (``on``) or 解除托管 for ``seat``; setting it to what it is does nothing.

        :raises InvalidActionError: ``bad_seat``.
        :raises IllegalActionError: ``bot_seat``, ``escaped`` (an escaper stays in 托管).
        """
        status = self._check_human(seat)
        if status.trustee == bool(on):
            return
        if status.escaped:
            raise IllegalActionError("escaped", f"seat {seat} has left the hand")
        if on:
            moves.enter_trustee(self, seat, now)
        else:
            moves.leave_trustee(self, seat, now)
        self._flush()

    def escape_cost(self, seat: int) -> tuple[EscapeCost, EscapeCost] | None:
        """What leaving the hand now (:meth:`escape`) would cost ``seat``, from its view
        alone: its points (or chips) and all the coins taken from it (its stake and the
        room's fee, at most its balance, :func:`~.coins.loss_of`; 0 in a points-only
        room), each at least and at most (a range where the price depends on
        what the seat may not see, such as cards in other hands): the preset's penalty,
        or the chips a betting game's seat has in the pot; ``None`` where 托管 then plays
        the seat to the end (the hand's result).

        :raises InvalidActionError: ``bad_seat``.
        :raises IllegalActionError: ``no_hand``, ``hand_over``.
        """
        self._check_seat(seat)
        cost = self.engine.escape_cost(self._check_in_hand(), seat)
        if cost is None:
            return None
        balance = self.seats[seat].balance
        least, most = (
            loss_of(self.room, points, balance, self.terms.payout)
            for points in (cost.least, cost.most)
        )
        return cost, EscapeCost(least, most)

    def escape(self, seat: int, now: float) -> None:
        """逃跑: ``seat`` leaves the hand on purpose, with the preset's penalty.

        A preset with an escape of its own: the hand ends, priced by the engine
        (:meth:`~qipai.registry.GameType.escape`).  Any other: the seat is played in
        托管 to the end (which folds in the betting games), at once if it is its turn.

        :raises InvalidActionError: ``bad_seat``.
        :raises IllegalActionError: ``no_hand``, ``hand_over``, ``bot_seat``, ``escaped``.
        """
        self._check_seat(seat)
        if not self.hand.collecting:
            self._check_in_hand()
        status = self._check_human(seat)
        if status.escaped:
            raise IllegalActionError("escaped", f"seat {seat} has left the hand")
        if self.hand.collecting:  # he leaves before the deal: it comes now
            moves.deal(self, now)
        ended = self.engine.escape(self.hand.dealt_state, seat)
        status.escaped, self.hand.escaper = True, seat
        if not ended:
            if not status.trustee:
                moves.enter_trustee(self, seat, now)
            moves.trustee_move(self, seat, now)
        self._flush()

    def disconnect(self, seat: int, now: float) -> None:
        """``seat``'s player is gone (no connection left): 托管 when he is not back after
        his grace (:func:`~qipai.hall.table.clock.absent_grace`: ``room.grace_seconds`` in
        a game that folds the absent, :attr:`~qipai.registry.GameType.folds_absent`, else
        a few seconds, so that a reload is not 断线).

        :raises InvalidActionError: ``bad_seat``.
        :raises IllegalActionError: ``bot_seat``.
        """
        status = self._check_human(seat)
        if not status.connected:
            return
        status.connected, status.away_since = False, now
        if self.hand.collecting and self._all_contributed():
            moves.deal(self, now)  # the others are in: his entropy is not awaited
        self._flush()

    def reconnect(self, seat: int, now: float) -> None:
        """``seat``'s player is back.  Within his grace nothing happened; a 托管 begun
        does not end by itself: he cancels it with :meth:`set_trustee`
        ("玩家可以随时再次登陆游戏并取消托管").  Send him
        :meth:`frames_since` or :meth:`snapshot`.

        :raises InvalidActionError: ``bad_seat``.
        :raises IllegalActionError: ``bot_seat``.
        """
        status = self._check_human(seat)
        if status.connected:
            return
        status.connected, status.away_since = True, None
        self._flush()

    # --- the clock --------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Apply everything due at ``now``, in time order: the deal at the end of the
        entropy window (with the contributions in), decision timeouts (the seat
        enters 托管 and its 托管 action is played), bot and 托管 moves, grace ends, deal
        steps.  Each timer restarts from the time it was due, so a late tick catches up.
        With nothing due it does nothing (and sends no frame)."""
        fired = False
        if self.hand.window_end is not None and self.hand.window_end <= now:
            moves.deal(self, self.hand.window_end)
            fired = True
        while (due := clock.next_due(self)) is not None and due[0] <= now:
            moves.fire(self, *due)
            fired = True
        if fired:
            self._flush()

    # --- the end of a hand ------------------------------------------------------------

    def _finish(self) -> None:
        """The hand is over: its outcome kept, the seats' balances moved, the
        ``hand_over`` frame sent."""
        self.outcome = outcome = hand_outcome(self)
        self.seats = tuple(
            dataclasses.replace(info, balance=info.balance + net)
            for info, net in zip(self.seats, outcome.settlement.net, strict=True)
        )
        self._public(hand_over_frame(self, outcome))

    @property
    def is_dealing(self) -> bool:
        """Whether the hand in progress has not started yet: it waits for entropy, or
        (:meth:`.GameType.is_dealing`) its first deal is still being dealt, nobody has had
        a decision."""
        if self.hand.collecting:
            return True
        return self.hand.playing and self.engine.is_dealing(self.hand.dealt_state)
