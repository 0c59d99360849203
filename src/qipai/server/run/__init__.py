"""The running hall: the live hall's core behind the one effect executor, and what carries
its effects out.

:class:`~qipai.server.run.hall.HallService` holds the pure
:class:`~qipai.hall.core.HallCore` and sends it every command through the
:class:`~qipai.server.run.executor.Executor`, which carries out the effects: frames onto the
bus (:mod:`~qipai.server.run.bus`), the store's writes on its threads
(:mod:`~qipai.server.run.database`, :mod:`~qipai.server.run.batching`), the bots' decisions
in worker processes (:mod:`~qipai.server.run.bots`), the players' places and claims
(:mod:`~qipai.server.run.places`), what is kept for the absent
(:mod:`~qipai.server.run.missed`), and, on a node of a cluster, the leases of this node
(:mod:`~qipai.server.run.node`) and its private tables (:mod:`~qipai.server.run.privatenodes`).
The matches' desk is run by :mod:`~qipai.server.run.matches` and
:mod:`~qipai.server.run.matchsteps`.

It imports the API's shapes (:mod:`qipai.server.api`), never the edge
(:mod:`qipai.server.edge`): no socket, no HTTP request reaches below the edge.
"""
