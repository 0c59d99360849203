"""What several test folders read from JSON values (the frames, views and events the hall
sends): every string inside one."""

from __future__ import annotations

from collections.abc import Iterator


def strings(value: object) -> Iterator[str]:
    """Every string inside a JSON value (a card is its notation, ``"As"``)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
