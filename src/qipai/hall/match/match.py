"""One run of a match 比赛, as a pure state machine: registrations, stages, seating,
scores, eliminations, standings and prizes.

A :class:`MatchRun` knows no clock, no socket and no database: the caller registers the
players, starts the run, asks :meth:`MatchRun.seat` which hands to deal now (each a
:class:`Seating`: the players in seat order and the base), plays them at tables (the
hall's, or in-process for :func:`qipai.hall.match.sim.simulate`) and reports each hand's
points with :meth:`MatchRun.finish_hand`.  The rules it follows are those of
:mod:`qipai.hall.match.config` and ``docs/matches.md``:

- a hand's match points are its points × the base **it was dealt at** (the seating's),
  held by 积分最小化 against the players' scores when it ends, where the match says so;
- knockout (打立出局): free players are seated as soon as a table's worth is free, those
  who have played the fewest hands of the stage first (random among equals), so players
  are reseated among the remaining players after every hand and all play about as many
  hands; the stage's *rounds* are the hands played per player still in (rounded down,
  never going back); after a hand, its players below the line are out, lowest first,
  while more than the stage keeps remain; when the rounds raise the line, the players
  waiting to be seated who are now below it are out at once (the players of the hands in
  play when their hand ends); the stage ends with exactly the players it keeps (the hands
  in play when that count is reached finish, and nobody else goes out), or after its
  ``max_rounds`` where the operator set them;
- fixed (定局积分): tables formed at the stage's start (random order) play their hands;
- swiss (瑞士移位): before each round the players are ranked and seated by
  :func:`qipai.hall.match.swiss.swiss_tables` (as few repeated meetings as the field allows);
- ties: :func:`qipai.hall.match.standings.rank_players`, 判定一 then 判定二, or 判定二 only in
  every stage of a match whose final is Swiss (瑞士赛制 遵循判定二);
- a hand the table voided (no result: endless all-pass redeals, when every seat declines)
  is not a played hand: the same players are dealt again, the all-pass then scored
  (:attr:`Seating.forced`, 强制记分), so that a hand's result, never the registration
  order, decides;
- between stages the advancing players start the next stage with its start score plus
  their carry (带分); the final ranking is the last stage's ranking, then the players out
  in later stages and later hands above those out earlier;
- prizes by final rank, the table scaled to the field (:mod:`qipai.hall.match.prizes`).

A running run is saved as plain JSON data with :meth:`MatchRun.snapshot` (after each
finished hand, by the hall) and carried on from it with :meth:`MatchRun.restore`: the
hands that were in play when it was saved are dealt again (their players back to be
seated, the tables' hands not counted), everything finished stays as it was.

>>> import random
>>> from qipai.hall.match.config import default_matches
>>> [tiyan] = [m for m in default_matches() if m.id == "tiyan-9"]
>>> run = MatchRun(tiyan, "tiyan-9#1", random.Random(1))
>>> for number in range(9):
...     _ = run.register(f"p{number}")
>>> run.start()
>>> [len(seating.players) for seating in run.seat()]
[3, 3, 3]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.match.coins import match_points
from qipai.hall.match.config import MatchConfig, MatchKind, StageKind
from qipai.hall.match.parts import (
    Eliminated,
    Finished,
    Notice,
    RunState,
    Seating,
    StageReport,
    StageRun,
    StageStarted,
    StageTable,
    Standing,
    names_of,
    rng_data,
    rng_of,
)
from qipai.hall.match.stages import (
    base_and_line,
    carried,
    final_standings,
    fixed_tables,
    round_over,
    seating_over,
    stage_keeps,
)
from qipai.hall.match.standings import LastHand, rank_players
from qipai.hall.match.swiss import swiss_tables
from qipai.jsontypes import Json, json_array, json_int, json_object, json_str

BOT_PREFIX = "bot:"
"""The player id of a bot seated by the match: ``bot:1``, ``bot:2``…"""
SNAPSHOT_VERSION = 2
"""The version of :meth:`MatchRun.snapshot`'s data (:meth:`MatchRun.restore` refuses others)."""


class MatchRun:
    """One run of ``config`` (module docstring); ``rng`` decides the random seatings."""

    def __init__(self, config: MatchConfig, run_id: str, rng: random.Random) -> None:
        self.config = config
        self.run_id = run_id
        self.state = RunState.REGISTERING
        self.hands = 0
        """Hands dealt so far."""
        self._rng = rng
        self._numbers: dict[str, int] = {}
        self._scores: dict[str, int] = {}
        self._last: dict[str, LastHand] = {}
        self._reached: dict[str, int] = {}
        self._out: list[list[str]] = []
        self._out_set: set[str] = set()
        self._met: set[frozenset[str]] = set()
        """Swiss: the pairs who met in the stage."""
        self._stage: StageRun | None = None
        self._final: tuple[Standing, ...] = ()
        self._reports: list[StageReport] = []

    # --- registration ---------------------------------------------------------------------

    @property
    def registered(self) -> tuple[str, ...]:
        """The players registered, in registration order."""
        return tuple(self._numbers)

    def register(self, player: str) -> int:
        """Register ``player``; his registration number (1, 2…).

        :raises IllegalActionError: ``match_closed`` once it started, ``already_registered``,
            ``match_full``.
        """
        self._check_registering()
        if player in self._numbers:
            raise IllegalActionError("already_registered", f"{player} is registered")
        if len(self._numbers) >= self.config.players:
            raise IllegalActionError("match_full", f"{self.config.players} players at most")
        number = max(self._numbers.values(), default=0) + 1
        self._numbers[player] = number
        return number

    def unregister(self, player: str) -> None:
        """Withdraw ``player`` before the start.

        :raises IllegalActionError: ``match_closed``, ``not_registered``.
        """
        self._check_registering()
        if player not in self._numbers:
            raise IllegalActionError("not_registered", f"{player} is not registered")
        del self._numbers[player]

    def fill_with_bots(self) -> list[str]:
        """Bots registered up to the run's start count (regular) or the next whole table
        (scheduled); their ids.

        :raises IllegalActionError: ``match_closed``; ``no_bots`` where the match has none.
        """
        self._check_registering()
        if not self.config.bots:
            raise IllegalActionError("no_bots", f"match {self.config.id!r} takes no bots")
        seats = self.config.table_seats
        target = self.config.players
        if self.config.kind is MatchKind.SCHEDULED:
            target = max(self.config.min_players, -(-len(self._numbers) // seats) * seats)
        bots = [f"{BOT_PREFIX}{n}" for n in range(1, target - len(self._numbers) + 1)]
        for bot in bots:
            self.register(bot)
        return bots

    def is_ready(self) -> bool:
        """A regular match: every place taken; a scheduled one: at least its minimum."""
        count = len(self._numbers)
        if self.config.kind is MatchKind.REGULAR:
            return count == self.config.players
        return count >= self.config.min_players

    def _check_registering(self) -> None:
        if self.state is not RunState.REGISTERING:
            raise IllegalActionError("match_closed", f"the run is {self.state.value}")

    def cancel(self) -> None:
        """Cancel a run that has not finished (too few players at its time, or the hall
        stopping): the caller refunds every entry.

        :raises IllegalActionError: ``match_closed`` for a finished run.
        """
        if self.state is RunState.FINISHED:
            raise IllegalActionError("match_closed", "the run is finished")
        self.state = RunState.CANCELLED

    def takes_part(self, player: str) -> bool:
        """Whether ``player`` is in the run now: registered in a run that has not started,
        or still playing one (not out; a run over holds nobody)."""
        if player not in self._numbers or self.is_over:
            return False
        return player not in self._out_set

    def is_out(self, player: str) -> bool:
        """Whether ``player`` was knocked out (or not among a stage's advancers)."""
        return player in self._out_set

    # --- the run -------------------------------------------------------------------------

    def start(self) -> None:
        """Start the first stage with the registered players.

        :raises IllegalActionError: ``match_closed``; ``not_enough_players`` below the
            minimum (a scheduled run is then cancelled by its caller).
        """
        self._check_registering()
        if not self.is_ready():
            count = len(self._numbers)
            raise IllegalActionError("not_enough_players", f"{count} registered")
        stage = self.config.stages[0]
        players = list(self._numbers)
        if stage.kind is not StageKind.KNOCKOUT and len(players) % self.config.table_seats:
            raise IllegalActionError("not_enough_players", "the players do not fill tables")
        self.state = RunState.RUNNING
        self._begin(0, players, carried={})

    @property
    def is_over(self) -> bool:
        """Whether the run finished or was cancelled."""
        return self.state in (RunState.FINISHED, RunState.CANCELLED)

    @property
    def stage_index(self) -> int | None:
        """The stage in progress, if any."""
        return None if self._stage is None else self._stage.index

    @property
    def reports(self) -> tuple[StageReport, ...]:
        """The stages finished so far, in order."""
        return tuple(self._reports)

    def base(self) -> int:
        """The current stage's base (the knockout schedule's, now)."""
        return base_and_line(self._running())[0]

    def moved(self, player: str, hand: int) -> int | None:
        """What the scored hand ``hand`` moved ``player``'s score by (``None``: that is not
        his last scored hand)."""
        last = self._last.get(player)
        return None if last is None or last.hand != hand else last.points

    def hand_base(self, hand: int) -> int:
        """The base hand ``hand``, in play, was dealt at and is scored at.

        :raises InvalidActionError: ``unknown_hand`` for a hand not in play.
        """
        base = self._running().bases.get(hand)
        if base is None:
            raise InvalidActionError("unknown_hand", f"hand {hand} is not in play")
        return base

    def line(self) -> int:
        """The current stage's elimination line (knockout; 0 otherwise)."""
        return base_and_line(self._running())[1]

    def round(self) -> int:
        """The current stage's round: knockout, the round being played (rounds played plus
        one); fixed, the hands the tables have played, plus one; swiss, the round."""
        run = self._running()
        if run.stage.kind is StageKind.KNOCKOUT:
            return run.rounds + 1
        if run.stage.kind is StageKind.FIXED:
            return min(t.played for t in run.tables) + 1
        return run.round

    def in_play(self) -> dict[int, tuple[str, ...]]:
        """The hands dealt and not finished, by number: their players."""
        return dict(self._running().in_play)

    def seat(self) -> list[Seating]:
        """The hands to deal now (none while the stage waits for hands in play).

        :raises IllegalActionError: ``match_not_running``.
        """
        run = self._running()
        if run.stage.kind is StageKind.KNOCKOUT:
            return self._seat_knockout(run)
        return self._seat_tables(run)

    def finish_hand(
        self, hand: int, points: Sequence[int], *, voided: bool = False
    ) -> list[Notice]:
        """Score a finished hand (``points``: the game's, per seat, before the base) at the
        base it was dealt at, and move the run on; the notices it gives.  A ``voided`` hand
        (no result; ``points`` unread) scores nothing and is dealt again, forced.

        :raises InvalidActionError: ``unknown_hand`` for a hand not in play, ``bad_points``
            for points of the wrong length or that do not sum to zero.
        """
        run = self._running()
        players = run.in_play.get(hand)
        if players is None:
            raise InvalidActionError("unknown_hand", f"hand {hand} is not in play")
        if not voided and (len(points) != len(players) or sum(points) != 0):
            raise InvalidActionError("bad_points", f"points {tuple(points)} for {players}")
        del run.in_play[hand]
        base = run.bases.pop(hand)
        run.forced.discard(hand)
        notices: list[Notice] = []
        if voided:
            self._void(run, players)
        else:
            self._score(run, hand, players, points, base)
            if run.stage.kind is StageKind.KNOCKOUT:
                notices += self._after_knockout_hand(run, players)
            else:
                self._after_table_hand(run, players)
        return notices + self._maybe_end_stage(run)

    # --- standings ------------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        """Every player's place now: the players still in, by score (tie rules), then
        those out, later ones first (so the stage reached comes before the score).  Final
        once the run is over."""
        if self._final:
            return list(self._final)
        run = self._stage
        alive = [] if run is None else self._ranked(run.players)
        return self._order(alive)

    def prizes(self) -> dict[str, int]:
        """Coins per prize-winning player, by final rank and the run's field (bots
        included: the caller pays only people)."""
        paid = self.config.paid_prizes(len(self._numbers))
        prizes = {s.player: paid.get(s.rank, 0) for s in self._final}
        return {player: coins for player, coins in prizes.items() if coins}

    def score(self, player: str) -> int:
        """``player``'s score now."""
        return self._scores.get(player, 0)

    def rank_of(self, player: str) -> int | None:
        """``player``'s place by score among the players still in (level scores share the
        place; the tie rules only order the final standings), ``None`` once he is out.
        Linear: cheap enough after every hand of a 3,000-player run."""
        run = self._stage
        if run is None or player not in run.players:
            return None
        mine = self._scores[player]
        return 1 + sum(1 for other in run.players if self._scores[other] > mine)

    def players_left(self) -> int:
        """Players still in."""
        return 0 if self._stage is None else len(self._stage.players)

    # --- saved and carried on ---------------------------------------------------------------

    def snapshot(self) -> dict[str, Json]:
        """The running run as JSON-ready data (everything :meth:`restore` needs but the
        config), in containers of its own (the caller may encode it in another thread
        while the run goes on).

        :raises IllegalActionError: ``match_not_running``.
        """
        run = self._running()
        return {
            "version": SNAPSHOT_VERSION,
            "run_id": self.run_id,
            "hands": self.hands,
            "rng": rng_data(self._rng),
            "numbers": dict(self._numbers),
            "scores": dict(self._scores),
            "last": {p: [last.hand, last.points] for p, last in self._last.items()},
            "reached": dict(self._reached),
            "out": [list(batch) for batch in self._out],
            "met": [list(pair) for pair in self._met],
            "reports": [report.as_json() for report in self._reports],
            "stage": run.as_json(),
        }

    @classmethod
    def restore(cls, config: MatchConfig, data: dict[str, Json]) -> MatchRun:
        """The run ``data`` (:meth:`snapshot`) describes, running ``config``, with the
        hands that were in play given back to be dealt again.

        :raises InvalidActionError: ``bad_snapshot`` for data of another version, or that
            does not fit ``config``.
        """
        if data.get("version") != SNAPSHOT_VERSION:
            raise InvalidActionError("bad_snapshot", f"version {data.get('version')!r}")
        try:
            run = cls(config, json_str(data["run_id"]), rng_of(data["rng"]))
            run._load(data)
        except (KeyError, IndexError, StopIteration, TypeError, ValueError) as error:
            raise InvalidActionError("bad_snapshot", f"{type(error).__name__}: {error}") from None
        return run

    def _load(self, data: dict[str, Json]) -> None:
        self.state = RunState.RUNNING
        self.hands = json_int(data["hands"])
        self._numbers = {p: json_int(n) for p, n in json_object(data["numbers"]).items()}
        self._scores = {p: json_int(score) for p, score in json_object(data["scores"]).items()}
        lasts = {p: json_array(last) for p, last in json_object(data["last"]).items()}
        self._last = {p: LastHand(json_int(h), json_int(pts)) for p, (h, pts) in lasts.items()}
        self._reached = {p: json_int(i) for p, i in json_object(data["reached"]).items()}
        self._out = [names_of(batch) for batch in json_array(data["out"])]
        self._out_set = {p for batch in self._out for p in batch}
        self._met = {frozenset(names_of(pair)) for pair in json_array(data["met"])}
        reports = json_array(data["reports"])
        self._reports = [StageReport.from_json(json_object(report)) for report in reports]
        self._stage = StageRun.from_json(json_object(data["stage"]), self.config.stages)

    # --- inside ---------------------------------------------------------------------------

    def _running(self) -> StageRun:
        if self.state is not RunState.RUNNING or self._stage is None:
            raise IllegalActionError("match_not_running", f"the run is {self.state.value}")
        return self._stage

    def _begin(self, index: int, players: list[str], carried: dict[str, int]) -> None:
        stage = self.config.stages[index]
        for player in players:
            self._scores[player] = stage.start_score + carried.get(player, 0)
            self._reached[player] = index
        keeps = stage_keeps(stage, len(players), self.config.table_seats)
        run = StageRun(index, stage, dict.fromkeys(players), keeps, dict.fromkeys(players, 0))
        self._met = set()
        if stage.kind is StageKind.KNOCKOUT:
            run.free = list(players)
        elif stage.kind is StageKind.FIXED:
            shuffled = list(players)
            self._rng.shuffle(shuffled)
            run.tables = fixed_tables(shuffled, self.config.table_seats)
        else:
            run.tables = self._swiss_tables(run)
        self._stage = run

    def _ranked(self, players: Iterable[str]) -> list[str]:
        return rank_players(
            players,
            self._scores,
            self._numbers,
            self._last,
            last_hand_rule=not self.config.swiss_final,
        )

    def _deal(
        self, run: StageRun, players: tuple[str, ...], round_: int, table: int, *, forced: bool
    ) -> Seating:
        self.hands += 1
        run.in_play[self.hands] = players
        base = base_and_line(run)[0]
        run.bases[self.hands] = base
        if forced:
            run.forced.add(self.hands)
        return Seating(self.hands, run.index, round_, table, players, base, forced)

    def _seat_knockout(self, run: StageRun) -> list[Seating]:
        if seating_over(run):
            return []
        seatings = [self._deal_knockout(run, players, forced=True) for players in run.again]
        run.again = []
        seats = self.config.table_seats
        if len(run.free) >= seats:
            self._rng.shuffle(run.free)
            run.free.sort(key=run.played.__getitem__)  # the fewest hands first
        while len(run.free) >= seats:
            players, run.free = tuple(run.free[:seats]), run.free[seats:]
            seatings.append(self._deal_knockout(run, players, forced=False))
        return seatings

    def _deal_knockout(self, run: StageRun, players: tuple[str, ...], *, forced: bool) -> Seating:
        return self._deal(run, players, run.rounds + 1, self.hands + 1, forced=forced)

    def _seat_tables(self, run: StageRun) -> list[Seating]:
        hands = run.stage.hands
        seatings = []
        for table in run.tables:
            if not table.in_play and table.played < hands:
                table.in_play = True
                round_ = run.round if run.stage.kind is StageKind.SWISS else table.played + 1
                seatings.append(
                    self._deal(run, table.players, round_, table.number, forced=table.forced)
                )
        return seatings

    def _void(self, run: StageRun, players: tuple[str, ...]) -> None:
        """A hand without a result: its players are dealt again (forced)."""
        if run.stage.kind is not StageKind.KNOCKOUT:
            table = next(t for t in run.tables if t.players == players and t.in_play)
            table.in_play, table.forced = False, True
        elif seating_over(run):
            run.free += players  # nothing more to play: they wait for the stage's end
        else:
            run.again.append(players)

    def _score(
        self,
        run: StageRun,
        hand: int,
        players: tuple[str, ...],
        points: Sequence[int],
        base: int,
    ) -> None:
        scores = [self._scores[p] for p in players]
        amounts = match_points(points, base, scores, minimise=self.config.minimise)
        for player, amount in zip(players, amounts, strict=True):
            self._scores[player] += amount
            self._last[player] = LastHand(hand, amount)
            run.played[player] += 1
            if player in run.players:
                run.alive_played += 1
        if run.stage.kind is StageKind.SWISS:
            self._met.update(frozenset((a, b)) for a in players for b in players if a < b)

    def _after_knockout_hand(self, run: StageRun, players: tuple[str, ...]) -> list[Notice]:
        """Judge the hand's players (and, if the line rose, everyone waiting) against the
        line; the hand's players still in wait to be seated again."""
        rose = self._advance_rounds(run)
        candidates = [*players, *run.free] if rose else list(players)
        notices = self._cut(run, candidates)
        if rose:
            run.free = [p for p in run.free if p in run.players]
        run.free += [p for p in players if p in run.players]
        return notices

    def _advance_rounds(self, run: StageRun) -> bool:
        """Bring the rounds played up to date; whether the line rose."""
        if not run.players:
            return False
        reached = run.alive_played // len(run.players)
        if reached <= run.rounds:
            return False
        line = base_and_line(run)[1]
        run.rounds = reached
        return base_and_line(run)[1] > line

    def _cut(self, run: StageRun, candidates: Sequence[str]) -> list[Notice]:
        """The ``candidates`` below the line are out, lowest first, while more than the
        stage keeps are left."""
        line = base_and_line(run)[1]
        below = [p for p in candidates if self._scores[p] < line]
        room = len(run.players) - run.keeps
        if not below or room <= 0:
            return []
        out = list(reversed(self._ranked(below)))[:room]  # the lowest first
        for player in out:
            del run.players[player]
            run.alive_played -= run.played[player]
        batch = list(reversed(out))  # best of the batch first
        self._out.append(batch)
        self._out_set.update(batch)
        return [Eliminated(run.index, tuple(batch), len(run.players) + 1)]

    def _after_table_hand(self, run: StageRun, players: tuple[str, ...]) -> None:
        table = next(t for t in run.tables if t.players == players and t.in_play)
        table.in_play, table.forced = False, False
        table.played += 1
        swiss = run.stage.kind is StageKind.SWISS
        if swiss and round_over(run) and run.round < run.stage.rounds:
            run.round += 1
            run.tables = self._swiss_tables(run)

    def _swiss_tables(self, run: StageRun) -> list[StageTable]:
        """The round's tables: :func:`~qipai.hall.match.swiss.swiss_tables` of the ranking."""
        order = self._ranked(run.players)
        seated = swiss_tables(order, self._met, self.config.table_seats)
        return [StageTable(n, players) for n, players in enumerate(seated, 1)]

    def _stage_done(self, run: StageRun) -> bool:
        if run.in_play:
            return False
        if run.stage.kind is StageKind.KNOCKOUT:
            return seating_over(run)
        return run.round >= run.stage.rounds and round_over(run)

    def _maybe_end_stage(self, run: StageRun) -> list[Notice]:
        if not self._stage_done(run):
            return []
        ranked = self._ranked(run.players)
        going, staying_out = ranked[: run.keeps], ranked[run.keeps :]
        self._reports.append(run.report(going))
        notices: list[Notice] = []
        if run.index == len(self.config.stages) - 1:
            self._stage = None
            self._final = tuple(self._order(ranked))
            self.state = RunState.FINISHED
            return [Finished(self._final)]
        if staying_out:
            self._out.append(staying_out)
            self._out_set.update(staying_out)
            notices.append(Eliminated(run.index, tuple(staying_out), run.keeps + 1))
        following = self.config.stages[run.index + 1]
        carry = {p: carried(following, self._scores[p]) for p in going}
        self._begin(run.index + 1, going, carry)
        return [*notices, StageStarted(run.index + 1, tuple(going))]

    def _order(self, ranked: list[str]) -> list[Standing]:
        """``ranked`` (the players still in), then those out, later ones first."""
        return final_standings(ranked, self._out, self._scores, self._reached)
