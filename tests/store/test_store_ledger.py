"""The coin ledger on SQLite and PostgreSQL: conservation, exactly-once, refusals, voiding."""

from __future__ import annotations

import dataclasses
import random
import threading
from collections import Counter, defaultdict

import pytest
from sqlalchemy import func, insert, select
from store_kit import NOW, balances, deal, dump, entries_of, outcome, players, random_hand

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.store import Store, database
from qipai.store.audit import audit
from qipai.store.schema import hand_seats, hands, transactions

HANDS = 2_000
"""Random hands in the conservation test, per database."""
BATCH = 100


def test_conservation_and_exactly_once_over_random_hands(store: Store) -> None:
    rng = random.Random(20260510)
    users = players(store, 12)
    dealt = [random_hand(rng, f"r{n:05}", users) for n in range(HANDS)]
    for first in range(0, HANDS, BATCH):
        store.start_hands([start for start, _ in dealt[first : first + BATCH]])
    expected: defaultdict[str, int] = defaultdict(int)
    settled: set[str] = set()
    for first in range(0, HANDS, BATCH):
        fresh = [settlement for _, settlement in dealt[first : first + BATCH]]
        retried = rng.sample([s for _, s in dealt[:first]], min(first, 20))  # duplicates
        batch = fresh + retried + fresh[:5]
        rng.shuffle(batch)
        results = store.settle_hands(batch)
        assert sum(results) == len(fresh)  # each fresh hand once, every repeat a no-op
        assert {s.id for s, ok in zip(batch, results, strict=True) if ok} == {s.id for s in fresh}
        settled |= {s.id for s in fresh}
        for start, settlement in dealt[first : first + BATCH]:
            for seat, player in enumerate(start.players):
                name = "system:bots" if player is None else f"user:{player}"
                expected[name] += settlement.net[seat]
            expected["house:rake"] += sum(settlement.rake)
            expected["house:fees"] += sum(settlement.fees)
    assert not any(store.settle_hand(s) for _, s in dealt[:: HANDS // 50])
    held = balances(store)
    assert sum(held.values()) == 0
    grants = len(users) * 1_000_000
    assert held["system:grants"] == -grants
    for name, change in expected.items():
        assert held[name] == change + (1_000_000 if name.startswith("user:") else 0), name
    with store.read() as connection:
        per_hand = Counter(
            connection.execute(
                select(transactions.c.hand_id).where(transactions.c.kind == "settle")
            ).scalars()
        )
        statuses = Counter(connection.execute(select(hands.c.status)).scalars())
    assert set(per_hand) == settled and set(per_hand.values()) == {1}
    assert statuses == {"settled": HANDS}
    assert audit(store) == []
    profiles = [store.profile(user) for user in users]
    assert sum(p.hands for p in profiles) == sum(
        sum(player is not None for player in start.players) for start, _ in dealt
    )


def test_a_yifa_hand_books_gross_rake_and_net(store: Store) -> None:
    ann, bob = players(store, 2, grant=1000)
    store.start_hand(deal("h1", [ann, bob, None]))
    assert store.settle_hand(outcome("h1", [114, -60, -60], rake=[6, 0, 0]))
    assert entries_of(store, "settle:h1") == [
        (f"user:{ann}", 120, "win", 0),
        (f"user:{ann}", -6, "rake", 0),
        ("house:rake", 6, "rake", 0),
        (f"user:{bob}", -60, "loss", 1),
        ("system:bots", -60, "loss", 2),
    ]
    assert (store.balance(ann), store.balance(bob)) == (1114, 940)
    assert balances(store)["house:rake"] == 6
    profile = store.profile(ann)
    assert (profile.coins, profile.hands, profile.wins, profile.points) == (1114, 1, 1, 1)
    assert store.hand_record("h1") == '{"hand":"h1"}'


def test_a_huanle_hand_books_fees_and_an_escape(store: Store) -> None:
    ann, bob, cid = players(store, 3, grant=20_000)
    store.start_hand(deal("h1", [ann, bob, cid]))
    settlement = outcome("h1", [11_950, -6_050, -6_050], fees=[50, 50, 50], escaper=2)
    assert store.settle_hand(settlement)
    assert entries_of(store, "settle:h1")[-3:] == [
        (f"user:{cid}", -6000, "escape", 2),
        (f"user:{cid}", -50, "fee", 2),
        ("house:fees", 50, "fee", 2),
    ]
    assert [store.balance(p) for p in (ann, bob, cid)] == [31_950, 13_950, 13_950]
    assert balances(store)["house:fees"] == 150


def test_a_duplicate_settlement_changes_nothing(store: Store) -> None:
    ann, bob = players(store, 2, grant=1000)
    store.start_hand(deal("h1", [ann, bob]))
    assert store.settle_hand(outcome("h1", [50, -50]))
    before = dump(store)
    assert store.settle_hand(outcome("h1", [50, -50])) is False
    assert store.settle_hand(outcome("h1", [-70, 70])) is False  # a different retry, too
    assert store.settle_hands([outcome("h1", [50, -50])] * 3) == [False, False, False]
    assert dump(store) == before


def test_a_loss_beyond_a_players_coins_is_covered_by_the_house(store: Store) -> None:
    """A settlement never fails for lack of coins (nor voids the others' result): the
    loser pays what he holds, the house grants the rest in the same transaction (the
    hall keeps a seated player's coins for his table, so only a debit from outside it
    can make this happen); the audit is clean."""
    ann, bob = players(store, 2, grant=50)
    store.start_hands([deal("h1", [ann, bob]), deal("h2", [ann, bob], minute=1)])
    assert store.settle_hands([outcome("h2", [10, -10]), outcome("h1", [60, -60])]) == [
        True,
        True,
    ]
    assert (store.balance(ann), store.balance(bob)) == (120, 0)
    assert entries_of(store, "settle:h1")[-2:] == [
        (f"user:{bob}", 20, "grant", None),
        ("system:grants", -20, "grant", None),
    ]
    assert all(reason != "grant" for _, _, reason, _ in entries_of(store, "settle:h2"))
    assert audit(store) == []


def test_settlement_errors_change_nothing(store: Store) -> None:
    ann, bob = players(store, 2, grant=100)
    store.start_hand(deal("h1", [ann, bob, None]))
    before = dump(store)
    cases = [
        (outcome("h9", [1, -1]), "unknown_hand"),
        (outcome("h1", [1, -1]), "bad_settlement"),  # two seats for a hand of three
    ]
    for settlement, code in cases:
        with pytest.raises(InvalidActionError) as error:
            store.settle_hand(settlement)
        assert error.value.code == code
    assert dump(store) == before
    with pytest.raises(InvalidActionError, match="bad_settlement"):
        outcome("h1", [5, -1, -1])  # does not sum to zero: cannot even be built


def test_dealing_errors_change_nothing(store: Store) -> None:
    (ann,) = players(store, 1)
    store.start_hand(deal("h1", [ann, None]))
    before = dump(store)
    with pytest.raises(IllegalActionError, match="hand_exists"):
        store.start_hand(deal("h1", [ann, None]))
    with pytest.raises(IllegalActionError, match="hand_exists"):
        store.start_hands([deal("h2", [ann]), deal("h2", [ann])])
    with pytest.raises(InvalidActionError, match="unknown_user"):
        store.start_hands([deal("h3", [ann]), deal("h4", [ann + 99, None])])
    with pytest.raises(InvalidActionError, match="bad_hand"):
        deal("h5", [ann, ann])
    for long_id in ("", "h" * 65):
        with pytest.raises(InvalidActionError, match="bad_hand"):
            deal(long_id, [ann])
    assert dump(store) == before


def test_a_hand_keeps_the_names_its_table_gave_its_bots(store: Store) -> None:
    """The replay names a bot as the table did (Kungfu stays Kungfu, never 机器人2)."""
    (ann,) = players(store, 1)
    start = dataclasses.replace(deal("h1", [None, ann, None]), bot_names=("Kungfu", None, "Meimei"))
    store.start_hand(start)
    store.start_hand(deal("h2", [ann, None]))  # dealt without the names: a bot reads None
    assert store.hand_seats("h1") == ["Kungfu", "p0", "Meimei"]
    assert store.hand_seats("h2") == ["p0", None]
    for names in (("Kungfu", "Ann", None), ("Kungfu", None)):  # at a person's seat; short
        with pytest.raises(InvalidActionError, match="bad_hand"):
            dataclasses.replace(start, bot_names=names)


def test_migration_0012_keeps_the_hands_dealt_before_with_their_bots_unnamed(db_url: str) -> None:
    engine = database.create(database.normalize_url(db_url))
    database.migrate(engine, "0011")
    row = {
        "id": "h1",
        "room_id": "r",
        "game": "doudizhu",
        "rules": "yifa",
        "table_number": 1,
        "commitment": "0" * 64,
        "status": "playing",
        "started_at": NOW.replace(tzinfo=None),
    }
    with database.writer(engine).begin() as connection:
        connection.execute(insert(hands).values(row))
        seats = [{"hand_id": "h1", "seat": seat} for seat in (0, 1)]
        connection.execute(insert(hand_seats).values(seats))
    database.migrate(engine)
    engine.dispose()
    with Store.open(db_url) as store:
        assert store.hand_seats("h1") == [None, None]
        store.keep_match_points("h1", (3, -3))  # the new column is there


def test_void_interrupted_voids_only_hands_in_play(store: Store) -> None:
    ann, bob = players(store, 2, grant=1000)
    store.start_hands([deal(f"h{n}", [ann, bob], minute=n) for n in range(1, 4)])
    store.settle_hand(outcome("h2", [10, -10]))
    coins = balances(store)
    assert store.void_interrupted(NOW) == ["h1", "h3"]
    assert store.void_interrupted(NOW) == []
    assert balances(store) == coins  # nothing was taken, nothing to give back
    assert entries_of(store, "void:h1") == []
    with pytest.raises(IllegalActionError, match="hand_voided"):
        store.settle_hand(outcome("h1", [10, -10]))
    assert store.hand_record("h1") is None
    assert [(row.hand_id, row.status, row.net) for row in store.history(ann)] == [
        ("h3", "voided", 0), ("h2", "settled", 10), ("h1", "voided", 0),
    ]  # fmt: skip
    assert audit(store) == []


def test_void_hand_voids_one_hand(store: Store) -> None:
    (ann,) = players(store, 1)
    store.start_hands([deal("h1", [ann, None]), deal("h2", [ann, None])])
    assert store.void_hand("h1", NOW) is True
    assert store.void_hand("h1", NOW) is False
    assert [row.status for row in store.history(ann)] == ["playing", "voided"]


def test_history_pages_newest_first(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal(f"h{n:02}", [ann, bob], minute=n % 4) for n in range(10)])
    store.settle_hands([outcome(f"h{n:02}", [n, -n]) for n in range(0, 10, 2)])
    everything = store.history(ann, limit=100)
    order = sorted(everything, key=lambda row: (row.started_at, row.hand_id), reverse=True)
    assert everything == order and len(everything) == 10
    pages, before = [], None
    while page := store.history(ann, limit=3, before=before):
        pages += page
        before = page[-1].hand_id
    assert pages == everything
    assert {row.seat for row in store.history(bob)} == {1}
    assert store.history(bob, limit=1)[0].hand_id == everything[0].hand_id
    with pytest.raises(InvalidActionError, match="bad_limit"):
        store.history(ann, limit=0)
    with pytest.raises(InvalidActionError, match="unknown_hand"):
        store.history(ann, before="nope")


def test_history_says_who_won_and_in_what_role(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal("h1", [ann, bob, None]), deal("h2", [ann, bob])])
    roles = ("landlord", "farmer", "farmer")
    store.settle_hands([dataclasses.replace(outcome("h1", [2, -1, -1]), roles=roles)])
    store.settle_hands([outcome("h2", [-3, 3])])  # a game without roles
    rows = {row.hand_id: row for row in store.history(ann)}
    assert (rows["h1"].won, rows["h1"].role) == (True, "landlord")
    assert (rows["h2"].won, rows["h2"].role) == (False, None)
    bob_h1 = next(row for row in store.history(bob) if row.hand_id == "h1")
    assert (bob_h1.won, bob_h1.role) == (False, "farmer")


def test_history_lists_a_match_hand_in_match_points(store: Store) -> None:
    """The game's points stay (−4), the match's kept beside them (−40, at base 10)."""
    ann, bob = players(store, 2)
    store.start_hands([deal("h1", [ann, bob, None]), deal("h2", [ann, bob])])
    store.settle_hands([outcome("h1", [0, 0, 0]), outcome("h2", [0, 0])])
    before = dump(store)
    for hand, points in (("h1", (-40, 20)), ("nope", (1, -1))):  # seats differ; no hand
        with pytest.raises(InvalidActionError, match="unknown_hand"):
            store.keep_match_points(hand, points)
    assert dump(store) == before
    store.keep_match_points("h1", (-40, 20, 20))
    rows = {row.hand_id: row for row in store.history(ann)}
    assert (rows["h1"].match_points, rows["h2"].match_points) == (-40, None)
    assert next(r for r in store.history(bob) if r.hand_id == "h1").match_points == 20


def test_concurrent_settlements_settle_each_hand_once(store: Store) -> None:
    users = players(store, 4)
    hand_ids = [f"h{n}" for n in range(12)]
    store.start_hands([deal(h, [users[n % 4], users[(n + 1) % 4], None]) for n, h in
                       enumerate(hand_ids)])  # fmt: skip
    wins: Counter[str] = Counter()
    failures: list[BaseException] = []
    lock = threading.Lock()

    def settle_all(seed: int) -> None:
        order = random.Random(seed).sample(hand_ids, len(hand_ids))
        try:
            for hand_id in order:
                if store.settle_hand(outcome(hand_id, [30, -20, -10])):
                    with lock:
                        wins[hand_id] += 1
        except BaseException as error:  # a deadlock, a lock timeout: the test fails
            failures.append(error)

    threads = [threading.Thread(target=settle_all, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert wins == Counter(hand_ids)
    with store.read() as connection:
        assert connection.execute(select(func.count()).select_from(transactions)).scalar() == 16
    assert audit(store) == []
