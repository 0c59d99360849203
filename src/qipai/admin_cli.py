"""``qipai admin``: the operator's console from the command line, for scripts and for the
first admin (``qipai admin add NAME --role admin``).

Each command opens the hall's database (``--db URL``, default the SQLite file), does one
action of :mod:`qipai.store.console` and its line of the admin log (the actor is
``cli:<login>``), prints that line and exits 0; a refusal prints ``error: CODE: TEXT`` and
exits 2.  A ban from here ends the player's sessions in the database; a running hall
closes his open connections only when the ban comes through its console (the command line
does not reach the hall's processes): say so to whoever uses it on a live hall.
"""

from __future__ import annotations

import argparse
import getpass
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from qipai.store.console import Act, Console, LogLine

Commands = argparse._SubParsersAction  # the group that ``add_subparsers`` returns


def add_admin(parsers: Commands[argparse.ArgumentParser]) -> None:
    """``qipai admin COMMAND``: add, grant, ban, unban, mute, unmute, password, delete, log,
    reports."""
    parser = parsers.add_parser(
        "admin",
        help="the operator's console from the command line (roles, coins, bans, the log)",
        description="Operators' actions on the hall's database, each written to the admin log.",
    )
    group = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    def command(name: str, text: str, run: Callable[[Console, argparse.Namespace], object]) -> (
        argparse.ArgumentParser
    ):
        sub = group.add_parser(name, help=text, description=text)
        sub.add_argument("--db", metavar="URL", help="database URL (default: the SQLite file)")
        sub.set_defaults(handler=_handler(run))
        return sub

    add = command("add", "give a player a console role (the first admin, too)", _add)
    add.add_argument("name")
    add.add_argument(
        "--role", required=True, metavar="ROLE", help="viewer, moderator, admin, or none"
    )
    add.add_argument("--reason", default="granted from the command line")
    grant = command("grant", "give (or, negative, take) a player's coins", _grant)
    grant.add_argument("name")
    grant.add_argument("amount", type=int)
    grant.add_argument("--reason", required=True)
    ban = command("ban", "ban a player (for good, or --until / --days)", _ban)
    ban.add_argument("name")
    ban.add_argument("--until", type=_aware, help="ISO 8601 time with its zone")
    ban.add_argument("--days", type=float)
    ban.add_argument("--reason", required=True)
    mute = command("mute", "mute a player's chat for --minutes", _mute)
    mute.add_argument("name")
    mute.add_argument("--minutes", type=int, required=True)
    mute.add_argument("--reason", required=True)
    for kind in ("ban", "mute"):
        lift = command(f"un{kind}", f"end a player's {kind}", _lifting(kind))
        lift.add_argument("name")
        lift.add_argument("--reason", required=True)
    reset = command("password", "reset a player's password: print a one-time password", _password)
    reset.add_argument("name")
    reset.add_argument("--reason", required=True)
    delete = command("delete", "delete a player's account (his ledger rows stay)", _delete)
    delete.add_argument("name")
    delete.add_argument("--reason", required=True)
    log = command("log", "print the admin log, newest first", _log)
    log.add_argument("--limit", type=int, default=50)
    reports = command("reports", "print the open reports 举报, oldest first", _reports)
    reports.add_argument("--limit", type=int, default=50)


def _handler(run: Callable[[Console, argparse.Namespace], object]) -> Callable[
    [argparse.Namespace], int
]:
    def handler(args: argparse.Namespace) -> int:
        from qipai.store import Store  # noqa: PLC0415  (the command line loads it on use)
        from qipai.store.console import Console  # noqa: PLC0415
        from qipai.store.database import default_url  # noqa: PLC0415

        with Store.open(args.db or default_url()) as store:
            run(Console(store), args)
        return 0

    return handler


def _act(args: argparse.Namespace) -> Act:
    from qipai.store.console import Act  # noqa: PLC0415

    return Act(f"cli:{getpass.getuser()}", args.name, args.reason, datetime.now(UTC))


def _add(console: Console, args: argparse.Namespace) -> None:
    _print(console.set_role(None if args.role == "none" else args.role, _act(args)))


def _grant(console: Console, args: argparse.Namespace) -> None:
    _print(console.adjust_coins(args.amount, _act(args)))


def _ban(console: Console, args: argparse.Namespace) -> None:
    act = _act(args)
    until = args.until
    if args.days is not None:
        until = act.now + timedelta(days=args.days)
    _print(console.impose("ban", until, act)[1])


def _mute(console: Console, args: argparse.Namespace) -> None:
    act = _act(args)
    _print(console.impose("mute", act.now + timedelta(minutes=args.minutes), act)[1])


def _lifting(kind: str) -> Callable[[Console, argparse.Namespace], None]:
    def lift(console: Console, args: argparse.Namespace) -> None:
        _print(console.lift(kind, _act(args)))

    return lift


def _password(console: Console, args: argparse.Namespace) -> None:
    from qipai.server.edge.auth import Passwords  # noqa: PLC0415
    from qipai.server.edge.console import ONE_TIME_BYTES  # noqa: PLC0415

    password = secrets.token_urlsafe(ONE_TIME_BYTES)
    _print(console.reset_password(Passwords().hash(password), _act(args))[1])
    print(f"one-time password: {password}")


def _delete(console: Console, args: argparse.Namespace) -> None:
    _print(console.delete_account(_act(args))[1])


def _reports(console: Console, args: argparse.Namespace) -> None:
    from qipai.store.reports import ReportDesk  # noqa: PLC0415

    for row in ReportDesk(console.store).rows("open", limit=args.limit):
        about = f" hand {row.hand} seat {row.seat}" if row.hand is not None else ""
        who = f"{row.reporter} -> {row.reported}"
        print(f"#{row.id} {row.at.isoformat()} {who}{about} — {row.reason}")


def _log(console: Console, args: argparse.Namespace) -> None:
    for line in console.log(limit=args.limit):
        _print(line)


def _print(line: LogLine) -> None:
    detail = " ".join(f"{key}={value}" for key, value in line.detail.items())
    target = line.target or "-"
    print(f"#{line.id} {line.at.isoformat()} {line.actor} {line.action} {target} {detail}"
          f" — {line.reason}")  # fmt: skip


def _aware(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(f"give the zone: {text}+08:00 or {text}Z")
    return moment
