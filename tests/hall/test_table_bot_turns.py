"""Bots decided elsewhere (``Table(bot_wait=...)``): the table asks (``bot_turn``), takes
the answer (``decided``) and plays it when due, or plays the basic 托管 action when no
answer came in time (``docs/bots.md``, "Bots off the event loop")."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from table_kit import run_out

from qipai.games.doudizhu.actions import Trustee
from qipai.games.doudizhu.hand import Step
from qipai.hall.frames import OutFrame, Turn, to_json
from qipai.hall.rooms import Room, applicable, default_rooms
from qipai.hall.table.table import BOT_POLICY, BotTurn, SeatInfo, Table
from qipai.registry import BASIC_TRUSTEE, game_type

ROOMS = {room.id: room for room in default_rooms()}
RICH = 10**6
WAIT = 0.5


def _table(room: Room, bot_wait: float | None, *, human: bool = True) -> Table:
    """Seat 0 a player (in 托管 from the start: the table plays him too), the rest bots."""
    seats = [
        SeatInfo("p0" if human and s == 0 else None, f"seat{s}", RICH) for s in range(room.seats)
    ]
    table = Table(room, 1, seats, now=0.0, bot_delay=1.0, rng=random.Random(0), bot_wait=bot_wait)
    if human:
        table.set_trustee(0, True, 0.0)
    return table


def _answer(turn: BotTurn) -> object:
    game = game_type(turn.game)
    policy = game.bot if turn.policy == BOT_POLICY else game.trustee_policy(turn.policy)
    return policy.choose(turn.view)


def _played(table: Table, seed: int, answer: bool) -> tuple[str, list[object]]:
    """Play one hand; answer every question at once (at the move's time) if ``answer``.
    Every frame the player got but the turn frames (JSON), and the questions asked.

    The turn frames may differ: where several bots choose at the same time (加倍), inline
    they all choose in one tick, while each answer comes on its own (a turn frame each)."""
    table.start_hand(f"h{seed}", seed=seed, now=0.0)
    frames: list[OutFrame] = [item.frame for item in table.drain()]
    asked: list[object] = []
    for _ in range(10_000):
        if not table.in_hand:
            break
        turn = table.bot_turn()
        if turn is not None and answer:
            asked.append((turn.seat, turn.policy))
            table.decided(turn, _answer(turn), turn.due)
        deadline = table.deadline()
        assert deadline is not None
        table.tick(deadline)
        frames += [item.frame for item in table.drain()]
    assert not table.in_hand
    kept = [to_json(frame) for frame in frames if not isinstance(frame, Turn)]
    return json.dumps(kept, sort_keys=True), asked


def _rooms() -> list[Room]:
    """Every shipped room, and the Dou Dizhu ones with the strong 托管 (asked for too)."""
    strong = [
        dataclasses.replace(room, id=f"{room.id}-strong", trustee="strong")
        for room in ROOMS.values()
        if "strong" in room.game_type.trustee_styles
        and "trustee" in applicable(room.game, room.rules)
    ]
    return [*ROOMS.values(), *strong]


@pytest.mark.parametrize("room", _rooms(), ids=lambda room: room.id)
def test_answers_given_in_time_play_the_hand_byte_for_byte_as_inline(room: Room) -> None:
    for seed in range(3):
        inline, _ = _played(_table(room, None), seed, answer=False)
        answered, asked = _played(_table(room, WAIT), seed, answer=True)
        assert answered == inline
        assert asked  # the bots' moves were asked for, not computed in the tick
        strong = room.trustee != BASIC_TRUSTEE
        assert any(seat == 0 for seat, _ in asked) == strong  # basic 托管: played at once


def test_an_inline_table_asks_nothing() -> None:
    table = _table(ROOMS["doudizhu-yifa"], None)
    table.start_hand("h", seed=1, now=0.0)
    assert table.bot_turn() is None


def test_no_answer_plays_the_basic_trustee_action_after_the_wait() -> None:
    room = ROOMS["doudizhu-yifa"]
    table = _table(room, WAIT, human=False)
    table.start_hand("h", seed=5, now=0.0)
    turn = table.bot_turn()
    assert turn is not None and turn.due == 1.0 and turn.policy == BOT_POLICY
    assert table.deadline() == 1.0 + WAIT  # the move's time, and the wait
    state = table.game_state
    basic = room.game_type.trustee_action(state, turn.seat, BASIC_TRUSTEE)
    before = len(state.history)
    table.tick(1.0 + WAIT - 0.01)
    assert len(state.history) == before  # not yet
    table.tick(1.0 + WAIT)
    assert state.history[before].action == basic
    run_out(table)  # nothing answered, ever: the hand still ends
    assert table.is_over


def test_a_late_answer_plays_when_it_comes_and_restarts_the_clock_then() -> None:
    table = _table(ROOMS["doudizhu-yifa"], WAIT, human=False)
    table.start_hand("h", seed=5, now=0.0)
    turn = table.bot_turn()
    assert turn is not None
    table.decided(turn, _answer(turn), 1.2)  # 0.2 s after the move's time
    assert table.deadline() == 1.2
    table.tick(1.2)
    following = table.bot_turn()
    assert following is not None and following.position > turn.position
    assert following.due == 1.2 + table.bot_delay


def test_an_answer_for_a_position_left_is_dropped() -> None:
    room = ROOMS["doudizhu-yifa"]
    table = _table(room, WAIT)  # seat 0 in 托管
    table.start_hand("h", seed=5, now=0.0)
    turn = table.bot_turn()
    assert turn is not None
    table.set_trustee(0, False, 0.1)  # the position moves: the question is stale
    table.decided(turn, _answer(turn), 0.2)
    fresh = table.bot_turn()
    assert fresh is None or fresh.position != turn.position
    if fresh is not None:
        assert table.deadline() == fresh.due + WAIT  # unanswered: the wait counts


def test_an_answer_that_is_no_legal_move_gives_way_to_the_basic_trustee_action() -> None:
    room = ROOMS["doudizhu-yifa"]
    table = _table(room, WAIT, human=False)
    table.start_hand("h", seed=5, now=0.0)
    turn = table.bot_turn()
    assert turn is not None
    state = table.game_state
    basic = room.game_type.trustee_action(state, turn.seat, BASIC_TRUSTEE)
    wrong = room.game_type.action_type.parse("play 3")
    table.decided(turn, wrong, 1.0)
    before = len(state.history)
    table.tick(1.0)
    assert state.history[before].action == basic


def _to_players_turn(table: Table) -> None:
    """Answer the bots at once until seat 0 (a player) is to act."""
    while table.game_state.current_player != 0:
        turn = table.bot_turn()
        assert turn is not None and turn.seat != 0
        table.decided(turn, _answer(turn), turn.due)
        deadline = table.deadline()
        assert deadline is not None
        table.tick(deadline)


def test_a_timed_out_players_strong_trustee_move_is_asked_for_not_computed() -> None:
    room = ROOMS["doudizhu-yifa"]
    assert room.trustee == "strong"
    table = _table(room, WAIT)
    table.set_trustee(0, False, 0.0)
    table.start_hand("h", seed=5, now=0.0)
    _to_players_turn(table)
    state = table.game_state
    before = len(state.history)
    timeout = table.deadline()
    assert timeout is not None
    table.tick(timeout)  # his time ran out: 托管, and the strong 托管's move is asked for
    assert state.current_player == 0 and state.history[before:] == [Step(0, Trustee(True))]
    turn = table.bot_turn()
    assert turn is not None and (turn.seat, turn.policy) == (0, "strong")
    assert turn.due == timeout + table.bot_delay  # played as any 托管 move, once answered
    inline = room.game_type.trustee_action(state, 0, "strong")
    table.decided(turn, _answer(turn), timeout + 0.01)
    table.tick(turn.due)
    assert state.history[before + 1].action == inline


def test_an_escaper_in_a_strong_trustee_room_is_asked_for_too() -> None:
    room = ROOMS["doudizhu-yifa"]
    table = _table(room, WAIT)
    table.set_trustee(0, False, 0.0)
    table.start_hand("h", seed=5, now=0.0)
    _to_players_turn(table)
    assert table.escape_cost(0) is None  # yifa plays on after an escape (托管), never ends it
    state = table.game_state
    before = len(state.history)
    table.escape(0, 2.0)
    assert state.current_player == 0  # his move not computed in the call: asked for
    assert all(step.seat != 0 or step.action == Trustee(True) for step in state.history[before:])
    turn = table.bot_turn()
    assert turn is not None and (turn.seat, turn.policy, turn.due) == (0, "strong", 3.0)
