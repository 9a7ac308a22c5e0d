"""The words of 'login NAME [PASSWORD | token=TOKEN] [lang=en|ru] [style=human|machine]'
(docs/protocol.md §4.2), read once for the server and the terminal client alike (the
client keeps the password the server took, to log in again after a drop)."""

from __future__ import annotations

import enum

import attrs

from .lang import Lang, asks_ukrainian, keyword_argument, lang_argument
from .render import Style

TOKEN = "token="  # 'login NAME token=T': a guest resumes with the token it was given
STYLE = "style="  # 'login NAME style=machine': as 'style machine', from the reply on
# a connection's settings that only their own command sets: written into a login, each
# was taken as its password (a bot writer's guess registered 'tell=asks'), so it is
# refused, naming the command
SET_ELSEWHERE = {
    "tell": "style machine tell=all|asks",
    "sort": "sort rank|strength",
    "clock": "clock human|bot",
}
# a password ``login`` can never be given: these words it reads as something else
# ('token=' as it is typed, the others in any case)
RESERVED = ("lang=", STYLE, *(f"{key}=" for key in SET_ELSEWHERE))


@attrs.frozen
class LoginWords:
    """A login line read: its name, its secret (a password, or ``token=…`` as typed)
    and the settings it asks for (None: not asked)."""

    name: str
    secret: str | None
    lang: Lang | None
    style: Style | None

    @property
    def token(self) -> str | None:
        """A guest's resume token, if the secret is one."""
        s = self.secret
        return s[len(TOKEN) :] if s is not None and s.startswith(TOKEN) else None

    @property
    def password(self) -> str | None:
        return self.secret if self.token is None else None


class Refused(enum.Enum):
    USAGE = enum.auto()  # a wrong count, a second or an unknown 'lang=' or 'style='
    UKRAINIAN = enum.auto()  # 'lang=uk': told what there is, not the bare usage


@attrs.frozen
class SetElsewhere:
    """A setting only its own command sets: ``word`` ('tell='), set by ``command``."""

    word: str
    command: str


def read_login(args: tuple[str, ...]) -> LoginWords | Refused | SetElsewhere:
    """``login``'s arguments read as the server reads them: ``lang=`` and ``style=`` in
    any case, once each, anywhere after the command word (before NAME too: a name holds
    no '=', so such a word is never one); a ``tell=``, ``sort=`` or ``clock=`` word
    refused (it is no password); then NAME and at most one secret, in that order (a
    ``token=`` first is the usage, not a bad name)."""
    for arg in args:
        key, eq, _ = arg.partition("=")
        if eq and key.lower() in SET_ELSEWHERE:
            return SetElsewhere(f"{key.lower()}=", SET_ELSEWHERE[key.lower()])
    asked = lang_argument(args)
    if asked is None:
        return Refused.UKRAINIAN if any(asks_ukrainian(a) for a in args) else Refused.USAGE
    rest, lang = asked
    styled = keyword_argument(rest, "style", [str(s) for s in Style])
    if styled is None:
        return Refused.USAGE
    rest, style = styled
    if len(rest) not in (1, 2) or rest[0].startswith(TOKEN):
        return Refused.USAGE
    secret = rest[1] if len(rest) == 2 else None
    return LoginWords(rest[0], secret, lang, None if style is None else Style(style))


def typable(password: str) -> bool:
    """Whether ``login NAME PASSWORD`` would give ``password``: not one beginning with
    a word it reads otherwise (``password OLD NEW`` refuses such a NEW)."""
    return not password.startswith(TOKEN) and not password.lower().startswith(RESERVED)
