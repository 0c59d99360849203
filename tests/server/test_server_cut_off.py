"""A request whose body is cut off (the client announces 1,000 bytes, sends 10 and
leaves) is the client's doing: the hall logs one INFO line for it, never uvicorn's
``Exception in ASGI application`` with starlette's ``ClientDisconnect`` traceback
(before: one traceback per request)."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

from fuzz_kit import problems
from server_kit import fast_config, running_hall

CUT_OFF = "the client left before the end of its body"
"""The hall's line for a request cut off."""
UNHANDLED = "Exception in ASGI application"
"""uvicorn's line for an exception the application let out."""
REQUESTS = 10


class _Ends(logging.Handler):
    """Every record; :attr:`done` is set once ``wanted`` of them say how a request ended
    (the hall's line, or uvicorn's for an exception)."""

    def __init__(self, wanted: int) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.wanted = wanted
        self.done = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        if len(self.ends()) >= self.wanted:
            self.done.set()

    def ends(self) -> list[logging.LogRecord]:
        """The records that say how a request ended."""
        return [r for r in self.records if CUT_OFF in r.getMessage() or UNHANDLED in r.getMessage()]


@contextlib.contextmanager
def _ends(wanted: int) -> Iterator[_Ends]:
    """Listen to the process's log (the root's and uvicorn's, which does not propagate),
    qipai's INFO lines included, while the block runs."""
    handler = _Ends(wanted)
    loggers = [logging.getLogger(), logging.getLogger("uvicorn")]
    qipai = logging.getLogger("qipai")
    level = qipai.level
    qipai.setLevel(logging.INFO)
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
        qipai.setLevel(level)


def _cut_off(host: str, port: int, path: str) -> None:
    """POST ``path`` announcing 1,000 bytes of body, send 10 of them and leave."""
    head = f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(f"{head}Content-Length: 1000\r\n\r\n".encode() + b'{"name": "')


def test_a_body_cut_off_is_one_line_in_the_log_and_no_traceback(tmp_path: Path) -> None:
    with running_hall(fast_config(f"sqlite:///{tmp_path / 'hall.db'}")) as hall:
        where = urlsplit(hall.url)
        assert where.hostname is not None and where.port is not None
        with _ends(REQUESTS) as log:
            for number in range(REQUESTS):
                path = ("/api/register", "/api/login")[number % 2]
                _cut_off(where.hostname, where.port, path)
            assert log.done.wait(20), [r.getMessage() for r in log.records]
    lines = [r.getMessage() for r in log.ends()]
    assert len(lines) == REQUESTS and all(CUT_OFF in line for line in lines), lines
    routes = "qipai.server.edge.endpoints"
    assert all(r.levelno == logging.INFO and r.name == routes for r in log.ends())
    assert problems(log.records) == []  # no traceback, no error
