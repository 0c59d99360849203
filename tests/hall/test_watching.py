"""Spectators 观战 in the live hall's core, by plain calls: what a spectator is sent (the
spectator view, never a hidden card), the table's delay, the bound on what one spectator
is sent at once, the count told to a table, 200 spectators at one table, and refusals
that change nothing."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from core_kit import World, room
from hidden_kit import CARD_TEXTS, HIDDEN
from matchworld_kit import MatchWorld

from json_kit import strings
from qipai.games.events import SPECTATOR
from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.chat import PHRASES
from qipai.hall.frames import to_json
from qipai.hall.rooms import load_rooms
from qipai.hall.watch.settings import TableWatch, WatchSettings, watch_settings

YIFA = room("doudizhu-yifa")  # its table closes after each hand
KEEPS = room("doudizhu-yifa", id="keeps-tables", regroup=False)  # plays on
ZJH = room("zhajinhua-yifa", regroup=False)
WATCHER = 90


def seated(world: World, user: int = 1, room_id: str = KEEPS.id) -> int:
    """``user`` joins and is seated with bots (his table's first hand recorded)."""
    world.join(user, room_id)
    world.pass_time(1.0)
    live = world.core.table_of(user)
    assert live is not None
    return live.number


def watch(world: World, user: int = WATCHER, **target: Any) -> None:
    """``user`` signs in (if new) and spectates ``target``."""
    world.core.player(user, f"p{user}")
    world.handle(c.Spectate(user, **target))


class Checker:
    """Checks every frame sent to a spectator against the spectator's view of the hand
    in play: no card the spectator may not see."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.seen = 0

    def check(self) -> None:
        world = self.world
        for send in world.sent[self.seen :]:
            number = world.core.watch.watching.get(send.user)
            if number is not None:
                check_spectator_frame(world, number, to_json(send.frame))
        self.seen = len(world.sent)


def check_spectator_frame(world: World, number: int, frame: dict[str, Any]) -> None:
    """No card in ``frame`` that a spectator of table ``number`` may not see now (a
    hand's end shows every card)."""
    assert "legal" not in frame and "options" not in frame, frame
    if frame["type"] == "snapshot":
        assert frame["seat"] is None
    live = world.core.flow.tables.get(number)
    if live is None or frame["type"] == "hand_over":
        return
    state = live.table.game_state
    if state is None or state.is_terminal:
        return
    hidden = HIDDEN[live.table.room.game](state, SPECTATOR)
    shown = {s for s in strings(frame) if s in CARD_TEXTS}
    assert not shown & hidden, (frame, shown & hidden)


def play(world: World, checker: Checker, *, hands: int, user: int = WATCHER) -> None:
    """Answer and tick until ``user`` has seen ``hands`` hands end (every step checked)."""
    for _ in range(20_000):
        checker.check()
        if len(world.frames(user, "hand_over")) >= hands:
            return
        world.answer_all()
        checker.check()
        if not world.advance():
            world.pass_time(1.0)
    raise AssertionError("the hands never ended")


@pytest.mark.parametrize("base", [KEEPS, ZJH])
def test_a_spectator_sees_every_hand_to_its_end_and_never_a_hidden_card(base: Any) -> None:
    world = World([base])
    number = seated(world, room_id=base.id)
    world.answer_all()
    watch(world, table=number)
    checker = Checker(world)
    first = world.frames(WATCHER)[0]
    assert first["type"] == "snapshot" and first["seat"] is None and first["table"] == number
    check_spectator_frame(world, number, first)
    play(world, checker, hands=3)
    frames = world.frames(WATCHER)
    kinds = {frame["type"] for frame in frames}
    assert {"snapshot", "hand_start", "event", "turn", "hand_over"} <= kinds
    numbers = [frame["n"] for frame in frames if frame["type"] == "event"]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # none missed
    assert any(frame.get("hidden") for frame in frames if frame["type"] == "event")
    assert world.frames(1, "spectator_count")[0] == {
        "type": "spectator_count", "table": number, "count": 1
    }  # fmt: skip


def test_the_checker_catches_a_hidden_card() -> None:
    world = World([KEEPS])
    number = seated(world)
    world.answer_all()
    live = world.core.flow.tables[number]
    hidden = sorted(HIDDEN["doudizhu"](live.table.game_state, SPECTATOR))
    with pytest.raises(AssertionError):
        check_spectator_frame(world, number, {"type": "event", "event": {"cards": hidden[:1]}})


def test_chat_reaches_the_spectators() -> None:
    world = World([KEEPS])
    number = seated(world)
    world.answer_all()
    watch(world, table=number)
    world.handle(c.Chat(1, PHRASES[0]))
    assert world.frames(WATCHER, "chat")[-1]["phrase"] == PHRASES[0]


def configure(world: World, number: int, options: TableWatch) -> None:
    """Table ``number``'s own options (as a private table sets them)."""
    out: list[e.Effect] = []
    world.core.watch.configure(world.core.flow.tables[number], options, out, world.now)
    for effect in out:
        world._take(effect)


def test_a_delay_holds_the_spectators_frames_back() -> None:
    world = World([KEEPS])
    number = seated(world)
    configure(world, number, TableWatch(delay=5.0))
    watch(world, table=number)
    assert world.frames(WATCHER, "snapshot") == [] and world.core.watch.count(number) == 1
    told: dict[int, float] = {}  # event n → when the player was told
    for _ in range(800):
        for work in (world.answer_all, world.advance, world.matchmake):
            before = len(world.sent)
            work()  # each at one reading of the clock
            for send in world.sent[before:]:
                frame = to_json(send.frame)
                if frame["type"] != "event":
                    continue
                if send.user == 1:
                    told.setdefault(frame["n"], world.now)
                elif send.user == WATCHER:
                    assert world.now >= told[frame["n"]] + 5.0, frame
        if world.wake is None:
            world.now += 1.0
        if len(world.frames(WATCHER, "hand_over")) >= 1:
            break
    assert [f["type"] for f in world.frames(WATCHER)][:2] == ["spectator_count", "snapshot"]
    assert world.frames(WATCHER, "hand_over")


def test_a_spectator_over_the_bound_gets_one_snapshot_instead() -> None:
    world = World([KEEPS])
    world.core.watch.settings = WatchSettings(backlog=2)
    number = seated(world)
    watch(world, table=number)
    spectated = world.core.flow.spectators
    assert spectated is not None
    sizes: list[int] = []

    def spy(live: Any, frames: Any, out: list[e.Effect], now: float) -> None:
        before = len(out)
        spectated(live, frames, out, now)
        sent = [to_json(s.frame)["type"] for s in out[before:] if isinstance(s, e.Send)]
        if len(frames) > 2:
            assert sent == ["snapshot"], sent
        else:
            assert sent == [to_json(frame)["type"] for frame in frames]
        sizes.append(len(frames))

    world.core.flow.spectators = spy
    for _ in range(200):
        world.answer_all()
        world.advance() or world.pass_time(1.0)
    assert max(sizes) > 2 and min(sizes) <= 2
    later = [f["type"] for f in world.frames(WATCHER)[1:]]
    assert "snapshot" in later and "event" in later


def test_the_count_is_told_at_most_once_a_second() -> None:
    world = World([KEEPS])
    number = seated(world)
    world.answer_all()
    for user in (91, 92, 93):
        watch(world, user, table=number)
    assert [f["count"] for f in world.frames(1, "spectator_count")] == [1]
    world.handle(c.StopSpectating(92))
    assert world.frames(92)[-1] == {"type": "spectate_ended", "table": number, "reason": "stopped"}
    world.now += 1.0
    world.handle(c.Tick())
    assert [f["count"] for f in world.frames(1, "spectator_count")] == [1, 2]
    assert world.frames(91, "spectator_count")[-1]["count"] == 2


def test_a_spectator_leaves_when_he_joins_drops_or_the_table_closes() -> None:
    world = World([YIFA, KEEPS])
    number = seated(world, room_id=YIFA.id)
    watch(world, table=number)
    watch(world, 91, player="p1")
    assert world.core.watch.watching == {WATCHER: number, 91: number}
    world.handle(c.Join(WATCHER, KEEPS.id, 10_000))
    assert world.frames(WATCHER)[-1] == {
        "type": "spectate_ended", "table": number, "reason": "moved"
    }  # fmt: skip
    world.handle(c.Presence(91, False))
    assert 91 not in world.core.watch.watching and 91 not in world.core.players
    watch(world, 92, table=number)
    world.run_until_quiet()  # the hand ends: a YIFA table closes
    assert world.frames(92)[-1] == {
        "type": "spectate_ended", "table": number, "reason": "table_closed"
    }  # fmt: skip
    assert world.core.watch.watching == {} and world.core.watch.audiences == {}
    assert world.frames(92, "hand_over")


def refused(world: World, command: c.Command) -> str:
    before = len(world.effects)
    error = world.try_handle(command)
    assert error is not None and len(world.effects) == before
    return error.code


def at_match_table(world: MatchWorld, user: int) -> int:
    """``user``, registered in the match, is seated with bots once its wait is over; the
    number of his match table."""
    world.tick(6)
    live = world.core.table_of(user)
    assert live is not None and world.core.matches.run_of(user) is not None
    assert live.seating is None and world.core.private.of(live) is None  # a match's
    return live.number


def test_refusals_change_nothing() -> None:
    world = MatchWorld(rooms=[KEEPS, YIFA])
    number = seated(world)
    world.core.player(WATCHER, "w")
    assert refused(world, c.Spectate(1, table=number)) == "already_in_room"
    assert refused(world, c.Spectate(WATCHER, table=number + 7)) == "table_closed"
    assert refused(world, c.Spectate(WATCHER)) == "bad_message"
    assert refused(world, c.Spectate(WATCHER, table=number, player="p1")) == "bad_message"
    assert refused(world, c.Spectate(WATCHER, player="nobody")) == "not_playing"
    assert refused(world, c.Spectate(77, table=number)) == "not_connected"
    assert refused(world, c.StopSpectating(WATCHER)) == "not_spectating"
    world.core.watch.settings = WatchSettings(cash_tables=False)
    assert refused(world, c.Spectate(WATCHER, table=number)) == "not_watchable"
    world.core.watch.settings = WatchSettings()
    world.register(2)
    match_table = at_match_table(world, 2)
    assert refused(world, c.Spectate(WATCHER, table=match_table)) == "not_watchable"
    assert world.core.watch.watching == {} and not world.core.flow.tables[number].table.watched


def test_the_watch_section_of_the_rooms_file() -> None:
    assert watch_settings({}) == WatchSettings(True, 64)
    document = {"watch": {"watch_cash_tables": False, "spectator_backlog": 8}}
    assert watch_settings(document) == WatchSettings(False, 8)
    for bad in ({"colour": 1}, {"spectator_backlog": 0}, {"watch_cash_tables": "yes"}):
        with pytest.raises(Exception, match="watch"):
            watch_settings({"watch": bad})


def run_hands(spectators: int, hands: int = 2) -> tuple[World, int]:
    """A table of ``KEEPS`` with ``spectators`` watching, played for ``hands`` hands."""
    world = World([KEEPS], seed=3)
    number = seated(world)
    world.answer_all()
    for user in range(100, 100 + spectators):
        watch(world, user, table=number)
    while len(world.frames(1, "hand_over")) < hands:
        world.answer_all()
        world.advance() or world.pass_time(1.0)
    return world, number


def test_200_spectators_cost_the_players_nothing_and_each_gets_a_bounded_share() -> None:
    alone, _ = run_hands(0)
    crowd, number = run_hands(200)

    def players_frames(world: World) -> list[dict[str, Any]]:
        return [f for f in world.frames(1) if f["type"] != "spectator_count"]

    assert players_frames(crowd) == players_frames(alone)
    shares = {len(crowd.frames(user)) for user in range(100, 300)}
    assert len(shares) <= 2 and max(shares) <= len(crowd.frames(1)) + 2, shares
    assert crowd.frames(1, "spectator_count")[-1]["count"] == 200
    assert crowd.core.watch.count(number) == 200


def test_a_rooms_file_may_hold_the_watch_section() -> None:
    text = '[watch]\nwatch_cash_tables = false\n\n[[room]]\nid = "r"\nname = "r"\n'
    text += 'game = "doudizhu"\nrules = "yifa"\n'
    [only] = load_rooms(text)
    assert only.id == "r"
    assert watch_settings(tomllib.loads(text)) == WatchSettings(cash_tables=False)


def test_a_spectator_who_registers_for_a_match_stops_watching() -> None:
    """A match is a place: registering ends the watch (one place per person)."""
    world = MatchWorld(rooms=[KEEPS])
    number = seated(world)
    watch(world, table=number)
    world.register(WATCHER)
    assert world.frames(WATCHER, "spectate_ended") == [
        {"type": "spectate_ended", "table": number, "reason": "moved"}
    ]
    assert world.core.watch.watching == {}
    at_match_table(world, WATCHER)
    assert world.core.table_of(WATCHER) is not None


def test_a_table_of_its_own_options_may_refuse_spectators() -> None:
    world = World([KEEPS])
    number = seated(world)
    with pytest.raises(Exception, match="bad_delay"):
        configure(world, number, TableWatch(delay=-1.0))
    configure(world, number, TableWatch(allowed=False))
    world.core.player(WATCHER, "w")
    assert refused(world, c.Spectate(WATCHER, table=number)) == "not_watchable"
    assert refused(world, c.Spectate(WATCHER, player="p1")) == "not_watchable"


def test_a_spectator_asks_a_fresh_snapshot_with_resync() -> None:
    world = World([KEEPS])
    number = seated(world)
    world.answer_all()
    watch(world, table=number)
    [reply] = world.handle(c.Resync(WATCHER))
    assert isinstance(reply, e.Reply)
    [snapshot] = reply.frames
    assert to_json(snapshot)["seat"] is None
    check_spectator_frame(world, number, to_json(snapshot))
    world.core.player(91, "p91")  # neither seated nor watching
    assert refused(world, c.Resync(91)) == "not_seated"


def test_delayed_frames_past_the_bound_come_as_one_snapshot() -> None:
    world = World([KEEPS])
    world.core.watch.settings = WatchSettings(backlog=2)
    number = seated(world)
    configure(world, number, TableWatch(delay=3.0))
    watch(world, table=number)
    released: list[list[str]] = []
    for _ in range(300):
        world.answer_all()
        before = len(world.sent)
        if not world.advance():  # one tick: what falls due then is released at once
            world.now += 1.0
        sent = [to_json(s.frame)["type"] for s in world.sent[before:] if s.user == WATCHER]
        sent = [kind for kind in sent if kind != "spectator_count"]
        assert len(sent) <= 2 or sent == ["snapshot"], sent
        released.append(sent)
    assert ["snapshot"] in released[1:] and any("event" in kinds for kinds in released)


def test_a_spectator_who_watched_by_name_follows_the_player_to_his_next_table() -> None:
    """A cash table closes after its hand (a room that regroups): its spectator sees the
    hand to its end (the last play, the result), then, having watched a player by his
    name, waits for that player's next table (``following``) and watches it."""
    world = World([YIFA])
    number = seated(world, room_id=YIFA.id)
    watch(world, player="p1")
    watch(world, 91, table=number)  # by the table's number: its close ends his watch
    world.run_until_quiet()
    frames = world.frames(WATCHER)
    ended = {"type": "spectate_ended", "table": number, "reason": "following"}
    assert frames[-1] == ended and frames[-2]["type"] == "hand_over"
    assert world.frames(91)[-1]["reason"] == "table_closed"
    assert world.core.watch.trailing == {WATCHER: number}
    assert world.core.place_of(WATCHER) is not None  # he still watches: no room for him
    world.pass_time(30.0)  # p1 is regrouped with bots at a new table
    live = world.core.table_of(1)
    assert live is not None and live.number != number
    snapshot = world.frames(WATCHER, "snapshot")[-1]
    assert snapshot["table"] == live.number and snapshot["seat"] is None
    assert world.core.watch.watching == {WATCHER: live.number}
    assert world.frames(1, "spectator_count")[-1] == {
        "type": "spectator_count", "table": live.number, "count": 1
    }  # fmt: skip
    world.handle(c.StopSpectating(WATCHER))
    assert world.frames(WATCHER)[-1]["reason"] == "stopped"
    assert world.core.watch.following == {} and not world.core.watch.watches(WATCHER)


def test_a_spectator_is_told_when_the_player_he_followed_left() -> None:
    """The player leaves the room after his hand: his spectator, who waited for his next
    table, is told ``player_left`` (also when the player left during the hand)."""
    world = World([YIFA])
    number = seated(world, room_id=YIFA.id)
    watch(world, player="p1")
    world.handle(c.Leave(1))  # once his hand is over
    world.run_until_quiet()
    assert world.frames(WATCHER)[-1] == {
        "type": "spectate_ended", "table": number, "reason": "player_left"
    }  # fmt: skip
    assert not world.core.watch.watches(WATCHER) and world.core.watch.following == {}
    assert world.core.place_of(WATCHER) is None


def test_a_player_who_no_longer_lets_others_watch_him_is_not_followed() -> None:
    world = World([YIFA])
    number = seated(world, room_id=YIFA.id)
    watch(world, player="p1")
    world.run_until_quiet()
    assert world.core.watch.trailing == {WATCHER: number}
    world.handle(c.WatchByName(1, False))
    world.pass_time(30.0)
    assert world.core.table_of(1) is not None
    assert world.frames(WATCHER)[-1] == {
        "type": "spectate_ended", "table": number, "reason": "player_left"
    }  # fmt: skip
    assert not world.core.watch.watches(WATCHER)
