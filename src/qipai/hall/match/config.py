"""Matches 比赛 as data: what a match is, read from TOML and validated.

A match is played by a game's preset (with optional rule changes: a bomb rule, forced
scoring when all pass…) in **match points**, not coins: each hand's points × the stage's
基数 (base), optionally held by 积分最小化 against the players' current scores.  It has a
kind — ``regular`` (常规赛: starts when ``players`` have registered) or ``scheduled``
(锦标赛: starts at fixed times with whoever registered, cancelled and refunded below
``min_players``) — an entry fee held on registration, prizes by final rank, and one or
more **stages**, chained (a preliminary, then a final):

- ``knockout`` (打立出局): hand after hand, players reseated among the remaining players
  after every hand; a player whose score falls below the elimination line is out; the
  base and the line rise on a schedule (after so many *rounds*: hands per player still
  in), and past its last step the line keeps rising by ``rise_percent`` every
  ``rise_every`` rounds, so that it always reaches the players who hold the most; the
  stage ends when only ``advance`` players remain (the hands in play finish first; a
  knockout keeps at most half of its entrants, in whole tables, whatever ``advance``
  says, so that a small run still knocks out), or after ``max_rounds`` where the operator
  sets such a limit;
- ``fixed`` (定局积分): every table plays ``hands`` hands with the same players, then the
  players are ranked by score and the top ``advance`` go on;
- ``swiss`` (瑞士移位): ``rounds`` rounds of ``hands`` hands; before each round the players
  are sorted by score and seated a table at a time in that order.

A stage's players start it with ``start_score`` plus what they carry from the stage before
(带分): ``carry_percent`` of their score there, at most ``carry_cap``.

>>> tiyan = match_by_id(default_matches(), "tiyan-9")
>>> tiyan.players, [stage.kind.value for stage in tiyan.stages], tiyan.table_seats
(9, ['fixed', 'fixed'], 3)
>>> load_matches('[[match]]\\nid = "m"\\nname = "m"\\nkind = "daily"')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_match: match 'm', field 'kind': regular or ..., not 'daily'
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import TypeVar

from qipai.errors import InvalidActionError
from qipai.hall.match.prizes import Prize, house_cost, paid_prizes
from qipai.jsontypes import Json, entry
from qipai.registry import GameRules, SomeGame, game_names, game_type


class MatchKind(enum.Enum):
    """How a match starts."""

    REGULAR = "regular"
    """常规赛: as soon as ``players`` have registered (体验赛)."""
    SCHEDULED = "scheduled"
    """锦标赛: at fixed times with whoever registered (整点赛, 定点PK赛)."""


class StageKind(enum.Enum):
    """How a stage is played (module docstring)."""

    KNOCKOUT = "knockout"
    """打立出局."""
    FIXED = "fixed"
    """定局积分."""
    SWISS = "swiss"
    """瑞士移位."""


@dataclass(frozen=True, slots=True)
class Rise:
    """A step of a knockout stage's schedule: once ``after_rounds`` rounds of hands of the
    stage have started, the base and the elimination line are these."""

    after_rounds: int
    base: int
    line: int


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a match (module docstring)."""

    kind: StageKind
    name: str
    """Its name for the players (预赛, 决赛…)."""
    advance: int | None
    """Players who go on to the next stage (``None`` for the last stage)."""
    start_score: int
    """Each player's score when the stage starts, before the carry."""
    base: int
    """基数 at the start: match points per point of a hand."""
    line: int
    """knockout: the elimination line at the start (out when the score falls below it)."""
    rises: tuple[Rise, ...]
    """knockout: the schedule of base and line (by the stage's rounds: hands per player)."""
    rise_every: int
    """knockout: past the schedule's last step, the line rises again every this many
    rounds…"""
    rise_percent: int
    """…by this percent (rounded up), the base staying as it is; 0: the line stays (then
    ``max_rounds`` must end the stage)."""
    max_rounds: int | None
    """knockout: rounds after which no new hand starts even if more than ``advance``
    players remain (they are then ranked by score); ``None``: no such limit, the rising
    line ends the stage."""
    hands: int
    """fixed: hands each table plays; swiss: hands of each round."""
    rounds: int
    """swiss: the number of rounds."""
    carry_percent: int
    """带分: percent of the previous stage's score carried into this one."""
    carry_cap: int | None
    """带分上限: the most that is carried (``None``: no cap)."""

    def schedule(self, rounds: int) -> tuple[int, int]:
        """knockout: the base and the line once ``rounds`` rounds are played: the start's,
        then each :class:`Rise` reached; past the last step, the line rises by
        ``rise_percent`` (rounded up) every ``rise_every`` rounds, the base staying.

        >>> stage = Stage(StageKind.KNOCKOUT, "预赛", 30, 1000, 10, 400,
        ...               (Rise(2, 20, 600),), 2, 50, None, 1, 1, 0, None)
        >>> [stage.schedule(r) for r in (0, 2, 3, 4, 6)]
        [(10, 400), (20, 600), (20, 600), (20, 900), (20, 1350)]
        """
        base, line = self.base, self.line
        for rise in self.rises:
            if rounds >= rise.after_rounds:
                base, line = rise.base, rise.line
        end = self.rises[-1].after_rounds if self.rises else 0
        for _ in range(max(0, rounds - end) // self.rise_every if self.rise_percent else 0):
            line += -(-line * self.rise_percent // 100)
        return base, line


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """One configured match (module docstring)."""

    id: str
    name: str
    """The name shown to players (Chinese)."""
    kind: MatchKind
    game: str
    rules: str
    """The game's preset."""
    rule_changes: Mapping[str, object]
    """Options of the preset changed for this match (a bomb rule, forced scoring…)."""
    players: int
    """regular: the count it starts at (and takes at most); scheduled: the most it takes."""
    min_players: int
    """scheduled: the fewest it starts with (else cancelled and refunded); regular: =
    ``players``."""
    every_minutes: int
    """scheduled: it starts every this many minutes…"""
    at_minute: int
    """…at this minute of the period (an hourly match at :00: 60 and 0)."""
    entry_fee: int
    """Coins held on registration, returned when the player unregisters or the run is
    cancelled."""
    minimise: bool
    """积分最小化: each payment is at most the winner's score and the loser's score."""
    bots: bool
    """Whether bots may fill the seats (one person can try a match alone)."""
    bot_wait: float
    """regular: seconds after the first registration before bots fill the match."""
    decision_seconds: float
    """Time limit of each decision; on timeout 托管 plays."""
    stages: tuple[Stage, ...]
    prizes: tuple[Prize, ...]
    guarantee: int = 0
    """The most coins the operator adds to a run's entry fees to pay its prizes (保底):
    a scheduled run whose fees and guarantee do not cover its prize table pays it scaled
    down (:mod:`qipai.hall.match.prizes`)."""
    table_seats: int = field(default=3)
    """Seats at each table (the game's default table size)."""
    enabled: bool = True
    """Whether new runs open (an operator may stop a match from the console: its open run
    plays on, no next one opens)."""

    @property
    def game_type(self) -> SomeGame:
        """The match's game, from the registry."""
        return game_type(self.game)

    def game_rules(self, *, forced: bool = False) -> GameRules:
        """The preset with the match's rule changes (what its tables play); ``forced``:
        with an all-pass scored (强制记分, :data:`FORCED_SCORING`), for the players of a hand
        that was voided (a game without all-pass redeals plays its own rules)."""
        if forced:
            try:
                rules: GameRules = self.game_type.rules_with(
                    self.rules, {**self.rule_changes, **FORCED_SCORING}
                )
                return rules
            except InvalidActionError:  # no all-pass option: it never voids a hand so
                pass
        plain: GameRules = self.game_type.rules_with(self.rules, self.rule_changes)
        return plain

    def paid_prizes(self, entrants: int) -> dict[int, int]:
        """Coins by rank in a run of ``entrants`` (:mod:`qipai.hall.match.prizes`: a scheduled
        match's table scales with its field)."""
        return paid_prizes(
            self.prizes, entrants=entrants, entry_fee=self.entry_fee, guarantee=self.guarantee,
            scaled=self.scales,
        )  # fmt: skip

    def house_cost(self, entrants: int) -> int:
        """What the house adds to the fees of a run of ``entrants`` for its prizes."""
        return house_cost(
            self.prizes, entrants=entrants, entry_fee=self.entry_fee, guarantee=self.guarantee,
            scaled=self.scales,
        )  # fmt: skip

    @property
    def scales(self) -> bool:
        """Whether the prizes scale with the field (a scheduled match's)."""
        return self.kind is MatchKind.SCHEDULED

    @property
    def prize_total(self) -> int:
        """Every prize together (as listed: a full field's)."""
        return sum((p.last - p.first + 1) * p.coins for p in self.prizes)

    @property
    def swiss_final(self) -> bool:
        """瑞士赛制: the final is Swiss; then only 判定二 breaks ties, in every stage."""
        return self.stages[-1].kind is StageKind.SWISS


# --- reading ---------------------------------------------------------------------------------

Kinds = type | tuple[type, ...]
"""The TOML types a key accepts."""
E = TypeVar("E", bound=enum.Enum)

_MATCH_KEYS: Mapping[str, Kinds] = {
    "id": str, "name": str, "kind": str, "game": str, "rules": str, "rule_changes": dict,
    "players": int, "min_players": int, "every_minutes": int, "at_minute": int,
    "entry_fee": int, "minimise": bool, "bots": bool, "bot_wait": (int, float),
    "decision_seconds": (int, float), "stage": list, "prize": list, "guarantee": int,
}  # fmt: skip
_STAGE_KEYS: Mapping[str, Kinds] = {
    "kind": str, "name": str, "advance": int, "start_score": int, "base": int, "line": int,
    "rise": list, "max_rounds": int, "hands": int, "rounds": int, "carry_percent": int,
    "carry_cap": int, "rise_every": int, "rise_percent": int,
}  # fmt: skip
_RISE_KEYS: Mapping[str, Kinds] = {"after_rounds": int, "base": int, "line": int}
_PRIZE_KEYS: Mapping[str, Kinds] = {"ranks": list, "coins": int}

DEFAULT_START_SCORE = 1000
"""A stage's starting score when its table gives none."""
DEFAULT_DECISION_SECONDS = 15.0
"""Seconds per decision in a match when its table gives none."""
FORCED_SCORING: Mapping[str, object] = {"all_pass": "forced"}
"""The rule change that scores an all-pass (强制记分): a hand voided for endless redeals (a
table whose every seat declines, as 托管 does) is dealt again under it, so that it ends."""
DEFAULT_RISE_EVERY = 2
"""knockout: past the schedule, rounds between two rises of the line, by default."""
DEFAULT_RISE_PERCENT = 50
"""knockout: past the schedule, what each rise adds to the line, by default (percent)."""


def _bad(match: str, where: str, problem: str) -> InvalidActionError:
    return InvalidActionError("bad_match", f"match {match!r}, field {where!r}: {problem}")


def _typed(
    label: str, table: object, keys: Mapping[str, Kinds], prefix: str
) -> Mapping[str, object]:
    """``table``, a TOML table; refuse another value, unknown keys, values of wrong types."""
    if not isinstance(table, dict):
        raise _bad(label, prefix.removesuffix("."), f"must be a table, not {table!r}")
    for key, value in table.items():
        if key not in keys:
            raise _bad(label, prefix + key, "is not a field")
        kind = keys[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            names = " or ".join(kind.__name__ for kind in kinds)
            raise _bad(label, prefix + key, f"must be {names}, not {value!r}")
    return table


def _enum(label: str, where: str, kind: type[E], value: object) -> E:
    try:
        return kind(value)
    except ValueError:
        names = " or ".join(member.value for member in kind)
        raise _bad(label, where, f"{names}, not {value!r}") from None


def _rise(label: str, where: str, table: object) -> Rise:
    table = _typed(label, table, _RISE_KEYS, f"{where}.")
    missing = set(_RISE_KEYS) - set(table)
    if missing:
        raise _bad(label, where, f"needs {', '.join(sorted(missing))}")
    return Rise(*(entry(table, key, int, 0) for key in ("after_rounds", "base", "line")))


def _stage(label: str, number: int, table: object, last: bool) -> Stage:
    where = f"stage[{number}]"
    table = _typed(label, table, _STAGE_KEYS, f"{where}.")
    kind = _enum(label, f"{where}.kind", StageKind, table.get("kind", ""))
    stage = Stage(
        kind=kind,
        name=entry(table, "name", str, "决赛" if last else f"第{number + 1}阶段"),
        advance=entry(table, "advance", int, None),
        start_score=entry(table, "start_score", int, DEFAULT_START_SCORE),
        base=entry(table, "base", int, 1),
        line=entry(table, "line", int, 0),
        rises=tuple(_rise(label, f"{where}.rise", r) for r in entry(table, "rise", list, [])),
        rise_every=entry(table, "rise_every", int, DEFAULT_RISE_EVERY),
        rise_percent=entry(table, "rise_percent", int, DEFAULT_RISE_PERCENT),
        max_rounds=entry(table, "max_rounds", int, None),
        hands=entry(table, "hands", int, 1),
        rounds=entry(table, "rounds", int, 1),
        carry_percent=entry(table, "carry_percent", int, 0),
        carry_cap=entry(table, "carry_cap", int, None),
    )
    _check_stage(label, where, stage, last)
    return stage


def _check_stage(label: str, where: str, stage: Stage, last: bool) -> None:
    if last and stage.kind is StageKind.KNOCKOUT:
        raise _bad(label, where, "the last stage is fixed or swiss: it ranks every finalist")
    if last and stage.advance is not None:
        raise _bad(label, f"{where}.advance", "the last stage has no advance: it ranks all")
    if not last and (stage.advance is None or stage.advance < 1):
        raise _bad(label, f"{where}.advance", "a stage before the last needs advance >= 1")
    for name in ("base", "hands", "rounds", "rise_every"):
        if getattr(stage, name) < 1:
            raise _bad(label, f"{where}.{name}", "must be >= 1")
    if stage.max_rounds is not None and stage.max_rounds < 1:
        raise _bad(label, f"{where}.max_rounds", "must be >= 1")
    if not 0 <= stage.carry_percent <= 100:
        raise _bad(label, f"{where}.carry_percent", "must be within 0..100")
    if stage.carry_cap is not None and stage.carry_cap < 0:
        raise _bad(label, f"{where}.carry_cap", "must be >= 0")
    after = [rise.after_rounds for rise in stage.rises]
    if after != sorted(set(after)) or any(a < 1 for a in after):
        raise _bad(label, f"{where}.rise", "after_rounds must rise, from 1")
    if any(rise.base < 1 for rise in stage.rises):
        raise _bad(label, f"{where}.rise", "a base is >= 1")
    if stage.kind is not StageKind.KNOCKOUT and (stage.rises or stage.line):
        raise _bad(label, where, "line and rise are for knockout stages")
    if stage.kind is StageKind.KNOCKOUT:
        _check_knockout_ends(label, where, stage)


def _check_knockout_ends(label: str, where: str, stage: Stage) -> None:
    """A knockout ends by its advance count: its line keeps rising past the schedule
    (from a line above 0), unless the operator limits its rounds."""
    if not 0 <= stage.rise_percent <= 1000:
        raise _bad(label, f"{where}.rise_percent", "must be within 0..1000")
    if stage.max_rounds is not None:
        return
    last_line = stage.rises[-1].line if stage.rises else stage.line
    if stage.rise_percent == 0 or last_line < 1:
        raise _bad(
            label, where, "the line must keep rising (rise_percent > 0 from a line >= 1) "
            "or max_rounds must end the stage"
        )  # fmt: skip


def _prize(label: str, number: int, table: object) -> Prize:
    where = f"prize[{number}]"
    table = _typed(label, table, _PRIZE_KEYS, f"{where}.")
    ranks = entry(table, "ranks", list, [])
    first, last = ranks if len(ranks) == 2 else (None, None)
    if not isinstance(first, int) or not isinstance(last, int) or not 1 <= first <= last:
        raise _bad(label, f"{where}.ranks", "two ranks [first, last], 1 <= first <= last")
    coins = entry(table, "coins", int, 0)
    if coins < 1:
        raise _bad(label, f"{where}.coins", "must be >= 1")
    return Prize(first, last, coins)


def _match(table: Mapping[str, object], number: int) -> MatchConfig:
    label = str(table.get("id", f"#{number}"))
    _typed(label, table, _MATCH_KEYS, "")
    kind = _enum(label, "kind", MatchKind, table.get("kind", ""))
    for key in ("id", "name", "game", "rules", "players"):
        if key not in table:
            raise _bad(label, key, "is required")
    game, rules = entry(table, "game", str, ""), entry(table, "rules", str, "")
    if game not in game_names():
        raise _bad(label, "game", f"unknown game {game!r}")
    kind_of_game = game_type(game)
    if rules not in kind_of_game.presets:
        raise _bad(label, "rules", f"unknown {game} preset {rules!r}")
    stages_tables = entry(table, "stage", list, [])
    if not stages_tables:
        raise _bad(label, "stage", "a match has at least one [[match.stage]]")
    last = len(stages_tables) - 1
    stages = tuple(_stage(label, n, stage, n == last) for n, stage in enumerate(stages_tables))
    players = entry(table, "players", int, 0)
    match = MatchConfig(
        id=entry(table, "id", str, ""),
        name=entry(table, "name", str, ""),
        kind=kind,
        game=game,
        rules=rules,
        rule_changes=dict(entry(table, "rule_changes", dict, {})),
        players=players,
        min_players=entry(table, "min_players", int, players),
        every_minutes=entry(table, "every_minutes", int, 60),
        at_minute=entry(table, "at_minute", int, 0),
        entry_fee=entry(table, "entry_fee", int, 0),
        minimise=entry(table, "minimise", bool, True),
        bots=entry(table, "bots", bool, False),
        bot_wait=float(entry(table, "bot_wait", (int, float), 10)),
        decision_seconds=float(
            entry(table, "decision_seconds", (int, float), DEFAULT_DECISION_SECONDS)
        ),
        stages=stages,
        prizes=tuple(_prize(label, n, p) for n, p in enumerate(entry(table, "prize", list, []))),
        guarantee=entry(table, "guarantee", int, 0),
        table_seats=kind_of_game.default_seats,
    )
    _check_match(match)
    return match


def _check_match(match: MatchConfig) -> None:
    label, seats = match.id, match.table_seats
    if match.kind is MatchKind.REGULAR and match.min_players != match.players:
        raise _bad(label, "min_players", "a regular match starts at exactly its players")
    if not seats <= match.min_players <= match.players:
        raise _bad(label, "min_players", f"must be within {seats}..players ({match.players})")
    if match.entry_fee < 0:
        raise _bad(label, "entry_fee", "must be >= 0")
    period = match.every_minutes
    if not 1 <= period <= 7 * 24 * 60 or not 0 <= match.at_minute < period:
        raise _bad(label, "every_minutes", "1 minute to a week, at_minute within the period")
    if match.bot_wait < 0 or match.decision_seconds <= 0:
        raise _bad(label, "bot_wait", "bot_wait >= 0 and decision_seconds > 0")
    try:
        match.game_rules()
    except InvalidActionError as error:
        raise _bad(label, "rule_changes", error.message) from None
    _check_counts(match)
    last_ranked = max((p.last for p in match.prizes), default=0)
    if last_ranked > match.players:
        raise _bad(label, "prize", f"ranks up to {last_ranked} but at most {match.players} play")
    _check_guarantee(match)


def _check_guarantee(match: MatchConfig) -> None:
    """The guarantee is a number the operator chose: a regular match (always full) pays
    its prize table from its fees and at most that guarantee."""
    if match.guarantee < 0:
        raise _bad(match.id, "guarantee", "must be >= 0")
    fees = match.players * match.entry_fee
    if match.kind is MatchKind.REGULAR and match.prize_total > fees + match.guarantee:
        raise _bad(
            match.id, "guarantee", f"the prizes ({match.prize_total}) exceed the fees "
            f"({fees}) and the guarantee ({match.guarantee}): raise the guarantee"
        )  # fmt: skip


def _check_counts(match: MatchConfig) -> None:
    """Each stage's entrants can be seated: whole tables for fixed and swiss stages (the
    first one unless bots fill it); a knockout stage needs two tables of entrants (it
    keeps at most half); the players who go on to a fixed or swiss stage fill tables."""
    label, seats = match.id, match.table_seats
    entering = match.players
    for number, stage in enumerate(match.stages):
        where = f"stage[{number}]"
        knockout = stage.kind is StageKind.KNOCKOUT
        whole = entering % seats == 0 or (number == 0 and match.bots)
        if not knockout and not whole:
            raise _bad(label, where, f"{entering} players do not fill tables of {seats}")
        scheduled = match.kind is MatchKind.SCHEDULED
        if number == 0 and not knockout and scheduled and not match.bots:
            raise _bad(label, where, "a scheduled match without bots starts with a knockout stage")
        fewest = match.min_players if number == 0 else entering
        if knockout and fewest < 2 * seats:
            raise _bad(label, where, f"a knockout stage needs {2 * seats} players or more")
        if stage.advance is None:
            continue
        if not seats <= stage.advance < entering:
            raise _bad(label, f"{where}.advance", f"must be within {seats}..{entering - 1}")
        following = match.stages[number + 1]
        if following.kind is not StageKind.KNOCKOUT and stage.advance % seats:
            raise _bad(label, f"{where}.advance", f"must fill tables of {seats}")
        entering = stage.advance


def describe(match: MatchConfig) -> dict[str, Json]:
    """``match`` as JSON-able data (``qipai match list --json``, ``GET /api/matches``):
    ``name`` is its id (what ``--match`` takes), ``title`` its name for players, ``kind``
    ``regular`` or ``scheduled``, ``min_players`` the count a regular match starts at or the
    minimum of a scheduled one."""
    described: dict[str, Json] = {
        "name": match.id,
        "title": match.name,
        "kind": match.kind.value,
        "game": match.game,
        "rules": match.rules,
        "min_players": match.min_players,
        "players": match.players,
        "entry_fee": match.entry_fee,
        "bots": match.bots,
        "bot_wait": match.bot_wait,
        "decision_seconds": match.decision_seconds,
        "minimise": match.minimise,
        "stages": [_describe_stage(stage) for stage in match.stages],
        "prizes": [{"ranks": [p.first, p.last], "coins": p.coins} for p in match.prizes],
        "prize_total": match.prize_total,
        "guarantee": match.guarantee,
        "prizes_at_minimum": [
            {"rank": rank, "coins": coins}
            for rank, coins in sorted(match.paid_prizes(match.min_players).items())
        ],
        "house_cost_at_minimum": match.house_cost(match.min_players),
    }
    if match.kind is MatchKind.SCHEDULED:
        described |= {"every_minutes": match.every_minutes, "at_minute": match.at_minute}
    return described


def _describe_stage(stage: Stage) -> dict[str, Json]:
    described: dict[str, Json] = {
        "kind": stage.kind.value,
        "name": stage.name,
        "advance": stage.advance,
        "start_score": stage.start_score,
        "base": stage.base,
        "carry_percent": stage.carry_percent,
        "carry_cap": stage.carry_cap,
    }
    if stage.kind is StageKind.KNOCKOUT:
        rises: list[Json] = [
            {"after_rounds": r.after_rounds, "base": r.base, "line": r.line} for r in stage.rises
        ]
        described |= {
            "line": stage.line, "rises": rises, "rise_every": stage.rise_every,
            "rise_percent": stage.rise_percent, "max_rounds": stage.max_rounds,
        }  # fmt: skip
    else:
        described |= {"hands": stage.hands, "rounds": stage.rounds}
    return described


def load_matches(text: str) -> tuple[MatchConfig, ...]:
    """The matches of a TOML document: one ``[[match]]`` table each, in file order.

    :raises InvalidActionError: ``bad_match``, naming the match and the field, for text
        that is not TOML, no matches, a duplicate id, or any impossible number.
    """
    try:
        document: dict[str, object] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidActionError("bad_match", f"not valid TOML: {error}") from None
    extra = set(document) - {"match"}
    tables = None if extra else document.get("match")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise InvalidActionError("bad_match", "a matches file holds [[match]] tables only")
    matches = tuple(_match(table, n) for n, table in enumerate(tables, 1))
    ids = [match.id for match in matches]
    for match_id in ids:
        if ids.count(match_id) > 1:
            raise _bad(match_id, "id", "is used by another match")
    return matches


def default_matches() -> tuple[MatchConfig, ...]:
    """The matches shipped with the package (``qipai/matches.toml``)."""
    text = resources.files("qipai").joinpath("matches.toml").read_text(encoding="utf-8")
    return load_matches(text)


def match_by_id(matches: Sequence[MatchConfig], match_id: str) -> MatchConfig:
    """The match called ``match_id``.

    :raises InvalidActionError: ``unknown_match``.
    """
    for match in matches:
        if match.id == match_id:
            return match
    known = ", ".join(match.id for match in matches)
    raise InvalidActionError("unknown_match", f"no match {match_id!r}; known: {known}")


def rescheduled(
    match: MatchConfig, every_minutes: int, at_minute: int, enabled: bool
) -> MatchConfig:
    """``match`` with an operator's schedule (the console's, kept in the database): a
    scheduled match's period and minute, and whether new runs open.

    :raises InvalidActionError: ``bad_match`` for a period or minute the file would refuse.
    """
    changed = replace(match, every_minutes=every_minutes, at_minute=at_minute, enabled=enabled)
    _check_match(changed)
    return changed
