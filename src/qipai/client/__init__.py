"""The hall's Python client: :class:`HallClient` (HTTP API and WebSocket sessions),
:class:`AutoPlayer` (when to act), and ``qipai loadtest`` (:mod:`.loadtest`)."""

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import ClientSession, Connection, HallClient, HallError

__all__ = ["AutoPlayer", "ClientSession", "Connection", "HallClient", "HallError"]
