"""``qipai serve``: run the hall in one process on uvicorn.

The WebSocket stack is uvicorn's sans-I/O ``websockets`` protocol with per-message
compression **off** (its defaults hold a zlib context of hundreds of KiB per connection;
the frames are small JSON), protocol-level pings every 20 s to find dead peers, and frames
larger than :data:`WS_MAX_SIZE` refused by closing the connection (code 1009).

The client's address (what the limits of :mod:`qipai.server.edge.limits` count) is the TCP
peer's, or, for a peer in ``forwarded_allow_ips`` (uvicorn's default:
``$FORWARDED_ALLOW_IPS``, else ``127.0.0.1,::1``), the last address of its
``X-Forwarded-For`` that is not itself a trusted proxy.
"""

from __future__ import annotations

import logging
import tomllib
from pathlib import Path

import uvicorn

from qipai.errors import InvalidActionError
from qipai.hall.economy.settings import load_economy
from qipai.hall.match.config import MatchConfig, default_matches, load_matches
from qipai.hall.private.options import load_private
from qipai.hall.rooms import default_rooms, load_rooms
from qipai.hall.watch.settings import watch_settings
from qipai.server.edge.app import ServerConfig, create_app
from qipai.store.economy import zone_of

WS_MAX_SIZE = 16 * 1024
"""The largest WebSocket frame uvicorn reads; messages above 4 KiB get ``too_large``."""


def rooms_from(path: str | None) -> ServerConfig:
    """A config with the rooms of a TOML file (``None``: the shipped rooms).

    :raises InvalidActionError: ``bad_config`` (unreadable file), ``bad_room``.
    """
    if path is None:
        return ServerConfig(rooms=default_rooms())  # and the shipped [economy]
    try:
        text = Path(path).read_text("utf-8")
    except OSError as error:
        raise InvalidActionError("bad_config", f"cannot read {path}: {error}") from None
    watch = watch_settings(tomllib.loads(text))
    economy = load_economy(text)
    zone_of(economy.timezone)  # bad_room: no such zone
    return ServerConfig(
        rooms=load_rooms(text), watch=watch, private=load_private(text), economy=economy
    )


def matches_from(path: str | None) -> tuple[MatchConfig, ...]:
    """The matches of a TOML file (``None``: the shipped matches).

    :raises InvalidActionError: ``bad_config`` (unreadable file), ``bad_match``.
    """
    if path is None:
        return default_matches()
    try:
        text = Path(path).read_text("utf-8")
    except OSError as error:
        raise InvalidActionError("bad_config", f"cannot read {path}: {error}") from None
    return load_matches(text)


def serve(
    config: ServerConfig,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    forwarded_allow_ips: str | None = None,
) -> None:
    """Run the hall until interrupted (Ctrl-C).  ``forwarded_allow_ips``: the proxies whose
    ``X-Forwarded-For`` is believed (comma-separated addresses or networks, ``*`` for
    all; ``None``: uvicorn's default, above)."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        access_log=False,
        log_level="info",
        backlog=4096,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )
