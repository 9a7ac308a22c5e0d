"""The client's own words in English and Russian (``deberc-net play --lang ru``,
docs/play.md "Language"): one catalogue, a text's key to its two templates, as the
server's is (protocol/messages.py).

What the server says is not written here again: its sentences come in the machine
style's English and are read back into Russian by its catalogue (protocol/read_back.py);
calls and cards are said by protocol/lang.py (``ru_call``), a deal's outcome and a
match's end by its words (``RU_OUTCOMES``, ``RU_MATCH_REASONS``, render_ru's forfeits).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from deberc_net.protocol.lang import UKRAINIAN, Lang


class T(StrEnum):
    # the table pane
    LOBBY = "lobby"
    NOT_LOGGED_IN = "not-logged-in"
    LOBBY_SEEK = "lobby-seek"
    LOBBY_MORE = "lobby-more"
    LOBBY_NEW = "lobby-new"
    LOBBY_UNSEEK = "lobby-unseek"
    TABLE_DEAL = "table-deal"
    DEALER_TARGET = "dealer-target"
    TURNED = "turned"
    TURNED_TALON = "turned-talon"
    PLAYS = "plays"
    TALK = "talk"
    TRICK = "trick"
    LAST = "last"
    LAST_UNSEEN = "last-unseen"
    THEIRS = "theirs"
    SHOWN = "shown"
    TURN_YOU = "turn-you"
    TURN_YOU_LAST = "turn-you-last"
    TURN = "turn"
    TURN_WAITING = "turn-waiting"
    TURN_WAITING_BOT = "turn-waiting-bot"
    SECONDS = "seconds"
    FREE = "free"
    WAITING = "waiting"
    VERSUS = "versus"
    SEAT = "seat"
    # the other panes
    HAND = "hand"
    YOUR_CALL = "your-call"
    SCORE = "score"
    SCORE_DEAL = "score-deal"
    SCORE_TOTAL = "score-total"
    SCORE_TRICKS = "score-tricks"
    SCORE_FREE = "score-free"
    SCORE_SEAT = "score-seat"
    MORE_BELOW = "more-below"
    NOT_LOGGED = "not-logged"
    TOKEN = "token"
    PLACEHOLDER = "placeholder"
    # the log: the table's events
    SITS = "sits"
    LEAVES = "leaves"
    STARTS = "starts"
    DEALS = "deals"
    CALLED = "called"
    ROUND_TWO = "round-two"
    OTHER_SUIT = "other-suit"
    ANOTHER_SUIT = "another-suit"
    PLAYS_CARD = "plays-card"
    TAKES = "takes"
    ORDERS = "orders"
    SHOWS = "shows"
    SHOWS_NOW = "shows-now"
    PENALTY = "penalty"
    DEAL_END = "deal-end"
    WON_BY = "won-by"
    IS_AWAY = "is-away"
    WATCHES = "watches"
    STOPS_WATCHING = "stops-watching"
    WATCHING = "watching"
    NOBODY_WATCHING = "nobody-watching"
    IS_BACK = "is-back"
    BY_THE_CLOCK = "by-the-clock"
    LAST_TIMEOUT = "last-timeout"
    GAME_OVER = "game-over"
    NO_RESULT = "no-result"
    WINS = "wins"
    WITH_TOTAL = "with-total"
    WIN = "win"
    AND = "and"
    DRAW = "draw"
    FORFEIT = "forfeit"
    MATCH = "match"
    LAST_TRICK = "last-trick"
    # the log: replies and notices
    SAID_AT_TABLE = "said-at-table"
    SAID_TO_WATCHERS = "said-to-watchers"
    ADMIN = "admin"
    BANNED = "banned"
    BANNED_BY = "banned-by"
    BANNED_ADDRESSES = "banned-addresses"
    ADDRESS_BANNED_BY = "address-banned-by"
    MUTED = "muted"
    MUTED_BY = "muted-by"
    HERE = "here"
    NOBODY = "nobody"
    TABLES_LISTED = "tables-listed"
    ONE_TABLE_LISTED = "one-table-listed"
    TABLE_LINE = "table-line"
    PRIVATE_TABLE = "private-table"
    REFUSED = "refused"
    MEANT_CALL = "meant-call"
    MEANT_COMMAND = "meant-command"
    UNREADABLE_LINE = "unreadable-line"
    UNREADABLE_REPLY = "unreadable-reply"
    MATCH_OVER_LOBBY = "match-over-lobby"
    CONNECTED_AGAIN = "connected-again"
    BANNER = "banner"
    LANG_AT_START = "lang-at-start"
    SEAT_BACK = "seat-back"
    NOT_KEPT_WHY = "not-kept-why"
    NOT_KEPT_UNSAID = "not-kept-unsaid"
    NO_LONGER_WATCHING = "no-longer-watching"
    KEEPS_OUR_TABLE = "keeps-our-table"
    OK = "ok"
    NOT_CONNECTED = "not-connected"
    # the link's notices
    CANNOT_CONNECT = "cannot-connect"
    TRYING_AGAIN_LOST = "trying-again-lost"
    TRYING_AGAIN_NOT_YET = "trying-again-not-yet"
    UNREACHABLE = "unreachable"
    NO_PROXY_HEADER = "no-proxy-header"
    AFTER_BYE = "after-bye"
    DISCONNECTED = "disconnected"
    LINE_NOT_SENT = "line-not-sent"
    LINES_NOT_SENT = "lines-not-sent"
    TOO_MANY_LINES = "too-many-lines"
    # the keys
    KEY_HELP = "key-help"
    KEY_STATE = "key-state"
    KEY_TABLES = "key-tables"
    KEY_WHO = "key-who"
    KEY_SEEK = "key-seek"
    KEY_BREAK = "key-break"
    KEY_QUIT = "key-quit"
    KEY_RECONNECT = "key-reconnect"


# key: (English, Russian). The English is what the client said before it had Russian.
TEXTS: dict[T, tuple[str, str]] = {
    T.LOBBY: ("In the lobby.", "Вы в лобби."),
    T.NOT_LOGGED_IN: ("Not logged in: 'login NAME'.", "Вход: login ИМЯ."),
    # what 'seek' and 'new' take: the players first, 2, 3 or 4 (docs/protocol.md §5.5);
    # 'new 2' bare, the plainest table (a club newcomer puzzled over 'new 4 to-301'):
    # the waiting table then says how a house bot comes (TURN_WAITING_BOT); in Russian
    # no line begins with a dash (it stays with the word before it)
    T.LOBBY_SEEK: (
        "'seek 2' waits for a two-player game, 'seek 3'",
        "seek 2 — ждать партию на двоих, seek 3 и seek 4 —",
    ),
    T.LOBBY_MORE: (
        "or 'seek 4' for 3 or 4 players; 'new 2'",
        "на троих и на четверых; new 2 — открыть стол;",
    ),
    T.LOBBY_NEW: (
        "opens a table; 'tables' lists them, 'sit N' sits.",
        "tables — столы, sit N — сесть.",
    ),
    # while a seek waits (its own words above it): how to stop, and the other ways on
    T.LOBBY_UNSEEK: (
        "'unseek' stops waiting; 'tables' lists the tables.",
        "unseek — перестать ждать; tables — столы.",
    ),
    T.TABLE_DEAL: ("Table {table}, deal {deal}: {seats}", "Стол {table}, раздача {deal}: {seats}"),
    T.DEALER_TARGET: ("Dealer: {name}   Target: {target}", "Сдаёт: {name}   Игра до: {target}"),
    T.TURNED: (
        "Turned: {turned}   Fresa: {fresa}   Trump: {trump}",
        # two spaces, not the English three: its labels are longer, and a player's
        # name after them was cut off the pane's 51 columns
        "Открыта: {turned}  Фреза: {fresa}  Козырь: {trump}",
    ),
    T.TURNED_TALON: (
        "Turned: {turned}   Talon: {talon}   Trump: {trump}",
        "Открыта: {turned}   В колоде: {talon}   Козырь: {trump}",
    ),
    T.PLAYS: (" ({name} plays)", " (играет {name})"),
    T.TALK: ("Talk:   ", "Разговор: "),
    T.TRICK: ("Trick:  {laid}", "Взятка: {laid}"),
    T.LAST: ("Last:   {laid}", "Прошлая: {laid}"),
    T.LAST_UNSEEN: (
        "Last:   {laid} (who laid each: not seen)",
        "Прошлая: {laid} (кто что положил — не видно)",
    ),
    T.SHOWN: ("Shown:  {shown}", "Открыты: {shown}"),
    T.THEIRS: ("Theirs: {cards}", "У соперника: {cards}"),
    T.TURN_YOU: ("Turn:   YOU ({name}), {clock} left", "Ход:    ВАШ ({name}), осталось {clock}"),
    # an ask whose clock running out forfeits the game (last_timeout=, docs/protocol.md
    # §6.3): short, to fit the pane; the log's line (LAST_TIMEOUT) says it whole
    T.TURN_YOU_LAST: (
        "Turn:   YOU ({name}), {clock} left (last chance)",
        "Ход:    ВАШ ({name}), осталось {clock} (последний шанс)",
    ),
    T.TURN: ("Turn:   {name}", "Ход:    {name}"),
    # a table waiting for players: how many, and (seated) how to have a house bot come
    # (a newcomer alone at 'new 2' read 'Turn: -' and waited; docs/play.md)
    T.TURN_WAITING: ("Waiting for players: {count} more.", "Ждём игроков: ещё {count}."),
    T.TURN_WAITING_BOT: (
        "Waiting for {count} more; 'bot heuristic' seats a bot.",
        "Ждём игроков: ещё {count}; bot heuristic — бот сервера.",
    ),
    T.SECONDS: ("{seconds} s", "{seconds} с"),
    T.FREE: ("(free)", "(свободно)"),
    T.WAITING: ("(waiting)", "(ждём игроков)"),
    T.VERSUS: (" v ", " — "),
    T.SEAT: ("seat {seat}", "место {seat}"),
    T.HAND: ("Hand:   ", "Рука:   "),
    T.YOUR_CALL: ("Your call: ", "Ваш ход: "),
    T.SCORE: ("Score", "Счёт"),
    T.SCORE_DEAL: ("Deal ", "Разд "),
    T.SCORE_TOTAL: ("Tot  ", "Итог "),
    T.SCORE_TRICKS: ("Trk  ", "Взят "),
    T.SCORE_FREE: ("free", "своб"),
    T.SCORE_SEAT: ("seat{seat}", "место{seat}"),
    T.MORE_BELOW: ("-- {count} more lines below: PgDn --", "-- ниже ещё строк: {count}, PgDn --"),
    T.NOT_LOGGED: ("not logged in", "вход не выполнен"),
    T.TOKEN: ("  token {token}", "  код {token}"),
    T.PLACEHOLDER: (
        "a call or a command (Tab completes)",
        "ход или команда (Tab дополняет)",
    ),
    T.SITS: ("{name} sits at seat {seat}", "{name} садится на место {seat}"),
    T.LEAVES: ("{name} leaves seat {seat}", "{name} встаёт с места {seat}"),
    T.STARTS: ("the game starts: {sides}", "партия начинается: {sides}"),
    T.DEALS: ("deal {deal}: {name} deals", "раздача {deal}: сдаёт {name}"),
    T.CALLED: ("{name}: {call}{clock}", "{name}: {call}{clock}"),
    T.ROUND_TWO: (
        "all passed: round two of the bidding ({other})",
        "все спасовали: второй круг торговли ({other})",
    ),
    T.OTHER_SUIT: ("a suit other than {suit}", "любая масть, кроме {suit}"),
    T.ANOTHER_SUIT: ("another suit", "другая масть"),
    T.PLAYS_CARD: ("{name} plays {cards}{clock}", "{name} ходит {cards}{clock}"),
    T.TAKES: ("{name} takes {cards}", "{name} берёт {cards}"),
    T.ORDERS: ("{name} plays, trump {suit}", "{name} играет, козырь {suit}"),
    T.SHOWS: ("{name} shows {cards}", "{name} показывает {cards}"),
    # a show that adds to the seat's earlier one (Tertz: a terts grown to a fifty)
    T.SHOWS_NOW: (
        "{name} shows {cards} (face up now: {now})",
        "{name} показывает {cards} (теперь открыты: {now})",
    ),
    T.PENALTY: ("{name}: penalty ({code})", "{name}: штраф ({code})"),
    T.DEAL_END: (
        "deal {deal} {how}: written {written}, totals {totals}",
        "раздача {deal}: {how}, записано {written}, итого {totals}",
    ),
    # what is said of a player fits a woman as well as a man (docs/protocol.md §4.3c): no
    # «выиграл», «взял», «закрыл»; the server's own words (its «победитель —»)
    T.WON_BY: ("won by {name}", "победитель — {name}"),
    T.IS_AWAY: ("{name} is away", "{name}: нет связи"),
    # as the human style tells the players who looks on (docs/protocol.md §5.7)
    T.WATCHES: ("{name} watches the table ({now})", "{name} смотрит за столом ({now})"),
    T.STOPS_WATCHING: ("{name} stops watching ({now})", "{name} больше не смотрит ({now})"),
    T.WATCHING: ("{count} watching", "зрителей: {count}"),
    T.NOBODY_WATCHING: ("nobody watching", "зрителей нет"),
    T.IS_BACK: ("{name} is back", "{name} снова на связи"),
    T.BY_THE_CLOCK: (" (by the clock)", " (по часам)"),
    T.LAST_TIMEOUT: (
        "If your clock runs out now, the game is lost ({count} timeouts in a row).",
        "Если ваше время выйдет и сейчас, партия проиграна (пропусков подряд: {count}).",
    ),
    T.GAME_OVER: (
        "Game over: {verdict} ({why}), totals {totals}",
        "Партия окончена: {verdict} ({why}), итого {totals}",
    ),
    T.NO_RESULT: ("no result, the table failed", "без результата, сбой стола"),
    T.WINS: ("{names} wins", "{names} выигрывает"),
    T.WIN: ("{names} win", "{names} выигрывают"),
    # the winner's own total by his name, as the bots' match line says it: the totals
    # after it are by side, side 0 first, and do not say which is his (s43's leftover)
    T.WITH_TOTAL: (" with {total}", ", набрав {total}"),
    T.AND: (" and ", " и "),
    T.DRAW: ("a draw", "ничья"),
    T.FORFEIT: ("{why}: {name}", "{why}: {name}"),
    T.MATCH: ("{result}, match {match}", "{result}, партия {match}"),
    T.LAST_TRICK: (
        "last trick (deal {deal}): {laid}; {name} took it",
        "прошлая взятка (раздача {deal}): {laid}; взятку берёт {name}",
    ),
    T.SAID_AT_TABLE: (" (table)", " (за столом)"),
    T.SAID_TO_WATCHERS: (" (watchers)", " (зрители)"),
    T.ADMIN: ("*** {name} (admin): {text}", "*** {name} (администратор): {text}"),
    T.BANNED: ("banned names: {count}", "закрытых имён: {count}"),
    T.BANNED_BY: ("  {name} by {by}{why}", "  {name}: {by}{why}"),
    T.BANNED_ADDRESSES: (
        "banned names: {count}, addresses: {addresses}",
        "закрытых имён: {count}, адресов: {addresses}",
    ),
    T.ADDRESS_BANNED_BY: (
        "  {address} by {by}, {left} more min{why}",
        "  {address}: {by}, ещё {left} мин{why}",
    ),
    T.MUTED: ("muted names: {count}", "лишены слова: {count}"),
    T.MUTED_BY: (
        "  {name} by {by}, {left} more min{why}",
        "  {name}: {by}, ещё {left} мин{why}",
    ),
    T.HERE: ("here: {names}", "здесь: {names}"),
    T.NOBODY: ("nobody", "никого"),
    # the tables 'tables' lists: the public ones and the private ones the player sits at
    # or is invited to (not «открытых»: a private table is «закрытый», as the server says)
    T.TABLES_LISTED: ("{count} tables", "столов: {count}"),
    T.ONE_TABLE_LISTED: ("1 table", "столов: 1"),
    T.TABLE_LINE: (
        "table {table}{private}: {variant} {options} [{seats}] {state}",
        "стол {table}{private}: {variant} {options} [{seats}] {state}",
    ),
    T.PRIVATE_TABLE: (" (private)", " (закрытый)"),
    T.REFUSED: ("! {text}", "! {text}"),
    T.MEANT_CALL: (" Did you mean {call}?", " Может быть, «{call}»?"),
    T.MEANT_COMMAND: (" Did you mean '{command}'?", " Может быть, {command}?"),
    T.UNREADABLE_LINE: ("(unreadable line: {error})", "(непонятная строка: {error})"),
    T.UNREADABLE_REPLY: ("(unreadable reply: {error})", "(непонятный ответ: {error})"),
    T.MATCH_OVER_LOBBY: (
        "The match at table {table} is over: you are in the lobby.",
        "Партия за столом {table} окончена: вы в лобби.",
    ),
    T.CONNECTED_AGAIN: ("Connected again.", "Связь восстановлена."),
    # the server's banner (docs/protocol.md §4.1), as a Russian screen says it; the
    # English screen shows the server's own two lines
    T.BANNER: (
        "deberc-net {version} (protocol {protocol}) — Deberts for people and bots.",
        "deberc-net {version} (протокол {protocol}) — деберц для людей и ботов.",
    ),
    # 'lang ru' typed at the English screen (or 'lang en' at the Russian): said in the
    # language asked, since the screen's is chosen at start; the server's 'lang' sets
    # its human style, which the client's machine lines never read
    T.LANG_AT_START: (
        "This screen's language is chosen when the client starts: deberc-net play --lang en"
        " (without --lang: the locale's).",
        "Язык этого экрана выбирается при запуске клиента: deberc-net play --lang ru (без"
        " --lang — по локали: LANG=ru_RU.UTF-8).",
    ),
    T.SEAT_BACK: (
        "Connected again: your seat at table {table} is back.",
        "Связь восстановлена: вы снова на своём месте за столом {table}.",
    ),
    T.NOT_KEPT_WHY: (
        "Connected again, but your seat at table {table} was not kept (the server says why below).",
        "Связь восстановлена, но место за столом {table} не сохранилось (почему — ниже,"
        " слова сервера).",
    ),
    T.NOT_KEPT_UNSAID: (
        "Connected again, but your seat at table {table} was not kept: the server holds"
        " none of yours now (a restarted server keeps no seats).",
        "Связь восстановлена, но место за столом {table} не сохранилось: у сервера нет"
        " ваших мест (перезапущенный сервер мест не хранит).",
    ),
    T.NO_LONGER_WATCHING: (
        "No longer watching table {table} ('observe {table}').",
        "Вы больше не смотрите за столом {table} (observe {table}).",
    ),
    T.KEEPS_OUR_TABLE: (
        "(the screen keeps your own table while its game runs: 'leave' it first)",
        "(на экране остаётся ваш стол, пока идёт партия: сначала leave)",
    ),
    T.OK: ("ok {command}", "ok {command}"),
    T.NOT_CONNECTED: (
        "not connected: Ctrl+R connects again, F10 or 'quit' leaves",
        "нет связи: Ctrl+R — подключиться снова, F10 или quit — выйти",
    ),
    T.CANNOT_CONNECT: (
        "cannot connect to {address}: {why}",
        "не удаётся подключиться к {address}: {why}",
    ),
    T.TRYING_AGAIN_LOST: (
        "connection lost: trying again in {pause} s (attempt {attempt})",
        "связь потеряна: новая попытка через {pause} с (попытка {attempt})",
    ),
    T.TRYING_AGAIN_NOT_YET: (
        "no connection yet: trying again in {pause} s (attempt {attempt})",
        "связи ещё нет: новая попытка через {pause} с (попытка {attempt})",
    ),
    T.UNREACHABLE: (
        "the server cannot be reached (tried {attempts} times in {seconds} s): Ctrl+R"
        " tries again, F10 or 'quit' leaves",
        "сервер недоступен (попыток: {attempts} за {seconds} с): Ctrl+R — попробовать"
        " снова, F10 или quit — выйти",
    ),
    T.NO_PROXY_HEADER: (
        "the server refuses connections from this address without a proxy's header (you"
        " dialed the port behind its proxy, or the proxy sends none): Ctrl+R tries again,"
        " F10 or 'quit' leaves",
        "сервер не принимает соединения с этого адреса без заголовка прокси (вы набрали"
        " порт за его прокси, или прокси его не шлёт): Ctrl+R — попробовать снова, F10"
        " или quit — выйти",
    ),
    T.AFTER_BYE: (
        "Ctrl+R connects again; F10 or 'quit' leaves",
        "Ctrl+R — подключиться снова; F10 или quit — выйти",
    ),
    T.DISCONNECTED: ("disconnected", "соединение закрыто"),
    T.LINE_NOT_SENT: ("not connected: a line typed not sent", "нет связи: строка не отправлена"),
    T.LINES_NOT_SENT: (
        "not connected: {count} lines typed not sent",
        "нет связи: не отправлено строк: {count}",
    ),
    T.TOO_MANY_LINES: (
        "the server sends more lines than the screen can show: the connection is dropped",
        "сервер шлёт больше строк, чем экран успевает показать: соединение разорвано",
    ),
    # the footer's words: the nine keys of a Deberts table fit 80 columns whole with
    # at most 43 letters in all (English 41, Russian 41; English: the command sent, F7 its
    # first word: it seeks the game last played)
    T.KEY_HELP: ("help", "помощь"),
    T.KEY_STATE: ("state", "стол"),
    T.KEY_TABLES: ("tables", "столы"),
    T.KEY_WHO: ("who", "кто"),
    T.KEY_SEEK: ("seek", "ждать"),  # (the game last played, else 'seek 2')
    T.KEY_BREAK: ("break", "ломаю"),
    T.KEY_QUIT: ("quit", "выход"),
    T.KEY_RECONNECT: ("redial", "связь"),
}


def say(key: T, lang: Lang, **values: Any) -> str:
    """The text of ``key`` in ``lang``, its ``{values}`` filled in."""
    english, russian = TEXTS[key]
    return (russian if lang == Lang.RU else english).format(**values)


# the locales whose speakers get Russian by default: Russian, and Ukrainian (the
# server has no Ukrainian lines; a Ukrainian player reads Russian: docs/play.ru.md)
RUSSIAN_LOCALES = frozenset({"ru", *UKRAINIAN})


def lang_from(environ: Mapping[str, str]) -> Lang:
    """The client's language by the environment, as a C library reads the locale:
    ``LC_ALL``, else ``LC_MESSAGES``, else ``LANG`` (the first one set); Russian when it
    names a Russian or Ukrainian locale (``ru_RU.UTF-8``, ``uk_UA.UTF-8``)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            language = value.split(".")[0].split("_")[0].split("@")[0].lower()
            return Lang.RU if language in RUSSIAN_LOCALES else Lang.EN
    return Lang.EN


def lang_of(option: str | None, environ: Mapping[str, str] | None = None) -> Lang:
    """``--lang`` given (``en`` or ``ru``), else the environment's (``lang_from``)."""
    if option is not None:
        return Lang(option)
    return lang_from(os.environ if environ is None else environ)
