"""The values of a match's run (:mod:`qipai.hall.match.match`): where it is, the hands it deals,
the standings, the notices it gives, each finished stage's report, and a stage in
progress as it is saved (JSON data) and carried on."""

from __future__ import annotations

import enum
import random
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from qipai.hall.match.config import Stage, StageKind
from qipai.jsontypes import Json, json_array, json_int, json_object, json_str


class RunState(enum.Enum):
    """Where a run is."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EndedBy(enum.Enum):
    """Why a stage ended."""

    ADVANCE_REACHED = "advance_reached"
    """knockout: only the players it keeps were left."""
    MAX_ROUNDS = "max_rounds"
    """knockout: the operator's limit of rounds (the rest then ranked by score)."""
    HANDS_PLAYED = "hands_played"
    """fixed: every table played its hands."""
    ROUNDS_PLAYED = "rounds_played"
    """swiss: every round was played."""


@dataclass(frozen=True, slots=True)
class Seating:
    """A hand to deal now."""

    hand: int
    """The run's number of the hand, from 1."""
    stage: int
    """The stage's index."""
    round: int
    """The round of the stage (knockout: the round being played, from 1; fixed: the
    table's hand; swiss: the round)."""
    table: int
    """The stage's table number (knockout: the hand's own number)."""
    players: tuple[str, ...]
    """The players in seat order."""
    base: int
    """基数: match points per point of the hand, fixed now, at the deal."""
    forced: bool = False
    """These players' last hand was voided (no result): in this one an all-pass is scored
    (强制记分), so that it ends with a result."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place now (or at the end)."""

    rank: int
    player: str
    score: int
    stage: int
    """The last stage he played in (the ranking is by stage reached first)."""
    out: bool
    """Whether he is out (knocked out, or not among a stage's advancers)."""


@dataclass(frozen=True, slots=True)
class Spread:
    """Hands played per player: the fewest, the median (the lower middle of an even
    count) and the most."""

    min: int
    median: int
    max: int

    @classmethod
    def of(cls, counts: Iterable[int]) -> Spread:
        """The spread of ``counts`` (zeros for none)."""
        values = sorted(counts) or [0]
        return cls(values[0], statistics.median_low(values), values[-1])


@dataclass(frozen=True, slots=True)
class StageReport:
    """A finished stage: who entered, who went on, how many hands each played, why it
    ended."""

    stage: int
    kind: StageKind
    entrants: int
    advanced: int
    """Players who went on (the last stage: every finalist, ranked)."""
    hands_per_player: Spread
    """Hands each entrant played in the stage."""
    advanced_hands: Spread
    """Hands each of those who went on played in it."""
    rounds: int
    """knockout: the rounds reached (hands per player still in); else the rounds or
    hands played."""
    ended_by: EndedBy

    def __str__(self) -> str:
        """One line: ``stage 0 knockout: 3000 → 30, hands per player 1/7/17 (those who
        went on 16-17), 17 rounds, ended by advance_reached``."""
        hands, went = self.hands_per_player, self.advanced_hands
        return (
            f"stage {self.stage} {self.kind.value}: {self.entrants} → {self.advanced}, "
            f"hands per player {hands.min}/{hands.median}/{hands.max} (those who went on "
            f"{went.min}-{went.max}), {self.rounds} rounds, ended by {self.ended_by.value}"
        )

    def as_json(self) -> dict[str, Json]:
        """The report as JSON data (``qipai match simulate --json``, snapshots)."""
        return {
            "stage": self.stage,
            "kind": self.kind.value,
            "entrants": self.entrants,
            "advanced": self.advanced,
            "hands_per_player": _spread_json(self.hands_per_player),
            "advanced_hands": _spread_json(self.advanced_hands),
            "rounds": self.rounds,
            "ended_by": self.ended_by.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, Json]) -> StageReport:
        """The report :meth:`as_json` gave.

        :raises TypeError: a field of another kind (:mod:`qipai.jsontypes`).
        """
        return cls(
            json_int(data["stage"]),
            StageKind(data["kind"]),
            json_int(data["entrants"]),
            json_int(data["advanced"]),
            _spread_of(data["hands_per_player"]),
            _spread_of(data["advanced_hands"]),
            json_int(data["rounds"]),
            EndedBy(data["ended_by"]),
        )


def _spread_json(spread: Spread) -> dict[str, Json]:
    return {"min": spread.min, "median": spread.median, "max": spread.max}


def _spread_of(value: Json) -> Spread:
    """The spread :func:`_spread_json` gave."""
    return Spread(**{name: json_int(count) for name, count in json_object(value).items()})


def names_of(value: Json) -> list[str]:
    """The players' names a JSON array holds.

    :raises TypeError: a value of another kind (:mod:`qipai.jsontypes`).
    """
    return [json_str(name) for name in json_array(value)]


@dataclass(frozen=True, slots=True)
class Eliminated:
    """Notice: ``players`` are out, in ``stage`` (after a hand, or at its end), best first:
    their final ranks are ``first_rank``, ``first_rank + 1``… (everybody still in ranks
    above them, whatever happens next)."""

    stage: int
    players: tuple[str, ...]
    first_rank: int


@dataclass(frozen=True, slots=True)
class StageStarted:
    """Notice: ``stage`` starts with ``players`` (the previous one's advancers)."""

    stage: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Finished:
    """Notice: the run is over; ``standings`` are final."""

    standings: tuple[Standing, ...]


Notice = Eliminated | StageStarted | Finished


@dataclass
class StageTable:
    """A table of a fixed or swiss stage: its players and hands played this round."""

    number: int
    players: tuple[str, ...]
    played: int = 0
    in_play: bool = False
    forced: bool = False
    """Its last hand was voided: the next one scores an all-pass."""


@dataclass
class StageRun:
    """What a stage in progress keeps."""

    index: int
    stage: Stage
    players: dict[str, None]
    """The players still in (an ordered set)."""
    keeps: int
    """Players who go on (knockout: at most half, in whole tables)."""
    played: dict[str, int] = field(default_factory=dict)
    """Hands each entrant finished in the stage."""
    alive_played: int = 0
    """The hands of :attr:`played` of the players still in, together."""
    rounds: int = 0
    """knockout: rounds played: hands per player still in, rounded down, never back."""
    free: list[str] = field(default_factory=list)
    """knockout: the players waiting to be seated."""
    again: list[tuple[str, ...]] = field(default_factory=list)
    """knockout: the players of voided hands, dealt again first (forced)."""
    tables: list[StageTable] = field(default_factory=list)
    round: int = 1
    in_play: dict[int, tuple[str, ...]] = field(default_factory=dict)
    bases: dict[int, int] = field(default_factory=dict)
    """The base each hand in play was dealt at."""
    forced: set[int] = field(default_factory=set)
    """The hands in play dealt forced (knockout)."""

    def as_json(self) -> dict[str, Json]:
        """The stage as JSON data (a run's snapshot): the hands in play are kept to be
        dealt again."""
        return {
            "index": self.index,
            "players": list(self.players),
            "keeps": self.keeps,
            "played": dict(self.played),
            "rounds": self.rounds,
            "free": list(self.free),
            "again": [list(players) for players in self.again],
            "tables": [
                [t.number, list(t.players), t.played, t.in_play, t.forced] for t in self.tables
            ],
            "round": self.round,
            "in_play": [
                [hand, list(players), hand in self.forced]
                for hand, players in self.in_play.items()
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Json], stages: Sequence[Stage]) -> StageRun:
        """The stage :meth:`as_json` gave, of ``stages``, its hands that were in play
        given back to be dealt again.

        :raises TypeError: a field of another kind (:mod:`qipai.jsontypes`).
        """
        tables = [json_array(table) for table in json_array(data["tables"])]
        run = cls(
            json_int(data["index"]),
            stages[json_int(data["index"])],
            dict.fromkeys(names_of(data["players"])),
            json_int(data["keeps"]),
            {p: json_int(n) for p, n in json_object(data["played"]).items()},
            rounds=json_int(data["rounds"]),
            free=names_of(data["free"]),
            again=[tuple(names_of(players)) for players in json_array(data["again"])],
            tables=[StageTable(json_int(n), tuple(names_of(ps)), json_int(played), bool(busy),
                               bool(forced)) for n, ps, played, busy, forced in tables],
            round=json_int(data["round"]),
        )  # fmt: skip
        run.alive_played = sum(run.played[p] for p in run.players)
        for hand in json_array(data["in_play"]):  # dealt again
            _, players, forced = json_array(hand)
            if run.stage.kind is StageKind.KNOCKOUT:
                if forced:
                    run.again.append(tuple(names_of(players)))
                else:
                    run.free += names_of(players)
            else:
                next(t for t in run.tables if list(t.players) == players).in_play = False
        return run


    def report(self, going: Sequence[str]) -> StageReport:
        """The stage's report, now that it ended with ``going`` going on."""
        kind = self.stage.kind
        if kind is StageKind.KNOCKOUT:
            by_advance = len(self.players) <= self.keeps
            ended = EndedBy.ADVANCE_REACHED if by_advance else EndedBy.MAX_ROUNDS
            rounds = self.rounds
        elif kind is StageKind.FIXED:
            ended, rounds = EndedBy.HANDS_PLAYED, self.stage.hands
        else:
            ended, rounds = EndedBy.ROUNDS_PLAYED, self.round
        return StageReport(
            self.index,
            kind,
            len(self.played),
            len(going),
            Spread.of(self.played.values()),
            Spread.of(self.played[p] for p in going),
            rounds,
            ended,
        )

def rng_data(rng: random.Random) -> list[Json]:
    """``rng``'s state as JSON data."""
    version, state, gauss = rng.getstate()
    return [version, list(state), gauss]


def rng_of(data: Json) -> random.Random:
    """The generator whose state :func:`rng_data` gave.

    :raises TypeError: data of another kind (:mod:`qipai.jsontypes`).
    """
    rng = random.Random()
    version, state, gauss = json_array(data)
    rng.setstate((version, tuple(json_array(state)), gauss))
    return rng
