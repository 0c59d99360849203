"""The ``qipai`` command, run in-process through :func:`qipai.cli.main`, and once installed."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from qipai import __version__
from qipai.cli import main
from qipai.games.doudizhu import legal_moves

ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    """Exit status, stdout lines and stderr of ``qipai argv``."""
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_moves_following(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["doudizhu", "moves", "3345", "4"], capsys) == (0, ["pass", "5"], "")


def test_moves_leading_prints_legal_moves_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "345566778899TJQKA2BR"
    status, lines, _ = run(["doudizhu", "moves", hand], capsys)
    assert status == 0
    assert lines == [str(m) for m in legal_moves(hand)]
    assert "pass" not in lines
    assert "BR" in lines and "3456789TJQKA" in lines


def test_moves_with_kinds_prints_each_reading(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(["doudizhu", "moves", "--kinds", "333444555666", "777888"], capsys)
    assert status == 0
    assert lines == ["pass\tpass"]
    _, lines, _ = run(["doudizhu", "moves", "--kinds", "333444555666"], capsys)
    assert [line for line in lines if line.startswith("333444555666\t")] == [
        "333444555666\ttrio_chain 6 4",
        "333444555666\tplane_singles 5 3",
        "333444555666\tplane_singles 6 3",
    ]
    assert "3\tsingle 3 1" in lines


def test_moves_follows_the_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    _, yifa, _ = run(["doudizhu", "moves", "3334"], capsys)
    _, zhengtu, _ = run(["doudizhu", "moves", "--rules", "zhengtu", "3334"], capsys)
    assert "3334" in yifa
    assert "3334" not in zhengtu
    assert set(zhengtu) == set(yifa) - {"3334"}


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["33X"], "bad_cards"),
        (["3345", "34"], "not_a_combination"),
        (["--rules", "nope", "3345"], "unknown_rules"),
        (["--rules", "zhengtu", "3345", "4447"], "not_a_combination"),
    ],
)
def test_moves_errors(argv: list[str], code: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(["doudizhu", "moves", *argv], capsys)
    assert (status, lines) == (2, [])
    assert err.startswith(f"error: {code}: ")
    assert err.count("\n") == 1


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"qipai {__version__}\n"


@pytest.mark.parametrize(
    "argv",
    [
        [], ["doudizhu"], ["doudizhu", "nope"], ["doudizhu", "moves"], ["chess"],
        ["loadtest", "--private", "--spectators", "-1"],
    ],
)  # fmt: skip
def test_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "usage: qipai" in capsys.readouterr().err


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["doudizhu", "--help"])
    assert "moves" in capsys.readouterr().out


def test_installed_entry_point() -> None:
    script = Path(sys.executable).with_name("qipai")
    assert script.exists(), "pip install -e . should install the qipai command beside python"
    result = subprocess.run(
        [str(script), "doudizhu", "moves", "BR", "2"], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "pass\nB\nR\nBR\n", "")


def test_run_script_passes_its_arguments_to_qipai() -> None:
    """``./run ARGS`` is any ``qipai`` command, from the project's .venv."""
    result = subprocess.run(
        ["bash", str(ROOT / "run"), "doudizhu", "moves", "--rules", "jj", "5556", "3334"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "pass\n5556\n", "")


def test_run_script_starts_the_hall(tmp_path: Path) -> None:
    """The quick start's first command serves the hall: /healthz answers 200, rooms listed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    database = f"sqlite:///{tmp_path / 'hall.db'}"
    command = ["bash", str(ROOT / "run"), "serve", "--port", str(port), "--db", database]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as hall:
        try:
            rooms = _wait_for_rooms(f"http://127.0.0.1:{port}", hall)
        finally:
            hall.terminate()
    assert {room["game"] for room in rooms} == {"doudizhu", "zhajinhua", "showhand"}
    assert (tmp_path / "hall.db").is_file()


def _wait_for_rooms(url: str, hall: subprocess.Popen[bytes]) -> list[dict[str, object]]:
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up and hall.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                assert answer.status == 200
            with urllib.request.urlopen(f"{url}/api/rooms", timeout=2) as answer:
                rooms: list[dict[str, object]] = json.loads(answer.read())
                return rooms
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the hall did not start (exit status {hall.poll()})")


def test_zhajinhua_selfplay_prints_a_conserving_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["zhajinhua", "selfplay", "--players", "4", "--hands", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "rules yifa: 20 hands, 4 players" in out
    assert "chips balance 0" in out
    assert "hands/s" in out


def test_showhand_selfplay_prints_a_conserving_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["showhand", "selfplay", "--players", "3", "--hands", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "rules yifa: 20 hands, 3 players" in out
    assert "chips balance 0" in out


def test_verify_hand_accepts_a_record_and_refuses_a_tampered_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from qipai.bots.turns import play_out  # noqa: PLC0415
    from qipai.bots.zhajinhua import RandomPolicy  # noqa: PLC0415
    from qipai.games.zhajinhua import State  # noqa: PLC0415
    from qipai.hall.records import record_hand  # noqa: PLC0415
    from qipai.hall.seeds import commitment  # noqa: PLC0415

    seed = 2**100 + 7
    state = State.new("yifa", seed=seed, players=3)
    play_out(state, [RandomPolicy(s) for s in range(3)])
    good = tmp_path / "hand.json"
    good.write_text(record_hand("zhajinhua", state).to_json())
    assert main(["verify-hand", str(good), "--commitment", commitment(seed)]) == 0
    assert capsys.readouterr().out.startswith("ok: result ")
    bad = tmp_path / "bad.json"
    bad.write_text(good.read_text().replace(f'"seed":"{seed}"', f'"seed":"{seed + 1}"'))
    assert main(["verify-hand", str(bad)]) == 1
    assert capsys.readouterr().out.startswith("failed: commitment_mismatch")
    assert main(["verify-hand", str(tmp_path / "missing.json")]) == 2
    assert "unreadable_record" in capsys.readouterr().err


def test_loadtest_spectators_need_private_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--spectators", "3", "--url", "http://127.0.0.1:9"]) == 2
    assert "bad_option" in capsys.readouterr().err


def test_verify_hand_accepts_a_v1_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``qipai-hand/1`` record (chance v1: ``random.Random(seed)``) still verifies."""
    lines = (Path(__file__).parent / "data" / "records-v1.jsonl").read_text().splitlines()
    old = tmp_path / "old.json"
    old.write_text(lines[0])
    assert main(["verify-hand", str(old)]) == 0
    assert capsys.readouterr().out.startswith("ok: result ")


def test_verify_hand_names_the_task_and_refuses_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand of a room with 任务: ``ok`` names the task drawn; another task named in the
    record is ``task_mismatch``."""
    from qipai.hall.records import record_hand  # noqa: PLC0415
    from qipai.registry import HandSetup, game_type  # noqa: PLC0415

    game = game_type("doudizhu")
    rules = game.rules_with("huanle", {"tasks": ["spring", "chain"]})
    state = game.play_out(game.new_hand(rules, HandSetup(seed=12, balances=(10**6,) * 3)))
    record = record_hand("doudizhu", state)
    good = tmp_path / "hand.json"
    good.write_text(record.to_json())
    assert main(["verify-hand", str(good)]) == 0
    assert f"task {record.task}, drawn from the seed" in capsys.readouterr().out
    other = "chain" if record.task == "spring" else "spring"
    bad = tmp_path / "bad.json"
    bad.write_text(good.read_text().replace(f'"task":"{record.task}"', f'"task":"{other}"'))
    assert main(["verify-hand", str(bad)]) == 1
    assert capsys.readouterr().out.startswith("failed: task_mismatch")


@pytest.mark.parametrize(
    ("argv", "count"), [([], "shipped"), (["--no-matches"], 0)], ids=["default", "no-matches"]
)
def test_serve_runs_the_shipped_matches_or_none(
    argv: list[str], count: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    import qipai.server.serve  # noqa: PLC0415
    from qipai.hall.match.config import default_matches  # noqa: PLC0415

    served: list[object] = []
    monkeypatch.setattr(qipai.server.serve, "serve", lambda config, *a, **k: served.append(config))
    assert main(["serve", *argv]) == 0
    [config] = served
    expected = len(default_matches()) if count == "shipped" else count
    assert len(config.matches) == expected  # type: ignore[attr-defined]
