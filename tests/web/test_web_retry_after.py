"""The page waits as long as the hall asks before connecting again (``retry_after``).

A hall allowing an account two WebSocket connections a minute refuses the third with
``too_many_connections`` and a wait of about 30 s, then closes (4029).  The page must not
try again before that wait (its own back-off would retry within a second or two).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from web_kit import hall_with, sign_up

from qipai.server.edge.limits import Limits, Rate

REFUSED_WAIT_S = 4.0
"""How long the test watches after the refusal: the page's own back-off would have tried
at least twice by then (steps of 0.2 to 2 s, with jitter)."""


def test_the_page_waits_what_the_hall_asks(new_page: Callable[..., Any], tmp_path: Path) -> None:
    page = new_page()
    limits = replace(Limits.off(), connections_per_account=Rate(2, 60.0))
    with hall_with(tmp_path, limits=limits) as hall:
        attempts: list[float] = []
        page.on("websocket", lambda ws: attempts.append(time.monotonic()))
        sign_up(page, hall.url, "waiter")  # the first connection
        page.evaluate("() => window.qipai.app.socket.ws.close()")  # the second: allowed
        while len(attempts) < 2:
            page.wait_for_timeout(50)
        page.wait_for_function("() => window.qipai.app.socket.isOpen")
        page.evaluate("() => window.qipai.app.socket.ws.close()")  # the third: refused
        page.wait_for_function("() => window.qipai.app.socket.retryAfterMs > 20000")
        refused_at = time.monotonic()
        page.wait_for_timeout(REFUSED_WAIT_S * 1000)
        after = [at for at in attempts if at > refused_at]
        assert len(attempts) == 3, attempts
        assert after == []
        status = page.get_attribute("[data-testid=net]", "data-status")
        assert status == "connecting"
