"""A stage's arithmetic, apart from any run: how many players it keeps, its first fixed
tables, a hand's base and the knockout line, when its seating or a round is over, the
score carried into the next stage, and the final order of a finished run.

Pure functions of a :class:`~qipai.hall.match.config.Stage` or a
:class:`~qipai.hall.match.parts.StageRun`; :class:`~qipai.hall.match.match.MatchRun`
applies them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from qipai.hall.match.config import Stage, StageKind
from qipai.hall.match.parts import StageRun, StageTable, Standing


def stage_keeps(stage: Stage, players: int, table_seats: int) -> int:
    """How many of ``players`` the stage lets go on (a knockout: at most half, in whole
    tables of ``table_seats``)."""
    keeps = stage.advance if stage.advance is not None else players
    if stage.kind is StageKind.KNOCKOUT:
        keeps = min(keeps, players // 2 // table_seats * table_seats)
    return keeps


def fixed_tables(players: Sequence[str], table_seats: int) -> list[StageTable]:
    """``players`` seated in order at whole tables of ``table_seats``."""
    return [
        StageTable(n + 1, tuple(players[n * table_seats : (n + 1) * table_seats]))
        for n in range(len(players) // table_seats)
    ]


def base_and_line(run: StageRun) -> tuple[int, int]:
    """The base of the stage's next hand and its knockout line (0 for other stages)."""
    if run.stage.kind is not StageKind.KNOCKOUT:
        return run.stage.base, 0
    return run.stage.schedule(run.rounds)


def seating_over(run: StageRun) -> bool:
    """knockout: no new hand (the players it keeps are left, or its rounds are up)."""
    limit = run.stage.max_rounds
    return len(run.players) <= run.keeps or (limit is not None and run.rounds >= limit)


def round_over(run: StageRun) -> bool:
    """Tables: every table of the round played its hands, none in play."""
    return all(t.played >= run.stage.hands and not t.in_play for t in run.tables)


def carried(stage: Stage, score: int) -> int:
    """What of ``score`` a player takes into ``stage`` (its percentage, capped)."""
    carry = score * stage.carry_percent // 100
    return carry if stage.carry_cap is None else min(carry, stage.carry_cap)


def final_standings(
    ranked: Sequence[str],
    out: Sequence[Sequence[str]],
    scores: Mapping[str, int],
    reached: Mapping[str, int],
) -> list[Standing]:
    """``ranked`` (the players still in), then those ``out``, later batches first."""
    order = [*ranked, *(p for batch in reversed(out) for p in batch)]
    gone = {p for batch in out for p in batch}
    return [
        Standing(n, p, scores.get(p, 0), reached.get(p, 0), p in gone)
        for n, p in enumerate(order, 1)
    ]
