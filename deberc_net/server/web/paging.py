"""A long list on a page a part at a time: ``?page=N`` (docs/web.md, "Pages"), counted
from 1, as the lobby's paged lists count theirs (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

# the most digits a page number is read from: more is no page of any list (int() of
# thousands of digits raises past Python's limit, as a path's number did: app.PathNumber)
MOST_DIGITS = 9


class NoSuchPage(Exception):
    """The page asked is not one of the list's: refused with those it has."""

    def __init__(self, pages: int) -> None:
        super().__init__(f"pages 1 to {pages}")
        self.pages = pages


def asked_page(query: Mapping[str, str]) -> int:
    """The page ``?page=`` asks for: 1 without one, 0 (no page of any list: refused
    with the list's pages) for anything but 1 to 9 ASCII digits."""
    text = query.get("page")
    if text is None:
        return 1
    if not (text.isascii() and text.isdigit() and len(text) <= MOST_DIGITS):
        return 0
    return int(text)


@attrs.frozen
class Paged:
    """Page ``page`` of a list of ``count`` items, ``size`` a page."""

    page: int
    count: int
    size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // self.size))  # an empty list has its one page

    @property
    def skip(self) -> int:
        return (self.page - 1) * self.size

    @property
    def first(self) -> int:
        """The number of the page's first item, from 1 (0 on an empty list's page)."""
        return min(self.skip + 1, self.count)

    @property
    def last(self) -> int:
        return min(self.skip + self.size, self.count)


def paged(page: int, count: int, size: int) -> Paged:
    """Page ``page`` of ``count`` items; NoSuchPage unless it is one of 1 to its pages."""
    found = Paged(page, count, size)
    if not 1 <= page <= found.pages:
        raise NoSuchPage(found.pages)
    return found
