"""``qipai admin``: the operator's console from the command line, on a database of its
own: each command prints its admin log line and exits 0, a refusal prints its code and
exits 2, and the audit stays exact after grants, a deduction, a ban, a reset password and
a deleted account."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from qipai.cli import main
from qipai.store import Store
from qipai.store.audit import audit
from qipai.store.console import Console
from qipai.store.reports import ReportDesk


def test_every_admin_command_acts_and_logs_and_the_audit_stays_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    now = datetime.now(UTC)
    with Store.open(url) as store:
        ann, bob = (store.register(name, "hash", grant=1000, now=now) for name in ("ann", "bob"))
        ReportDesk(store).file(ann, "bob", "rude", None, now)

    def admin(*words: str) -> tuple[int, str]:
        code = main(["admin", *words, "--db", url])
        return code, capsys.readouterr().out

    assert admin("add", "ann", "--role", "admin")[0] == 0
    assert admin("grant", "bob", "250", "--reason", "a prize")[0] == 0
    assert admin("grant", "bob", "-100", "--reason", "a fix")[0] == 0
    assert main(["admin", "grant", "bob", "-5000", "--reason", "too much", "--db", url]) == 2
    assert "insufficient_coins" in capsys.readouterr().err
    assert admin("ban", "bob", "--days", "2", "--reason", "cheating")[0] == 0
    assert admin("unban", "bob", "--reason", "appeal")[0] == 0
    assert admin("mute", "bob", "--minutes", "30", "--reason", "spam")[0] == 0
    code, printed = admin("password", "ann", "--reason", "forgot")
    assert code == 0 and "one-time password: " in printed
    code, printed = admin("reports")
    assert code == 0 and "ann -> bob" in printed and "rude" in printed
    assert admin("delete", "bob", "--reason", "asked to be forgotten")[0] == 0
    code, printed = admin("log", "--limit", "20")
    actions = [line.split()[3] for line in printed.splitlines()]
    assert actions == ["delete", "password", "mute", "unban", "ban", "deduct", "grant", "role"]
    with Store.open(url) as store:
        assert store.balance(bob) == 1150
        assert Console(store).role_of(ann) == "admin"
        assert audit(store) == []
