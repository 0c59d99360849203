"""Prizes that scale with the field: a scheduled match pays at most a third of its
entrants, from its fees and at most the operator's guarantee; a regular match's table is
refused when it costs more than its fees and guarantee; ``qipai match list`` says what the
guarantee costs the house at the minimum field."""

from __future__ import annotations

import json
import textwrap

import pytest

from qipai.cli import main
from qipai.errors import InvalidActionError
from qipai.hall.match.config import MatchConfig, default_matches, load_matches, match_by_id
from qipai.hall.match.prizes import Prize, house_cost, paid_prizes

TABLE = (Prize(1, 1, 20000), Prize(2, 3, 8000), Prize(4, 10, 2000))
"""``zhengdian``'s prize table: 50,000 for a full field."""


def test_a_seven_player_run_is_not_paid_a_full_fields_table() -> None:
    """7 entrants at 200 (1,400 of fees), no guarantee: two places, 1,400 between them
    (the issue's run paid 44,000 to all seven)."""
    prizes = paid_prizes(TABLE, entrants=7, entry_fee=200, guarantee=0, scaled=True)
    assert prizes == {1: 1000, 2: 400}
    assert house_cost(TABLE, entrants=7, entry_fee=200, guarantee=0, scaled=True) == 0


def test_the_guarantee_is_the_most_the_house_adds() -> None:
    for entrants in range(6, 400, 7):
        cost = house_cost(TABLE, entrants=entrants, entry_fee=200, guarantee=5000, scaled=True)
        assert 0 <= cost <= 5000
        paid = paid_prizes(TABLE, entrants=entrants, entry_fee=200, guarantee=5000, scaled=True)
        assert len(paid) <= max(1, entrants // 3)
        assert list(paid.values()) == sorted(paid.values(), reverse=True)  # rank order kept
    full = paid_prizes(TABLE, entrants=3000, entry_fee=200, guarantee=5000, scaled=True)
    assert sum(full.values()) == 50000  # a big field is paid the table as listed


def test_a_regular_match_pays_its_table_and_its_guarantee_is_explicit() -> None:
    text = """
    [[match]]
    id = "r"
    name = "r"
    kind = "regular"
    game = "doudizhu"
    rules = "jj"
    players = 3
    entry_fee = 10
    {extra}
    [[match.stage]]
    kind = "fixed"
    [[match.prize]]
    ranks = [1, 1]
    coins = 40
    """
    with pytest.raises(InvalidActionError, match=r"field 'guarantee'.*exceed the fees"):
        load_matches(textwrap.dedent(text.format(extra="")))
    [match] = load_matches(textwrap.dedent(text.format(extra="guarantee = 10")))
    assert match.paid_prizes(3) == {1: 40} and match.house_cost(3) == 10


def zhengdian() -> MatchConfig:
    return match_by_id(default_matches(), "zhengdian")


def test_match_list_shows_the_guarantees_cost_at_the_minimum_field(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "list", "--json"]) == 0
    listed = {m["name"]: m for m in json.loads(capsys.readouterr().out)}
    shipped = listed["zhengdian"]
    assert shipped["guarantee"] == 5000 and shipped["min_players"] == 6
    assert 0 < shipped["house_cost_at_minimum"] <= 5000
    assert shipped["house_cost_at_minimum"] == zhengdian().house_cost(6)
    assert [p["rank"] for p in shipped["prizes_at_minimum"]] == [1, 2]
    assert main(["match", "list"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("zhengdian"))
    assert f"house pays {shipped['house_cost_at_minimum']} at 6 players" in line
