"""Which node should own a room: rendezvous (highest random weight) hashing.

Every node computes the same answer from the same list of nodes alive, with no
coordination: for each room, the node whose ``SHA-256(room | node)`` is largest.  When a
node stops, only its rooms move (each to its next choice); when one starts, it is the first
choice of about ``1/n`` of the rooms, which it takes as they fall idle
(:class:`qipai.server.run.node.ClusterNode`): a room in play is never moved.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def weight(resource: str, node: str) -> int:
    """``node``'s weight for ``resource`` (the largest wins)."""
    digest = hashlib.sha256(f"{resource}|{node}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def preferred(resource: str, nodes: Iterable[str]) -> str | None:
    """The node that should own ``resource`` among ``nodes`` (``None``: no node).

    >>> preferred("room:a", ["n1", "n2", "n3"]) in {"n1", "n2", "n3"}
    True
    >>> preferred("room:a", [])
    """
    return max(nodes, key=lambda node: weight(resource, node), default=None)
