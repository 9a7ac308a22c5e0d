"""The note a live page is told after a message's lines (docs/web.md, "The live socket"):
JSON of one shape, the hand sizes and the seat to act, whatever they are."""

from __future__ import annotations

import json

import pytest

from deberc_net.server.hand_sizes import SIZES, Seen, note, told_among


@pytest.mark.parametrize(
    "seen",
    [Seen([], None), Seen([6, 6], 0), Seen([8, 0, 8], 2), Seen([10, 12, 3, 0], None)],
)
def test_the_note_is_compact_json_of_the_sizes_and_the_seat(seen: Seen) -> None:
    told = note(seen)
    assert told.startswith(SIZES)
    assert " " not in told and "\r" not in told and "\n" not in told
    assert json.loads(told) == {"hand_sizes": seen.sizes, "to_act": seen.to_act}
    assert told_among([told], None) == ([], seen)  # as a worker's feed reads it back
