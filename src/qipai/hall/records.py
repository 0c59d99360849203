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
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from qipai.chance import V1, V2, VERSIONS
from qipai.errors import GameError, InvalidActionError
from qipai.hall.seeds import (
    Entropy,
    check_seed,
    commitment,
    deal_seed,
    entropy_problem,
)
from qipai.jsontypes import Json
from qipai.registry import AppliedStep, SomeGame, SomeState, game_type
from qipai.registry.gametype import coerce_changes

FORMAT = "qipai-hand/2"
"""The ``format`` field of a record dealt straight from its seed (with ``chance`` and
``engine``): what :func:`record_hand` writes for a hand dealt without entropy."""
FORMAT_V3 = "qipai-hand/3"
"""The format of a hand dealt from the house seed mixed with the players' entropy
(:func:`deal_seed`): ``qipai-hand/2`` plus ``entropy``; every hand the hall deals now."""
FORMAT_V1 = "qipai-hand/1"
"""The first format: no ``chance`` (always ``v1``) and no ``engine`` (always 1); still read,
and written back as it was."""
Option = int | tuple[int, ...] | None
"""A table option's value: a number, a list of numbers (stacks, balances) or nothing."""
Change = Option | str | bool | tuple[str, ...]
"""A changed rule's value: an option's kinds, an enum's value (``"jj_linear"``), a flag,
a list of enum values (a room's 任务: ``["spring", "chain"]``)."""
Steps = tuple[tuple[int | None, str], ...]
"""Actions in order: (seat, text form); seat ``None`` is the dealer (a paced deal's step)."""


# --- the record -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything needed to replay and check one finished hand."""

    game: str
    """The game's name in the registry (:func:`~qipai.registry.game_type`)."""
    rules: str
    """The preset's name."""
    seed: int
    """The hand's seed, revealed after the hand (format 3: the house seed, mixed with
    :attr:`entropy` into the seed the hand was dealt from, :attr:`deal_seed`)."""
    commitment: str
    """:func:`commitment` of the seed, as published before the hand."""
    options: tuple[tuple[str, Option], ...]
    """The table options given to the game's ``State.new``: (name, value), sorted by name."""
    actions: Steps
    """Every applied action in order: (seat, text form of the game's ``Action``)."""
    result: tuple[int, ...]
    """Each seat's ``returns()``: points or chips won/lost."""
    changes: tuple[tuple[str, Change], ...] = ()
    """The rule set's numbers that the room changed from its preset (a room's base, ante,
    stakes, cap, doubling threshold): (field, value), sorted by field; empty for a preset
    played as it is."""
    chance: str = V2
    """The chance version the hand was dealt with (:mod:`qipai.chance`): ``v2``, or ``v1``
    (``random.Random(seed)``, every ``qipai-hand/1`` record)."""
    engine: int = 2
    """The game's engine version that played the hand (``ENGINE_VERSION`` in its rules
    module; 1 for every ``qipai-hand/1`` record).  A record of a newer engine than the
    installed one is not verified (``unsupported_engine``)."""
    entropy: Entropy | None = None
    """Each seat's contribution mixed into the seed (:func:`deal_seed`): lowercase hex or
    ``None``; ``None`` as a whole for a hand dealt straight from :attr:`seed` (formats 1
    and 2)."""
    task: str | None = None
    """The id of the hand's 任务 (:meth:`~qipai.registry.GameType.task_of`), drawn from the
    seed among the rule set's list (a rule change, ``tasks``); ``None``: the hand had none.
    :func:`verify` checks that the replay draws it."""

    @property
    def format(self) -> str:
        """:data:`FORMAT_V3` for a record with :attr:`entropy`, :data:`FORMAT_V1` for one
        read from that format (chance v1, engine 1), else :data:`FORMAT`."""
        if self.entropy is not None:
            return FORMAT_V3
        return FORMAT_V1 if (self.chance, self.engine) == (V1, 1) else FORMAT

    @property
    def deal_seed(self) -> int:
        """The seed the hand was dealt from: :attr:`seed` mixed with :attr:`entropy`
        (:func:`deal_seed`), or :attr:`seed` itself in formats 1 and 2.

        :raises InvalidActionError: ``bad_seed``, ``bad_entropy``.
        """
        return self.seed if self.entropy is None else deal_seed(self.seed, self.entropy)

    def option_map(self) -> dict[str, Option]:
        """:attr:`options` as a dict (lists as tuples)."""
        return dict(self.options)

    def to_json(self) -> str:
        """The record's JSON: keys sorted, no spaces; the seed as a decimal string.

        :func:`HandRecord.from_json` reads it back to an equal record; a ``qipai-hand/1``
        record is written back in that format, byte for byte.
        """
        data: dict[str, Json] = {
            "format": self.format,
            "game": self.game,
            "rules": self.rules,
            "seed": str(self.seed),
            "commitment": self.commitment,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options},
            "actions": [[seat, text] for seat, text in self.actions],
            "result": list(self.result),
        }
        if self.format != FORMAT_V1:
            data["chance"], data["engine"] = self.chance, self.engine
        if self.entropy is not None:
            data["entropy"] = list(self.entropy)
        if self.changes:
            data["changes"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.changes}
        if self.task is not None:
            data["task"] = self.task
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
        if form not in FORMATS:
            raise _bad(f"format must be one of {', '.join(FORMATS)}, not {form!r}")
        expected = {"format", "game", "rules", "seed", "commitment", "options", "actions", "result"}
        if form != FORMAT_V1:
            expected |= {"chance", "engine"}
        if form == FORMAT_V3:
            expected.add("entropy")
        if set(data) - {"changes", "task"} != expected:
            raise _bad(f"fields must be {', '.join(sorted(expected))} (and maybe changes, task)")
        if form == FORMAT_V1 and "task" in data:
            raise _bad(f"a {FORMAT_V1!r} record has no task")
        chance, engine = (data["chance"], data["engine"]) if form != FORMAT_V1 else (V1, 1)
        if chance not in VERSIONS:
            raise _bad(f"chance must be one of {', '.join(VERSIONS)}, not {chance!r}")
        if not _is_int(engine) or engine < 1:
            raise _bad("engine must be an integer >= 1")
        if form == FORMAT and (chance, engine) == (V1, 1):
            raise _bad(f"a record of chance v1 and engine 1 is written as {FORMAT_V1!r}")
        if form == FORMAT_V3 and chance != V2:
            raise _bad(f"a {FORMAT_V3!r} record is dealt with chance {V2}")
        return cls(
            game=_text(data["game"], "game"),
            rules=_text(data["rules"], "rules"),
            seed=_seed_text(data["seed"]),
            commitment=_text(data["commitment"], "commitment"),
            options=_options(data["options"]),
            actions=_steps(data["actions"]),
            result=tuple(_integers(data["result"], "result")),
            changes=_rule_changes(data.get("changes", {})),
            chance=chance,
            engine=engine,
            entropy=_entropy(data["entropy"]) if form == FORMAT_V3 else None,
            task=_text(data["task"], "task") if "task" in data else None,
        )


FORMATS = (FORMAT_V1, FORMAT, FORMAT_V3)
"""Every record format, oldest first."""


def _entropy(value: object) -> Entropy:
    if not isinstance(value, list) or not all(v is None or isinstance(v, str) for v in value):
        raise _bad("entropy must be a list of hex strings or nulls")
    return tuple(value)


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


def _rule_changes(value: object) -> tuple[tuple[str, Change], ...]:
    if not isinstance(value, dict):
        raise _bad("changes must be an object")
    return tuple((name, _change(name, v)) for name, v in sorted(value.items()))


def _change(name: str, value: object) -> Change:
    """A rule change as JSON holds it: an enum's value or a flag as is, a list of enum
    values as a tuple, else an option."""
    if isinstance(value, (str, bool)):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    return _option(name, value)


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
    def history(self) -> Sequence[AppliedStep]: ...

    def returns(self) -> tuple[int, ...]: ...


def record_hand(
    game: str,
    state: _Finished,
    *,
    seed: int | None = None,
    entropy: Sequence[str | None] | None = None,
) -> HandRecord:
    """The record of ``state``, a finished hand of ``game`` dealt from its seed.

    The seed is ``state.seed``; ``seed`` gives it for a state that does not keep it.  With
    ``entropy`` (each seat's contribution, lowercase hex or ``None``) the hand was dealt from
    :func:`deal_seed` of the house ``seed`` (required then) and the entropy, which must be
    ``state.seed``: the record is a ``qipai-hand/3`` one, revealing the house seed.  The
    record is replayed before it is returned and must give the very same events (every
    card dealt, every result), so a hand dealt from a prearranged ``deck`` or under a
    custom rule set is refused rather than recorded wrong.

    :raises InvalidActionError: ``unknown_game``, ``bad_seed``, ``bad_entropy``,
        ``hand_not_over`` or ``unreplayable_hand`` (with the failed :class:`Verification`'s
        reason).
    """
    engine = game_type(game)
    if not state.is_terminal:
        raise InvalidActionError("hand_not_over", "only a finished hand has a record")
    if entropy is None:
        hand_seed = _seed_of(state, seed)
    else:
        if seed is None:
            raise InvalidActionError("bad_seed", "a hand dealt with entropy: pass its house seed=")
        problem = entropy_problem(entropy, len(state.returns()))
        if problem is not None:
            raise InvalidActionError("bad_entropy", problem)
        _seed_of(state, deal_seed(seed, entropy))
        hand_seed = seed
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
        engine=engine.engine_version,
        entropy=None if entropy is None else tuple(entropy),
        task=engine.task_of(state),
    )
    values = engine.table_options(state)
    options = tuple((name, _as_option(values.get(name))) for name in sorted(values))
    record = dataclasses.replace(base, options=options)
    check, replayed = _replayed(record, engine)
    if check.ok and getattr(replayed, "events", None) == getattr(state, "events", None):
        return record
    failure = f"{check.code}: {check.reason}" if not check.ok else "another deal"
    raise InvalidActionError("unreplayable_hand", f"the record does not replay: {failure}")


def _changes(rules: object, preset: object) -> tuple[tuple[str, Change], ...]:
    """The fields in which ``rules`` differs from its ``preset``: numbers, lists of
    numbers, flags and enums (by value); any other change is refused."""
    changed: list[tuple[str, Change]] = []
    for field in dataclasses.fields(preset):  # type: ignore[arg-type]  # rules are dataclasses
        mine, theirs = getattr(rules, field.name), getattr(preset, field.name)
        if mine != theirs:
            changed.append((field.name, _change_of(field.name, mine)))
    return tuple(sorted(changed))


def _change_of(name: str, value: object) -> Change:
    if isinstance(value, enum.Enum) and isinstance(value.value, str):
        return value.value
    if isinstance(value, bool):
        return value
    if isinstance(value, tuple) and value and all(_is_named(v) for v in value):
        return tuple(v.value for v in value)
    try:
        return _as_option(value)
    except (InvalidActionError, TypeError, ValueError):
        raise InvalidActionError(
            "unreplayable_hand", f"rule {name} cannot be recorded: {value!r}"
        ) from None


def _is_named(value: object) -> bool:
    """An enum member whose value is a string (written as that string)."""
    return isinstance(value, enum.Enum) and isinstance(value.value, str)


def _is_names(value: Change) -> bool:
    """A change written as an enum's value, or a list of them."""
    return isinstance(value, str) or (
        isinstance(value, tuple) and bool(value) and isinstance(value[0], str)
    )


def _rules_of(record: HandRecord, engine: SomeGame) -> object:
    """The record's rule set: its preset with the record's :attr:`~HandRecord.changes`
    (an enum's value made the enum again, a list of values a tuple of enums)."""
    preset = engine.get_rules(record.rules)
    if not record.changes:
        return preset
    named = {name: value for name, value in record.changes if _is_names(value)}
    plain = {name: value for name, value in record.changes if not _is_names(value)}
    return dataclasses.replace(preset, **plain, **coerce_changes(preset, named))


def _seed_of(state: object, seed: int | None) -> int:
    own = getattr(state, "seed", None)
    if seed is None and own is None:
        raise InvalidActionError("bad_seed", "this state keeps no seed: pass seed=")
    if seed is not None and own is not None and seed != own:
        raise InvalidActionError("bad_seed", f"seed {seed} is not the state's seed")
    chosen = seed if seed is not None else own
    check_seed(chosen)
    assert isinstance(chosen, int)
    return chosen


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

    A ``qipai-hand/3`` record's commitment is of its house seed, and its hand is replayed
    from the house seed mixed with its entropy (:attr:`HandRecord.deal_seed`).

    The failure codes, in the order checked: ``commitment_mismatch`` (seed and commitment
    disagree), ``not_published`` (commitment is not ``published``), ``bad_entropy`` (a
    format 3 record's entropy is not one lowercase hex contribution of 16-64 bytes or
    ``null`` per seat), ``unknown_game``,
    ``bad_chance`` (not a chance version), ``unsupported_engine`` (a record of a newer
    engine than this one), ``unknown_rules``, ``bad_options``, ``bad_action`` (an
    action's text does not parse),
    ``illegal_action`` (an action does not apply at its place), ``hand_not_over`` (the
    actions stop before the end), ``task_mismatch`` (the replay draws another 任务 than the
    record names, or one where it names none), ``result_mismatch``.
    """
    try:
        expected = commitment(record.seed)
    except InvalidActionError as error:
        return _fail("commitment_mismatch", error.message)
    if record.commitment != expected:
        return _fail("commitment_mismatch", f"sha256 of the seed is {expected}")
    if published is not None and record.commitment != published:
        return _fail("not_published", f"the published commitment was {published}")
    if record.entropy is not None:
        problem = entropy_problem(record.entropy, len(record.result))
        if problem is not None:
            return _fail("bad_entropy", problem)
    try:
        engine = game_type(record.game)
    except GameError as error:
        return _fail(error.code, error.message)
    if record.chance not in VERSIONS:
        return _fail("bad_chance", f"chance is one of {', '.join(VERSIONS)}: {record.chance!r}")
    if record.engine > engine.engine_version:
        newest = engine.engine_version
        return _fail(
            "unsupported_engine",
            f"the record's {record.game} engine {record.engine} is newer than {newest}",
        )
    try:
        engine.get_rules(record.rules)
    except GameError as error:
        return _fail(error.code, error.message)
    return _replayed(record, engine)[0]


def _replayed(record: HandRecord, engine: SomeGame) -> tuple[Verification, SomeState | None]:
    """The verification of ``record``'s replay, and the replayed hand if it ran."""
    options = record.option_map()
    if set(options) != set(engine.record_options):
        names = ", ".join(engine.record_options)
        return _fail("bad_options", f"{record.game} options: {names}"), None
    try:
        steps = [(seat, engine.parse(text)) for seat, text in record.actions]
    except GameError as error:
        return _fail("bad_action", error.message), None
    try:
        rules = _rules_of(record, engine)
        engine.replay(rules, record.deal_seed, [], **_how(record), **options)
    except (ValueError, TypeError) as error:  # GameError is a ValueError
        return _fail("bad_options", str(error)), None
    try:
        state = engine.replay(rules, record.deal_seed, steps, **_how(record), **options)
    except GameError as error:
        return _fail("illegal_action", f"{error.code}: {error.message}"), None
    if not state.is_terminal:
        return _fail("hand_not_over", "the actions stop before the hand is over"), state
    drawn = engine.task_of(state)
    if drawn != record.task:
        return _fail("task_mismatch", f"the replay draws the task {drawn}"), state
    result = tuple(state.returns())
    if result != record.result:
        return _fail("result_mismatch", f"the replay gives {list(result)}", result), state
    return Verification(True, "ok", "", result), state


def _how(record: HandRecord) -> dict[str, str | int]:
    """How the record's hand was played: its chance and its engine's version (an older
    engine's returns may differ: the game replays them as that engine gave them)."""
    return {"chance": record.chance, "engine": record.engine}


def replay_steps(
    record: HandRecord,
) -> Iterator[tuple[tuple[int | None, str] | None, SomeState]]:
    """The record's hand before its first action, then after each: ``(None, state)``, then
    ``((seat, text), state)`` per action.

    The state is the game's own ``State``, the same object each time (changed in place):
    read what you need from it before taking the next step.  Check the record with
    :func:`verify` first; this only replays it.

    :raises InvalidActionError: ``unknown_game``, ``unknown_rules``, ``bad_action``,
        ``bad_entropy``;
        :raises IllegalActionError: an action that does not apply at its place.
    """
    engine = game_type(record.game)
    rules = _rules_of(record, engine)
    seed = record.deal_seed
    state = engine.replay(rules, seed, [], **_how(record), **record.option_map())
    yield None, state
    for seat, text in record.actions:
        state.apply(engine.parse(text), seat)
        yield (seat, text), state
