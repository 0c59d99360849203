"""A database whose calls can be held at a gate or made to fail, for the tests that
interleave the hall's steps with its writes (``test_server_match_sequence.py``,
``test_server_stop_writes.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from qipai.server.run.hall import Database
from qipai.store import Store

T = TypeVar("T")


class GatedDatabase(Database):
    """A :class:`Database` whose calls of the store functions named in :attr:`gated` wait
    for :attr:`gate` (the test opens it); :attr:`entered` is set when one waits there."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.gated: set[str] = set()
        self.gate = asyncio.Event()
        self.entered = asyncio.Event()
        self.failing: set[str] = set()
        """Store functions that fail (the database down) while named here."""

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        name = getattr(function, "__name__", "")
        if name in self.gated:
            self.entered.set()
            await self.gate.wait()
        if name in self.failing:
            raise ConnectionError(f"{name}: the database does not answer")
        return await super().run(function, *args, **kwargs)
