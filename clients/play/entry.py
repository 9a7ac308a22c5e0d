"""What the input line knows: completion of calls and commands, and the typed history.

Pure, so it is tested without a terminal. The legal calls come from the ``legal=`` list
of the current ``ask``: completing to one of them always makes a call the server takes.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from deberc_net.protocol.commands import COMMANDS as SERVER_COMMANDS
from deberc_net.protocol.commands import SECRET_COMMANDS, command_word
from deberc_net.protocol.lang import CYRILLIC, NO_WORDS, Lang, TableWords, ru_call

# the commands a person types in the lobby and at the table (docs/protocol.md §4–5),
# Tab's to complete: every one the server lists, so none is missed (17 of them were
# listed here by hand, and 'his' or 'fing' completed nothing: a tryout, s48); not an
# admin's, nor those the client sets itself ('style', 'clock': their answers are not
# shown; 'lang': the screen's, '--lang'), nor those of the human style ('sort') or of no
# use typed ('ping')
_NOT_TYPED = frozenset({"style", "clock", "lang", "sort", "ping"})
COMMANDS = tuple(
    name for name, spec in SERVER_COMMANDS.items() if not spec.admins and name not in _NOT_TYPED
)


def candidates(
    prefix: str,
    legal: tuple[str, ...] | list[str],
    lang: Lang = Lang.EN,
    words: Mapping[str, str] = NO_WORDS,
) -> list[str]:
    """The legal calls, then the commands, that start with ``prefix`` (any case); typed
    in Cyrillic, the calls as a Russian player says them ('Т' completes to 'Т♠', 'пи'
    to 'пишет': the server reads them so), which no command is. In Russian (``lang``)
    the calls as a Russian player says them first ('' completes to 'пас', '10' to
    '10♠'), then their tokens a Latin ``prefix`` starts ('pa': 'pas'). ``words``: the
    table's own (Tertz's «марьяж», «ломаю 6»); in English a call the table words
    itself as its prompt says it (Tertz's 'mariage', 'ot chego?': the server reads
    them there), then its token ('bella')."""
    folded = prefix.casefold()
    said = [ru_call(call, words) for call in legal]
    if CYRILLIC.search(folded):  # (Tab completed none: a tryout, s29)
        return [s for s in said if s.casefold().startswith(folded)]
    if lang == Lang.EN:  # (a whole Tertz match: 'o' and Tab did not give 'ot chego?')
        own = words.en if isinstance(words, TableWords) else {}
        said = [own.get(call, call) for call in legal]
    found = [s for s in said if s.casefold().startswith(folded)]
    found += [c for c in legal if folded and c.casefold().startswith(folded) and c not in found]
    if " " not in prefix:
        found += sorted(c for c in COMMANDS if c.startswith(folded) and c not in found)
    return found


def token_of(
    line: str, legal: tuple[str, ...] | list[str], words: Mapping[str, str] = NO_WORDS
) -> str:
    """``line`` as it goes to the server: a legal call typed as the Russian prompt shows
    it ('Т♠', 'от туза') as its token ('As', 'ot-A'); the machine style reads a Cyrillic
    Т as the ten or the ace and asks which when both may be played (docs/protocol.md
    §8.1), though the screen wrote the ace so. Anything else as typed (the server reads
    it, in either language)."""
    typed = " ".join(line.split()).casefold()
    for call in legal:
        if ru_call(call, words).casefold() == typed:
            return call
    return line


# the server's explanations: the machine style sends them in English unless the request
# asks a language (docs/protocol.md §4.4, §5.9: 'help lang=ru'); not in its catalogue,
# they cannot be read back (read_back.py), so they are asked in the screen's language
EXPLAINED = frozenset({"help", "calls", "rules"})


def asked_in(line: str, lang: Lang) -> str:
    """``line`` as it goes to the server: 'help', 'calls' or 'rules' asked in ``lang``
    (Russian: 'help sit lang=ru'); one that names a language, and any other line, as
    typed."""
    words = line.split()
    if lang == Lang.EN or not words or command_word(words[0]) not in EXPLAINED:
        return line
    if any(word.lower().startswith("lang=") for word in words[1:]):
        return line
    return f"{line} lang={lang}"


@attrs.define
class History:
    """Lines typed, oldest first; ``back``/``forward`` walk it like a shell's."""

    lines: list[str] = attrs.Factory(list)
    limit: int = 200
    _at: int = 0

    def add(self, line: str) -> None:
        words = line.split()
        if len(words) > 2 and command_word(words[0]) in SECRET_COMMANDS:  # (or «пароль»)
            self._at = len(self.lines)  # a password is not kept to be walked back to
            return
        if line and (not self.lines or self.lines[-1] != line):
            self.lines.append(line)
            del self.lines[: -self.limit]
        self._at = len(self.lines)

    def back(self) -> str | None:
        if not self.lines:
            return None
        self._at = max(0, self._at - 1)
        return self.lines[self._at]

    def forward(self) -> str:
        self._at = min(len(self.lines), self._at + 1)
        return self.lines[self._at] if self._at < len(self.lines) else ""
