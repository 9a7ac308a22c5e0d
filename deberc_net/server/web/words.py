"""The pages' words in English and Russian (docs/web.md, "Languages"): one catalogue,
a page word to its two texts, as protocol/messages.py is the human style's.

What the pages say as the table says it is not written here again: the reasons a
match ended (protocol/ends.py, lang.RU_MATCH_REASONS, render_ru.RU_FORFEITS), the deals'
outcomes (lang.RU_OUTCOMES), a table's state and a seat's marks (messages.MESSAGES),
the calls as spoken (lang.spoken_call, lang.ru_call) and the cards' ranks (lang.RU_RANKS).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

import attrs
from markupsafe import Markup

from deberc_net.game.calls import DECLARATIONS, IGRAYU, OT
from deberc_net.game.cards import RANKS, SUITS
from deberc_net.ladder.report import BY_NAME, FIGURE_WORDS
from deberc_net.ladder.run_stop import RunStop, StopKind
from deberc_net.protocol.ends import end_words
from deberc_net.protocol.events import TableState
from deberc_net.protocol.lang import (
    NO_WORDS,
    RU_CALLS,
    RU_MATCH_REASONS,
    RU_OUTCOMES,
    RU_RANKS,
    Lang,
    outcome_said,
    ru_call,
    spoken_call,
)
from deberc_net.protocol.messages import MESSAGES, Msg, phrase
from deberc_net.protocol.render import deal_word
from deberc_net.protocol.render_ru import RU_FORFEITS

from .ladder_words import ru_clock_call, ru_first_fault


class W(StrEnum):
    """A page word; its value is how a template names it (``w("open-tables")``)."""

    LANG_NAME = "lang-name"  # the switch link's words: the other language's own name
    TABLES = "tables"
    LADDERS = "ladders"
    OPEN_TABLES = "open-tables"
    TABLE = "table"
    PLAYERS = "players"
    VARIANT = "variant"
    OPTIONS = "options"
    STATE = "state"
    DEAL = "deal"
    SCORE = "score"
    WATCHING = "watching"
    NO_TABLE_OPEN = "no-table-open"  # then ' <code>new</code>.'
    TABLE_N = "table-n"
    AWAY_HELD = "away-held"
    THEN_FORFEITED = "then-forfeited"
    DEAL_N = "deal-n"
    TURNED_AFTER = "turned-after"  # ' · turned ' before the card
    WAITING_FOR = "waiting-for"
    WAITING_FOR_PLAYERS = "waiting-for-players"
    TALON_N = "talon-n"
    TRUMP = "trump"  # 'Trump ' before the suit
    FRESA = "fresa"  # 'Fresa ' before the talon's face-up bottom card
    TO_ACT = "to-act"  # a seat's mark, the seat the table waits for: its accessible name
    IN_HAND = "in-hand"  # a seat's face-down hand: its accessible name, the cards' count
    TALK = "talk"
    DEALS = "deals"
    OUTCOME = "outcome"
    WRITTEN = "written"
    TOTALS = "totals"
    NOSCRIPT = "noscript"
    MATCH_N = "match-n"
    AND = "and"
    FINAL_SCORE = "final-score"
    NOT_FINISHED = "not-finished"
    NO_DEALS = "no-deals"
    DEALER = "dealer"
    TURNED = "turned"
    ORDERED_BY = "ordered-by"
    OUTCOME_IS = "outcome-is"
    WRITTEN_IS = "written-is"
    TOTALS_IS = "totals-is"
    TALK_IS = "talk-is"
    HANGS = "hangs"
    HANGS_SEPARATE = "hangs-separate"
    HANGS_THEN = "hangs-then"
    AT_TRICK = "at-trick"
    BY_CLOCK = "by-clock"
    UNFINISHED = "unfinished"
    BREAKS = "breaks"
    SWAPS = "swaps"
    DRAWS = "draws"
    TALON_LEFT = "talon-left"
    TALON = "talon"
    SHOWS = "shows"
    PENALTY = "penalty"
    NOT_FOUND = "not-found"
    NO_OPEN_TABLE = "no-open-table"
    CLOSED_LAST_MATCH = "closed-last-match"
    NO_FINISHED_MATCH = "no-finished-match"
    NO_MATCH_OF = "no-match-of"
    NO_MATCH_YET = "no-match-yet"  # a player seated at an open table: his first match
    PLAYING_AT = "playing-at"
    NO_LADDER_RUN = "no-ladder-run"
    NO_PAGE = "no-page"
    BAD_PAGE = "bad-page"  # a 400: ?page= past a list's pages, or not a number
    BAD_REQUEST = "bad-request"  # its heading
    NOT_ALLOWED = "not-allowed"  # a plain-text 405 (HTTP's reason phrase in English)
    INTERNAL_ERROR = "internal-error"  # a plain-text 500
    TOO_MANY_REQUESTS = "too-many-requests"  # a plain-text 429 (request_limit.py)
    # a connection refused before it is served (connection_limit.py): 429, 503
    TOO_MANY_CONNECTIONS = "too-many-connections"
    CONNECTIONS_FULL = "connections-full"
    TOO_MANY_FIELDS = "too-many-fields"  # a plain-text 400 (request_fields.py)
    OVER_ONE = "over-one"
    OVER_SIDE = "over-side"
    OVER_DRAW = "over-draw"
    OVER_NONE = "over-none"
    # the live page's script (table.js, its English written there too: ``SCRIPT``)
    AWAY_A_WHILE = "away-a-while"
    REPLAY_IT = "replay-it"
    NO_LONGER_LIVE = "no-longer-live"
    GONE_OVER = "gone-over"
    GONE_REFUSED = "gone-refused"
    GONE_CLOSED = "gone-closed"
    GONE_UNREACHABLE = "gone-unreachable"
    GONE_NOT_FINISHED = "gone-not-finished"
    STOPPED_WHILE = "stopped-while"
    # the live page while the match's rematch is on offer, and after (table.js)
    REMATCH_OFFER = "rematch-offer"
    REMATCH_AT = "rematch-at"
    WATCH_IT = "watch-it"
    NO_REMATCH = "no-rematch"
    # what hangs now, as a deal's start tells its players ('Hanging: 82.'), and a
    # finished deal's sheet note ('hanging 82'); a short game's deal by its winner
    HANGING_NOW = "hanging-now"
    HANGING_NOW_AFTER = "hanging-now-after"
    DEAL_HANGING = "deal-hanging"
    WON_BY = "won-by"
    # a player's page (/players/NAME)
    PLAYER_TITLE = "player-title"  # its <title>: what the page is, not the bare name
    TALLY_WON = "tally-won"
    TALLY_LOST = "tally-lost"
    TALLY_DRAWN = "tally-drawn"
    TALLY_STOPPED = "tally-stopped"
    TALLY_ABORTED = "tally-aborted"
    GUEST_NAME = "guest-name"
    IN_LAST_MATCH = "in-last-match"
    IN_LAST_MATCHES = "in-last-matches"
    RATINGS = "ratings"
    RATING = "rating"
    PLAYER_COUNT = "player-count"  # the column of how many play a variant
    PLACE = "place"  # a rating's place in its standings, as 'finger' says it
    # the standings (/top): 'top' on the game port
    STANDINGS = "standings"
    PLAYER = "player"
    RATED_SHOWN = "rated-shown"  # which of the standings a page shows
    HOW_RATED = "how-rated"  # why a game's standings are empty (guests are not rated)
    OTHER_GAMES = "other-games"
    BAD_GAME = "bad-game"  # a 400: ?variant= or ?players= no game has
    BAD_GAME_COUNT = "bad-game-count"  # a 400: ?players= the variant is not played by
    GAMES = "games"
    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"
    RATING_CAPTION = "rating-caption"
    MATCHES = "matches"
    MATCH = "match"
    FINISHED_UTC = "finished-utc"
    RESULT = "result"
    WHY = "why"
    RESULT_WON = "result-won"
    RESULT_LOST = "result-lost"
    RESULT_DRAWN = "result-drawn"
    RESULT_STOPPED = "result-stopped"
    RESULT_ABORTED = "result-aborted"
    PLOT_RATED_MATCHES = "plot-rated-matches"
    PLOT_RATING = "plot-rating"
    PLOT_RATING_TITLE = "plot-rating-title"
    # the ladders' pages (/ladders, /ladders/N): a ladder run is «турнир»
    NO_LADDERS = "no-ladders"
    WITH_SERVERS_FILE = "with-servers-file"
    LADDER_RATINGS = "ladder-ratings"
    BOT = "bot"
    BY_NAME = "by-name"
    RUNS = "runs"
    RUN = "run"
    STARTED_UTC = "started-utc"
    BOTS = "bots"
    BOARDS = "boards"
    RUN_TOLD_AT_END = "run-told-at-end"
    NO_DECISION = "no-decision"
    NEVER_COUNTED = "never-counted"
    RUN_NOT_FINISHED = "run-not-finished"
    STOP_FAILED = "stop-failed"
    STOP_CANCELLED = "stop-cancelled"
    LADDER_RUN_N = "ladder-run-n"
    STARTED = "started"
    RUN_STOPPED = "run-stopped"
    RUN_STOPPED_NONE = "run-stopped-none"
    RUN_UNFINISHED = "run-unfinished"
    RUN_UNFINISHED_NONE = "run-unfinished-none"
    N_BOARDS = "n-boards"
    SEED = "seed"
    N_GAMES = "n-games"
    PAIRS = "pairs"
    PAIR = "pair"
    W_D_L = "w-d-l"
    ELO_MARGIN = "elo-margin"
    POINTS_MARGIN = "points-margin"
    DUPLICATE_SETS = "duplicate-sets"
    N_VOID = "n-void"
    ELO_PLOT = "elo-plot"
    ELO_CAPTION = "elo-caption"
    ELO_CAPTION_SPRT = "elo-caption-sprt"
    ELO_CAPTION_EDGE = "elo-caption-edge"
    RUN_RATINGS = "run-ratings"
    CARRIED_OVER = "carried-over"
    SPRT_LINE = "sprt-line"
    BOT_FAULTS = "bot-faults"  # the run's bots' faults and the clock's calls for them
    FALLBACKS = "fallbacks"
    BOT_ERRORS = "bot-errors"
    FIRST_FAULT = "first-fault"
    CLOCK_CALLS = "clock-calls"
    FIRST_CLOCK_CALL = "first-clock-call"
    BOT_FAULTS_NOTE = "bot-faults-note"
    CLOCK_CALLS_MISSING = "clock-calls-missing"
    RECONNECTS = "reconnects"
    FORFEITS = "forfeits"
    CRASHES = "crashes"
    # the runs' list: each run's faults in one cell (docs/web.md), a count of each kind
    RUN_FAULTS = "run-faults"
    NO_FAULTS = "no-faults"
    N_FORFEITS = "n-forfeits"
    N_CRASHES = "n-crashes"
    N_FALLBACKS = "n-fallbacks"
    N_BOT_ERRORS = "n-bot-errors"
    N_CLOCK_CALLS = "n-clock-calls"
    N_RECONNECTS = "n-reconnects"
    CLOCK_NOT_COUNTED = "clock-not-counted"
    GAMES_LIST = "games-list"
    GAMES_SHOWN = "games-shown"  # which of a list's games a page shows
    PAGE_PREV = "page-prev"
    PAGE_NEXT = "page-next"
    BOARD = "board"
    SEATING = "seating"
    WHY_ENDED = "why-ended"
    EVERY_WON = "every-won"
    EVERY_LOST = "every-lost"
    FEW_DEALS = "few-deals"
    FEW_SETS = "few-sets"
    NO_POINTS = "no-points"
    AFTER_ONE = "after-one"
    AFTER_MANY = "after-many"
    VERDICT_FOR = "verdict-h1"  # the SPRT's H1
    VERDICT_AGAINST = "verdict-h0"  # its H0
    PLOT_ELO_X = "plot-elo-x"
    PLOT_ELO_Y = "plot-elo-y"
    PLOT_ELO_TITLE = "plot-elo-title"


WORDS: dict[W, tuple[str, str]] = {
    W.LANG_NAME: ("English", "Русский"),
    W.TABLES: ("Tables", "Столы"),
    W.LADDERS: ("Ladders", "Турниры ботов"),
    W.OPEN_TABLES: ("Open tables", "Открытые столы"),
    W.TABLE: ("Table", "Стол"),
    W.PLAYERS: ("Players", "Игроки"),
    W.VARIANT: ("Variant", "Вариант"),
    W.OPTIONS: ("Options", "Опции"),
    W.STATE: ("State", "Состояние"),
    W.DEAL: ("Deal", "Раздача"),
    W.SCORE: ("Score", "Счёт"),
    W.WATCHING: ("Watching", "Зрители"),
    W.NO_TABLE_OPEN: (
        "No table is open. Connect a client and type",
        "Открытых столов нет. Подключитесь клиентом и наберите",
    ),
    W.TABLE_N: ("Table {table}", "Стол {table}"),
    W.AWAY_HELD: (
        "away: the seat is held {seconds} s more",
        "нет связи: место ждёт ещё {seconds} с",
    ),
    W.THEN_FORFEITED: (", then the match is forfeited", ", потом партия проиграна"),
    W.DEAL_N: ("Deal {deal}", "Раздача {deal}"),
    W.TURNED_AFTER: (" · turned ", " · открыта "),
    W.WAITING_FOR: ("Waiting for {names} to come back", "Ждём возвращения: {names}"),
    W.WAITING_FOR_PLAYERS: ("Waiting for players", "Ждём игроков"),
    W.TALON_N: ("Talon {talon}", "В колоде {talon}"),
    W.TRUMP: ("Trump ", "Козырь "),
    W.FRESA: ("Fresa ", "Фреза "),
    W.TO_ACT: ("to act", "ходит"),
    W.IN_HAND: ("cards in hand: {cards}", "карт на руке: {cards}"),
    W.TALK: ("Talk", "Разговор"),
    W.DEALS: ("Deals", "Раздачи"),
    W.OUTCOME: ("Outcome", "Исход"),
    W.WRITTEN: ("Written", "Записано"),
    W.TOTALS: ("Totals", "Итого"),
    W.NOSCRIPT: (
        "Reload the page to see the table now: live updates need JavaScript.",
        "Обновите страницу, чтобы увидеть стол сейчас: живой показ требует JavaScript.",
    ),
    W.MATCH_N: ("Match {match}", "Партия {match}"),
    W.AND: (" and ", " и "),
    W.FINAL_SCORE: ("Final score", "Итоговый счёт"),
    W.NOT_FINISHED: (
        "not finished: {why} while it ran, after its last stored deal.",
        "не окончена: {why} во время партии, после её последней сохранённой раздачи.",
    ),
    W.NO_DEALS: (
        "No deal was played: the match ended ({why}) before the first call.",
        "Ни одной раздачи: партия кончилась ({why}) раньше первого хода.",
    ),
    W.DEALER: ("Dealer {name}.", "Сдаёт {name}."),
    W.TURNED: ("Turned", "Открыта"),
    W.ORDERED_BY: (", ordered by {name}", ", играет {name}"),
    W.OUTCOME_IS: ("Outcome: {outcome}.", "Исход: {outcome}."),
    W.WRITTEN_IS: ("Written", "Записано"),
    W.TOTALS_IS: ("totals", "итого"),
    W.TALK_IS: ("Talk: ", "Разговор: "),
    # a hanging bide's points, as its deal's end told the table (docs/rules.md §5)
    W.HANGS: ("{hanging} points hang.", "Висит {hanging}."),
    # hanging-separate, after two hanging bides in a row: which deal plays for which sum
    W.HANGS_SEPARATE: (
        "{hanging} points hang for the next deal, {after} for the one after{later}.",
        "Висит {hanging} на следующую раздачу, {after} на раздачу после неё{later}.",
    ),
    W.HANGS_THEN: (", then {points}", ", затем {points}"),
    W.AT_TRICK: (" (trick {trick})", " (взятка {trick})"),  # said after the first trick
    # a call the clock made for a seat (auto=1), as the table said it (protocol §11.2)
    W.BY_CLOCK: (" (by the clock)", " (по часам)"),
    W.UNFINISHED: ("unfinished", "не взята"),
    W.BREAKS: ("{name} breaks the deck: {call}", "{name}: {call}"),
    # the turned card it took follows (a card's markup)
    W.SWAPS: ("{name}: {call}, takes the turned", "{name}: {call}, берёт открытую"),
    W.DRAWS: ("{name} draws", "{name} добирает"),
    W.TALON_LEFT: ("talon", "в колоде"),
    W.TALON: ("Talon", "В колоде"),
    W.SHOWS: ("shows ", "показывает "),
    W.PENALTY: ("penalty: {why}", "штраф: {why}"),
    W.NOT_FOUND: ("Not found", "Не найдено"),
    W.NO_OPEN_TABLE: ("no open table {n}", "нет открытого стола {n}"),
    # a closed public table's page: the link to its last match follows
    W.CLOSED_LAST_MATCH: ("It has closed; its last match:", "Он закрыт; его последняя партия:"),
    W.NO_FINISHED_MATCH: ("no finished match {n}", "нет законченной партии {n}"),
    W.NO_MATCH_OF: ("no finished match of {n}", "нет законченных партий игрока {n}"),
    W.NO_MATCH_YET: ("no finished match of {n} yet", "у игрока {n} ещё нет законченных партий"),
    # the links to his open tables follow
    W.PLAYING_AT: ("Playing now at table", "Сейчас играет за столом"),
    W.NO_LADDER_RUN: ("no ladder run {n}", "нет турнира {n}"),
    W.NO_PAGE: ("no page {n}", "нет страницы {n}"),
    W.BAD_PAGE: (
        "no such page: ?page=N, N from 1 to {pages}",
        "нет такой страницы: ?page=N, N от 1 до {pages}",
    ),
    W.BAD_REQUEST: ("Bad request", "Неверный запрос"),
    W.NOT_ALLOWED: ("Method Not Allowed", "Этот метод здесь не принимается"),
    W.INTERNAL_ERROR: ("Internal Server Error", "Внутренняя ошибка сервера"),
    W.TOO_MANY_REQUESTS: (
        "too many requests from your address: try again in {seconds} s",
        "слишком много запросов с вашего адреса: попробуйте снова через {seconds} с",
    ),
    W.TOO_MANY_CONNECTIONS: (
        "too many connections from your address: close one first",
        "слишком много соединений с вашего адреса: сначала закройте одно из них",
    ),
    W.CONNECTIONS_FULL: (
        "the server holds all the web connections it takes: try again shortly",
        "у сервера заняты все веб-соединения, какие он принимает: попробуйте чуть позже",
    ),
    W.TOO_MANY_FIELDS: (
        "too many fields in the address after '?': a page reads {most} at most",
        "слишком много полей в адресе после «?»: страница читает не больше {most}",
    ),
    # the sentence that ends a match: as the Russian human style says it (render_ru)
    W.OVER_ONE: (
        "Match over: {winners} wins ({why}).",
        "Партия окончена: {winners} выигрывает ({why}).",
    ),
    W.OVER_SIDE: (
        "Match over: {winners} win ({why}).",
        "Партия окончена: {winners} выигрывают ({why}).",
    ),
    W.OVER_DRAW: ("Match over: a draw, {why}.", "Партия окончена: ничья ({why})."),
    W.OVER_NONE: ("Match over: {why}.", "Партия окончена без результата: {why}."),
    W.AWAY_A_WHILE: ("away: the seat is held a while", "нет связи: место пока ждёт"),
    W.REPLAY_IT: ("Replay it", "Смотреть запись"),
    W.NO_LONGER_LIVE: ("No longer live: ", "Показ окончен: "),
    W.GONE_OVER: ("the match is over.", "партия окончена."),
    W.GONE_REFUSED: (
        "the live connection was refused or lost. Reload the page to watch again.",
        "соединение отклонено или потеряно. Обновите страницу, чтобы смотреть снова.",
    ),
    W.GONE_CLOSED: ("table {table} has closed.", "стол {table} закрылся."),
    W.GONE_UNREACHABLE: (
        "the server cannot be reached: it has stopped, or the connection was lost.",
        "сервер недоступен: он остановлен, или соединение потеряно.",
    ),
    W.GONE_NOT_FINISHED: ("the match was not finished.", "партия не окончена."),
    W.STOPPED_WHILE: ("Not finished: {why} while it ran.", "Не окончена: {why} во время партии."),
    W.REMATCH_OFFER: (
        "Its players may agree to a rematch within {seconds} s: it will be linked here.",
        "Игроки могут договориться о реванше в течение {seconds} с: здесь появится ссылка.",
    ),
    W.REMATCH_AT: ("The rematch is at table {table}: ", "Реванш — за столом {table}: "),
    W.WATCH_IT: ("watch it", "смотреть"),
    W.NO_REMATCH: (
        "No rematch: its players did not agree to one.",
        "Реванша не будет: игроки о нём не договорились.",
    ),
    # (the human style's deal start, render.hanging_now; the sheet's note, SHEET_HANGING)
    W.HANGING_NOW: ("Hanging: {hanging}.", "Висит: {hanging}."),
    W.HANGING_NOW_AFTER: (
        "Hanging: {hanging} for this deal, {after} for the next{later}.",
        "Висит: {hanging} на эту раздачу, {after} на следующую{later}.",
    ),
    W.DEAL_HANGING: ("hanging {hanging}", "висит {hanging}"),
    W.WON_BY: MESSAGES[Msg.DEAL_WON_BY],
    # a player's page: his tally and ratings as 'finger' and 'top' say them (побед,
    # поражений, ничьих; a match cut off is «прервана», as Msg.MATCH_STOPPED says)
    W.PLAYER_TITLE: ("{name} — player", "{name} — игрок"),
    W.TALLY_WON: ("Won", "Побед"),
    W.TALLY_LOST: ("lost", "поражений"),
    W.TALLY_DRAWN: ("drawn", "ничьих"),
    W.TALLY_STOPPED: ("stopped", "прервано"),
    # forfeits before the first call: neither won nor lost (views.player_page)
    W.TALLY_ABORTED: ("forfeited before the first call", "брошено до первого хода"),
    W.GUEST_NAME: (
        "{name} is no registered name but a guest's, which anyone may take once he has"
        " gone: these matches, and their tally, may be different people's",
        "{name} — не зарегистрированное имя, а гостевое, которое после ухода гостя может"
        " взять любой: эти партии и их счёт могут быть разных людей",
    ),
    W.IN_LAST_MATCH: ("in the last match", "в последней партии"),
    W.IN_LAST_MATCHES: ("in the last {count} matches", "в последних {count} партиях"),
    W.RATINGS: ("Ratings", "Рейтинги"),
    W.RATING: ("Rating", "Рейтинг"),
    W.PLAYER_COUNT: ("Players", "Игроков"),
    W.PLACE: ("Place", "Место"),
    W.STANDINGS: ("Standings", "Рейтинг игроков"),
    W.PLAYER: ("Player", "Игрок"),
    W.RATED_SHOWN: (
        "Places {first}–{last} of {count} (page {page} of {pages}).",
        "Места {first}–{last} из {count} (страница {page} из {pages}).",
    ),
    W.HOW_RATED: (
        "A match is rated when registered players play it at a public table; a guest, who"
        " logs in without a password, is never rated, nor a match with one. A name is"
        " registered by logging in with a password on the game port:"
        " <code>login NAME PASSWORD</code>.",
        "Партия идёт в рейтинг, когда за открытым столом играют зарегистрированные игроки;"
        " гость, вошедший без пароля, в рейтинг не идёт, как и партия с ним. Имя"
        " регистрируется входом с паролем на игровом порту: <code>login ИМЯ ПАРОЛЬ</code>.",
    ),
    W.OTHER_GAMES: ("Standings of each game", "Рейтинг каждой игры"),
    W.BAD_GAME: (
        "no such game: ?variant= a variant ({variants}), ?players= 2, 3 or 4",
        "нет такой игры: ?variant= — вариант ({variants}), ?players= — 2, 3 или 4",
    ),
    W.BAD_GAME_COUNT: (
        "no such game: {variant} is for {counts} players, not {players}",
        "нет такой игры: {variant} — для {counts} игроков, а не для {players}",
    ),
    W.GAMES: ("Games", "Партий"),
    W.WON: ("Won", "Побед"),
    W.LOST: ("Lost", "Поражений"),
    W.DRAWN: ("Drawn", "Ничьих"),
    W.RATING_CAPTION: (
        "The rating (openskill μ − 3σ) after each rated match, one line per variant and"
        " player count. Rated: public matches of registered players, with a house bot only"
        " when asked for with 'bot KIND rated'.",
        "Рейтинг (openskill μ − 3σ) после каждой партии в рейтинг, по линии на вариант и"
        " число игроков. В рейтинг идут партии зарегистрированных игроков за открытым"
        " столом, с ботом сервера — только если попросить: bot ВИД rated.",
    ),
    W.MATCHES: ("Matches", "Партии"),
    W.MATCH: ("Match", "Партия"),
    W.FINISHED_UTC: ("Finished (UTC)", "Окончена (UTC)"),
    W.RESULT: ("Result", "Итог"),
    W.WHY: ("Why", "Почему"),
    W.RESULT_WON: ("won", "победа"),
    W.RESULT_LOST: ("lost", "поражение"),
    W.RESULT_DRAWN: ("drawn", "ничья"),
    W.RESULT_STOPPED: ("stopped", "прервана"),
    W.RESULT_ABORTED: ("forfeited before the first call", "брошена до первого хода"),
    W.PLOT_RATED_MATCHES: ("rated matches", "партии в рейтинг"),
    W.PLOT_RATING: ("rating (μ − 3σ)", "рейтинг (μ − 3σ)"),
    W.PLOT_RATING_TITLE: ("{name}'s rating", "Рейтинг: {name}"),
    # the ladders' pages: the run is «турнир» (the table's «доска турнира»), the figures
    # as the text report says them (ladder/report.py; docs/bots.md), names and numbers kept
    W.NO_LADDERS: (
        "No ladder has been run on this server's store",
        "На базе этого сервера ещё не было турниров",
    ),
    W.WITH_SERVERS_FILE: ("with the server's file", "с файлом сервера"),
    W.LADDER_RATINGS: ("Ratings (openskill, μ − 3σ)", "Рейтинги (openskill, μ − 3σ)"),
    W.BOT: ("Bot", "Бот"),
    W.BY_NAME: (
        BY_NAME,
        "Рейтинги ведутся по имени бота, для каждой игры свои: бот, изменённый и запущенный"
        " снова под старым именем, продолжает рейтинг прежнего (дайте новой версии новое"
        " имя).",
    ),
    W.RUNS: ("Runs", "Турниры"),
    W.RUN: ("Run", "Турнир"),
    W.STARTED_UTC: ("Started (UTC)", "Начат (UTC)"),
    W.BOTS: ("Bots", "Боты"),
    W.BOARDS: ("Boards", "Досок"),
    W.RUN_TOLD_AT_END: (
        "its bots, game and counts come with its report; a run stopped gets none",
        "его боты, игра и итоги придут с отчётом; у остановленного его не будет",
    ),
    W.NO_DECISION: (FIGURE_WORDS["no-decision"], "нет решения"),
    W.NEVER_COUNTED: ("never counted", "не засчитан"),
    W.RUN_NOT_FINISHED: ("not finished", "не окончен"),
    W.STOP_FAILED: (RunStop(StopKind.FAILED, "").told(), "сорван: бот не смог играть"),
    W.STOP_CANCELLED: (RunStop(StopKind.CANCELLED, "").told(), "отменён"),
    W.LADDER_RUN_N: ("Ladder run {run}", "Турнир {run}"),
    W.STARTED: ("started", "начат"),
    W.RUN_STOPPED: (
        "This run {stopped}. It is never counted: the games stored for it before it stopped"
        " are below.",
        "Этот турнир {stopped}. Он не засчитывается: ниже — его партии, сохранённые до остановки.",
    ),
    # a run on one machine stores its games at its end: one stopped has none to be below
    W.RUN_STOPPED_NONE: (
        "This run {stopped}. It is never counted, and none of its games was stored.",
        "Этот турнир {stopped}. Он не засчитывается, и ни одна его партия не сохранена.",
    ),
    W.RUN_UNFINISHED: (
        "This run has not finished (or stopped before its report): its games so far are below.",
        "Этот турнир не окончен (или остановлен до отчёта): ниже — его партии на сейчас.",
    ),
    W.RUN_UNFINISHED_NONE: (
        "This run has not finished (or stopped before its report), and none of its games"
        " is stored yet: a run on one machine stores them all when it ends (one stopped"
        " before then, never); a distributed run, as each board is done.",
        "Этот турнир не окончен (или остановлен до отчёта), и ни одна его партия ещё не"
        " сохранена: турнир на одной машине сохраняет их все в конце (остановленный"
        " раньше — никогда), распределённый — по мере сыгранных досок.",
    ),
    W.N_BOARDS: ("{boards} boards", "досок: {boards}"),
    W.SEED: ("seed", "зерно"),
    W.N_GAMES: ("{games} games ({deals} deals).", "Партий: {games} (раздач: {deals})."),
    W.PAIRS: ("Pairs (first against second)", "Пары (первый против второго)"),
    W.PAIR: ("Pair", "Пара"),
    W.W_D_L: ("W-D-L", "В-Н-П"),
    W.ELO_MARGIN: ("Elo ± margin", "Elo ± погрешность"),
    W.POINTS_MARGIN: ("Points/deal ± margin", "Очков за раздачу ± погрешность"),
    W.DUPLICATE_SETS: ("Duplicate sets", "Наборов рассадок"),
    W.N_VOID: ("({void} void)", "(пустых: {void})"),
    W.ELO_PLOT: ("Elo against games played", "Elo по сыгранным партиям"),
    W.ELO_CAPTION: (
        "Each pair's Elo after each game counted for it",
        "Elo каждой пары после каждой засчитанной ей партии",
    ),
    W.ELO_CAPTION_SPRT: (
        "; dashed: the SPRT's elo0 and elo1 from the pair's side",
        "; пунктир — elo0 и elo1 теста SPRT со стороны пары",
    ),
    W.ELO_CAPTION_EDGE: (
        ". A pair without a loss (or a win) yet has no finite Elo: its line sits on the edge"
        " (±800).",
        ". У пары ещё без поражения (или без победы) Elo бесконечно: её линия идёт по краю (±800).",
    ),
    W.RUN_RATINGS: (
        "Ratings of this run (openskill, μ − 3σ)",
        "Рейтинги этого турнира (openskill, μ − 3σ)",
    ),
    W.CARRIED_OVER: ("Carried over from earlier runs.", "Перенесены из прежних турниров."),
    W.SPRT_LINE: (
        "SPRT elo0={elo0} elo1={elo1} α={alpha} β={beta}: LLR {llr} in {bounds} after {pairs}"
        " pairs: {verdict}{after}.",
        "SPRT elo0={elo0} elo1={elo1} α={alpha} β={beta}: LLR {llr} в границах {bounds},"
        " пар: {pairs}: {verdict}{after}.",
    ),
    # the report's "Bot faults" and "Clock's calls" (ladder/report.py; docs/bots.md)
    W.BOT_FAULTS: ("Bot faults and the clock's calls", "Ошибки ботов и ходы по часам"),
    W.FALLBACKS: ("Fallbacks", "Подмен"),
    W.BOT_ERRORS: ("Exceptions", "Исключений"),
    W.FIRST_FAULT: ("First fault", "Первая ошибка"),
    W.CLOCK_CALLS: ("Clock's calls", "Ходов по часам"),
    W.RECONNECTS: ("Reconnects", "Переподключений"),
    W.FIRST_CLOCK_CALL: ("The clock's first", "Первый по часам"),
    W.BOT_FAULTS_NOTE: (
        "A fallback: the bot's choose or pick raised, answered a call not legal or ran"
        " past its clock, and its first legal call was sent instead; an exception: choose,"
        " pick, on_event or on_board raised. A clock's call: an ask not answered in time,"
        " or answered only with calls the server refused, and the server called for the"
        " bot. A forfeit: a game the bot lost by forfeit (its clock run out three times in"
        " a row, or away too long); a crash: the bot exited (or its copy in the ladder's"
        " process failed) and was started again; a reconnect: the bot's connection was cut"
        " (by the server, or on the way) and it connected again, its seat away meanwhile.",
        "Подмена: choose или pick бота подняли исключение, ответили недопустимым ходом или"
        " не уложились в часы, и вместо их хода послан первый допустимый; исключение: его"
        " подняли choose, pick, on_event или on_board. Ход по часам: на запрос не ответили"
        " вовремя или ответили лишь ходами, которые сервер отверг, и сервер сходил за бота."
        " Техническое поражение: партия, проигранная ботом без игры (часы вышли трижды"
        " подряд или он отсутствовал слишком долго); падение: бот завершился (или его копия"
        " в процессе турнира дала сбой) и был запущен снова; переподключение: соединение"
        " бота оборвалось (его закрыл сервер или оно прервалось в пути) и бот подключился"
        " снова, а его место тем временем пустовало.",
    ),
    W.CLOCK_CALLS_MISSING: (
        "The clock's calls were not counted for this run ({why}).",
        "Ходы по часам в этом турнире не подсчитаны ({why}).",
    ),
    W.FORFEITS: ("Forfeits", "Технических поражений"),
    W.CRASHES: ("Crashes", "Падений"),
    W.RUN_FAULTS: ("Faults", "Ошибки"),
    W.NO_FAULTS: ("none", "нет"),
    W.N_FORFEITS: ("forfeits {n}", "технических поражений {n}"),
    W.N_CRASHES: ("crashes {n}", "падений {n}"),
    W.N_FALLBACKS: ("fallbacks {n}", "подмен {n}"),
    W.N_BOT_ERRORS: ("exceptions {n}", "исключений {n}"),
    W.N_CLOCK_CALLS: ("clock's calls {n}", "ходов по часам {n}"),
    W.N_RECONNECTS: ("reconnects {n}", "переподключений {n}"),
    W.CLOCK_NOT_COUNTED: ("clock's calls not counted", "ходы по часам не подсчитаны"),
    W.GAMES_LIST: ("Games", "Партии"),
    W.GAMES_SHOWN: (
        "Games {first}–{last} of {count} (page {page} of {pages}).",
        "Партии {first}–{last} из {count} (страница {page} из {pages}).",
    ),
    W.PAGE_PREV: ("previous page", "предыдущая страница"),
    W.PAGE_NEXT: ("next page", "следующая страница"),
    W.BOARD: ("Board", "Доска"),
    W.SEATING: ("Seating", "Рассадка"),
    W.WHY_ENDED: ("Why it ended", "Почему окончена"),
    W.EVERY_WON: (FIGURE_WORDS["every-won"], "+∞ (все раздачи выиграны)"),
    W.EVERY_LOST: (FIGURE_WORDS["every-lost"], "-∞ (все раздачи проиграны)"),
    W.FEW_DEALS: (FIGURE_WORDS["few-deals"], "(погрешность: слишком мало раздач)"),
    W.FEW_SETS: (FIGURE_WORDS["few-sets"], "(погрешность: слишком мало наборов рассадок)"),
    W.NO_POINTS: (FIGURE_WORDS["no-points"], "нет"),
    W.AFTER_ONE: (
        FIGURE_WORDS["after-one"],
        "; после него закончено пар: {after}, они только в итогах выше",
    ),
    W.AFTER_MANY: (
        FIGURE_WORDS["after-many"],
        "; после него закончено пар: {after}, они только в итогах выше",
    ),
    W.VERDICT_FOR: (
        FIGURE_WORDS["verdict-h1"],
        "H1 ({first} сильнее {second} больше чем на {elo0} Elo)",
    ),
    W.VERDICT_AGAINST: (
        FIGURE_WORDS["verdict-h0"],
        "H0 ({first} сильнее {second} меньше чем на {elo1} Elo)",
    ),
    W.PLOT_ELO_X: (
        "games counted for the pair (each board once per seating)",
        "партии, засчитанные паре (каждая доска по разу на рассадку)",
    ),
    W.PLOT_ELO_Y: ("Elo (first v second)", "Elo (первый против второго)"),
    W.PLOT_ELO_TITLE: (
        "Ladder run {run}: Elo against games played",
        "Турнир {run}: Elo по сыгранным партиям",
    ),
}

# the forms of the sentence that ends a match (web/ends.py over_form says which)
OVER_WORDS: dict[str, W] = {
    "one": W.OVER_ONE,
    "side": W.OVER_SIDE,
    "draw": W.OVER_DRAW,
    "none": W.OVER_NONE,
}

# the live page's script's words, its name for each (table.js ``WORDS``, whose English
# defaults are these English texts: a test checks they agree)
# A card's name as a screen reader says it (the page shows 'Q♥', read as a symbol):
# each rank and suit in English and Russian («дама червей»: the suit in the genitive),
# joined as CARD_FORM says; by the rank and suit letters of a card's text ('Qh')
CARD_FORM = ("{rank} of {suit}", "{rank} {suit}")
RANK_NAMES: dict[str, tuple[str, str]] = {
    "7": ("seven", "семёрка"),
    "8": ("eight", "восьмёрка"),
    "9": ("nine", "девятка"),
    "10": ("ten", "десятка"),
    "J": ("jack", "валет"),
    "Q": ("queen", "дама"),
    "K": ("king", "король"),
    "A": ("ace", "туз"),
}
SUIT_NAMES: dict[str, tuple[str, str]] = {
    "s": ("spades", "пик"),
    "h": ("hearts", "червей"),
    "d": ("diamonds", "бубен"),
    "c": ("clubs", "треф"),
}


def card_names(lang: Lang) -> dict[str, Any]:
    """The cards' names in ``lang``, for the live table page's script (``data-cards``:
    it names the cards it draws as the page served names its own)."""
    at = 1 if lang == Lang.RU else 0
    return {
        "ranks": {rank: names[at] for rank, names in RANK_NAMES.items()},
        "suits": {suit: names[at] for suit, names in SUIT_NAMES.items()},
        "form": CARD_FORM[at],
    }


SCRIPT: dict[str, W] = {
    "away": W.AWAY_A_WHILE,
    "deal": W.DEAL_N,
    "turned": W.TURNED_AFTER,
    "talon": W.TALON_N,
    "hand": W.IN_HAND,
    "trump": W.TRUMP,
    "fresa": W.FRESA,
    "orderedBy": W.ORDERED_BY,
    "and": W.AND,
    "shows": W.SHOWS,
    "byClock": W.BY_CLOCK,
    "replay": W.REPLAY_IT,
    "gone": W.NO_LONGER_LIVE,
    "over": W.GONE_OVER,
    "refused": W.GONE_REFUSED,
    "closed": W.GONE_CLOSED,
    "unreachable": W.GONE_UNREACHABLE,
    "notFinished": W.GONE_NOT_FINISHED,
    "stopped": W.STOPPED_WHILE,
    "hangingNow": W.HANGING_NOW,
    "hangingNowAfter": W.HANGING_NOW_AFTER,
    "hangsThen": W.HANGS_THEN,
    "dealHanging": W.DEAL_HANGING,
    "wonBy": W.WON_BY,
    "rematchOffer": W.REMATCH_OFFER,
    "rematchAt": W.REMATCH_AT,
    "watchIt": W.WATCH_IT,
    "noRematch": W.NO_REMATCH,
}

# a match's result for the player whose page it is (views.PlayedMatch.result)
RESULT_WORDS: dict[str, W] = {
    "won": W.RESULT_WON,
    "lost": W.RESULT_LOST,
    "drawn": W.RESULT_DRAWN,
    "stopped": W.RESULT_STOPPED,
    "aborted": W.RESULT_ABORTED,
}

# the figures' words of the ladder's report (report.FIGURE_WORDS), by their names there
FIGURES: dict[str, W] = {
    "every-won": W.EVERY_WON,
    "every-lost": W.EVERY_LOST,
    "few-deals": W.FEW_DEALS,
    "few-sets": W.FEW_SETS,
    "no-points": W.NO_POINTS,
    "after-one": W.AFTER_ONE,
    "after-many": W.AFTER_MANY,
    "verdict-h1": W.VERDICT_FOR,
    "verdict-h0": W.VERDICT_AGAINST,
    "no-decision": W.NO_DECISION,
}

# a run's count of each kind of fault (ladders.FAULT_KINDS), as the runs' list says it
FAULT_COUNTS: dict[str, W] = {
    "forfeits": W.N_FORFEITS,
    "crashes": W.N_CRASHES,
    "fallbacks": W.N_FALLBACKS,
    "bot_errors": W.N_BOT_ERRORS,
    "clock_calls": W.N_CLOCK_CALLS,
    "reconnects": W.N_RECONNECTS,
}

# why a ladder run stopped before its report, as its page says it (RunStop.told)
STOP_WORDS: dict[str, W] = {WORDS[key][0]: key for key in (W.STOP_FAILED, W.STOP_CANCELLED)}

# a table's closing words, as its observers are told them (docs/protocol.md §11.4): the
# sentence, its match's fate first (its English holds the other's), and the reasons a
# table is closed for that the catalogue has (others are a free text, kept as they come)
CLOSES: tuple[Msg, ...] = (Msg.MATCH_STOPPED, Msg.TABLE_CLOSES)
CLOSE_REASONS: tuple[Msg, ...] = (
    Msg.SIGNAL_RECEIVED,
    Msg.DRAIN_TABLE,
    Msg.DRAIN_LIMIT,
    Msg.DRAINED,
    Msg.DRAINED_WORKER,
    Msg.PLAYERS_LEFT,
    Msg.BUS_LOST,
    Msg.SERVER_LOST,
    Msg.SERVER_STOPPED,
)

# a table's state and a seat's marks, as the lobby's lists say them (Msg)
STATE_WORDS: dict[TableState, Msg] = {
    TableState.WAITING: Msg.WAITING,
    TableState.PLAYING: Msg.PLAYING,
    TableState.CLOSED: Msg.CLOSED,
}


def template(key: W, lang: Lang) -> str:
    """A page word in ``lang`` with its '{placeholders}' unfilled."""
    english, russian = WORDS[key]
    return russian if lang == Lang.RU else english


def said(key: W, lang: Lang, **values: Any) -> str:
    return template(key, lang).format(**values)


# the last words of a forfeit's end words (END_WORDS, RU_FORFEITS): a defeat, which a
# match forfeited before the first call is not (neither won nor lost, docs/web.md)
_FORFEIT_TAIL = {Lang.EN: ": forfeit", Lang.RU: ": поражение"}


def without_defeat(words: str, lang: Lang) -> str:
    """End words (``end_words_in``'s) without their forfeit's 'defeat': «anna покидает
    стол», not «… : поражение», beside «брошена до первого хода» (a tryout, s49)."""
    return words.removesuffix(_FORFEIT_TAIL.get(lang, _FORFEIT_TAIL[Lang.EN]))


def end_words_in(reason: str, who: str | None, lang: Lang) -> str:
    """Why a match ended (``reason``) in ``lang``: a forfeit naming ``who`` lost it
    when known, in Russian as the table's end line says it (render_ru)."""
    if lang != Lang.RU:
        return end_words(reason, who)
    if who is not None and reason in RU_FORFEITS:
        return RU_FORFEITS[reason].format(who=who)
    return RU_MATCH_REASONS.get(reason, reason)


def outcome_word(outcome: str, lang: Lang) -> str:
    """A deal's outcome as the score sheet says it ('made', a void deal 'redealt'), or
    its Russian ('сыграна', «пересдача»): lang.outcome_said."""
    return outcome_said(outcome, lang)


def call_words(lang: Lang, words: Mapping[str, str] = NO_WORDS) -> dict[str, str]:
    """Every call's token a table may tell, as spoken in ``lang`` (a table's own
    ``words`` first: Tertz's «марьяж»), for the live page's script in Russian."""
    ranks = [*RANKS]
    tokens = [*RU_CALLS, *words]
    # (two or three tertsy are 'dva-tertsa': game/calls.py)
    tokens += [*DECLARATIONS, "dva-tertsa", "tri-tertsa", "dva-pyatdesyat", "tri-pyatdesyat"]
    tokens += [f"{OT}-{r}{trump}" for r in ranks for trump in ("", "-kozyrnogo")]
    tokens += [f"{IGRAYU}-{s}" for s in SUITS]
    tokens += [f"{r}{s}" for r in ranks for s in SUITS]
    say = ru_call if lang == Lang.RU else spoken_call
    return {token: say(token, words) for token in tokens}


def table_script_words(lang: Lang, words: Mapping[str, str] = NO_WORDS) -> dict[str, Any] | None:
    """What the live table page's script (table.js) says in ``lang``: its sentences'
    words (``SCRIPT``), every call as spoken at the table (``words``: its own), the
    cards' ranks, the deals' outcomes and a free seat's mark. None in English: the
    script's own words are those (and the English page stays as it was)."""
    if lang == Lang.EN:
        return None
    return {
        "words": {name: template(key, lang) for name, key in SCRIPT.items()},
        "calls": call_words(lang, words),
        "ranks": dict(zip(RANKS, RU_RANKS, strict=True)),
        "outcomes": dict(RU_OUTCOMES),
        "free": MESSAGES[Msg.FREE_SEAT][1],
        "closes": {
            "forms": [MESSAGES[key] for key in CLOSES],
            "reasons": [MESSAGES[key] for key in CLOSE_REASONS],
        },
    }


def tables_script_words(lang: Lang) -> dict[str, Any] | None:
    """What the open tables' script (tables.js) says in ``lang``; None in English."""
    if lang == Lang.EN:
        return None
    page = PageWords(lang)
    return {
        "free": page.msg(Msg.FREE_SEAT),
        "away": page.msg(Msg.AWAY_MARK),
        "states": {state.value: page.state(state) for state in TableState},
        "empty": said(W.NO_TABLE_OPEN, lang) + " new.",
    }


@attrs.frozen
class PageWords:
    """The words of one page, in its language: a template calls it (``w("table-n",
    table=3)``); ``w.lang`` is the page's language, ``w.other`` the switch's."""

    lang: Lang

    def __call__(self, key: str, **values: Any) -> str:
        return said(W(key), self.lang, **values)

    @property
    def other(self) -> Lang:
        return Lang.EN if self.lang == Lang.RU else Lang.RU

    @property
    def russian(self) -> bool:
        return self.lang == Lang.RU

    def msg(self, key: str, **values: Any) -> str:
        """A catalogue phrase of the table's (messages.MESSAGES) in the page's language."""
        return phrase(Msg(key), **values).text(self.lang)

    def state(self, state: TableState) -> str:
        """A table's state: the wire's word in English (as before), the lobby's list's
        in Russian («ждёт игроков»)."""
        return self.msg(STATE_WORDS[state]) if self.russian else str(state)

    def rank(self, rank: str) -> str:
        """A card's rank as the page's players write it: 'A', or «Т» in Russian."""
        return RU_RANKS[RANKS.index(rank)] if self.russian else rank

    def card_name(self, text: str) -> str:
        """A card's name ('Qh'): 'queen of hearts', «дама червей» (card_names)."""
        names = card_names(self.lang)
        return str(names["form"]).format(
            rank=names["ranks"][text[:-1]], suit=names["suits"][text[-1]]
        )

    def outcome(self, outcome: str) -> str:
        return outcome_word(outcome, self.lang)

    def hanging_now(self, hanging: int, after: Sequence[int]) -> str:
        """What hangs now, as a deal's start tells its players ('Hanging: 82.'; under
        hanging-separate the later sums too); '' if nothing."""
        if not (hanging or after):
            return ""
        if not after:
            return self(W.HANGING_NOW, hanging=hanging)
        later = "".join(self(W.HANGS_THEN, points=p) for p in after[1:])
        return self(W.HANGING_NOW_AFTER, hanging=hanging, after=after[0], later=later)

    def deal_hanging(self, hanging: int, after: Sequence[int]) -> str:
        """A finished deal's hanging points as the sheet notes them ('hanging 35, then
        35'); '' if none."""
        if not hanging:
            return ""
        later = "".join(self(W.HANGS_THEN, points=p) for p in after)
        return self(W.DEAL_HANGING, hanging=f"{hanging}{later}")

    def deal_outcome(
        self, outcome: str, written: Sequence[int], names: Sequence[str | None], on_points: bool
    ) -> str:
        """A finished deal's outcome as the table said it: in a short game, its winner
        ('won by bob', render.deal_word, as the replay says it)."""
        seats = [name or "-" for name in names]
        return deal_word(outcome, written, seats, on_points, self.lang)

    def result(self, result: str) -> str:
        """A match's result for the player: 'won', or «победа» (RESULT_WORDS)."""
        return said(RESULT_WORDS[result], self.lang)

    @property
    def figures(self) -> dict[str, str]:
        """The ladder report's figures' words (report.FIGURE_WORDS) in the page's language."""
        return {name: template(key, self.lang) for name, key in FIGURES.items()}

    def stop(self, told: str) -> str:
        """Why a ladder run stopped (RunStop.told: 'cancelled'), or «отменён»."""
        key = STOP_WORDS.get(told)
        return told if key is None else said(key, self.lang)

    def first_fault(self, told: str) -> str:
        """A bot's first fault as its run stored it, in Russian as far as its form is
        known (ladder_words.py; a bot's own words as they came)."""
        return ru_first_fault(told) if self.russian else told

    def clock_call(self, told: str) -> str:
        """Where the clock's first call for a bot was: 'match m1 deal 1: play Jh',
        «партия m1, раздача 1: ход В♥»."""
        return ru_clock_call(told) if self.russian else told

    def fault_counts(self, counts: Mapping[str, int], missing: object = None) -> str:
        """A run's faults in one line for the runs' list, each kind's count
        (ladders.fault_counts): 'forfeits 2, clock's calls 3'; ``missing``: its clock's
        calls were not counted."""
        told = [said(FAULT_COUNTS[kind], self.lang, n=n) for kind, n in counts.items()]
        if missing:
            told.append(said(W.CLOCK_NOT_COUNTED, self.lang))
        return ", ".join(told)

    def why(self, reason: str, who: str | None = None) -> str:
        """Why a match ended, as its replay says it: 'rand let the clock run out too
        many times in a row: forfeit', never the stored token ('timeouts')."""
        return end_words_in(reason, who, self.lang)

    def marked(self, key: str, **values: Any) -> Markup:
        """A page word with markup among its values (``{% set %}`` blocks: a name in its
        ``who`` span), each other value escaped; the catalogue's own text is trusted."""
        return Markup(template(W(key), self.lang)).format(**values)

    def call(self, token: str, words: Mapping[str, str] = NO_WORDS) -> str:
        """A call as spoken at the table: 'lomayu 6', «ломаю 6» (``words``: the table's)."""
        return ru_call(token, words) if self.russian else spoken_call(token, words)

    @property
    def switch_name(self) -> str:
        """The switch link's words: the other language's own name."""
        return said(W.LANG_NAME, self.other)


__all__ = [
    "CLOSES",
    "CLOSE_REASONS",
    "FAULT_COUNTS",
    "FIGURES",
    "OVER_WORDS",
    "RANK_NAMES",
    "RESULT_WORDS",
    "SCRIPT",
    "STATE_WORDS",
    "STOP_WORDS",
    "SUIT_NAMES",
    "WORDS",
    "PageWords",
    "W",
    "call_words",
    "card_names",
    "end_words_in",
    "outcome_word",
    "said",
    "table_script_words",
    "tables_script_words",
    "template",
]
