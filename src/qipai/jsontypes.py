"""The type of JSON values: what :func:`json.dumps` writes and :func:`json.loads` reads.

>>> import json
>>> value: Json = {"seat": 1, "cards": ["3s", "BJ"], "ok": True, "rate": 0.5, "who": None}
>>> json.loads(json.dumps(value)) == value
True

A value read back is narrowed where it is read: :func:`json_object` and :func:`json_array`
and :func:`json_str` check its kind, :func:`json_int` converts it as ``int()`` would, and
each raises :class:`TypeError` on a value of another kind; :func:`entry` reads a field of
a document (JSON's, or TOML's, whose tables parse the same way).

>>> json_int(json_object(json.loads('{"hands": 3}'))["hands"])
3
>>> json_array({"hands": 3})
Traceback (most recent call last):
...
TypeError: a JSON array, not {'hands': 3}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias, TypeVar

T = TypeVar("T")
D = TypeVar("D")

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
"""A JSON value: ``null``, a boolean, a number, a string, an array or an object."""


def json_object(value: Json) -> dict[str, Json]:
    """``value``, a JSON object.

    :raises TypeError: ``value`` is not one.
    """
    if not isinstance(value, dict):
        raise TypeError(f"a JSON object, not {value!r}")
    return value


def json_array(value: Json) -> list[Json]:
    """``value``, a JSON array.

    :raises TypeError: ``value`` is not one.
    """
    if not isinstance(value, list):
        raise TypeError(f"a JSON array, not {value!r}")
    return value


def json_int(value: Json) -> int:
    """``int(value)``: a number, a boolean or a string of digits as an integer.

    :raises TypeError: ``value`` is an array, an object or ``null`` (as ``int()`` does).
    :raises ValueError: ``value`` is a string that is no integer (as ``int()`` does).
    """
    if value is None or isinstance(value, (list, dict)):
        raise TypeError(f"an integer, not {value!r}")
    return int(value)


def json_str(value: Json) -> str:
    """``value``, a JSON string.

    :raises TypeError: ``value`` is not one.
    """
    if not isinstance(value, str):
        raise TypeError(f"a JSON string, not {value!r}")
    return value


def entry(
    document: Mapping[str, object], key: str, kind: type[T] | tuple[type[T], ...], default: D
) -> T | D:
    """``document[key]``, a ``kind`` (one of ``kind``), or ``default`` where it has none.

    >>> entry({"seats": 3}, "seats", int, None), entry({}, "wait", (int, float), 10.0)
    (3, 10.0)

    :raises TypeError: ``document[key]`` is of another kind.
    """
    if key not in document:
        return default
    value = document[key]
    if not isinstance(value, kind):
        raise TypeError(f"{key!r}: not {value!r}")
    return value
