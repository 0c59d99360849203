"""What faces clients: HTTP, the WebSocket, accounts and the limits on them.

The ASGI app (:mod:`~qipai.server.edge.app`) and its HTTP routes
(:mod:`~qipai.server.edge.routes`), one WebSocket connection
(:mod:`~qipai.server.edge.connection`) and its link to the hall that holds its player:
this process (:mod:`~qipai.server.edge.links`: each message as the core's command, one
function; a place taken first for a room or a private table, :mod:`~qipai.server.edge.privates`) or
another node (:mod:`~qipai.server.edge.gateway`); accounts and sessions
(:mod:`~qipai.server.edge.accounts`, :mod:`~qipai.server.edge.auth`), the limits
(:mod:`~qipai.server.edge.limits`), parameters and headers checked at the border
(:mod:`~qipai.server.edge.params`, :mod:`~qipai.server.edge.headers`) and the log's view of
clients' noise (:mod:`~qipai.server.edge.logs`).

The highest part of :mod:`qipai.server`: it drives the running hall
(:mod:`qipai.server.run`) and speaks the API (:mod:`qipai.server.api`).
"""
