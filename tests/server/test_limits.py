"""The limits of ``qipai.server.edge.limits`` without a hall: token buckets on a clock passed in,
their memory bound, the gate of each endpoint, keys of addresses and names, the hash gate."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Awaitable

import pytest

from qipai.server.edge.limits import (
    GUEST,
    BusyError,
    Gate,
    HashGate,
    Limit,
    Limiter,
    Limits,
    MemoryBuckets,
    Rate,
    RateLimitedError,
    address_key,
    name_key,
)

# --- the token bucket ----------------------------------------------------------------------------


def test_a_burst_then_one_per_interval() -> None:
    limiter = Limiter(Rate(10, 60.0))  # 10 at once, then one every 6 s
    assert [limiter.take("a", now=0.0) for _ in range(10)] == [0.0] * 10
    assert limiter.take("a", now=0.0) == pytest.approx(6.0)
    assert limiter.take("a", now=4.5) == pytest.approx(1.5)  # refused: nothing spent
    assert limiter.take("a", now=6.0) == 0.0
    assert limiter.take("a", now=6.0) == pytest.approx(6.0)
    assert limiter.take("b", now=6.0) == 0.0  # keys are apart


def test_a_bucket_never_holds_more_than_its_size() -> None:
    limiter = Limiter(Rate(3, 30.0))
    limiter.take("a", now=0.0)
    waits = [limiter.take("a", now=1_000.0) for _ in range(4)]  # a long rest: 3, not 100
    assert waits[:3] == [0.0] * 3 and waits[3] == pytest.approx(10.0)


def test_sustained_pace_is_the_rate() -> None:
    limiter = Limiter(Rate(5, 900.0))  # 5 per 15 minutes
    allowed = sum(limiter.take("n", now=second) == 0.0 for second in range(3_600))
    assert allowed == 5 + 19  # the burst, then one every 3 minutes (180 s … 3,420 s)


def test_refund_and_forget() -> None:
    limiter = Limiter(Rate(2, 60.0))
    limiter.take("a", now=0.0)
    limiter.take("a", now=0.0)
    limiter.refund("a", now=0.0)
    assert limiter.take("a", now=0.0) == 0.0
    assert limiter.take("a", now=0.0) > 0
    limiter.forget("a")
    assert len(limiter) == 0 and limiter.take("a", now=0.0) == 0.0
    limiter.refund("never seen", now=0.0)  # a full bucket stays as it is: not remembered
    assert len(limiter) == 1


@pytest.mark.parametrize("rate", [(0, 60.0), (1, 0.0), (3, -1.0)])
def test_a_rate_is_positive(rate: tuple[int, float]) -> None:
    with pytest.raises(ValueError):
        Rate(*rate)


# --- bounded memory ------------------------------------------------------------------------------


def test_keys_are_forgotten_once_their_bucket_is_full_again() -> None:
    limiter = Limiter(Rate(5, 900.0))
    for number in range(1_000):  # an attacker rotating names, one failure each
        limiter.take(f"name{number}", now=number * 0.1)
    assert len(limiter) == 1_000
    limiter.take("late", now=99.9 + 900.0)  # every earlier key has refilled by now
    assert len(limiter) == 1


def test_the_number_of_keys_is_capped() -> None:
    limiter = Limiter(Rate(5, 900.0), max_keys=100)
    for number in range(10_000):
        limiter.take(f"name{number}", now=0.0)
    assert len(limiter) == 100
    # the newest keep their count; the oldest were dropped first
    for _ in range(4):
        limiter.take("name9999", now=0.0)
    assert limiter.take("name9999", now=0.0) > 0
    assert limiter.take("name0", now=0.0) == 0.0


def test_a_refused_key_stays_remembered_while_it_waits() -> None:
    limiter = Limiter(Rate(1, 60.0))
    limiter.take("a", now=0.0)
    for second in range(1, 60):
        assert limiter.take("a", now=second * 0.5) > 0  # hammering does not reset it
    assert limiter.take("a", now=60.0) == 0.0


# --- the gate of each endpoint -------------------------------------------------------------------


class Clock:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _gate(limits: Limits) -> tuple[Gate, Clock, MemoryBuckets]:
    """A gate counting in memory, on a clock of its own (at 0)."""
    clock = Clock()
    buckets = MemoryBuckets(clock=clock)
    return Gate(limits, buckets), clock, buckets


def _ok(attempt: Awaitable[None]) -> None:
    asyncio.run(_awaited(attempt))


async def _awaited(attempt: Awaitable[None]) -> None:
    await attempt


def _refused(attempt: Awaitable[None]) -> RateLimitedError:
    with pytest.raises(RateLimitedError) as caught:
        _ok(attempt)
    return caught.value


def test_sign_ins_per_address() -> None:
    gate, clock, _ = _gate(Limits())
    for _ in range(10):
        _ok(gate.sign_in("203.0.113.7"))
    refused = _refused(gate.sign_in("203.0.113.7"))
    assert (refused.code, refused.retry_after) == ("rate_limited", 6)
    _ok(gate.sign_in("203.0.113.8"))  # another address
    clock.now = 6.0
    _ok(gate.sign_in("203.0.113.7"))


def test_failed_sign_ins_per_name_from_any_address() -> None:
    gate, clock, _ = _gate(Limits())
    for _ in range(5):
        _ok(gate.sign_in_name("ann"))  # five tries, none succeeded
    clock.now = 10.0
    refused = _refused(gate.sign_in_name("ANN"))  # another spelling: the same name
    assert refused.code == "too_many_attempts" and refused.retry_after == 170
    _ok(gate.sign_in_name("bea"))
    clock.now = 180.0
    _ok(gate.sign_in_name("ann"))  # one more every 3 minutes


def test_a_successful_sign_in_clears_the_names_tries() -> None:
    gate, _, _ = _gate(Limits())
    for _ in range(4):
        _ok(gate.sign_in_name("ann"))
    _ok(gate.signed_in("ann"))
    for _ in range(5):
        _ok(gate.sign_in_name("ann"))
    assert _refused(gate.sign_in_name("ann")).code == "too_many_attempts"


def test_a_try_refused_as_busy_is_given_back() -> None:
    gate, _, _ = _gate(Limits())
    for _ in range(5):
        _ok(gate.sign_in_name("ann"))
        _ok(gate.not_tried("ann"))
    _ok(gate.sign_in_name("ann"))


def test_new_accounts_and_guests_per_address() -> None:
    gate, _, _ = _gate(Limits())
    for _ in range(3):
        _ok(gate.register("198.51.100.1"))
    assert _refused(gate.register("198.51.100.1")).retry_after == 20
    for _ in range(5):
        _ok(gate.guest("198.51.100.1"))  # its own bucket
    assert _refused(gate.guest("198.51.100.1")).retry_after == 12


def test_an_ipv6_subscriber_cannot_rotate_out_of_his_network() -> None:
    gate, _, _ = _gate(Limits())
    for host in range(3):
        _ok(gate.register(f"2001:db8:0:1::{host:x}"))
    assert _refused(gate.register("2001:db8:0:1:ffff::1")).code == "rate_limited"
    _ok(gate.register("2001:db8:0:2::1"))  # the next /64 is someone else


def test_a_code_try_refused_by_the_account_spends_nothing_of_the_address() -> None:
    gate, _, _ = _gate(Limits(codes_per_address=Rate(4, 60.0), codes_per_account=Rate(2, 60.0)))
    for _ in range(2):
        _ok(gate.code_try("198.51.100.9", 1))
    refused = _refused(gate.code_try("198.51.100.9", 1))
    assert (refused.code, refused.message) == (
        "too_many_tries",
        "too many codes tried by this account: wait",
    )
    for _ in range(2):  # the address still has two
        _ok(gate.code_try("198.51.100.9", 2))
    refused = _refused(gate.code_try("198.51.100.9", 3))  # the address's, for every account
    assert refused.message == "too many codes tried from this address: wait"
    _ok(gate.code_try("198.51.100.10", 3))  # and account 3 spent nothing then


def test_names_tried_to_watch_per_account_and_per_address_apart_from_codes() -> None:
    gate, _, _ = _gate(Limits())
    for _ in range(10):
        _ok(gate.name_try("203.0.113.7", 1))
    refused = _refused(gate.name_try("203.0.113.7", 1))
    assert (refused.code, refused.retry_after) == ("too_many_tries", 6)
    _ok(gate.code_try("203.0.113.7", 1))  # codes count apart
    for user in range(2, 22):  # 30 from the address in all (the refused one spent nothing)
        _ok(gate.name_try("203.0.113.7", user))
    assert _refused(gate.name_try("203.0.113.7", 99)).code == "too_many_tries"
    _ok(gate.name_try("203.0.113.8", 99))


def test_limits_off_refuse_nothing() -> None:
    gate, _, buckets = _gate(Limits.off())
    for _ in range(1_000):
        _ok(gate.sign_in("a"))
        _ok(gate.sign_in_name("ann"))
        _ok(gate.register("a"))
        _ok(gate.guest("a"))
        _ok(gate.code_try("a", 1))
        _ok(gate.name_try("a", 1))
    assert len(buckets) == 0


def test_limits_off_turns_off_every_rate() -> None:
    off = Limits.off()
    rates = [f.name for f in dataclasses.fields(off) if isinstance(f.default, Rate)]
    assert len(rates) >= 10 and all(getattr(off, name) is None for name in rates)


def test_configured_rates_are_used() -> None:
    gate, _, _ = _gate(Limits(guest_per_address=Rate(1, 3_600.0)))
    _ok(gate.guest("a"))
    assert _refused(gate.guest("a")).retry_after == 3_600


def test_a_new_kind_of_limit_needs_no_more_than_a_limit_and_a_spend() -> None:
    gate, _, _ = _gate(Limits(guest_per_address=Rate(2, 60.0)))
    watching = Limit("watch", lambda limits: limits.guest_per_address, "too_many_tries", "looks")
    _ok(gate.spend((watching, "a")))
    _ok(gate.spend((watching, "a"), (GUEST, "a")))  # counted in both, each its own bucket
    assert _refused(gate.spend((watching, "a"))).message == "too many looks: wait"
    _ok(gate.guest("a"))


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8::1", "2001:db8::/64"),
        ("2001:DB8:0:0:ffff::9", "2001:db8::/64"),
        ("::ffff:10.0.0.1", "10.0.0.1"),
        ("testclient", "testclient"),
        ("", "?"),
        (None, "?"),
    ],
)
def test_address_keys(host: str | None, key: str) -> None:
    assert address_key(host) == key


@pytest.mark.parametrize("name", [None, 42, ["ann"], {"a": 1}])
def test_a_name_that_is_not_text_has_a_key_too(name: object) -> None:
    assert name_key(name) == name_key(None)


def test_name_keys_fold_case_and_width() -> None:
    assert name_key("Ａｎｎ") == name_key("ANN") == "ann"
    assert name_key("玩家") != name_key("玩")


# --- the hash gate -------------------------------------------------------------------------------


def test_the_hash_gate_bounds_hashes_at_once_and_refuses_beyond_its_queue() -> None:
    asyncio.run(_hash_gate())


async def _hash_gate() -> None:
    gate = HashGate(slots=2, waiting=3)
    release = threading.Event()
    running = 0
    most = 0
    lock = threading.Lock()

    def slow_hash(value: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(10)
        with lock:
            running -= 1
        return value * 2

    admitted = [asyncio.create_task(gate.run(slow_hash, n)) for n in range(5)]
    await asyncio.sleep(0.05)
    assert gate.inside == 5
    with pytest.raises(BusyError) as busy:
        await gate.run(slow_hash, 99)
    assert (busy.value.code, busy.value.retry_after) == ("busy", 1)
    release.set()
    assert await asyncio.gather(*admitted) == [0, 2, 4, 6, 8]
    assert most == 2 and gate.inside == 0
    assert await gate.run(slow_hash, 7) == 14  # free again


def test_a_failing_hash_frees_its_slot() -> None:
    async def run() -> None:
        gate = HashGate(slots=1, waiting=0)

        def broken() -> None:
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError):
            await gate.run(broken)
        assert gate.inside == 0
        assert await gate.run(lambda: 1) == 1

    asyncio.run(run())
