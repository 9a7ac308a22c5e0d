"""deberc_net.testing.snapshot: what "a refused call changes nothing" compares."""

from __future__ import annotations

from deberc_net.game.events import Shown, TrickTaken
from deberc_net.testing import build_deck, build_ruleset, new_deal, snapshot

from .decks import SIMPLE


def test_two_events_of_different_kinds_with_the_same_fields_differ_in_a_snapshot() -> None:
    """Events are named tuples: as plain data, Shown(0, ()) and TrickTaken(0, ()) would be
    the same list, and a refusal that told the wrong kind of event would pass unseen."""
    rules = build_ruleset(2)
    one = new_deal(rules, build_deck(*SIMPLE))
    other = one.copy()
    one.history.append(Shown(0, ()))
    other.history.append(TrickTaken(0, ()))
    # the fields alone must tell them apart (the record happens to as well, but not every
    # field that holds events is in the record)
    assert snapshot(one)["fields"] != snapshot(other)["fields"]
    other.history[-1] = Shown(0, ())
    assert snapshot(one) == snapshot(other)
