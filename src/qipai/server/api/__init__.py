"""The client API's shapes: what a client may send on the WebSocket
(:mod:`~qipai.server.api.protocol`) and the HTTP API's answers
(:mod:`~qipai.server.api.answers`).

The lowest part of :mod:`qipai.server`: it imports nothing else of the server, so that the
running hall (:mod:`qipai.server.run`) and the edge (:mod:`qipai.server.edge`) both speak it.
"""
