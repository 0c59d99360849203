"""The golden playthroughs (``tests/golden/``): every game and preset replays to its file.

A mismatch shows the start of a unified diff (expected file, then the hand as played now).
When a change is meant to alter a hand, regenerate the files with the command in
``tests/golden/regenerate.py`` and review the diff like code.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
from regenerate import CASES, COMMAND, path_of, playthrough

DIFF_LINES = 60
"""How many lines of the diff a failure shows."""


@pytest.mark.parametrize(("game", "rules"), CASES, ids=[f"{g}-{r}" for g, r in CASES])
def test_the_hand_plays_as_its_golden_file(game: str, rules: str) -> None:
    path = path_of(game, rules)
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(game, rules)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            fromfile=f"tests/golden/{path.name}",
            tofile="played now",
            lineterm="",
            n=1,
        )
        shown = [line[:300] for _, line in zip(range(DIFF_LINES), diff, strict=False)]
        pytest.fail(
            f"{game} {rules} no longer plays as its golden file; if that is intended, run "
            f"{COMMAND} and review the diff.\n"
            + "\n".join(shown)
            + _first_change(expected.splitlines(), actual.splitlines()),
            pytrace=False,
        )


def _first_change(expected: list[str], actual: list[str]) -> str:
    """Where the first differing line first differs, with 60 characters either side."""
    for number, (old, new) in enumerate(zip(expected, actual, strict=False), 1):
        if old != new:
            at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), 0)
            start = max(0, at - 60)
            return (
                f"\nfirst change: line {number}, column {at + 1}:"
                f"\n  expected: …{old[start : at + 60]}…\n  now:      …{new[start : at + 60]}…"
            )
    return f"\nthe files differ in length: {len(expected)} lines expected, {len(actual)} now"


def test_every_golden_file_is_a_case() -> None:
    files = {p.name for p in path_of("x", "y").parent.glob("*.txt")}
    assert files == {path_of(g, r).name for g, r in CASES}
