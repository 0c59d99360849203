"""What every game's events share: an event is public unless it says otherwise.

Each game subclasses :class:`Event` once (its own base, so a game's event log is typed by
game) and overrides :meth:`Event.visible_to` in the events some seats may not see.
"""

from __future__ import annotations


class Event:
    """Base of every game's events (never instantiated itself)."""

    __slots__ = ()

    def visible_to(self, seat: int) -> bool:
        """Whether ``seat`` may see this event (public events: always)."""
        del seat
        return True
