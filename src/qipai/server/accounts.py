"""Accounts and sessions: register, sign in, guests, and who a token belongs to.

Password hashing runs in its own threads (not the database's), so a burst of sign-ins
never delays a settlement.

Every new account, guests included, is a real user in the ledger with the starting grant
(:data:`STARTING_COINS`) as its first transaction, so guest play stays honest: a guest's
coins come from the same grant account and are audited like everybody's.  A guest has no
password; his token is his only key, and he may not sign in again once it is lost.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from qipai.errors import IllegalActionError

from .auth import Passwords, check_credentials, new_token, token_hash
from .hall import Database

STARTING_COINS = 10_000
"""Coins a new account starts with (enough for every shipped room)."""
GUEST_PREFIX = "游客"
"""The name of a guest: this and eight random hex digits (another draw if taken)."""
GUEST_NAME_TRIES = 5
"""Draws of a guest name before giving up."""


@dataclass(frozen=True)
class SignedIn:
    """A session's user."""

    id: int
    name: str
    coins: int


@dataclass(frozen=True)
class Session:
    """What registering or signing in returns to the client."""

    token: str
    user: SignedIn
    expires_at: datetime


class Accounts:
    """Register, sign in, and resolve tokens, over the store."""

    def __init__(
        self, db: Database, passwords: Passwords, *, starting_coins: int = STARTING_COINS
    ) -> None:
        self.db = db
        self.passwords = passwords
        self.starting_coins = starting_coins
        self._dummy = passwords.hash(secrets.token_hex(16))

    async def register(self, name: object, password: object) -> Session:
        """A new account and its first session.

        :raises InvalidActionError: ``bad_name``, ``bad_password``.
        :raises IllegalActionError: ``name_taken``.
        """
        name, password = check_credentials(name, password)
        encoded = await asyncio.to_thread(self.passwords.hash, password)
        user = await self.db.run(
            self.db.store.register, name, encoded, grant=self.starting_coins, now=_now()
        )
        return await self._session(user)

    async def guest(self) -> Session:
        """A new guest account (no password) and its session."""
        for attempt in range(GUEST_NAME_TRIES):
            name = f"{GUEST_PREFIX}{secrets.token_hex(4)}"
            try:
                user = await self.db.run(
                    self.db.store.register, name, "", grant=self.starting_coins, now=_now()
                )
            except IllegalActionError as error:
                if error.code != "name_taken" or attempt == GUEST_NAME_TRIES - 1:
                    raise
                continue
            return await self._session(user)
        raise AssertionError("unreachable")

    async def sign_in(self, name: object, password: object) -> Session:
        """A new session for a name and password.

        :raises IllegalActionError: ``bad_credentials`` (the same for an unknown name).
        """
        name, password = check_credentials(name, password)
        user = await self.db.run(self.db.store.user_by_name, name)
        # an unknown name (or a guest) is checked against a dummy hash: the same work, so
        # the answer's timing does not tell which names exist
        encoded = user.password_hash if user is not None and user.password_hash else None
        matches = await asyncio.to_thread(self.passwords.verify, encoded or self._dummy, password)
        if user is None or encoded is None or not matches:
            raise IllegalActionError("bad_credentials", "wrong name or password")
        return await self._session(user.id)

    async def sign_out(self, token: str) -> None:
        """End the session of ``token`` (unknown tokens: nothing happens)."""
        await self.db.run(self.db.store.delete_session, token_hash(token))

    async def user_for_token(self, token: str) -> SignedIn | None:
        """The user of a live session, or ``None``."""
        user = await self.db.run(self.db.store.session_user, token_hash(token), _now())
        if user is None:
            return None
        return await self._signed_in(user)

    async def _session(self, user: int) -> Session:
        token = new_token()
        expires = _now() + self.passwords.session_ttl
        await self.db.run(self.db.store.create_session, user, token_hash(token), expires)
        return Session(token, await self._signed_in(user), expires)

    async def _signed_in(self, user: int) -> SignedIn:
        profile = await self.db.run(self.db.store.profile, user)
        return SignedIn(profile.id, profile.name, profile.coins)


def _now() -> datetime:
    return datetime.now(UTC)
