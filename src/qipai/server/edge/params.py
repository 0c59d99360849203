"""The HTTP API's parameters, checked at the border: plain text and ASCII numbers.

Every path and query parameter is refused (``bad_parameter``, 400) before an endpoint
sees it when it holds a character no parameter of the API can hold: a control character
(``\\x00``, which PostgreSQL refuses in text, and the rest of Unicode's ``Cc``) or a lone
surrogate.  A number is ASCII digits only, at most :data:`MAX_DIGITS` of them: ``"²"`` and
``"٣"`` are digits to :meth:`str.isdigit` (and the second to :func:`int`), but not numbers
a client means; and :func:`int` refuses more than 4,300 digits.

>>> is_plain_text("a1b2"), is_plain_text("a\\x00b"), is_plain_text("\\ud800")
(True, False, False)
>>> [ascii_number(text) for text in ("42", "²", "٣", "-1", "")]
[42, None, None, None, None]
"""

from __future__ import annotations

import re
import unicodedata

from starlette.requests import Request

from qipai.errors import InvalidActionError

MAX_DIGITS = 9
"""The most digits a number parameter may have (every bound of the API is far below)."""
_NUMBER = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs"})
"""Control characters and surrogates."""


def is_plain_text(text: str) -> bool:
    """Whether ``text`` holds no control character and no lone surrogate."""
    if text.isprintable():  # the usual case; the test below lets other separators pass
        return True
    return not any(unicodedata.category(char) in _REFUSED_CATEGORIES for char in text)


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (a string no UTF-8 can carry)."""
    return any("\ud800" <= char <= "\udfff" for char in text)


def ascii_number(text: str) -> int | None:
    """``text`` as a number if it is 1 to :data:`MAX_DIGITS` ASCII digits, else ``None``."""
    return int(text) if _NUMBER.fullmatch(text) else None


def check_params(request: Request) -> None:
    """Refuse a request whose path or query parameters are not plain text.

    :raises InvalidActionError: ``bad_parameter``.
    """
    values = [*request.path_params.items(), *request.query_params.multi_items()]
    for name, value in values:
        if not (isinstance(value, str) and is_plain_text(name) and is_plain_text(value)):
            raise InvalidActionError(
                "bad_parameter", f"the parameter {name!r} holds a control character"
            )


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    """The query parameter ``name``: ``default`` if absent.

    :raises InvalidActionError: ``bad_parameter`` unless ASCII digits for a number in
        ``low..high``.
    """
    raw = request.query_params.get(name)
    if raw is None:
        return default
    number = ascii_number(raw)
    if number is None or not low <= number <= high:
        raise InvalidActionError("bad_parameter", f"{name} is an integer {low}..{high}")
    return number
