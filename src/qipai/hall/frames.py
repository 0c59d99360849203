"""The frames the server sends: one closed, typed union, :data:`OutFrame`.

Each frame is a :class:`msgspec.Struct` tagged with its ``type`` (the tag is written first,
then the fields in the order declared here: the order on the wire).  A field that a frame
carries only sometimes is :data:`~msgspec.UNSET` otherwise, and then absent from the JSON;
``None`` is written as ``null``.  The games' views, events and records inside frames stay
plain JSON values (:data:`~qipai.jsontypes.Json`).  ``docs/protocol.md`` documents every
frame of the union, field by field (``tests/test_protocol_docs.py`` checks it).

Frames are built by the hall's core and the server's edge, carried as structs, and turned
into bytes only at the edge (:func:`encode_frame`); a frame that crosses to another node
or waits in Redis travels as a JSON object (:func:`to_json`) and is read back with
:func:`from_json`.

>>> encode_frame(Queued(room="lobby-1"))
b'{"type":"queued","room":"lobby-1"}'
>>> encode_frame(Error(code="not_your_turn", message="wait", id=7))
b'{"type":"error","code":"not_your_turn","message":"wait","id":7}'
>>> from_json(to_json(Left(room="r"))) == Left(room="r")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

if TYPE_CHECKING:
    from qipai.jsontypes import Json as JsonValue
else:  # msgspec cannot read the recursive alias: any JSON value, unchecked, at run time
    JsonValue = object

T = TypeVar("T")

Number: TypeAlias = int | float
"""A number kept as it was built (an int stays an int when a frame is read back)."""


class _Frame(msgspec.Struct, tag_field="type", kw_only=True):
    """What every frame shares: its ``type`` tag first on the wire."""


# --- the connection's own -------------------------------------------------------------


class RateLimits(msgspec.Struct):
    """A connection's rate limit: ``rate`` messages a second on average, ``burst`` at once."""

    rate: Number
    burst: Number


class Welcome(_Frame, tag="welcome"):
    """The answer to a good ``hello``."""

    protocol: str
    user: int
    name: str
    coins: int
    limits: RateLimits | UnsetType = UNSET


class Ack(_Frame, tag="ack"):
    """The client's message ``id`` was applied."""

    id: int


class Error(_Frame, tag="error"):
    """A refused message: its stable ``code``; nothing changed."""

    code: str
    message: str
    id: int | UnsetType = UNSET
    retry_after: Number | UnsetType = UNSET
    watch: bool | UnsetType = UNSET
    cause: str | UnsetType = UNSET


class Pong(_Frame, tag="pong"):
    """The answer to ``ping``."""

    t: Number


# --- rooms ------------------------------------------------------------------------------


class Queued(_Frame, tag="queued"):
    """Waiting for a table in ``room``."""

    room: str


class Leaving(_Frame, tag="leaving"):
    """Leaving ``room`` once the current hand is over."""

    room: str


class Left(_Frame, tag="left"):
    """Out of ``room`` (``reason`` ``restart``: the node that held the player stopped)."""

    room: str
    reason: str | UnsetType = UNSET


# --- a table ----------------------------------------------------------------------------


class SeatPlayer(msgspec.Struct):
    """Who sits at one seat, as every seat sees it."""

    name: str
    bot: bool
    trustee: bool
    connected: bool
    escaped: bool


class Snapshot(_Frame, tag="snapshot"):
    """A seat's whole view of its table after event ``n`` (``seat`` ``None``: a
    spectator's, with the game's spectator view)."""

    table: int
    n: int
    seat: int | None
    room: str
    hand: str | None
    commitment: str | None
    players: list[SeatPlayer]
    view: JsonValue
    deadline: Number | None
    entropy_deadline: Number | None


class HandStart(_Frame, tag="hand_start"):
    """A hand begins (its entropy window open until ``entropy_deadline``)."""

    table: int
    n: int
    room: str
    hand: str | None
    hand_number: int
    commitment: str | None
    entropy_deadline: Number | None
    players: list[SeatPlayer]


class Event(_Frame, tag="event"):
    """Event ``n`` of the table: ``event``, or ``hidden`` for a seat that may not see it."""

    table: int
    n: int
    event: JsonValue | UnsetType = UNSET
    hidden: bool | UnsetType = UNSET


class Turn(_Frame, tag="turn"):
    """Who acts and until when; ``legal`` for the seats that decide now, ``options`` for
    those that may act out of turn, ``deciding`` while several choose at once."""

    table: int
    n: int
    seat: int | None
    deadline: Number | None
    players: list[SeatPlayer]
    deciding: list[int] | UnsetType = UNSET
    legal: list[str] | UnsetType = UNSET
    options: list[str] | UnsetType = UNSET


class HandOver(_Frame, tag="hand_over"):
    """The hand settled: each seat's coins, the seed revealed, the record; ``cards`` and
    ``explain`` unless it was voided."""

    table: int
    n: int
    hand: str
    result: list[int]
    points: list[int]
    rake: list[int]
    fees: list[int]
    limited: list[int]
    coins: list[int]
    winners: list[int]
    escaper: int | None
    voided: bool
    seed: str
    record: JsonValue
    cards: JsonValue | UnsetType = UNSET
    explain: JsonValue | UnsetType = UNSET


class EscapeCost(_Frame, tag="escape_cost"):
    """What leaving the hand now would cost, at most and at least (all ``None`` where 托管
    plays the seat to the end)."""

    table: int
    points: int | None
    coins: int | None
    least_points: int | None
    least_coins: int | None


class HandVoided(_Frame, tag="hand_voided"):
    """Hand ``hand`` at ``table`` is void, no coin moved (``message``: an operator's
    reason, when he closed the table)."""

    hand: str
    table: int
    reason: str
    message: str | UnsetType = UNSET


class Chat(_Frame, tag="chat"):
    """``seat`` at ``table`` said ``phrase`` (quick chat)."""

    table: int
    seat: int
    phrase: str


# --- spectators 观战 ----------------------------------------------------------------------


class SpectatorCount(_Frame, tag="spectator_count"):
    """``count`` spectators watch ``table`` now (to its players and its spectators)."""

    table: int
    count: int


class SpectateEnded(_Frame, tag="spectate_ended"):
    """The receiver no longer watches ``table``: ``reason`` is ``stopped`` (he asked),
    ``moved`` (he went elsewhere: a room, a table, another table to watch),
    ``table_closed``, ``following`` (the cash table closed, he waits for the next table
    of the player he watched by name) or ``player_left`` (that player left the cash
    rooms); ``table`` ``None``: he waited for a private table's next hand (it had no
    live table then)."""

    table: int | None
    reason: str


# --- matches ----------------------------------------------------------------------------


class MatchStarted(_Frame, tag="match_started"):
    """Run ``run`` of ``match`` starts."""

    match: str
    run: str


class MatchUpdate(_Frame, tag="match_update"):
    """Where the run stands, and the player's ``rank`` and ``score`` in it."""

    match: str
    run: str
    state: str
    stage: int | None
    stage_name: str | None
    stage_kind: str | None
    base: int | None
    line: Number | None
    round: int | None
    players_left: int
    hands: int
    rank: int | None
    score: Number
    hand_base: int | None = None
    """The base the player's hand that just ended was scored at (the update after a
    hand); ``None`` in any other update.  ``base`` is the stage's now, for the next hand:
    the schedule may have raised it while this hand was played."""


class MatchAdvanced(_Frame, tag="match_advanced"):
    """The player goes on to ``stage``."""

    match: str
    run: str
    stage: int


class MatchEliminated(_Frame, tag="match_eliminated"):
    """The player is out at ``stage``, with his final ``rank``."""

    match: str
    run: str
    stage: int
    rank: int


class MatchOver(_Frame, tag="match_over"):
    """The run ended: the player's rank, score and prize, the top of the standings."""

    match: str
    run: str
    rank: int | None
    score: Number | None
    prize: int
    standings: list[JsonValue]


class MatchCancelled(_Frame, tag="match_cancelled"):
    """The run was cancelled (``reason``), ``refunded`` the fee."""

    match: str
    run: str
    reason: str
    refunded: int


# --- a private table 好友房 --------------------------------------------------------------


class PrivateSeat(msgspec.Struct):
    """Who holds one seat of a private table."""

    name: str
    ready: bool
    bot: bool
    connected: bool


class PrivateTable(_Frame, tag="private_table", kw_only=True):
    """A private table as it is now: its options, its seats, where it is; ``you``: the
    receiver's seat (``null``: a spectator).  ``code`` and ``link`` go to the people
    seated there only; ``room`` (``private:<id>``, an opaque id) is the room id of its
    live tables' frames, for everyone."""

    code: str | UnsetType = UNSET
    link: str | UnsetType = UNSET
    room: str
    owner: int | None
    game: str
    rules: str
    hands: int
    played: int
    stakes: str
    base: int
    seconds: Number
    bots: bool
    spectators: bool
    tasks: bool
    delay: int
    state: str
    closing: bool
    table: int | None
    seats: list[PrivateSeat | None]
    you: int | None


class ScoreRow(msgspec.Struct):
    """One hand of a private table: its id, its number at the table, points per seat."""

    hand: str
    number: int
    points: list[int]


class Scoreboard(_Frame, tag="scoreboard", kw_only=True):
    """总成绩: a private table's hands so far, and each seat's total; ``over``: the last;
    ``code`` for the people seated there only (never to a spectator)."""

    code: str | UnsetType = UNSET
    table: int | None
    names: list[str]
    rows: list[ScoreRow]
    totals: list[int]
    over: bool


# --- friends 好友 ------------------------------------------------------------------------


class Invite(_Frame, tag="invite"):
    """A friend invites the receiver to his private table 好友房: the inviter's ``name``,
    the table's ``code`` (a ``private_join`` with it takes a seat), its ``game`` and the
    game's ``title``."""

    name: str
    code: str
    game: str
    title: str


OutFrame: TypeAlias = (
    Welcome
    | Ack
    | Error
    | Pong
    | Queued
    | Leaving
    | Left
    | Snapshot
    | HandStart
    | Event
    | Turn
    | HandOver
    | EscapeCost
    | HandVoided
    | Chat
    | SpectatorCount
    | SpectateEnded
    | MatchStarted
    | MatchUpdate
    | MatchAdvanced
    | MatchEliminated
    | MatchOver
    | MatchCancelled
    | PrivateTable
    | Scoreboard
    | Invite
)
"""Every frame the server sends."""

_ENCODER = msgspec.json.Encoder()


def encode_frame(frames: OutFrame | Sequence[OutFrame]) -> bytes:
    """A frame, or an array of frames, as JSON (UTF-8 kept, no spaces): what the socket
    sends."""
    return _ENCODER.encode(frames)


def to_json(frame: OutFrame) -> dict[str, JsonValue]:
    """``frame`` as a JSON object (to cross to another node, or to wait in Redis)."""
    value: dict[str, JsonValue] = msgspec.to_builtins(frame)
    return value


def from_json(value: object) -> OutFrame:
    """The frame a JSON object of :func:`to_json` holds.

    :raises msgspec.ValidationError: it is no frame of :data:`OutFrame`.
    """
    frame: OutFrame = msgspec.convert(value, OutFrame)
    return frame


def unset_if_none(value: T | None) -> T | UnsetType:
    """``value``, or :data:`~msgspec.UNSET` (the field left out) for ``None``."""
    return UNSET if value is None else value
