"""A match run's postings, built pure (:mod:`qipai.hall.match.coins`): each transaction
balanced, nothing of zero moved, and a run's coins conserved: what the escrow held is what
it refunded plus what it paid into the prizes, and the prizes are that plus the house's
guarantee less its surplus."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from qipai.hall.match.coins import (
    Entrant,
    Escrow,
    MatchPosting,
    fee_held,
    fee_refunded,
    flow,
    prizes_paid,
    run_cancelled,
)

ESCROW, HOUSE = 1000, 999
"""The escrow's and ``house:matches``' accounts (a user's account is his number)."""


def _balanced(posting: MatchPosting) -> None:
    assert sum(m.amount for m in posting.moves) == 0
    assert all(m.amount for m in posting.moves)


def test_a_registration_holds_its_fee_under_its_number() -> None:
    posting = fee_held(Escrow("daily#3", ESCROW, 200), Entrant(4, account=41))
    assert (posting.key, posting.kind, posting.run_id) == ("match_entry:daily#3:4", "match_entry",
                                                           "daily#3")  # fmt: skip
    assert [(m.account, m.amount, m.reason, m.number) for m in posting.moves] == [
        (41, -200, "entry", 4),
        (ESCROW, 200, "entry", 4),
    ]


def test_a_withdrawal_and_a_cancelled_run_refund_each_fee() -> None:
    escrow = Escrow("daily#3", ESCROW, 200)
    withdrawn = fee_refunded(escrow, Entrant(2, account=21))
    assert (withdrawn.key, withdrawn.kind) == ("match_refund:daily#3:2", "match_refund")
    assert flow(withdrawn, 21, "refund") == 200 == -flow(withdrawn, ESCROW)
    cancelled = run_cancelled(escrow, [Entrant(1, 11), Entrant(3, 31)])
    assert (cancelled.key, cancelled.kind) == ("match_cancel:daily#3", "match_refund")
    assert [m.number for m in cancelled.moves] == [1, 1, 3, 3]
    assert flow(cancelled, ESCROW) == -400


def test_a_free_run_records_its_transactions_without_a_move() -> None:
    free = Escrow("free#1", ESCROW, 0)
    for posting in (fee_held(free, Entrant(1, 11)), fee_refunded(free, Entrant(1, 11)),
                    run_cancelled(free, [Entrant(2, 21)])):  # fmt: skip
        assert posting.moves == ()


def test_the_house_pays_the_guarantee_first_and_takes_the_surplus_last() -> None:
    escrow = Escrow("daily#3", ESCROW, 200)
    short = prizes_paid(escrow, house=HOUSE, pool=400, prizes=[(Entrant(2, 21), 300),
                                                               (Entrant(1, 11), 500)])  # fmt: skip
    assert [(m.account, m.amount, m.reason, m.number) for m in short.moves] == [
        (HOUSE, -400, "guarantee", None), (ESCROW, 400, "guarantee", None),
        (ESCROW, -500, "prize", 1), (11, 500, "prize", 1),
        (ESCROW, -300, "prize", 2), (21, 300, "prize", 2),
    ]  # fmt: skip
    over = prizes_paid(escrow, house=HOUSE, pool=1000, prizes=[(Entrant(1, 11), 600)])
    assert [m.reason for m in over.moves] == ["prize", "prize", "surplus", "surplus"]
    assert flow(over, HOUSE, "surplus") == 400
    exact = prizes_paid(escrow, house=HOUSE, pool=600, prizes=[(Entrant(1, 11), 600)])
    assert [m.reason for m in exact.moves] == ["prize", "prize"]


_Run = tuple[Escrow, list[Entrant], set[int], list[int] | None]


@st.composite
def _runs(draw: st.DrawFn) -> _Run:
    """A run: its fee, its registrations, those withdrawn, and its prizes (``None``: it
    was cancelled)."""
    escrow = Escrow("r#1", ESCROW, draw(st.integers(0, 500)))
    entrants = [Entrant(n, account=n) for n in range(1, draw(st.integers(0, 12)) + 1)]
    withdrawn = draw(st.sets(st.sampled_from([e.number for e in entrants]))) if entrants else set()
    staying = len(entrants) - len(withdrawn)
    prizes = st.lists(st.integers(1, 3000), max_size=staying)
    return escrow, entrants, withdrawn, draw(st.none() | prizes)


@given(_runs())
def test_a_runs_coins_are_conserved(run: _Run) -> None:
    escrow, entrants, withdrawn, prizes = run
    held = [fee_held(escrow, e) for e in entrants]
    refunds = [fee_refunded(escrow, e) for e in entrants if e.number in withdrawn]
    staying = [e for e in entrants if e.number not in withdrawn]
    pool = sum(flow(p, ESCROW) for p in held + refunds)
    assert pool == escrow.entry_fee * len(staying)
    if prizes is None:
        end = run_cancelled(escrow, staying)
    else:
        end = prizes_paid(
            escrow, house=HOUSE, pool=pool, prizes=list(zip(staying, prizes, strict=False))
        )
    postings = [*held, *refunds, end]
    for posting in postings:
        _balanced(posting)
    assert sum(flow(p, ESCROW) for p in postings) == 0  # the escrow ends at zero
    held_fees = sum(flow(p, ESCROW, "entry") for p in postings)
    refunded = -sum(flow(p, ESCROW, "refund") for p in postings)
    paid = -flow(end, ESCROW, "prize")
    guarantee, surplus = -flow(end, HOUSE, "guarantee"), flow(end, HOUSE, "surplus")
    assert held_fees == refunded + (paid - guarantee + surplus)  # held = refunded + the pool
    assert paid == sum(prizes or []) == held_fees - refunded + guarantee - surplus
    assert guarantee >= 0 and surplus >= 0 and not (guarantee and surplus)
    assert flow(end, HOUSE) == surplus - guarantee
    users = {e.account for e in entrants}
    for user in users:  # each user: his fee back, or his prize less his fee
        moved = sum(flow(p, user) for p in postings)
        assert moved >= -escrow.entry_fee
