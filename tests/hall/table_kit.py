"""What the table tests share."""

from __future__ import annotations

from qipai.hall.table.table import Table


def run_out(table: Table, limit: int = 10_000) -> None:
    """Jump from deadline to deadline until the hand is over."""
    for _ in range(limit):
        if not table.in_hand:
            return
        deadline = table.deadline()
        assert deadline is not None
        table.tick(deadline)
    raise AssertionError("the hand did not end")
