"""Every link between README.md and the pages of docs/ lands where it says, and every
reference by title (`docs/scaling.md, "Hosts on different machines"`; `above, "…"`)
names a heading of that page or an item anchored by its title: such references named
bold items inside a section, and a link could only land on the section's heading.

A heading's anchor is GitHub's: its text as rendered, lower-cased, each character but
a letter, digit, `_`, `-` or space dropped, each space a `-`; `-1`, `-2` … for a heading
text met again. An item is anchored by `<a id="SLUG"></a>` just before its bold title,
SLUG being the title's anchor as a heading's would be."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
HEADING = re.compile(r"^#{1,6} (.+?)#*$", re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ANCHOR = re.compile(r'<a id="([^"]*)"></a>(\*\*([^*]+)\*\*)?')
# 'docs/scaling.md, "Hosts …"', in a link's text or not; 'above, "…"' in the page itself
TITLED = re.compile(r'\b(?:docs/)?(\w+\.md),? \[?"([^"]+)"')
IN_PAGE = re.compile(r'\b(?:above|below|see),? \[?"([^"]+)"')


def prose(page: Path) -> str:
    """The page's text outside its code blocks."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def rendered(text: str) -> str:
    """A heading's or title's text as shown: links as their text, no code or emphasis marks."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return text.replace("`", "").replace("*", "").strip()


def slug(text: str) -> str:
    return re.sub(r"[^\w\- ]", "", rendered(text).lower()).replace(" ", "-")


def headings(page: Path) -> list[str]:
    return [rendered(h) for h in HEADING.findall(prose(page))]


def heading_anchors(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    anchors = set()
    for heading in headings(page):
        base = slug(heading)
        anchors.add(base if not seen[base] else f"{base}-{seen[base]}")
        seen[base] += 1
    return anchors


def item_anchors(page: Path) -> set[str]:
    return {m[1] for m in ANCHOR.finditer(prose(page))}


def page_named(name: str) -> Path:
    return ROOT / "README.md" if name == "README.md" else ROOT / "docs" / name


def titled(page: Path, title: str) -> bool:
    """A heading of ``page`` begins with ``title`` (a section named by its first words),
    or an item is anchored by it."""
    said = rendered(title)
    return any(h.startswith(said) for h in headings(page)) or slug(said) in item_anchors(page)


def test_the_slugs_are_githubs_for_the_protocols_contents() -> None:
    """The contents of docs/protocol.md link its numbered headings as GitHub renders them."""
    text = prose(ROOT / "docs" / "protocol.md")
    assert "(#4-session-banner-login-style-help-quit)" in text
    assert slug("4. Session: banner, `login`, style, help, quit") == (
        "4-session-banner-login-style-help-quit"
    )


def test_every_link_between_the_pages_lands_on_a_heading_or_an_anchored_item() -> None:
    checked = 0
    for page in PAGES:
        for target in LINK.findall(prose(page)):
            if re.match(r"[a-z]+:", target):  # another site's (https:, mailto:)
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            assert linked.exists(), (page.name, target)
            if anchor and linked.suffix == ".md":
                found = heading_anchors(linked) | item_anchors(linked)
                assert anchor in found, (page.name, target)
                checked += 1
    assert checked >= 30


def test_every_reference_by_title_names_a_heading_or_an_anchored_item() -> None:
    checked = 0
    for page in PAGES:
        text = " ".join(prose(page).split())
        for name, title in TITLED.findall(text):
            target = page_named(name)
            assert target.is_file(), (page.name, name)
            assert titled(target, title), (page.name, name, title)
            checked += 1
        for title in IN_PAGE.findall(text):
            assert titled(page, title), (page.name, title)
            checked += 1
    assert checked >= 70


def test_each_items_anchor_is_its_titles_and_no_headings() -> None:
    for page in PAGES:
        anchored = list(ANCHOR.finditer(prose(page)))
        assert len(anchored) == prose(page).count("<a id="), page.name
        for found in anchored:
            assert found[3] is not None, (page.name, found[1])  # just before a bold title
            assert found[1] == slug(found[3].rstrip(".:")), (page.name, found[1])
        ids = [found[1] for found in anchored]
        assert len(ids) == len(set(ids)), page.name
        assert not set(ids) & heading_anchors(page), page.name
