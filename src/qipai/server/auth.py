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
from dataclasses import dataclass, field
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from qipai.errors import InvalidActionError

NAME_PATTERN = re.compile(r"^[\w\u4e00-\u9fff-]{2,20}$")
"""A player name: 2 to 20 letters, digits, ``_``, ``-`` or Chinese characters."""
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


def check_credentials(name: object, password: object) -> tuple[str, str]:
    """A well-formed (name, password) pair.

    :raises InvalidActionError: ``bad_name`` or ``bad_password``.
    """
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise InvalidActionError("bad_name", "a name is 2-20 letters, digits, _ or -")
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidActionError(
            "bad_password", f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        )
    return name, password


def new_token() -> str:
    """A fresh session token (43 URL-safe characters)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
