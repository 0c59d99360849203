"""Several hall processes on one PostgreSQL and one Redis (``qipai serve --redis``).

A table or a match run lives on one process, its *owner*, which holds a lease on it in
Redis (:mod:`.lease`); nodes beat in Redis so that one that stops is seen within
seconds (:mod:`.nodes`).  Every lease carries a fencing token, checked by the store when a
hand is settled (:mod:`qipai.store.fences`), so that an owner that lost its lease can
never settle.  A hall of one process uses none of this and needs no Redis.
"""

from qipai.cluster.lease import Lease, Leases
from qipai.cluster.nodes import Nodes

__all__ = ["Lease", "Leases", "Nodes"]
