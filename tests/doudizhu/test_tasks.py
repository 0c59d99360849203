"""任务 (tasks): each kind detected on crafted hands, the draw from the seed, the doubling in
the scoring and its breakdown, and the view and events that show the task."""

from __future__ import annotations

import hashlib
import struct
from collections import Counter
from pathlib import Path

import pytest
from state_kit import act, random_hand, rig

import qipai
from qipai.cards import Card
from qipai.errors import InvalidActionError
from qipai.games.doudizhu.combos import parse_move
from qipai.games.doudizhu.events import HandEnded, HandStarted, TaskCompleted, TaskDrawn
from qipai.games.doudizhu.rules import RULES, Rules
from qipai.games.doudizhu.scoring import REASONS, HandFacts, multiplier_breakdown, score_hand
from qipai.games.doudizhu.state import State
from qipai.games.doudizhu.tasks import (
    TASK_FACTOR,
    Task,
    completes,
    draw_task,
    parse_tasks,
)
from qipai.games.events import SPECTATOR
from qipai.registry import game_type

RANKS = "3456789TJQKA2"


def deck_for(landlord: str, *farmers: str) -> list[Card]:
    """A deck for zhengtu, where seat 0 bids first: seat 0 holds ``landlord`` (17 ranks and
    the 3 of the bottom, last), seats 1 and 2 the ``farmers`` given, then the rest (spaces
    only group the ranks)."""
    landlord, farmers = landlord.replace(" ", ""), tuple(f.replace(" ", "") for f in farmers)
    left = Counter(dict.fromkeys(RANKS, 4)) + Counter("BR")
    left -= Counter(landlord + "".join(farmers))
    rest = "".join(rank * left[rank] for rank in RANKS + "BR")
    hands = [landlord[:17]]
    for given in (*farmers, "", ""):
        need = 17 - len(given)
        hands.append(given + rest[:need])
        rest = rest[need:]
    return rig(hands[:3], landlord[17:])


def played(task: Task | None, landlord: str, farmers: tuple[str, ...], script: str) -> State:
    """The zhengtu hand of the deck (:func:`deck_for`) where seat 0 bids 3 and ``script``'s
    plays follow (``-`` a pass), its rules drawing ``task`` (or none)."""
    rules = RULES["zhengtu"].derive("zhengtu", tasks=() if task is None else (task,))
    state = State.new(rules, seed=1, deck=deck_for(landlord, *farmers))
    act(state, "bid 3", *(f"play {'pass' if p == '-' else p}" for p in script.split()))
    assert state.is_terminal
    return state


SCENARIOS: dict[str, tuple[str, tuple[str, ...], str]] = {
    # the landlord's spring: a straight, a pair chain, a trio chain, a trio
    "spring": ("34567 8899TT JJJQQQ KKK", (), "34567 - - 8899TT - - JJJQQQ - - KKK"),
    # the landlord's spring ending with a bomb, after the rocket
    "bomb last": ("33 3456789TJQKA BR 2222", (), "33 - - 3456789TJQKA - - BR - - 2222"),
    # a bomb and the rocket first, the spring ends with a pair
    "pair last": ("2222 BR 3456789TJQKA 33", (), "2222 - - BR - - 3456789TJQKA - - 33"),
    # 反春: farmer 1 beats the landlord's straight with his own, then an airplane, a bomb and
    # the rocket
    "farmer rocket": (
        "34567 3456 33445566 99 7",
        ("89TJQ KKKAAA 2222 BR",),
        "34567 89TJQ - - KKKAAA - - 2222 - - BR",
    ),
    # 反春 by farmer 2: a straight and a pair chain
    "other farmer": (
        "3333 2222 BR 444 555 666 7",
        ("", "4 56789 TTJJQQ KKK AA"),
        "3 - 4 - - 56789 - - TTJJQQ - - KKK - - AA",
    ),
    # the landlord leads a straight, a farmer bombs it and plays out: no straight of the winners
    "lost straight": (
        "34567 3456 3456 3AAA 7 TT",
        ("2222 KKKK QQQ JJ 99 88",),
        "34567 2222 - - KKKK - - QQQ - - JJ - - 99 - - 88",
    ),
    # the same with a trio chain, and with a pair chain
    "lost airplane": (
        "555666 3334447 789TA7A",
        ("2222 KKKK QQQ JJ 99 88",),
        "555666 2222 - - KKKK - - QQQ - - JJ - - 99 - - 88",
    ),
    "lost pair chain": (
        "334455 3456789 TA7AA7B",
        ("2222 KKKK QQQ JJ 99 88",),
        "334455 2222 - - KKKK - - QQQ - - JJ - - 99 - - 88",
    ),
    # the landlord wins, but a farmer played: no spring
    "no spring": (
        "3 5 6789TJQKA 777 2222 BR",
        ("4",),
        "3 4 - 5 - - 6789TJQKA - - 777 - - 2222 - - BR",
    ),
}
"""Crafted hands: (the landlord's 20 ranks, the farmers' given ranks, the plays)."""

LOST = ("lost straight", "lost airplane", "lost pair chain")
"""The farmers bomb the landlord's lead and win: a bomb, 反春, nothing of the landlord's."""
DONE: dict[Task, set[str]] = {
    Task.BOMB_FINISH: {"bomb last", "farmer rocket", "no spring"},
    Task.CHAIN: {"spring", "bomb last", "pair last", "farmer rocket", "other farmer", "no spring"},
    Task.PAIR_CHAIN: {"spring", "other farmer"},
    Task.PLANE: {"spring", "farmer rocket"},
    Task.BOMB: {"bomb last", "pair last", "farmer rocket", "no spring"} | set(LOST),
    Task.ROCKET_WIN: {"bomb last", "pair last", "farmer rocket", "no spring"},
    Task.SPRING: {"spring", "bomb last", "pair last", "farmer rocket", "other farmer"} | set(LOST),
}
"""The scenarios in which the winning side completes each task (in no other)."""


@pytest.mark.parametrize("task", list(Task), ids=[t.value for t in Task])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_each_task_is_completed_by_the_winning_side_only(task: Task, name: str) -> None:
    landlord, farmers, script = SCENARIOS[name]
    state = played(task, landlord, farmers, script)
    plain = played(None, landlord, farmers, script)
    done = name in DONE[task]
    assert state.task is task and state.task_completed is done
    completed = [e for e in state.events if isinstance(e, TaskCompleted)]
    side = "landlord" if state.winner == state.landlord else "farmers"
    assert completed == ([TaskCompleted(task, side)] if done else [])
    if done:
        assert isinstance(state.events[-1], HandEnded) and state.events[-2] == completed[0]
    factor = TASK_FACTOR if done else 1
    assert state.returns() == tuple(factor * points for points in plain.returns())


def test_the_scenarios_end_as_described() -> None:
    winners = {name: played(None, *spec).winner for name, spec in SCENARIOS.items()}
    farmers_won = {"farmer rocket", "lost straight", "lost airplane", "lost pair chain"}
    assert {name for name, seat in winners.items() if seat == 1} == farmers_won
    assert winners["other farmer"] == 2
    assert all(winners[name] == 0 for name in winners.keys() - farmers_won - {"other farmer"})


@pytest.mark.parametrize(
    ("task", "moves", "spring", "done"),
    [
        (Task.BOMB_FINISH, ["34567", "pass", "5555"], False, True),
        (Task.BOMB_FINISH, ["BR", "3"], False, False),
        (Task.BOMB_FINISH, ["3", "777W/7777"], False, True),  # a 财神-made bomb
        (Task.BOMB_FINISH, ["3", "7777W/77777"], False, True),  # the 财神 five-card bomb
        (Task.CHAIN, ["3456W/34567"], False, True),  # wild cards stand for what they read
        (Task.CHAIN, ["334455"], False, False),
        (Task.PAIR_CHAIN, ["334455"], False, True),
        (Task.PLANE, ["333444"], False, True),
        (Task.PLANE, ["33344456"], False, True),
        (Task.PLANE, ["3334445566"], False, True),
        (Task.PLANE, ["3335"], False, False),
        (Task.BOMB, ["BR"], False, True),
        (Task.BOMB, ["3", "44"], False, False),
        (Task.ROCKET_WIN, ["5555"], False, False),
        (Task.ROCKET_WIN, ["BR", "3"], False, True),
        (Task.SPRING, ["3"], True, True),
        (Task.SPRING, ["3"], False, False),
        (Task.BOMB_FINISH, [], False, False),
    ],
)
def test_completes_reads_the_winning_sides_plays(
    task: Task, moves: list[str], spring: bool, done: bool
) -> None:
    assert completes(task, [parse_move(m) for m in moves], spring=spring) is done


def test_an_escape_completes_no_task() -> None:
    rules = RULES["zhengtu"].derive("zhengtu", tasks=(Task.CHAIN,))
    landlord, farmers, _ = SCENARIOS["spring"]
    state = State.new(rules, seed=1, deck=deck_for(landlord, *farmers))
    act(state, "bid 3", "play 34567", "play pass", "play pass")
    state.escape(1)
    assert state.task is Task.CHAIN and not state.task_completed
    assert not any(isinstance(e, TaskCompleted) for e in state.events)


# --- the draw --------------------------------------------------------------------------


def drawn_by_hand(tasks: tuple[Task, ...], seed: int) -> Task:
    """The draw as docs/records.md describes it: the words of SHA-256 blocks of
    ``qipai-task-v1:<seed>:<i>``, rejection below the largest multiple of the count."""
    limit = 2**32 - 2**32 % len(tasks)
    block = 0
    while True:
        digest = hashlib.sha256(f"qipai-task-v1:{seed}:{block}".encode("ascii")).digest()
        for word in struct.unpack(">8I", digest):
            if word < limit:
                return tasks[word % len(tasks)]
        block += 1


def test_the_draw_is_the_documented_stream_and_every_task_is_reachable() -> None:
    pool = tuple(Task)
    seen: Counter[Task] = Counter()
    for seed in (*range(300), 2**127 + 5, 10**40):
        task = draw_task(pool, seed)
        assert task is drawn_by_hand(pool, seed) is draw_task(pool, seed)
        seen[task] += 1
    assert set(seen) == set(Task)
    assert min(seen.values()) > 20  # about 300 / 7 each
    assert draw_task((Task.PLANE,), 9) is Task.PLANE and draw_task((), 9) is None


@pytest.mark.parametrize("preset", list(RULES))
def test_a_hand_draws_its_task_from_its_seed_and_deals_the_same_cards(preset: str) -> None:
    pool = (Task.SPRING, Task.CHAIN, Task.BOMB)
    rules = RULES[preset].derive(preset, tasks=pool)
    for seed in range(20):
        with_tasks, plain = State.new(rules, seed=seed), State.new(preset, seed=seed)
        assert with_tasks.task is draw_task(pool, seed) and plain.task is None
        assert with_tasks._deal == plain._deal and with_tasks.bottom == plain.bottom
        assert (with_tasks.marker, with_tasks.first_bidder) == (plain.marker, plain.first_bidder)


def test_the_task_is_shown_to_everyone_at_the_start_and_kept_over_a_redeal() -> None:
    rules = RULES["yifa"].derive("yifa", tasks=tuple(Task))
    state = State.new(rules, seed=3)
    assert state.events[:2] == [HandStarted("yifa", 0), TaskDrawn(state.task)]  # type: ignore[arg-type]
    assert all(state.events[1].visible_to(seat) for seat in (0, 1, 2, SPECTATOR))
    assert {state.view(seat).task for seat in (0, 1, 2, SPECTATOR)} == {state.task}
    task = state.task
    act(state, "bid 0", "bid 0", "bid 0")
    assert state.deal_number == 2 and state.task is task and state.view(0).task is task
    assert State.new("yifa", seed=3).view(0).task is None


def test_random_hands_with_tasks_stay_zero_sum_and_replay() -> None:
    completed = 0
    for seed in range(150):
        preset = list(RULES)[seed % len(RULES)]
        state = random_hand(preset, seed)
        rules = RULES[preset].derive(preset, tasks=tuple(Task))
        again = State.new(rules, seed=seed)
        for step in state.history:
            again.apply(step.action, step.seat)
        factor = TASK_FACTOR if again.task_completed else 1
        if preset != "yifa":  # (yifa's cap may hold the doubling back)
            assert again.returns() == tuple(factor * p for p in state.returns())
        assert sum(again.returns()) == 0
        completed += again.task_completed
    assert 10 < completed < 140


# --- rules and scoring -----------------------------------------------------------------


def test_rules_refuse_tasks_that_are_not_tasks_or_twice() -> None:
    for bad in (("spring",), (Task.SPRING, Task.SPRING), [Task.SPRING]):
        with pytest.raises(InvalidActionError) as error:
            RULES["jj"].derive("jj", tasks=bad)
        assert error.value.code == "bad_rules"
    for ids in (["nope"], ["spring", "spring"], [3]):
        with pytest.raises(InvalidActionError) as error:
            parse_tasks(ids)
        assert error.value.code == "bad_tasks"
    assert parse_tasks([t.value for t in Task]) == tuple(Task)
    assert {t.chinese for t in Task} >= {"以炸弹结束", "打出顺子", "春天", "用王炸获胜"}
    assert all(t.english and t.chinese for t in Task)


def test_a_completed_task_doubles_both_pairs_and_is_named_in_the_breakdown() -> None:
    rules = RULES["huanle"]
    facts = HandFacts(rules=rules, landlord=0, base=1, winner=1, bombs=1, task=Task.CHAIN)
    done = HandFacts(**{**_fields(facts), "task_completed": True})
    assert score_hand(done) == tuple(2 * p for p in score_hand(facts)) == (-8, 4, 4)
    for pair in multiplier_breakdown(done):
        assert [(f.reason, f.count, f.factor) for f in pair.factors][-1] == ("task", 1, 2)
        assert pair.factors[-1].label == "任务"
    assert all(f.reason != "task" for p in multiplier_breakdown(facts) for f in p.factors)
    with pytest.raises(InvalidActionError, match="bad_facts"):
        score_hand(HandFacts(rules=rules, landlord=0, base=1, winner=1, task_completed=True))


def test_every_reason_has_its_label_in_the_browser() -> None:
    """The result panel names each factor of the breakdown (``ddz.reason.*``, the game's
    browser module's texts: ``js/games/ddzstrings.js``)."""
    games = Path(qipai.__file__).parent / "web" / "static" / "js" / "games"
    strings = (games / "ddzstrings.js").read_text(encoding="utf-8")
    assert all(f'"ddz.reason.{reason}": ["{label}"' in strings for reason, label in REASONS.items())


def test_the_task_doubling_is_inside_the_yifa_cap() -> None:
    """yifa counts at most 4 doublings a pair: a task is one of them, so the largest yifa
    result stays 2 × 3 × 16 = 96 points, the room's entry minimum N × 96."""
    yifa = RULES["yifa"]
    four = HandFacts(rules=yifa, landlord=0, base=3, winner=0, bombs=4, task=Task.BOMB)
    three = HandFacts(rules=yifa, landlord=0, base=3, winner=0, bombs=3, task=Task.BOMB)
    capped = HandFacts(**{**_fields(four), "task_completed": True})
    doubled = HandFacts(**{**_fields(three), "task_completed": True})
    assert score_hand(capped) == score_hand(four) == (96, -48, -48)
    assert all(p.is_capped for p in multiplier_breakdown(capped))
    assert score_hand(doubled) == score_hand(four) == tuple(2 * p for p in score_hand(three))


def _fields(facts: HandFacts) -> dict[str, object]:
    return {name: getattr(facts, name) for name in HandFacts.__dataclass_fields__}


def test_explain_names_the_task() -> None:
    game = game_type("doudizhu")
    state = played(Task.ROCKET_WIN, *SCENARIOS["farmer rocket"])
    explained = game.explain(state)
    assert explained["task"] == {
        "id": "rocket_win",
        "name": "用王炸获胜",
        "english": "Win with the rocket",
        "completed": True,
        "side": "farmers",
        "factor": 2,
    }
    assert all(["task", 1, 2] in pair["factors"] for pair in explained["pairs"])
    missed = game.explain(played(Task.PAIR_CHAIN, *SCENARIOS["farmer rocket"]))
    assert missed["task"]["completed"] is False and missed["task"]["side"] is None
    assert all(["task", 1, 2] not in pair["factors"] for pair in missed["pairs"])
    assert "task" not in game.explain(played(None, *SCENARIOS["farmer rocket"]))
    assert game.task_of(state) == "rocket_win"


def test_rules_with_tasks_come_from_a_room_or_a_match_change() -> None:
    game = game_type("doudizhu")
    changed = game.rules_with("jj", {"tasks": ["spring", "bomb_finish"]})
    assert isinstance(changed, Rules) and changed.tasks == (Task.SPRING, Task.BOMB_FINISH)
    for bad in ({"tasks": ["nope"]}, {"tasks": "spring"}, {"tasks": [1]}):
        with pytest.raises(InvalidActionError) as error:
            game.rules_with("jj", bad)
        assert error.value.code == "bad_rules"
