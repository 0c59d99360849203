"""任务 in the rooms file, the hand record and the table: a room turns tasks on, its hands
record the list (a rule change) and the task drawn, verify and replay; a tampered task
does not verify; records without tasks are as they were."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from table_kit import run_out

from json_kit import wire
from qipai.errors import InvalidActionError
from qipai.games.doudizhu.tasks import Task, draw_task
from qipai.hall.records import HandRecord, record_hand, verify
from qipai.hall.rooms import Room, load_rooms
from qipai.hall.seeds import deal_seed
from qipai.hall.table.table import SeatInfo, Table
from qipai.hall.watch.replays import replay_json
from qipai.registry import HandSetup, game_type

TASKS = ("bomb_finish", "chain", "pair_chain", "plane", "bomb", "rocket_win", "spring")
GAME = game_type("doudizhu")


def room_with(tasks: str, rules: str = "huanle", game: str = "doudizhu") -> Room:
    [room] = load_rooms(f'[[room]]\nid="r"\nname="r"\ngame="{game}"\nrules="{rules}"\n{tasks}')
    return room


def task_hand(seed: int, rules: str = "huanle") -> Any:
    """A hand of a room with every task, played out by the registry's quick bot."""
    room = room_with(f"tasks = {json.dumps(TASKS)}", rules)
    return GAME.play_out(GAME.new_hand(room.game_rules(), HandSetup(seed, (10**6,) * 3)))


def task_record(seed: int, rules: str = "huanle") -> HandRecord:
    return record_hand("doudizhu", task_hand(seed, rules))


# --- the rooms file ------------------------------------------------------------------


def test_a_room_lists_its_tasks_and_its_rules_draw_from_them() -> None:
    room = room_with('tasks = ["spring", "bomb_finish"]')
    assert room.tasks == ("spring", "bomb_finish")
    assert room.game_rules().tasks == (Task.SPRING, Task.BOMB_FINISH)
    plain = room_with("")
    assert plain.tasks == () and plain.game_rules() is GAME.get_rules("huanle")


@pytest.mark.parametrize(
    ("line", "game", "field"),
    [
        ('tasks = ["nope"]', "doudizhu", "tasks"),
        ('tasks = ["spring", "spring"]', "doudizhu", "tasks"),
        ("tasks = [1]", "doudizhu", "tasks"),
        ('tasks = "spring"', "doudizhu", "tasks"),
        ('tasks = ["spring"]', "zhajinhua", "tasks"),
    ],
)
def test_a_room_with_bad_tasks_is_refused(line: str, game: str, field: str) -> None:
    rules = "huanle" if game == "doudizhu" else "yifa"
    with pytest.raises(InvalidActionError) as error:
        room_with(line, rules, game)
    assert error.value.code == "bad_room" and f"field {field!r}" in error.value.message


# --- the record ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["yifa", "caishen", "huanle", "zhengtu", "jj"])
def test_a_hand_with_a_task_is_recorded_and_verifies(rules: str) -> None:
    for seed in range(4):
        state = task_hand(seed, rules)
        record = record_hand("doudizhu", state)
        assert record.task == state.task.value and record.task in TASKS
        assert dict(record.changes)["tasks"] == TASKS
        data = json.loads(record.to_json())
        assert data["task"] == record.task and data["changes"]["tasks"] == list(TASKS)
        again = HandRecord.from_json(record.to_json())
        assert again == record and verify(again).ok


def test_the_entropy_mixed_seed_draws_the_task_too() -> None:
    entropy = ("ab" * 16, None, "cd" * 16)
    room = room_with(f"tasks = {json.dumps(TASKS)}")
    seed = deal_seed(99, entropy)
    state = GAME.play_out(GAME.new_hand(room.game_rules(), HandSetup(seed, (10**6,) * 3)))
    record = record_hand("doudizhu", state, seed=99, entropy=entropy)
    assert record.format == "qipai-hand/3" and verify(record).ok


def _other_task(record: HandRecord) -> str:
    return next(task for task in TASKS if task != record.task)


def _reversed_pool(record: HandRecord) -> HandRecord:
    return dataclasses.replace(record, changes=(("tasks", tuple(reversed(TASKS))),))


def _redrawn(record: HandRecord) -> str | None:
    """The task the reversed list draws from the record's seed."""
    task = draw_task(tuple(Task(t) for t in reversed(TASKS)), record.deal_seed)
    return None if task is None else task.value


TAMPERED = {
    "another task": lambda r: dataclasses.replace(r, task=_other_task(r)),
    "no task named": lambda r: dataclasses.replace(r, task=None),
    "no task list": lambda r: dataclasses.replace(r, changes=()),
    "another list": _reversed_pool,
    "an unknown task": lambda r: dataclasses.replace(r, changes=(("tasks", ("nope",)),)),
}


@pytest.mark.parametrize("name", list(TAMPERED))
def test_a_tampered_task_does_not_verify(name: str) -> None:
    caught = 0
    for seed in range(8):
        record = task_record(seed)
        tampered = TAMPERED[name](record)
        if name == "another list" and _redrawn(record) == record.task:
            continue  # (the reversed list may draw the same task)
        outcome = verify(HandRecord.from_json(tampered.to_json()))
        assert not outcome.ok
        assert outcome.code in {"task_mismatch", "bad_options"}
        caught += 1
    assert caught >= 4


def test_a_record_without_tasks_is_as_it_was() -> None:
    state = GAME.play_out(GAME.new_hand(GAME.get_rules("huanle"), HandSetup(5, (10**6,) * 3)))
    record = record_hand("doudizhu", state)
    assert record.task is None and "task" not in json.loads(record.to_json())
    assert verify(record).ok
    named = dataclasses.replace(record, task="spring")
    assert verify(HandRecord.from_json(named.to_json())).code == "task_mismatch"


def test_a_v1_record_has_no_task() -> None:
    record = task_record(1)
    data = json.loads(record.to_json())
    data.update(format="qipai-hand/1")
    for key in ("chance", "engine", "changes"):
        data.pop(key)
    with pytest.raises(InvalidActionError, match="bad_record"):
        HandRecord.from_json(json.dumps(data))
    data["task"] = 3
    data["format"] = "qipai-hand/2"
    with pytest.raises(InvalidActionError, match="bad_record"):
        HandRecord.from_json(json.dumps(data))


def test_the_replay_shows_the_task() -> None:
    record = task_record(2)
    replay = replay_json(record, 0)
    assert {step["view"]["task"] for step in replay["steps"]} == {record.task}


# --- a table of the room -----------------------------------------------------------------


def test_a_table_of_a_room_with_tasks_records_and_explains_its_task() -> None:
    room = dataclasses.replace(room_with(f"tasks = {json.dumps(TASKS)}"), bot_wait=0.0)
    seats = [SeatInfo("p0", "seat0", 10**6)] + [SeatInfo(None, f"b{s}", 10**6) for s in (1, 2)]
    explained = []
    for hand in range(6):
        table = Table(room, hand, seats, now=0.0, bot_delay=0.0, rng=random.Random(hand))
        table.start_hand(f"h{hand}", 1000 + hand, now=0.0)
        table.set_trustee(0, True, now=0.0)
        run_out(table)
        outcome = table.outcome
        assert outcome is not None and outcome.record is not None
        assert outcome.record.task == GAME.task_of(table.game_state)
        assert verify(outcome.record).ok
        over = [f for f in map(wire, (o.frame for o in table.drain())) if f["type"] == "hand_over"][
            -1
        ]
        if over["explain"]:
            assert over["explain"]["task"]["id"] == outcome.record.task
            explained.append(over["explain"]["task"]["completed"])
    assert explained
