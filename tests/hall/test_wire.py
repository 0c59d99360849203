"""The wire forms: every view (a spectator's too) and every event kind of many random hands
of each game is JSON, and each value in it reads back to the value it came from (cards,
moves, actions, enums, tuples, nested records)."""

from __future__ import annotations

import dataclasses
import enum
import json
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.cards import Card
from qipai.errors import InvalidActionError
from qipai.games import doudizhu, showhand, zhajinhua
from qipai.games.doudizhu import events as ddz_events
from qipai.games.doudizhu.actions import Deal, Escape, Show, Trustee
from qipai.games.doudizhu.combos import Move
from qipai.games.doudizhu.rules import EscapeModel
from qipai.games.doudizhu.tasks import Task
from qipai.games.events import SPECTATOR
from qipai.games.showhand import events as sh_events
from qipai.games.zhajinhua import events as zjh_events
from qipai.hall.wire import (
    MAX_ACTION_TEXT,
    action_text,
    event_json,
    parse_action,
    to_json,
    view_json,
)

PARSED: dict[tuple[str, str], object] = {}


def parsed(game: str, text: str) -> object:
    """``parse_action(game, text)``, remembered (the same plays recur in every view)."""
    key = (game, text)
    if key not in PARSED:
        PARSED[key] = parse_action(game, text)
    return PARSED[key]


def same(value: object, data: object, game: str) -> None:
    """``data`` (decoded JSON) is the wire form of ``value``, read back piece by piece."""
    if value is None or isinstance(value, (bool, int, str)):
        assert data == value and type(data) is type(value)
    elif isinstance(value, Card):
        assert isinstance(data, str) and Card.parse(data) == value
    elif isinstance(value, enum.Enum):
        assert isinstance(data, str) and data == data.lower()
        assert type(value)[data.upper()] is value
    elif isinstance(value, (tuple, list)):
        assert isinstance(data, list) and len(data) == len(value)
        for item, encoded in zip(value, data, strict=True):
            same(item, encoded, game)
    elif isinstance(value, Move):
        assert isinstance(data, str)
        play = parsed("doudizhu", "play " + data)
        assert isinstance(play, doudizhu.Play) and play.move == value
    elif type(value).__str__ is not object.__str__:  # an action
        assert data == str(value) and parsed(game, data) == value
    else:
        assert dataclasses.is_dataclass(value) and isinstance(data, dict)
        names = [f.name for f in dataclasses.fields(value)]
        assert [k for k in data if k != "kind"] == names
        for name in names:
            same(getattr(value, name), data[name], game)


def check_json(data: dict[str, Any]) -> None:
    assert json.loads(json.dumps(data)) == data


def event_kinds(module: ModuleType) -> set[str]:
    base = module.Event
    return {
        name
        for name, value in vars(module).items()
        if isinstance(value, type) and issubclass(value, base) and value is not base
    }


class Recorder:
    """Checks every view of every seat after every step, and every event once."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.kinds: set[str] = set()
        self.views = 0

    def check(self, state: Any, seats: int, start: int) -> int:
        for event in state.events[start:]:
            data = event_json(event)
            check_json(data)
            assert data["kind"] == type(event).__name__
            same(event, data, self.game)
            self.kinds.add(data["kind"])
        for seat in (*range(seats), SPECTATOR):
            view = state.view(seat)
            data = view_json(self.game, view)
            check_json(data)
            same(view, data, self.game)  # legal actions included
            self.views += 1
        return len(state.events)


def ddz_step(state: doudizhu.State, rng: random.Random) -> None:
    roll = rng.random()
    seat = rng.randrange(3)
    if roll < 0.03 and state.rules.escape is not EscapeModel.NONE:
        state.apply(Escape(), seat)
    elif roll < 0.08:
        state.apply(Trustee(not state.trustee[seat]), seat)
    elif state.current_player is None:
        if Show() in state.legal_actions(seat) and roll < 0.3:
            state.apply(Show(), seat)
        else:
            state.apply(Deal(rng.randint(1, 17 - state.cards_dealt)))
    else:
        state.apply(rng.choice(state.legal_actions()), state.current_player)


def play_doudizhu(seed: int, recorder: Recorder) -> None:
    rng = random.Random(seed)
    rules = list(doudizhu.RULES.values())[seed % len(doudizhu.RULES)]
    if seed % 2:  # every task in the list: 任务 drawn, and some completed
        rules = rules.derive(rules.name, tasks=tuple(Task))
    state = doudizhu.State.new(rules, seed=seed)
    seen = recorder.check(state, 3, 0)
    while not state.is_terminal and state.deal_number < 4:
        ddz_step(state, rng)
        seen = recorder.check(state, 3, seen)


def play_zhajinhua(seed: int, recorder: Recorder) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 5
    state = zhajinhua.State.new("yifa", seed=seed, players=players)
    seen = recorder.check(state, players, 0)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        actions = state.legal_actions(seat)
        bets = [a for a in actions if not isinstance(a, zhajinhua.Fold)]
        state.apply(rng.choice(bets if bets and rng.random() < 0.8 else actions), seat)
        seen = recorder.check(state, players, seen)


def play_showhand(seed: int, recorder: Recorder) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    state = showhand.State.new("yifa", seed=seed, players=players)
    seen = recorder.check(state, players, 0)
    while not state.is_terminal:
        actions = state.legal_actions()
        bets = [a for a in actions if not isinstance(a, showhand.Fold)]
        if showhand.Open() in actions and rng.random() < 0.5:
            state.apply(showhand.Open())
        else:
            state.apply(rng.choice(bets if bets and rng.random() < 0.9 else actions))
        seen = recorder.check(state, players, seen)


GAMES: dict[str, tuple[Callable[[int, Recorder], None], ModuleType, int]] = {
    "doudizhu": (play_doudizhu, ddz_events, 20),
    "zhajinhua": (play_zhajinhua, zjh_events, 30),
    "showhand": (play_showhand, sh_events, 30),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_view_and_event_kind_of_random_hands_round_trips(game: str) -> None:
    play, module, hands = GAMES[game]
    recorder = Recorder(game)
    for seed in range(hands):
        play(seed, recorder)
    assert recorder.kinds == event_kinds(module)
    assert recorder.views > 100


def test_move_texts_carry_their_reading_when_ambiguous() -> None:
    chain, plane = doudizhu.readings("333444555666")[:2]
    assert (to_json(chain), to_json(plane)) == (
        "333444555666 trio_chain:6",
        "333444555666 plane_singles:5",
    )
    assert to_json(doudizhu.parse_move("33344")) == "33344"
    wild = doudizhu.parse_move("777W/7777")
    assert to_json(wild) == "777W/7777" and to_json(doudizhu.PASS) == "pass"


def test_values_without_a_wire_form_are_refused() -> None:
    for value in ({1}, 1.5, object(), {"a": 1}):
        with pytest.raises(InvalidActionError, match="bad_value"):
            to_json(value)
    with pytest.raises(InvalidActionError, match="bad_value"):
        event_json(3)
    with pytest.raises(InvalidActionError, match="bad_value"):
        view_json("doudizhu", Card("W"))
    with pytest.raises(InvalidActionError, match="unknown_game"):
        view_json("chess", None)


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("doudizhu", "play 3x"),
        ("doudizhu", "play 3456"),
        ("doudizhu", "bid 4"),
        ("doudizhu", "deal 0"),
        ("doudizhu", "trustee maybe"),
        ("zhajinhua", "raise 0"),
        ("zhajinhua", "compare x"),
        ("showhand", "bet -2"),
        ("showhand", "swap now"),
        ("showhand", ""),
        ("showhand", "x" * (MAX_ACTION_TEXT + 1)),
        ("zhajinhua", 5),
        ("doudizhu", None),
    ],
)
def test_junk_is_bad_action(game: str, text: object) -> None:
    with pytest.raises(InvalidActionError) as caught:
        parse_action(game, text)
    assert caught.value.code == "bad_action"


def test_unknown_games_are_refused() -> None:
    with pytest.raises(InvalidActionError, match="unknown_game"):
        parse_action("mahjong", "pass")


WORDS = st.sampled_from(
    ["play", "bid", "deal", "call", "raise", "compare", "bet", "autocall", "trustee", "show"]
)


@given(
    st.sampled_from(sorted(GAMES)),
    st.one_of(st.text(max_size=30), st.tuples(WORDS, st.text(max_size=20)).map(" ".join)),
)
def test_any_text_parses_to_an_action_that_round_trips_or_is_bad_action(
    game: str, text: str
) -> None:
    try:
        action = parse_action(game, text)
    except InvalidActionError as error:
        assert error.code == "bad_action"
    else:
        assert parse_action(game, action_text(action)) == action
