"""The hall's network edge: the ASGI app (:mod:`.app`), its WebSocket protocol
(:mod:`.protocol`, :mod:`.connection`), accounts (:mod:`.accounts`, :mod:`.auth`), the
running hall (:mod:`.hall`, :mod:`.executor`) and ``qipai serve`` (:mod:`.serve`).

Sockets, clocks, the database and secrets live here; the rules of play live in the pure
:mod:`qipai.hall` below.
"""
