"""``qipai serve`` as a real process of its own, for the tests that kill it."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CLI = "from qipai.cli import main; raise SystemExit(main())"
"""How the tests run ``qipai`` (the installed script may not be on the PATH)."""


@contextlib.contextmanager
def serving(
    db_url: str, config: Path, log: Path, *extra: str
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``qipai serve`` in a process of its own until the block ends; it and its URL."""
    port = free_port()
    command = [sys.executable, "-c", CLI, "serve", "--port", str(port), "--db", db_url]
    command += ["--config", str(config), "--bot-delay", "0", *extra]
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_ready(url, process, log)
            yield process, url
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(30)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL, and wait for the process to be gone."""
    process.send_signal(signal.SIGKILL)
    process.wait(30)


def wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        if process.poll() is not None:
            pytest.fail(f"qipai serve exited: {log.read_text(errors='replace')}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.05)
    pytest.fail(f"qipai serve did not get ready: {log.read_text(errors='replace')}")


def audit_cli(db_url: str) -> subprocess.CompletedProcess[str]:
    """``qipai audit --db URL`` as a process of its own; its result."""
    return subprocess.run(
        [sys.executable, "-c", CLI, "audit", "--db", db_url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
