"""The message interface between tables and connections.

A table never touches a socket: it publishes each frame for a player to the :class:`Bus`,
and whatever connections that player has open (one per device) receive it.  The
in-process :class:`LocalBus` is the embedded default; a bus over Redis pub/sub can take its
place when several hall processes cooperate, without the tables changing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from qipai.hall.frames import OutFrame

Sink = Callable[[OutFrame], None]
"""Where a connection takes the frames of its player; must not block."""


class Bus(Protocol):
    """Delivers frames to players, wherever their connections are."""

    def publish(self, user: int, frame: OutFrame) -> None:
        """Send ``frame`` to every connection of ``user`` (none: dropped)."""
        ...

    def subscribe(self, user: int, sink: Sink) -> Callable[[], None]:
        """Receive ``user``'s frames in ``sink`` until the returned function is called."""
        ...

    def is_connected(self, user: int) -> bool:
        """Whether ``user`` has a connection open."""
        ...


class LocalBus:
    """The in-process bus: a set of sinks per player."""

    def __init__(self) -> None:
        self._sinks: dict[int, list[Sink]] = {}

    def publish(self, user: int, frame: OutFrame) -> None:
        """Call every sink of ``user`` with ``frame``."""
        for sink in tuple(self._sinks.get(user, ())):
            sink(frame)

    def subscribe(self, user: int, sink: Sink) -> Callable[[], None]:
        """Add ``sink`` for ``user``; the returned function removes it (idempotent)."""
        sinks = self._sinks.setdefault(user, [])
        sinks.append(sink)

        def unsubscribe() -> None:
            if sink in sinks:
                sinks.remove(sink)
            if not sinks and self._sinks.get(user) is sinks:
                del self._sinks[user]

        return unsubscribe

    def is_connected(self, user: int) -> bool:
        """Whether ``user`` has at least one sink."""
        return bool(self._sinks.get(user))
