"""The hall's figures in the Prometheus text format (``GET /metrics``).

One gauge or counter per figure, and histograms of how long things take
(:class:`Histogram`), each labelled with the process's node id (``node``: ``--node-id``,
or ``single`` for a hall alone), so that a Prometheus scraping every node of a hall keeps
them apart.  Format: the text exposition format 0.0.4, which every Prometheus-compatible
scraper reads (written here: a few lines, where ``prometheus_client`` would bring a global
registry for a handful of figures and histograms).

>>> tables = Metric("qipai_tables", "gauge", "Tables with a hand in play.", 3)
>>> print(prometheus_text([tables], "n1"))
# HELP qipai_tables Tables with a hand in play.
# TYPE qipai_tables gauge
qipai_tables{node="n1"} 3
<BLANKLINE>
"""

from __future__ import annotations

import bisect
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


BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Upper bounds (seconds) of a histogram's buckets: a millisecond to seconds."""


class Histogram:
    """How long something took, counted in :data:`BUCKETS` (a Prometheus histogram).

    >>> waits = Histogram("qipai_wait_seconds", "Waits.")
    >>> for seconds in (0.0004, 0.003, 0.2):
    ...     waits.observe(seconds)
    >>> print("\\n".join(waits.lines('node="n1"')[2:5]))
    qipai_wait_seconds_bucket{node="n1",le="0.001"} 1
    qipai_wait_seconds_bucket{node="n1",le="0.0025"} 1
    qipai_wait_seconds_bucket{node="n1",le="0.005"} 2
    """

    def __init__(self, name: str, help: str) -> None:
        self.name = name
        self.help = help
        self._counts = [0] * (len(BUCKETS) + 1)
        self.count = 0
        """Observations so far."""
        self.sum = 0.0
        """Their total (seconds)."""

    def observe(self, seconds: float) -> None:
        """Count one that took ``seconds``."""
        self._counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.count += 1
        self.sum += seconds

    def lines(self, label: str) -> list[str]:
        """The histogram in the text format, labelled ``label`` (``name="value"``)."""
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        running = 0
        for bound, count in zip([*map(str, BUCKETS), "+Inf"], self._counts, strict=True):
            running += count
            lines.append(f'{self.name}_bucket{{{label},le="{bound}"}} {running}')
        lines.append(f"{self.name}_sum{{{label}}} {_number(self.sum)}")
        lines.append(f"{self.name}_count{{{label}}} {self.count}")
        return lines


def prometheus_text(
    metrics: Sequence[Metric], node: str, histograms: Sequence[Histogram] = ()
) -> str:
    """``metrics`` and ``histograms`` in the text exposition format, labelled ``node``."""
    escaped = node.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    label = f'node="{escaped}"'
    lines = []
    for metric in metrics:
        lines += [
            f"# HELP {metric.name} {metric.help}",
            f"# TYPE {metric.name} {metric.kind}",
            f"{metric.name}{{{label}}} {_number(metric.value)}",
        ]
    for histogram in histograms:
        lines += histogram.lines(label)
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    """``value`` in full (a counter past a million must not lose its last digits).

    >>> _number(1234567), _number(0.25), _number(3.0)
    ('1234567', '0.25', '3')
    """
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))
