"""The hall process's heap after start-up, kept out of the garbage collector's full passes.

Once the hall has started, its heap holds some 200,000 objects that live as long as the
process: the modules, the rooms and, above all, the move tables every game builds at
start-up (``GameType.warm_up``: the largest game's alone are about 120,000 objects).  CPython's
collector walks every one of them in each full (generation 2) collection, which ran
every 20-odd seconds under load and held the event loop about 150 ms each time: every
message of the node waited behind it (``docs/performance.md``, "What held the loop: the
garbage collector").  :func:`freeze_start_up_heap` collects once, then moves what
survived into the collector's permanent generation (:func:`gc.freeze`), which no
collection walks: later collections see only the objects made since, whose garbage they
still collect as before.
"""

from __future__ import annotations

import gc


def freeze_start_up_heap() -> int:
    """Collect the start-up's garbage, then freeze what is left out of later collections;
    the number of objects frozen (all frozen so far in the process)."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
