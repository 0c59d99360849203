"""The synchronous store, run in worker threads so that the event loop never waits on I/O."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

from qipai.store import Store

T = TypeVar("T")
P = ParamSpec("P")


class Database:
    """Runs the synchronous store in worker threads, so the event loop never waits on I/O.

    SQLite gets one thread (one writer at a time anyway); PostgreSQL a few.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        threads = 1 if store.dialect == "sqlite" else 4
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qipai-db")

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args, **kwargs)`` in a database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, partial(function, *args, **kwargs))

    def close(self) -> None:
        """Finish the queued calls and stop the threads."""
        self._pool.shutdown(wait=True)
