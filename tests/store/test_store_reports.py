"""Reports 举报 and the fair-play flags in the store: a report refused for a bad name,
reason or hand, and past the day's limit; resolved once (a mute or ban imposed in the same
transaction, logged); the flags found from the hands themselves: two accounts of one
address who sit together, and one account that keeps raising then folding to another."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from store_kit import NOW, deal, outcome, players

from qipai.errors import GameError
from qipai.registry.gametype import FOLD_AFTER_RAISE
from qipai.store import Store
from qipai.store.console import Act, Console
from qipai.store.reports import FLAG_LEAST, MAX_REPORTS_A_DAY, ReportDesk


def _code(call: object) -> str:
    assert callable(call)
    with pytest.raises(GameError) as refused:
        call()
    return refused.value.code


def test_a_report_is_refused_for_what_it_cannot_be_and_resolved_once(store: Store) -> None:
    desk = ReportDesk(store)
    ann, bob, cat = players(store, 3)
    store.start_hands([deal("h1", [ann, bob, None])])
    store.settle_hand(outcome("h1", [20, -10, -10]))
    assert _code(lambda: desk.file(ann, "nobody", "x", None, NOW)) == "unknown_player"
    assert _code(lambda: desk.file(ann, "p0", "x", None, NOW)) == "not_yourself"
    assert _code(lambda: desk.file(ann, "p1", "  ", None, NOW)) == "bad_reason"
    assert _code(lambda: desk.file(ann, "p2", "x", "h1", NOW)) == "unknown_hand"  # cat: not there
    first = desk.file(ann, "p1", "bot-like plays", "h1", NOW)
    [row] = desk.rows("open", limit=10)
    assert (row.id, row.reporter, row.reported, row.hand, row.seat) == (first, "p0", "p1", "h1", 1)
    act = Act("mod", "p1", "checked the replay", NOW)
    desk.resolve(first, "mute", NOW + timedelta(minutes=30), act)
    assert Console(store).in_force(bob, "mute", NOW) is not None
    assert _code(lambda: desk.resolve(first, "dismiss", None, act)) == "report_closed"
    assert [r.resolution for r in desk.rows("closed", limit=10)] == ["mute"]
    assert [line.action for line in Console(store).log(limit=5)] == ["report", "mute"]
    for n in range(MAX_REPORTS_A_DAY - 1):
        desk.file(cat, "p1", f"again {n}", None, NOW)
    desk.file(cat, "p0", "last one", None, NOW)
    assert _code(lambda: desk.file(cat, "p0", "one too many", None, NOW)) == "too_many_reports"
    assert desk.file(cat, "p0", "a day later", None, NOW + timedelta(days=1, seconds=1)) > 0


def test_the_flags_point_at_a_shared_address_and_at_folds_to_one_winner(store: Store) -> None:
    ann, bob, cat, dan = players(store, 4)
    for user, address in ((ann, "203.0.113.9"), (bob, "203.0.113.9"), (cat, "198.51.100.1")):
        store.create_session(user, f"token-{user}", NOW + timedelta(days=1), address)
    dumped = frozenset({FOLD_AFTER_RAISE})
    for n in range(FLAG_LEAST):
        store.start_hands([deal(f"s{n}", [ann, bob, dan]), deal(f"d{n}", [cat, dan, None])])
        store.settle_hand(outcome(f"s{n}", [10, -5, -5]))  # ann and bob together, one address
        folded = dataclasses.replace(
            outcome(f"d{n}", [-10, 20, -10]), feats=(dumped, frozenset(), frozenset())
        )
        store.settle_hand(folded)  # cat raised then folded to dan, again and again
    store.start_hands([deal("other", [cat, ann, None])])
    store.settle_hand(outcome("other", [-10, 20, -10]))  # a fold without the feat: nothing
    found = ReportDesk(store).flags(NOW + timedelta(hours=1))
    assert {(f.kind, f.players, f.count) for f in found} == {
        ("shared_address", ("p0", "p1"), FLAG_LEAST),
        ("chip_dumping", ("p2", "p3"), FLAG_LEAST),
    }
    assert ReportDesk(store).flags(NOW + timedelta(days=30)) == []  # only the last week's
