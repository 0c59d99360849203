"""The rules for watching: the hall's (the rooms file's ``[watch]`` section, read by
:func:`watch_settings`) and one table's own (:class:`TableWatch`, a private table's
options), as values that :class:`~qipai.hall.watch.spectators.Spectators` follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from qipai.errors import InvalidActionError

DEFAULT_BACKLOG = 64
"""The most frames released to one spectator at once (:attr:`WatchSettings.backlog`)."""


@dataclass(frozen=True, slots=True)
class WatchSettings:
    """The hall's rules for spectators (the rooms file's ``[watch]`` section)."""

    cash_tables: bool = True
    """Whether a cash room's table may be watched (``watch_cash_tables``)."""
    backlog: int = DEFAULT_BACKLOG
    """The most frames released to one spectator at once (``spectator_backlog``): more,
    and he gets one fresh snapshot instead."""

    def __post_init__(self) -> None:
        if type(self.cash_tables) is not bool:
            raise InvalidActionError("bad_room", "[watch] watch_cash_tables: true or false")
        if type(self.backlog) is not int or self.backlog < 1:
            raise InvalidActionError("bad_room", "[watch] spectator_backlog: an integer >= 1")


def watch_settings(document: Mapping[str, object]) -> WatchSettings:
    """The ``[watch]`` section of a rooms file read as TOML (absent: the defaults):
    ``watch_cash_tables`` (default true) and ``spectator_backlog`` (default
    :data:`DEFAULT_BACKLOG`).

    :raises InvalidActionError: ``bad_room`` (not a table, an unknown key, a bad value).
    """
    section = document.get("watch", {})
    if not isinstance(section, dict):
        raise InvalidActionError("bad_room", "[watch] must be a table")
    names = {"watch_cash_tables": "cash_tables", "spectator_backlog": "backlog"}
    unknown = set(section) - set(names)
    if unknown:
        raise InvalidActionError("bad_room", f"[watch]: unknown keys {sorted(unknown)}")
    cash_tables = section.get("watch_cash_tables", True)
    backlog = section.get("spectator_backlog", DEFAULT_BACKLOG)
    return WatchSettings(cash_tables, backlog)


@dataclass(frozen=True, slots=True)
class TableWatch:
    """One table's own spectator options (a private table's; others have none)."""

    allowed: bool = True
    """Whether it may be watched."""
    delay: float = 0.0
    """Seconds its spectators' frames are held back."""
