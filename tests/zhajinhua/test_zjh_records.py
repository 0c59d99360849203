"""Zha Jin Hua hand records across the engine that stopped raking (engine 3).

Engines 1 and 2 raked the winner inside the hand, and their records' ``result`` is the
returns after that 5 %; engine 3's returns are zero-sum chips (the hall takes the room's
rake).  Verification replays a record by its own engine's returns.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from qipai.bots import zhajinhua as bots
from qipai.games.zhajinhua import State
from qipai.games.zhajinhua.rules import ENGINE_VERSION, LEGACY_RAKE_PERCENT
from qipai.hall.records import HandRecord, record_hand, verify

V1_RECORDS = Path(__file__).parents[1] / "data" / "records-v1.jsonl"


def raked_hand() -> State:
    """A finished hand whose winner's profit is large enough for a rake of 1 or more."""
    for seed in range(100):
        state = State.new("yifa", seed=seed, players=4)
        bots.play_hand(state, [bots.RandomPolicy(seed * 10 + s) for s in range(4)])
        if max(state.returns()) >= 20:
            return state
    raise AssertionError("no hand with a profit of 20")


def test_a_new_record_is_zero_sum_and_of_engine_3() -> None:
    record = record_hand("zhajinhua", raked_hand())
    assert ENGINE_VERSION == record.engine == 3
    assert sum(record.result) == 0
    assert verify(HandRecord.from_json(record.to_json())).ok


def test_an_engine_2_record_verifies_with_the_old_rake() -> None:
    record = record_hand("zhajinhua", raked_hand())
    percent = LEGACY_RAKE_PERCENT["yifa"]
    old = tuple(r - max(r, 0) * percent // 100 for r in record.result)
    assert sum(old) < 0
    engine_2 = dataclasses.replace(record, engine=2, result=old)
    assert verify(HandRecord.from_json(engine_2.to_json())).ok
    zero_sum_as_2 = dataclasses.replace(record, engine=2)  # engine 2 never gave these
    assert verify(zero_sum_as_2).code == "result_mismatch"
    raked_as_3 = dataclasses.replace(record, result=old)  # nor does engine 3 give these
    assert verify(raked_as_3).code == "result_mismatch"


def test_the_v1_records_keep_their_raked_results() -> None:
    lines = [line for line in V1_RECORDS.read_text().splitlines() if '"zhajinhua"' in line]
    raked = [json.loads(line)["result"] for line in lines if sum(json.loads(line)["result"])]
    assert raked  # a v1 record whose result is after the rake
    for line in lines:
        check = verify(HandRecord.from_json(line))
        assert check.ok, check
