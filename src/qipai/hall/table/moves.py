"""The changes to a table's hand in progress (:class:`~qipai.hall.table.table.Table`): its
deal, an action applied, a seat entering or leaving 托管, and what a due timer plays (a
bot's move, a 托管 move, an answer asked for, a deal step).

Each restarts the decision clock where the turn moved, and moves the table's position (a
bot's decision asked for is for one position: :mod:`qipai.hall.table.asks`).  The callers
check first and send the frames after (:meth:`~qipai.hall.table.table.Table.tick`).
"""

from __future__ import annotations

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.table.asks import answer_for, offloaded
from qipai.hall.table.clock import GRACE_END
from qipai.hall.table.hand import HandState
from qipai.hall.table.state import TableState
from qipai.registry import BASIC_TRUSTEE


def deal(table: TableState, now: float) -> None:
    """Deal the hand started, from the house seed mixed with the contributions in."""
    dealt(table, table.engine.new_hand(table.terms.rules, table.hand.deal_setup()), now)


def dealt(table: TableState, state: HandState, now: float) -> None:
    """``state`` is the hand now: 托管 seats entered, the decision clock started."""
    table.hand.dealt(state)
    table.asked.moved()
    for seat, s in enumerate(table.seat_status):
        if s.trustee:
            table.engine.enter_trustee(state, seat)
    table.clock.restart(now)


def apply(table: TableState, action: object, seat: int | None, now: float) -> None:
    """Apply one action (the engine validates it first); restart the decision clock
    when the player to act acted or the turn moved."""
    state = table.hand.dealt_state
    before = state.current_player
    was_deciding = bool(table.engine.deciding(state))
    state.apply(action, seat)
    table.asked.moved()
    shared_clock = was_deciding and bool(table.engine.deciding(state))  # one time limit
    moved = seat is None or seat == before or state.current_player != before
    if moved and not shared_clock:
        table.clock.restart(now)
    if table.engine.is_stalled(state):
        table.hand.voided = True


def enter_trustee(table: TableState, seat: int, now: float) -> None:
    """``seat`` enters 托管 (the engine told, where a hand is played); the decision clock
    restarts if the turn moved."""
    table.seat_status[seat].trustee = True
    table.asked.moved()
    if table.hand.playing:
        state = table.hand.dealt_state
        before = state.current_player
        table.engine.enter_trustee(state, seat)
        if state.current_player != before:
            table.clock.restart(now)


def leave_trustee(table: TableState, seat: int, now: float) -> None:
    """``seat`` leaves 托管 (the engine told, where a hand is played), with a fresh
    decision time if it is his turn."""
    table.seat_status[seat].trustee = False
    table.asked.moved()
    if table.hand.playing:
        state = table.hand.dealt_state
        table.engine.leave_trustee(state, seat)
        if state.current_player == seat and not table.engine.deciding(state):
            table.clock.restart(now)  # a fresh decision time


def fire(table: TableState, when: float, kind: int, seat: int | None) -> None:
    """The timer due at ``when`` (:func:`~qipai.hall.table.clock.next_due`) fires: a grace
    end puts the seat in 托管; a turn plays the deal step, the answer asked for, the bot's
    move, the default of a shared decision, or the seat's 托管 move (in 托管 from now if
    his decision time ran out)."""
    if kind == GRACE_END and seat is not None:
        enter_trustee(table, seat, when)
        return
    state = table.hand.dealt_state
    if seat is None:
        apply(table, table.engine.deal_step(state), None, when)
        return
    if offloaded(table, seat) is not None:
        play_answer(table, seat, when)
        return
    if table.seats[seat].is_bot:
        apply(table, table.engine.bot_action(state, seat), seat, when)
        return
    if seat in table.engine.deciding(state):
        # a player who let the shared time run out has not doubled: the basic 托管
        # declines (and he stays out of 托管: the choice had a default, it was not his
        # turn to play); a seat already in 托管 is played in the room's style
        style = table.room.trustee if table.seat_status[seat].trustee else BASIC_TRUSTEE
        apply(table, table.engine.trustee_action(state, seat, style), seat, when)
        return
    if not table.seat_status[seat].trustee:  # the decision time ran out
        enter_trustee(table, seat, when)
    trustee_move(table, seat, when)


def trustee_move(table: TableState, seat: int, now: float) -> None:
    """``seat``'s 托管 move now, if it is his turn.  Where that decision is asked for
    (``bot_wait`` and a 托管 style other than the basic one) it is not computed here:
    its clock restarts now, and it is played ``bot_delay`` later as any 托管 move, once
    answered (:meth:`~qipai.hall.table.table.Table.decided`)."""
    state = table.hand.dealt_state
    if not (table.in_hand and state.current_player == seat):
        return
    if offloaded(table, seat) is None:
        apply(table, table.engine.trustee_action(state, seat, table.room.trustee), seat, now)
    else:
        table.clock.restart(now)


def play_answer(table: TableState, seat: int, when: float) -> None:
    """Play the answer given for ``seat``'s move (:meth:`~qipai.hall.table.table.Table.decided`),
    or the basic 托管 action where none came in time or it is not a legal move."""
    answer = answer_for(table, seat)
    table.asked.forget()
    if answer is not None:
        try:
            apply(table, answer[0], seat, when)
        except (IllegalActionError, InvalidActionError):
            pass  # refused by the engine, nothing changed: the basic 托管 plays
        else:
            return
    table.unanswered += 1
    state = table.hand.dealt_state
    apply(table, table.engine.trustee_action(state, seat, BASIC_TRUSTEE), seat, when)
