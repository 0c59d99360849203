"""What several test folders read from JSON values (the frames, views and events the hall
sends): every string inside one."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, overload

from qipai.hall.frames import OutFrame, encode_frame


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


Wire = dict[str, Any]
"""A frame as it goes on the wire: a JSON object."""


def wire(frame: OutFrame) -> Wire:
    """``frame`` as the socket sends it, read back as JSON."""
    value: Wire = json.loads(encode_frame(frame))
    return value


@overload
def wires(frames: Iterable[OutFrame]) -> list[Wire]: ...
@overload
def wires(frames: None) -> None: ...
def wires(frames: Iterable[OutFrame] | None) -> list[Wire] | None:
    """:func:`wire` of each frame (``None`` stays ``None``)."""
    return None if frames is None else [wire(frame) for frame in frames]
