"""Where a person is: the one place the hall lets each person hold.

A person is in at most one of these at a time (``docs/security.md``, "One place per
person"):

- ``room``: a cash room, waiting in its queue or seated at one of its tables;
- ``private``: a private table 好友房, waiting for its next hand or playing one;
- ``match``: a match, registered in its open run or playing in it (its tables included);
- ``watching``: a table watched 观战 (or a private table watched by its code, waiting).

The core computes a person's place from its wings (:meth:`HallCore.place_of
<qipai.hall.core.HallCore.place_of>`) and every command that gives him a new place (a
``join``, a private table's ``create``/``join``, a match registration, ``spectate``)
checks it first with :func:`check_free`.  Watching is the one place given up by itself:
taking a seat or a registration ends the watch, and watching another table moves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from qipai.errors import IllegalActionError


class PlaceKind(StrEnum):
    """The kinds of place a person can be in."""

    ROOM = "room"
    PRIVATE = "private"
    MATCH = "match"
    WATCHING = "watching"


@dataclass(frozen=True, slots=True)
class Place:
    """A person's place: its kind and which one (a room's id, a private table's code, a
    match run's id, the watched table's number or private code)."""

    kind: PlaceKind
    name: str

    @property
    def is_seat(self) -> bool:
        """Whether it holds him (everything but watching, which he leaves to sit)."""
        return self.kind is not PlaceKind.WATCHING

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


def check_free(place: Place | None, *, same: Place | None = None) -> None:
    """Refuse a new place to a person whose place is ``place`` (``None``: none): he may
    take one while he has none or only watches; ``same`` is a place whose own command
    answers a repeat itself (a registration in the run he is registered in).

    :raises IllegalActionError: ``in_match`` (registered in or playing a match),
        ``already_in_room`` (a cash room or a private table).
    """
    if place is None or not place.is_seat or place == same:
        return
    if place.kind is PlaceKind.MATCH:
        raise IllegalActionError("in_match", f"in match run {place.name}: play it first")
    raise IllegalActionError("already_in_room", f"already in {place}")
