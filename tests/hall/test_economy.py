"""The economy's pure rules (:mod:`qipai.hall.economy`): the ``[economy]`` settings, the
check-in's streak, the day's draw of tasks, their progress, who may take relief; and the
feats each game reports of a finished hand (:meth:`~qipai.registry.GameType.feats`)."""

from __future__ import annotations

import dataclasses

import pytest

from qipai.errors import GameError, InvalidActionError
from qipai.games.doudizhu.state import State as DoudizhuState
from qipai.hall.economy.rules import (
    ReliefAsk,
    SeatFacts,
    broke_line,
    check_relief,
    checkin_coins,
    daily_tasks,
    find_task,
    next_streak,
    progress,
)
from qipai.hall.economy.settings import (
    DEFAULT_TASKS,
    EconomySettings,
    TaskSpec,
    default_economy,
    load_economy,
)
from qipai.hall.rooms import default_rooms, load_rooms
from qipai.registry import HandSetup, Payout


def test_no_section_is_the_defaults_and_a_full_section_is_read() -> None:
    assert load_economy("") == EconomySettings() == default_economy()  # the shipped file
    text = """
[economy]
timezone = "Europe/Paris"
checkin_coins = 100
checkin_step = 50
checkin_days = 3
relief_coins = 500
relief_per_day = 2
relief_guests = true
relief_min_account_hours = 1.5
tasks_per_day = 1
[[economy.task]]
id = "win_2"
name = "赢2局"
english = "Win 2 hands"
count = "won"
target = 2
coins = 80
role = "landlord"
"""
    settings = load_economy(text)
    assert settings == EconomySettings(
        "Europe/Paris", 100, 50, 3, 500, 2, True, 1.5, 1,
        (TaskSpec("win_2", "赢2局", "Win 2 hands", 2, 80, "won", "landlord"),),
    )  # fmt: skip


@pytest.mark.parametrize(
    "section",
    [
        "checkin_coins = 0", "checkin_days = true", "relief_per_day = -1", "bonus = 1",
        "relief_guests = 1", "relief_min_account_hours = -2", 'timezone = ""',
        '[[economy.task]]\nid = "Bad Id"\nname = "x"\nenglish = "x"\ntarget = 1\ncoins = 1',
        '[[economy.task]]\nid = "a"\nname = "x"\nenglish = "x"\ntarget = 0\ncoins = 1',
        '[[economy.task]]\nid = "a"\nname = "x"\nenglish = "x"\ntarget = 1\ncoins = 1\n'
        'count = "lost"',
        '[[economy.task]]\nid = "a"\nname = "x"\nenglish = "x"\ntarget = 1\ncoins = 1\n'
        "[[economy.task]]\nid = \"a\"\nname = \"y\"\nenglish = \"y\"\ntarget = 1\ncoins = 1",
    ],
)
def test_a_bad_value_is_refused_with_the_section_named(section: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        load_economy(f"[economy]\n{section}\n")
    assert caught.value.code == "bad_room" and "[economy]" in caught.value.message


def test_the_rooms_file_takes_an_economy_section() -> None:
    text = '[economy]\nrelief_coins = 1\n[[room]]\nid = "x"\nname = "x"\ngame = "doudizhu"\n'
    assert load_rooms(text + 'rules = "yifa"\n')[0].id == "x"


def test_the_check_in_grows_with_the_streak_up_to_its_cap() -> None:
    settings = EconomySettings(checkin_coins=300, checkin_step=100, checkin_days=7)
    assert [checkin_coins(settings, day) for day in range(1, 10)] == [
        300, 400, 500, 600, 700, 800, 900, 900, 900
    ]  # fmt: skip
    assert next_streak(None) == 1 and next_streak(4) == 5


def test_the_days_tasks_are_drawn_per_person_and_day_the_same_every_time() -> None:
    settings = EconomySettings(tasks_per_day=3)
    draws = {(user, day): daily_tasks(settings, user, day)
             for user in range(1, 30) for day in ("2026-05-10", "2026-05-11")}  # fmt: skip
    assert all(len(tasks) == 3 for tasks in draws.values())
    assert draws[1, "2026-05-10"] == daily_tasks(settings, 1, "2026-05-10")
    assert len(set(draws.values())) > 5  # people and days draw differently
    order = [task.id for task in DEFAULT_TASKS]
    for tasks in draws.values():  # in the settings' order
        assert [t.id for t in tasks] == sorted((t.id for t in tasks), key=order.index)
    everything = dataclasses.replace(settings, tasks_per_day=99)
    assert daily_tasks(everything, 1, "2026-05-10") == DEFAULT_TASKS
    with pytest.raises(GameError) as caught:
        find_task(everything, 1, "2026-05-10", "no_such_task")
    assert caught.value.code == "unknown_task"


def test_progress_counts_the_seats_that_match_up_to_the_target() -> None:
    landlord_bomb = TaskSpec("t", "t", "t", 2, 1, count="won", role="landlord", feat="bomb")
    seats = [
        SeatFacts(won=True, role="landlord", feats=frozenset({"bomb"})),
        SeatFacts(won=False, role="landlord", feats=frozenset({"bomb"})),
        SeatFacts(won=True, role="farmer", feats=frozenset({"bomb"})),
        SeatFacts(won=True, role="landlord"),
    ]
    assert progress(landlord_bomb, seats) == 1
    assert progress(TaskSpec("p", "p", "p", 3, 1), seats) == 3  # 4 played, target 3
    assert progress(TaskSpec("w", "w", "w", 9, 1, count="won"), seats) == 3


def test_the_broke_line_is_the_least_minimum_of_the_rooms_that_move_coins() -> None:
    rooms = default_rooms()
    coins = [room.min_coins for room in rooms if room.payout is not Payout.POINTS_ONLY]
    assert broke_line(rooms) == min(coins) == 96
    assert broke_line(()) == 0


def test_relief_refusals_come_in_order() -> None:
    settings = EconomySettings(relief_per_day=2, relief_min_account_hours=24)
    ok = ReliefAsk(balance=10, line=96, used=0, guest=False, account_hours=48, in_hand=False)
    check_relief(settings, ok)
    cases = {
        "relief_not_allowed": [dataclasses.replace(ok, guest=True),
                               dataclasses.replace(ok, account_hours=23.9)],
        "in_hand": [dataclasses.replace(ok, in_hand=True, balance=10**6)],
        "not_broke": [dataclasses.replace(ok, balance=96)],
        "relief_used_up": [dataclasses.replace(ok, used=2)],
    }  # fmt: skip
    for code, asks in cases.items():
        for ask in asks:
            with pytest.raises(GameError) as caught:
                check_relief(settings, ask)
            assert caught.value.code == code
    guests = dataclasses.replace(settings, relief_guests=True)
    check_relief(guests, dataclasses.replace(ok, guest=True))


FEATS_ROOMS = ("doudizhu-yifa", "doudizhu-caishen", "zhajinhua-yifa", "showhand-yifa")


@pytest.mark.parametrize("seed", range(30))
def test_each_game_reports_its_seats_feats(seed: int) -> None:
    rooms = [room for room in default_rooms() if room.id in FEATS_ROOMS]
    for room in rooms:
        game = room.game_type
        setup: HandSetup[object] = HandSetup(seed, (10**6,) * room.seats)
        state = game.play_out(game.new_hand(room.game_rules(), setup))
        feats = game.feats(state)
        assert len(feats) == room.seats
        if isinstance(state, DoudizhuState):
            kinds = {(seat, move.kind.name) for seat, move in state.plays}
            for seat, names in enumerate(feats):
                bombs = {(seat, "BOMB"), (seat, "WILD_BOMB")} & kinds
                assert ("bomb" in names) == bool(bombs)
                assert ("rocket" in names) == ((seat, "ROCKET") in kinds)
        else:
            categories = game.reveal(state)["categories"]
            assert isinstance(categories, list)
            assert [set(names) for names in feats] == [{c} for c in categories]
