"""Spectators 观战 at the edge: the ``spectate``, ``stop_spectating`` and ``watch_by_name``
messages.

The rules are the hall's core's (:mod:`qipai.hall.watch.spectators`); here a message becomes its
command: a private table's ``code`` goes to the core as it is (its spectator watches the
private table, waiting while it has no live table), a player named by ``player`` is looked
up by the core among the tables of this process (only if he lets others watch him by his
name: ``watch_by_name``).  Both a code and a name tried are limited
(:meth:`~qipai.server.edge.limits.Gate.code_try`, :meth:`~qipai.server.edge.limits.Gate.name_try`)
by the connection before they come here.
"""

from __future__ import annotations

from qipai.errors import InvalidActionError
from qipai.hall import commands as c
from qipai.server.api.protocol import Spectate, WatchByName
from qipai.server.run.hall import HallService, Player


def spectate(hall: HallService, player: Player, message: Spectate) -> None:
    """``player`` watches the table ``message`` names (by ``code`` or ``player``).

    :raises InvalidActionError: ``bad_message`` (neither or both named).
    :raises IllegalActionError: ``in_match``, ``unknown_code``, ``table_closed``,
        ``not_watchable``, ``not_playing``, ``already_in_room`` (the core's refusals).
    """
    if (message.code is None) == (message.player is None):
        raise InvalidActionError("bad_message", "spectate: name a code or a player")
    if message.code is not None:
        hall.executor.run(c.Spectate(player.user, code=message.code))
    else:
        hall.executor.run(c.Spectate(player.user, player=message.player))


def stop_spectating(hall: HallService, player: Player) -> None:
    """``player`` stops watching.

    :raises IllegalActionError: ``not_spectating``.
    """
    hall.executor.run(c.StopSpectating(player.user))


def watch_by_name(hall: HallService, player: Player, message: WatchByName) -> None:
    """Whether others may watch ``player``'s table by his name from now on (those
    watching already go on watching).

    :raises IllegalActionError: ``not_connected``.
    """
    hall.executor.run(c.WatchByName(player.user, message.allow))
