"""Hands in the database: dealt, then settled exactly once or voided, and read back.

No coins move when a hand is dealt: stakes stay in the players' accounts until the
settlement books each seat's result (no escrow).  So a hand cut off by a crash is voided
with a transaction that has no entries, and every stake is "returned" by construction.

Hands are written in batches (one hand is a batch of one): a batch takes a fixed number
of statements whatever its size, which is what lets a busy hall settle many hands in one
database transaction.  Every function works on a connection inside a transaction the
caller opened, and the caller rolls the whole back when one raises.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    Integer,
    String,
    Text,
    func,
    insert,
    or_,
    select,
    update,
)

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.store import accounts as players
from qipai.store import ledger
from qipai.store.bulk import ValueType, update_rows
from qipai.store.ledger import Entry, Fault, Posting, SystemAccounts
from qipai.store.models import HandSettlement, HandStart, HistoryRow, check_aware
from qipai.store.schema import UTCDateTime, accounts, hand_seats, hands, users


@dataclass(frozen=True)
class VoidedSeat:
    """A player of a voided hand: whom to tell, and which hand and table it was."""

    user_id: int
    """The player."""
    hand_id: str
    """The voided hand."""
    table: int
    """The number its table had (in the process that dealt it)."""


def settle_key(hand_id: str) -> str:
    """The unique key of a hand's settlement."""
    return f"settle:{hand_id}"


def void_key(hand_id: str) -> str:
    """The unique key of a hand's voiding."""
    return f"void:{hand_id}"


def start(connection: Connection, batch: Sequence[HandStart]) -> None:
    """Record dealt hands (status ``playing``) and who sits at each seat.

    :raises IllegalActionError: ``hand_exists`` (also for one id twice in the batch).
    :raises InvalidActionError: ``unknown_user`` for a player id that is not a user.
    """
    ids = [hand.id for hand in batch]
    taken = set(connection.execute(select(hands.c.id).where(hands.c.id.in_(ids))).scalars())
    taken |= {hand_id for hand_id, count in Counter(ids).items() if count > 1}
    if taken:
        raise IllegalActionError("hand_exists", f"already dealt: {sorted(taken)}")
    humans = {player for hand in batch for player in hand.players if player is not None}
    known = set(connection.execute(select(users.c.id).where(users.c.id.in_(humans))).scalars())
    if humans - known:
        raise InvalidActionError("unknown_user", f"no user {sorted(humans - known)}")
    if not batch:
        return
    connection.execute(insert(hands), [_hand_row(hand) for hand in batch])
    connection.execute(
        insert(hand_seats),
        [
            {"hand_id": hand.id, "seat": seat, "user_id": player, "bot_name": name}
            for hand in batch
            for seat, (player, name) in enumerate(
                zip(hand.players, hand.bot_names or (None,) * len(hand.players), strict=True)
            )
        ],
    )


def _hand_row(hand: HandStart) -> dict[str, object]:
    return {
        "id": hand.id,
        "room_id": hand.room_id,
        "game": hand.game,
        "rules": hand.rules,
        "table_number": hand.table,
        "commitment": hand.commitment,
        "node": hand.node,
        "status": "playing",
        "started_at": hand.started_at,
    }


@dataclass(frozen=True)
class _Seated:
    """A hand's status and, per seat, the user (``None``: a bot) and his ledger account."""

    status: str
    users: tuple[int | None, ...]
    accounts: tuple[int | None, ...]


def settle(
    connection: Connection,
    system: SystemAccounts,
    batch: Sequence[HandSettlement],
    fault: Fault,
) -> list[bool]:
    """Book finished hands: ``settle:<hand>`` transactions, the hands, players' counters.

    Steps, each followed by ``fault(step)``: ``transaction``, ``entries``, ``balances``
    (in :func:`qipai.store.ledger.post`), ``hand`` (status, record, seats), ``stats``.
    Returns, per hand, ``True`` if settled now, ``False`` if it already was (a retry, or the
    same hand earlier in the batch): then nothing is written for it.

    :raises InvalidActionError: ``unknown_hand``, ``bad_settlement`` (wrong seat count).
    :raises IllegalActionError: ``hand_voided``, ``insufficient_coins``.
    """
    seated = _lock(connection, sorted({hand.id for hand in batch}))
    todo: dict[str, HandSettlement] = {}
    for hand in batch:
        if hand.id not in todo and _is_due(hand, seated.get(hand.id)):
            todo[hand.id] = hand
    postings = [_posting(hand, seated[hand.id], system) for hand in todo.values()]
    postings = covered(postings, _balances(connection, postings, system), system)
    recorded = ledger.post(connection, postings, fault=fault)
    settled = [hand for hand, ok in zip(todo.values(), recorded, strict=True) if ok]
    _finish(connection, settled)
    fault("hand")
    _count_play(connection, settled, seated)
    fault("stats")
    fresh = {hand.id for hand in settled}
    results = []
    for hand in batch:
        results.append(hand.id in fresh)
        fresh.discard(hand.id)  # the same hand again later in the batch: a duplicate
    return results


def _is_due(hand: HandSettlement, seated: _Seated | None) -> bool:
    """Whether the hand is to be settled now (``False``: already settled).

    :raises InvalidActionError: ``unknown_hand``, ``bad_settlement``.
    :raises IllegalActionError: ``hand_voided``.
    """
    if seated is None:
        raise InvalidActionError("unknown_hand", f"no hand {hand.id}")
    if seated.status == "voided":
        raise IllegalActionError("hand_voided", f"hand {hand.id} was voided")
    if seated.status == "playing" and len(seated.users) != hand.seats:
        raise InvalidActionError(
            "bad_settlement", f"hand {hand.id} has {len(seated.users)} seats, not {hand.seats}"
        )
    return seated.status == "playing"


def _posting(hand: HandSettlement, seated: _Seated, system: SystemAccounts) -> Posting:
    seat_accounts = [system.bots if account is None else account for account in seated.accounts]
    moves = tuple(settlement_entries(hand, seat_accounts, system))
    return Posting(settle_key(hand.id), "settle", moves, hand.ended_at, hand.id)


def in_play(connection: Connection, user_id: int) -> bool:
    """Whether the user holds a seat in a hand still ``playing`` (on any node)."""
    query = (
        select(hand_seats.c.hand_id)
        .join_from(hand_seats, hands, hands.c.id == hand_seats.c.hand_id)
        .where(hand_seats.c.user_id == user_id, hands.c.status == "playing")
        .limit(1)
    )
    return connection.execute(query).first() is not None


def _balances(
    connection: Connection, postings: Sequence[Posting], system: SystemAccounts
) -> dict[int, int]:
    """The coins of the players' accounts ``postings`` move (the house's and the bots'
    accounts left out: they may go negative)."""
    house = {system.rake, system.fees, system.grants, system.bots, system.matches}
    ids = sorted({m.account for p in postings for m in p.moves} - house)
    if not ids:
        return {}
    query = select(accounts.c.id, accounts.c.balance).where(accounts.c.id.in_(ids))
    rows: list[tuple[int, int]] = [(row[0], row[1]) for row in connection.execute(query)]
    return dict(rows)


def covered(
    postings: Sequence[Posting], balances: dict[int, int], system: SystemAccounts
) -> list[Posting]:
    """``postings`` with a *cover* where a player's account would go below zero: he pays
    what he holds, and the house (``system:grants``) grants the rest in the same
    transaction, as a ``grant`` entry to his account with no seat, so the hand's other
    seats are paid as the table settled them and the settlement never fails for lack of
    coins.

    The hall keeps a person's coins for the one table he sits at (one place per person:
    ``docs/security.md``), so this is a last resort, not a rule of play: coins taken from
    his account by something else while he played (an operator's deduction) come back
    to him from the house rather than from the winners.

    >>> from datetime import UTC, datetime
    >>> house = SystemAccounts(rake=1, fees=2, grants=3, bots=4, matches=5)
    >>> moves = (Entry(10, -500, "loss", 0), Entry(11, 500, "win", 1))
    >>> hand = Posting("settle:h", "settle", moves, datetime.now(UTC))
    >>> [hand] = covered([hand], {10: 300, 11: 0}, house)
    >>> [(m.account, m.amount, m.reason, m.seat) for m in hand.moves[2:]]
    [(10, 200, 'grant', None), (3, -200, 'grant', None)]
    """
    left = dict(balances)
    result = []
    for posting in postings:
        deltas: defaultdict[int, int] = defaultdict(int)
        for move in posting.moves:
            if move.account in left:
                deltas[move.account] += move.amount
        covers: list[Entry] = []
        for account, delta in deltas.items():
            short = -(left[account] + delta)
            if short > 0:
                covers += [Entry(account, short, "grant"), Entry(system.grants, -short, "grant")]
            left[account] = max(0, left[account] + delta)
        result.append(posting if not covers else _with(posting, covers))
    return result


def _with(posting: Posting, covers: list[Entry]) -> Posting:
    return Posting(
        posting.key, posting.kind, (*posting.moves, *covers), posting.created_at,
        posting.hand_id, posting.run_id,
    )  # fmt: skip


def settlement_entries(
    hand: HandSettlement, seat_accounts: Sequence[int], system: SystemAccounts
) -> list[Entry]:
    """Each seat's gross result, then its rake and fee moved to the house, per seat.

    A seat's entries on its own account sum to its ``net``; zero amounts are left out.
    """
    moves: list[Entry] = []
    for seat, account in enumerate(seat_accounts):
        gross = hand.gross(seat)
        if gross:
            reason = "win" if gross > 0 else "escape" if seat == hand.escaper else "loss"
            moves.append(Entry(account, gross, reason, seat))
        for paid, house, reason in ((hand.rake, system.rake, "rake"),
                                    (hand.fees, system.fees, "fee")):  # fmt: skip
            if paid[seat]:
                moves += [Entry(account, -paid[seat], reason, seat),
                          Entry(house, paid[seat], reason, seat)]  # fmt: skip
    return moves


def _lock(connection: Connection, hand_ids: Sequence[str]) -> dict[str, _Seated]:
    """The hands' status and seats, their rows locked until commit.

    PostgreSQL locks the rows (``FOR NO KEY UPDATE``, in id order: it does not block the
    key-share locks that inserting rows which refer to them takes); on SQLite the write
    transaction already holds the database lock.  So a concurrent settle or void waits.
    """
    rows = connection.execute(
        select(hands.c.id, hands.c.status, hand_seats.c.user_id, accounts.c.id.label("account"))
        .join_from(hands, hand_seats, hand_seats.c.hand_id == hands.c.id)
        .join(accounts, accounts.c.user_id == hand_seats.c.user_id, isouter=True)
        .where(hands.c.id.in_(hand_ids))
        .order_by(hands.c.id, hand_seats.c.seat)
        .with_for_update(of=hands, key_share=True)
    ).all()
    grouped: defaultdict[str, list[tuple[str, int | None, int | None]]] = defaultdict(list)
    for row in rows:
        grouped[row.id].append((row.status, row.user_id, row.account))
    return {
        hand_id: _Seated(seats[0][0], tuple(s[1] for s in seats), tuple(s[2] for s in seats))
        for hand_id, seats in grouped.items()
    }


def _finish(connection: Connection, settled: Sequence[HandSettlement]) -> None:
    """Mark the hands settled with their record, and each seat's net, points and win."""
    if not settled:
        return
    update_rows(
        connection, hands, {"b_id": String(), "b_end": UTCDateTime(), "b_rec": Text()},
        [{"b_id": h.id, "b_end": h.ended_at, "b_rec": h.record_json} for h in settled],
        match=lambda row: [hands.c.id == row["b_id"]],
        changes=lambda row: {"status": "settled", "ended_at": row["b_end"],
                             "record_json": row["b_rec"]},
    )  # fmt: skip
    seat_types: dict[str, ValueType] = {
        "b_id": String(), "b_seat": Integer(), "b_net": BigInteger(), "b_points": BigInteger(),
        "b_won": Boolean(), "b_role": String(), "b_feats": String(),
    }  # fmt: skip
    update_rows(
        connection, hand_seats, seat_types,
        [
            {"b_id": hand.id, "b_seat": seat, "b_net": net, "b_points": hand.points[seat],
             "b_won": seat in hand.winners,
             "b_role": hand.roles[seat] if hand.roles else None,
             "b_feats": feats_text(hand.feats[seat]) if hand.feats else None}
            for hand in settled
            for seat, net in enumerate(hand.net)
        ],
        match=lambda row: [hand_seats.c.hand_id == row["b_id"],
                           hand_seats.c.seat == row["b_seat"]],
        changes=lambda row: {"net": row["b_net"], "points": row["b_points"],
                             "won": row["b_won"], "role": row["b_role"],
                             "feats": row["b_feats"]},
    )  # fmt: skip


def _count_play(
    connection: Connection, settled: Sequence[HandSettlement], seated: dict[str, _Seated]
) -> None:
    """Add each human seat's hand, win and points to the user's counters."""
    totals: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for hand in settled:
        for seat, user in enumerate(seated[hand.id].users):
            if user is not None:
                total = totals[user]
                total[0] += 1
                total[1] += seat in hand.winners
                total[2] += hand.points[seat]
    players.add_play(
        connection,
        [
            {"b_user": user, "b_hands": n, "b_wins": wins, "b_points": points}
            for user, (n, wins, points) in sorted(totals.items())
        ],
    )


def void_playing(
    connection: Connection, now: datetime, only: str | None = None, node: str | None = None
) -> list[str]:
    """Void every hand still ``playing`` (or just ``only``, or just ``node``'s):
    ``void:<hand>``, no entries.

    Returns the ids voided, sorted.  Each seat's ``net`` and ``points`` become 0.
    """
    check_aware(now, "now")
    query = select(hands.c.id).where(hands.c.status == "playing")
    query = query.with_for_update(key_share=True)
    if only is not None:
        query = query.where(hands.c.id == only)
    if node is not None:
        query = query.where(hands.c.node == node)
    voided = sorted(connection.execute(query.order_by(hands.c.id)).scalars())
    if not voided:
        return []
    ledger.post(connection, [Posting(void_key(h), "void", (), now, h) for h in voided])
    connection.execute(
        update(hands).where(hands.c.id.in_(voided)).values(status="voided", ended_at=now)
    )
    connection.execute(
        update(hand_seats)
        .where(hand_seats.c.hand_id.in_(voided))
        .values(net=0, points=0, won=False)
    )
    return voided


def voided_players(connection: Connection, hand_ids: Sequence[str]) -> list[VoidedSeat]:
    """The players (bots left out) of the hands ``hand_ids``, with each hand's table
    number: whom to tell that a hand of theirs was voided."""
    if not hand_ids:
        return []
    rows = connection.execute(
        select(hand_seats.c.user_id, hands.c.id, hands.c.table_number)
        .join_from(hand_seats, hands, hands.c.id == hand_seats.c.hand_id)
        .where(hands.c.id.in_(hand_ids), hand_seats.c.user_id.is_not(None))
        .order_by(hands.c.id, hand_seats.c.seat)
    )
    return [VoidedSeat(row.user_id, row.id, row.table_number) for row in rows]


def history(
    connection: Connection, user_id: int, *, limit: int, before: str | None
) -> list[HistoryRow]:
    """The user's hands, newest deal first; ``before`` pages on from a hand id.

    :raises InvalidActionError: ``bad_limit``, ``unknown_hand`` (a ``before`` never dealt).
    """
    players.check_limit(limit)
    query = (
        select(hands.c.id, hands.c.room_id, hands.c.game, hands.c.rules, hand_seats.c.seat,
               hand_seats.c.net, hand_seats.c.points, hand_seats.c.won, hand_seats.c.role,
               hand_seats.c.match_points, hands.c.started_at, hands.c.ended_at,
               hands.c.status)
        .join_from(hand_seats, hands, hands.c.id == hand_seats.c.hand_id)
        .where(hand_seats.c.user_id == user_id)
        .order_by(hands.c.started_at.desc(), hands.c.id.desc())
        .limit(limit)
    )  # fmt: skip
    if before is not None:
        started = connection.execute(
            select(hands.c.started_at).where(hands.c.id == before)
        ).scalar_one_or_none()
        if started is None:
            raise InvalidActionError("unknown_hand", f"no hand {before}")
        query = query.where(
            or_(hands.c.started_at < started,
                (hands.c.started_at == started) & (hands.c.id < before))
        )  # fmt: skip
    return [
        HistoryRow(row.id, row.room_id, row.game, row.rules, row.seat, row.net, row.points,
                   row.started_at, row.ended_at, row.status, row.won, row.role,
                   row.match_points)
        for row in connection.execute(query)
    ]  # fmt: skip


def keep_match_points(connection: Connection, hand_id: str, points: Sequence[int]) -> None:
    """Keep what a match hand moved each seat's match score by (``points``, per seat).

    :raises InvalidActionError: ``unknown_hand`` for a hand with another number of seats
        (or none).
    """
    seats = connection.execute(
        select(hand_seats.c.seat).where(hand_seats.c.hand_id == hand_id)
    ).scalars()
    if sorted(seats) != list(range(len(points))):
        raise InvalidActionError("unknown_hand", f"no hand {hand_id} of {len(points)} seats")
    for seat, amount in enumerate(points):
        connection.execute(
            update(hand_seats)
            .where(hand_seats.c.hand_id == hand_id, hand_seats.c.seat == seat)
            .values(match_points=amount)
        )


def record(connection: Connection, hand_id: str) -> str | None:
    """The record JSON of a settled hand (``None``: unknown, still playing, or voided)."""
    found = connection.execute(
        select(hands.c.record_json).where(hands.c.id == hand_id, hands.c.status == "settled")
    ).scalar_one_or_none()
    return None if found is None else str(found)


def seat_names(connection: Connection, hand_id: str) -> list[str | None]:
    """The name of the player at each seat of a hand, a bot's as its table called it
    (``None`` for a bot of a hand dealt before its name was kept; ``[]``: no hand)."""
    rows = connection.execute(
        select(hand_seats.c.seat, func.coalesce(users.c.name, hand_seats.c.bot_name).label("name"))
        .join_from(hand_seats, users, users.c.id == hand_seats.c.user_id, isouter=True)
        .where(hand_seats.c.hand_id == hand_id)
        .order_by(hand_seats.c.seat)
    )
    return [row.name for row in rows]


def feats_text(feats: frozenset[str]) -> str | None:
    """``hand_seats.feats``: the seat's feats sorted, comma-separated (``None``: none)."""
    return ",".join(sorted(feats)) or None
