"""What the hall's log says about what is not its fault (bad input, an outage): a line.

The hall answers every bad message itself (an error frame or code), but one kind never
reaches it: a WebSocket text frame that is not UTF-8, which uvicorn's WebSocket layer
refuses (close 1007) and logs with the decoding error's traceback at ERROR level.  That
is a client's fault, not the server's: :class:`ClientInputNoise` turns such records into
one INFO line without the traceback, so that an operator's error log holds only the
hall's own failures.  The same holds for what the hall cannot do because something it
depends on does not answer (:func:`is_outage`: the database down): one WARNING line each,
the traceback kept for the hall's own faults (:func:`log_failure`).

>>> import logging
>>> record = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, CLIENT_NOISE[0], None,
...                            (ValueError, ValueError("bad"), None))
>>> ClientInputNoise().filter(record), record.levelname, record.exc_info
(True, 'INFO', None)
"""

from __future__ import annotations

import logging

from sqlalchemy.exc import DBAPIError

CLIENT_NOISE = ("Invalid UTF-8 sequence received from client.",)
"""uvicorn's messages about a client's malformed frames (kept, as INFO lines)."""
UVICORN_LOGGER = "uvicorn.error"
"""The logger uvicorn's protocol implementations write to."""


class ClientInputNoise(logging.Filter):
    """Log a client's malformed frame as an INFO line, without its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record; downgrade those of :data:`CLIENT_NOISE`."""
        if record.getMessage() in CLIENT_NOISE:
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.exc_info = record.exc_text = None
        return True


def quiet_client_noise() -> None:
    """Install :class:`ClientInputNoise` on uvicorn's logger (once)."""
    logger = logging.getLogger(UVICORN_LOGGER)
    if not any(isinstance(f, ClientInputNoise) for f in logger.filters):
        logger.addFilter(ClientInputNoise())


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` says the database (or the network to it) did not answer: not a
    fault of the hall's own, so its traceback tells an operator nothing."""
    return isinstance(error, OSError | DBAPIError)


def log_failure(logger: logging.Logger, what: str, error: BaseException) -> None:
    """Log that ``what`` failed with ``error``: one WARNING line, with the traceback only
    when the error is not an outage (:func:`is_outage`)."""
    logger.warning("%s failed: %r", what, error, exc_info=not is_outage(error))
