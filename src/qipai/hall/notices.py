"""The live hall's own frames to a player (beside a table's: :mod:`qipai.hall.table.table`):
where he waits, why he was refused or his hand voided, what escaping would cost."""

from __future__ import annotations

from qipai.hall import frames
from qipai.hall.frames import unset_if_none
from qipai.registry import EscapeCost


def queued(room: str) -> frames.Queued:
    """He waits in ``room``'s queue."""
    return frames.Queued(room=room)


def leaving(room: str) -> frames.Leaving:
    """He leaves ``room`` once his hand is over."""
    return frames.Leaving(room=room)


def left(room: str, reason: str | None = None) -> frames.Left:
    """He is out of ``room`` (``reason`` ``restart``: the node that held him stopped;
    none: he left)."""
    return frames.Left(room=room, reason=unset_if_none(reason))


def error(code: str, message: str, message_id: int | None = None) -> frames.Error:
    """A refusal: its stable ``code``; nothing changed."""
    return frames.Error(code=code, message=message, id=unset_if_none(message_id))


def retry_later(
    code: str, message: str, retry_after: float, message_id: int | None = None
) -> frames.Error:
    """A refusal that says when to try again: ``retry_after`` seconds."""
    return frames.Error(
        code=code, message=message, id=unset_if_none(message_id), retry_after=retry_after
    )


def chat_too_fast(retry_after: float, message_id: int | None = None) -> frames.Error:
    """A quick-chat message refused for the chat's own rate (:mod:`qipai.hall.chat`):
    nothing was said; the next may go in ``retry_after`` seconds."""
    text = f"chatting too fast: wait {retry_after:g} s"
    return retry_later("chat_too_fast", text, retry_after, message_id)


def voided(
    hand_id: str, table: int, reason: str, message: str | None = None
) -> frames.HandVoided:
    """His hand was voided: cancelled, no coin moved (the stakes are only taken at
    settlement); ``reason`` ``restart`` (the hall stopped during the hand),
    ``table_failed``, or ``closed`` (an operator closed the table, saying ``message``)."""
    if message is None:
        return frames.HandVoided(hand=hand_id, table=table, reason=reason)
    return frames.HandVoided(hand=hand_id, table=table, reason=reason, message=message)


def escape_cost(table: int, cost: tuple[EscapeCost, EscapeCost] | None) -> frames.EscapeCost:
    """What leaving his hand now would cost: at most ``points`` and ``coins``, at least the
    ``least_`` ones; all null where 托管 would play his seat to the end."""
    points, coins = (None, None) if cost is None else cost
    return frames.EscapeCost(
        table=table,
        points=None if points is None else points.most,
        coins=None if coins is None else coins.most,
        least_points=None if points is None else points.least,
        least_coins=None if coins is None else coins.least,
    )
