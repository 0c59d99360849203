"""The type of JSON values: what :func:`json.dumps` writes and :func:`json.loads` reads.

>>> import json
>>> value: Json = {"seat": 1, "cards": ["3s", "BJ"], "ok": True, "rate": 0.5, "who": None}
>>> json.loads(json.dumps(value)) == value
True
"""

from __future__ import annotations

from typing import TypeAlias

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
"""A JSON value: ``null``, a boolean, a number, a string, an array or an object."""
