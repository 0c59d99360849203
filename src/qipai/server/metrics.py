"""The hall's figures in the Prometheus text format (``GET /metrics``).

One gauge or counter per figure, each labelled with the process's node id (``node``:
``--node-id``, or ``single`` for a hall alone), so that a Prometheus scraping every node
of a hall keeps them apart.  Format: the text exposition format 0.0.4, which every
Prometheus-compatible scraper reads.

>>> tables = Metric("qipai_tables", "gauge", "Tables with a hand in play.", 3)
>>> print(prometheus_text([tables], "n1"))
# HELP qipai_tables Tables with a hand in play.
# TYPE qipai_tables gauge
qipai_tables{node="n1"} 3
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The media type of the text exposition format."""


@dataclass(frozen=True, slots=True)
class Metric:
    """One figure."""

    name: str
    """The metric's name (``qipai_…``; counters end in ``_total``)."""
    kind: str
    """``gauge`` or ``counter``."""
    help: str
    """One line saying what it counts."""
    value: float
    """Its value now."""


def prometheus_text(metrics: Sequence[Metric], node: str) -> str:
    """``metrics`` in the text exposition format, each labelled ``node``."""
    label = node.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    lines = []
    for metric in metrics:
        lines += [
            f"# HELP {metric.name} {metric.help}",
            f"# TYPE {metric.name} {metric.kind}",
            f'{metric.name}{{node="{label}"}} {metric.value:g}',
        ]
    return "\n".join(lines) + "\n"
