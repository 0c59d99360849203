"""``qipai-hand/3`` records: the house seed, its commitment and each seat's entropy; the hand
replays from the mix of the two (``docs/records.md``, "The players' entropy"), and a
changed contribution is caught.  Formats 1 and 2 are read and verified as before
(``test_records.py``, ``test_records_v1.py``)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest

from qipai.bots import doudizhu as ddz_bots
from qipai.bots import showhand as sh_bots
from qipai.bots.turns import play_out
from qipai.cli import main
from qipai.errors import InvalidActionError
from qipai.games import doudizhu, showhand
from qipai.hall.records import (
    FORMAT,
    FORMAT_V1,
    FORMAT_V3,
    HandRecord,
    record_hand,
    replay_steps,
    verify,
)
from qipai.hall.seeds import commitment, deal_seed
from qipai.hall.watch.replays import replay_json

HOUSE = 0xD1CE_5EED_0BAD_F00D_1234_5678_9ABC_DEF0
ENTROPY = ("0f" * 16, None, "a5" * 64)
V1_RECORDS = (Path(__file__).parent.parent / "data" / "records-v1.jsonl").read_text().splitlines()


def ddz_record(entropy: tuple[str | None, ...] = ENTROPY, rules: str = "yifa") -> HandRecord:
    state = doudizhu.State.new(rules, seed=deal_seed(HOUSE, entropy), first_seat=1)
    play_out(state, [ddz_bots.RandomPolicy(s) for s in range(3)])
    return record_hand("doudizhu", state, seed=HOUSE, entropy=entropy)


RECORD = ddz_record()


def test_a_format_3_record_carries_the_house_seed_and_the_entropy() -> None:
    data = json.loads(RECORD.to_json())
    assert data["format"] == FORMAT_V3 == RECORD.format
    assert data["seed"] == str(HOUSE) and data["commitment"] == commitment(HOUSE)
    assert data["entropy"] == list(ENTROPY)
    assert (data["chance"], data["engine"]) == ("v2", 2)
    assert list(data) == sorted(data)
    assert HandRecord.from_json(RECORD.to_json()) == RECORD
    assert HandRecord.from_json(json.dumps(data, indent=2)) == RECORD
    assert RECORD.deal_seed == deal_seed(HOUSE, ENTROPY) != HOUSE


def test_a_format_3_record_verifies_from_the_mixed_seed() -> None:
    check = verify(HandRecord.from_json(RECORD.to_json()), published=commitment(HOUSE))
    assert check.ok, check
    assert check.result == RECORD.result
    assert verify(RECORD, published=commitment(HOUSE + 1)).code == "not_published"
    # the replay (and the browser's replay page) deals from the mix too
    first = next(iter(replay_steps(RECORD)))[1]
    assert first.seed == RECORD.deal_seed
    assert replay_json(RECORD, 0)["steps"]


@pytest.mark.parametrize(
    "entropy",
    [
        ("0e" + "0f" * 15, None, "a5" * 64),  # one digit of one contribution
        (None, None, "a5" * 64),  # a contribution dropped
        ("0f" * 16, "0f" * 16, "a5" * 64),  # one added
        ("a5" * 64, None, "0f" * 16),  # two swapped
        ("0f" * 16, None, "a5" * 63),  # one cut short
    ],
)
def test_a_changed_contribution_fails_verification(entropy: tuple[str | None, ...]) -> None:
    changed = dataclasses.replace(RECORD, entropy=entropy)
    check = verify(HandRecord.from_json(changed.to_json()))
    assert not check.ok
    assert check.code in ("illegal_action", "result_mismatch", "hand_not_over"), check


@pytest.mark.parametrize(
    "entropy",
    [
        ("0F" * 16, None, "a5" * 64),  # recorded in lowercase only
        ("0f" * 15, None, "a5" * 64),  # 15 bytes
        ("0f" * 16, None),  # a seat missing
        ("0f" * 16, None, "a5" * 64, None),  # a seat too many
        ("0f" * 16, None, "g5" * 64),
        ("0f" * 16, "", "a5" * 64),
    ],
)
def test_malformed_entropy_is_refused_by_verify(entropy: tuple[str | None, ...]) -> None:
    record = HandRecord.from_json(dataclasses.replace(RECORD, entropy=entropy).to_json())
    assert verify(record).code == "bad_entropy"


def test_a_hand_not_dealt_from_the_mix_is_not_recorded_with_it() -> None:
    state = doudizhu.State.new("yifa", seed=deal_seed(HOUSE, ENTROPY), first_seat=1)
    play_out(state, [ddz_bots.RandomPolicy(s) for s in range(3)])
    for kwargs, code in [
        ({"entropy": ENTROPY}, "bad_seed"),  # the house seed is needed with entropy
        ({"seed": HOUSE + 1, "entropy": ENTROPY}, "bad_seed"),
        ({"seed": HOUSE, "entropy": (None, None, "a5" * 64)}, "bad_seed"),
        ({"seed": HOUSE, "entropy": ("0f" * 16, None)}, "bad_entropy"),
        ({"seed": HOUSE, "entropy": ("xx" * 16, None, "a5" * 64)}, "bad_entropy"),
    ]:
        with pytest.raises(InvalidActionError) as error:
            record_hand("doudizhu", state, **kwargs)  # type: ignore[arg-type]
        assert error.value.code == code, kwargs


def test_every_game_records_format_3() -> None:
    entropy = ("11" * 32, None)
    state = showhand.State.new("yifa", seed=deal_seed(7, entropy), players=2)
    state = sh_bots.play_hand(state, [sh_bots.RandomPolicy(s) for s in range(2)])
    record = record_hand("showhand", state, seed=7, entropy=entropy)
    assert record.format == FORMAT_V3 and verify(HandRecord.from_json(record.to_json())).ok
    for rules in doudizhu.RULES:
        assert verify(ddz_record(rules=rules)).ok


def _mangled(change: dict[str, object]) -> str:
    data = json.loads(RECORD.to_json())
    data.update(change)
    return json.dumps({k: v for k, v in data.items() if v != "DROP"})


@pytest.mark.parametrize(
    "text",
    [
        _mangled({"entropy": "DROP"}),
        _mangled({"entropy": "0f" * 16}),
        _mangled({"entropy": [1, None, None]}),
        _mangled({"chance": "v1"}),
        _mangled({"format": FORMAT}),  # a format 2 record has no entropy
        _mangled({"format": "qipai-hand/4"}),
    ],
)
def test_malformed_format_3_json_is_refused(text: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        HandRecord.from_json(text)
    assert error.value.code == "bad_record"


def test_formats_1_and_2_are_unchanged() -> None:
    old = HandRecord.from_json(V1_RECORDS[0])
    assert old.format == FORMAT_V1 and old.entropy is None and old.deal_seed == old.seed
    assert old.to_json() == V1_RECORDS[0] and verify(old).ok
    two = dataclasses.replace(RECORD, entropy=None)
    assert json.loads(two.to_json())["format"] == FORMAT and "entropy" not in two.to_json()


def test_verify_hand_checks_a_format_3_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "hand.json"
    good.write_text(RECORD.to_json())
    assert main(["verify-hand", str(good), "--commitment", commitment(HOUSE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: result ")
    assert "entropy of seats [0, 2]" in out
    bad = tmp_path / "bad.json"
    bad.write_text(RECORD.to_json().replace("0f" * 16, "0e" + "0f" * 15))
    assert main(["verify-hand", str(bad)]) == 1
    assert capsys.readouterr().out.startswith("failed: ")


def test_the_mix_is_sha256_of_the_documented_bytes() -> None:
    text = f"qipai-mix-v1:{HOUSE}:{'0f' * 16}::{'a5' * 64}"
    assert RECORD.deal_seed == int(hashlib.sha256(text.encode()).hexdigest(), 16)
