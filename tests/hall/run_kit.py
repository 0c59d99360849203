"""Helpers of the match engine's tests: a run started with players ``p1``…, and a match of
one knockout stage (and a one-hand final) built from its numbers."""

from __future__ import annotations

import random
import textwrap

from qipai.hall.match.config import MatchConfig, load_matches
from qipai.hall.match.match import MatchRun

KNOCKOUT_HEAD = """
[[match]]
id = "k"
name = "k"
kind = "scheduled"
game = "doudizhu"
rules = "jj"
players = 300
min_players = 6
minimise = false
"""
ONE_HAND_FINAL = """
[[match.stage]]
kind = "fixed"
hands = 1
"""


def started(match: MatchConfig, count: int, seed: int = 0) -> MatchRun:
    """A run of ``match`` with ``count`` players ``p1``… registered, started."""
    run = MatchRun(match, f"{match.id}#1", random.Random(seed))
    for number in range(1, count + 1):
        run.register(f"p{number}")
    run.start()
    return run


def knockout(
    *, line: int, advance: int, base: int = 10, rise: tuple[int, int, int] | None = None,
    extra: str = "",
) -> MatchConfig:  # fmt: skip
    """A scheduled match (6 to 300 players): a knockout (``rise``: one step, ``(after_rounds,
    base, line)``; ``extra``: more fields of the stage), then a final of one hand."""
    stage = f"""
    [[match.stage]]
    kind = "knockout"
    base = {base}
    line = {line}
    advance = {advance}
    {extra}
    """
    if rise is not None:
        after, risen_base, risen_line = rise
        stage += f"""
        [[match.stage.rise]]
        after_rounds = {after}
        base = {risen_base}
        line = {risen_line}
        """
    [match] = load_matches(KNOCKOUT_HEAD + textwrap.dedent(stage) + ONE_HAND_FINAL)
    return match
