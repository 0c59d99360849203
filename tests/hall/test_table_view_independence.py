"""Every answer a seat can get is computable from what it may see: in every game and
preset, two hands that differ only in the cards hidden from a seat answer each of its
queries alike.

How: a hand is dealt from a deck the test chooses (the engines' shuffle is replaced by
one that returns it) and played to some point by random legal actions, every seat a
player.  A *twin* deck then moves the cards hidden from one seat at that point (another
seat's cards, a bottom not yet shown, a Zha Jin Hua hand its owner has not looked at,
Showhand hole cards: :mod:`hidden_kit`) among the places they lie, and the same actions
are replayed from it.  Where the twin's public events are the same (a Zha Jin Hua compare
or a showdown may end the other way: that twin says something else in public, and is left
out), nothing the seat may ask can differ:

- a resync (``snapshot``) and a replay of every frame from the start (``frames_since``,
  with the turn frame, its ``legal`` actions included);
- what escaping would cost (``escape_cost``: the hall's ``escape_cost`` frame is this
  answer and the seat's own balance);
- the answer to any action it may send, legal or not (applied to a copy of the table):
  accepted, or refused with which code and message (what an accepted action then causes
  may differ: a compare's loser is decided by the cards).

These are every answer the hall draws from a hand in play.  Of the client messages
(``qipai.server.api.protocol``): ``hello`` is answered by the welcome (the player's own account)
then ``frames_since`` or a ``snapshot``; ``resync`` by a ``snapshot``; ``escape_cost`` by
the price; ``act`` by ``ack`` or the refusal; ``trustee``, ``escape``, ``entropy``,
``chat``, ``join``, ``leave`` and ``ping`` by ``ack`` or an error from the seat's own state,
the room or the hand's number, never from a card.  The HTTP API tells nothing about a hand
in play (a record or replay exists only once the hand is settled: ``unknown_hand``).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hidden_kit import HIDDEN

from json_kit import wire, wires
from qipai.cards import Card
from qipai.errors import GameError
from qipai.games.doudizhu import hand as doudizhu_hand
from qipai.games.showhand import state as showhand_state
from qipai.games.zhajinhua import state as zhajinhua_state
from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.table import SeatInfo, Table
from qipai.hall.wire import action_text, event_json

PRESETS = {(room.game, room.rules): room for room in reversed(default_rooms())}
"""One room of each game and preset (the first listed)."""
HANDS = {"huanle": 40}
"""Hands played per preset (the default :data:`DEFAULT_HANDS`); huanle's escape price
counts hidden bombs, so it gets more."""
DEFAULT_HANDS = 12
TWINS = 2
"""Twin decks tried at each point."""
SEED = 2024
"""The house seed of every hand (the deck is the test's; the seed still draws yifa's
marker card and the first bidder, alike in both)."""
EAGER = ("rob", "show", "double", "call", "raise", "bet", "look", "compare")
"""Actions the random players prefer (multipliers and stakes grow, more to price)."""
JUNK = ["", "dance", "play", "play 3x", "play 3", "play 2", "play BR", "play 7777", "bid 3"]


@dataclass
class Dealer:
    """Stands in for the engines' shuffle: every deck it is asked to shuffle comes out in
    :attr:`order` (drawn once from the cards given when not set)."""

    rng: random.Random
    order: list[Card] | None = None

    def shuffled(self, cards: Sequence[Card], rng: Any) -> list[Card]:
        del rng  # the hand's own chance is left alone, so it draws alike in both decks
        if self.order is None:
            self.order = self.rng.sample(list(cards), len(cards))
        assert sorted(map(str, self.order)) == sorted(map(str, cards))
        return list(self.order)


@pytest.fixture
def dealer(monkeypatch: pytest.MonkeyPatch) -> Iterator[Dealer]:
    chosen = Dealer(random.Random(0))
    for module in (doudizhu_hand, zhajinhua_state, showhand_state):
        monkeypatch.setattr(module, "shuffled", chosen.shuffled)
    yield chosen


@dataclass(frozen=True)
class Step:
    """One thing done to the table: ``seat`` acts ``text`` at ``now``, or (``seat`` None)
    the clock is moved to ``now`` (a paced deal's next step)."""

    seat: int | None
    text: str
    now: float


@dataclass
class Hand:
    """A table and the steps that brought it where it is."""

    table: Table
    steps: list[Step] = field(default_factory=list)


def new_table(room: Room) -> Table:
    seats = [SeatInfo(f"p{s}", f"seat{s}", 10**7) for s in range(room.seats)]
    return Table(room, 1, seats, now=0.0, rng=random.Random(1), deal_step=0.5)


def play(room: Room, steps: Sequence[Step]) -> Table:
    """A new hand at a new table (dealt by the patched shuffle), ``steps`` applied."""
    table = new_table(room)
    table.start_hand("h1", SEED, now=0.0)
    for step in steps:
        if step.seat is None:
            table.tick(step.now)
        else:
            table.act(step.seat, step.text, step.now)
    return table


def replayed(room: Room, steps: Sequence[Step]) -> Table | None:
    """:func:`play`, or ``None`` where the steps cannot be replayed (a compare lost the
    other way: somebody who acted is out)."""
    try:
        return play(room, steps)
    except GameError:
        return None


def play_randomly(room: Room, rng: random.Random) -> Hand:
    """A hand played to its end by random legal actions."""
    hand = Hand(play(room, []))
    table = hand.table
    engine = room.game_type
    now = 0.0
    while table.in_hand:
        state = table.game_state
        deciding = engine.deciding(state)
        actor = deciding[0] if deciding else state.current_player
        if actor is None:  # the dealer: the next deal step is due
            deadline = table.deadline()
            assert deadline is not None
            now = deadline
            table.tick(now)
            hand.steps.append(Step(None, "", now))
            continue
        legal = [action_text(a) for a in engine.actions(state, actor)]
        eager = [text for text in legal if text.split()[0] in EAGER]
        text = rng.choice(eager if eager and rng.random() < 0.7 else legal)
        table.act(actor, text, now)
        hand.steps.append(Step(actor, text, now))
    return hand


def twin_order(order: list[Card], hidden: set[str], rng: random.Random) -> list[Card]:
    """``order`` with the cards named in ``hidden`` shuffled among their own places."""
    places = [i for i, card in enumerate(order) if str(card) in hidden]
    moved = rng.sample([order[i] for i in places], len(places))
    twin = list(order)
    for place, card in zip(places, moved, strict=True):
        twin[place] = card
    return twin


def public_events(table: Table) -> list[str]:
    """The hand's events every seat sees, as JSON."""
    seats = range(len(table.seats))
    events = table.game_state.events
    return [_text(event_json(e)) for e in events if all(e.visible_to(s) for s in seats)]


def answers(table: Table, seat: int, probes: Sequence[str], now: float) -> dict[str, str]:
    """What ``seat`` is told, query by query, as JSON text."""
    told = {
        "snapshot": _text(wire(table.snapshot(seat))),
        "frames_since": _text(wires(table.frames_since(seat, 0))),
        "escape_cost": _asked(table.escape_cost, seat),
    }
    shared = {id(table.room): table.room, id(table.engine): table.engine}  # not copied
    for text in probes:
        trial = copy.deepcopy(table, dict(shared))
        told[f"act {text!r}"] = _asked(trial.act, seat, text, now)
    return told


def _asked(query: Callable[..., Any], *args: Any) -> str:
    try:
        return _text(["answer", query(*args)])
    except GameError as error:
        return _text(["refused", error.code, error.message])


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def probes_at(table: Table) -> list[str]:
    """Every action any seat may take now, and some that nobody may."""
    engine, state = table.room.game_type, table.game_state
    legal = {
        action_text(action)
        for seat in range(len(table.seats))
        for action in engine.actions(state, seat)
    }
    return sorted(legal) + JUNK


@pytest.mark.parametrize(("game", "rules"), sorted(PRESETS))
def test_what_a_seat_is_told_does_not_depend_on_cards_hidden_from_it(
    game: str, rules: str, dealer: Dealer
) -> None:
    room = PRESETS[game, rules]
    rng = random.Random(f"{game}-{rules}")
    compared = 0
    hands = HANDS.get(rules, DEFAULT_HANDS)
    for _ in range(hands):
        dealer.order = None
        whole = play_randomly(room, rng).steps
        steps = whole[: rng.randrange(len(whole))]  # a point of the hand, dealt again
        table, order = play(room, steps), dealer.order
        assert order is not None and table.in_hand
        seat = rng.randrange(len(table.seats))
        hidden = HIDDEN[game](table.game_state, seat)
        now = steps[-1].now if steps else 0.0
        probes = probes_at(table)
        told = answers(table, seat, probes, now)
        for _ in range(TWINS):
            dealer.order = twin_order(order, hidden, rng)
            twin = replayed(room, steps)
            if twin is None or public_events(twin) != public_events(table):
                continue  # the cards decided something public: not a twin
            assert HIDDEN[game](twin.game_state, seat) == hidden  # the same cards, moved
            twin_told = answers(twin, seat, probes, now)
            differ = {q: (told[q], twin_told[q]) for q in told if told[q] != twin_told[q]}
            last = dataclasses.asdict(steps[-1]) if steps else None
            assert not differ, (
                f"seat {seat} was told something else once the cards hidden from it moved "
                f"(after {len(steps)} steps, the last {last}): {differ}"
            )
            compared += 1
    # twins are found for most points (a play's suits are public: moving a hidden card
    # of a rank that was played may change which suit was played, and so not be a twin)
    assert compared >= hands // 2, f"{compared} twins of {hands * TWINS} tried"
