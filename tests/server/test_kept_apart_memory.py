"""A player's memory of who left his matches (server/kept_apart.py) is bounded by
addresses, not entries: a griefer with a few addresses and endless fresh names cannot
push his own oldest entries out and meet the player again (a plain list of the last 8
let five addresses do it: docs/protocol.md §5.5). On the module's own functions; the
same over real sockets is in test_seek_griefing.py."""

from __future__ import annotations

from collections.abc import Sequence

from deberc_net.server.kept_apart import (
    ADDRESS_NAMES,
    KEPT_ADDRESSES,
    KEPT_UNKNOWN,
    Left,
    keeps_apart,
    kept_until,
    noted,
)

APART_S = 600.0


def _grieved(leaves: Sequence[tuple[str, str | None]], step: float = 1.0) -> tuple[Left, ...]:
    """The memory after each (name, address) left, ``step`` seconds apart."""
    kept: tuple[Left, ...] = ()
    for n, (name, address) in enumerate(leaves):
        now = n * step
        kept = noted(kept, Left(name, address, now + APART_S), now)
    return kept


def test_a_griefer_from_five_addresses_keeps_every_one_of_them_apart() -> None:
    addresses = [f"10.0.0.{a}" for a in range(5)]
    # round after round of fresh names, each address in turn (as the tryout did)
    leaves = [(f"grief{n}", addresses[n % 5]) for n in range(40)]
    kept = _grieved(leaves)
    now = len(leaves) * 1.0
    for address in addresses:
        assert keeps_apart(kept, "fresh", address, now, "10.9.9.9"), address
    # and an honest player from elsewhere is not kept apart
    assert not keeps_apart(kept, "honest", "10.0.1.1", now, "10.9.9.9")
    assert len(kept) == ADDRESS_NAMES * len(addresses)


def test_one_name_from_one_address_again_is_refreshed_not_counted_twice() -> None:
    kept = _grieved([("grief", "10.0.0.2"), ("grief", "10.0.0.2")])
    assert kept == (Left("grief", "10.0.0.2", 1.0 + APART_S),)  # its time from the last
    # one name is not two: his neighbours at that address are not blamed
    assert not keeps_apart(kept, "neighbour", "10.0.0.2", 2.0, "10.9.9.9")
    assert keeps_apart(kept, "grief", "10.0.0.5", 2.0, "10.9.9.9")


def test_fresh_names_and_single_leaves_do_not_push_out_an_address_kept_apart() -> None:
    leaves = [("grief0", "10.0.0.2"), ("grief1", "10.0.0.2")]  # that address: apart
    leaves += [(f"once{n}", f"10.1.{n}.1") for n in range(3 * KEPT_ADDRESSES)]
    leaves += [(f"fresh{n}", "10.0.0.3") for n in range(50)]  # a third address's names
    kept = _grieved(leaves)
    now = len(leaves) * 1.0
    assert keeps_apart(kept, "anyone", "10.0.0.2", now, "10.9.9.9")
    assert keeps_apart(kept, "anyone", "10.0.0.3", now, "10.9.9.9")


def test_the_memory_stays_bounded_and_what_is_over_goes_first() -> None:
    leaves: list[tuple[str, str | None]] = [(f"g{n}", f"10.{n % 40}.0.1") for n in range(400)]
    leaves += [(f"u{n}", None) for n in range(50)]
    kept = _grieved(leaves)
    assert len(kept) <= ADDRESS_NAMES * KEPT_ADDRESSES + KEPT_UNKNOWN
    assert len({k.address for k in kept if k.address is not None}) == KEPT_ADDRESSES
    assert len([k for k in kept if k.address is None]) == KEPT_UNKNOWN
    # all of it over: one more leaves only himself
    later = noted(kept, Left("last", "10.0.0.9", 10_000.0 + APART_S), 10_000.0)
    assert later == (Left("last", "10.0.0.9", 10_000.0 + APART_S),)


def test_kept_until_is_when_keeps_apart_stops_holding() -> None:
    """What a seek passing a table by is told ("for N min more", docs/protocol.md
    §5.5): by the name, till its entry ends; by an address two names left from, till
    the second latest of them ends; never by one's own address."""
    kept = _grieved([("grief0", "10.0.0.2"), ("grief1", "10.0.0.2"), ("grief2", "10.0.0.2")])
    cases = [
        ("grief2", "10.0.0.7", "10.9.9.9"),  # the name
        ("anyone", "10.0.0.2", "10.9.9.9"),  # the address: grief1's end, the second latest
        ("anyone", "10.0.0.2", "10.0.0.2"),  # his own address: not at all
        ("honest", "10.0.1.1", "10.9.9.9"),
    ]
    for name, address, own in cases:
        until = kept_until(kept, name, address, 3.0, own)
        assert keeps_apart(kept, name, address, until - 0.5, own) == (until > 3.0)
        assert not keeps_apart(kept, name, address, until, own)
    assert kept_until(kept, "anyone", "10.0.0.2", 3.0, "10.9.9.9") == 1.0 + APART_S
    assert kept_until(kept, "grief2", None, 3.0, None) == 2.0 + APART_S
