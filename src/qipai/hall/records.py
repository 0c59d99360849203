"""Provably fair deals and hand records: commit to a hand's seed, record it, verify it.

Before a hand the hall draws its seed from :mod:`secrets` (``secrets.randbits(SEED_BITS)``,
at the edge; this module is pure) and publishes :func:`commitment` of it.  After the hand
the :class:`HandRecord` reveals the seed with the table options and every action, and
:func:`verify` lets anyone check that the seed matches the commitment and that replaying
the actions from (rules, seed, options) gives the recorded result.  The seed decides every
card (each engine's chance comes from the seed's :mod:`qipai.chance` stream: ``v2``, the
documented SHA-256 stream a browser can re-derive, or ``v1``, ``random.Random(seed)``, in
old ``qipai-hand/1`` records), so a seed fixed before the hand proves the deal was not
chosen afterwards.  The format is in ``docs/records.md``.

>>> commitment(42)
'c9d22b644ef92d561cdb5f26bb3ded1b569123bee1a0bf7b9fc9151d52fdb254'
>>> from qipai.games.zhajinhua import Fold, State
>>> state = State.new("yifa", seed=42, players=2, dealer=0)
>>> _ = state.apply(Fold())
>>> record = record_hand("zhajinhua", state, seed=42)
>>> record.actions, record.result
(((1, 'fold'),), (1, -1))
>>> verify(HandRecord.from_json(record.to_json())).ok
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from qipai.chance import V1, V2, VERSIONS
from qipai.errors import GameError, InvalidActionError

FORMAT = "qipai-hand/2"
"""The ``format`` field of the records written now (with ``chance`` and ``engine``)."""
FORMAT_V1 = "qipai-hand/1"
"""The first format: no ``chance`` (always ``v1``) and no ``engine`` (always 1); still read,
and written back as it was."""
COMMITMENT_PREFIX = "qipai-seed-v1:"
"""What precedes the seed's decimal digits in the committed bytes."""
SEED_BITS = 128
"""How many random bits the hall draws for a seed (``secrets.randbits(SEED_BITS)``)."""
GAMES = ("doudizhu", "zhajinhua", "showhand")
"""The games a record may be of."""

Option = int | tuple[int, ...] | None
"""A table option's value: a number, a list of numbers (stacks, balances) or nothing."""
Steps = tuple[tuple[int | None, str], ...]
"""Actions in order: (seat, text form); seat ``None`` is the dealer (Dou Dizhu's deal)."""


def commitment(seed: int) -> str:
    """SHA-256, in lowercase hex, of ``"qipai-seed-v1:<seed in decimal>"`` (ASCII, no newline).

    Check it by hand: ``printf 'qipai-seed-v1:%s' SEED | sha256sum``.  The seed's own
    ``SEED_BITS`` random bits are what make the commitment impossible to invert; a small
    seed (tests) could be found by trying them all.

    >>> commitment(0) == commitment(00) != commitment(1)
    True

    :raises InvalidActionError: ``bad_seed`` for a negative or non-integer seed.
    """
    _check_seed(seed)
    return hashlib.sha256(f"{COMMITMENT_PREFIX}{seed}".encode("ascii")).hexdigest()


def _check_seed(seed: object) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidActionError("bad_seed", f"a seed is an integer >= 0, not {seed!r}")


# --- the games ------------------------------------------------------------------------


class _Replayed(Protocol):
    """What verification reads from a replayed hand."""

    @property
    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class _Engine:
    """One game as records see it (built on demand: importing records loads no game)."""

    parse: Callable[[str], object]
    """The game's ``Action.parse``."""
    replay: Callable[..., _Replayed]
    """The game's ``replay(rules, seed, steps, **options)``."""
    get_rules: Callable[[str], object]
    """The game's ``get_rules``."""
    options: tuple[str, ...]
    """The table options its ``State.new`` takes, in record order."""
    version: int
    """The game's ``ENGINE_VERSION`` (its rules module)."""


_OPTIONS: dict[str, tuple[str, ...]] = {
    "doudizhu": ("first_seat", "hand_number", "balances"),
    "zhajinhua": ("players", "stacks", "dealer"),
    "showhand": ("players", "stacks"),
}
"""The table options each game's ``State.new`` takes, in record order."""


def _engine(game: str) -> _Engine:
    """The game's package ``qipai.games.<game>``, loaded now (importing records loads no
    game): its ``Action.parse``, ``replay``, ``get_rules`` and ``rules.ENGINE_VERSION``."""
    options = _OPTIONS.get(game)
    if options is None:
        raise InvalidActionError("unknown_game", f"a game is one of {', '.join(GAMES)}: {game!r}")
    package = importlib.import_module(f"qipai.games.{game}")
    rules = importlib.import_module(f"qipai.games.{game}.rules")
    return _Engine(
        package.Action.parse, package.replay, package.get_rules, options, rules.ENGINE_VERSION
    )


# --- the record -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything needed to replay and check one finished hand."""

    game: str
    """``doudizhu``, ``zhajinhua`` or ``showhand``."""
    rules: str
    """The preset's name (``yifa``, ``huanle``...)."""
    seed: int
    """The hand's seed, revealed after the hand."""
    commitment: str
    """:func:`commitment` of the seed, as published before the hand."""
    options: tuple[tuple[str, Option], ...]
    """The table options given to the game's ``State.new``: (name, value), sorted by name."""
    actions: Steps
    """Every applied action in order: (seat, text form of the game's ``Action``)."""
    result: tuple[int, ...]
    """Each seat's ``returns()``: points (Dou Dizhu) or chips won/lost."""
    changes: tuple[tuple[str, Option], ...] = ()
    """The rule set's numbers that the room changed from its preset (a Zha Jin Hua room's
    base, ante, stakes, cap; a Showhand base; a Dou Dizhu doubling threshold): (field,
    value), sorted by field; empty for a preset played as it is."""
    chance: str = V2
    """The chance version the hand was dealt with (:mod:`qipai.chance`): ``v2``, or ``v1``
    (``random.Random(seed)``, every ``qipai-hand/1`` record)."""
    engine: int = 2
    """The game's engine version that played the hand (``ENGINE_VERSION`` in its rules
    module; 1 for every ``qipai-hand/1`` record).  A record of a newer engine than the
    installed one is not verified (``unsupported_engine``)."""

    @property
    def format(self) -> str:
        """:data:`FORMAT_V1` for a record read from that format (chance v1, engine 1),
        else :data:`FORMAT`."""
        return FORMAT_V1 if (self.chance, self.engine) == (V1, 1) else FORMAT

    def option_map(self) -> dict[str, Option]:
        """:attr:`options` as a dict (lists as tuples)."""
        return dict(self.options)

    def to_json(self) -> str:
        """The record's JSON: keys sorted, no spaces; the seed as a decimal string.

        :func:`HandRecord.from_json` reads it back to an equal record; a ``qipai-hand/1``
        record is written back in that format, byte for byte.
        """
        data: dict[str, Any] = {
            "format": self.format,
            "game": self.game,
            "rules": self.rules,
            "seed": str(self.seed),
            "commitment": self.commitment,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options},
            "actions": [[seat, text] for seat, text in self.actions],
            "result": list(self.result),
        }
        if self.format == FORMAT:
            data["chance"], data["engine"] = self.chance, self.engine
        if self.changes:
            data["changes"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.changes}
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> HandRecord:
        """Read a record written by :meth:`to_json` (any key order or spacing).

        Only the shape is checked here; :func:`verify` checks the content.

        :raises InvalidActionError: ``bad_record`` naming the first field that is wrong.
        """
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as error:
            raise _bad(f"not JSON: {error}") from None
        if not isinstance(data, dict):
            raise _bad("a record is a JSON object")
        form = data.get("format")
        if form not in (FORMAT, FORMAT_V1):
            raise _bad(f"format must be {FORMAT!r} or {FORMAT_V1!r}, not {form!r}")
        expected = {"format", "game", "rules", "seed", "commitment", "options", "actions", "result"}
        if form == FORMAT:
            expected |= {"chance", "engine"}
        if set(data) - {"changes"} != expected:
            raise _bad(f"fields must be {', '.join(sorted(expected))} (and maybe changes)")
        chance, engine = (data["chance"], data["engine"]) if form == FORMAT else (V1, 1)
        if chance not in VERSIONS:
            raise _bad(f"chance must be one of {', '.join(VERSIONS)}, not {chance!r}")
        if not _is_int(engine) or engine < 1:
            raise _bad("engine must be an integer >= 1")
        if form == FORMAT and (chance, engine) == (V1, 1):
            raise _bad(f"a record of chance v1 and engine 1 is written as {FORMAT_V1!r}")
        return cls(
            game=_text(data["game"], "game"),
            rules=_text(data["rules"], "rules"),
            seed=_seed_text(data["seed"]),
            commitment=_text(data["commitment"], "commitment"),
            options=_options(data["options"]),
            actions=_steps(data["actions"]),
            result=tuple(_integers(data["result"], "result")),
            changes=_options(data.get("changes", {})),
            chance=chance,
            engine=engine,
        )


def _bad(message: str) -> InvalidActionError:
    return InvalidActionError("bad_record", message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise _bad(f"{field} must be a string")
    return value


def _seed_text(value: object) -> int:
    text = _text(value, "seed")
    if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        raise _bad("seed must be a decimal string without leading zeros")
    return int(text)


def _integers(value: object, field: str) -> list[int]:
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        raise _bad(f"{field} must be a list of integers")
    return value


def _options(value: object) -> tuple[tuple[str, Option], ...]:
    if not isinstance(value, dict):
        raise _bad("options must be an object")
    return tuple((name, _option(name, v)) for name, v in sorted(value.items()))


def _option(name: str, value: object) -> Option:
    if value is None or _is_int(value):
        return value  # type: ignore[return-value]  # an int, checked
    return tuple(_integers(value, f"options.{name}"))


def _steps(value: object) -> Steps:
    if not isinstance(value, list):
        raise _bad("actions must be a list")
    steps = []
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not (item[0] is None or _is_int(item[0]))
            or not isinstance(item[1], str)
        ):
            raise _bad(f"an action is [seat or null, text], not {item!r}")
        steps.append((item[0], item[1]))
    return tuple(steps)


# --- recording ------------------------------------------------------------------------


class _Finished(Protocol):
    """What :func:`record_hand` reads from a finished state of any game."""

    @property
    def is_terminal(self) -> bool: ...

    @property
    def history(self) -> Sequence[Any]: ...

    def returns(self) -> tuple[int, ...]: ...


def record_hand(game: str, state: _Finished, *, seed: int | None = None) -> HandRecord:
    """The record of ``state``, a finished hand of ``game`` dealt from its seed.

    The seed is ``state.seed``; ``seed`` gives it for a state that does not keep it.  The
    record is replayed before it is returned and must give the very same events (every
    card dealt, every result), so a hand dealt from a prearranged ``deck`` or under a
    custom rule set is refused rather than recorded wrong.

    :raises InvalidActionError: ``unknown_game``, ``bad_seed``, ``hand_not_over`` or
        ``unreplayable_hand`` (with the failed :class:`Verification`'s reason).
    """
    engine = _engine(game)
    if not state.is_terminal:
        raise InvalidActionError("hand_not_over", "only a finished hand has a record")
    hand_seed = _seed_of(state, seed)
    rules = getattr(state, "rules")  # noqa: B009  # every State has rules
    base = HandRecord(
        game=game,
        rules=str(rules.name),
        seed=hand_seed,
        commitment=commitment(hand_seed),
        options=(),
        actions=tuple((step.seat, str(step.action)) for step in state.history),
        result=tuple(state.returns()),
        changes=_changes(rules, engine.get_rules(rules.name)),
        chance=str(getattr(state, "chance", V2)),
        engine=engine.version,
    )
    failure = ""
    for options in _candidate_options(game, engine, state):
        record = dataclasses.replace(base, options=options)
        check, replayed = _replayed(record, engine)
        if check.ok and getattr(replayed, "events", None) == getattr(state, "events", None):
            return record
        failure = failure or (f"{check.code}: {check.reason}" if not check.ok else "another deal")
    raise InvalidActionError("unreplayable_hand", f"the record does not replay: {failure}")


def _changes(rules: object, preset: object) -> tuple[tuple[str, Option], ...]:
    """The numeric fields in which ``rules`` differs from its ``preset`` (others must not)."""
    changed = []
    for field in dataclasses.fields(preset):  # type: ignore[arg-type]  # rules are dataclasses
        mine, theirs = getattr(rules, field.name), getattr(preset, field.name)
        if mine != theirs:
            try:
                changed.append((field.name, _as_option(mine)))
            except (InvalidActionError, TypeError, ValueError):
                raise InvalidActionError(
                    "unreplayable_hand", f"rule {field.name} is not a number: {mine!r}"
                ) from None
    return tuple(sorted(changed))


def _rules_of(record: HandRecord, engine: _Engine) -> object:
    """The record's rule set: its preset with the record's :attr:`~HandRecord.changes`."""
    preset = engine.get_rules(record.rules)
    if not record.changes:
        return preset
    return dataclasses.replace(preset, **dict(record.changes))  # type: ignore[type-var]


def _seed_of(state: object, seed: int | None) -> int:
    own = getattr(state, "seed", None)
    if seed is None and own is None:
        raise InvalidActionError("bad_seed", "this state keeps no seed: pass seed=")
    if seed is not None and own is not None and seed != own:
        raise InvalidActionError("bad_seed", f"seed {seed} is not the state's seed")
    chosen = seed if seed is not None else own
    _check_seed(chosen)
    assert isinstance(chosen, int)
    return chosen


def _candidate_options(
    game: str, engine: _Engine, state: object
) -> Iterable[tuple[tuple[str, Option], ...]]:
    """The options the hand was created with (each game's ``State`` keeps them)."""
    del game
    values = {
        "first_seat": getattr(state, "first_seat", None),
        "hand_number": getattr(state, "hand_number", 0),
        "balances": getattr(state, "balances", None),
        "players": getattr(state, "players", None),
        "stacks": getattr(state, "start_stacks", None),
        "dealer": getattr(state, "dealer_given", None),
    }
    return [tuple((name, _as_option(values.get(name))) for name in sorted(engine.options))]


def _as_option(value: object) -> Option:
    if value is None or _is_int(value):
        return value  # type: ignore[return-value]  # an int, checked
    if isinstance(value, Iterable):
        return tuple(int(v) for v in value)
    raise InvalidActionError("bad_options", f"not a table option: {value!r}")


# --- verifying ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verification:
    """The outcome of :func:`verify`: ``ok``, or the first check that failed and why."""

    ok: bool
    """Whether every check passed."""
    code: str
    """``ok``, or a stable snake_case reason (see :func:`verify`)."""
    reason: str
    """A human explanation (empty when ok)."""
    result: tuple[int, ...] | None = None
    """The replayed hand's returns, once the replay ran to the end."""

    def __bool__(self) -> bool:
        return self.ok


def _fail(code: str, reason: str, result: tuple[int, ...] | None = None) -> Verification:
    return Verification(False, code, reason, result)


def verify(record: HandRecord, *, published: str | None = None) -> Verification:
    """Recompute ``record``: its commitment, its deal and every action, and its result.

    ``published`` is the commitment announced before the hand, if the checker kept it; a
    record whose seed and commitment were both replaced is only caught that way (or when
    the actions stop fitting the new deal).

    The failure codes, in the order checked: ``commitment_mismatch`` (seed and commitment
    disagree), ``not_published`` (commitment is not ``published``), ``unknown_game``,
    ``bad_chance`` (not a chance version), ``unsupported_engine`` (a record of a newer
    engine than this one), ``unknown_rules``, ``bad_options``, ``bad_action`` (an
    action's text does not parse),
    ``illegal_action`` (an action does not apply at its place), ``hand_not_over`` (the
    actions stop before the end), ``result_mismatch``.
    """
    try:
        expected = commitment(record.seed)
    except InvalidActionError as error:
        return _fail("commitment_mismatch", error.message)
    if record.commitment != expected:
        return _fail("commitment_mismatch", f"sha256 of the seed is {expected}")
    if published is not None and record.commitment != published:
        return _fail("not_published", f"the published commitment was {published}")
    try:
        engine = _engine(record.game)
    except GameError as error:
        return _fail(error.code, error.message)
    if record.chance not in VERSIONS:
        return _fail("bad_chance", f"chance is one of {', '.join(VERSIONS)}: {record.chance!r}")
    if record.engine > engine.version:
        return _fail(
            "unsupported_engine",
            f"the record's {record.game} engine {record.engine} is newer than {engine.version}",
        )
    try:
        engine.get_rules(record.rules)
    except GameError as error:
        return _fail(error.code, error.message)
    return _replayed(record, engine)[0]


def _replayed(record: HandRecord, engine: _Engine) -> tuple[Verification, _Replayed | None]:
    """The verification of ``record``'s replay, and the replayed hand if it ran."""
    options = record.option_map()
    if set(options) != set(engine.options):
        return _fail("bad_options", f"{record.game} options: {', '.join(engine.options)}"), None
    try:
        steps = [(seat, engine.parse(text)) for seat, text in record.actions]
    except GameError as error:
        return _fail("bad_action", error.message), None
    try:
        rules = _rules_of(record, engine)
        engine.replay(rules, record.seed, [], chance=record.chance, **options)
    except (ValueError, TypeError) as error:  # GameError is a ValueError
        return _fail("bad_options", str(error)), None
    try:
        state = engine.replay(rules, record.seed, steps, chance=record.chance, **options)
    except GameError as error:
        return _fail("illegal_action", f"{error.code}: {error.message}"), None
    if not state.is_terminal:
        return _fail("hand_not_over", "the actions stop before the hand is over"), state
    result = tuple(state.returns())
    if result != record.result:
        return _fail("result_mismatch", f"the replay gives {list(result)}", result), state
    return Verification(True, "ok", "", result), state


def replay_steps(record: HandRecord) -> Iterator[tuple[tuple[int | None, str] | None, Any]]:
    """The record's hand before its first action, then after each: ``(None, state)``, then
    ``((seat, text), state)`` per action.

    The state is the game's own ``State``, the same object each time (changed in place):
    read what you need from it before taking the next step.  Check the record with
    :func:`verify` first; this only replays it.

    >>> from qipai.games.zhajinhua import Fold, State
    >>> state = State.new("yifa", seed=7, players=2, dealer=0)
    >>> _ = state.apply(Fold())
    >>> record = record_hand("zhajinhua", state, seed=7)
    >>> [(step, hand.is_terminal) for step, hand in replay_steps(record)]
    [(None, False), ((1, 'fold'), True)]

    :raises InvalidActionError: ``unknown_game``, ``unknown_rules``, ``bad_action``;
        :raises IllegalActionError: an action that does not apply at its place.
    """
    engine = _engine(record.game)
    state: Any = engine.replay(
        _rules_of(record, engine), record.seed, [], chance=record.chance, **record.option_map()
    )
    yield None, state
    for seat, text in record.actions:
        state.apply(engine.parse(text), seat)
        yield (seat, text), state
