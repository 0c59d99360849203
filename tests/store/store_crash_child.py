"""A hall process that dies by SIGKILL in the middle of a settlement (run by test_store_crash).

``python store_crash_child.py URL`` with ``QIPAI_CRASH_STEP`` set to a settlement step
(``transaction``, ``entries``, ``balances``, ``hand``, ``stats``) or ``after``: settles
``h1`` normally, then settles ``h2`` and kills itself at that step (``after``: once the
settlement has committed).  Hands ``h3`` and ``h4`` stay in play, as at any crash.  It
prints ``settled h1`` before the crash; an exit without being killed is a failure.
"""

from __future__ import annotations

import os
import signal
import sys

from store_kit import outcome

from qipai.store import Store

STEP_VARIABLE = "QIPAI_CRASH_STEP"
"""The environment variable that chooses where the child dies."""
H1 = outcome("h1", [38, -20, -20], rake=[2, 0, 0])
H2 = outcome("h2", [-30, 30, 0])
"""The two settlements the child makes (the test checks the balances they give)."""


def die(step: str) -> None:
    """The fault hook: SIGKILL at the chosen step, as an operator's ``kill -9`` would."""
    if step == os.environ[STEP_VARIABLE]:
        os.kill(os.getpid(), signal.SIGKILL)


def main(url: str) -> int:
    """Settle h1, then die while (or just after) settling h2."""
    store = Store.open(url)
    store.settle_hand(H1)
    print("settled h1", flush=True)
    store.settle_hand(H2, fault=die)
    die("after")
    return 3  # not reached: the step was not one of the settlement's


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
