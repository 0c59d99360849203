"""The edge's refusals without sockets: each parse error says what is wrong (a lone
surrogate is not "truncated"), and the rate limit's windows (one refusal a window, the rest
dropped, cut off after :data:`FLOOD_WINDOWS` windows in a row) on an injected clock."""

from __future__ import annotations

import pytest

from json_kit import wire
from qipai.errors import InvalidActionError
from qipai.server.api.protocol import LONE_SURROGATE, MAX_MESSAGE_BYTES, Act, parse, rate_limited
from qipai.server.edge.connection import FLOOD_WINDOWS, WINDOW, RateLimit, Verdict

TRUNCATED = "the JSON text ends too soon (truncated)"
REFUSED = [
    ('{"type":"act","action":"\\ud800"}', "bad_json", LONE_SURROGATE),
    ('{"type":"act","id":1,"action":"\\ud800x"}', "bad_json", LONE_SURROGATE),
    ('{"type":"act","id":1,"action":"\\ud800\\u0041"}', "bad_json", LONE_SURROGATE),
    ('{"type":"act","id":1,"action":"\\udc00"}', "bad_json", LONE_SURROGATE),
    ('{"type":"act","id":1,"action":"ok","\\ud83d":1}', "bad_json", LONE_SURROGATE),
    ('{"type":"act","id":1,"action":"\ud800"}', "bad_json", LONE_SURROGATE),  # the character
    ("", "bad_json", "an empty message: send one JSON object"),
    (" \n", "bad_json", "an empty message: send one JSON object"),
    ("{", "bad_json", TRUNCATED),
    ('{"type":"act","id":1,"action":"pla', "bad_json", TRUNCATED),
    (
        '{"type":"act","id":1,"action":"\\ud800',
        "bad_json",
        "the JSON text ends too soon (truncated)",
    ),
    ("NaN", "bad_json", "JSON is malformed: invalid character (byte 0)"),
    ('{"type":"ping"} x', "bad_json", "JSON is malformed: trailing characters (byte 17)"),
    (
        '{"type":"shuffle"}',
        "bad_message",
        "unknown message type 'shuffle' (one of hello, join, leave, act, entropy, trustee, escape, "
        "escape_cost, resync, ping, chat, private_create, private_join, ready, private_start, "
        "private_kick, private_close, spectate, stop_spectating, watch_by_name)",
    ),
    ('{"action":"pass"}', "bad_message", "Object missing required field `type`"),
    ('{"type":"ping","seat":1}', "bad_message", "Object contains unknown field `seat`"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes"),
]


@pytest.mark.parametrize(("text", "code", "message"), REFUSED)
def test_each_refusal_says_what_is_wrong(text: str, code: str, message: str) -> None:
    with pytest.raises(InvalidActionError) as refused:
        parse(text)
    assert (refused.value.code, refused.value.message) == (code, message)


def test_a_surrogate_pair_is_a_character() -> None:
    assert parse('{"type":"act","id":1,"action":"\\ud83d\\ude00"}') == Act(1, "\U0001f600")


def test_bytes_that_are_not_utf8_say_so() -> None:
    with pytest.raises(InvalidActionError, match="bad_json: the text is not UTF-8"):
        parse(b'{"type":"act","id":1,"action":"\xff"}')


def test_rate_limited_carries_retry_after() -> None:
    frame = wire(rate_limited(1.0, 7))
    assert frame["code"] == "rate_limited" and frame["retry_after"] == 1.0 and frame["id"] == 7


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_one_refusal_a_window_the_rest_dropped() -> None:
    clock = Clock()
    limit = RateLimit(rate=50, burst=100, clock=clock)
    verdicts = [limit.check() for _ in range(300)]  # all at once
    assert verdicts[:100] == [Verdict.PASS] * 100
    assert verdicts[100] is Verdict.REFUSE and limit.retry_after() == WINDOW
    assert verdicts[101:] == [Verdict.DROP] * 199
    clock.now = WINDOW - 0.001
    assert limit.check() is Verdict.DROP  # tokens are back, but he was told to wait
    clock.now = WINDOW
    assert limit.check() is Verdict.PASS and limit.retry_after() == 0


def test_refused_window_after_window_is_cut_off() -> None:
    clock = Clock()
    limit = RateLimit(rate=50, burst=100, clock=clock)
    told = 0
    while (verdict := limit.check()) is not Verdict.CUT_OFF:  # 1,000 messages a second
        told += verdict is Verdict.REFUSE
        clock.now += 0.001
    assert told == FLOOD_WINDOWS - 1
    assert (FLOOD_WINDOWS - 1) * WINDOW <= clock.now < FLOOD_WINDOWS * WINDOW


def test_a_pause_of_a_window_forgives() -> None:
    """Over the rate now and then (a refusal, a window's pause, again) is never cut off."""
    clock = Clock()
    limit = RateLimit(rate=50, burst=100, windows=2, clock=clock)
    for _ in range(10):
        while limit.check() is not Verdict.REFUSE:
            pass
        clock.now += 2 * WINDOW + 0.001  # quiet for the window and one more
    assert limit.check() is Verdict.PASS
