"""A login's first read finds a registered name that looks like a new one (migration
18's index, docs/security.md §1), alike in SQLite and PostgreSQL: the index finds the names
of the new one's coarse ``key_look``, the names as registered are compared by
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
    key_look,
    key_looks,
    look_key,
    name_key,
)


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
        looks = ("allce", "allce", "аllсе", "αllcε")
        plan = db.execute("EXPLAIN QUERY PLAN " + LOOKS_LIKE.format(p="?"), looks).fetchall()
        assert any("accounts_look_pairs" in str(row) for row in plan), plan
        columns = [row[1] for row in db.execute("PRAGMA table_info(accounts)")]
        assert columns == ["key", "name", "salt", "hash", "created"]  # nothing stored
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


def test_names_of_one_look_have_one_key_look() -> None:
    """The index is coarser than the comparison: every two names ``look_key`` makes one
    have one ``key_look`` (else a look-alike would not be read), here every name of
    up to three of the letters the Latin mappings touch, and of four of the pairs'."""
    for letters, longest in (("rnmRNMcldCLDvwVWiI1\u0131o0O", 3), ("rnmcldvwI", 4)):
        looks: dict[str, str] = {}
        for chars in (
            c for n in range(1, longest + 1) for c in itertools.product(letters, repeat=n)
        ):
            name = "".join(chars)
            assert looks.setdefault(look_key(name), key_look(name)) == key_look(name), name


def test_a_look_alike_in_another_alphabet_is_looked_up() -> None:
    """A registered name in one alphabet that looks like a new one in another has one of
    the ``key_looks`` the look-up asks the index for: every name of up to two of the
    letters drawn alike in Latin, Cyrillic or Greek (both cases of each), and of three
    of those in the pairs, beside every name of another alphabet that looks like it."""
    drawn = "".join(OTHER_ALPHABETS) + "".join(OTHER_ALPHABETS.values()) + "\u03b9\u04cfcl"
    letters = sorted({*drawn, *drawn.lower(), *drawn.upper(), "r", "v", "\u04af"})
    by_alphabet: dict[str, list[str]] = {}
    for letter in letters:
        by_alphabet.setdefault(unicodedata.name(letter).split()[0], []).append(letter)
    assert sorted(by_alphabet) == ["CYRILLIC", "GREEK", "LATIN"]
    names: dict[str, list[str]] = {}  # by look
    pairs = set("clCLdDvVwWrnmM\u0441\u0421\u04cf\u04c0\u0501\u051d\u051c\u043f\u041c")
    for alphabet in by_alphabet.values():
        for size in range(1, 4):
            some = alphabet if size < 3 else [letter for letter in alphabet if letter in pairs]
            for chars in itertools.product(some, repeat=size):
                names.setdefault(look_key("".join(chars)), []).append("".join(chars))
    met = 0  # names of two alphabets that look alike
    for group in names.values():
        for new, registered in itertools.product(group, repeat=2):
            assert key_look(registered) in key_looks(new), (new, registered)
            met += unicodedata.name(new[0])[:5] != unicodedata.name(registered[0])[:5]
    assert met > 5_000, met


def test_postgresql_finds_the_look_alike_by_the_index(postgres_url: str) -> None:
    """The look-up's four looks (``IN``) are read through migration 20's index, not a
    scan of every account (the planner told not to scan: the table is small here)."""
    open_store(postgres_url).close()
    with psycopg.connect(postgres_url) as conn:
        conn.execute("SET enable_seqscan = off")
        looks = key_looks("anna")
        plan = conn.execute("EXPLAIN " + LOOKS_LIKE.format(p="%s"), looks).fetchall()
        assert any("accounts_look_pairs" in str(row) for row in plan), plan
