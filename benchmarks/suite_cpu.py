"""Where the test suite's time goes: the whole machine's CPU and the wall clock around each
test (docs/testing.md, "Where the time goes").

As a pytest plugin it appends one line per test to ``$QIPAI_SUITE_CPU`` (default
``suite_cpu.tsv``): the test, the CPU-seconds every process of the machine spent while it
ran (``/proc/stat``: Chromium, the halls started as processes and the database count too,
so run it serially on an otherwise quiet machine), and its seconds.  Run as a script, it
sums a file of those lines by test folder::

    QIPAI_SUITE_CPU=/tmp/cpu.tsv PYTHONPATH=benchmarks .venv/bin/python -m pytest -p suite_cpu
    .venv/bin/python benchmarks/suite_cpu.py /tmp/cpu.tsv

With ``QIPAI_SUITE_CPU_OF=process`` each line counts instead what the test's own process
and the children it has reaped spent (``getrusage``), which holds in a parallel run
(``-n 4``) but misses the processes it never reaps (Chromium's renderers, the databases).

``suite_cpu.py --around [--every S] COMMAND...`` runs a command and prints the CPU-seconds
the whole machine spent meanwhile and its seconds; with ``--every``, also how many cores
were busy in each ``S`` seconds (to standard error)::

    .venv/bin/python benchmarks/suite_cpu.py --around --every 2 ./test
"""

from __future__ import annotations

import collections
import os
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

TICKS = os.sysconf("SC_CLK_TCK")


def busy_seconds() -> float:
    """CPU-seconds the machine has spent busy (every core, every process) since boot."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(value) for value in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and waiting for I/O
    return (sum(ticks) - idle) / TICKS


def process_seconds() -> float:
    """CPU-seconds this process and the children it has reaped have spent."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Time one test (set-up, call and tear-down)."""
    spent = process_seconds if os.environ.get("QIPAI_SUITE_CPU_OF") == "process" else busy_seconds
    busy, started = spent(), time.monotonic()
    yield
    cpu, wall = spent() - busy, time.monotonic() - started
    with open(os.environ.get("QIPAI_SUITE_CPU", "suite_cpu.tsv"), "a", encoding="utf-8") as out:
        out.write(f"{item.nodeid}\t{cpu:.2f}\t{wall:.2f}\n")


def main(path: str) -> None:
    """Print CPU-seconds and seconds per test folder, and in all."""
    cpu: collections.Counter[str] = collections.Counter()
    wall: collections.Counter[str] = collections.Counter()
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            test, spent, took = line.rstrip("\n").split("\t")
            folder = test.split("::")[0].rpartition("/")[0]
            cpu[folder] += float(spent)
            wall[folder] += float(took)
    for folder, spent in cpu.most_common():
        print(f"{folder:24} {spent:8.1f} CPU-s {wall[folder]:8.1f} s")
    print(f"{'all':24} {sum(cpu.values()):8.1f} CPU-s {sum(wall.values()):8.1f} s")


def around(command: list[str], every: float | None) -> int:
    """Run ``command``; print the machine's CPU-seconds and the seconds it took (and, every
    ``every`` seconds, the cores busy meanwhile); return its exit status."""
    busy, started = busy_seconds(), time.monotonic()
    done = threading.Event()

    def sample(step: float) -> None:
        last = busy_seconds()
        while not done.wait(step):
            now = busy_seconds()
            print(
                f"{time.monotonic() - started:6.0f} s {(now - last) / step:5.2f} cores",
                file=sys.stderr,
            )
            last = now

    if every:
        threading.Thread(target=sample, args=(every,), daemon=True).start()
    status = subprocess.call(command)
    done.set()
    cpu, wall = busy_seconds() - busy, time.monotonic() - started
    print(f"{cpu:.0f} CPU-s of the machine in {wall:.0f} s (exit status {status})")
    return status


if __name__ == "__main__":
    if sys.argv[1] != "--around":
        main(sys.argv[1])
    elif sys.argv[2] == "--every":
        sys.exit(around(sys.argv[4:], float(sys.argv[3])))
    else:
        sys.exit(around(sys.argv[2:], None))
