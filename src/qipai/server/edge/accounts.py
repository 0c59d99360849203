"""Accounts and sessions: register, sign in, guests, and who a token belongs to.

Password hashing runs in its own threads (not the database's), so a burst of sign-ins
never delays a settlement, and at most a few at once (:class:`~.limits.HashGate`: one
more than it admits is refused with ``busy``).

Every new account, guests included, is a real user in the ledger with the starting grant
(:data:`STARTING_COINS`) as its first transaction, so guest play stays honest: a guest's
coins come from the same grant account and are audited like everybody's.  A guest has no
password; his token is his only key, and he may not sign in again once it is lost.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from qipai.errors import IllegalActionError
from qipai.server.run.database import Database
from qipai.store.console import Console

from .auth import (
    GUEST_PREFIX,
    Passwords,
    check_credentials,
    check_sign_in,
    new_token,
    sign_in_names,
    token_hash,
)
from .limits import HashGate

STARTING_COINS = 10_000
"""Coins a new account starts with (enough for every shipped room)."""
GUEST_NAME_TRIES = 5
"""Draws of a guest name before giving up."""


class BannedError(IllegalActionError):
    """``banned``: an operator banned the account (until :attr:`until`, or for good)."""

    def __init__(self, until: datetime | None, reason: str) -> None:
        end = "for good" if until is None else f"until {until.isoformat()}"
        super().__init__("banned", f"this account is banned {end}: {reason}")
        self.until = until
        """When the ban ends (``None``: for good)."""


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
        self,
        db: Database,
        passwords: Passwords,
        *,
        starting_coins: int = STARTING_COINS,
        hashing: HashGate | None = None,
    ) -> None:
        self.db = db
        self.passwords = passwords
        self.starting_coins = starting_coins
        self.hashing = hashing or HashGate()
        """Bounds the password hashes running and waiting (a refusal: ``busy``)."""
        self._dummy = passwords.hash(secrets.token_hex(16))

    async def register(
        self, name: object, password: object, *, address: str | None = None
    ) -> Session:
        """A new account and its first session, under the name in NFKC form (``address``:
        the client's, kept with the session).

        :raises InvalidActionError: ``bad_name`` (the rules of :func:`~.auth.check_name`),
            ``bad_password``.
        :raises IllegalActionError: ``name_taken`` (also for a look-alike of a taken name).
        """
        name, password = check_credentials(name, password)
        encoded = await self.hashing.run(self.passwords.hash, password)
        user = await self.db.run(
            self.db.store.register, name, encoded, grant=self.starting_coins, now=_now()
        )
        return await self._session(user, address)

    async def guest(self, *, address: str | None = None) -> Session:
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
            return await self._session(user, address)
        raise AssertionError("unreachable")

    async def sign_in(
        self, name: object, password: object, *, address: str | None = None
    ) -> Session:
        """A new session for a name and password.

        The name is looked up as typed, then in NFKC form (so ``ａｌｉｃｅ`` typed on a
        full-width keyboard signs ``alice`` in).

        :raises InvalidActionError: ``bad_name`` (not a string), ``bad_password``.
        :raises IllegalActionError: ``bad_credentials`` (the same for an unknown name).
        :raises BannedError: ``banned``, with the ban's end.
        """
        name, password = check_sign_in(name, password)
        self.hashing.admit()  # a full gate refuses before the database is asked anything
        found = [await self.db.run(self.db.store.user_by_name, n) for n in sign_in_names(name)]
        user = next((one for one in found if one is not None), None)
        # an unknown name (or a guest) is checked against a dummy hash: the same work, so
        # the answer's timing does not tell which names exist
        encoded = user.password_hash if user is not None and user.password_hash else None
        matches = await self.hashing.run(self.passwords.verify, encoded or self._dummy, password)
        if user is None or encoded is None or not matches:
            raise IllegalActionError("bad_credentials", "wrong name or password")
        ban = await self.db.run(Console(self.db.store).in_force, user.id, "ban", _now())
        if ban is not None:  # told only with the right password: a ban is nobody else's
            raise BannedError(ban.until, ban.reason)
        return await self._session(user.id, address)

    async def sign_out(self, token: str) -> None:
        """End the session of ``token`` (unknown tokens: nothing happens)."""
        await self.db.run(self.db.store.delete_session, token_hash(token))

    async def user_for_token(self, token: str) -> SignedIn | None:
        """The user of a live session, or ``None``."""
        user = await self.db.run(self.db.store.session_user, token_hash(token), _now())
        if user is None:
            return None
        return await self._signed_in(user)

    async def _session(self, user: int, address: str | None = None) -> Session:
        token = new_token()
        expires = _now() + self.passwords.session_ttl
        store = self.db.store
        await self.db.run(store.create_session, user, token_hash(token), expires, address)
        return Session(token, await self._signed_in(user), expires)

    async def _signed_in(self, user: int) -> SignedIn:
        profile = await self.db.run(self.db.store.profile, user)
        return SignedIn(profile.id, profile.name, profile.coins)


def _now() -> datetime:
    return datetime.now(UTC)
