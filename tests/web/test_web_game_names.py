"""No file of the browser client outside ``js/games/`` names a game: every game-specific
piece lives in the game's module and is found through the registry (``js/games/index.js``,
docs/web.md "A game's browser module").

The words looked for come from the hall's registry (each game's name, title and
``web_module``, case-insensitive; its presets' keys as whole words, case-sensitive, so that
the JJ platform the comments cite is not the ``jj`` preset), with the English titles and
the client's abbreviations (``ddz``, ``zjh``). Reads files only: no hall, no browser.
"""

from __future__ import annotations

import re
from pathlib import Path

from qipai.registry import game_names, game_type

STATIC = Path(__file__).resolve().parents[2] / "src" / "qipai" / "web" / "static"
GAMES_DIR = STATIC / "js" / "games"
OTHER_WORDS = ("Dou Dizhu", "Zha Jin Hua", "ddz", "zjh")
"""The English titles (Showhand's is its name) and the abbreviations of the client's old
string keys and helpers."""


def _pattern() -> tuple[re.Pattern[str], re.Pattern[str]]:
    words: set[str] = set(OTHER_WORDS)
    presets: set[str] = set()
    for name in game_names():
        game = game_type(name)
        words |= {name, game.title, game.web_module}
        presets |= set(game.presets)
    named = re.compile("|".join(re.escape(word) for word in sorted(words)), re.IGNORECASE)
    preset = re.compile(r"\b(" + "|".join(sorted(presets)) + r")\b")
    return named, preset


def _client_files() -> list[Path]:
    files = [p for p in STATIC.rglob("*") if p.suffix in (".js", ".html", ".css")]
    return [p for p in files if GAMES_DIR not in p.parents]


def hits(text: str) -> list[str]:
    """The game words in ``text``."""
    named, preset = _pattern()
    return [m.group(0) for m in (*named.finditer(text), *preset.finditer(text))]


def test_the_words_are_found() -> None:
    assert hits("if (game === 'doudizhu')") == ["doudizhu"]
    assert hits("t('zjh.pot'), 梭哈, rules === \"caishen\"") == ["zjh", "梭哈", "caishen"]
    assert hits("the JJ rules page; a jjj; 比大小") == []


def test_no_client_file_outside_the_games_names_a_game() -> None:
    files = _client_files()
    assert len(files) > 20 and any(p.name == "index.html" for p in files)
    found = [
        f"{path.relative_to(STATIC)}:{number}: {word}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for word in hits(line)
    ]
    assert found == []
