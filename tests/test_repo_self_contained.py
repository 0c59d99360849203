"""The repository is self-contained: no tracked file refers to files outside it.

The rules qipai follows are written up inside the repository (``docs/rules/``). Text
that points at the project's outside working files (a ``../shared`` folder, its ``spec/``
pages, the numbered rule-page files) or calls a platform's rules page "the seed" would
send a reader of this repository to files he does not have. Name the platform's rules
page instead ("the 易发 rules page") or point into ``docs/rules/``.

The word *seed* itself stays: a hand's random seed is part of the hall (``docs/records.md``).
Only the phrasings that meant a rules page are refused.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PATTERNS = (
    r"\.\./shared\b",
    r"\bshared/(?:spec|seeds)\b",
    r"\bspec/\w+\.md\b",
    r"\bseeds/",
    r"\bSTYLE\.md\b",
    r"\b00[0-4]_[0-9a-f]{16}\b",  # the rule pages' file names
    r"\bseeds? 00[0-4]\b",  # "seed 000": a rules page by its number
    r"\bseed files?\b",
    r"\b(?:jj|caishen|huanle|yifa|zhengtu)\x20seeds?\b",  # on one line: "rules jj\nseed 7" is fine
    r"\bseed-order\b",
    # a rules page, not a hand's random seed ("the seed's commitment", "… deal stream"):
    r"\bseed's (?:order|entry|table|rules|exact|words|tie|ranking|托管|chinese|controls"
    r"|mouse|default|worked|examples|glossary|text|total|游戏倍数)",
    r"\bseeds' ",
    r"\bseeds? (?:says?|names?|lists?|counts?|forbids|ranks|read)\b",
    r"\bseeds? gives? (?:none|no)\b",
    r"\bseeds? (?:is|are) (?:silent|ambiguous|unclear)\b",
    r"\b(?:than|follows) the seeds?\b",
    r"\bthe seed: (?:with|after)\b",
    r"\bthe spec\b",
    r"\bspec's\b",
    r"\bspec (?:default|wording)\b",
    r"\bplatform spec\b",
    r"\(spec:",
    r"\bspecification\b",
)
"""The phrasings that refer outside the repository; a space also matches a line break."""

OUTSIDE = re.compile("|".join(pattern.replace(" ", r"\s+") for pattern in PATTERNS), re.IGNORECASE)
"""A reference to something outside the repository, within a line or across two."""

SELF = "tests/test_repo_self_contained.py"

def repository_files() -> list[str]:
    """The tracked files and the new ones not ignored, as git lists them."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted({name for name in listed if (ROOT / name).is_file()})


def outside_references(name: str) -> list[str]:
    """``path:line: text`` for each line of the file that refers outside the repository."""
    try:
        text = (ROOT / name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return []  # a binary file
    lines = text.splitlines()
    numbers = sorted({text.count("\n", 0, found.start()) + 1 for found in OUTSIDE.finditer(text)})
    return [f"{name}:{number}: {lines[number - 1].strip()}" for number in numbers]


def test_the_pattern_knows_both_kinds_of_seed() -> None:
    """A rules page called "seed" is refused; a hand's random seed is not."""
    refused = [
        "see ../shared/spec/doudizhu.md",
        "(seed 004's controls)",
        "the seed's order (full house higher)",
        "as the jj seed says",
        "where the seeds are silent",
        "against the spec",
        "the system plays for him, seed\n004's policy",
    ]
    allowed = [
        "the seed's commitment is published before the deal",
        "comes from the seed's deal stream",
        "a new table draws its dealer from the seed",
        "./run doudizhu play --seed 3",
        "seeds the clients' random choices",
        "importlib.util.find_spec(name)",
        "rules caishen\nseed 20240614",
    ]
    assert all(OUTSIDE.search(text) for text in refused)
    assert not any(OUTSIDE.search(text) for text in allowed)


def test_no_file_refers_outside_the_repository() -> None:
    """Every tracked file (and every new one) names only what the repository holds."""
    found = [
        hit
        for name in repository_files()
        if name != SELF
        for hit in outside_references(name)
    ]
    assert not found, "refers outside the repository:\n" + "\n".join(found)
