"""The client's side of the rate limit: :class:`AutoPlayer` backs off after ``rate_limited``
for ``retry_after`` seconds (sending nothing, whatever arrives), then resyncs once; and
:class:`Pace` keeps a connection under the hall's announced rate.  The clock is injected:
no test sleeps."""

from __future__ import annotations

from qipai.client.autoplay import RETRY_AFTER, AutoPlayer
from qipai.client.connection import MARGIN, Pace

TURN = {"type": "turn", "table": 3, "n": 8, "seat": 1, "legal": ["pass", "play 3"]}
SNAPSHOT = {
    "type": "snapshot",
    "table": 3,
    "n": 9,
    "seat": 1,
    "view": {"current_player": 1, "legal_actions": ["pass", "play 4"]},
}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_after_rate_limited_it_sends_nothing_until_retry_after_then_resyncs_once() -> None:
    clock = Clock()
    player = AutoPlayer(lambda legal: legal[-1], clock=clock)
    refused = {"type": "error", "code": "rate_limited", "retry_after": 2.5, "id": 4}
    assert player.on_frame(refused) is None  # not a resync at once: that would be refused too
    assert player.resume_at == 1_002.5
    for step in (0.0, 1.0, 2.4):
        clock.now = 1_000.0 + step
        assert player.on_frame(TURN) is None, step  # a decision that would be dropped
        assert player.on_frame(SNAPSHOT) is None, step
        assert player.on_frame({"type": "event", "table": 3, "n": 9}) is None, step
        assert player.poll() is None, step
        assert player.hold() and player.is_quiet()
    clock.now = 1_002.5
    assert player.poll() == {"type": "resync"}
    assert player.poll() is None and player.resume_at is None  # once
    # and it decides anew from the snapshot the resync brings
    assert player.on_frame(SNAPSHOT) == {"type": "act", "action": "play 4", "table": 3}


def test_the_first_frame_after_the_back_off_brings_the_resync_or_a_decision() -> None:
    clock = Clock()
    player = AutoPlayer(lambda legal: legal[0], clock=clock)
    player.on_frame({"type": "error", "code": "rate_limited", "retry_after": 1.0})
    clock.now += 1.0
    assert player.on_frame({"type": "pong", "t": 1}) == {"type": "resync"}

    player.on_frame({"type": "error", "code": "rate_limited", "retry_after": 1.0})
    assert player.on_frame(TURN) is None
    clock.now += 1.0
    # the very turn it could not answer, again: answered now; no resync needed any more
    assert player.on_frame(TURN) == {"type": "act", "action": "pass", "table": 3}
    assert player.poll() is None


def test_a_refusal_without_retry_after_backs_off_a_default_while() -> None:
    clock = Clock()
    player = AutoPlayer(lambda legal: legal[0], clock=clock)
    player.on_frame({"type": "error", "code": "rate_limited", "message": "too many"})
    assert player.resume_at == 1_000.0 + RETRY_AFTER
    clock.now += RETRY_AFTER - 0.01
    assert player.poll() is None
    clock.now += 0.01
    assert player.poll() == {"type": "resync"}


def test_other_refusals_still_resync_at_once() -> None:
    player = AutoPlayer(lambda legal: legal[0], clock=Clock())
    assert player.on_frame({"type": "error", "code": "not_your_turn", "id": 2}) == {
        "type": "resync"
    }
    assert player.on_frame({"type": "error", "code": "in_trustee", "id": 3}) == {
        "type": "trustee",
        "on": False,
    }


def test_pace_keeps_under_the_halls_rate() -> None:
    clock = Clock()
    pace = Pace(rate=50 * MARGIN, burst=100 / 2, clock=clock)
    sent_at = []
    for _ in range(500):  # as fast as it lets them go
        wait = pace.delay()
        clock.now += wait
        sent_at.append(clock.now)
    # the hall's bucket (50 a second, 100 at once) would have let every one of them pass
    tokens, last = 100.0, sent_at[0]
    for when in sent_at:
        tokens = min(100.0, tokens + (when - last) * 50)
        last = when
        assert tokens >= 1
        tokens -= 1
