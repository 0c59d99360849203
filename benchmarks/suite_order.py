"""Write ``tests/durations.json``, each test file's seconds in a run, from the
``--durations=0`` report of that run: the order in which the parallel suite hands out its
files (the longest first; ``tests/conftest.py``), so that no long file starts last and ends
the run alone.

    ./test --durations=0 > /tmp/suite.log
    .venv/bin/python benchmarks/suite_order.py /tmp/suite.log

Only the order matters: the figures are rounded to the second, and a file not listed
(a new one) is handed out after the listed ones.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

LINE = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(tests/[^:\s]+)::")
"""One line of pytest's durations report: seconds, phase, the test's node id."""
OUT = Path(__file__).resolve().parent.parent / "tests" / "durations.json"


def file_seconds(report: str) -> dict[str, int]:
    """Seconds per test file in ``report`` (a pytest log), longest first."""
    seconds: Counter[str] = Counter()
    for line in report.splitlines():
        if match := LINE.match(line):
            seconds[match.group(2)] += float(match.group(1))
    rounded = {path: round(total) for path, total in seconds.most_common()}
    return {path: total for path, total in rounded.items() if total}


def main(log: str) -> None:
    """Read the log at ``log``; write :data:`OUT`."""
    seconds = file_seconds(Path(log).read_text(encoding="utf-8"))
    OUT.write_text(json.dumps(seconds, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(seconds)} files, {sum(seconds.values())} s")


if __name__ == "__main__":
    main(sys.argv[1])
