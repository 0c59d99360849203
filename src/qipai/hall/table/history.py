"""A table's frame history (:class:`~qipai.hall.table.table.Table`): its numbered events and
the public frames sent among them, kept for the catch-up frames of a seat back after
a drop (:meth:`~qipai.hall.table.table.Table.frames_since`).

Events are numbered per table, from 1, over all its hands.  The last
:data:`HISTORY_LIMIT` entries (events and the public ``hand_start`` / ``hand_over``
frames) are kept.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from qipai.games.events import Event as GameEvent
from qipai.hall.frames import Event, OutFrame
from qipai.hall.wire import event_json
from qipai.jsontypes import Json

HISTORY_LIMIT = 1024
"""Entries (events, ``hand_start`` and ``hand_over`` frames) kept for reconnection: more
than any hand produces, so a player who drops during a hand can always be replayed to."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One history entry: a numbered event, or a public frame sent after event ``n``."""

    n: int
    event: GameEvent | None = None
    data: dict[str, Json] = field(default_factory=dict)
    frame: OutFrame | None = None


def event_frame(table: int, entry: HistoryEntry, seat: int) -> Event:
    """Table ``table``'s frame of the event ``entry`` for ``seat``: the event if it is
    visible to him, else its placeholder (``hidden``)."""
    if entry.event is not None and entry.event.visible_to(seat):
        return Event(table=table, n=entry.n, event=entry.data)
    return Event(table=table, n=entry.n, hidden=True)


class FrameHistory:
    """The numbered events of a table and its public frames, the last
    :data:`HISTORY_LIMIT` of them kept."""

    def __init__(self) -> None:
        self.n = 0
        """The number of the table's last event (0 before any)."""
        self.published = 0
        """The current hand's events numbered so far."""
        self.evicted = 0
        """The number of the last event no longer kept (0: none)."""
        self._entries: deque[HistoryEntry] = deque(maxlen=HISTORY_LIMIT)

    def new_hand(self) -> None:
        """A new hand starts: its events are numbered from its first."""
        self.published = 0

    def remember(self, entry: HistoryEntry) -> None:
        """Keep ``entry``, the oldest entry making way once the history is full."""
        entries = self._entries
        if len(entries) == entries.maxlen and entries[0].event is not None:
            self.evicted = entries[0].n
        entries.append(entry)

    def public(self, frame: OutFrame) -> None:
        """Keep ``frame``, a public frame sent after the last event."""
        self.remember(HistoryEntry(self.n, frame=frame))

    def number(self, events: Sequence[GameEvent]) -> list[HistoryEntry]:
        """Number and keep the hand's ``events`` not numbered yet; the new entries."""
        new = []
        for event in events[self.published :]:
            self.n += 1
            new.append(HistoryEntry(self.n, event, event_json(event)))
            self.remember(new[-1])
        self.published = len(events)
        return new

    def since(self, n: int, frame_of: Callable[[HistoryEntry], Event]) -> list[OutFrame] | None:
        """The frames after event ``n``: each later event's (``frame_of`` it) and the
        public frames sent from then on, in order; ``None`` when ``n`` is not a number
        reached or is older than the history."""
        if not self.evicted <= n <= self.n:
            return None
        frames: list[OutFrame] = []
        for entry in self._entries:
            if entry.event is not None and entry.n > n:
                frames.append(frame_of(entry))
            elif entry.frame is not None and entry.n >= n:
                frames.append(entry.frame)
        return frames
