"""The WebSocket protocol: the closed set of messages a client may send, parsed at the edge.

Every client message is one JSON object with a ``type``; :func:`parse` turns the raw text
into exactly one of the :data:`ClientMessage` structs or raises
:class:`~qipai.errors.InvalidActionError` (``too_large``, ``bad_json``, ``bad_message``).
Nothing past this module ever sees unparsed input.  Messages the server sends are plain
JSON objects built by the tables (frames, see :mod:`qipai.hall.table.table`) and by
:func:`ack`, :func:`error` and friends here.  ``docs/protocol.md`` is the client authors'
reference.

>>> parse('{"type": "act", "id": 7, "action": "play 33"}')
Act(id=7, action='play 33', table=None)
>>> parse('{"type": "act", "action": 3}')
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_message: Expected `str`, got `int` - at `$.action`

A refusal says what is wrong, in words a client author can act on:

>>> parse('{"type": "act", "id": 1, "action": "\\\\ud800"}')
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_json: a string holds a lone surrogate (invalid Unicode)
>>> parse('{"type": "act", "id": 1, "action": "pla')
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_json: the JSON text ends too soon (truncated)
>>> parse('{"type": "deal"}')
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_message: unknown message type 'deal' (one of hello, ...)
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import NoReturn

import msgspec
from msgspec import UNSET

from qipai.errors import InvalidActionError
from qipai.hall import frames
from qipai.hall.frames import OutFrame
from qipai.hall.notices import chat_too_fast, error, left, retry_later

__all__ = ["chat_too_fast", "error", "left", "retry_later"]

MAX_MESSAGE_BYTES = 4096
"""The largest client message accepted (bytes of UTF-8); larger ones are refused unread."""
PROTOCOL = "qipai/1"
"""The protocol's name and version, sent in :func:`welcome`."""
COULD_NOT = "the hall could not do it now: try again"
"""The text of ``server_error``: a message the hall failed to do (its database down…),
on whichever node holds the player."""


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    """First message of a connection: who I am and, when coming back, what I last saw.

    ``last`` maps a table number (as text, JSON keys being strings) to the number of the
    last event received from it; the server replays what was missed or sends a snapshot.
    """

    token: str
    last: dict[str, int] = {}


class Join(msgspec.Struct, tag="join", forbid_unknown_fields=True):
    """Wait for a seat in a room (自动撮合); ``once``: for one hand, out of the room after
    it (in a room that regroups; a table that plays on keeps him)."""

    room: str
    once: bool = False


class Leave(msgspec.Struct, tag="leave", forbid_unknown_fields=True):
    """Stop waiting, or leave the room once the current hand is over."""


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    """An action in the hand, in the game's text form (``play 33``, ``bid 3``, ``fold``).

    ``id`` is the client's own number for the message; the answer (``ack`` or ``error``)
    carries it back.  ``table``, when given, is the table the action was meant for: an
    action that arrives after its table's hand ended is refused (``stale_table``) instead
    of landing in the player's next hand.
    """

    id: int
    action: str
    table: int | None = None


class Entropy(msgspec.Struct, tag="entropy", forbid_unknown_fields=True):
    """My entropy for hand ``hand`` at table ``table``: ``value``, 16 to 64 random bytes in
    hex digits, mixed into the hand's seed (``docs/records.md``).  Sent once per hand, on
    its ``hand_start`` (or a snapshot whose ``entropy_deadline`` is set).

    ``id``, when given, is answered by ``ack`` (the contribution is in) or ``error``; without
    it only an ``error`` answers.
    """

    table: int
    hand: str
    value: str
    id: int | None = None


class TrusteeSwitch(msgspec.Struct, tag="trustee", forbid_unknown_fields=True):
    """托管 on (``true``) or 解除托管 (``false``)."""

    on: bool
    id: int = 0


class EscapeRequest(msgspec.Struct, tag="escape", forbid_unknown_fields=True):
    """Leave the hand on purpose (逃跑): the preset's penalty applies."""

    id: int = 0


class EscapeCost(msgspec.Struct, tag="escape_cost", forbid_unknown_fields=True):
    """How much leaving my hand now would cost (逃跑 asks before it leaves): answered by
    an ``escape_cost`` frame."""


class Resync(msgspec.Struct, tag="resync", forbid_unknown_fields=True):
    """Ask for a full snapshot of my table (after a gap in the event numbers)."""


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    """Heartbeat; answered by ``pong`` with the same ``t``."""

    t: float = 0.0


class Chat(msgspec.Struct, tag="chat", forbid_unknown_fields=True):
    """Quick chat 快捷聊天: say one of the fixed phrases or emoji (its id,
    :mod:`qipai.hall.chat`) to everyone at my table.  ``id``, when given, is answered by
    ``ack``."""

    phrase: str
    id: int | None = None


class PrivateCreate(msgspec.Struct, tag="private_create", forbid_unknown_fields=True):
    """Create a private table 好友房 (``docs/protocol.md``: every option)."""

    id: int
    game: str
    rules: str
    hands: int = 6
    stakes: str = "points"
    base: int | None = None
    seconds: int | None = None
    bots: bool = True
    spectators: bool = True
    tasks: bool = False
    delay: int = 0


class PrivateJoin(msgspec.Struct, tag="private_join", forbid_unknown_fields=True):
    """Sit at private table ``code``."""

    id: int
    code: str


class Ready(msgspec.Struct, tag="ready", forbid_unknown_fields=True):
    """准备 (or not) at my private table."""

    id: int = 0
    ready: bool = True


class PrivateStart(msgspec.Struct, tag="private_start", forbid_unknown_fields=True):
    """The owner starts his private table, bots in its empty seats."""

    id: int = 0


class PrivateKick(msgspec.Struct, tag="private_kick", forbid_unknown_fields=True):
    """The owner removes the person at ``seat`` before the first hand."""

    seat: int
    id: int = 0


class PrivateClose(msgspec.Struct, tag="private_close", forbid_unknown_fields=True):
    """The owner closes his private table."""

    id: int = 0
# --- spectators 观战 (issue 26) -------------------------------------------------------------


class Spectate(msgspec.Struct, tag="spectate", forbid_unknown_fields=True):
    """Watch a table (观战): the private table of ``code``, or the table the player named
    ``player`` sits at (exactly one of the two).  A ``snapshot`` with ``seat`` ``null``,
    ``ack``, then the table's frames as a spectator sees them."""

    id: int | None = None
    code: str | None = None
    player: str | None = None


class StopSpectating(msgspec.Struct, tag="stop_spectating", forbid_unknown_fields=True):
    """Stop watching: ``spectate_ended`` (``stopped``)."""

    id: int | None = None


class WatchByName(msgspec.Struct, tag="watch_by_name", forbid_unknown_fields=True):
    """Whether others may watch my table by my name (``spectate`` with ``player``):
    ``allow`` ``true`` or ``false``, ``null`` for the default (yes at a cash room's or a
    match's table, no at a private table)."""

    allow: bool | None
    id: int | None = None


ClientMessage = (
    Hello
    | Join
    | Leave
    | Act
    | Entropy
    | TrusteeSwitch
    | EscapeRequest
    | EscapeCost
    | Resync
    | Ping
    | Chat
    | PrivateCreate
    | PrivateJoin
    | Ready
    | PrivateStart
    | PrivateKick
    | PrivateClose
    | Spectate
    | StopSpectating
    | WatchByName
)
"""Everything a client may send."""

_DECODER = msgspec.json.Decoder(ClientMessage)


TYPES = (
    "hello",
    "join",
    "leave",
    "act",
    "entropy",
    "trustee",
    "escape",
    "escape_cost",
    "resync",
    "ping",
    "chat",
    "private_create",
    "private_join",
    "ready",
    "private_start",
    "private_kick",
    "private_close",
    "spectate",
    "stop_spectating",
    "watch_by_name",
)
"""The ``type`` of each :data:`ClientMessage`, in the order of the union."""
LONE_SURROGATE = "a string holds a lone surrogate (invalid Unicode)"
"""The ``bad_json`` message for ``"\\ud800"`` and the like: JSON text must be Unicode."""


def parse(raw: str | bytes) -> ClientMessage:
    """One client message from its JSON text.

    :raises InvalidActionError: ``too_large`` over :data:`MAX_MESSAGE_BYTES`, ``bad_json``
        for text that is not JSON (empty, cut short, malformed, a lone surrogate),
        ``bad_message`` for JSON that is not one of the messages.
    """
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > MAX_MESSAGE_BYTES:
        raise InvalidActionError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        return _DECODER.decode(data)
    except msgspec.ValidationError as error:
        raise InvalidActionError("bad_message", _message_problem(str(error))) from None
    except msgspec.DecodeError as error:
        raise InvalidActionError("bad_json", _json_problem(data, str(error))) from None


_UNKNOWN_TYPE = re.compile(r"Invalid value (.*) - at `\$\.type`")


def _message_problem(found: str) -> str:
    """The decoder's complaint about valid JSON, with an unknown ``type`` named as such."""
    unknown = _UNKNOWN_TYPE.fullmatch(found)
    if unknown is None:
        return found
    return f"unknown message type {unknown[1]} (one of {', '.join(TYPES)})"


def _json_problem(data: bytes, found: str) -> str:
    """What is wrong with text that is not JSON, plainly: the decoder calls both a message
    cut short and a lone surrogate escape (``"\\ud800x"``) "truncated", and a raw lone
    surrogate "invalid UTF-8"."""
    if not data.strip():
        return "an empty message: send one JSON object"
    if "surrogate" in found:  # "invalid utf-16 surrogate pair (byte N)"
        return LONE_SURROGATE
    if found.startswith("Invalid UTF-8"):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return LONE_SURROGATE if _holds_surrogate(data) else "the text is not UTF-8"
    if found == "Input data was truncated":
        try:  # the standard library reads what msgspec stops at: a lone surrogate, if whole
            value = json.loads(data, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            return "the JSON text ends too soon (truncated)"
        return LONE_SURROGATE if _has_lone_surrogate(value) else found
    return found


def _holds_surrogate(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 but for surrogates encoded as such (CESU)."""
    try:
        data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return False
    return True


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _has_lone_surrogate(value: object) -> bool:
    """Whether a string of ``value`` (a key or a value, at any depth) holds a surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and any("\ud800" <= char <= "\udfff" for char in item):
            return True
    return False


def welcome(
    user: int, name: str, coins: int, *, rate: float | None = None, burst: float | None = None
) -> frames.Welcome:
    """The answer to a good ``hello``; with the connection's rate limit (``limits``: messages
    a second on average, at once), when given, so that a client can keep under it."""
    limits = frames.RateLimits(rate, burst) if rate is not None and burst is not None else UNSET
    return frames.Welcome(protocol=PROTOCOL, user=user, name=name, coins=coins, limits=limits)


def ack(message_id: int) -> frames.Ack:
    """An action was applied."""
    return frames.Ack(id=message_id)






def rate_limited(retry_after: float, message_id: int | None = None) -> frames.Error:
    """A message refused for the rate: send nothing more for ``retry_after`` seconds (what
    comes meanwhile is dropped unread, unanswered)."""
    text = f"too many messages: send nothing for {retry_after:g} s"
    return retry_later("rate_limited", text, retry_after, message_id)






def pong(t: float) -> frames.Pong:
    """The answer to ``ping``."""
    return frames.Pong(t=t)


def encode(frame: OutFrame | Sequence[OutFrame]) -> str:
    """A server frame, or an array of frames, as JSON text (UTF-8 kept, no spaces)."""
    return frames.encode_frame(frame).decode("utf-8")
