"""The economy's grants (:mod:`qipai.store.economy`) on SQLite and PostgreSQL: each pays
once per key, whatever is retried or sent at once; the audit stays exact."""

from __future__ import annotations

import dataclasses
import functools
import io
import random
import threading
from collections import Counter
from collections.abc import Callable
from datetime import date, datetime, timedelta

import pytest
from sqlalchemy import select
from store_kit import NOW, deal, outcome, players

from qipai.cli import main
from qipai.errors import GameError, IllegalActionError
from qipai.hall.economy.settings import EconomySettings, TaskSpec
from qipai.store import HandSettlement, Store
from qipai.store.audit import audit, audit_main
from qipai.store.economy import Economy, HallDay, hall_day
from qipai.store.schema import transactions

SETTINGS = EconomySettings(
    relief_min_account_hours=0,
    tasks_per_day=9,
    tasks=(
        TaskSpec("play_2", "玩2局", "Play 2 hands", 2, 100),
        TaskSpec("win_1", "赢1局", "Win a hand", 1, 150, count="won"),
        TaskSpec("bomb", "打出1个炸弹", "Play a bomb", 1, 200, feat="bomb"),
        TaskSpec("landlord", "当地主赢", "Win as landlord", 1, 250, count="won", role="landlord"),
    ),
)
LINE = 96
"""The broke line of the tests."""
TODAY = hall_day("Asia/Shanghai", NOW)


def refused(call: Callable[[], object]) -> str:
    """The code of the :class:`GameError` ``call`` raises."""
    with pytest.raises(GameError) as caught:
        call()
    return caught.value.code


def keys(store: Store, prefix: str) -> Counter[str]:
    with store.read() as connection:
        rows = connection.execute(
            select(transactions.c.key).where(transactions.c.key.like(f"grant:{prefix}%"))
        )
        return Counter(rows.scalars())


def broke(store: Store, coins: int = 10) -> int:
    """A player of ``coins`` coins, registered two days ago."""
    return store.register(f"b{coins}", "hash", grant=coins, now=NOW - timedelta(days=2))


def test_a_retried_check_in_pays_once_and_the_streak_grows_then_resets(store: Store) -> None:
    economy = Economy(store, SETTINGS)
    [ann] = players(store, 1, grant=100)
    assert economy.checkin(ann, TODAY, now=NOW) == (300, 1)
    assert refused(lambda: economy.checkin(ann, TODAY, now=NOW)) == "already_checked_in"
    assert store.balance(ann) == 400
    paid = []
    for n in range(1, 9):  # the next 8 days: 400, 500 … 900 (day 7), then 900
        day = hall_day("Asia/Shanghai", NOW + timedelta(days=n))
        paid.append(economy.checkin(ann, day, now=NOW + timedelta(days=n)))
    assert paid == [(400, 2), (500, 3), (600, 4), (700, 5), (800, 6), (900, 7), (900, 8),
                    (900, 9)]  # fmt: skip
    later = hall_day("Asia/Shanghai", NOW + timedelta(days=11))  # day 10 missed
    assert economy.checkin(ann, later, now=NOW + timedelta(days=11)) == (300, 1)
    assert economy.state(ann, later, LINE).streak == 1
    assert audit(store) == []


def test_two_check_ins_at_once_pay_once(store: Store) -> None:
    economy = Economy(store, SETTINGS)
    users = players(store, 3, grant=100)
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(8)

    def check_in(user: int) -> None:
        start.wait()
        try:
            economy.checkin(user, TODAY, now=NOW)
            result = "paid"
        except IllegalActionError as error:
            result = error.code
        with lock:
            outcomes[result] += 1

    threads = [threading.Thread(target=check_in, args=(users[n % 3],)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == Counter({"paid": 3, "already_checked_in": 5})
    assert set(keys(store, "checkin:").values()) == {1}
    assert [store.balance(user) for user in users] == [400] * 3
    assert audit(store) == []


def test_the_day_turns_at_midnight_in_the_halls_zone() -> None:
    before = datetime.fromisoformat("2026-05-10T15:59:59+00:00")  # 23:59:59 in Shanghai
    after = before + timedelta(seconds=1)
    assert hall_day("Asia/Shanghai", before).day == date(2026, 5, 10)
    assert hall_day("Asia/Shanghai", after).day == date(2026, 5, 11)
    assert hall_day("Asia/Shanghai", after).start == after
    assert hall_day("UTC", after).day == date(2026, 5, 10)
    spring = hall_day("America/New_York", datetime.fromisoformat("2026-03-08T12:00:00+00:00"))
    assert spring.end - spring.start == timedelta(hours=23)  # the clocks go forward


def test_a_check_in_just_before_and_just_after_midnight_both_pay(store: Store) -> None:
    economy = Economy(store, SETTINGS)
    [ann] = players(store, 1, grant=100)
    before = datetime.fromisoformat("2026-05-10T15:59:59+00:00")
    after = before + timedelta(seconds=2)
    assert economy.checkin(ann, hall_day("Asia/Shanghai", before), now=before) == (300, 1)
    assert economy.checkin(ann, hall_day("Asia/Shanghai", after), now=after) == (400, 2)
    assert sorted(keys(store, "checkin:")) == [
        f"grant:checkin:{ann}:2026-05-10", f"grant:checkin:{ann}:2026-05-11"
    ]


def test_relief_is_for_the_broke_out_of_any_hand_a_few_times_a_day(store: Store) -> None:
    economy = Economy(store, SETTINGS)
    rich = store.register("rich", "hash", grant=LINE, now=NOW - timedelta(days=2))
    assert refused(lambda: economy.relief(rich, TODAY, LINE, seated=False, now=NOW)) == (
        "not_broke"
    )
    poor = broke(store)
    assert refused(lambda: economy.relief(poor, TODAY, LINE, seated=True, now=NOW)) == "in_hand"
    store.start_hand(deal("h1", [poor, None, None]))
    assert refused(lambda: economy.relief(poor, TODAY, LINE, seated=False, now=NOW)) == "in_hand"
    store.settle_hand(outcome("h1", [-10, 5, 5]))  # down to 0
    assert store.balance(poor) == 0
    assert economy.relief(poor, TODAY, 3000, seated=False, now=NOW) == 2000
    assert refused(lambda: economy.relief(poor, TODAY, LINE, seated=False, now=NOW)) == (
        "not_broke"  # a retried request, once paid
    )
    assert economy.relief(poor, TODAY, 5000, seated=False, now=NOW) == 2000
    assert economy.relief(poor, TODAY, 9000, seated=False, now=NOW) == 2000
    assert refused(lambda: economy.relief(poor, TODAY, 9000, seated=False, now=NOW)) == (
        "relief_used_up"
    )
    assert economy.state(poor, TODAY, 9000).relief_left == 0
    assert sorted(keys(store, "relief:")) == [
        f"grant:relief:{poor}:{TODAY.text}:{n}" for n in (1, 2, 3)
    ]
    assert audit(store) == []


def test_an_unknown_user_is_refused_everywhere(store: Store) -> None:
    economy = Economy(store, SETTINGS)
    asks: list[Callable[[], object]] = [
        functools.partial(economy.checkin, 999, TODAY, now=NOW),
        functools.partial(economy.relief, 999, TODAY, LINE, seated=False, now=NOW),
        functools.partial(economy.state, 999, TODAY, LINE),
    ]
    assert [refused(ask) for ask in asks] == ["unknown_user"] * 3


def test_guests_and_new_accounts_may_be_refused_relief(store: Store) -> None:
    economy = Economy(store, dataclasses.replace(SETTINGS, relief_min_account_hours=24))
    guest = store.register("guest-1", "", grant=10, now=NOW - timedelta(days=3))
    young = store.register("young", "hash", grant=10, now=NOW - timedelta(hours=23))
    aged = store.register("aged", "hash", grant=10, now=NOW - timedelta(hours=25))
    for user in (guest, young):
        ask = functools.partial(economy.relief, user, TODAY, LINE, seated=False, now=NOW)
        assert refused(ask) == "relief_not_allowed"
    assert economy.relief(aged, TODAY, LINE, seated=False, now=NOW) == 2000
    open_to_guests = Economy(store, dataclasses.replace(SETTINGS, relief_guests=True))
    assert open_to_guests.relief(guest, TODAY, LINE, seated=False, now=NOW) == 2000


def feats_outcome(
    hand_id: str, net: list[int], feats: list[set[str]], roles: tuple[str, ...]
) -> HandSettlement:
    """A settlement whose seats did ``feats`` in ``roles``."""
    return dataclasses.replace(
        outcome(hand_id, net), feats=tuple(frozenset(f) for f in feats), roles=roles
    )


def test_tasks_count_the_days_settled_hands_and_pay_once(store: Store) -> None:
    economy = Economy(store, SETTINGS)
    ann, bob = players(store, 2, grant=1000)
    assert refused(lambda: economy.claim(ann, TODAY, "play_2", now=NOW)) == "task_not_done"
    assert refused(lambda: economy.claim(ann, TODAY, "nope", now=NOW)) == "unknown_task"
    store.start_hands([deal(f"h{n}", [ann, bob, None]) for n in (1, 2, 3)])
    roles = ("landlord", "farmer", "farmer")
    store.settle_hand(feats_outcome("h1", [20, -10, -10], [{"bomb"}, set(), set()], roles))
    store.void_hand("h2", NOW)  # a voided hand counts for nothing
    state = {t.task.id: t.progress for t in economy.state(ann, TODAY, LINE).tasks}
    assert state == {"play_2": 1, "win_1": 1, "bomb": 1, "landlord": 1}
    assert refused(lambda: economy.claim(ann, TODAY, "play_2", now=NOW)) == "task_not_done"
    store.settle_hand(feats_outcome("h3", [-20, 30, -10], [set(), {"rocket"}, set()], roles))
    for task in ("play_2", "win_1", "bomb", "landlord"):
        assert economy.claim(ann, TODAY, task, now=NOW).claimed
        assert refused(functools.partial(economy.claim, ann, TODAY, task, now=NOW)) == (
            "task_claimed"
        )
    assert store.balance(ann) == 1000 + 20 - 20 + 100 + 150 + 200 + 250
    bob_state = {t.task.id: t.progress for t in economy.state(bob, TODAY, LINE).tasks}
    assert bob_state == {"play_2": 2, "win_1": 1, "bomb": 0, "landlord": 0}
    tomorrow = hall_day("Asia/Shanghai", NOW + timedelta(days=1))
    assert all(t.progress == 0 for t in economy.state(ann, tomorrow, LINE).tasks)
    assert audit(store) == []


def test_a_thousand_random_economy_requests_racing_settlements_keep_the_audit_exact(
    store: Store,
) -> None:
    economy = Economy(store, dataclasses.replace(SETTINGS, relief_per_day=5))
    users = players(store, 6, grant=200)
    days = [hall_day("Asia/Shanghai", NOW + timedelta(days=n)) for n in range(3)]
    hand_ids = iter(range(10**6))
    lock = threading.Lock()
    paid: Counter[str] = Counter()
    failures: list[BaseException] = []

    def request(rng: random.Random) -> None:
        user, day = rng.choice(users), rng.choice(days)
        kind = rng.choice(("checkin", "relief", "claim", "hand"))
        try:
            if kind == "hand":
                with lock:
                    hand = f"h{next(hand_ids)}"
                other = rng.choice([u for u in users if u != user])
                _play(store, rng, hand, [user, other], day)
            else:
                _ask(economy, rng, kind, user, day)
            with lock:
                paid[kind] += 1
        except IllegalActionError as error:
            with lock:
                paid[error.code] += 1
        except BaseException as error:
            failures.append(error)

    def run(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(125):
            request(rng)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sum(paid.values()) == 1000
    assert paid["checkin"] and paid["relief"] and paid["claim"]  # each kind paid at least once
    assert audit(store) == []
    every = keys(store, "")
    assert set(every.values()) == {1}
    assert sum(1 for key in every if key.startswith("grant:checkin:")) == paid["checkin"]
    assert sum(1 for key in every if key.startswith("grant:relief:")) == paid["relief"]
    assert sum(1 for key in every if key.startswith("grant:task:")) == paid["claim"]
    out = io.StringIO()
    assert audit_main(store.url, out=out) == 0
    assert f"paid {days[0].text} checkin " in out.getvalue()


def _play(store: Store, rng: random.Random, hand: str, users: list[int], day: HallDay) -> None:
    """Deal ``hand`` to ``users`` and a bot, then settle it within ``day`` (or void it)."""
    store.start_hand(deal(hand, [*users, None]))
    if rng.random() < 0.2:
        store.void_hand(hand, NOW)
        return
    settled = dataclasses.replace(
        outcome(hand, [6, -3, -3]), ended_at=day.start + timedelta(hours=2),
        feats=(frozenset({"bomb"}), frozenset(), frozenset()),
    )  # fmt: skip
    store.settle_hand(settled)


def _ask(economy: Economy, rng: random.Random, kind: str, user: int, day: HallDay) -> None:
    """A check-in, a relief (everybody broke) or a claim of a random task."""
    now = day.start + timedelta(hours=1)
    if kind == "checkin":
        economy.checkin(user, day, now=now)
    elif kind == "relief":
        economy.relief(user, day, 10**6, seated=False, now=now)
    else:
        economy.claim(user, day, rng.choice(SETTINGS.tasks).id, now=now)


def test_the_audit_lists_the_house_payouts_per_day_and_reason(store: Store) -> None:
    economy = Economy(store, SETTINGS)
    [ann] = players(store, 1, grant=50)
    economy.checkin(ann, TODAY, now=NOW)
    economy.relief(ann, TODAY, 1000, seated=False, now=NOW)
    out = io.StringIO()
    assert audit_main(store.url, out=out) == 0
    lines = out.getvalue().splitlines()[1:]
    assert lines == [
        "paid 2026-05-10 checkin 300", "paid 2026-05-10 relief 2000",
        "paid 2026-05-10 signup 50", "paid 2026-05-10 total 2350",
    ]  # fmt: skip
    assert audit_main(store.url, out=io.StringIO(), timezone="Mars/Olympus") == 2


def test_qipai_audit_takes_the_zone_of_its_days(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    economy = Economy(store, SETTINGS)
    [ann] = players(store, 1, grant=50)
    late = datetime.fromisoformat("2026-05-10T17:00:00+00:00")  # the 11th in Shanghai
    economy.checkin(ann, hall_day("Asia/Shanghai", late), now=late)
    assert main(["audit", "--db", store.url, "--timezone", "UTC"]) == 0
    assert "paid 2026-05-10 checkin 300\n" in capsys.readouterr().out
    assert main(["audit", "--db", store.url]) == 0  # Asia/Shanghai
    assert "paid 2026-05-11 checkin 300\n" in capsys.readouterr().out
