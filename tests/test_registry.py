"""The game registry: every shipped game registered once, and the hall and the server
naming none of them (they find games only through the registry)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qipai.errors import InvalidActionError
from qipai.hall.rooms import Room, default_rooms
from qipai.registry import HandSetup, game_names, game_type

SRC = Path(__file__).resolve().parent.parent / "src" / "qipai"
GENERIC = ("hall", "server")
"""The packages that must find games only through the registry."""


def _names_of_games() -> set[str]:
    """Every game's key, Chinese title and preset names, and the English names."""
    names = {"Dou Dizhu", "Zha Jin Hua", "Showhand", "DouDizhu", "ZhaJinHua"}
    names |= {"斗地主", "扎金花", "梭哈", "征途", "欢乐", "易发", "财神", "JJ"}
    for name in game_names():
        game = game_type(name)
        names |= {name, game.title, *game.presets}
    return names


def test_the_shipped_games_are_registered_with_what_a_room_needs() -> None:
    assert game_names() == ("doudizhu", "zhajinhua", "showhand")
    for name in game_names():
        game = game_type(name)
        low, high = game.seats
        assert game.name == name and game.title and game.web_module
        assert low <= game.default_seats <= high and game.presets
        assert (SRC / "web" / "static" / "js" / "games" / f"{game.web_module}.js").is_file()


@pytest.mark.parametrize("room", default_rooms(), ids=lambda room: room.id)
def test_every_shipped_room_plays_a_hand_through_its_game(room: Room) -> None:
    """Each game's pieces fit: the room's rules, a hand, the bots to its end, winners."""
    game = room.game_type
    setup = HandSetup(seed=3, balances=(10**6,) * room.seats)
    state = game.play_out(game.new_hand(room.game_rules(), setup))
    assert sum(state.returns()) <= 0 and game.winners(state)


def test_the_hall_and_the_server_name_no_game() -> None:
    """``grep`` finds no game's name in ``src/qipai/hall`` or ``src/qipai/server``."""
    pattern = re.compile("|".join(rf"\b{re.escape(name)}\b" for name in _names_of_games()))
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for package in GENERIC
        for path in sorted((SRC / package).rglob("*"))
        if path.is_file() and path.suffix in {".py", ".toml", ".md", ".sql", ".mako"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "game names in the generic packages:\n" + "\n".join(found)


def test_rule_changes_take_toml_values_and_refuse_the_wrong_kind() -> None:
    game = game_type("doudizhu")
    changed = game.rules_with("jj", {"bomb_factor": "jj_linear", "doubling_cap": 8})
    assert (changed.bomb_factor.value, changed.doubling_cap, changed.name) == ("jj_linear", 8, "jj")
    assert game.rules_with("jj", {}) is game.get_rules("jj")
    for changes, problem in [
        ({"bomb_factor": "triple"}, "bomb_factor is one of"),
        ({"doubling_cap": True}, "doubling_cap cannot be True"),
        ({"bottom_bonus": 1}, "bottom_bonus cannot be 1"),
        ({"name": "x"}, "no rule 'name'"),
        ({"colour": "red"}, "no rule 'colour'"),
    ]:
        with pytest.raises(InvalidActionError, match=f"bad_rules: {problem}"):
            game.rules_with("jj", changes)


def test_the_hall_plays_the_strong_bot_and_simulations_the_quick_one() -> None:
    from qipai.bots.doudizhu import GreedyPolicy, StrongPolicy  # noqa: PLC0415

    doudizhu = game_type("doudizhu")
    assert isinstance(doudizhu.bot, StrongPolicy) and isinstance(doudizhu.quick_bot, GreedyPolicy)
    assert isinstance(doudizhu.trustee_policy("strong"), StrongPolicy)
    zhajinhua = game_type("zhajinhua")
    assert zhajinhua.quick_bot is zhajinhua.bot
    assert zhajinhua.trustee_policy("basic") is zhajinhua.trustee
