"""Replays of finished hands: each step as the seat saw it, every card revealed, none lost.

Hands of every shipped room are played by the bots (seeded); the view of every seat after
every action is kept as the hand goes, then the replay of the record must give back those
very views, step for step, and cards that add up: each seat's own cards in its view are its
revealed cards, and no card is in two places.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from qipai.errors import InvalidActionError
from qipai.games.showhand import hands as sh_hands
from qipai.games.zhajinhua import hands as zjh_hands
from qipai.hall.records import record_hand
from qipai.hall.rooms import Room, default_rooms
from qipai.hall.watch.replays import replay_json
from qipai.hall.wire import view_json
from qipai.jsontypes import Json
from qipai.registry import HandSetup

ROOMS = default_rooms()
SEEDS = range(4)
DECK = {"doudizhu": 54, "zhajinhua": 52, "showhand": 28}


def play(room: Room, seed: int) -> tuple[Any, list[list[dict[str, Json]]]]:
    """A hand of ``room`` played by the bots; every seat's view before and after each action."""
    engine = room.game_type
    setup = HandSetup(seed=seed, balances=(200_000,) * room.seats)
    state = engine.new_hand(room.game_rules(), setup)

    def views() -> list[dict[str, Json]]:
        return [view_json(room.game, state.view(seat)) for seat in range(room.seats)]

    seen = [views()]
    while not state.is_terminal:
        deal = engine.deal_step(state)
        if deal is not None:
            state.apply(deal)
        else:
            seat = state.current_player
            state.apply(engine.bot_action(state, seat), seat)
        seen.append(views())
    return state, seen


def without_legal(view: dict[str, Json]) -> dict[str, Json]:
    return {**view, "legal_actions": []}


@pytest.mark.parametrize("room", ROOMS, ids=[room.id for room in ROOMS])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_step_is_the_view_the_seat_had(room: Room, seed: int) -> None:
    state, seen = play(room, seed)
    record = record_hand(room.game, state, seed=seed)
    for seat in range(room.seats):
        replay = replay_json(record, seat)
        steps: list[Any] = replay["steps"]  # type: ignore[assignment]
        assert (replay["game"], replay["rules"], replay["seat"]) == (room.game, room.rules, seat)
        assert [step["view"] for step in steps] == [without_legal(views[seat]) for views in seen]
        assert [(step["seat"], step["action"]) for step in steps] == [(None, None), *record.actions]


@pytest.mark.parametrize("room", ROOMS, ids=[room.id for room in ROOMS])
def test_the_revealed_cards_are_the_seats_own_and_add_up(room: Room) -> None:
    state, _ = play(room, seed=11)
    replay = replay_json(record_hand(room.game, state, seed=11), seat=0)
    steps: list[Any] = replay["steps"]  # type: ignore[assignment]
    for step in steps:
        cards, view = step["cards"], step["view"]
        assert len(cards["hands"]) == room.seats
        placed = Counter(card for hand in cards["hands"] for card in hand)
        placed.update(card for play in cards.get("played", []) for card in play)
        placed.update(card for card in cards.get("pending", []) if card is not None)
        if room.game == "doudizhu" and view["landlord"] is None:
            placed.update(cards["bottom"])  # not yet in the landlord's hand
        assert max(placed.values()) == 1, "a card in two places"
        if "categories" in cards:
            expected = [category_name(room.game, "".join(hand)) for hand in cards["hands"]]
            assert cards["categories"] == expected
        own = own_cards(room.game, view)
        if own is not None:  # a blind Zha Jin Hua player's view shows none
            assert sorted(own) == sorted(cards["hands"][0])
    last = steps[-1]["cards"]
    total = sum(len(hand) for hand in last["hands"]) + sum(map(len, last.get("played", [])))
    if room.game == "doudizhu":
        deck = 55 if room.rules == "caishen" else 54
        landlord = steps[-1]["view"]["landlord"]
        assert total + (len(last["bottom"]) if landlord is None else 0) == deck
    else:
        assert total == room.seats * (3 if room.game == "zhajinhua" else len(last["hands"][0]))


def category_name(game: str, text: str) -> str:
    """The category of a hand in the notation, by the text evaluators."""
    if game == "zhajinhua":
        return zjh_hands.category(text)
    if len(text) == 10:
        return sh_hands.category(text)
    return sh_hands.category_of(sh_hands.evaluate_partial(text))


def own_cards(game: str, view: dict[str, Any]) -> list[str] | None:
    """The cards of seat 0 as its own view shows them (``None``: it has not looked)."""
    if game == "doudizhu":
        return list(view["hand"])
    if game == "zhajinhua":
        return None if view["hand"] is None else list(view["hand"])
    return [view["hole"], *view["up"][0]]


def test_a_seat_the_hand_did_not_have_is_refused() -> None:
    room = next(room for room in ROOMS if room.game == "zhajinhua")
    state, _ = play(room, seed=1)
    record = record_hand(room.game, state, seed=1)
    for seat in (-1, room.seats):
        with pytest.raises(InvalidActionError) as caught:
            replay_json(record, seat)
        assert caught.value.code == "bad_seat"
