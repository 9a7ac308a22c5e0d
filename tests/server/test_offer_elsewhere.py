"""A rematch offer kept at another worker (``serve --workers``, docs/scaling.md): where
it stands for a player here is one state, not three flags (withdrawn, refused, off),
two of which could hold at once. What its worker's word makes of it, and what each state lets
happen: his going elsewhere calls it off there; its worker's loss tells him it is off.
The same behaviour over real workers: tests/store/test_workers_rematch_*.py."""

from __future__ import annotations

import attrs
import pytest

from deberc_net.server.cluster.node import OfferElsewhere, OfferStanding

OPEN, WITHDRAWN, REFUSED, OFF = (
    OfferStanding.OPEN,
    OfferStanding.WITHDRAWN,
    OfferStanding.REFUSED,
    OfferStanding.OFF,
)


@pytest.mark.parametrize(
    ("refused", "off", "standing"),
    [
        (False, False, OPEN),
        (False, True, OFF),  # a seek kept called it off as it was made
        (True, False, REFUSED),  # a house bot's match, a ladder's board
        (True, True, REFUSED),  # both said of a house bot's match: none was offered
    ],
)
def test_its_workers_word_says_where_it_stands(
    refused: bool, off: bool, standing: OfferStanding
) -> None:
    assert OfferElsewhere.told(refused, off) is standing


@pytest.mark.parametrize(
    ("standing", "withdrawable", "off_when_lost"),
    [
        (OPEN, True, True),
        (OFF, True, False),  # his worker tells the owner all the same (a kept seek's why)
        (WITHDRAWN, False, False),  # once is enough; he was told why as he went
        (REFUSED, False, False),  # nothing there to call off, no offer to lose
    ],
)
def test_what_each_standing_lets_happen(
    standing: OfferStanding, withdrawable: bool, off_when_lost: bool
) -> None:
    offer = OfferElsewhere(2, 17, 60.0, ("anna", "boris"), ("anna",), standing=standing)
    assert (offer.withdrawable(), offer.off_when_lost()) == (withdrawable, off_when_lost)
    assert offer.waiting() == ("boris",)


def test_a_new_one_stands_open_and_one_state_replaces_another() -> None:
    offer = OfferElsewhere(2, 17, 60.0)
    assert offer.standing is OPEN
    gone = attrs.evolve(offer, standing=WITHDRAWN)
    assert (gone.withdrawable(), gone.off_when_lost()) == (False, False)
    with pytest.raises(TypeError):
        OfferElsewhere(2, 17, 60.0, withdrawn=True)  # type: ignore[call-arg]
