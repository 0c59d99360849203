"""总成绩: the score a private table keeps over its hands.

One row per hand settled at the table (a voided hand has none): its id, its number at the
table, and each seat's points.  For a ``points`` table the points are the game's own (its
``returns()``: what the hand's result says, an escape's penalty included); for a ``coins``
table they are the coins each seat won or lost (``net``).  The totals are the sums of the
rows, seat by seat; the names are those of whoever held each seat at its last hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from msgspec import UNSET

from qipai.hall import frames
from qipai.hall.table.table import HandOutcome


@dataclass
class ScoreSheet:
    """A private table's rows so far."""

    code: str
    names: list[str]
    """The name at each seat (of its last hand)."""
    coins: bool
    """Whether a row holds coins (a ``coins`` table) rather than points."""
    rows: list[frames.ScoreRow] = field(default_factory=list)

    def add(self, outcome: HandOutcome, names: list[str]) -> None:
        """The hand ``outcome`` settled with ``names`` seated (a voided one adds no row)."""
        if outcome.voided:
            return
        settlement = outcome.settlement
        points = settlement.net if self.coins else settlement.points
        self.names = list(names)
        self.rows.append(frames.ScoreRow(outcome.hand_id, len(self.rows) + 1, list(points)))

    @property
    def totals(self) -> list[int]:
        """Each seat's sum over the rows."""
        return [sum(column) for column in zip(*(r.points for r in self.rows), strict=True)] or [
            0
        ] * len(self.names)

    def frame(self, table: int | None, *, over: bool, member: bool = True) -> frames.Scoreboard:
        """The ``scoreboard`` frame (``over``: the table's last); with the table's code for
        the people seated there (``member``), without it for spectators."""
        return frames.Scoreboard(
            code=self.code if member else UNSET, table=table, names=list(self.names),
            rows=list(self.rows), totals=self.totals, over=over,
        )  # fmt: skip
