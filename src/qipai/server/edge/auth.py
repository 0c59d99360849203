"""Passwords and session tokens.

Passwords are hashed with Argon2id (argon2-cffi, its RFC 9106 low-memory profile by
default: a slow, salted, memory-hard hash); only the hash is stored.  A session token is
32 random bytes from :mod:`secrets` given once to the client; the database keeps only its
SHA-256, so a stolen database holds no usable token.  Tokens expire after
:attr:`Passwords.session_ttl`.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from qipai.errors import InvalidActionError
from qipai.store import names

from .params import has_surrogate

NAME_LETTERS = "A-Za-z0-9\u3400-\u4dbf\u4e00-\u9fff"
"""What a name is made of (a regular expression class): ASCII letters and digits, and the
CJK Unified Ideographs of the basic block (U+4E00..U+9FFF) and Extension A (U+3400..U+4DBF)."""
NAME_MARKS = "_-\u00b7"
"""The marks a name may hold between its letters: ``_``, ``-`` and ``·`` (U+00B7 MIDDLE DOT,
the 间隔号 of transcribed names such as 克里斯·保罗)."""
NAME_PATTERN = re.compile(f"[{NAME_LETTERS}]+(?:[{re.escape(NAME_MARKS)}][{NAME_LETTERS}]+)*")
"""A whole player name (use ``fullmatch``): letters, and single marks between them."""
MIN_NAME = 2
"""The shortest name, in characters (after NFKC)."""
MAX_NAME = 20
"""The longest name, in characters (after NFKC)."""
GUEST_PREFIX = "游客"
"""The name of a guest: this and eight random hex digits; no registered name begins so (a
player may not pass for a guest, nor take a guest's name)."""
RESERVED_PREFIXES = (GUEST_PREFIX, "guest", "机器人", names.DELETED_PREFIX)
"""What no registered name begins with, in any spelling that is the same name (遊客 in
traditional characters, GUEST, a look-alike: :func:`~qipai.store.names.begins_like`): the
guests' names (``游客…``, shown ``Guest …`` in English), the hall's bots' (``机器人N``) and
the deleted accounts' (``已注销N``)."""
MIN_PASSWORD = 6
"""The shortest password accepted."""
MAX_PASSWORD = 128
"""The longest password accepted (hashing a megabyte would be a cheap attack)."""


@dataclass(frozen=True)
class Passwords:
    """How passwords are hashed and how long sessions live."""

    hasher: PasswordHasher = field(default_factory=PasswordHasher)
    """The Argon2 hasher; tests pass a cheaper one (``Passwords.cheap()``)."""
    session_ttl: timedelta = timedelta(days=7)
    """How long a session token stays valid."""

    @classmethod
    def cheap(cls) -> Passwords:
        """A fast Argon2id for tests and load runs (never for real accounts)."""
        return cls(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))

    def hash(self, password: str) -> str:
        """The encoded Argon2id hash (salt and parameters inside)."""
        return self.hasher.hash(password)

    def verify(self, encoded: str, password: str) -> bool:
        """Whether ``password`` matches the stored hash."""
        try:
            return self.hasher.verify(encoded, password)
        except (VerificationError, InvalidHashError):
            return False


def check_name(name: object) -> str:
    """A new player's name, in NFKC form, once it follows the rules.

    The rules, on the name after NFKC (so full-width ``ａｌｉｃｅ`` is ``alice``, and ``㊂``
    is ``三``): not beginning with a reserved prefix (:data:`RESERVED_PREFIXES`); 2 to 20
    characters; each an ASCII letter or digit, a Chinese character
    (:data:`NAME_LETTERS`), or one of the marks ``_ - ·`` (:data:`NAME_MARKS`); a mark only
    between two letters, never first, last or twice in a row.  Whether the name is free,
    and not a look-alike of a taken one, is the store's to say (``name_taken``).

    >>> check_name("ａｌｉｃｅ")
    'alice'
    >>> check_name("克里斯·保罗")
    '克里斯·保罗'
    >>> try:
    ...     check_name("аlice")  # its first letter is Cyrillic
    ... except InvalidActionError as error:
    ...     print(error.message.split(";")[0])
    a name may not hold U+0430 CYRILLIC SMALL LETTER A

    :raises InvalidActionError: ``bad_name``, with what is wrong.
    """
    if not isinstance(name, str):
        raise InvalidActionError("bad_name", f"a name is a string, not {type(name).__name__}")
    normal = unicodedata.normalize("NFKC", name)
    reserved = next((p for p in RESERVED_PREFIXES if names.begins_like(normal, p)), None)
    if reserved is not None:
        raise InvalidActionError(
            "bad_name", f"names beginning with {reserved} (in any spelling) are the hall's own"
        )
    if NAME_PATTERN.fullmatch(normal) and MIN_NAME <= len(normal) <= MAX_NAME:
        return normal
    rules = (
        f"a name is {MIN_NAME} to {MAX_NAME} Chinese characters, Latin letters (A-Z, a-z) or "
        "digits (0-9), with _ - or · only between them"
    )
    foreign = sorted({char for char in normal if not _is_name_char(char)})
    if foreign:
        listed = ", ".join(_describe(char) for char in foreign[:5])
        more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        raise InvalidActionError("bad_name", f"a name may not hold {listed}{more}; {rules}")
    if not MIN_NAME <= len(normal) <= MAX_NAME:
        plural = "" if len(normal) == 1 else "s"
        raise InvalidActionError(
            "bad_name", f"{rules}; this one has {len(normal)} character{plural}"
        )
    raise InvalidActionError("bad_name", f"{rules}; not first, last or two in a row")


def check_credentials(name: object, password: object) -> tuple[str, str]:
    """A well-formed (name, password) pair for registering; the name in NFKC form.

    :raises InvalidActionError: ``bad_name`` or ``bad_password``.
    """
    return check_name(name), check_password(password)


def check_sign_in(name: object, password: object) -> tuple[str, str]:
    """A (name, password) pair for signing in: the name as typed, not checked against the
    rules (a name registered under older rules must still sign in); the caller looks it up
    as typed, then in NFKC form (:func:`sign_in_names`).

    :raises InvalidActionError: ``bad_name`` (not a string, or one no name can be: a lone
        surrogate, a NUL) or ``bad_password``.
    """
    if not isinstance(name, str):
        raise InvalidActionError("bad_name", f"a name is a string, not {type(name).__name__}")
    if has_surrogate(name) or "\x00" in name:
        raise InvalidActionError("bad_name", "a name holds no lone surrogate and no NUL")
    return name, check_password(password)


def sign_in_names(name: str) -> list[str]:
    """The names to look up for a sign-in: as typed, then in NFKC form if that differs.

    >>> sign_in_names("ａｌｉｃｅ")
    ['ａｌｉｃｅ', 'alice']
    """
    normal = unicodedata.normalize("NFKC", name)
    return [name] if normal == name else [name, normal]


def check_password(password: object) -> str:
    """A password, once it is 6 to 128 characters of Unicode text.

    :raises InvalidActionError: ``bad_password`` (also for a lone surrogate: it has no
        UTF-8, so it cannot be hashed).
    """
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidActionError(
            "bad_password", f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        )
    if has_surrogate(password):
        raise InvalidActionError("bad_password", "a password holds no lone surrogate")
    return password


def _is_name_char(char: str) -> bool:
    return re.fullmatch(f"[{NAME_LETTERS}{re.escape(NAME_MARKS)}]", char) is not None


def _describe(char: str) -> str:
    """``U+0430 CYRILLIC SMALL LETTER A``: a character named, safe to show whatever it is."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'UNNAMED')}"


def new_token() -> str:
    """A fresh session token (43 URL-safe characters)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
