"""A hall process that dies by SIGKILL in the middle of a match run's payout (run by
test_store_matches).

``python store_match_crash_child.py URL`` with ``QIPAI_CRASH_STEP`` set to a step of
:data:`qipai.store.matches.STEPS` or ``after``: finishes the running run ``r1`` with
:data:`PRIZES` and kills itself at that step (``after``: once the payout has committed).
The run ``r2`` stays registering, as at any crash.  It prints ``finishing r1`` first; an
exit without being killed is a failure.
"""

from __future__ import annotations

import sys

from store_crash_child import die
from store_kit import NOW

from qipai.store import Store

PRIZES = {1: 400, 2: 100}
"""The prizes of ``r1``, by user id: 500 from a pool of 300 (the house guarantees 200)."""


def main(url: str) -> int:
    """Finish r1, dying at the chosen step (or just after)."""
    store = Store.open(url)
    print("finishing r1", flush=True)
    store.finish_match_run("r1", PRIZES, '{"run":"r1"}', NOW, fault=die)
    die("after")
    return 3  # not reached: the step was not one of the payout's


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
