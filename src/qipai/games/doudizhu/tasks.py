"""任务 (tasks): one task a hand, drawn from the room's list; completing it doubles the result.

"完成规定任务会使结果翻倍" (the 欢乐斗地主 / JJ page).  A rule set with a non-empty
:attr:`.Rules.tasks` (the room's list, ``tasks`` in the rooms file) shows one :class:`Task`
at the deal of each hand, drawn by :func:`draw_task` from the hand's seed; a hand without
the list has no task.  The kinds are a closed set, each with a stable id (its value, what
rooms files, records and the wire write), a Chinese and an English name.

**Who completes a task** (a reading: the page names no task): only the side that wins the
hand (the landlord alone, or the two farmers together), by its own plays — what the losing
side plays completes nothing, and an escape ends the hand with no task completed.  The
winners' result is then doubled: :data:`TASK_FACTOR` joins the multiplier of both
landlord–farmer pairs, so the losers pay double and the hand stays zero-sum; the result's
breakdown names it (reason ``task``, :data:`~.scoring.REASONS`).  It is a doubling like a
bomb's, so yifa's cap (``doubling_cap``) counts it: the largest yifa result stays 96 points,
the room's entry minimum.

- ``bomb_finish`` 以炸弹结束 (finish with a bomb): the play that ends the hand is a bomb,
  a 财神 five-card bomb or the rocket.
- ``chain`` 打出顺子 (play a straight): the winning side played a straight 单顺.
- ``pair_chain`` 打出连对 (play a pair chain): the winning side played a pair chain 双顺.
- ``plane`` 打出飞机 (play an airplane): the winning side played a trio chain 三顺, with
  or without wings.
- ``bomb`` 打出炸弹 (play a bomb): the winning side played a bomb, a 财神 bomb or the rocket.
- ``rocket_win`` 用王炸获胜 (win with the rocket): the winning side played the rocket.
- ``spring`` 春天 (spring): the hand ends in 春天 (the landlord wins) or 反春 (the
  farmers win).

Plays made with wild cards count as what they stand for (a 财神 straight is a straight).
A redeal keeps the hand's task; only the plays of the deal that is played out count.

>>> draw_task((Task.CHAIN, Task.SPRING), seed=42)
<Task.SPRING: 'spring'>
>>> from qipai.games.doudizhu.combos import parse_move
>>> completes(Task.BOMB_FINISH, [parse_move("3"), parse_move("BR")], spring=False)
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

from qipai.chance import DealStream
from qipai.errors import InvalidActionError
from qipai.games.doudizhu.combos import Kind, Move

TASK_FACTOR = 2
"""What a completed task multiplies the result by (翻倍)."""
TASK_PREFIX = "qipai-task-v1:"
"""What precedes the seed's decimal digits in the bytes of the task draw's stream
(:func:`draw_task`); the deal's stream has its own (``qipai-deal-v2:``)."""

_BOMBS = frozenset({Kind.BOMB, Kind.WILD_BOMB, Kind.ROCKET})
_PLANES = frozenset({Kind.TRIO_CHAIN, Kind.PLANE_SINGLES, Kind.PLANE_PAIRS})


class Task(enum.Enum):
    """The kinds of task; the value is the stable id (module docstring)."""

    BOMB_FINISH = "bomb_finish"
    CHAIN = "chain"
    PAIR_CHAIN = "pair_chain"
    PLANE = "plane"
    BOMB = "bomb"
    ROCKET_WIN = "rocket_win"
    SPRING = "spring"

    @property
    def chinese(self) -> str:
        """The name players see (以炸弹结束...)."""
        return _NAMES[self][0]

    @property
    def english(self) -> str:
        """The English name."""
        return _NAMES[self][1]


_NAMES: dict[Task, tuple[str, str]] = {
    Task.BOMB_FINISH: ("以炸弹结束", "Finish with a bomb"),
    Task.CHAIN: ("打出顺子", "Play a straight"),
    Task.PAIR_CHAIN: ("打出连对", "Play a pair chain"),
    Task.PLANE: ("打出飞机", "Play an airplane"),
    Task.BOMB: ("打出炸弹", "Play a bomb"),
    Task.ROCKET_WIN: ("用王炸获胜", "Win with the rocket"),
    Task.SPRING: ("春天", "Spring"),
}


def parse_tasks(ids: Iterable[object]) -> tuple[Task, ...]:
    """The tasks of a list of ids (a room's ``tasks``), in its order.

    >>> parse_tasks(["spring", "chain"])
    (<Task.SPRING: 'spring'>, <Task.CHAIN: 'chain'>)

    :raises InvalidActionError: ``bad_tasks`` for an id no task has, or one given twice.
    """
    tasks: list[Task] = []
    for task_id in ids:
        if not isinstance(task_id, str) or task_id not in _BY_ID:
            known = ", ".join(_BY_ID)
            raise InvalidActionError("bad_tasks", f"a task is one of {known}, not {task_id!r}")
        if _BY_ID[task_id] in tasks:
            raise InvalidActionError("bad_tasks", f"task {task_id!r} is listed twice")
        tasks.append(_BY_ID[task_id])
    return tuple(tasks)


_BY_ID = {task.value: task for task in Task}


def check_tasks(tasks: object) -> None:
    """Refuse tasks that are not a tuple of :class:`Task` values, or list one twice.

    :raises InvalidActionError: ``bad_rules``.
    """
    if not isinstance(tasks, tuple) or not all(isinstance(task, Task) for task in tasks):
        raise InvalidActionError("bad_rules", f"tasks are Task values, not {tasks!r}")
    if len(set(tasks)) != len(tasks):
        raise InvalidActionError("bad_rules", "a task is listed twice")


def draw_task(tasks: Sequence[Task], seed: int) -> Task | None:
    """The task of the hand dealt from ``seed`` among ``tasks`` (``None`` if there are none).

    ``tasks[randbelow(len(tasks))]`` on the stream of :class:`~qipai.chance.DealStream`
    with the prefix :data:`TASK_PREFIX` instead of the deal's: block ``i`` is the SHA-256
    of ``qipai-task-v1:`` + the seed in decimal + ``:`` + ``i``.  Its own stream, so a room
    that turns tasks on deals the very same cards from a seed, and the draw is checked
    from the record like the deal (``docs/records.md``).
    """
    if not tasks:
        return None
    return tasks[DealStream(seed, prefix=TASK_PREFIX).randbelow(len(tasks))]


def completes(task: Task, plays: Sequence[Move], *, spring: bool) -> bool:
    """Whether the winning side completed ``task``.

    :param plays: the winning side's plays of the hand, in order, passes left out or not;
        the last one ends the hand.
    :param spring: the hand ended in 春天 or 反春.
    """
    kinds = [move.kind for move in plays if not move.is_pass]
    if task is Task.SPRING:
        return spring
    if task is Task.BOMB_FINISH:
        return bool(kinds) and kinds[-1] in _BOMBS
    if task is Task.ROCKET_WIN:
        return Kind.ROCKET in kinds
    wanted = _PLAYED[task]
    return any(kind in wanted for kind in kinds)


_PLAYED: dict[Task, frozenset[Kind]] = {
    Task.CHAIN: frozenset({Kind.CHAIN}),
    Task.PAIR_CHAIN: frozenset({Kind.PAIR_CHAIN}),
    Task.PLANE: _PLANES,
    Task.BOMB: _BOMBS,
}
"""The tasks completed by playing one combination of these kinds."""
