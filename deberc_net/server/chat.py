"""Talking to others: 'say' (to the table, its watchers, or the lobby) and 'invite'."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

import attrs
import structlog

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command
from deberc_net.protocol.messages import Msg, Usage, phrase

from . import accounts
from .accounts import name_key
from .allowance import may_talk
from .session import Session
from .table_messages import Invite, Say

if TYPE_CHECKING:
    from .lobby import Lobby

log = structlog.get_logger("deberc.lobby")

# The embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069): an
# unclosed one reverses what follows it on the reader's line
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
BIDI_SAID = "U+202A to U+202E, U+2066 to U+2069"
# Unicode's default-ignorable code points (drawn as nothing: zero-width spaces, joiners
# and marks, the Hangul fillers, invisible tags …), as names refuse them — less those
# that real writing needs between visible letters: the zero-width non-joiner and joiner
# (Persian, Indic scripts, emoji sequences) and the variation selectors (emoji, CJK,
# and Mongolian's free ones, U+180B-U+180D and U+180F, that choose a letter's form)
# — and the interlinear annotation characters (U+FFF9-U+FFFB: software that honours them
# sets the text they mark above the line or hides it; others draw nothing or a box)
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200e\u200f"
    "\u2060-\u206f\u3164\ufeff\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e00ff\U000e01f0-\U000e0fff]"
)
# the tags' one visible use: a flag of a region (England: U+1F3F4, tags, U+E007F)
FLAG_TAGS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
# What is drawn as nothing on its own, once those are refused: spaces (Z*), controls and
# format characters (Cc, Cf: the joiners), combining marks (M*: an accent, a variation
# selector, drawn on the character before it, if any) and the braille blank (U+2800, a
# pattern of no dots: a blank drawn as a symbol). A text of only these says nothing.
NOT_SEEN_ALONE = ("Z", "Cc", "Cf", "M")
BRAILLE_BLANK = "\u2800"
# Combining marks drawn on one character: a few are writing (decomposed Vietnamese 'ệ'
# is e and 2; Hebrew with its points and an accent, 4: shin dot, dagesh, vowel, accent;
# Tibetan stacks 3 to 4 under a letter), dozens are 'Zalgo' text, one column wide and
# drawn over the lines above and below it. Counted after composing (NFC): an accented
# Latin or Cyrillic letter is one character then. Nonspacing and enclosing marks (Mn,
# Me) only: a spacing mark (Mc) takes its own column, beside, not over, the others.
MOST_MARKS = 4


def seen(char: str) -> bool:
    """Whether ``char`` is drawn as something on its own (NOT_SEEN_ALONE)."""
    category = unicodedata.category(char)
    return char != BRAILLE_BLANK and not category.startswith(NOT_SEEN_ALONE)


def most_marks(text: str) -> int:
    """The most nonspacing or enclosing combining marks in a row in ``text`` (composed):
    those drawn on one character (MOST_MARKS). A joiner between them (a format
    character, drawn as nothing) does not end the row: 4 accents and a zero-width
    joiner, 40 times, drew 160 on one letter (a hostile tryout, s29)."""
    most = run = 0
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if category in ("Mn", "Me"):
            run += 1
            most = max(most, run)
        elif category != "Cf":
            run = 0
    return most


def refused_text(text: str, usage: str) -> ev.Error | None:
    """Why ``text`` may not go on others' screens ('say', an admin's 'announce' and
    reasons: docs/protocol.md §5.8), said after the command's ``usage``; None if it may."""
    form = Usage(usage)
    if not text:
        return ev.error("bad-argument", phrase(Msg.TEXT_NONE, usage=form))
    if BIDI_CONTROLS.search(text):  # it would turn others' lines around, as in a name
        return ev.error("bad-argument", phrase(Msg.TEXT_BIDI, usage=form, controls=BIDI_SAID))
    if INVISIBLE.search(FLAG_TAGS.sub("", text)) or not any(seen(c) for c in text):
        # hidden text, or a blank line, on others' screens: refused as in a name
        return ev.error("bad-argument", phrase(Msg.TEXT_INVISIBLE, usage=form))
    if most_marks(text) > MOST_MARKS:  # drawn over others' lines
        return ev.error("bad-argument", phrase(Msg.TEXT_MARKS, usage=form, most=MOST_MARKS))
    return None


@attrs.define(eq=False)
class Chat:
    lobby: Lobby

    async def say(self, session: Session, item: Command) -> None:
        text = item.rest
        refused = refused_text(text, "say TEXT") or self.lobby.moderation.mute_refusal(session)
        if refused is not None:
            session.send(refused)
            return
        if not may_talk(self.lobby, session):  # each line is copied to many
            return
        if session.table is not None:
            self.lobby.post_for(session, session.table, Say(session, text))
            return
        if session.observing:  # a watcher talks to the table's other watchers
            table = self.lobby.tables.get(min(session.observing))
            if table is not None:
                self.lobby.post_for(session, table, Say(session, text))
                return
        # logged, so that an admin can check a complaint (docs/security.md: the log's
        # privacy); a table logs what is said at it (table.py)
        session.log.info("said", table=None, text=text)  # (its conn, peer and name)
        said = ev.Said(session.name or "?", text, None)
        speaker = name_key(session.name or "")
        for other in list(self.lobby.online.values()):
            if other.table is None and not other.ignores(speaker):  # (§5.21)
                other.send(said)
        if self.lobby.node is not None:
            self.lobby.node.lobby_say(session.name or "?", text)

    async def invite(self, session: Session, item: Command) -> None:
        args = item.args
        if len(args) != 1:
            session.send(ev.usage_error("invite NAME"))
            return
        name = unicodedata.normalize("NFC", args[0])
        if not accounts.valid_name(name):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return
        if session.table is None:
            session.send(ev.error("not-seated", phrase(Msg.INVITE_NOT_SEATED)))
            return
        if name_key(name) == name_key(session.name or ""):
            session.send(ev.error("bad-argument", phrase(Msg.INVITE_SELF)))
            return
        muted = self.lobby.moderation.mute_refusal(session)  # an invitation is a line he says
        if muted is not None:
            session.send(muted)
            return
        guest = self.lobby.online.get(name_key(name))
        invited = guest.name if guest is not None else None
        present = self.lobby.node.elsewhere(name) if self.lobby.node is not None else None
        if invited is None and present is not None and present.online:  # on another worker
            invited = present.name
        if invited is None:
            session.send(ev.error("unknown-player", phrase(Msg.NOBODY_HERE, name=name)))
            return
        # the table spends the chat allowance once its own refusals are past (a line on
        # another's screen, as a 'say' is; a refused one costs nothing). Another
        # worker's table has not this connection's allowance: it is spent here, first
        if session.table.remote and not may_talk(self.lobby, session):
            return
        self.lobby.post_for(session, session.table, Invite(session, invited))
