"""The table wing: one table and its parts (seats, clock, asks, moves, frames, the end of a hand),
the live-table flow that the places share (:mod:`~qipai.hall.table.live`) and bot seats.

The table's public names stay importable from here (``from qipai.hall.table import
Table``), as they were when the table was one module."""

from qipai.hall.table.table import *  # noqa: F403 (its __all__, kept in one place)
from qipai.hall.table.table import __all__ as __all__
