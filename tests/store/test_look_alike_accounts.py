"""A login's first read finds a registered name that looks like a new one (migration
21's look, docs/security.md §1), alike in SQLite and PostgreSQL: the index finds the names
of the new one's coarse ``latin_look``, the names as registered are compared by
``look_key`` (a lower-case i is no l), and the stored keys are untouched."""

from __future__ import annotations

import itertools
import sqlite3
import unicodedata
from pathlib import Path

import psycopg

from deberc_net.server.store import open_store
from deberc_net.server.store.base import (
    LOOKS_LIKE,
    OTHER_ALPHABETS,
    latin_look,
    look_key,
    name_key,
)
from deberc_net.server.store.migrations import MIGRATIONS

from .records import opened, raw


def test_a_new_name_is_told_the_registered_name_it_looks_like(store_db: str) -> None:
    store = open_store(store_db)
    try:
        store.add_account("Alice", b"salt", b"hash")
        store.add_account("B0b", b"salt", b"hash")
        store.add_account("all", b"salt", b"hash")
        store.add_account("bill", b"salt", b"hash")
        store.add_account("llya", b"salt", b"hash")
        # every character the mapping makes one, and what it makes of them
        drawn = "I1\u0406\u04c0\u04cf\u0399l-O0\u043e\u041e\u03bf\u039fo-\u0456\u0131\u03b9"
        store.add_account(drawn, b"salt", b"hash")
        assert store.arrival("AIice").looks_like == "Alice"  # a capital I
        assert store.arrival("a1ice").looks_like == "Alice"
        assert store.arrival("BOB").looks_like == "B0b"
        assert store.arrival("Ilya").looks_like == "llya"
        assert store.arrival("lllllll-ooooooo-iii").looks_like == drawn
        assert look_key("lllllll-ooooooo-iii") == look_key(drawn)
        # a lower-case i is not an l: these look like no name taken
        for name in (
            "ali",
            "bili",
            "aiice",
            "iiya",
            "illllllll-ooooooo-iii",
            "\u0131lya",
            "\u03b9lya",
        ):
            assert store.arrival(name).looks_like is None, name
        assert store.arrival("alicia").looks_like is None
        assert store.arrival("al\u0131ce").looks_like == "Alice"  # a dotless ı is an i
        # a registered name is itself, not a look-alike (its own row, however typed)
        assert store.arrival("ALICE").looks_like is None
        assert store.arrival("ALICE").spelling == "Alice"
        assert store.account_name("alice") == "Alice"  # found by name_key, as ever
        assert name_key("AIice") == "aiice"  # which has not changed
        assert store.account("AIice") is None
    finally:
        store.close()


def test_the_look_alike_is_found_by_the_index(tmp_path: Path) -> None:
    path = tmp_path / "deberc.sqlite3"
    open_store(path).close()
    db = sqlite3.connect(path)
    try:
        plan = db.execute("EXPLAIN QUERY PLAN " + LOOKS_LIKE.format(p="?"), ("allce",)).fetchall()
        assert any("accounts_look" in str(row) for row in plan), plan
        columns = [row[1] for row in db.execute("PRAGMA table_info(accounts)")]
        assert columns == ["key", "name", "salt", "hash", "created", "look"]
    finally:
        db.close()


def test_two_letters_drawn_as_one_look_like_it(store_db: str) -> None:
    """'rn' is drawn as 'm', 'cl' as 'd', 'vv' as 'w', in lower case (RN is no M): the
    index (migration 20) finds them, and a name that only holds the pair is free."""
    store = open_store(store_db)
    try:
        store.add_account("martin", b"salt", b"hash")
        store.add_account("dave", b"salt", b"hash")
        store.add_account("wendy", b"salt", b"hash")
        store.add_account("Arnold", b"salt", b"hash")
        for name, other in [
            ("rnartin", "martin"),
            ("clave", "dave"),
            ("cIave", "dave"),  # a capital I as l
            ("wencly", "wendy"),  # two pairs
            ("vvendy", "wendy"),
            ("Amold", "Arnold"),
            ("arnoId", "Arnold"),  # rn, and a capital I as l
        ]:
            assert store.arrival(name).looks_like == other, name
        # in capitals they are not alike (nor is a capital D a cl); nor is a name that
        # only holds a pair, or one of the letters
        for name in ("RNartin", "VVendy", "CLave", "AMOLD", "arnie", "clara", "vivian", "marn"):
            assert store.arrival(name).looks_like is None, name
    finally:
        store.close()


def test_a_name_wholly_in_another_alphabet_is_found_by_the_index(store_db: str) -> None:
    store = open_store(store_db)
    try:
        store.add_account("anna", b"salt", b"hash")
        store.add_account("\u041d\u0418\u041a\u041e", b"salt", b"hash")  # НИКО, Cyrillic
        assert store.arrival("\u0430\u043f\u043f\u0430").looks_like == "anna"  # аппа
        assert store.arrival("\u0391\u039d\u039d\u0391").looks_like == "anna"  # ΑΝΝΑ
        assert store.arrival("\u0397\u0418\u041a\u041e").looks_like == "\u041d\u0418\u041a\u041e"
        assert store.arrival("\u0397\u0399\u039a\u039f").looks_like is None  # ΗΙΚΟ: no И
    finally:
        store.close()


def test_letters_only_roughly_latin_are_read_as_latin(store_db: str) -> None:
    """The Cyrillic и (as u), г (as r), Ь (as b), the Greek α, ν (as v), ρ, γ (as y), υ
    (as u), from Unicode's confusables data: a name of them beside the Latin one it
    reads as is refused, both ways round; names that do not read so are taken."""
    store = open_store(store_db)
    try:
        pairs = [
            ("ruby", "\u0433\u0438\u042c\u0443"),  # гиЬу
            ("ava", "\u03b1\u03bd\u03b1"),  # ανα
            ("papa", "\u03c1\u03b1\u03c1\u03b1"),  # ραρα
        ]
        for latin, other in pairs:
            assert store.register(latin, b"salt", b"hash") is None
            assert store.register(other, b"salt", b"hash") == latin, other
            assert store.arrival(other).looks_like == latin
        # the other way round: the Greek or Cyrillic one taken first
        assert store.register("\u03b3\u03c5\u03bd\u03b1", b"salt", b"hash") is None  # γυνα
        assert store.register("yuva", b"salt", b"hash") == "\u03b3\u03c5\u03bd\u03b1"
        assert store.register("\u0438\u0433\u0430", b"salt", b"hash") is None  # ига
        assert store.register("ura", b"salt", b"hash") == "\u0438\u0433\u0430"
        # not alike: the small в is no v, и no i, ν (nu) in capitals an N
        for name in (
            "\u0432\u0438\u043a\u0430",
            "ika",
            "ruby2",
            "AVA2",
            "\u039d\u0391\u039d\u0391",
        ):
            assert store.register(name, b"salt", b"hash") is None, name
        assert store.register("nana", b"salt", b"hash") == "\u039d\u0391\u039d\u0391"
        assert store.register("ana", b"salt", b"hash") is None  # (ανα is a, v, a)
    finally:
        store.close()


def test_a_new_name_is_refused_beside_an_old_one_of_mixed_alphabets(store_db: str) -> None:
    """A name registered before a new one had to keep to one alphabet ('аnna', its а
    Cyrillic) logs in as ever (its account is found by its key), and a new name that
    looks like it, in one alphabet or another, is refused."""
    mixed = "\u0430nna"
    store = open_store(store_db)
    try:
        assert store.add_account(mixed, b"salt", b"hash")  # as before the rule
        assert store.arrival(mixed).spelling == mixed
        assert store.account(mixed) == (b"salt", b"hash")
        for name in (
            "anna",
            "ANNA",
            "\u0430\u043f\u043f\u0430",
            "\u03b1nna",
        ):
            assert store.arrival(name).looks_like == mixed, name
        assert store.register("anna", b"salt", b"hash") == mixed
        assert store.register("hanna", b"salt", b"hash") is None
    finally:
        store.close()


def test_migration_21_reads_the_accounts_there_are_as_latin(new_store_db: str) -> None:
    """The accounts registered before migration 21 (look-alikes of each other, one of
    mixed alphabets among them) get their look as a new account does, in SQL, and are
    found by it; their names, keys and passwords are as they were."""
    names = [
        "Alice",
        "AIice",
        "\u0430nna",
        "\u0433\u0438\u042c\u0443",
        "Bum",
        "\u03c1\u03b1\u03c1\u03b1",
    ]
    opened(new_store_db, migrations=MIGRATIONS[:20]).close()
    rows = ", ".join(f"('{name_key(n)}', '{n}', 'salt', 'hash')" for n in names)
    raw(new_store_db, f"INSERT INTO accounts (key, name, salt, hash) VALUES {rows}")
    store = open_store(new_store_db)
    try:
        assert store.schema_version() == len(MIGRATIONS)  # 21 and those after it
        for name in names:
            assert store.arrival(name).spelling == name
        for new, old in [
            ("anna", "\u0430nna"),
            ("ruby", "\u0433\u0438\u042c\u0443"),
            ("burn", "Bum"),
            ("papa", "\u03c1\u03b1\u03c1\u03b1"),
            ("A1ice", "AIice"),  # (the first in key order of those it looks like)
        ]:
            assert store.arrival(new).looks_like == old, new
            assert store.register(new, b"salt", b"hash") == old, new
    finally:
        store.close()


def test_names_of_one_look_have_one_latin_look() -> None:
    """The index is coarser than the comparison: every two names ``look_key`` makes one
    have one ``latin_look`` (else a look-alike would not be read), here every name of
    up to three of the letters the Latin mappings touch, and of four of the pairs'."""
    for letters, longest in (("rnmRNMcldCLDvwVWiI1\u0131o0O", 3), ("rnmcldvwI", 4)):
        looks: dict[str, str] = {}
        for chars in (
            c for n in range(1, longest + 1) for c in itertools.product(letters, repeat=n)
        ):
            name = "".join(chars)
            assert looks.setdefault(look_key(name), latin_look(name)) == latin_look(name), name


def test_a_look_alike_in_another_alphabet_has_its_latin_look() -> None:
    """A registered name that looks like a new one has the new one's ``latin_look``,
    whatever the alphabets of either (one registered before mixing them was refused
    among them): every name of up to two of the letters drawn alike in Latin,
    Cyrillic or Greek (both cases of each), and of three of those in the pairs."""
    drawn = "".join(OTHER_ALPHABETS) + "".join(OTHER_ALPHABETS.values()) + "\u03b9\u04cfcl"
    letters = sorted({*drawn, *drawn.lower(), *drawn.upper(), "r", "v", "\u04af"})
    alphabets = {unicodedata.name(letter).split()[0] for letter in letters}
    assert alphabets == {"CYRILLIC", "GREEK", "LATIN"}
    pairs = set("clCLdDvVwWrnmM\u0441\u0421\u04cf\u04c0\u0501\u051d\u051c\u043f\u041c\u0475\u03bd")
    names: dict[str, list[str]] = {}  # by look
    for size in range(1, 4):
        some = letters if size < 3 else [letter for letter in letters if letter in pairs]
        for chars in itertools.product(some, repeat=size):
            names.setdefault(look_key("".join(chars)), []).append("".join(chars))
    met = 0  # looks held by names beginning in two alphabets
    for group in names.values():
        assert len({latin_look(name) for name in group}) == 1, group
        met += len({unicodedata.name(name[0])[:5] for name in group}) > 1
    assert met > 2_000, met


def test_postgresql_finds_the_look_alike_by_the_index(postgres_url: str) -> None:
    """The look-up's look is read through migration 21's index, not a scan of every
    account (the planner told not to scan: the table is small here)."""
    open_store(postgres_url).close()
    with psycopg.connect(postgres_url) as conn:
        conn.execute("SET enable_seqscan = off")
        look = (latin_look("anna"),)
        plan = conn.execute("EXPLAIN " + LOOKS_LIKE.format(p="%s"), look).fetchall()
        assert any("accounts_look" in str(row) for row in plan), plan
