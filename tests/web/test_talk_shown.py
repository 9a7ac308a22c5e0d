"""Where the table page lists a seat's shown cards in the deal's talk (docs/web.md):
after its last `pokazyvayu` — a Tertz seat shows at several tricks and the view holds
all its shown cards as one list, which after its first show would claim cards it
showed only later."""

from __future__ import annotations

from deberc_net.game.cards import parse_card
from deberc_net.server.web.views import talk_with_shown


def test_a_seats_shown_cards_follow_its_last_show() -> None:
    talk = [(0, "terts"), (1, "pokazhi"), (0, "pokazyvayu"), (1, "terts"), (0, "pokazyvayu")]
    shown = {0: [parse_card(c) for c in ("7s", "8s", "9s", "Jh", "Qh", "Kh")]}
    listed = talk_with_shown(talk, shown)
    assert [seat for seat, _ in listed] == [0, 1, 0, 1, 0, 0]
    assert listed[2] == (0, "pokazyvayu") and listed[4] == (0, "pokazyvayu")
    assert "7" in listed[5][1] and "K" in listed[5][1]  # all six, after the second show


def test_a_single_show_is_followed_by_its_cards_and_an_unshown_seat_by_nothing() -> None:
    talk = [(0, "terts"), (1, "pokazhi"), (0, "pokazyvayu"), (1, "pishet")]
    shown = {0: [parse_card(c) for c in ("7s", "8s", "9s")]}
    listed = talk_with_shown(talk, shown)
    assert [seat for seat, _ in listed] == [0, 1, 0, 0, 1]
    assert listed[3][0] == 0 and listed[4] == (1, "pishet")
