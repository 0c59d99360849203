"""Quick chat's pure part (:mod:`qipai.hall.chat`): the fixed ids, the frame, and the
allowance (a burst of three, then one every two seconds) on times passed in."""

from __future__ import annotations

import re

import pytest

from json_kit import wire
from qipai.errors import InvalidActionError
from qipai.hall.chat import (
    CHAT_BURST,
    CHAT_IDS,
    CHAT_INTERVAL,
    EMOJI,
    PHRASES,
    ChatLimit,
    chat_frame,
    check_phrase,
)


def test_the_ids_are_fixed_distinct_and_plain() -> None:
    assert len(PHRASES) == 8 and len(EMOJI) == 8
    assert set(PHRASES) | set(EMOJI) == CHAT_IDS and len(CHAT_IDS) == 16
    assert all(re.fullmatch(r"[a-z][a-z_]*", phrase) for phrase in CHAT_IDS)
    assert {"hurry", "well_played", "till_dawn", "great_team", "hello"} <= set(PHRASES)


@pytest.mark.parametrize("phrase", sorted(CHAT_IDS))
def test_a_known_id_passes(phrase: str) -> None:
    assert check_phrase(phrase) == phrase


@pytest.mark.parametrize("phrase", ["", "Hello", "hello ", "我是谁", "x" * 5000, "say hello"])
def test_anything_else_is_an_unknown_phrase(phrase: str) -> None:
    with pytest.raises(InvalidActionError) as refused:
        check_phrase(phrase)
    assert refused.value.code == "unknown_phrase"
    assert len(refused.value.message) < 80  # a long text is not echoed back whole


def test_the_frame_names_table_seat_and_phrase() -> None:
    assert wire(chat_frame(12, 2, "hurry")) == {
        "type": "chat",
        "table": 12,
        "seat": 2,
        "phrase": "hurry",
    }


def test_the_rate_is_a_burst_of_three_then_one_every_two_seconds() -> None:
    assert (CHAT_BURST, CHAT_INTERVAL) == (3, 2.0)


def test_a_burst_passes_then_the_next_waits() -> None:
    limit = ChatLimit()
    assert [limit.take(100.0) for _ in range(CHAT_BURST)] == [0.0] * CHAT_BURST
    assert limit.take(100.0) == 2.0
    assert limit.take(100.5) == 1.5  # refused: nothing spent, the wait only shrinks
    assert limit.take(101.9) == pytest.approx(0.1)
    assert limit.take(102.0) == 0.0
    assert limit.take(102.0) == 2.0


def test_the_allowance_refills_at_one_per_interval_up_to_the_burst() -> None:
    limit = ChatLimit()
    for _ in range(3):
        limit.take(0.0)
    assert limit.take(4.0) == 0.0 and limit.take(4.0) == 0.0  # two came back in 4 s
    assert limit.take(4.0) > 0
    limit = ChatLimit()
    limit.take(0.0)
    assert [limit.take(1000.0) for _ in range(4)][-1] == 2.0  # never more than the burst


def test_a_refusal_spends_nothing() -> None:
    refused, quiet = ChatLimit(), ChatLimit()
    for limit in (refused, quiet):
        for _ in range(3):
            limit.take(0.0)
    for moment in (0.1, 0.5, 1.0, 1.5):
        assert refused.take(moment) > 0
    assert refused.take(2.0) == quiet.take(2.0) == 0.0


def test_a_clock_going_back_refills_nothing() -> None:
    limit = ChatLimit()
    for _ in range(3):
        limit.take(50.0)
    assert limit.take(10.0) == 2.0  # earlier than the last message: no time has passed
    assert limit.take(51.0) == 1.0


def test_another_rate() -> None:
    limit = ChatLimit(interval=1.0, burst=1)
    assert limit.take(0.0) == 0.0 and limit.take(0.25) == 0.75 and limit.take(1.0) == 0.0
