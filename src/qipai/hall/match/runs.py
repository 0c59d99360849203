"""A match run the live hall has open or in play (:class:`LiveRun`), and what it says of
itself: its status, its standings rows, its players' frames, its snapshot.

Pure values and functions: :mod:`~qipai.hall.match.desk` changes the runs, this module only reads
them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import msgspec

from qipai.errors import GameError, InvalidActionError
from qipai.hall.frames import MatchOver, MatchUpdate
from qipai.hall.match.config import MatchConfig
from qipai.hall.match.match import BOT_PREFIX, MatchRun
from qipai.hall.match.parts import RunState, Standing
from qipai.hall.rooms import Room, load_rooms
from qipai.jsontypes import Json

STANDINGS_SHOWN = 100
"""Standings rows a request gets at most (and the player's own row)."""
FINAL_SHOWN = 10
"""Standings rows of ``match_over`` (the top of the final table)."""


def pid(user: int) -> str:
    """The player id of ``user`` in a run: ``user:<id>``."""
    return f"user:{user}"


def match_room(match: MatchConfig) -> Room:
    """The room a match's tables play in: its game and preset, its time limit, no coins."""
    text = (
        f'[[room]]\nid = "match:{match.id}"\nname = "{match.name}"\n'
        f'game = "{match.game}"\nrules = "{match.rules}"\nmin_coins = 0\n'
        f"decision_seconds = {match.decision_seconds}\n"
    )
    [room] = load_rooms(text)
    return room


def next_start(match: MatchConfig, now: float) -> float:
    """A scheduled match's next start time after ``now`` (seconds since the epoch, UTC):
    every ``every_minutes`` minutes, at ``at_minute`` into the period."""
    period = match.every_minutes * 60
    offset = match.at_minute * 60
    return ((now - offset) // period + 1) * period + offset


def config_digest(config: MatchConfig) -> str:
    """A short digest of ``config``: a saved run is carried on only under the same one."""
    return hashlib.sha256(repr(config).encode()).hexdigest()[:16]


@dataclass
class LiveRun:
    """A run the hall has open or in play."""

    config: MatchConfig
    run: MatchRun
    room: Room
    users: dict[str, int] = field(default_factory=dict)
    """Player id (``user:<id>``) → user id, for the people registered."""
    names: dict[str, str] = field(default_factory=dict)
    first_at: float | None = None
    """When the first player registered (a regular run's bot wait counts from it)."""
    starts_at: float | None = None
    """A scheduled run's start time."""
    failures: int = 0
    """The passes in a row whose step for this run failed."""
    retry_at: float = 0.0
    cancelling: bool = False
    """An operator cancelled it: its tables are closing, its refund is being written."""
    """When the next pass may try this run's step again (after a failure)."""

    @property
    def ids(self) -> tuple[str, str]:
        """The match's id and the run's."""
        return self.config.id, self.run.run_id

    def name(self, player: str) -> str:
        """What ``player`` is called in the standings (a bot: 机器人<n>)."""
        if player.startswith(BOT_PREFIX):
            return f"机器人{player.removeprefix(BOT_PREFIX)}"
        return self.names.get(player, player)

    def row(self, standing: Standing) -> dict[str, Json]:
        """A standings row: the stage reached comes before the score in the ranking."""
        return {
            "rank": standing.rank,
            "player": standing.player,
            "name": self.name(standing.player),
            "score": standing.score,
            "out": standing.out,
            "stage": standing.stage,
            "stage_name": self.config.stages[standing.stage].name,
        }

    def rows(self) -> list[dict[str, Json]]:
        """Every standings row, best first."""
        return [self.row(standing) for standing in self.run.standings()]

    def _where(self) -> MatchUpdate:
        """Where the run stands (a ``match_update`` with no player's rank and score)."""
        run = self.run
        index = run.stage_index
        running = run.state is RunState.RUNNING and index is not None
        stage = self.config.stages[index] if running and index is not None else None
        return MatchUpdate(
            match=self.config.id,
            run=run.run_id,
            state=run.state.value,
            stage=index,
            stage_name=None if stage is None else stage.name,
            stage_kind=None if stage is None else stage.kind.value,
            base=run.base() if running else None,
            line=run.line() if running else None,
            round=run.round() if running else None,
            players_left=run.players_left(),
            hands=run.hands,
            rank=None,
            score=0,
        )

    def status(self) -> dict[str, Json]:
        """Where the run stands: its state, stage, base, line, round, players left."""
        fields: dict[str, Json] = msgspec.structs.asdict(self._where())
        del fields["rank"], fields["score"], fields["hand_base"]
        return fields

    def update(self, player: str, hand_base: int | None = None) -> MatchUpdate:
        """``match_update`` for ``player``: the run's status, his rank and score (and,
        after his hand, ``hand_base``: the base that hand was scored at)."""
        run = self.run
        rank = run.rank_of(player) if run.state is RunState.RUNNING else None
        where = self._where()
        return msgspec.structs.replace(
            where, rank=rank, score=run.score(player), hand_base=hand_base
        )

    def info(self, user: int | None) -> dict[str, Json]:
        """The run as the match list shows it (whether ``user`` is registered)."""
        run = self.run
        return {
            "id": run.run_id,
            "state": run.state.value,
            "registered": len(run.registered),
            "starts_at": self.starts_at,
            "me": user is not None and pid(user) in run.registered,
        }

    def standings(self, user: int | None) -> dict[str, Json]:
        """The run's live standings: the first :data:`STANDINGS_SHOWN` rows and ``user``'s."""
        rows = self.rows()
        return {**self.status(), **shown(rows, user)}

    def snapshot(self) -> dict[str, Json]:
        """What is saved of the run in play (:meth:`restore` reads it)."""
        return {
            "config": config_digest(self.config),
            "run": self.run.snapshot(),
            "users": dict(self.users),
            "names": dict(self.names),
        }

    @classmethod
    def restore(cls, config: MatchConfig | None, text: str) -> LiveRun:
        """The run a saved snapshot describes, ready to deal again.

        :raises InvalidActionError: ``bad_snapshot``: a match configured differently
            since (or gone), or a bad snapshot.
        """
        try:
            data = json.loads(text)
            if config is None or data["config"] != config_digest(config):
                raise InvalidActionError("bad_snapshot", "its match changed")
            run = MatchRun.restore(config, data["run"])
            users = {p: int(user) for p, user in data["users"].items()}
            names = {p: str(name) for p, name in data["names"].items()}
        except GameError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidActionError("bad_snapshot", repr(error)) from None
        return cls(config, run, match_room(config), users, names)


def shown(rows: list[dict[str, Json]], user: int | None) -> dict[str, Json]:
    """The first :data:`STANDINGS_SHOWN` ``rows`` and ``user``'s own (``me``)."""
    mine = [row for row in rows if user is not None and row["player"] == pid(user)]
    top: list[Json] = [*rows[:STANDINGS_SHOWN]]
    return {"standings": top, "me": mine[0] if mine else None}


def over(
    match_id: str, run_id: str, player: str, prize: int, standings: list[dict[str, Json]]
) -> MatchOver:
    """``match_over`` for ``player``: his rank, score and prize, the top of the standings."""
    row = next((row for row in standings if row["player"] == player), {})
    rank, score = row.get("rank"), row.get("score")
    return MatchOver(
        match=match_id,
        run=run_id,
        rank=rank if isinstance(rank, int) else None,
        score=score if isinstance(score, int | float) else None,
        prize=prize,
        standings=list(standings[:FINAL_SHOWN]),
    )
