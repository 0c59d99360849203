"""A database that stops answering: one call of a hall's store failing for a block
(:func:`failing`, in-process tests)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from qipai.store import Store


@contextlib.contextmanager
def failing(store: Store, name: str, *, after: int = 0) -> Iterator[None]:
    """The store's call ``name`` fails for the block (the database down), after the first
    ``after`` calls."""
    working = getattr(store, name)
    calls = [0]

    def down(*args: object, **kwargs: object) -> Any:
        calls[0] += 1
        if calls[0] <= after:
            return working(*args, **kwargs)
        raise ConnectionError("the database does not answer")

    setattr(store, name, down)
    try:
        yield
    finally:
        store.__dict__.pop(name, None)
