"""``qipai-hand/1`` records (chance v1, ``random.Random(seed)``) still verify, byte for byte.

``tests/data/records-v1.jsonl`` holds records written by the engines before the v2 deal
(random play of every Dou Dizhu preset, Zha Jin Hua with a drawn and a given dealer,
Showhand; small and 128-bit seeds), exactly as a database keeps them.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from qipai.hall.records import FORMAT, FORMAT_V1, HandRecord, verify

V1_RECORDS = (Path(__file__).parents[1] / "data" / "records-v1.jsonl").read_text().splitlines()
DOCS_EXAMPLE = (
    '{"actions":[[1,"fold"]],"commitment":"c9d22b644ef92d561cdb5f26bb3ded1b569123bee1a0bf7b9fc91'
    '51d52fdb254","format":"qipai-hand/1","game":"zhajinhua","options":{"dealer":0,"players":2,'
    '"stacks":[200,200]},"result":[1,-1],"rules":"yifa","seed":"42"}'
)


@pytest.mark.parametrize("text", [*V1_RECORDS, DOCS_EXAMPLE])
def test_a_v1_record_verifies_and_is_written_back_unchanged(text: str) -> None:
    record = HandRecord.from_json(text)
    assert (record.chance, record.engine, record.format) == ("v1", 1, FORMAT_V1)
    assert record.to_json() == text
    check = verify(record, published=record.commitment)
    assert check.ok, check
    assert check.result == record.result


def test_the_v1_records_cover_every_game_and_preset() -> None:
    seen = {(json.loads(t)["game"], json.loads(t)["rules"]) for t in V1_RECORDS}
    ddz = {"yifa", "caishen", "huanle", "zhengtu", "jj"}
    assert seen == {("doudizhu", r) for r in ddz} | {("zhajinhua", "yifa"), ("showhand", "yifa")}


@pytest.mark.parametrize("text", [t for t in V1_RECORDS if '"doudizhu"' in t])
def test_a_v1_record_read_as_v2_chance_fails(text: str) -> None:
    """Its actions do not fit the v2 deal (a Dou Dizhu hand plays its own cards)."""
    record = dataclasses.replace(HandRecord.from_json(text), chance="v2", engine=2)
    assert json.loads(record.to_json())["format"] == FORMAT
    assert not verify(record).ok


def test_a_record_of_a_newer_engine_is_not_verified() -> None:
    record = dataclasses.replace(HandRecord.from_json(V1_RECORDS[0]), chance="v2", engine=99)
    check = verify(HandRecord.from_json(record.to_json()))
    assert check.code == "unsupported_engine"


def test_an_unknown_chance_is_refused() -> None:
    record = dataclasses.replace(HandRecord.from_json(V1_RECORDS[0]), chance="v9")
    assert verify(record).code == "bad_chance"
