"""The hall's pace under a flood and the browser's pace, measured by running the tests that
exercise them and collecting the figures they print (the tests assert behaviour only: a
test asserts no time, since this box is shared and noisy).

    .venv/bin/python benchmarks/pace.py flood --runs 4
    .venv/bin/python benchmarks/pace.py browser --runs 5

``flood`` runs ``tests/server/test_server_limits.py -k flood`` (a player's round trip while
other processes flood sign-in and the WebSocket) and prints, per flood kind, the median over
the runs of each percentile, with its range.  ``browser`` runs the page-ready and the
three-browser latency tests and prints the medians of what they measure.  The goals the
hall keeps (``docs/performance.md``): a flooded round trip under 100 ms at the 99th
percentile; a page ready and a play shown on the other screens, each under 100 ms at the
median (the page under a second); 再来一局 with the players waiting: the next hand's cards
on every screen within a second of the last press.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTEST = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider"]
FLOOD = ["tests/server/test_server_limits.py", "-k", "flood"]
BROWSER = [
    "tests/web/test_web_lobby.py::test_the_page_gets_ready",
    "tests/web/test_web_latency.py",
]


def printed(arguments: list[str]) -> list[str]:
    """The lines a pytest run of ``arguments`` printed; exits if a test failed."""
    run = subprocess.run(
        [*PYTEST, *arguments], check=False, cwd=ROOT, capture_output=True, text=True
    )
    if run.returncode != 0:
        sys.exit(f"pytest failed:\n{run.stdout[-4000:]}")
    return run.stdout.splitlines()


def summary(samples: list[float]) -> str:
    """``median (min–max)`` of ``samples``."""
    return f"{statistics.median(samples):.1f} ({min(samples):.1f}–{max(samples):.1f})"


def flood(runs: int) -> None:
    """The round-trip percentiles of each flood kind, over ``runs`` runs."""
    figures: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for _ in range(runs):
        lines = [line[line.index('{"kind"') :] for line in printed(FLOOD) if '{"kind"' in line]
        for line in lines:  # (after pytest's progress dots, on the same line)
            run = json.loads(line)
            for phase in ("quiet", "flooded"):
                for key, value in run[phase].items():
                    figures[f"{run['kind']} {phase}"][key].append(value)
    for name, columns in figures.items():
        print(name, {key: summary(values) for key, values in columns.items()})


def browser(runs: int) -> None:
    """The page-ready, play-shown and again-dealt medians, over ``runs`` runs."""
    figures: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):
        for line in printed(BROWSER):
            pattern = r"(page_ready_\w+|play_shown|again_dealt)_ms=([\d.]+)"
            for name, value in re.findall(pattern, line):
                figures[name].append(float(value))
    for name, values in figures.items():
        print(f"{name}: n={len(values)} median {summary(values)} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["flood", "browser"])
    parser.add_argument("--runs", type=int, default=4)
    arguments = parser.parse_args()
    {"flood": flood, "browser": browser}[arguments.what](arguments.runs)


if __name__ == "__main__":
    main()
