"""What the property-based fuzzers share: the error codes the protocol documents, JSON
values of every shape, and a watch on the hall's log for tracebacks."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_codes() -> frozenset[str]:
    """Every error code ``docs/protocol.md`` names: the snake_case words in backticks."""
    text = PROTOCOL.read_text(encoding="utf-8")
    return frozenset(re.findall(r"`([a-z]+(?:_[a-z]+)+|[a-z]+)`", text))


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value: nulls, booleans, integers of any size, floats, strings of any
    unicode (lone surrogates included), lists and objects nested."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(st.characters(codec=None), max_size=40)
    )
    def nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)

    return st.recursive(scalars, nested, max_leaves=max_leaves)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def hall_log() -> Iterator[list[logging.LogRecord]]:
    """Every record logged in the process while the block runs (the hall runs in a thread
    of it).  uvicorn's loggers do not propagate to the root: they are listened to on their
    own."""
    handler = _Records()
    loggers = [logging.getLogger(), logging.getLogger("uvicorn")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def problems(records: list[logging.LogRecord]) -> list[str]:
    """The records that carry an exception, or are errors."""
    return [
        f"{record.name}: {record.getMessage()}"
        for record in records
        if record.exc_info or record.levelno >= logging.ERROR or "Traceback" in record.getMessage()
    ]


@contextlib.contextmanager
def tracebacks() -> Iterator[list[str]]:
    """:func:`problems` of what is logged while the block runs; the list is filled on exit."""
    found: list[str] = []
    with hall_log() as records:
        yield found
    found += problems(records)
