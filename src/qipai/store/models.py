"""The values the store takes and gives: frozen, checked when built.

A :class:`HandSettlement` that does not add up cannot even be built, so the ledger never
sees coins created or destroyed::

>>> from datetime import UTC, datetime
>>> HandSettlement("h1", net=(114, -60, -60), rake=(6, 0, 0), fees=(0, 0, 0),
...                points=(2, -1, -1), winners=(0,), record_json="{}",
...                ended_at=datetime(2026, 5, 10, tzinfo=UTC)).seats
3
>>> HandSettlement("h1", net=(100, -60, -60), rake=(0, 0, 0), fees=(0, 0, 0),
...                points=(0, 0, 0), winners=(0,), record_json="{}",
...                ended_at=datetime(2026, 5, 10, tzinfo=UTC))
Traceback (most recent call last):
qipai.errors.InvalidActionError: bad_settlement: net + rake + fees sum to -20, not 0
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from qipai.errors import InvalidActionError

LEADERBOARDS = ("coins", "wins", "points")
"""What a leaderboard may rank by."""
NAME_LENGTH = 64
"""The longest user name, hand id or room id the database holds."""
TOKEN_LENGTH = 128
"""The longest session token hash or grant key."""


def check_text(value: str, field: str, code: str, limit: int = NAME_LENGTH) -> None:
    """Refuse an empty text or one longer than its column.

    :raises InvalidActionError: ``code``.
    """
    if not value or len(value) > limit:
        raise InvalidActionError(code, f"{field} needs 1 to {limit} characters: {value!r}")


def check_aware(moment: datetime, field: str) -> None:
    """Refuse a naive datetime: the store keeps UTC and must know the zone.

    :raises InvalidActionError: ``naive_datetime``.
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidActionError("naive_datetime", f"{field} needs a time zone: {moment!r}")


@dataclass(frozen=True)
class User:
    """A registered player."""

    id: int
    """The user id."""
    name: str
    """The unique name."""
    password_hash: str
    """The slow salted hash of the password (the server makes and checks it)."""
    created_at: datetime
    """When the account was registered (aware, UTC)."""


@dataclass(frozen=True)
class Profile:
    """A player's public figures."""

    id: int
    """The user id."""
    name: str
    """The unique name."""
    coins: int
    """The balance of the player's ledger account."""
    points: int
    """Points won over all settled hands."""
    hands: int
    """Hands settled."""
    wins: int
    """Hands won (the seat was among the winners)."""


@dataclass(frozen=True)
class HandStart:
    """A hand as it is dealt: who sits where, and the commitment to its seed."""

    id: str
    """The hand id, unique (the server makes it)."""
    room_id: str
    """The room's id."""
    game: str
    """``doudizhu``, ``zhajinhua`` or ``showhand``."""
    rules: str
    """The preset."""
    table: int
    """The table number within the room."""
    commitment: str
    """The published commitment to the hand's seed (64 hex digits)."""
    players: tuple[int | None, ...]
    """User id per seat; ``None`` is a bot."""
    started_at: datetime
    """When the hand was dealt (aware)."""
    node: str | None = None
    """The hall process playing it, when several share the database."""
    bot_names: tuple[str | None, ...] = ()
    """The name each bot seat had at the table (``None`` at a person's seat); ``()``: not
    known (every bot seat then reads ``None``)."""

    def __post_init__(self) -> None:
        self._check_bot_names()
        for field in ("id", "room_id", "commitment"):
            check_text(getattr(self, field), field, "bad_hand")
        for field in ("game", "rules"):
            check_text(getattr(self, field), field, "bad_hand", limit=16)
        if not self.players:
            raise InvalidActionError("bad_hand", "a hand needs at least one seat")
        humans = [player for player in self.players if player is not None]
        if len(set(humans)) != len(humans):
            raise InvalidActionError("bad_hand", "a player sits only once at a table")
        check_aware(self.started_at, "started_at")

    def _check_bot_names(self) -> None:
        """A name per seat (or none at all), only at a bot's seat, of at most 32 characters."""
        if not self.bot_names:
            return
        if len(self.bot_names) != len(self.players):
            raise InvalidActionError("bad_hand", "a bot name (or None) for every seat")
        for player, name in zip(self.players, self.bot_names, strict=True):
            if name is not None and (player is not None or not 0 < len(name) <= BOT_NAME_MAX):
                raise InvalidActionError("bad_hand", f"bot name {name!r} at a person's seat")


BOT_NAME_MAX = 32
"""The longest bot name a hand keeps (``hand_seats.bot_name``)."""


@dataclass(frozen=True)
class Fence:
    """A lease's proof of ownership: the resource and the lease's fencing token
    (several hall processes, :mod:`qipai.store.fences`)."""

    resource: str
    """What the lease is for (``table:<node>:12``, ``matches``)."""
    token: int
    """The lease's fencing token (larger: newer)."""


@dataclass(frozen=True)
class HandSettlement:
    """What a finished hand does to each seat, in coins and points.

    ``net`` is each seat's change of balance after rake and fees, so that
    ``sum(net) + sum(rake) + sum(fees) == 0``; ``rake`` and ``fees`` are what each seat
    paid to the house (never negative).
    """

    id: str
    """The hand id."""
    net: tuple[int, ...]
    """Coins per seat, after rake and fees."""
    rake: tuple[int, ...]
    """Rake taken from each seat (from a winner's gain)."""
    fees: tuple[int, ...]
    """Fee paid by each seat."""
    points: tuple[int, ...]
    """Points per seat (the game's score)."""
    winners: tuple[int, ...]
    """The seats that won."""
    record_json: str
    """The hand record (``qipai-hand/3`` JSON, with the players' entropy; ``/2`` or ``/1``
    for older hands, or a hall without an entropy window), kept for replays: text, read
    only by :meth:`~qipai.hall.records.HandRecord.from_json`, so no format needs a
    migration."""
    ended_at: datetime
    """When the hand ended (aware)."""
    escaper: int | None = None
    """The seat that left on purpose, if any: its loss is booked as ``escape``."""
    roles: tuple[str | None, ...] = ()
    """Each seat's role (Dou Dizhu's ``landlord`` / ``farmer``), for the history; empty or
    ``None`` where the game has none."""
    fence: Fence | None = None
    """The lease the hand was played under (several hall processes): checked in the
    settlement's transaction, which it refuses when the lease was lost."""
    feats: tuple[frozenset[str], ...] = ()
    """What each seat did (:meth:`~qipai.registry.GameType.feats`: ``bomb``,
    ``straight_flush``…), kept in ``hand_seats.feats`` for the 每日任务; empty: none."""

    def __post_init__(self) -> None:
        seats = len(self.net)
        if not seats or {len(self.rake), len(self.fees), len(self.points)} != {seats}:
            raise InvalidActionError("bad_settlement", "net, rake, fees and points per seat")
        if self.roles and len(self.roles) != seats:
            raise InvalidActionError("bad_settlement", "one role per seat, or none")
        if self.feats and len(self.feats) != seats:
            raise InvalidActionError("bad_settlement", "one set of feats per seat, or none")
        if min(self.rake) < 0 or min(self.fees) < 0:
            raise InvalidActionError("bad_settlement", "rake and fees are never negative")
        total = sum(self.net) + sum(self.rake) + sum(self.fees)
        if total:
            raise InvalidActionError("bad_settlement", f"net + rake + fees sum to {total}, not 0")
        chosen = [*self.winners] + ([] if self.escaper is None else [self.escaper])
        if any(not 0 <= seat < seats for seat in chosen) or len(set(self.winners)) != len(
            self.winners
        ):
            raise InvalidActionError("bad_settlement", "winners and escaper are seats")
        check_aware(self.ended_at, "ended_at")

    @property
    def seats(self) -> int:
        """How many seats the hand had."""
        return len(self.net)

    def gross(self, seat: int) -> int:
        """The seat's result before rake and fees (what it won or lost at the table)."""
        return self.net[seat] + self.rake[seat] + self.fees[seat]


@dataclass(frozen=True)
class HistoryRow:
    """One hand of a player's history."""

    hand_id: str
    """The hand id."""
    room_id: str
    """The room."""
    game: str
    """The game."""
    rules: str
    """The preset."""
    seat: int
    """The player's seat."""
    net: int | None
    """Coins won (+) or lost (−); 0 for a voided hand, ``None`` while playing."""
    points: int | None
    """Points, likewise."""
    started_at: datetime
    """When it was dealt."""
    ended_at: datetime | None
    """When it was settled or voided."""
    status: str
    """``playing``, ``settled`` or ``voided``."""
    won: bool | None = None
    """Whether the player won the hand (``None`` while playing)."""
    role: str | None = None
    """His role in it (Dou Dizhu's ``landlord`` / ``farmer``; ``None`` where the game has
    none, while playing, and for hands settled before migration ``0006``)."""
    match_points: int | None = None
    """A match hand's change to his match score (the game's points × the base, held by
    积分最小化); ``None`` for any other hand, and until the match has scored it."""


@dataclass(frozen=True)
class LeaderRow:
    """One line of a leaderboard."""

    rank: int
    """1 for the first (ties share the order of user id)."""
    user_id: int
    """The user id."""
    name: str
    """The player's name."""
    value: int
    """Coins, wins or points."""


@dataclass(frozen=True)
class MatchResultRow:
    """A player's registration in a run that started, and how it ended for him (战绩)."""

    run_id: str
    match_id: str
    state: str
    """``running``, ``finished`` or ``cancelled``."""
    number: int
    """His registration number in the run."""
    entry_fee: int
    entrants: int
    """The run's current registrations (its field)."""
    rank: int | None
    """His final rank (``None`` while the run plays, once cancelled, or for a run finished
    before migration ``0008``)."""
    prize: int | None
    """The coins it paid him (0: none; ``None`` as :attr:`rank`)."""
    started_at: datetime | None
    ended_at: datetime | None


@dataclass(frozen=True)
class MatchRunRow:
    """A match run as the store keeps it (:mod:`qipai.store.matches`)."""

    id: str
    """The run id (``"tiyan-9#3"``)."""
    match_id: str
    """The id of the match's configuration."""
    state: str
    """``registering``, ``running``, ``finished`` or ``cancelled``."""
    entry_fee: int
    """Coins each registration holds in the run's escrow."""
    registered: int
    """Current registrations (not withdrawn; for a cancelled run: those it refunded)."""
    created_at: datetime
    """When the run was opened for registration."""
    started_at: datetime | None
    """When it started (``None``: it never did)."""
    ended_at: datetime | None
    """When it finished or was cancelled."""
    standings_json: str | None
    """The final standings a finished run was given (``None`` otherwise)."""
