"""The HTTP API's answers (:mod:`qipai.server.api.answers`) are the bytes the plain JSON was.

Before the answers were structs, the server wrote dicts with Starlette's
``JSONResponse``: ``json.dumps`` with UTF-8 kept and no spaces, the dataclass rows'
fields in their order and their times in ISO 8601.  The structs must write the same
bytes (clients, and the docs' examples, read them).
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

import msgspec
import pytest

from qipai.hall.rooms import Room, default_rooms
from qipai.registry import Payout
from qipai.server.api.answers import (
    ErrorAnswer,
    HistoryAnswer,
    JsonAnswer,
    LeaderAnswer,
    Ok,
    RoomAnswer,
    from_row,
)
from qipai.store import HistoryRow, LeaderRow


def plain_json(value: object) -> bytes:
    """What ``JSONResponse`` wrote of ``value``."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode("utf-8")


def dict_of(row: object) -> dict[str, object]:
    """A dataclass row as the server's dicts held it (times in ISO 8601)."""
    assert dataclasses.is_dataclass(row) and not isinstance(row, type)
    return {
        key: value.isoformat() if isinstance(value, datetime) else value
        for key, value in dataclasses.asdict(row).items()
    }


@pytest.mark.parametrize("room", default_rooms(), ids=lambda room: room.id)
def test_a_room_is_its_fields_then_its_module_and_payout(room: Room) -> None:
    points_only = room.payout is Payout.POINTS_ONLY
    web_module = room.game_type.web_module
    answer = from_row(room, RoomAnswer, web_module=web_module, points_only=points_only)
    expected = {**dict_of(room), "web_module": web_module, "points_only": points_only}
    assert JsonAnswer(answer).body == plain_json(expected)


def test_a_room_given_whole_seconds_keeps_them_whole() -> None:
    room = dataclasses.replace(default_rooms()[0], decision_seconds=20, bot_wait=1)
    answer = from_row(room, RoomAnswer, web_module="doudizhu", points_only=False)
    assert b'"decision_seconds":20,' in JsonAnswer(answer).body


def test_the_store_rows_keep_their_order_and_times() -> None:
    started = datetime(2026, 12, 7, 3, 51, 16, 123456, tzinfo=UTC)
    row = HistoryRow(
        "h-1", "lobby-1", "doudizhu", "jj", 2, -40, -4, started, None, "settled", False, "农民"
    )
    assert JsonAnswer([from_row(row, HistoryAnswer)]).body == plain_json([dict_of(row)])
    leader = LeaderRow(1, 7, "小王", 12_000)
    assert JsonAnswer(from_row(leader, LeaderAnswer)).body == plain_json(dict_of(leader))


def test_a_row_with_a_field_the_answer_lacks_is_refused() -> None:
    """A new column of the store must be added to its answer (or left out on purpose)."""
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        from_row(LeaderRow(1, 7, "小王", 12_000), LeaderAnswer, extra=1)


def test_an_error_carries_retry_after_only_when_limited() -> None:
    assert JsonAnswer(ErrorAnswer(error="bad_token", message="x")).body == plain_json(
        {"error": "bad_token", "message": "x"}
    )
    limited = ErrorAnswer(error="rate_limited", message="y", retry_after=3)
    assert JsonAnswer(limited).body == plain_json(
        {"error": "rate_limited", "message": "y", "retry_after": 3}
    )
    assert JsonAnswer(Ok(ok=True), 503).status_code == 503
