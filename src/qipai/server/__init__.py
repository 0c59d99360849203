"""The hall's network edge and its running hall, in three parts, low to high
(``docs/architecture.md``, "The server's parts"):

- :mod:`qipai.server.api`: the client API's shapes, the WebSocket messages
  (:mod:`~qipai.server.api.protocol`) and the HTTP answers (:mod:`~qipai.server.api.answers`);
- :mod:`qipai.server.run`: the running hall, the live hall's core behind the one effect
  executor (:mod:`~qipai.server.run.hall`, :mod:`~qipai.server.run.executor`), the matches,
  and what carries effects out: the store's threads, the bus, the bots' processes, this
  process as a node of a cluster (:mod:`~qipai.server.run.node`);
- :mod:`qipai.server.edge`: what faces clients, the ASGI app and its HTTP routes
  (:mod:`~qipai.server.edge.app`), a WebSocket connection
  (:mod:`~qipai.server.edge.connection`) and its link to the hall that holds the player,
  here or on another node (:mod:`~qipai.server.edge.links`,
  :mod:`~qipai.server.edge.gateway`), accounts and the limits;

and ``qipai serve`` (:mod:`.serve`) on top.  Sockets, clocks, the database and secrets live
here; the rules of play live in the pure :mod:`qipai.hall` below.
"""
