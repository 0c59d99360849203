"""Accounts on SQLite and PostgreSQL: registration and grants, sessions, profiles, leaderboards."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest
from store_kit import NOW, deal, dump, outcome, players

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.store import LeaderRow, Store
from qipai.store.audit import audit


def test_register_grants_the_starting_coins_once(store: Store) -> None:
    ann = store.register("ann", "argon2$hash", grant=500, now=NOW)
    user = store.user_by_name("ann")
    assert user is not None
    assert (user.id, user.name, user.password_hash, user.created_at) == (
        ann, "ann", "argon2$hash", NOW,
    )  # fmt: skip
    assert store.balance(ann) == 500
    assert store.grant(ann, 500, f"signup:{ann}") is False  # the signup grant's own key
    assert store.user_by_name("bob") is None
    assert audit(store) == []


def test_a_taken_name_changes_nothing(store: Store) -> None:
    store.register("ann", "h", grant=500, now=NOW)
    before = dump(store)
    with pytest.raises(IllegalActionError) as taken:
        store.register("ann", "other", grant=900, now=NOW)
    assert taken.value.code == "name_taken"
    assert dump(store) == before


def test_bad_registrations_change_nothing(store: Store) -> None:
    before = dump(store)
    cases = [
        ("", 10, NOW, "bad_name"),
        ("x" * 65, 10, NOW, "bad_name"),  # PostgreSQL would refuse it with another error
        ("cid", -1, NOW, "bad_amount"),
        ("cid", 10, NOW.replace(tzinfo=None), "naive_datetime"),
    ]
    for name, grant, when, code in cases:
        with pytest.raises(InvalidActionError) as error:
            store.register(name, "h", grant=grant, now=when)
        assert error.value.code == code
    assert dump(store) == before


def test_a_zero_grant_opens_an_empty_account(store: Store) -> None:
    guest = store.register("guest-1", "h", grant=0, now=NOW)
    assert store.balance(guest) == 0
    assert store.profile(guest).coins == 0


def test_grants_are_idempotent_by_key(store: Store) -> None:
    (ann,) = players(store, 1, grant=100)
    assert store.grant(ann, 50, "daily:2026-05-10", now=NOW) is True
    assert store.grant(ann, 50, "daily:2026-05-10", now=NOW) is False
    assert store.grant(ann, 70, "daily:2026-05-11") is True
    assert store.balance(ann) == 220
    before = dump(store)
    cases = [(0, ann, "x", "bad_amount"), (5, ann + 9, "x", "unknown_user"),
             (5, ann, "", "bad_key"), (5, ann, "k" * 200, "bad_key")]  # fmt: skip
    for amount, user, key, code in cases:
        with pytest.raises(InvalidActionError) as error:
            store.grant(user, amount, key, now=NOW)
        assert error.value.code == code
    assert dump(store) == before
    assert audit(store) == []


def test_sessions_expire(store: Store) -> None:
    (ann,) = players(store, 1)
    expiry = NOW + timedelta(hours=1)
    store.create_session(ann, "token-hash", expiry)
    assert store.session_user("token-hash", NOW) == ann
    assert store.session_user("token-hash", expiry - timedelta(microseconds=1)) == ann
    assert store.session_user("token-hash", expiry) is None
    assert store.session_user("other-hash", NOW) is None
    beijing = timezone(timedelta(hours=8))  # the same instant in another zone
    assert store.session_user("token-hash", (expiry - timedelta(seconds=1)).astimezone(beijing))
    with pytest.raises(IllegalActionError, match="session_exists"):
        store.create_session(ann, "token-hash", expiry)
    with pytest.raises(InvalidActionError, match="unknown_user"):
        store.create_session(ann + 1, "second", expiry)
    with pytest.raises(InvalidActionError, match="bad_token"):
        store.create_session(ann, "h" * 129, expiry)
    store.delete_session("token-hash")
    assert store.session_user("token-hash", NOW) is None
    store.delete_session("token-hash")  # signing out twice is no error


def test_expired_sessions_are_purged(store: Store) -> None:
    (ann,) = players(store, 1)
    for minutes in (1, 2, 3):
        store.create_session(ann, f"t{minutes}", NOW + timedelta(minutes=minutes))
    assert store.delete_expired_sessions(NOW + timedelta(minutes=2)) == 2
    assert store.session_user("t3", NOW) == ann


def test_profile_counts_hands_wins_and_points(store: Store) -> None:
    ann, bob = players(store, 2, grant=1000)
    store.start_hands([deal("h1", [ann, bob]), deal("h2", [ann, bob]), deal("h3", [ann, bob])])
    store.settle_hands([outcome("h1", [10, -10]), outcome("h2", [-4, 4]),
                        outcome("h3", [6, -6])])  # fmt: skip
    store.void_interrupted(NOW)
    profile = store.profile(ann)
    assert (profile.name, profile.coins, profile.hands, profile.wins, profile.points) == (
        "p0", 1012, 3, 2, 1,
    )  # fmt: skip
    for call in (store.profile, store.balance):
        with pytest.raises(InvalidActionError, match="unknown_user"):
            call(bob + 1)


def test_leaderboards(store: Store) -> None:
    ann, bob, cid = players(store, 3, grant=1000)
    store.start_hands([deal("h1", [ann, bob, cid]), deal("h2", [ann, bob, cid])])
    store.settle_hands([outcome("h1", [20, -10, -10]), outcome("h2", [-30, 30, 0])])
    assert store.leaderboard("coins") == [
        LeaderRow(1, bob, "p1", 1020), LeaderRow(2, ann, "p0", 990), LeaderRow(3, cid, "p2", 990),
    ]  # fmt: skip
    assert [(row.user_id, row.value) for row in store.leaderboard("wins")] == [
        (ann, 1), (bob, 1), (cid, 0),
    ]  # fmt: skip
    assert [(row.user_id, row.value) for row in store.leaderboard("points", limit=2)] == [
        (ann, 0), (bob, 0),
    ]  # fmt: skip
    with pytest.raises(InvalidActionError, match="bad_leaderboard"):
        store.leaderboard("luck")
    with pytest.raises(InvalidActionError, match="bad_limit"):
        store.leaderboard("coins", limit=10_000)
