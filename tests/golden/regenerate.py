"""Golden playthroughs: one seeded hand of every game and preset, written out in full.

Each file ``tests/golden/<game>-<rules>.txt`` holds, like OpenSpiel's playthroughs: the
seed and chance version, then the hand's start and every action (the acting seat, the
events it caused as ``qipai.hall.wire.event_json``, every seat's view after it as
``view_json``, legal actions sorted by text), then the returns.  The hand is played by a
deterministic policy: each seat draws from ``random.Random(POLICY_SEED * 10 + seat)``
among its legal actions sorted by their text (so no engine's listing order matters), and
the dealer (Dou Dizhu's paced deal) takes the first legal step.  ``tests/test_golden.py``
replays every file and shows a diff on any change.

Regenerate them all, after a change that is meant to change them (then read the diff):

    .venv/bin/python tests/golden/regenerate.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
COMMAND = ".venv/bin/python tests/golden/regenerate.py"
"""The one command that rewrites every golden file."""
SEED = 20240614
"""The seed every golden hand is dealt from (chance v2)."""
POLICY_SEED = 7
"""Seeds the seats' choices."""
CASES = (
    ("doudizhu", "yifa"),
    ("doudizhu", "caishen"),
    ("doudizhu", "huanle"),
    ("doudizhu", "zhengtu"),
    ("doudizhu", "jj"),
    ("zhajinhua", "yifa"),
    ("showhand", "yifa"),
)
"""Every game and preset pair with a golden file."""
PLAYERS = 3
"""Seats at the Zha Jin Hua and Showhand golden tables (Dou Dizhu always has 3)."""


def path_of(game: str, rules: str) -> Path:
    """The golden file of ``game`` under ``rules``."""
    return HERE / f"{game}-{rules}.txt"


def _new_hand(game: str, rules: str) -> Any:
    if game == "doudizhu":
        from qipai.games import doudizhu  # noqa: PLC0415

        return doudizhu.State.new(rules, seed=SEED)
    if game == "zhajinhua":
        from qipai.games import zhajinhua  # noqa: PLC0415

        return zhajinhua.State.new(rules, seed=SEED, players=PLAYERS)
    from qipai.games import showhand  # noqa: PLC0415

    return showhand.State.new(rules, seed=SEED, players=PLAYERS)


def _dump(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _seats(state: Any) -> int:
    return len(state.returns()) if state.is_terminal else int(getattr(state, "players", 3))


def _snapshot(game: str, state: Any, since: int) -> list[str]:
    from qipai.hall.wire import event_json, view_json  # noqa: PLC0415

    lines = [f"  event {_dump(event_json(event))}" for event in state.events[since:]]
    for seat in range(_seats(state)):
        view = view_json(game, state.view(seat))
        to_act = not state.is_terminal and seat == state.current_player
        view["legal_actions"] = sorted(str(a) for a in state.legal_actions()) if to_act else []
        lines.append(f"  view {seat} {_dump(view)}")
    return lines


def playthrough(game: str, rules: str) -> str:
    """The golden text of ``game`` under ``rules`` (the module docstring)."""
    state = _new_hand(game, rules)
    rngs = [random.Random(POLICY_SEED * 10 + seat) for seat in range(_seats(state))]
    lines = [
        f"# Golden playthrough of {game} {rules}: written by {COMMAND}; do not edit.",
        f"# Policy: seat s chooses random.Random({POLICY_SEED} * 10 + s).choice(legal actions"
        " sorted by text); the dealer takes the first legal step.",
        f"game {game}",
        f"rules {rules}",
        f"seed {SEED}",
        f"chance {state.chance}",
        "start",
        *_snapshot(game, state, 0),
    ]
    number = 0
    while not state.is_terminal:
        seat = state.current_player
        legal = state.legal_actions()
        action = legal[0] if seat is None else rngs[seat].choice(sorted(legal, key=str))
        since = len(state.events)
        state.apply(action, seat)
        number += 1
        lines.append(f"action {number}: seat {'dealer' if seat is None else seat}: {action}")
        lines += _snapshot(game, state, since)
    lines.append(f"returns {_dump(list(state.returns()))}")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Rewrite every golden file; print which changed."""
    for game, rules in CASES:
        path = path_of(game, rules)
        text = playthrough(game, rules)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(text, encoding="utf-8")
        print(f"{path.name}: {'unchanged' if old == text else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
