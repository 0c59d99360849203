"""The ``qipai`` command: the project's terminal front end.

This is an edge module: it parses arguments, calls the pure engines and prints.  Games
are imported only when one of their commands runs, so ``qipai --version`` imports none.

The parser is a tree ``qipai GAME COMMAND``.  A command is one function that adds its
sub-parser and sets ``handler`` (see :func:`add_moves_command`); each game lists its
command functions in a tuple (:data:`DOUDIZHU_COMMANDS`), so adding a command is writing
one function and naming it there.

A handler takes the parsed arguments and returns the exit status.  Engine errors
(:class:`~qipai.errors.GameError`) print ``error: <code>: <message>`` on stderr and exit
with status 2, the status argparse uses for bad usage.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from qipai import __version__
from qipai.admin_cli import add_admin
from qipai.client.backoff import RECONNECT_SECONDS
from qipai.errors import GameError, InvalidActionError

if TYPE_CHECKING:
    from qipai.bots.duel import DuelResult
    from qipai.games.doudizhu import Move
    from qipai.hall.match.config import MatchConfig

USAGE_ERROR = 2
"""Exit status of a malformed command or an engine error."""

Handler = Callable[[argparse.Namespace], int]
"""A command's body: parsed arguments in, exit status out."""
Commands = argparse._SubParsersAction  # the group that ``add_subparsers`` returns
Command = Callable[["Commands[argparse.ArgumentParser]"], None]
"""A function that adds one command's sub-parser (and its ``handler``) to a group."""


# --- qipai doudizhu ----------------------------------------------------------------------


def add_moves_command(commands: Commands[argparse.ArgumentParser]) -> None:
    """``qipai doudizhu moves [--rules NAME] [--kinds] HAND [PREVIOUS]``."""
    parser = commands.add_parser(
        "moves",
        help="list every legal play of a hand",
        description=(
            "Print every legal play of HAND after PREVIOUS (leading if omitted), one per "
            "line in the notation, the pass first when following.  A play with two "
            "readings (a trio chain that is also an airplane) is printed once per reading."
        ),
    )
    _add_rules_option(parser)
    parser.add_argument(
        "--kinds",
        action="store_true",
        help="add a tab and the reading: kind, top rank, chain length ('pass' alone)",
    )
    parser.add_argument("hand", metavar="HAND", help="ranks held, e.g. 33445566778899TJQKA2BR")
    parser.add_argument(
        "previous",
        metavar="PREVIOUS",
        nargs="?",
        default="",
        help="the play to beat (omit to lead), e.g. 44 or 777W/7777",
    )
    parser.set_defaults(handler=run_moves)


def run_moves(args: argparse.Namespace) -> int:
    """Print ``legal_moves(args.hand, args.previous, args.rules)``, one move per line."""
    from qipai.games.doudizhu import legal_moves  # noqa: PLC0415 (games load lazily)

    moves = legal_moves(args.hand, args.previous, args.rules)
    lines = [move_line(move, with_kind=args.kinds) for move in moves]
    if lines:
        print("\n".join(lines))
    return 0


def move_line(move: Move, *, with_kind: bool) -> str:
    """One output line: ``str(move)``, then with ``with_kind`` a tab and its reading.

    >>> from qipai.games.doudizhu import parse_move
    >>> move_line(parse_move("333444555666"), with_kind=True)
    '333444555666\\ttrio_chain 6 4'
    >>> move_line(parse_move(""), with_kind=True)
    'pass\\tpass'
    """
    from qipai.games.doudizhu.combos import RANK_CHARS  # noqa: PLC0415

    if not with_kind:
        return str(move)
    if move.is_pass:
        return f"{move}\t{move.kind.label}"
    return f"{move}\t{move.kind.label} {RANK_CHARS[move.main]} {move.length}"


def _add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="yifa",
        metavar="NAME",
        help="rule set: yifa (default), caishen, huanle, zhengtu or jj",
    )


def add_play_command(commands: Commands[argparse.ArgumentParser]) -> None:
    """``qipai doudizhu play [--rules NAME] [--seed S] [--hands N]``."""
    parser = commands.add_parser(
        "play",
        help="play in the terminal against two bots",
        description=(
            "Play Dou Dizhu in the terminal against two bots.  Type cards in the notation "
            "(33344, 777W/7777), pass, bid 2, call, rob, double, show, no; hint, list, "
            "auto (托管), quit."
        ),
    )
    _add_rules_option(parser)
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="first hand's seed")
    parser.add_argument(
        "--hands", type=int, default=None, metavar="N", help="hands to play (default: until quit)"
    )
    parser.set_defaults(handler=run_play)


def run_play(args: argparse.Namespace) -> int:
    """Run :class:`qipai.console.ConsoleGame` on standard input and output."""
    import secrets  # noqa: PLC0415

    from qipai.console import ConsoleGame  # noqa: PLC0415

    seed = secrets.randbelow(2**32) if args.seed is None else args.seed
    print(f"seed {seed}")
    ConsoleGame(args.rules, seed, ask=input, say=print).play(args.hands)
    return 0


# --- qipai GAME selfplay / compare: the arena ----------------------------------------------

ARENA_TABLES: dict[str, tuple[range, tuple[str, ...]]] = {
    "doudizhu": (range(3, 4), ("greedy", "strong", "random", "trustee")),
    "zhajinhua": (range(2, 7), ("simple", "strong", "random", "fold")),
    "showhand": (range(2, 5), ("simple", "strong", "random", "trustee")),
}
"""Per game: the table sizes and the bots (default first) of :data:`qipai.bots.arena.GAMES`,
copied so that building the parser imports no game (a test keeps the two equal)."""


def selfplay_command(game: str) -> Command:
    """The command ``qipai GAME selfplay [--rules NAME] [--players P] [--hands N] [--seed S]
    [--policy BOT]`` for ``game``."""

    def add(commands: Commands[argparse.ArgumentParser]) -> None:
        seats, bots = ARENA_TABLES[game]
        parser = commands.add_parser(
            "selfplay",
            help="play whole hands between bots and print a summary",
            description="Play N whole hands between bots at one table (hand i dealt from "
            "seed S+i) and print a summary: the game's figures, wins and net by seat, the "
            "zero-sum check, hands/s.",
        )
        _add_arena_options(parser, "--hands", "hands to play (default 1000)")
        if len(seats) > 1:
            parser.add_argument(
                "--players",
                type=int,
                choices=seats,
                metavar="P",
                help=f"players at the table, {seats[0]}-{seats[-1]} (default {seats[-1]})",
            )
        parser.add_argument(
            "--policy",
            choices=bots,
            default=bots[0],
            help=f"every seat's bot (default {bots[0]}; random bots are seeded 7×S+seat)",
        )
        parser.set_defaults(handler=run_selfplay, game=game, players=seats[-1])

    return add


def compare_command(game: str) -> Command:
    """The command ``qipai GAME compare A B [--rules NAME] [--deals N] [--seed S]``."""

    def add(commands: Commands[argparse.ArgumentParser]) -> None:
        bots = ARENA_TABLES[game][1]
        parser = commands.add_parser(
            "compare",
            help="pit two bots against each other on the same deals, sides swapped",
            description="Play each of N deals twice, bot A on one side and bot B on the "
            "other, then swapped (Dou Dizhu: landlord and farmers after the default bot's "
            "auction; the others heads-up), and print each bot's win rate per side with "
            "its 95% Wilson interval.",
        )
        parser.add_argument("policy_a", choices=bots, metavar="A", help=f"one of {bots}")
        parser.add_argument("policy_b", choices=bots, metavar="B", help="the other bot")
        _add_arena_options(parser, "--deals", "deals, each played twice (default 1000)")
        parser.set_defaults(handler=run_compare, game=game)

    return add


def _add_arena_options(parser: argparse.ArgumentParser, count: str, help_count: str) -> None:
    _add_rules_option(parser)
    parser.add_argument(count, type=int, default=1000, metavar="N", help=help_count)
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="first hand's seed")


def run_selfplay(args: argparse.Namespace) -> int:
    """Time :func:`qipai.bots.arena.selfplay` and print its summary."""
    from qipai.bots.arena import seat_policies, selfplay  # noqa: PLC0415

    policies = seat_policies(args.game, args.policy, args.players, args.seed)
    return print_timed(
        lambda: selfplay(args.game, args.rules, hands=args.hands, seed=args.seed, policies=policies)
    )


def run_compare(args: argparse.Namespace) -> int:
    """Time :func:`qipai.bots.arena.compare` and print its report (A seeded 7×S, B 7×S+1)."""
    from qipai.bots.arena import compare, seat_policies  # noqa: PLC0415

    policy_a = seat_policies(args.game, args.policy_a, 1, args.seed)[0]
    policy_b = seat_policies(args.game, args.policy_b, 2, args.seed)[1]
    return print_timed(
        lambda: compare(args.game, args.rules, policy_a, policy_b, deals=args.deals, seed=args.seed)
    )


class Summary(Protocol):
    """What an arena run reports: its hand count and its lines."""

    @property
    def hands(self) -> int:
        """Hands played."""
        ...

    def lines(self) -> list[str]:
        """The report, one line each."""
        ...


def print_timed(run: Callable[[], Summary]) -> int:
    """Run an arena run, then print its report and the hands per second (the clock is here,
    at the edge: the engines and bots read none)."""
    import time  # noqa: PLC0415

    start = time.perf_counter()
    summary = run()
    elapsed = time.perf_counter() - start
    print("\n".join(summary.lines()))
    print(f"{summary.hands / elapsed:.0f} hands/s ({elapsed:.2f} s)")
    return 0


DOUDIZHU_COMMANDS: tuple[Command, ...] = (
    add_moves_command,
    selfplay_command("doudizhu"),
    compare_command("doudizhu"),
    add_play_command,
)
"""The ``qipai doudizhu`` commands, in help order."""


# --- qipai arena: two bots over paired deals, in parallel, timed ---------------------------

RLCARD = "rlcard"
"""The bot name of RLCard's Dou Dizhu rule agent (:mod:`qipai.bots.reference`)."""


def add_arena(parsers: Commands[argparse.ArgumentParser]) -> None:
    """``qipai arena GAME A B [--rules NAME] [--deals N] [--seed S] [--jobs J] [--json]``."""
    bots = "; ".join(f"{game}: {', '.join(names)}" for game, (_, names) in ARENA_TABLES.items())
    parser = parsers.add_parser(
        "arena",
        help="two bots over paired deals, in parallel: win rates, net and decision times",
        description="Play each of N deals twice, bot A on one side and bot B on the other, "
        "then swapped, over J processes, and print each bot's win rate per side with its 95% "
        "Wilson interval, A's net per deal with its 95% interval and each bot's decision-time "
        "percentiles.  B may be rlcard in doudizhu: RLCard's rule agent on RLCard's own game "
        "(needs the test extra).",
    )
    parser.add_argument("game", choices=tuple(ARENA_TABLES), metavar="GAME", help="the game")
    parser.add_argument("policy_a", metavar="A", help=f"a bot ({bots})")
    parser.add_argument("policy_b", metavar="B", help=f"the other bot, or {RLCARD} in doudizhu")
    parser.add_argument(
        "--rules",
        metavar="NAME",
        help="rule set (default yifa); against rlcard, the Dou Dizhu preset whose "
        "combinations the qipai bot thinks in (default jj)",
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=1000,
        metavar="N",
        help="deals, each played twice (default 1000)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="first deal's seed")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="J",
        help="worker processes (default: the number of cores)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=run_arena)


def run_arena(args: argparse.Namespace) -> int:
    """Run the duel (or the RLCard match) and print its report, or its JSON with ``--json``."""
    run = _arena_run(args)
    if args.json:
        print(run().to_json())
        return 0
    return print_timed(run)


def _arena_run(args: argparse.Namespace) -> Callable[[], DuelResult]:
    """:func:`qipai.bots.duel.duel`, or :func:`qipai.bots.reference.rlcard_match` for B
    ``rlcard``, ready to run.

    :raises InvalidActionError: ``unknown_bot``: ``rlcard`` outside Dou Dizhu or as A.
    """
    a, b, deals, seed, jobs = args.policy_a, args.policy_b, args.deals, args.seed, args.jobs
    if RLCARD in (a, b) and (args.game, b) != ("doudizhu", RLCARD):
        raise InvalidActionError("unknown_bot", f"{RLCARD} plays doudizhu only, and only as B")
    if b == RLCARD:
        from qipai.bots.reference import rlcard_match  # noqa: PLC0415

        rules = args.rules or "jj"
        return lambda: rlcard_match(a, rules=rules, deals=deals, seed=seed, jobs=jobs)
    from qipai.bots.duel import duel  # noqa: PLC0415

    rules = args.rules or "yifa"
    return lambda: duel(args.game, a, b, rules=rules, deals=deals, seed=seed, jobs=jobs)


# --- qipai verify-hand ---------------------------------------------------------------------


def add_verify_hand(parsers: Commands[argparse.ArgumentParser]) -> None:
    """``qipai verify-hand RECORD [--commitment HEX]``."""
    parser = parsers.add_parser(
        "verify-hand",
        help="check a finished hand's record: its seed commitment, its deal and its result",
        description=(
            "Recompute a hand record (JSON, see docs/records.md): the seed matches its "
            "commitment (and the one published before the hand, with --commitment), and "
            "replaying the actions from the seed gives the recorded result.  Exit 0 if it "
            "holds, 1 if not."
        ),
    )
    parser.add_argument("record", metavar="RECORD", help="the record file ('-' for stdin)")
    parser.add_argument(
        "--commitment", metavar="HEX", help="the commitment published before the hand"
    )
    parser.set_defaults(handler=run_verify_hand)


def run_verify_hand(args: argparse.Namespace) -> int:
    """Print ``ok`` and the replayed result (and the hand's 任务 if it had one, and, for a
    ``qipai-hand/3`` record, the seats whose entropy was mixed into the seed), or the failed
    check; exit 0 or 1."""
    from qipai.hall.records import HandRecord, verify  # noqa: PLC0415

    if args.record == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(args.record, encoding="utf-8") as file:
                text = file.read()
        except OSError as error:
            print(f"error: unreadable_record: {error}", file=sys.stderr)
            return USAGE_ERROR
    record = HandRecord.from_json(text)
    outcome = verify(record, published=args.commitment)
    if outcome.ok:
        print(f"ok: result {list(outcome.result or ())}")
        if record.task is not None:  # the 任务 the replay drew from the seed, as recorded
            print(f"task {record.task}, drawn from the seed")
        if record.entropy is not None:  # qipai-hand/3: say whose entropy was mixed in
            seats = [seat for seat, value in enumerate(record.entropy) if value is not None]
            print(f"dealt from the house seed mixed with the entropy of seats {seats}")
        return 0
    print(f"failed: {outcome.code}: {outcome.reason}")
    return 1


# --- qipai match ------------------------------------------------------------------------------


def _add_matches_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--matches", metavar="FILE", help="a matches TOML file (default: the shipped matches)"
    )


def _matches(args: argparse.Namespace) -> tuple[MatchConfig, ...]:
    """The matches of ``--matches`` (an unreadable file is ``bad_config``), else the
    shipped ones."""
    from qipai.server.serve import matches_from  # noqa: PLC0415

    return matches_from(args.matches)


def add_match_list(commands: Commands[argparse.ArgumentParser]) -> None:
    """``qipai match list [--json] [--matches FILE]``."""
    parser = commands.add_parser(
        "list",
        help="the configured matches",
        description="The configured matches (docs/matches.md): one line each, or --json.",
    )
    parser.add_argument("--json", action="store_true", help="one JSON list of the matches")
    _add_matches_option(parser)
    parser.set_defaults(handler=run_match_list)


def run_match_list(args: argparse.Namespace) -> int:
    """Print the matches."""
    import json  # noqa: PLC0415

    from qipai.hall.match.config import describe  # noqa: PLC0415

    matches = _matches(args)
    described = [describe(match) for match in matches]
    if args.json:
        print(json.dumps(described, ensure_ascii=False))
        return 0
    for match, config in zip(described, matches, strict=True):
        stages = " → ".join(stage.kind.value for stage in config.stages)
        print(
            f"{match['name']:<12} {match['title']}  {match['kind']}  "
            f"{match['min_players']}-{match['players']} players  entry {match['entry_fee']}  "
            f"{stages}  prizes {match['prize_total']}  guarantee {match['guarantee']}  "
            f"house pays {match['house_cost_at_minimum']} at {match['min_players']} players"
        )
    return 0


def add_match_simulate(commands: Commands[argparse.ArgumentParser]) -> None:
    """``qipai match simulate --match NAME --players N [--seed S] [--json]``."""
    parser = commands.add_parser(
        "simulate",
        help="play a whole match in-process with bots",
        description=(
            "Play a run of a match to its end, every seat a bot, in this process; print "
            "the standings, each stage (entrants, advanced, hands per player, why it "
            "ended), the prizes and the speed (--json: the last line is one JSON object "
            "with players, hands, seconds, stages, standings and prizes)."
        ),
    )
    parser.add_argument("--match", required=True, metavar="NAME", help="the match's name (id)")
    parser.add_argument("--players", required=True, type=int, metavar="N")
    parser.add_argument("--seed", type=int, default=0, metavar="S")
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    _add_matches_option(parser)
    parser.set_defaults(handler=run_match_simulate)


def run_match_simulate(args: argparse.Namespace) -> int:
    """Simulate, time it (the clock is here, at the edge) and print."""
    import json  # noqa: PLC0415
    import time  # noqa: PLC0415

    from qipai.hall.match.config import match_by_id  # noqa: PLC0415
    from qipai.hall.match.sim import simulate  # noqa: PLC0415

    match = match_by_id(_matches(args), args.match)
    start = time.perf_counter()
    result = simulate(match, players=args.players, seed=args.seed)
    seconds = time.perf_counter() - start
    ranks = {s.player: s.rank for s in result.standings}
    prizes = [
        {"rank": ranks[player], "player": player, "coins": coins}
        for player, coins in sorted(result.prizes.items(), key=lambda item: ranks[item[0]])
    ]
    for standing in result.standings[:10]:
        print(f"{standing.rank:>5}  {standing.player:<8} {standing.score:>7}")
    for report in result.stages:
        print(report)
    print(
        f"{result.players} players, {result.hands} hands in {seconds:.2f} s "
        f"({result.hands / seconds:.0f} hands/s); prizes paid {sum(result.prizes.values())}"
    )
    if args.json:
        summary = {
            "match": match.id,
            "players": result.players,
            "hands": result.hands,
            "seconds": round(seconds, 3),
            "stages": [report.as_json() for report in result.stages],
            "standings": [
                {"rank": s.rank, "player": s.player, "score": s.score} for s in result.standings
            ],
            "prizes": prizes,
        }
        print(json.dumps(summary, ensure_ascii=False))
    return 0


MATCH_COMMANDS: tuple[Command, ...] = (add_match_list, add_match_simulate)
"""The ``qipai match`` commands."""


# --- qipai serve / loadtest / audit ---------------------------------------------------------


def add_serve(parsers: Commands[argparse.ArgumentParser]) -> None:
    """``qipai serve [--host H] [--port P] [--db URL] [--config FILE] [--matches FILE |
    --no-matches] [--bot-delay S] [--forwarded-allow-ips IPS] [--no-limits] [--redis URL]
    [--node-id ID] [--redis-prefix P]``."""
    parser = parsers.add_parser(
        "serve",
        help="run the hall (HTTP JSON API and WebSocket) in one process",
        description=(
            "Run the hall on uvicorn.  Without --db the database is SQLite in the user's "
            "data folder, created and migrated on start; --db postgresql://... runs on "
            "PostgreSQL.  Rooms come from --config (TOML, see docs/hall.md) or the "
            "shipped defaults, where bots fill empty seats after a few seconds."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--db", metavar="URL", help="database URL (default: SQLite file)")
    parser.add_argument("--config", metavar="FILE", help="rooms TOML file")
    parser.add_argument(
        "--matches", metavar="FILE", help="matches TOML file (default: the shipped matches)"
    )
    parser.add_argument(
        "--no-matches",
        action="store_true",
        help="run no match (a shard of a hall whose matches another shard runs)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=1.0, metavar="S", help="seconds a bot takes to act"
    )
    parser.add_argument(
        "--bot-workers",
        type=_workers,
        default=None,
        metavar="N",
        help="worker processes where bots decide, off the event loop (default: the cores "
        "less one; 0: bots decide on the event loop, as for tests and debugging)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="proxies whose X-Forwarded-For gives the client's address (default: "
        "$FORWARDED_ALLOW_IPS, else 127.0.0.1,::1)",
    )
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="no limit on sign-ins, new accounts and guests per address (load tests only)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="a Redis shared with the hall's other processes (redis://host:6379/0): the "
        "processes share out the rooms, reach each other's players and take over a "
        "process that stops (docs/operations.md)",
    )
    parser.add_argument(
        "--node-id", metavar="ID", help="this process's id among them (default: host-pid)"
    )
    parser.add_argument(
        "--redis-prefix",
        default="qipai",
        metavar="P",
        help="prefix of the hall's keys in Redis (several halls sharing one Redis)",
    )
    parser.set_defaults(handler=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import dataclasses  # noqa: PLC0415

    from qipai.server.edge.limits import Limits  # noqa: PLC0415
    from qipai.server.run.bots import default_workers  # noqa: PLC0415
    from qipai.server.serve import matches_from, rooms_from, serve  # noqa: PLC0415

    config = dataclasses.replace(
        rooms_from(args.config),
        db_url=args.db,
        bot_delay=args.bot_delay,
        bot_workers=default_workers() if args.bot_workers is None else args.bot_workers,
        matches=() if args.no_matches else matches_from(args.matches),
        redis_url=args.redis,
        node_id=args.node_id,
        redis_prefix=args.redis_prefix,
        freeze_heap=True,
    )
    if args.no_limits:
        config = dataclasses.replace(config, limits=Limits.off())
    serve(config, args.host, args.port, forwarded_allow_ips=args.forwarded_allow_ips)
    return 0


def add_loadtest(parsers: Commands[argparse.ArgumentParser]) -> None:
    """``qipai loadtest [--url URL ...] --clients N --duration S [--game G] [--rules R]``."""
    parser = parsers.add_parser(
        "loadtest",
        help="play real hands with N bot clients against a running hall",
        description=(
            "N clients sign in as guests, join a room and play random legal actions over "
            "real sockets for S seconds.  The last line printed is one JSON object: hands, "
            "hands_per_s, actions, latency_ms (p50, p90, p99), errors, coins_conserved, "
            "reconnects, resume_seconds, memory per client.  Several --url spread the "
            "clients over the hall's nodes; a client whose socket closes reconnects at the "
            "next one.  Exit 1 if a client failed or coins were not conserved."
        ),
    )
    parser.add_argument(
        "--url",
        action="append",
        metavar="URL",
        help="the hall's address (default http://127.0.0.1:8000); again for each node of "
        "a hall of several: client i starts at the (i mod n)-th, and reconnects at the next",
    )
    parser.add_argument("--clients", type=int, default=30, help="concurrent clients")
    parser.add_argument("--duration", type=_positive, default=30.0, help="seconds of play (> 0)")
    parser.add_argument("--game", help="doudizhu (default), zhajinhua or showhand")
    parser.add_argument("--room", help="the room's id (default: the first of --game and --rules)")
    parser.add_argument("--rules", help="the preset (default yifa)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the clients' choices")
    parser.add_argument(
        "--match",
        metavar="NAME",
        help="register the clients in this match and play it to its end (--duration: the "
        "longest they wait for that)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="S",
        help="mean seconds a client thinks before each action (default 0: at once)",
    )
    parser.add_argument(
        "--give-up",
        type=_positive,
        default=RECONNECT_SECONDS,
        metavar="S",
        help=f"seconds a client waits out an outage, reconnecting with back-off, before it "
        f"gives up (default {RECONNECT_SECONDS:g})",
    )
    parser.add_argument(
        "--private",
        action="store_true",
        help="private tables 好友房: each client creates one (--game/--rules, default "
        "doudizhu/huanle), starts it with bots, plays it for --duration, closes it; the "
        "summary: hands, hands_per_s, frames_per_hand (per player), "
        "frames_per_spectator_hand (median, max)",
    )
    parser.add_argument(
        "--spectators",
        type=_count,
        default=0,
        metavar="N",
        help="with --private: N more clients watch each table 观战 by its code; exit 1 if a "
        "spectator's frame shows a hidden card",
    )
    parser.set_defaults(handler=run_loadtest)


def run_loadtest(args: argparse.Namespace) -> int:
    """Run the load and print its summary."""
    from qipai.client.loadtest import DEFAULT_URL, LoadConfig, main  # noqa: PLC0415

    if args.spectators and not args.private:
        raise InvalidActionError("bad_option", "--spectators watches private tables: add --private")
    if args.private:
        from qipai.client import privateload  # noqa: PLC0415

        load = privateload.PrivateLoad(
            (args.url or [DEFAULT_URL])[0], args.clients, args.duration,
            args.game or "doudizhu", args.rules or "huanle", args.seed, args.spectators,
        )  # fmt: skip
        return privateload.main(load)

    config = LoadConfig(
        tuple(args.url or (DEFAULT_URL,)),
        args.clients,
        args.duration,
        args.game,
        args.rules,
        args.seed,
        args.think,
        match=args.match,
        room=args.room,
        give_up=args.give_up,
    )
    return main(config)


def _workers(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {text}")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {text}")
    return value


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {text}")
    return value


def add_audit(parsers: Commands[argparse.ArgumentParser]) -> None:
    """``qipai audit [--db URL]``."""
    parser = parsers.add_parser(
        "audit",
        help="check the whole coin ledger; exit 1 on any discrepancy",
        description=(
            "Check every transaction sums to zero, every balance equals its entries, every "
            "finished hand was settled exactly once and every interrupted one voided.  Exit 0 "
            "if clean, 1 on any discrepancy, 2 if the database cannot be read."
        ),
    )
    parser.add_argument("--db", metavar="URL", help="database URL (default: the SQLite file)")
    parser.add_argument(
        "--allow-playing",
        action="store_true",
        help="do not count hands still in play as problems (the hall is running)",
    )
    parser.add_argument(
        "--timezone",
        default="Asia/Shanghai",
        help="the zone of the days of the payouts it lists (default: Asia/Shanghai, the "
        "economy's default)",
    )
    parser.set_defaults(handler=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    """Print the audit's report; its exit status."""
    from qipai.store.audit import audit_main  # noqa: PLC0415
    from qipai.store.database import default_url  # noqa: PLC0415

    return audit_main(
        args.db or default_url(), allow_playing=args.allow_playing, timezone=args.timezone
    )


# --- the parser --------------------------------------------------------------------------


def add_game(
    games: Commands[argparse.ArgumentParser],
    name: str,
    description: str,
    commands: Sequence[Command],
) -> None:
    """Add the game ``name`` with its ``commands`` to the top-level parser."""
    parser = games.add_parser(name, help=description, description=description)
    group = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for add_command in commands:
        add_command(group)


def build_parser() -> argparse.ArgumentParser:
    """The whole ``qipai`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="qipai",
        description="qipai 棋牌: a card-game hall (Dou Dizhu, Zha Jin Hua, Showhand).",
    )
    parser.add_argument("--version", action="version", version=f"qipai {__version__}")
    games = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    add_game(games, "doudizhu", "Dou Dizhu 斗地主 (five rule sets)", DOUDIZHU_COMMANDS)
    for game, description in (
        ("zhajinhua", "Zha Jin Hua 扎金花 (2-6 players)"),
        ("showhand", "Showhand 梭哈 (2-4 players)"),
    ):
        add_game(games, game, description, (selfplay_command(game), compare_command(game)))
    add_game(games, "match", "matches 比赛: list them, simulate one", MATCH_COMMANDS)
    add_arena(games)
    add_verify_hand(games)
    for add_command in (add_serve, add_loadtest, add_audit, add_admin):
        add_command(games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``qipai`` with ``argv`` (default: the process arguments); return the exit status.

    :raises SystemExit: from argparse, for ``--help``, ``--version`` and bad usage.
    """
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except GameError as error:
        print(f"error: {error.code}: {error.message}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        # The reader left (``qipai … | head``): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
