"""Spectators 观战 under load, for ``qipai loadtest --private --spectators N``.

A spectator signs in as a guest, sends ``spectate`` with a private table's code and reads
its frames until the table's final ``scoreboard`` (or ``spectate_ended``).  He counts his
frames and the hands he saw end (``hand_over``), and checks, cheaply, that no frame of his
holds a card a player holds unseen (:func:`leaks`):

- a ``snapshot`` is a spectator's: ``seat`` null, its view's ``seat`` -1, no ``hand`` of
  cards and no ``legal_actions``;
- a ``turn`` carries no ``legal`` and no ``options``;
- an ``event`` that the table's owner got as ``hidden`` (a card dealt to another seat) is
  hidden from him too: the owner's hidden events are compared with the spectator's shown
  ones once the table has closed (:func:`shown_but_hidden`).
"""

from __future__ import annotations

import asyncio
import statistics
from dataclasses import dataclass, field

from qipai.client.connection import HallClient, JsonFrame
from qipai.jsontypes import json_int

EventKey = tuple[int, int]
"""An event of a table: (table, n)."""


@dataclass
class WatchStats:
    """One spectator's frames."""

    frames: int = 0
    hands: int = 0
    """``hand_over`` frames he got."""
    shown: set[EventKey] = field(default_factory=set)
    """The events he got in the clear."""
    errors: list[str] = field(default_factory=list)

    def per_hand(self) -> float | None:
        """His frames per hand seen (``None``: he saw no hand end)."""
        return self.frames / self.hands if self.hands else None


def leaks(frame: JsonFrame) -> bool:
    """Whether a spectator's ``frame`` shows what only a seat may see (see the module)."""
    kind = frame.get("type")
    if kind == "snapshot":
        view = frame.get("view")
        if frame.get("seat") is not None or not isinstance(view, dict):
            return True
        return (
            view.get("seat", -1) != -1 or bool(view.get("hand")) or bool(view.get("legal_actions"))
        )
    if kind == "turn":
        return "legal" in frame or "options" in frame
    return False


def hidden_event(frame: JsonFrame) -> EventKey | None:
    """``(table, n)`` of an ``event`` frame sent as ``hidden``, else ``None``."""
    if frame.get("type") == "event" and frame.get("hidden"):
        return _event_key(frame)
    return None


def _event_key(frame: JsonFrame) -> EventKey:
    """``(table, n)`` of an event frame."""
    return json_int(frame["table"]), json_int(frame["n"])


def shown_but_hidden(watchers: list[WatchStats], hidden: set[EventKey]) -> int:
    """How many events a spectator got in the clear that the owner got ``hidden``."""
    return sum(len(w.shown & hidden) for w in watchers)


async def watch(hall: HallClient, code: str, timeout: float) -> WatchStats:
    """Spectate table ``code`` until it closes (at most ``timeout`` seconds)."""
    stats = WatchStats()
    session = await hall.guest()
    async with hall.connect(session.token) as conn, asyncio.timeout(timeout):
        await conn.send({"type": "spectate", "id": 1, "code": code})
        async for frame in conn:
            if _count(frame, stats):
                return stats
    return stats


def _count(frame: JsonFrame, stats: WatchStats) -> bool:
    """Count one frame; whether the watching is over."""
    stats.frames += 1
    kind = frame.get("type")
    if leaks(frame):
        stats.errors.append(f"spectator frame {kind} shows a hidden card")
    if kind == "event" and not frame.get("hidden"):
        stats.shown.add(_event_key(frame))
    elif kind == "hand_over":
        stats.hands += 1
    elif kind == "error":
        stats.errors.append(f"spectate: {frame.get('code')}")
        return True
    return kind == "spectate_ended" or (kind == "scoreboard" and bool(frame.get("over")))


def summary(watchers: list[WatchStats]) -> dict[str, object]:
    """Frames per spectator per hand: median and max over the spectators who saw a hand."""
    rates = [r for r in (w.per_hand() for w in watchers) if r is not None]
    if not rates:
        return {"median": None, "max": None}
    return {"median": round(statistics.median(rates), 1), "max": round(max(rates), 1)}
