"""Workers that misbehave, for the bot pool's tests (``tests/server/test_server_bots.py``).

They run in the pool's spawned processes, which import this module by name (the test
process's ``sys.path`` goes with them).  ``MARK`` names a file shared with the test: the
first decision that finds it missing creates it (with the worker's process id) and
misbehaves; every later one decides as the hall does.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from qipai.server.run.bots import BotRequest, decide

MARK = "QIPAI_TEST_BOT_MARK"
"""The environment variable naming the mark file."""


def _first() -> bool:
    """Whether this is the first decision since the mark was cleared (and mark it)."""
    mark = Path(os.environ[MARK])
    try:
        with mark.open("x") as file:
            file.write(str(os.getpid()))
    except FileExistsError:
        return False
    return True


def slow(request: BotRequest) -> object:
    """Every decision takes 1 s longer than the hall waits in these tests."""
    time.sleep(1.0)
    return decide(request)


def crash_once(request: BotRequest) -> object:
    """The first decision kills its worker; the others decide."""
    if _first():
        os._exit(1)
    return decide(request)


def hang_once(request: BotRequest) -> object:
    """The first decision never returns; the others decide."""
    if _first():
        time.sleep(3600)
    return decide(request)
