"""Hand records: commitments, JSON round trips, replays of random hands, tampering caught."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from qipai.bots import doudizhu as ddz_bots
from qipai.bots import showhand as sh_bots
from qipai.bots import zhajinhua as zjh_bots
from qipai.bots.turns import play_out
from qipai.cards import doudizhu_deck
from qipai.errors import InvalidActionError
from qipai.games import doudizhu, showhand, zhajinhua
from qipai.games.doudizhu.actions import Trustee
from qipai.hall.records import FORMAT, HandRecord, record_hand, verify
from qipai.hall.rooms import load_rooms
from qipai.hall.seeds import commitment
from qipai.registry import HandSetup, game_type

SEEDS = range(6)
BIG_SEED = 0xD1CE_5EED_0BAD_F00D_1234_5678_9ABC_DEF0  # 128 bits, as the hall draws


def ddz_hand(rules: str, seed: int) -> doudizhu.State:
    state = doudizhu.State.new(rules, seed=seed, first_seat=seed % 3, hand_number=seed)
    play_out(state, [ddz_bots.RandomPolicy(seed * 3 + s) for s in range(3)])
    return state


def zjh_hand(seed: int, dealer: int | None) -> zhajinhua.State:
    players = 2 + seed % 5
    stacks = [200 + 10 * s for s in range(players)]
    state = zhajinhua.State.new("yifa", seed=seed, players=players, stacks=stacks, dealer=dealer)
    return zjh_bots.play_hand(state, [zjh_bots.RandomPolicy(seed + s) for s in range(players)])


def sh_hand(seed: int) -> showhand.State:
    players = 2 + seed % 3
    state = showhand.State.new("yifa", seed=seed, players=players)
    return sh_bots.play_hand(state, [sh_bots.RandomPolicy(seed + s) for s in range(players)])


HandSpec = tuple[str, str, int, int | None]
"""One recorded hand: game, rule set, seed, and the Zha Jin Hua dealer given (``None``:
drawn)."""
HAND_SPECS: list[HandSpec] = [("doudizhu", r, s, None) for r in doudizhu.RULES for s in SEEDS] + [
    hand_spec
    for s in SEEDS
    for hand_spec in (("zhajinhua", "yifa", s, None), ("zhajinhua", "yifa", s, s % 2),
                      ("showhand", "yifa", s, None))
]  # fmt: skip


@functools.cache
def record_of(hand_spec: HandSpec) -> HandRecord:
    """The record of the random hand ``hand_spec`` names, played on first use (not while the
    tests are collected: every worker of a parallel run collects this file)."""
    game, rules, seed, dealer = hand_spec
    if game == "doudizhu":
        return record_hand(game, ddz_hand(rules, seed))
    if game == "zhajinhua":
        return record_hand(game, zjh_hand(seed, dealer), seed=seed)
    return record_hand(game, sh_hand(seed))


def records() -> list[HandRecord]:
    """Every record of :data:`HAND_SPECS`."""
    return [record_of(hand_spec) for hand_spec in HAND_SPECS]


def sample(game: str) -> HandRecord:
    """The first record of ``game`` (Dou Dizhu: of yifa; Zha Jin Hua: of more than two
    actions); only that game's hands are played to find it."""
    return next(
        record
        for record in (record_of(spec) for spec in HAND_SPECS if spec[0] == game)
        if game != "zhajinhua" or len(record.actions) > 2
    )


DDZ = sample("doudizhu")
"""The Dou Dizhu sample (one hand, cheap enough to play while the file is collected: the
malformed-JSON cases below are built from it)."""


# --- the commitment ---------------------------------------------------------------------


def test_commitment_is_sha256_of_the_documented_bytes() -> None:
    expected = hashlib.sha256(b"qipai-seed-v1:" + str(BIG_SEED).encode()).hexdigest()
    assert commitment(BIG_SEED) == expected
    assert commitment(42) == "c9d22b644ef92d561cdb5f26bb3ded1b569123bee1a0bf7b9fc9151d52fdb254"
    assert len({commitment(s) for s in range(100)}) == 100


@pytest.mark.parametrize("seed", [-1, True, 1.5, "7"])
def test_commitment_refuses_bad_seeds(seed: object) -> None:
    with pytest.raises(InvalidActionError) as error:
        commitment(seed)  # type: ignore[arg-type]
    assert error.value.code == "bad_seed"


# --- recording and verifying random hands -----------------------------------------------


def test_every_game_and_preset_is_recorded() -> None:
    seen = {(r.game, r.rules) for r in records()}
    expected = {("doudizhu", r) for r in doudizhu.RULES}
    expected |= {("zhajinhua", r) for r in zhajinhua.RULES}
    expected |= {("showhand", r) for r in showhand.RULES}
    assert seen == expected


@pytest.mark.parametrize("hand_spec", HAND_SPECS, ids=lambda key: "-".join(map(str, key[:3])))
def test_records_verify_and_round_trip(hand_spec: HandSpec) -> None:
    record = record_of(hand_spec)
    check = verify(record, published=commitment(record.seed))
    assert (check.ok, check.code, check.reason, check.result) == (True, "ok", "", record.result)
    text = record.to_json()
    assert HandRecord.from_json(text) == record
    assert HandRecord.from_json(text).to_json() == text
    assert HandRecord.from_json(json.dumps(json.loads(text), indent=2)) == record


def test_a_record_holds_the_hand() -> None:
    state = ddz_hand("huanle", 5)
    record = record_hand("doudizhu", state)
    assert record.seed == state.seed and record.result == state.returns()
    assert record.actions == tuple((s.seat, str(s.action)) for s in state.history)
    assert record.option_map() == {"balances": None, "first_seat": 2, "hand_number": 5}
    assert any(seat is None for seat, _ in record.actions)  # huanle deals in steps


def test_zhajinhua_keeps_whether_the_dealer_was_drawn() -> None:
    drawn = [r for r in records() if r.game == "zhajinhua" and r.option_map()["dealer"] is None]
    given = [r for r in records() if r.game == "zhajinhua" and r.option_map()["dealer"] is not None]
    assert drawn and given
    state = zjh_hand(3, 1)
    record = record_hand("zhajinhua", state, seed=3)
    replayed = zhajinhua.replay("yifa", 3, state.history, **record.option_map())  # type: ignore[arg-type]
    assert replayed.hands == state.hands


def test_escape_and_trustee_are_recorded() -> None:
    state = doudizhu.State.new("huanle", seed=BIG_SEED)
    while state.current_player is None:
        state.apply(state.legal_actions()[0])
    state.set_trustee(1, True)
    state.escape(2)
    record = record_hand("doudizhu", state)
    assert record.actions[-2:] == ((1, str(Trustee(True))), (2, "escape"))
    assert verify(HandRecord.from_json(record.to_json())).ok
    assert record.result == state.returns() != (0, 0, 0)


def test_record_hand_refuses() -> None:
    unfinished = doudizhu.State.new("yifa", seed=1)
    with pytest.raises(InvalidActionError, match="hand_not_over"):
        record_hand("doudizhu", unfinished)
    with pytest.raises(InvalidActionError, match="unknown_game"):
        record_hand("mahjong", unfinished)
    finished = zjh_hand(1, None)  # the state keeps its seed and how its dealer was chosen
    assert verify(record_hand("zhajinhua", finished)).ok
    with pytest.raises(InvalidActionError, match="bad_seed"):
        record_hand("showhand", sh_hand(1), seed=2)


def test_a_prearranged_deck_is_not_recorded() -> None:
    state = doudizhu.State.new("zhengtu", seed=9, deck=list(doudizhu_deck()))
    play_out(state, [ddz_bots.RandomPolicy(s) for s in range(3)])
    with pytest.raises(InvalidActionError, match="unreplayable_hand"):
        record_hand("doudizhu", state)


# --- tampering ------------------------------------------------------------------------


def replace_action(record: HandRecord, index: int, step: tuple[int | None, str]) -> HandRecord:
    actions = list(record.actions)
    actions[index] = step
    return dataclasses.replace(record, actions=tuple(actions))


Tamper = Callable[[HandRecord], HandRecord]
TAMPERING: dict[str, tuple[Tamper, str]] = {
    "seed": (lambda r: dataclasses.replace(r, seed=r.seed + 1), "commitment_mismatch"),
    "commitment": (lambda r: dataclasses.replace(r, commitment="0" * 64), "commitment_mismatch"),
    "result": (
        lambda r: dataclasses.replace(r, result=(r.result[1], r.result[0], *r.result[2:])),
        "result_mismatch",
    ),
    "result_length": (lambda r: dataclasses.replace(r, result=(*r.result, 0)), "result_mismatch"),
    "garbage_action": (lambda r: replace_action(r, -1, (r.actions[-1][0], "xyzzy")), "bad_action"),
    "seat": (
        lambda r: replace_action(r, 1, ((r.actions[1][0] or 0) + 1, r.actions[1][1])),
        "illegal_action",
    ),
    "truncated": (lambda r: dataclasses.replace(r, actions=r.actions[:-1]), "hand_not_over"),
    "extra_action": (
        lambda r: dataclasses.replace(r, actions=(*r.actions, r.actions[-1])),
        "illegal_action",
    ),
    "game": (lambda r: dataclasses.replace(r, game="chess"), "unknown_game"),
    "rules": (lambda r: dataclasses.replace(r, rules="nope"), "unknown_rules"),
    "options_missing": (lambda r: dataclasses.replace(r, options=r.options[1:]), "bad_options"),
    "options_value": (
        lambda r: dataclasses.replace(r, options=tuple((k, -5) for k, _ in r.options)),
        "bad_options",
    ),
}


@pytest.mark.parametrize("game", ["doudizhu", "zhajinhua", "showhand"])
@pytest.mark.parametrize("name", sorted(TAMPERING))
def test_tampering_fails_with_its_reason(game: str, name: str) -> None:
    tamper, code = TAMPERING[name]
    check = verify(tamper(sample(game)))
    assert (check.ok, check.code, bool(check)) == (False, code, False)
    assert check.reason


def test_a_new_seed_with_its_commitment_does_not_fit_the_actions() -> None:
    for record in (r for r in records() if r.game == "doudizhu"):
        seed = record.seed + 1000
        forged = dataclasses.replace(record, seed=seed, commitment=commitment(seed))
        assert verify(forged).code in {"illegal_action", "result_mismatch", "hand_not_over"}


def test_published_commitment_is_checked() -> None:
    seed = DDZ.seed + 1
    forged = dataclasses.replace(DDZ, seed=seed, commitment=commitment(seed))
    assert verify(forged, published=DDZ.commitment).code == "not_published"
    assert verify(DDZ, published=DDZ.commitment).ok


def test_a_changed_play_is_caught() -> None:
    index = next(i for i, (_, text) in enumerate(DDZ.actions) if text.startswith("play "))
    seat, _ = DDZ.actions[index]
    check = verify(replace_action(DDZ, index, (seat, "play BR")))
    assert check.code == "illegal_action"


# --- malformed JSON -------------------------------------------------------------------


def mangle(change: Callable[[dict[str, object]], object]) -> str:
    data = json.loads(DDZ.to_json())
    change(data)
    return json.dumps(data)


MALFORMED: dict[str, str] = {
    "not_json": "{",
    "not_object": "[1]",
    "missing": mangle(lambda d: d.pop("seed")),
    "extra": mangle(lambda d: d.update(x=1)),
    "format": mangle(lambda d: d.update(format="qipai-hand/0")),
    "format_v1_with_v2_fields": mangle(lambda d: d.update(format="qipai-hand/1")),
    "v2_without_chance": mangle(lambda d: d.pop("chance")),
    "chance": mangle(lambda d: d.update(chance="v3")),
    "engine": mangle(lambda d: d.update(engine=0)),
    "engine_text": mangle(lambda d: d.update(engine="2")),
    "v2_spelling_of_v1": mangle(lambda d: d.update(chance="v1", engine=1)),
    "seed_number": mangle(lambda d: d.update(seed=5)),
    "seed_sign": mangle(lambda d: d.update(seed="-5")),
    "seed_zero": mangle(lambda d: d.update(seed="05")),
    "game": mangle(lambda d: d.update(game=3)),
    "options": mangle(lambda d: d.update(options=[1])),
    "option_value": mangle(lambda d: d.update(options={"balances": ["a"]})),
    "actions": mangle(lambda d: d.update(actions={})),
    "action": mangle(lambda d: d.update(actions=[[0, "bid 1", 3]])),
    "action_seat": mangle(lambda d: d.update(actions=[[True, "bid 1"]])),
    "result": mangle(lambda d: d.update(result=[1.5])),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_json_is_refused(name: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        HandRecord.from_json(MALFORMED[name])
    assert error.value.code == "bad_record"


def test_json_layout_is_stable() -> None:
    data = json.loads(DDZ.to_json())
    assert list(data) == sorted(data)
    assert data["format"] == FORMAT == "qipai-hand/2"
    assert (data["chance"], data["engine"]) == ("v2", 2)
    assert data["seed"] == str(DDZ.seed)
    assert all(isinstance(seat, int | None) and isinstance(t, str) for seat, t in data["actions"])
    assert " " not in DDZ.to_json().replace("play ", "").replace("bid ", "").replace("no ", "")


@pytest.mark.parametrize(
    ("game", "numbers"),
    [
        ("zhajinhua", "base = 2"),
        ("showhand", "base = 5"),
        ("doudizhu", "doubling_threshold = 5000"),
    ],
)
def test_a_room_with_its_own_numbers_is_recorded_and_replayed(game: str, numbers: str) -> None:
    rules = "huanle" if game == "doudizhu" else "yifa"
    [room] = load_rooms(f'[[room]]\nid="r"\nname="r"\ngame="{game}"\nrules="{rules}"\n{numbers}')
    engine = game_type(game)
    state = engine.new_hand(room.game_rules(), HandSetup(seed=11, balances=(10**6,) * room.seats))
    rng = random.Random(3)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(rng.choice(legal), state.current_player)
    record = record_hand(game, state)
    assert record.changes  # the room's numbers travel with the record
    assert verify(HandRecord.from_json(record.to_json())).ok


def test_a_hand_under_changed_enum_rules_is_recorded_and_verifies() -> None:
    """A match's rule changes (the JJ bomb rule, 强制记分) travel with the record as the
    enums' values and come back as the enums."""
    game = game_type("doudizhu")
    rules = game.rules_with("jj", {"bomb_factor": "jj_linear", "all_pass": "forced"})
    state: Any = game.play_out(game.new_hand(rules, HandSetup(seed=3, balances=(0, 0, 0))))
    record = record_hand("doudizhu", state)
    assert record.changes == (("all_pass", "forced"), ("bomb_factor", "jj_linear"))
    again = HandRecord.from_json(record.to_json())
    assert again == record and verify(again).ok
    unknown = dataclasses.replace(again, changes=(("bomb_factor", "triple"),))
    assert verify(unknown).code == "bad_options"
