"""What every game's events share: an event is public unless it says otherwise.

Each game subclasses :class:`Event` once (its own base, so a game's event log is typed by
game) and overrides :meth:`Event.visible_to` in the events some seats may not see.

Who sits at no seat, a spectator 观战, is :data:`SPECTATOR`: every game's ``view`` takes it
as a seat that holds no card, and ``visible_to(SPECTATOR)`` is ``True`` for public events
only (a private event names the one seat that may see it, never :data:`SPECTATOR`).
"""

from __future__ import annotations

SPECTATOR = -1
"""The seat of a spectator: no seat of the table.  ``State.view(SPECTATOR)`` is what
everyone may see (no card a player holds unseen), and ``event.visible_to(SPECTATOR)``
says whether a spectator may see an event (only the public ones)."""


def is_spectator(seat: object) -> bool:
    """Whether ``seat`` is :data:`SPECTATOR` (an ``int``: not ``-1.0``, not a boolean).

    >>> is_spectator(SPECTATOR), is_spectator(-1.0), is_spectator(0)
    (True, False, False)
    """
    return type(seat) is int and seat == SPECTATOR


class Event:
    """Base of every game's events (never instantiated itself)."""

    __slots__ = ()

    def visible_to(self, seat: int) -> bool:
        """Whether ``seat`` (or :data:`SPECTATOR`) may see this event (public events:
        always)."""
        del seat
        return True
