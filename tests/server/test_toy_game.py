"""A fourth game, defined in this file alone, registered, and played through the real hall.

比大小 (high card): each of two or three players is dealt one card of nine (1-9) from the
seed's deal stream; in turn each says ``stay`` or ``fold``; the highest card among those who
stayed wins one chip from every other player (the last to stay wins if all others fold,
and if all fold the first seat wins).  Nothing outside this file knows the game: the test
registers it (:func:`qipai.registry.register`), configures a room of it in TOML,
and two guests play it over WebSocket against each other, with a bot for the third seat;
the hand is settled on the ledger and its record verifies.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from server_kit import fast_config, running_hall
from wire_kit import Frame, guests, seat_together

from qipai.chance import V2, chance_for
from qipai.client.connection import HallClient
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.events import Event
from qipai.hall.records import HandRecord, verify
from qipai.hall.rooms import load_rooms
from qipai.registry import GameType, HandSetup, register, unregister

CARDS = tuple(range(1, 10))


@dataclass(frozen=True, slots=True)
class Rules:
    """The one preset."""

    name: str = "plain"
    stake: int = 1
    """Chips each loser pays the winner."""


@dataclass(frozen=True, slots=True)
class Say:
    """``stay`` or ``fold``."""

    word: str

    def __str__(self) -> str:
        return self.word

    @classmethod
    def parse(cls, text: str) -> Say:
        word = text.strip()
        if word not in ("stay", "fold"):
            raise InvalidActionError("bad_action", f"stay or fold, not {text!r}")
        return cls(word)


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """The seat's card (secret to it)."""

    seat: int
    card: int

    def visible_to(self, seat: int) -> bool:
        return seat == self.seat


@dataclass(frozen=True, slots=True)
class Said(Event):
    """A seat's word (public)."""

    seat: int
    word: str


@dataclass(frozen=True, slots=True)
class Won(Event):
    """The hand's end: the winner and every card (public)."""

    winner: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat sees."""

    seat: int
    card: int
    said: tuple[str | None, ...]
    current_player: int | None
    legal_actions: tuple[Say, ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action."""

    seat: int
    action: Say


class State:
    """A hand of 比大小."""

    def __init__(self, rules: Rules, seed: int, players: int, chance: str) -> None:
        if not 2 <= players <= 3:
            raise InvalidActionError("bad_players", f"2 or 3 players, not {players}")
        deck = list(CARDS)
        chance_for(seed, chance).shuffle(deck)
        self.rules, self.seed, self.players, self.chance = rules, seed, players, chance
        self.cards = tuple(deck[:players])
        self.said: list[str | None] = [None] * players
        self.events: list[Any] = [Dealt(seat, card) for seat, card in enumerate(self.cards)]
        self.history: list[Step] = []
        self.winner: int | None = None

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None

    @property
    def current_player(self) -> int | None:
        if self.is_terminal:
            return None
        return self.said.index(None)

    def legal_actions(self, seat: int | None = None) -> list[Say]:
        if self.is_terminal or seat not in (None, self.current_player):
            return []
        return [Say("stay"), Say("fold")]

    def apply(self, action: Say, seat: int | None = None) -> list[Any]:
        actor = self.current_player if seat is None else seat
        if actor != self.current_player or actor is None:
            raise IllegalActionError("not_your_turn", f"seat {seat} is not to act")
        if not isinstance(action, Say):
            raise InvalidActionError("bad_action", f"not an action of 比大小: {action!r}")
        self.said[actor] = action.word
        self.history.append(Step(actor, action))
        events: list[Any] = [Said(actor, action.word)]
        if None not in self.said:
            stayed = [s for s, word in enumerate(self.said) if word == "stay"] or [0]
            self.winner = max(stayed, key=lambda s: self.cards[s])
            events.append(Won(self.winner, self.cards))
        self.events += events
        return events

    def view(self, seat: int) -> View:
        legal = tuple(self.legal_actions(seat))
        winner = self.winner
        return View(seat, self.cards[seat], tuple(self.said), self.current_player, legal, winner)

    def returns(self) -> tuple[int, ...]:
        if self.winner is None:
            return (0,) * self.players
        stake = self.rules.stake
        return tuple(
            stake * (self.players - 1) if s == self.winner else -stake
            for s in range(self.players)
        )


class HighCard(GameType[Rules, State, Say, View]):
    """比大小, as a game of the registry (over its own rules, hand, action and view)."""

    name = "highcard"
    title = "比大小"
    seats = (2, 3)
    default_seats = 3
    web_module = "highcard"
    record_options = ("players",)
    presets: ClassVar[Mapping[str, Rules]] = {"plain": Rules()}
    action_type = Say

    def rules_for_room(self, preset: str, room: Any) -> Rules:
        return self.presets[preset]

    def new_hand(self, rules: Rules, setup: HandSetup[State]) -> State:
        return State(rules, setup.seed, len(setup.balances), V2)

    def bot_action(self, state: State, seat: int) -> Say:
        return Say("stay" if state.cards[seat] >= 5 else "fold")

    def trustee_action(self, state: State, seat: int) -> Say:
        return Say("fold")

    def winners(self, state: State) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def reveal(self, state: State) -> dict[str, object]:
        return {"hands": [[card] for card in state.cards]}

    def replay(
        self, rules: Rules, seed: int, steps: Sequence[tuple[int | None, Say]], **options: Any
    ) -> State:
        state = State(rules, seed, options["players"], options.get("chance", V2))
        for seat, action in steps:
            state.apply(action, seat)
        return state


ROOM = """
[[room]]
id = "highcard-1"
name = "比大小"
game = "highcard"
rules = "plain"
bot_wait = 0.3
"""


@pytest.fixture
def highcard() -> Iterator[GameType]:
    """The toy game, registered for this test only."""
    yield register(HighCard())
    unregister(HighCard.name)


def test_a_game_registered_in_one_file_plays_through_the_hall(
    highcard: GameType, tmp_path: Path
) -> None:
    [room] = load_rooms(ROOM)
    assert (room.game_type, room.seats, room.min_coins) == (highcard, 3, 0)
    config = fast_config(f"sqlite:///{tmp_path / 'toy.db'}")
    config = dataclasses.replace(config, rooms=(*config.rooms, room))
    with running_hall(config) as hall:
        overs, frames = asyncio.run(_two_guests_and_a_bot(hall.url, room.id))
        with httpx.Client(base_url=hall.url) as http:
            checked = http.get(f"/api/hands/{overs[0]['hand']}").json()
            replay = http.get(f"/api/hands/{overs[0]['hand']}/replay").json()
            rooms = {r["id"]: r for r in http.get("/api/rooms").json()}
    assert rooms[room.id]["web_module"] == "highcard"  # the browser's js/games/highcard.js
    over = overs[0]
    assert overs[0]["result"] == overs[1]["result"] and sorted(over["result"]) == [-1, -1, 2]
    assert verify(HandRecord.from_json(json.dumps(over["record"]))).ok
    assert checked["verified"] and checked["record"]["game"] == "highcard"
    steps = [[step["seat"], step["action"]] for step in replay["steps"][1:]]
    assert steps == over["record"]["actions"]
    dealt = [f["event"] for f in frames[0] if f.get("type") == "event" and "event" in f]
    cards = [e for e in dealt if e["kind"] == "Dealt"]
    assert len(cards) == 1, "each guest saw his own card only"
    hidden = [f for f in frames[0] if f.get("type") == "event" and f.get("hidden")]
    assert len(hidden) >= 2, "the others' cards were hidden from him"


async def _two_guests_and_a_bot(url: str, room: str) -> tuple[list[Frame], list[list[Frame]]]:
    async with HallClient(url) as client, guests(client, 2) as players:
        await seat_together(players, room)
        overs = await asyncio.gather(*(p.play_out(lambda legal: "stay") for p in players))
        for player in players:
            me = await client.me(player.session.token)
            assert me["coins"] == player.session.coins + overs[0]["result"][player.seat]
        return list(overs), [p.frames for p in players]
