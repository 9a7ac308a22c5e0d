"""The human style's sentences in English and Russian: one catalogue, message key to
the two templates ('lang en|ru', docs/protocol.md §4.3c).

The server makes a ``Phrase`` (a key and its values) and sends it with the event; the
English text is the one the machine style's ``text=`` carries, so the protocol's lines
stay as they were, and each person's connection says the phrase in its own language.
A refusal that has no phrase of its own is told in Russian by its code (``RU_ERRORS``):
the codes are stable, their English sentences are not.
"""

from __future__ import annotations

import re
from enum import StrEnum

import attrs

from .lang import Lang


class Msg(StrEnum):
    NOTHING = "nothing"
    AS_IS = "as-is"  # a text with no Russian words of its own (a plugin's)
    OWN_WORDS = "own-words"  # a text that brings its own Russian (a plugin's summary)
    RULES_BASE = "rules-base"  # at a table: the builtin's summary, after what changes it
    BYE = "bye"
    STYLE = "style"
    SORT_RANK = "sort-rank"
    SORT_STRENGTH = "sort-strength"
    CLOCK = "clock"
    WELCOME = "welcome"
    WELCOME_BACK = "welcome-back"
    LOBBY_COMMANDS = "lobby-commands"
    LOBBY_COMMANDS_DRAINING = "lobby-commands-draining"
    WELCOME_NO_GAMES = "welcome-no-games"
    LOBBY_COMMANDS_NO_GAMES = "lobby-commands-no-games"
    TABLES_COUNT = "tables-count"
    ONE_TABLE = "one-table"
    PLAYERS_HERE = "players-here"
    ONE_PLAYER_HERE = "one-player-here"
    GUEST = "guest"
    REGISTERED = "registered"
    REGISTERED_NOW = "registered-now"
    RESUME = "resume"
    LOGIN_USAGE = "login-usage"
    LOGIN_SET_ELSEWHERE = "login-set-elsewhere"
    LOGIN_NAME = "login-name"
    NAME_SCRIPTS = "name-scripts"
    NAME_DRAWN_AS_OTHERS = "name-drawn-as-others"
    NAME_LOOKS_LIKE = "name-looks-like"
    LOGGED_IN_AS = "logged-in-as"
    NEED_PASSWORD = "need-password"
    NAME_IN_USE = "name-in-use"
    NAME_IN_USE_BY_GUEST = "name-in-use-by-guest"
    NAME_BEING_REGISTERED = "name-being-registered"
    NOT_A_COMMAND = "not-a-command"
    LOG_IN_FIRST = "log-in-first"
    NOT_A_COMMAND_OVER = "not-a-command-over"
    NOT_A_COMMAND_WATCHING = "not-a-command-watching"
    NOT_A_COMMAND_NOT_STARTED = "not-a-command-not-started"
    WAITING_ONE_MORE = "waiting-one-more"
    WAITING_MORE = "waiting-more"
    WAITING_BOT_SEATS = "waiting-bot-seats"
    WAITING_AWAY = "waiting-away"
    NOT_SEATED_OVER = "not-seated-over"
    NOT_SEATED_WATCHED_OVER = "not-seated-watched-over"
    CALLS_NO_CALL = "calls-no-call"
    NOT_A_CALL = "not-a-call"
    # a line read as a call's word with the rest wrong ('igrayu zz'): its reason said
    NOT_A_CALL_WHY = "not-a-call-why"
    NEAR_CALL_NOT_NOW = "near-call-not-now"  # a slip of a call not legal now ('скин')
    NOT_A_CALL_HEAD = "not-a-call-head"  # NOT_A_CALL without 'Type help'
    UNREAD_HERE = "unread-here"  # an option's call at a table without the option
    UNREAD_CARD = "unread-card"
    UNREAD_SUIT = "unread-suit"
    UNREAD_TOP = "unread-top"
    UNREAD_RANK = "unread-rank"
    CALL_RANGE = "call-range"
    AMBIGUOUS_CARD = "ambiguous-card"
    AMBIGUOUS_OT = "ambiguous-ot"
    AMBIGUOUS_CALL = "ambiguous-call"
    RANK_WHICH = "rank-which"
    PLAY_WHICH = "play-which"  # 'hod' alone: with which card
    RANK_ALONE = "rank-alone"
    RANK_NONE = "rank-none"
    FIRST_PERSON_WRITES = "first-person-writes"
    SIT = "sit"
    SEAT_KEPT_AFTER_STALL = "seat-kept-after-stall"
    TEXT_NONE = "text-none"
    TEXT_BIDI = "text-bidi"
    TEXT_INVISIBLE = "text-invisible"
    TEXT_MARKS = "text-marks"
    SIT_OTHERS = "sit-others"
    SEAT_OF = "seat-of"
    SEAT_OF_AWAY = "seat-of-away"
    OBSERVE = "observe"
    UNOBSERVE = "unobserve"
    UNOBSERVE_MANY = "unobserve-many"
    LEAVE = "leave"
    LEAVE_DECLINED = "leave-declined"
    LEAVE_HOW = "leave-how"
    LEAVE_CONFIRM = "leave-confirm"
    WAITS_FOR_PLAYERS = "waits-for-players"
    WAITS_FOR_AWAY = "waits-for-away"
    AWAY_HELD = "away-held"
    PLAYING_AWAY = "playing-away"
    FREE_SEAT = "free-seat"
    CLOCK_WARNING = "clock-warning"
    CLOCK_WARNING_LAST = "clock-warning-last"  # (this timeout would lose the game)
    TABLE_CLOSES = "table-closes"
    MATCH_STOPPED = "match-stopped"
    CUT_OFF = "cut-off"
    CUT_OFF_LOST = "cut-off-lost"
    SIGNAL_RECEIVED = "signal-received"
    BUS_LOST = "bus-lost"
    SERVER_LOST = "server-lost"
    SERVER_STOPPED = "server-stopped"
    NOT_STARTED = "not-started"
    GAME_IS_OVER = "game-is-over"
    NO_TRICK_YET = "no-trick-yet"
    PLAYERS_LEFT = "players-left"
    SEEK = "seek"
    SEEK_RESERVED = "seek-reserved"
    SEEK_KEPT = "seek-kept"
    SEEK_KEPT_PLACE = "seek-kept-place"
    SEEK_APART = "seek-apart"
    SEEK_PASSED = "seek-passed"
    SEEK_PASSED_THEIR_ADDRESS = "seek-passed-their-address"
    SEEK_PASSED_OWN_ADDRESS = "seek-passed-own-address"
    UNSEEK = "unseek"
    SHUTTING_DOWN = "shutting-down"
    # a drain: the server restarts once its running matches are over (§11.4a)
    DRAINING = "draining"
    DRAIN_REFUSED = "drain-refused"
    DRAIN_TABLE = "drain-table"
    DRAINED = "drained"
    DRAINED_WORKER = "drained-worker"
    DRAIN_LIMIT = "drain-limit"
    # an admin's 'drain' (§11.4a)
    DRAIN_BEGUN = "drain-begun"
    DRAIN_ALREADY = "drain-already"
    DRAIN_STOPPING = "drain-stopping"
    DRAIN_NO_ARGUMENT = "drain-no-argument"
    PASSWORD_NONE = "password-none"
    PASSWORD_SAME = "password-same"
    PASSWORD_OLD_WRONG = "password-old-wrong"
    PASSWORD_RESERVED = "password-reserved"
    PASSWORD_SHORT = "password-short"
    PASSWORD_CHANGED = "password-changed"
    SEAT_KEPT_ELSEWHERE = "seat-kept-elsewhere"
    # the lobby's lists and the score sheet (protocol.render)
    WHO = "who"
    NOBODY = "nobody"
    PAGE = "page"
    PAGE_NEXT = "page-next"
    NO_TABLES = "no-tables"
    NO_TABLES_NO_GAMES = "no-tables-no-games"
    NO_TABLES_DRAINING = "no-tables-draining"
    TABLE_LINE = "table-line"
    WAITING = "waiting"
    PLAYING = "playing"
    PLAYING_DEAL = "playing-deal"
    CLOSED = "closed"
    NO_GAMES = "no-games"
    GAME_LINE = "game-line"
    SHEET_TITLE = "sheet-title"
    SHEET_TITLE_STAKES = "sheet-title-stakes"
    SHEET_TARGET = "sheet-target"
    SHEET_HEADER = "sheet-header"
    SHEET_HEADER_WON = "sheet-header-won"
    DEAL_WON_BY = "deal-won-by"
    DEAL_VOID = "deal-void"
    SCORED = "scored"
    SCORED_TO_SEAT = "scored-to-seat"
    SCORED_TO_PAIR = "scored-to-pair"
    SCORED_SHARED = "scored-shared"
    SCORED_HANGS = "scored-hangs"
    HUNG_WON = "hung-won"
    HUNG_SHARED = "hung-shared"
    AND_LIST = "and-list"
    STATE_TALK = "state-talk"
    STATE_SHOWN = "state-shown"
    STATE_TRICKS = "state-tricks"
    SEVENS_NOW = "sevens-now"
    OWN_CALLS_NOW = "own-calls-now"
    VOID_ALL_PASSED = "void-all-passed"
    VOID_SEVENS = "void-sevens"
    SHEET_ROW = "sheet-row"
    SHEET_BIDES = "sheet-bides"
    SHEET_HANGING = "sheet-hanging"
    SHEET_EMPTY = "sheet-empty"
    SHEET_NONE = "sheet-none"
    VERSUS = "versus"
    TOO_MANY_PASSWORDS = "too-many-passwords"
    LOGGED_IN_ELSEWHERE = "logged-in-elsewhere"
    RULES_LIST = "rules-list"
    RULES_ENTRY = "rules-entry"
    RULES_VARIANT_ENTRY = "rules-variant-entry"
    OPTION_CALLS = "option-calls"
    CALLS_ABOUT = "calls-about"
    CALLS_ELSEWHERE = "calls-elsewhere"
    HELP_TOPIC = "help-topic"
    HELP_TOPIC_ELSEWHERE = "help-topic-elsewhere"
    HELP_CARD = "help-card"
    HELP_CALL = "help-call"
    HELP_CALL_OF = "help-call-of"
    HELP_CALL_ELSEWHERE = "help-call-elsewhere"
    HELP_CALL_HERE = "help-call-here"
    HELP_ANSWER = "help-answer"
    HELP_ALSO_CONCEDES = "help-also-concedes"
    OTHER_TABLES_CALL = "other-tables-call"
    GAME_TABLE_CALL = "game-table-call"
    OPTION_TABLE_CALL = "option-table-call"
    CALL_NUMBERED = "call-numbered"
    HELP_MEANT = "help-meant"
    SPLIT_COUNTS_FEWER = "split-counts-fewer"  # Tertz's deal end: who counted, why
    SPLIT_COUNTS_EQUAL = "split-counts-equal"
    HELP_VARIANT = "help-variant"  # 'help tertz': a variant's name, how to play it
    HELP_OPTION = "help-option"  # 'help to-301': an option's name, how to play with it
    TABLE_OPTION_CALLS = "table-option-calls"
    GAME_CALLS = "game-calls"
    GAME_OTHER_CALLS = "game-other-calls"
    VARIANT_REFUSES = "variant-refuses"
    VARIANT_NO_BIDDING = "variant-no-bidding"
    VARIANT = "variant"
    OPTION = "option"
    OPTION_OF = "option-of"
    RULES_TABLE = "rules-table"
    RULES_TABLE_OPTIONS = "rules-table-options"
    NO_OPTIONS = "no-options"
    TO_TARGET = "to-target"
    ONE_DEAL = "one-deal"
    RULES_CLOCK = "rules-clock"
    RULES_CLOCK_OUT = "rules-clock-out"
    RULES_CLOCK_BREAK = "rules-clock-break"
    SAID = "said"
    SAID_AT = "said-at"
    SAID_WATCHERS = "said-watchers"
    # private tables, invitations, house bots, rematches, history and ratings
    INVITE = "invite"
    INVITED = "invited"
    PRIVATE_TABLE = "private-table"
    PRIVATE_MARK = "private-mark"
    RESERVED_MARK = "reserved-mark"
    AWAY_MARK = "away-mark"
    AWAY_NAMED = "away-named"
    # told at the next login of a player away when it happened (server/missed.py)
    MISSED_SEAT = "missed-seat"
    MISSED_FORFEIT = "missed-forfeit"
    MISSED_END = "missed-end"
    MISSED_DESERTED = "missed-deserted"
    BOT_COMES = "bot-comes"
    BOT_NOT_COME = "bot-not-come"
    BOT_GIVES_UP = "bot-gives-up"
    REMATCH_ASK = "rematch-ask"
    REMATCH_WAITING = "rematch-waiting"
    REMATCH_PENDING = "rematch-pending"
    REMATCH_STANDING = "rematch-standing"  # the same, to one who asked already
    REMATCH_STARTS = "rematch-starts"
    REMATCH_WATCH = "rematch-watch"  # to those who watched the match: where it goes on
    REMATCH_OFF = "rematch-off"
    REMATCH_TIMEOUT = "rematch-timeout"
    REMATCH_LEFT = "rematch-left"
    REMATCH_ELSEWHERE = "rematch-elsewhere"
    REMATCH_DRAIN = "rematch-drain"
    NO_REMATCH = "no-rematch"
    NO_REMATCH_OFF = "no-rematch-off"
    REMATCH_YOU_LEFT = "rematch-you-left"
    REMATCH_WAS_LEFT = "rematch-was-left"
    REMATCH_WENT_ELSEWHERE = "rematch-went-elsewhere"
    REMATCH_YOU_ELSEWHERE = "rematch-you-elsewhere"
    REMATCH_SEEK_KEPT = "rematch-seek-kept"
    REMATCH_YOU_SEEK_KEPT = "rematch-you-seek-kept"
    REMATCH_OFFERED = "rematch-offered"
    REMATCH_BOARD = "rematch-board"
    REMATCH_HOUSE_BOT = "rematch-house-bot"
    HISTORY_TITLE = "history-title"
    HISTORY_EMPTY = "history-empty"
    HISTORY_NONE = "history-none"
    HISTORY_DEAL = "history-deal"
    HISTORY_TRUMP = "history-trump"
    HISTORY_NO_TRUMP = "history-no-trump"
    HISTORY_NO_TRUMP_OVER = "history-no-trump-over"
    HISTORY_PLAYING = "history-playing"
    HISTORY_BREAK = "history-break"
    HISTORY_SWAP = "history-swap"
    HISTORY_DRAWS = "history-draws"
    HISTORY_UNFINISHED = "history-unfinished"
    BY_THE_CLOCK = "by-the-clock"
    HISTORY_BY_CLOCK = "history-by-clock"
    HISTORY_HANGS = "history-hangs"
    STAKE_NOW = "stake-now"
    HISTORY_STAKE = "history-stake"
    HANGS_LATER = "hangs-later"
    HANGS_THEN = "hangs-then"
    HANGING_NOW = "hanging-now"
    HANGING_NOW_LATER = "hanging-now-later"
    TOP_TITLE = "top-title"
    # which standings: the game for 2, 3 or 4 ("moscow, 2 players (0 rated)" read as
    # two players, none rated, to a club of three who had just played)
    FOR_TWO = "for-two"
    FOR_THREE = "for-three"
    FOR_FOUR = "for-four"
    FOR_N = "for-n"
    TOP_NOBODY = "top-nobody"
    TOP_LINE = "top-line"
    ONE_GAME = "one-game"
    GAMES = "games"
    RECORD = "record"
    FINGER_TITLE = "finger-title"
    A_GUEST = "a-guest"
    ONLINE = "online"
    NOT_HERE = "not-here"
    LAST_GAMES = "last-games"
    NO_FINISHED_GAME = "no-finished-game"
    NOT_RATED = "not-rated"
    FINGER_RATED = "finger-rated"
    HOUSE_FINGER_TITLE = "house-finger-title"
    HOUSE_LAST_GAMES = "house-last-games"
    HOUSE_NO_RATED_GAME = "house-no-rated-game"
    HOUSE_FINGER_NEVER_RATED = "house-finger-never-rated"
    # an engine refusal with its detail (a name, a suit, a card)
    NOT_YOUR_TURN = "not-your-turn"
    NOT_YOUR_TURN_TO_BID = "not-your-turn-to-bid"
    MUST_FOLLOW_SUIT = "must-follow-suit"
    NOT_IN_HAND = "not-in-hand"
    DEAL_OVER = "deal-over"
    WAIT_ANSWER = "wait-answer"
    NOT_THE_TOP = "not-the-top"
    TOP_NOT_HIGHER = "top-not-higher"
    ANSWER_FIRST = "answer-first"
    NOT_TRUE_ANSWER = "not-true-answer"
    SEVENS_ONLY = "sevens-only"
    NOTHING_TO_SHOW = "nothing-to-show"
    NOTHING_TO_SHOW_TWO = "nothing-to-show-two"  # three and four players: two opponents
    NOTHING_TO_SHOW_UNTIL_SHOWN = "nothing-to-show-until-shown"  # Tertz's window
    SHOWN_ALREADY = "shown-already"
    SHOW_ASKED = "show-asked"
    SHOW_TOO_LATE = "show-too-late"
    BIDDING_ON = "bidding-on"
    BIDDING_NOT_IN_HAND = "bidding-not-in-hand"
    NOT_DEALT_YET = "not-dealt-yet"
    PLAY_A_TRUMP = "play-a-trump"
    BEAT_THE_TRUMP = "beat-the-trump"
    MAY_NOT_PLAY = "may-not-play"
    SWAP_WHEN = "swap-when"
    SWAP_NONE = "swap-none"
    SWAP_BEFORE_EXTRA = "swap-before-extra"
    SWAP_SECOND_TRUMP = "swap-second-trump"
    SWAP_SEVEN_TURNED = "swap-seven-turned"
    SWAP_DONE = "swap-done"
    SWAP_NO_SEVEN = "swap-no-seven"
    SWAP_NO_SEVEN_ASKED = "swap-no-seven-asked"
    SWAP_BEFORE_CARD = "swap-before-card"
    SWAP_BEFORE_DECLARING = "swap-before-declaring"
    ANSWER_UNASKED = "answer-unasked"
    PASS_Q_WHEN = "pass-q-when"
    PASS_Q_ONCE = "pass-q-once"
    PASS_Q_NONE = "pass-q-none"
    NO_BELLA = "no-bella"
    BELLA_DONE = "bella-done"
    BELLA_AFTER_TRICK = "bella-after-trick"
    BELLA_BEFORE = "bella-before"
    NOT_A_CALL_NOW = "not-a-call-now"
    BIDDING_OVER = "bidding-over"
    BIDDING_OVER_PLAY = "bidding-over-play"
    BIDDING_OVER_TURN = "bidding-over-turn"
    ROUND_ONE = "round-one"
    ROUND_TWO = "round-two"
    ROUND_TWO_OPENS = "round-two-opens"
    DEALER_MUST_NAME = "dealer-must-name"
    DECLARE_BEFORE_CARD = "declare-before-card"
    ALREADY_DECLARED = "already-declared"
    NO_COMBINATION = "no-combination"
    NOT_YOUR_BEST = "not-your-best"
    YOURS_TO_DECLARE = "yours-to-declare"
    ASK_ROST = "ask-rost"
    LONGER_DECLARED = "longer-declared"
    ROST_WHEN = "rost-when"
    ROST_NOTHING = "rost-nothing"
    ROST_OWN = "rost-own"
    ROST_PARTNER = "rost-partner"
    ROST_LONGER = "rost-longer"
    ROST_NONE = "rost-none"
    MATCH_OVER = "match-over"
    NO_SUCH_SEAT = "no-such-seat"
    BREAKS_FIRST = "breaks-first"
    BREAK_FIRST = "break-first"
    BREAK_ONCE = "break-once"
    TERTZ_SWAP_WHEN = "tertz-swap-when"
    TERTZ_SWAP_UNTIL_TWO = "tertz-swap-until-two"
    TERTZ_SEVEN_DECLARED = "tertz-seven-declared"
    MARIAGE_WHEN = "mariage-when"
    NINE_CARDS = "nine-cards"
    ALL_DECLARED = "all-declared"
    AS_HIGH_DECLARED = "as-high-declared"
    HIGHER_DECLARED = "higher-declared"
    MUST_BEAT = "must-beat"
    TERTZ_ROST_WHEN = "tertz-rost-when"
    TERTZ_ROST_HIGHER = "tertz-rost-higher"
    TERTZ_ROST_NONE = "tertz-rost-none"
    TERTZ_NO_BIDDING = "tertz-no-bidding"
    TERTZ_NO_PASS_Q = "tertz-no-pass-q"
    TERTZ_NO_SEVENS = "tertz-no-sevens"
    STALE_PAST = "stale-past"
    STALE_FUTURE = "stale-future"
    # the lobby's refusals of the club's commands (invite, bot, rematch, history, top, finger)
    USAGE = "usage"
    PAGES = "pages"
    TOP_PAGES = "top-pages"
    TOP_PLAYERS = "top-players"
    TOP_GAME_PLAYERS = "top-game-players"
    TOP_NO_VARIANT = "top-no-variant"
    TOP_NO_VARIANT_NEAR = "top-no-variant-near"
    LANG_UK = "lang-uk"
    INVITE_NOT_SEATED = "invite-not-seated"
    INVITE_SELF = "invite-self"
    NOBODY_HERE = "nobody-here"
    NOBODY_PLAYED = "nobody-played"
    PLAYERS_A_NUMBER = "players-a-number"
    PLAYERS_NO_GAME = "players-no-game"
    REMATCH_SEATED = "rematch-seated"
    REMATCH_PLAYING = "rematch-playing"
    RANDOM_NOT_RATED = "random-not-rated"
    BOT_WHICH = "bot-which"
    BOT_USAGE = "bot-usage"
    BOT_UNKNOWN = "bot-unknown"
    NO_HOUSE_BOTS = "no-house-bots"
    HOUSE_BOTS_CAPPED_OFF = "house-bots-capped-off"
    SEARCH_BOTS_CAPPED_OFF = "search-bots-capped-off"
    BOT_NOT_SEATED = "bot-not-seated"
    NO_HISTORY = "no-history"
    NOT_AT_TABLE = "not-at-table"
    ALREADY_SITS = "already-sits"
    ALREADY_INVITED = "already-invited"
    NO_FREE_SEAT = "no-free-seat"
    LADDER_BOARD = "ladder-board"
    BOARD_NOT_WATCHED = "board-not-watched"
    UNRATED_TABLE = "unrated-table"
    GUEST_NOT_RATED = "guest-not-rated"
    RATED_BOT_HERE = "rated-bot-here"
    # a waiting table's match, rated or not as its seats change (server/rated_news.py)
    UNRATED_BY_GUEST = "unrated-by-guest"
    UNRATED_BY_YOU = "unrated-by-you"  # the same, to the guest it names
    UNRATED_BY_BOT = "unrated-by-bot"
    RATED_AGAIN = "rated-again"
    # a table's rules refused ('new', 'seek': bad-rules), read back by protocol.refusals
    RULES_UNKNOWN_VARIANT = "rules-unknown-variant"
    RULES_UNKNOWN_NEAR = "rules-unknown-near"
    RULES_UNKNOWN_NEAR_OPTION = "rules-unknown-near-option"
    RULES_UNKNOWN = "rules-unknown"
    RULES_ASKED_NEAR = "rules-asked-near"  # 'rules terz': the rule near it named
    RULES_VARIANT_AS_OPTION = "rules-variant-as-option"
    RULES_WRONG_KIND = "rules-wrong-kind"
    RULES_PLAYERS = "rules-players"
    RULES_VARIANT_PLAYERS = "rules-variant-players"
    RULES_NEEDS_BIDDING = "rules-needs-bidding"
    RULES_NOT_WITH_VARIANT = "rules-not-with-variant"
    RULES_ONLY_WITH_VARIANT = "rules-only-with-variant"
    RULES_CONTRADICT = "rules-contradict"
    RULES_NEEDS = "rules-needs"
    RULES_VARIANT_NEEDS = "rules-variant-needs"
    RULES_SET_DIFFERENTLY = "rules-set-differently"
    RULES_SAME_WORD = "rules-same-word"
    RULES_DEAL_CLASS = "rules-deal-class"
    RULES_SETUP_FAILED = "rules-setup-failed"
    RULES_SETTING_TYPE = "rules-setting-type"
    SEEK_PRIVATE = "seek-private"
    NEW_PRIVATE_NEAR = "new-private-near"
    LAST_RULES_GONE = "last-rules-gone"
    # a call inside a refusal: its token (English) or as a Russian player says it
    CALL_WORD = "call-word"
    # the admins' moderation (server/moderation.py, docs/protocol.md §5.19)
    ADMINS_ONLY = "admins-only"
    WHY = "why"
    ANNOUNCED = "announced"
    ANNOUNCE_SENT = "announce-sent"
    NOT_ON_ADMINS = "not-on-admins"
    NOT_ON_HOUSE_BOTS = "not-on-house-bots"
    KICKED = "kicked"
    KICK_DONE = "kick-done"
    BANNED = "banned"
    BAN_DONE = "ban-done"
    BAN_DISCONNECTED = "ban-disconnected"
    NAME_NOBODYS = "name-nobodys"
    BAN_REFUSED = "ban-refused"
    UNBAN_DONE = "unban-done"
    NOT_BANNED = "not-banned"
    BANS_NONE = "bans-none"
    BANS_HEAD = "bans-head"
    BAN_LINE = "ban-line"
    MUTED = "muted"
    MUTE_DONE = "mute-done"
    MUTE_REFUSED = "mute-refused"
    MUTED_AT_LOGIN = "muted-at-login"
    MUTE_MINUTES = "mute-minutes"
    MINUTES_WHOLE = "minutes-whole"
    NAME_BAN_NO_MINUTES = "name-ban-no-minutes"
    UNMUTED = "unmuted"
    UNMUTED_ELSEWHERE = "unmuted-elsewhere"
    UNMUTE_DONE = "unmute-done"
    NOT_MUTED = "not-muted"
    MUTES_NONE = "mutes-none"
    MUTES_HEAD = "mutes-head"
    MUTE_LINE = "mute-line"
    FINGER_BANNED = "finger-banned"
    FINGER_MUTED = "finger-muted"
    FINGER_ADDRESS = "finger-address"
    ADDRESS_BAN_NOT_ADDRESS = "address-ban-not-address"
    ADDRESS_BAN_NAME_MEANT = "address-ban-name-meant"
    NAME_STUCK_MEANT = "name-stuck-meant"
    ADDRESS_BAN_HOST_BITS = "address-ban-host-bits"
    ADDRESS_BAN_TOO_WIDE = "address-ban-too-wide"
    ADDRESS_BAN_MINUTES = "address-ban-minutes"
    ADDRESS_BAN_DONE = "address-ban-done"
    ADDRESS_BAN_REFUSED = "address-ban-refused"
    ADDRESS_UNBAN_DONE = "address-unban-done"
    ADDRESS_NOT_BANNED = "address-not-banned"
    ADDRESS_HELD_BY = "address-held-by"
    ADDRESS_HELD_BY_MANY = "address-held-by-many"
    ADDRESS_UNBAN_STILL_HELD = "address-unban-still-held"
    ADDRESS_UNBAN_STILL_HELD_MANY = "address-unban-still-held-many"
    ADDRESS_HOLDS = "address-holds"
    ADDRESS_HOLDS_MANY = "address-holds-many"
    ADDRESS_BAN_HELD_TOO = "address-ban-held-too"
    ADDRESS_BAN_HELD_TOO_MANY = "address-ban-held-too-many"
    ADDRESS_BAN_INSIDE_TOO = "address-ban-inside-too"
    ADDRESS_BAN_INSIDE_TOO_MANY = "address-ban-inside-too-many"
    ADDRESS_UNBAN_INSIDE = "address-unban-inside"
    ADDRESS_UNBAN_INSIDE_MANY = "address-unban-inside-many"
    ADDRESS_BANS_HEAD = "address-bans-head"
    ADDRESS_BAN_LINE = "address-ban-line"
    # a player's own ignore list (server/ignoring.py, docs/protocol.md §5.21)
    IGNORE_DONE = "ignore-done"
    IGNORE_AGAIN = "ignore-again"
    IGNORE_SELF = "ignore-self"
    IGNORE_MOST = "ignore-most"
    UNIGNORE_DONE = "unignore-done"
    NOT_IGNORED = "not-ignored"
    IGNORES_NONE = "ignores-none"
    IGNORES = "ignores"
    # the lobby's, the tables' and the accounts' refusals that had no Russian of their
    # own: a limit, a seat, a table (RU_ERRORS only says a code's gist)
    WRONG_PASSWORD = "wrong-password"
    NO_PASSWORD_HERE = "no-password-here"
    ADMIN_NAME_LOGIN = "admin-name-login"
    ADMIN_NAME_GUEST = "admin-name-guest"
    HOUSE_NAMES = "house-names"
    SLOW_WRONG_PASSWORDS = "slow-wrong-passwords"
    SLOW_PASSWORD_CHECKS = "slow-password-checks"
    SLOW_REGISTRATIONS = "slow-registrations"
    SLOW_PASSWORD_CHANGES = "slow-password-changes"
    REGISTRATIONS_WAITING = "registrations-waiting"
    LOGINS_BEING_CHECKED = "logins-being-checked"
    BUSY_REGISTRATIONS = "busy-registrations"
    SLOW_SEAT_LOGINS = "slow-seat-logins"
    SLOW_SEATS = "slow-seats"
    SLOW_TALK = "slow-talk"
    SLOW_LISTS = "slow-lists"
    MADE_ROOM = "made-room"
    LINES_WAITING = "lines-waiting"
    TOO_MANY_TABLES = "too-many-tables"
    NO_GAMES_HERE = "no-games-here"
    NO_TABLE_NUMBER = "no-table-number"
    ADDRESS_TABLES = "address-tables"
    ADDRESS_TABLE = "address-table"
    HOUSE_BOTS_AT_TABLE = "house-bots-at-table"
    HOUSE_BOT_AT_TABLE = "house-bot-at-table"
    HOUSE_BOTS_OF_ADDRESS = "house-bots-of-address"
    HOUSE_BOT_OF_ADDRESS = "house-bot-of-address"
    HOUSE_BOTS_ON_SERVER = "house-bots-on-server"
    HOUSE_BOT_ON_SERVER = "house-bot-on-server"
    HOUSE_BOTS_TOO_OFTEN = "house-bots-too-often"
    HOUSE_BOTS_SERVER_TOO_OFTEN = "house-bots-server-too-often"
    HOUSE_SEARCH_TABLES_OF_ADDRESS = "house-search-tables-of-address"
    HOUSE_SEARCH_AT_TABLE = "house-search-at-table"
    HOUSE_SEARCH_AT_TABLES = "house-search-at-tables"
    HOUSE_SEARCH_AT_ANOTHER = "house-search-at-another"
    HOUSE_SEARCH_AT_OTHERS = "house-search-at-others"
    HOUSE_SEARCH_AND_UNNAMED = "house-search-and-unnamed"
    HOUSE_SEARCH_TABLES_ON_SERVER = "house-search-tables-on-server"
    HOUSE_SEARCH_TABLE_ON_SERVER = "house-search-table-on-server"
    NOT_SEEKING = "not-seeking"
    SEATS_RANGE = "seats-range"
    SIT_AT_THAT_TABLE = "sit-at-that-table"
    NOT_OBSERVING = "not-observing"
    OBSERVING_NONE = "observing-none"
    TABLE_FAILED = "table-failed"
    TABLE_PLAYING = "table-playing"
    ALREADY_AT_TABLE = "already-at-table"
    SEATS_FOR_HOUSE_BOTS = "seats-for-house-bots"
    SEAT_FOR_HOUSE_BOT = "seat-for-house-bot"
    TABLE_RESERVED = "table-reserved"
    SEAT_NOT_FREE = "seat-not-free"
    NO_FREE_SEAT_AT = "no-free-seat-at"
    SIT_TO_CALL = "sit-to-call"
    TABLE_HAS_CLOSED = "table-has-closed"
    NO_TABLE = "no-table"
    FLOOD = "flood"


# a person's second 'leave' within this confirms the first (Msg.LEAVE_CONFIRM asks it;
# the server's human style, and the terminal client for the machine style's, docs/play.md)
LEAVE_CONFIRM_S = 10.0
# an answer to that question within the time: the seat is kept, and it is no call ('no'
# is an alias of ne-prokhodit otherwise; when that is a legal call now, it is the call)
LEAVE_DECLINED = frozenset({"no", "n", "net", "нет", "ні"})  # ні: Ukrainian
# 'yes' to it: no answer that leaves (a forfeit is typed 'leave'), told how instead (s43)
LEAVE_YES = frozenset({"yes", "y", "da", "да", "так"})  # так: Ukrainian

# key: (English, Russian). Only the English text is what the machine style says.
MESSAGES: dict[Msg, tuple[str, str]] = {
    Msg.NOTHING: ("", ""),
    Msg.AS_IS: ("{text}", "{text}"),
    Msg.OWN_WORDS: ("{en}", "{ru}"),
    Msg.RULES_BASE: (
        "{name}, where the lines above do not change it: {summary}",
        "{name} — во всём, чего не меняют строки выше: {summary}",
    ),
    Msg.BYE: (
        "Bye. Your seat, if any, waits for you.",
        "До встречи. Если у вас есть место за столом, оно вас ждёт.",
    ),
    Msg.STYLE: ("Style {style}.", "Стиль: {style}."),
    Msg.SORT_RANK: ("Your hand is shown by rank.", "Карты в руке — по порядку: 7 8 9 10 В Д К Т."),
    Msg.SORT_STRENGTH: ("Your hand is shown by strength.", "Карты в руке — по силе в игре."),
    Msg.CLOCK: (
        "Your clock: {seconds} s a call, from your next match's start.",
        "Ваши часы: {seconds} с на ход, с начала следующей партии.",
    ),
    Msg.WELCOME: (
        "Hello, {name} ({what}). {tables}, {players}. {commands}.{resume}",
        "Здравствуйте, {name} ({what}). {tables}, {players}. Команды: {commands}.{resume}",
    ),
    # the greeting's commands: during a drain none that starts a game (it is refused)
    Msg.LOBBY_COMMANDS: (
        "'tables', 'new', 'sit N', 'seek', 'help'",
        "tables, new, sit N, seek, help",
    ),
    Msg.LOBBY_COMMANDS_DRAINING: ("'tables', 'observe N', 'help'", "tables, observe N, help"),
    # the greeting on a server closed to games (max_tables = 0): neither 'new' nor 'seek'
    Msg.WELCOME_NO_GAMES: (
        "Hello, {name} ({what}). {tables}, {players}. This server plays no games for now:"
        " {commands}.{resume}",
        "Здравствуйте, {name} ({what}). {tables}, {players}. На этом сервере сейчас не"
        " играют; команды: {commands}.{resume}",
    ),
    Msg.LOBBY_COMMANDS_NO_GAMES: ("'who', 'top', 'help'", "who, top, help"),
    # the greeting of one whose seat is held: where he is, not the lobby's commands
    Msg.WELCOME_BACK: (
        "Hello, {name} ({what}). You are back at your seat at table {table}.{resume}",
        "Здравствуйте, {name} ({what}). Вы снова на своём месте за столом {table}.{resume}",
    ),
    # the greeting's counts: English says one in the singular (Russian, "label: N")
    Msg.TABLES_COUNT: ("{count} tables", "Столов: {count}"),
    Msg.ONE_TABLE: ("1 table", "Столов: 1"),
    Msg.PLAYERS_HERE: ("{count} players here", "игроков здесь: {count}"),
    Msg.ONE_PLAYER_HERE: ("1 player here", "игроков здесь: 1"),
    Msg.GUEST: ("guest", "гость"),
    # said of anyone: «зарегистрирован» was a man's (the welcome, finger)
    Msg.REGISTERED: ("registered", "имя зарегистрировано"),
    # the welcome of the login that registered it: what was typed after the name is
    # a password now, which a newcomer typing his full name did not mean
    Msg.REGISTERED_NOW: (
        "registered now, with the password you typed: log in with it next time",
        "имя зарегистрировано сейчас, с набранным паролем: входите с ним и дальше",
    ),
    Msg.RESUME: (
        " Your resume token is {token}: 'login {name} token={token}' takes "
        "your seat back if this connection drops.",
        # «жетон» read as a coin to the club: the code that brings you back; the line
        # to type keeps 'lang=ru', or the seat came back in English (a club evening)
        " Ваш код возврата: {token}. Если связь прервётся, «login {name} token={token}"
        " lang=ru» вернёт вам место.",
    ),
    Msg.LOGIN_USAGE: (
        "login NAME [PASSWORD | token=TOKEN] [lang=en|ru] [style=human|machine]",
        "login ИМЯ [ПАРОЛЬ | token=КОД] [lang=en|ru] [style=human|machine]",
    ),
    # 'login gus tell=asks' registered gus with the password 'tell=asks'
    Msg.LOGIN_SET_ELSEWHERE: (
        "login takes no {word}: '{command}' sets it, before or after login",
        "login не принимает {word}: это задаёт команда «{command}», до входа или после",
    ),
    Msg.LOGIN_NAME: (
        "a name is 2-20 letters, digits, '_' or '-'",
        "имя — от 2 до 20 букв, цифр, знаков «_» или «-»",
    ),
    Msg.NAME_SCRIPTS: (
        "a name keeps to one alphabet: Latin, Cyrillic, Greek, Armenian, Cherokee, Coptic,"
        " Lisu, Canadian syllabic and Tifinagh letters look alike, and are not mixed in it",
        "имя пишется одним алфавитом: латинские, кириллические, греческие, армянские,"
        " буквы чероки, коптские, лису, канадского слогового письма и тифинаг похожи,"
        " их не смешивают",
    ),
    Msg.NAME_DRAWN_AS_OTHERS: (
        "a name has no small capitals or phonetic letters, drawn as other letters (ᴏ as o,"
        " ʀ as R, ɡ as g, ǀ as l, ɑ as a): write it in the letters a language spells with",
        "в имени нет малых прописных и фонетических букв, похожих на другие (ᴏ как o,"
        " ʀ как R, ɡ как g, ǀ как l, ɑ как a): пишите его буквами, какими пишет язык",
    ),
    Msg.NAME_LOOKS_LIKE: (
        "{name} looks like {other}, a name taken (I, l and 1 look alike, as do O and 0,"
        " ı and i, rn and m, cl and d, vv and w, and the Cyrillic and Greek letters drawn"
        " as Latin ones): choose another",
        "{name} выглядит как {other}, имя занятое (I, l и 1 похожи, как и O и 0, ı и i,"
        " rn и m, cl и d, vv и w, и кириллические и греческие буквы, похожие на"
        " латинские): выберите другое",
    ),
    Msg.LOGGED_IN_AS: ("you are logged in as {name}", "вы уже вошли как {name}"),
    Msg.NEED_PASSWORD: (
        "{name} is registered: give the password",
        "имя {name} зарегистрировано: войдите с паролем",
    ),
    Msg.NAME_IN_USE: (
        "{name} is in use: to resume that seat log in with its token "
        "(login NAME token=TOKEN); else choose another name",
        "имя {name} занято: чтобы вернуться на своё место, войдите с кодом "
        "возврата (login ИМЯ token=КОД), иначе выберите другое имя",
    ),
    Msg.NAME_IN_USE_BY_GUEST: (
        "{name} is in use by a guest: register another name",
        "имя {name} занято гостем: зарегистрируйте другое",
    ),
    Msg.NAME_BEING_REGISTERED: (
        "{name} is being registered from another connection: try again in a moment, or"
        " choose another name",
        "имя {name} сейчас регистрируют с другого подключения: попробуйте через"
        " мгновение или выберите другое имя",
    ),
    # any command but those a connection may send before it logs in (connection.py): a
    # sentence of the catalogue, so a client reads it back in its language
    Msg.LOG_IN_FIRST: (
        "log in first: login NAME [PASSWORD]",
        "сначала войдите: login ИМЯ [ПАРОЛЬ]",
    ),
    Msg.NOT_A_COMMAND: (
        "{word!r} is not a command, and you sit at no table. Type 'help'.",
        "«{word}» — не команда, а за столом вы не сидите. Наберите help.",
    ),
    Msg.NOT_A_COMMAND_OVER: (
        "your match at table {table} is over: {word!r} is not a command, and you sit at no"
        " table. Type 'help'.",
        "ваша партия за столом {table} окончена: «{word}» — не команда, а за столом вы не"
        " сидите. Наберите help.",
    ),
    # an observer's table call: "you sit at no table" said nothing of the table he
    # watches (a tryout, s46)
    Msg.NOT_A_COMMAND_WATCHING: (
        "{word!r} is not a command, and you watch table {table}: its players make the"
        " calls. Type 'help'.",
        "«{word}» — не команда, а за столом {table} вы зритель: ходят игроки. Наберите help.",
    ),
    # a line that is neither a command nor a call, at one's own table not started: the
    # table said "the game has not started" to 'bott' (a tryout, s49), where the lobby
    # hints 'bot'; what the table waits for said with it
    Msg.NOT_A_COMMAND_NOT_STARTED: (
        "{word!r} is not a command, and the game at table {table} has not started:"
        " {waits}. Type 'help'.",
        "«{word}» — не команда, а партия за столом {table} ещё не началась: {waits}."
        " Наберите help.",
    ),
    Msg.WAITING_ONE_MORE: ("waiting for 1 more player", "стол ждёт ещё одного игрока"),
    Msg.WAITING_MORE: ("waiting for {count} more players", "стол ждёт ещё {count} игроков"),
    # ('; ', not ': ' after a line's 'has not started: ', two colons in a row)
    Msg.WAITING_BOT_SEATS: ("{waits}; 'bot' seats one", "{waits}; bot посадит бота"),
    Msg.WAITING_AWAY: ("waiting for {names} to come back", "стол ждёт возвращения: {names}"),
    # 'state' just after one's match ended ('last', 'sheet', 'history' show it)
    Msg.NOT_SEATED_OVER: (
        "you sit at no table and observe none: your match at table {table} is over"
        " ('last', 'sheet' and 'history' show it)",
        "вы не сидите за столом и ни за каким не смотрите: ваша партия за столом {table}"
        " окончена (её показывают last, sheet и history)",
    ),
    # 'state' just after the match one watched ended (a tryout, s47)
    Msg.NOT_SEATED_WATCHED_OVER: (
        "you sit at no table and observe none: the match you watched at table {table} is"
        " over ('last', 'sheet' and 'history' show it)",
        "вы не сидите за столом и ни за каким не смотрите: партия за столом {table}, которую"
        " вы смотрели, окончена (её показывают last, sheet и history)",
    ),
    # 'calls rost?': it lists them all (docs/protocol.md §4.4), an argument was ignored
    Msg.CALLS_NO_CALL: (
        "'calls' lists every table call and takes none: 'help {word}' tells of one",
        "calls перечисляет все ходы и хода не принимает: о нём — help {word}",
    ),
    Msg.CALL_RANGE: ("{call} N: N from {low} to {high}", "{call} N: N от {low} до {high}"),
    Msg.NOT_A_CALL: (
        "{reason}. Type 'help' or 'calls'.",
        "«{typed}» — не ход и не заявка. Наберите help или calls.",
    ),
    # the English of each is the reason as protocol/vocabulary.py words it (the
    # machine style's text=, unchanged); protocol/refusals.py reads the reason back
    Msg.NOT_A_CALL_WHY: ("{why}. Type 'help' or 'calls'.", "{why}. Наберите help или calls."),
    # a slip of a call that is not legal now: the call, and why not (a tryout, s47: only
    # a legal call's slip was told the call meant)
    Msg.NEAR_CALL_NOT_NOW: (
        "{refused}. Did you mean {call}? Not now: {why}.",
        "{refused}. Может быть, {call}? Сейчас нельзя: {why}.",
    ),
    Msg.NOT_A_CALL_HEAD: ("{reason}", "«{typed}» — не ход и не заявка"),
    Msg.UNREAD_HERE: (
        "not a table call here: {typed!r}",
        "«{typed}» за этим столом не ход и не заявка: так говорят за столами с другими"
        " опциями (help {typed} скажет, с какими)",
    ),
    Msg.UNREAD_CARD: (
        "not a card: {typed!r} (try 10h, Js, Q♠)",
        "«{typed}» — не карта (пишите так: 10ч, Вп, Д♠, туз пик)",
    ),
    Msg.UNREAD_SUIT: (
        "name a suit: igrayu s|h|d|c (got {typed!r})",
        "назовите масть: играю п|ч|б|к, или ♠ ♥ ♦ ♣, или играю черви (набрано «{typed}»)",
    ),
    Msg.UNREAD_TOP: (
        "say the top card: ot korolya, ot K, ot korolya kozyrnogo, от козырной дамы"
        " (got {typed!r})",
        "назовите старшую карту: от короля, от К, от короля козырного, от козырной дамы"
        " (набрано «{typed}»)",
    ),
    Msg.UNREAD_RANK: (
        "not a rank: {typed!r} (7 8 9 10 J Q K A, or korolya, tuza ...)",
        "«{typed}» — не достоинство карты (7 8 9 10 В Д К Т, или короля, туза …)",
    ),
    Msg.AMBIGUOUS_CARD: (
        "{letter}{suit}: the ten or the ace? Latin T is the ten, Cyrillic Т the ace, "
        "and they look alike: type 10{suit} or A{suit}.",
        "{letter}{suit} — туз или десятка? Латинская T — десятка, русская Т — туз, "
        "а на вид они одинаковы: напишите «туз {suit}» или «10{suit}».",
    ),
    Msg.AMBIGUOUS_OT: (
        "ot {letter}: from the ten or from the ace? Latin T is the ten, Cyrillic Т "
        "the ace: type ot 10 or ot A.",
        "от {letter} — от туза или от десятки? Напишите «от туза» или «от десятки».",
    ),
    # a rank typed without its suit ('K'): the cards of it one may play (§8.1)
    Msg.RANK_WHICH: (
        "'{typed}' is which card: {cards}? Type it with its suit.",
        "«{typed}» — какая карта: {cards}? Напишите её с мастью.",
    ),
    # 'hod' alone (§8.1): an example of the move, the cards one may play
    Msg.PLAY_WHICH: (
        "'{typed}' plays which card? Name it: {example}; you may play {cards}.",
        "«{typed}» — какой картой? Назовите её: {example}; сыграть можно {cards}.",
    ),
    Msg.RANK_ALONE: (  # (the one card it may be is the refusal's hint)
        "'{typed}' alone is no card: type it with its suit.",
        "«{typed}» без масти — не карта: напишите её с мастью.",
    ),
    # on one's move, no card of that rank one may play: what one may play instead
    Msg.RANK_NONE: (
        "'{typed}': you have no card of that rank you may play now; you may play {cards}.",
        "«{typed}»: такой карты, которую можно сыграть сейчас, у вас нет; сыграть можно {cards}.",
    ),
    Msg.AMBIGUOUS_CALL: (
        "'{typed}' may be {calls}: say which.",
        "«{typed}» — это может быть {calls}: скажите, что именно.",
    ),
    # «пишу»: the talk's «пишет» said of oneself (docs/protocol.md §8.2)
    Msg.FIRST_PERSON_WRITES: (
        "'{typed}' is no call: to give way, say pishet (the other's combination is "
        "written); a better combination of yours is said by its top card: {top}.",
        "«{typed}» — не ход: уступить — «пишет» (записывается комбинация соперника); "
        "свою, если она лучше, называют по старшей карте: {top}.",
    ),
    Msg.SIT: (
        "You sit at table {table}, seat {seat}.{others}",
        "Вы за столом {table}, место {seat}.{others}",
    ),
    Msg.TEXT_NONE: ("{usage}", "{usage}: нужен текст"),
    Msg.TEXT_BIDI: (
        "{usage}: no bidi controls ({controls})",
        "{usage}: без знаков смены направления письма ({controls})",
    ),
    Msg.TEXT_INVISIBLE: (
        "{usage}: no characters drawn as nothing (zero-width spaces, invisible marks and"
        " tags, the Hangul fillers), and something to see",
        "{usage}: без невидимых символов (пробелов нулевой ширины, невидимых знаков и"
        " тегов, корейских заполнителей), и чтобы было что прочесть",
    ),
    Msg.TEXT_MARKS: (
        "{usage}: at most {most} combining marks (accents) on one character",
        "{usage}: не больше {most} надстрочных знаков (ударений) на одной букве",
    ),
    Msg.SEAT_KEPT_AFTER_STALL: (
        "Table {table} plays on after all: its server answers again, and your seat is still yours.",
        "Стол {table} всё же играет: его сервер снова отвечает, и ваше место за вами.",
    ),
    Msg.SIT_OTHERS: (" At the table: {names}.", " За столом: {names}."),
    Msg.SEAT_OF: ("{name} (seat {seat})", "{name} (место {seat})"),
    # one away at a table not yet full, in the sit reply (docs/protocol.md §5.4)
    Msg.SEAT_OF_AWAY: (
        "{name} (seat {seat}, away: the seat is held {seconds} s more)",
        "{name} (место {seat}, нет связи: место держится ещё {seconds} с)",
    ),
    Msg.OBSERVE: ("You observe table {table}.", "Вы смотрите за столом {table}."),
    Msg.UNOBSERVE: (
        "You stop observing table {table}.",
        "Вы больше не смотрите за столом {table}.",
    ),
    # 'unobserve' of every table watched, when they are several
    Msg.UNOBSERVE_MANY: (
        "You stop observing tables {tables}.",
        "Вы больше не смотрите за столами {tables}.",
    ),
    Msg.LEAVE: ("You leave table {table}.", "Вы встали из-за стола {table}."),
    Msg.LEAVE_DECLINED: ("You stay at table {table}.", "Вы остаётесь за столом {table}."),
    Msg.LEAVE_HOW: (
        "You are still at table {table}: to leave it, 'leave' again within {seconds} s,"
        " or 'leave!'.",
        "Вы ещё за столом {table}: чтобы уйти, наберите leave ещё раз в течение {seconds} с"
        " (или сразу leave!).",
    ),
    Msg.LEAVE_CONFIRM: (
        "Leaving forfeits the game for your side. 'leave' again within "
        "{seconds} s, or 'leave!', to leave.",
        "Если уйти, партия будет проиграна для вашей стороны. Чтобы уйти, наберите "
        "leave ещё раз в течение {seconds} с (или сразу leave!).",
    ),
    Msg.WAITS_FOR_PLAYERS: (
        "Table {table} waits for players: {seats}",
        "Стол {table} ждёт игроков: {seats}",
    ),
    # a full waiting table deals to no empty chair (docs/protocol.md §12)
    Msg.WAITS_FOR_AWAY: (
        "Table {table} is full and waits for {names} to come back, then the game starts;"
        " a seat whose player is not back in time is freed for another player.",
        "Стол {table} полон и ждёт возвращения: {names}. Тогда начнётся партия; место"
        " того, кто не вернётся вовремя, освободится для другого игрока.",
    ),
    Msg.AWAY_HELD: ("{name} ({seconds} s left)", "{name} (осталось {seconds} с)"),
    Msg.PLAYING_AWAY: (
        "Disconnected, the seat held and the clock running: {names}.",
        "Нет связи (место ждёт, часы идут): {names}.",
    ),
    Msg.FREE_SEAT: ("(free)", "(свободно)"),
    Msg.CLOCK_WARNING: ("{seconds} s left to answer.", "Осталось {seconds} с на ответ."),
    Msg.CLOCK_WARNING_LAST: (
        "{seconds} s left to answer: if the clock runs out now, the game is lost"
        " ({count} in a row).",
        "Осталось {seconds} с на ответ: если время выйдет и сейчас, партия проиграна"
        " (пропусков подряд: {count}).",
    ),
    Msg.TABLE_CLOSES: ("Table {table} closes: {reason}.", "Стол {table} закрывается: {reason}."),
    # a table whose match is cut off (the server stops): what becomes of the match
    Msg.MATCH_STOPPED: (
        "Table {table} closes: {reason}. Match {match} stops here: nobody wins or loses,"
        " and it is not rated.",
        "Стол {table} закрывается: {reason}. Партия {match} прервана: без победителя,"
        " в рейтинг не идёт.",
    ),
    # at a registered player's login after a restart (server/cut_off.py)
    Msg.CUT_OFF: (
        "Your last match, {match} at table {table}, was cut off when the server stopped"
        " ({when} UTC): nobody won or lost, and it was not rated. 'games' lists it.",
        "Ваша последняя партия {match} за столом {table} прервана: сервер остановился"
        " ({when} UTC). Без победителя, в рейтинг не идёт; она есть в списке games.",
    ),
    # the same, the match's server killed or crashed: listed server-lost as a server
    # started after it (or outlived it) found it gone (docs/scaling.md); ``reason``:
    # Msg.SERVER_LOST, as a player there at the time was told it (one wording)
    Msg.CUT_OFF_LOST: (
        "Your last match, {match} at table {table}, was cut off when {reason}"
        " ({when} UTC): it is listed as server-lost; nobody won or lost, and it was not"
        " rated. 'games' lists it.",
        "Ваша последняя партия {match} за столом {table} прервана: {reason}"
        " ({when} UTC). Без победителя, в рейтинг не идёт; она есть в списке games"
        " (сервер потерян).",
    ),
    # the reason of a stop by a signal (Msg.SHUTTING_DOWN, Msg.TABLE_CLOSES)
    Msg.SIGNAL_RECEIVED: ("{signal} received", "получен сигнал {signal}"),
    # a worker of serve --workers stops as its bus is lost (cluster/bus_lost.py), and
    # the other workers' word of a table whose worker died or stopped (cluster/node.py)
    Msg.BUS_LOST: ("its database connection was lost", "у сервера пропала связь с базой данных"),
    # (the word of games' server-lost: «сервер потерян»; not «не отвечает», which the
    # notice at a later login, Msg.CUT_OFF_LOST, could not say of a server long dead)
    Msg.SERVER_LOST: ("its server was lost", "его сервер потерян"),
    Msg.SERVER_STOPPED: ("its server stopped", "его сервер остановился"),
    Msg.NOT_STARTED: ("the game has not started", "партия ещё не началась"),
    Msg.GAME_IS_OVER: ("the game is over", "партия окончена"),
    Msg.NO_TRICK_YET: ("no trick has been taken yet", "ещё не взято ни одной взятки"),
    Msg.PLAYERS_LEFT: ("its players left", "игроки ушли"),
    Msg.SEEK: (
        "Waiting for a {variant} game {for_players}{options}.",
        "Ждём партию: {variant} {for_players}{options}.",
    ),
    # a match its seeker came by, left by another before its first deal ended («в начале
    # очереди», not «первым»: a woman waits too; «с игроком NAME»: no name is declined)
    Msg.SEEK_KEPT: (
        "{name} left before the first deal ended: you still wait for a {variant} game"
        " {for_players}{options}, first in line{apart}.",
        "{name} покидает стол до конца первой раздачи: вы снова ждёте партию"
        " {variant} {for_players}{options}, в начале очереди{apart}.",
    ),
    # the same, told to a program (the machine style), which seeks itself
    Msg.SEEK_KEPT_PLACE: (
        "{name} left before the first deal ended: seek a {variant} game {for_players}{options}"
        " again and you are first in line{apart}.",
        "{name} покидает стол до конца первой раздачи: наберите seek этой партии"
        " ({variant} {for_players}{options}) снова — и встанете в начало очереди{apart}.",
    ),
    Msg.SEEK_APART: (
        ", and are not matched with {name} again for {minutes} min",
        ", и с игроком {name} вас {minutes} мин не сведут",
    ),
    # a seek passing a waiting table of its game by, kept apart from someone there: by a
    # leave between them, or by an address two leavers came from (his or the other's),
    # said plainly with what he may do; never whom (docs/protocol.md §5.5)
    Msg.SEEK_PASSED: (
        "A table waiting for this game is passed over: you and a player there were in a"
        " match one of you left early, and 'seek' does not pair you again for {minutes}"
        " min more. You wait for another player meanwhile, or 'new' opens a table of"
        " your own.",
        "Стол, который ждёт эту партию, пропущен: вы с одним из его игроков были в"
        " партии, которую кто-то из вас рано покинул, и seek не сведёт вас ещё {minutes}"
        " мин. Вы ждёте другого игрока — или откройте свой стол: new.",
    ),
    Msg.SEEK_PASSED_THEIR_ADDRESS: (
        "A table waiting for this game is passed over: a player there comes from the"
        " address of two players who left your matches early, and 'seek' keeps that"
        " address apart from you for {minutes} min more. You wait for another player"
        " meanwhile, or 'new' opens a table of your own.",
        "Стол, который ждёт эту партию, пропущен: один из его игроков — с адреса"
        " двоих, кто рано покинул ваши партии, и seek не сводит вас с этим адресом ещё"
        " {minutes} мин. Вы ждёте другого игрока — или откройте свой стол: new.",
    ),
    Msg.SEEK_PASSED_OWN_ADDRESS: (
        "A table waiting for this game is passed over: two players from your address"
        " (one address may be a whole household or network) left a match of a player"
        " there early, and 'seek' keeps your address apart from him for {minutes} min"
        " more. You wait for another player meanwhile, or 'new' opens a table of your"
        " own.",
        "Стол, который ждёт эту партию, пропущен: двое с вашего адреса (за одним адресом"
        " бывает целая семья или сеть) рано покинули партию одного из его игроков, и"
        " seek не сводит его с вашим адресом ещё {minutes} мин. Вы ждёте другого игрока"
        " — или откройте свой стол: new.",
    ),
    Msg.SEEK_RESERVED: (
        "Waiting for a table reserved for you.",
        "Ждём стол, оставленный для вас.",
    ),
    Msg.UNSEEK: ("You no longer wait for a game.", "Вы больше не ждёте партию."),
    Msg.SHUTTING_DOWN: (
        "The server is shutting down: {reason}.",
        "Сервер останавливается: {reason}.",
    ),
    Msg.DRAINING: (
        "The server restarts once the running matches are over: no new game starts until then.",
        "Сервер перезапустится, когда закончатся идущие партии: до тех пор новые партии"
        " не начинаются.",
    ),
    Msg.DRAIN_REFUSED: (
        "the server restarts once the running matches are over: no new game starts now",
        "сервер перезапустится, когда закончатся идущие партии: новые партии сейчас не начинаются",
    ),
    # a waiting table's reason to close (Msg.TABLE_CLOSES)
    Msg.DRAIN_TABLE: (
        "the server restarts once the running matches are over (its game had not started)",
        "сервер перезапустится, когда закончатся идущие партии (партия за ним не начиналась)",
    ),
    # the stop's reason after a drain (Msg.SHUTTING_DOWN)
    Msg.DRAINED: ("the running matches are over", "идущие партии закончились"),
    # the same, of one worker of serve --workers: another's matches may play on
    Msg.DRAINED_WORKER: (
        "this worker's matches are over",
        "партии этого рабочего процесса закончились",
    ),
    Msg.PASSWORD_NONE: (
        "a guest has no password: 'login NAME PASSWORD' registers a free name",
        "у гостя нет пароля: login ИМЯ ПАРОЛЬ регистрирует свободное имя",
    ),
    # 'password OLD NEW' with OLD wrong: said which of the two (a login's wording named
    # neither: a tryout, s43)
    Msg.PASSWORD_OLD_WRONG: (
        "OLD is not your password: 'password OLD NEW' takes the one you log in with first",
        "СТАРЫЙ — не ваш пароль (password СТАРЫЙ НОВЫЙ)",  # one line of 80, its code before
    ),
    Msg.PASSWORD_SAME: (
        "OLD and NEW are the same: a new password must differ",
        "СТАРЫЙ и НОВЫЙ совпадают: новый пароль должен быть другим",
    ),
    Msg.PASSWORD_SHORT: (
        "a new password is at least {least} characters: choose a longer one",
        "новый пароль — не короче {least} знаков: выберите подлиннее",
    ),
    Msg.PASSWORD_RESERVED: (
        "a password may not begin with 'token=', 'lang=', 'style=', 'tell=', 'sort=' or"
        " 'clock=': 'login' reads those otherwise",
        "пароль не может начинаться с token=, lang=, style=, tell=, sort= или clock=:"
        " login читает их иначе",
    ),
    Msg.PASSWORD_CHANGED: (
        "Your password is changed: log in with the new one from now on.",
        "Пароль изменён: теперь входите с новым.",
    ),
    Msg.DRAIN_LIMIT: (
        "the wait for the running matches is over",
        "время ожидания идущих партий истекло",
    ),
    Msg.DRAIN_BEGUN: (
        "Draining: the server stops once its running matches are over (playing now:"
        " {matches}); no new game starts meanwhile.",
        "Сервер остановится, когда закончатся идущие партии (сейчас идёт: {matches});"
        " до тех пор новые партии не начинаются.",
    ),
    Msg.DRAIN_ALREADY: (
        "The server drains already (playing now: {matches}): nothing changes.",
        "Сервер уже ждёт конца идущих партий (сейчас идёт: {matches}): ничего не меняется.",
    ),
    Msg.DRAIN_NO_ARGUMENT: (
        "drain takes no argument: it begins the drain now, and there is no delayed one",
        "drain набирают без аргументов: ожидание конца партий начинается сразу, отложенного нет",
    ),
    Msg.DRAIN_STOPPING: (
        "the server is shutting down already: there is nothing to drain",
        "сервер уже останавливается: ждать нечего",
    ),
    Msg.SEAT_KEPT_ELSEWHERE: (
        "Your seat at table {table} is kept on another server: log in again (a guest with"
        " his token) to take it back.",
        "Ваше место за столом {table} сохраняется на другом сервере: войдите снова (гость —"
        " со своим кодом возврата), чтобы вернуться за стол.",
    ),
    Msg.WHO: ("{total} here: {names}{more}", "Игроков здесь — {total}: {names}{more}"),
    Msg.NOBODY: ("nobody", "никого"),
    Msg.PAGE: (" (page {page} of {pages}.{after})", " (страница {page} из {pages}.{after})"),
    Msg.PAGE_NEXT: (" '{command} {page}' for more.", " Дальше: {command} {page}."),
    Msg.NO_TABLES: (
        "No tables. 'new' opens one, 'seek' waits for a game.",
        "Столов нет. new открывает стол, seek ждёт партию.",
    ),
    Msg.NO_TABLES_NO_GAMES: (  # max_tables = 0, as 'new' and 'seek' are told (NO_GAMES_HERE)
        "No tables: this server plays no games for now.",
        "Столов нет: на этом сервере сейчас не играют.",
    ),
    Msg.NO_TABLES_DRAINING: (  # a drain (§11.4a), as 'new' and 'seek' are told (DRAIN_REFUSED)
        "No tables: the server restarts once the running matches are over, and no new"
        " game starts until then.",
        "Столов нет: сервер перезапустится, когда закончатся идущие партии, и до тех пор"
        " новые партии не начинаются.",
    ),
    Msg.TABLE_LINE: (
        "Table {table}{private}: {variant} {for_players}{options}, {state}: {seats}",
        "Стол {table}{private}: {variant} {for_players}{options}, {state}: {seats}",
    ),
    Msg.WAITING: ("waiting", "ждёт игроков"),
    Msg.PLAYING: ("playing", "играют"),
    Msg.PLAYING_DEAL: ("playing deal {deal}", "играют, раздача {deal}"),
    Msg.CLOSED: ("closed", "закрыт"),
    Msg.NO_GAMES: ("No finished games for {name}.", "У игрока {name} нет законченных партий."),
    Msg.GAME_LINE: (
        "{finished}  {match}  table {table}{variant}  {players}  {totals}  "
        "winner {winner} ({reason})",
        "{finished}  {match}  стол {table}{variant}  {players}  {totals}  "
        "победа: {winner} ({reason})",
    ),
    Msg.SHEET_TITLE: (
        "Score sheet, table {table}{goal}: each side's written points, then its total.",
        "Запись, стол {table}{goal}: записанные очки каждой стороны и итог.",
    ),
    # a short game's sheet counts stakes, not points (docs/rules.md §11)
    Msg.SHEET_TITLE_STAKES: (
        "Score sheet, table {table}{goal}: each side's stakes, then its total.",
        "Запись, стол {table}{goal}: ставки каждой стороны и итог.",
    ),
    Msg.SHEET_TARGET: (" (to {target})", " (до {target})"),
    # the rows' first columns, padded to one width by the code (by terminal cells)
    Msg.SHEET_HEADER: ("deal outcome", "разд. исход"),
    Msg.SHEET_HEADER_WON: ("deal won by", "разд. победитель"),  # a short game's (§11)
    Msg.SHEET_ROW: ("{deal:>4} {outcome}{cells}{notes}", "{deal:>4} {outcome}{cells}{notes}"),
    # a deal of a short game without a bide, by its winner (docs/rules.md §11)
    Msg.DEAL_WON_BY: ("won by {side}", "победитель — {side}"),
    # a void deal is not played: nobody writes, hanging points keep hanging (rules.md §2, §5)
    Msg.DEAL_VOID: (
        # dealt again, as «пересдача» says (all passed: the next dealer's; four sevens:
        # the same dealer's, docs/rules.md §2)
        "Deal {deal}: void{why}: dealt again, nothing is written. Totals: {totals}.",
        "Раздача {deal}: пересдача{why}: ничего не записано. Итого: {totals}.",
    ),
    # what each seat's declarations counted in a deal (its record's declared[].scored)
    Msg.SCORED: ("Scored for combinations: {combos}.", "За комбинации: {combos}."),
    # after a bide side's combinations there: whose points they became (docs/rules.md §5)
    Msg.SCORED_TO_SEAT: (" (a bide: written by {side})", " (байд: записаны вистующему {side})"),
    Msg.SCORED_TO_PAIR: (" (a bide: written by {side})", " (байд: записаны паре {side})"),
    Msg.SCORED_SHARED: (
        " (a bide: shared by the whistlers, {sides})",
        " (байд: их делят вистующие {sides})",
    ),
    Msg.SCORED_HANGS: (" (a hanging bide: they hang)", " (висячий байд: они висят)"),
    # the points hanging from a hanging bide, written in this deal (docs/rules.md §5)
    Msg.HUNG_WON: (
        "The {hanging} points that hung go to {side}.",
        "Висевшие очки ({hanging}) записаны: {side}.",
    ),
    Msg.HUNG_SHARED: (
        "The {hanging} points that hung are shared by the whistlers, {sides}.",
        "Висевшие очки ({hanging}) делят вистующие: {sides}.",
    ),
    # names listed with the language's 'and' before the last (render.and_list)
    Msg.AND_LIST: ("{items} and {last}", "{items} и {last}"),
    # the table's view again ('state', a resume): what the deal's events told
    Msg.STATE_TALK: ("Talk: {talk}", "Разговор: {talk}"),
    Msg.STATE_SHOWN: ("Shown: {shown}", "Показано: {shown}"),
    Msg.STATE_TRICKS: ("Tricks taken: {tricks}.", "Взято взяток: {tricks}."),
    # four sevens held while another is to act (docs/rules.md §2: even out of turn)
    Msg.SEVENS_NOW: (
        "You may say {call} now, out of turn: the deal is dealt again.",
        "Можно сказать «{call}» сейчас, не в свой ход: раздачу сдадут заново.",
    ),
    # a rule plugin's calls a seat may make while another is to act (docs/plugins.md)
    Msg.OWN_CALLS_NOW: (
        "You may say {calls} now, out of turn.",
        "Можно сказать {calls} сейчас, не в свой ход.",
    ),
    Msg.VOID_ALL_PASSED: (" (all passed)", " (все спасовали)"),
    Msg.VOID_SEVENS: (" (four sevens)", " (четыре семёрки)"),
    Msg.SHEET_BIDES: ("  bides {bides}", "  байды {bides}"),
    Msg.SHEET_HANGING: ("  hanging {hanging}", "  висит {hanging}"),
    Msg.SHEET_EMPTY: ("   - no deal finished yet", "   - ни одна раздача ещё не закончена"),
    Msg.SHEET_NONE: (
        "   - no deal: the match ended before anyone made a call",
        "   - ни одной раздачи: партия кончилась раньше первого хода",
    ),
    Msg.VERSUS: (" v ", " — "),
    Msg.TOO_MANY_PASSWORDS: (
        "Too many wrong passwords: the connection closes.",
        "Слишком много неверных паролей: соединение закрывается.",
    ),
    Msg.LOGGED_IN_ELSEWHERE: (
        "You logged in from another connection; this one closes.",
        "Вы вошли с другого соединения; это закрывается.",
    ),
    Msg.RULES_LIST: (
        "Variants and options you can ask for with 'new' or 'seek':",
        "Варианты и опции для new и seek:",
    ),
    Msg.RULES_ENTRY: (
        "{name} ({kind}, {counts} players): {summary}",
        "{name} ({kind}, игроков: {counts}): {summary}",
    ),
    Msg.RULES_VARIANT_ENTRY: (
        "{name} ({kind}, {counts} players, to {target}): {summary}",
        "{name} ({kind}, игроков: {counts}, до {target}): {summary}",
    ),
    Msg.HELP_MEANT: (
        "no command '{topic}': did you mean 'help {command}'?",
        "нет команды «{topic}»; может быть, help {command}?",
    ),
    # «игрок» before the name: a name is not declined after «У», and «он», «не взявший»
    # agree with «игрок» whoever plays (a tryout, s50)
    Msg.SPLIT_COUNTS_FEWER: (
        "{name} took fewer tricks, so he counts his cards: {cards}, written as {written};"
        " {other} writes the rest.",
        "У игрока {name} меньше взяток, он и считает: его карты — {cards}, записано"
        " {written}; {other} записывает остальное.",
    ),
    Msg.SPLIT_COUNTS_EQUAL: (
        "Equal tricks: {name}, who did not take the last, counts his cards: {cards},"
        " written as {written}; {other} writes the rest.",
        "Взяток поровну: считает игрок {name}, не взявший последнюю, — его карты {cards},"
        " записано {written}; {other} записывает остальное.",
    ),
    Msg.HELP_VARIANT: (
        "'{name}' is a variant, not a command: 'new {how}' opens a table of it,"
        " 'seek {how}' waits for one ('rules {name}' says it too).",
        "«{name}» — вариант, а не команда: new {how} открывает такой стол, seek {how}"
        " ждёт такую партию (то же скажет rules {name}).",
    ),
    Msg.HELP_OPTION: (
        "'{name}' is an option, not a command: 'new {how}' opens a table with it,"
        " 'seek {how}' waits for one ('rules {name}' says it too).",
        "«{name}» — опция, а не команда: new {how} открывает стол с ней, seek {how}"
        " ждёт такую партию (то же скажет rules {name}).",
    ),
    Msg.CALLS_ABOUT: (
        "{topic} is no command. The table calls that say it ('calls' lists them all):",
        "«{topic}» — не команда. Ходы за столом с этим словом (все ходы — в calls):",
    ),
    Msg.HELP_TOPIC: (
        "{topic} is no command. The table calls for it ('calls' lists them all):",
        "«{topic}» — не команда. Ходы за столом для этого (все ходы — в calls):",
    ),
    Msg.HELP_TOPIC_ELSEWHERE: (
        "{topic} is no command. The calls for it are other tables', not played at this table:",
        "«{topic}» — не команда. Такие ходы есть за другими столами, за этим столом их нет:",
    ),
    Msg.CALLS_ELSEWHERE: (
        "{topic} is no command but a call of other tables, not played at this table:",
        "«{topic}» — не команда, а ход за другими столами; за этим столом его нет:",
    ),
    Msg.HELP_CARD: (
        "{topic} is a card, not a command: at a table, type it on your turn to play it. "
        "'calls' lists what may be said at a table.",
        "«{topic}» — карта, а не команда: чтобы сыграть её, наберите её за столом в свой "
        "ход. Что можно сказать за столом, перечисляет calls.",
    ),
    Msg.HELP_CALL: (
        "{topic} is no command but a table call: {call}. 'calls' lists what may be said "
        "at a table.",
        "«{topic}» — не команда, а ход за столом: «{call}». Что можно сказать за столом, "
        "перечисляет calls.",
    ),
    Msg.HELP_CALL_OF: (
        "{topic} is no command but {whose}: {call}. 'calls' lists what may be said at a table.",
        "«{topic}» — не команда, а {whose}: «{call}». Что можно сказать за столом, "
        "перечисляет calls.",
    ),
    Msg.HELP_CALL_ELSEWHERE: (
        "{topic} is no command but {whose}: {call}, not played at this table. 'calls' "
        "lists this table's calls.",
        "«{topic}» — не команда, а {whose}: «{call}»; за этим столом его нет. Ходы этого "
        "стола перечисляет calls.",
    ),
    Msg.HELP_ANSWER: (
        "{topic} is no command but a table call: {call}, an answer to this question "
        "('calls' lists them all):",
        "«{topic}» — не команда, а ход за столом: «{call}», ответ на этот вопрос (все "
        "ходы — в calls):",
    ),
    # prokhodit's other meaning where pishet is played too (docs/rules.md §3)
    Msg.HELP_ALSO_CONCEDES: (
        "Said once your rost? is answered, the word concedes, as pishet:",
        "После ответа на ваш рост? это слово уступает, как пишет:",
    ),
    Msg.HELP_CALL_HERE: (
        "At this table the same call is {call}.",
        "За этим столом тот же ход — «{call}».",
    ),
    Msg.GAME_TABLE_CALL: ("a {game} table call", "ход за столом игры {game}"),
    Msg.OPTION_TABLE_CALL: (
        "a call of the tables with the option {option}",
        "ход за столами с опцией {option}",
    ),
    Msg.OTHER_TABLES_CALL: ("a call of other tables", "ход за другими столами"),
    Msg.CALL_NUMBERED: ("{call} N (N from {low} to {high})", "{call} N (N от {low} до {high})"),
    Msg.OPTION_CALLS: (
        "Calls of options, at the tables that play them:",
        "Заявки опций, за столами, где они играют:",
    ),
    Msg.TABLE_OPTION_CALLS: ("Calls of this table's options:", "Заявки опций этого стола:"),
    Msg.GAME_CALLS: (
        "Calls of the game {variant} (a plugin's game of its own), in its words:",
        "Заявки игры {variant} (своя игра плагина), её словами:",
    ),
    Msg.GAME_OTHER_CALLS: (
        "  Its other calls are the engine's (a card: 10h, Js); 'help' at its table lists"
        " those you may make now.",
        "  Остальные её заявки — общие (карта: 10ч, Вп); 'help' за её столом называет"
        " те, что можно сейчас.",
    ),
    Msg.VARIANT_REFUSES: (
        "{variant} is not played with the options: {names}.",
        "{variant} не играется с опциями: {names}.",
    ),
    Msg.VARIANT_NO_BIDDING: (
        "{variant} has no bidding: it refuses every option that needs a player who orders.",
        "В {variant} никто не заказывает: опции, которым нужен заказавший, не играются.",
    ),
    Msg.VARIANT: ("variant", "вариант"),
    Msg.OPTION: ("option", "опция"),
    Msg.OPTION_OF: ("option of {variant}", "опция варианта {variant}"),
    Msg.RULES_TABLE: (
        "Table {table}: {variant} {for_players}, options: {options}, {goal}",
        "Стол {table}: {variant} {for_players}, опции: {options}, {goal}",
    ),
    # the target set by an option, whose own line says it (server/help.py)
    Msg.RULES_TABLE_OPTIONS: (
        "Table {table}: {variant} {for_players}, options: {options}.",
        "Стол {table}: {variant} {for_players}, опции: {options}.",
    ),
    Msg.NO_OPTIONS: ("none", "нет"),
    Msg.TO_TARGET: ("to {target}.", "до {target}."),
    Msg.ONE_DEAL: ("one deal decides.", "всё решает одна раздача."),
    Msg.RULES_CLOCK: (
        "Clock: {human} s a call for people, {bot} s for bots ('clock'), plus {lag} ms lag "
        "allowance. Out of time: {out}. {timeouts} calls in a row by the clock, or {away} s "
        "disconnected, forfeit the game.",
        "Часы: {human} с на ход людям, {bot} с ботам (команда clock), и ещё {lag} мс на "
        "задержку связи. Время вышло — за вас ходят часы: {out}. Проигрыш: {timeouts} "
        "раза подряд по часам или {away} с без связи.",
    ),
    # what the clock calls for a seat out of time (the clock line's {out})
    # (the asker's ot-… after the declarer's answer is his choice: the clock says
    # pishet for him, game/clock.py, docs/protocol.md §11.2)
    Msg.RULES_CLOCK_OUT: (
        "pass in bidding, the forced answer in the table talk (after the answer to rost?, "
        "pishet for the asker), the lowest legal card in play",
        "пас в торговле, вынужденный ответ в разговоре (после ответа на «рост?» "
        "спросивший «пишет»), младшая разрешённая карта в игре",
    ),
    # at a table whose game breaks a deck and has no bidding (RULES_BREAKS: Tertz)
    Msg.RULES_CLOCK_BREAK: (
        "in Tertz the break lomayu 1, the forced answer in the table talk (after the "
        "answer to rost?, pishet for the asker), the lowest legal card in play",
        "в терце «ломаю 1», вынужденный ответ в разговоре (после ответа на «рост?» "
        "спросивший «пишет»), младшая разрешённая карта в игре",
    ),
    Msg.SAID: ("{where}{sender} says: {text}", "{where}{sender}: {text}"),
    Msg.SAID_AT: ("[table {table}{watchers}] ", "[стол {table}{watchers}] "),
    Msg.SAID_WATCHERS: (", watchers", ", зрители"),
    Msg.INVITE: (
        "You invite {name} to table {table}.",
        "Вы пригласили игрока {name} за стол {table}.",
    ),
    Msg.INVITED: (
        "{sender} invites you to {private}table {table} ({variant} {for_players}{options}):"
        " 'sit {table}' to play.",
        "{sender} зовёт вас за {private}стол {table} ({variant} {for_players}{options}):"
        " наберите sit {table}.",
    ),
    Msg.PRIVATE_TABLE: ("private ", "закрытый "),
    Msg.PRIVATE_MARK: (" (private)", " (закрытый)"),
    Msg.RESERVED_MARK: (" (reserved)", " (заказан)"),  # (an admin's 'tables')
    Msg.AWAY_MARK: (" (away)", " (нет связи)"),  # a seat's player in 'tables'
    Msg.AWAY_NAMED: (" (away: {names})", " (нет связи: {names})"),  # a pair's, playing
    Msg.MISSED_SEAT: (
        "While you were away, your seat at table {table} was freed: a seat is held {seconds} s"
        " for a player away, then it is free for another.",
        "Пока вас не было, ваше место за столом {table} освободилось: место держат {seconds} с,"
        " потом его может занять другой игрок.",
    ),
    Msg.MISSED_FORFEIT: (
        "While you were away, your match {match} at table {table} was lost by forfeit: you"
        " were away longer than {seconds} s. 'games' lists it.",
        "Пока вас не было, партия {match} за столом {table} проиграна по неявке: вас не было"
        " дольше {seconds} с. Она есть в списке games.",
    ),
    Msg.MISSED_DESERTED: (
        "While you were away, table {table} closed: nobody was left at it for {seconds} s.",
        "Пока вас не было, стол {table} закрылся: за ним {seconds} с никого не было.",
    ),
    Msg.MISSED_END: (
        "While you were away, your match {match} at table {table} ended: 'games' says how.",
        "Пока вас не было, партия {match} за столом {table} закончилась: итог покажет games.",
    ),
    Msg.BOT_COMES: ("{name} comes to table {table}.", "{name} идёт за стол {table}."),
    Msg.BOT_NOT_COME: ("{name} could not come.", "{name} не придёт."),
    Msg.BOT_GIVES_UP: (
        "{name} cannot go on and gives its seat up.",
        "{name} не может играть дальше и освобождает место.",
    ),
    Msg.REMATCH_ASK: (
        "You ask for a rematch of table {table}.{waiting}",
        "Вы просите реванш за столом {table}.{waiting}",
    ),
    Msg.REMATCH_WAITING: (" Waiting for {names}.", " Ждём: {names}."),
    Msg.REMATCH_PENDING: (
        "Rematch of table {table} asked by {asked}, waiting for {waiting}: 'rematch' to agree.",
        "Реванш за столом {table} просят: {asked}; ждём: {waiting}. Согласны — наберите rematch.",
    ),
    Msg.REMATCH_STANDING: (
        "Rematch of table {table} asked by {asked}, waiting for {waiting}.",
        "Реванш за столом {table} просят: {asked}; ждём: {waiting}.",
    ),
    Msg.REMATCH_WATCH: (
        "The rematch of table {old} starts at table {table}: 'observe {table}' to watch it.",
        "Реванш стола {old} начинается за столом {table}: смотреть — observe {table}.",
    ),
    Msg.REMATCH_STARTS: (
        "Everyone agrees: the rematch of table {table} starts.",
        "Все согласны: реванш за столом {table} начинается.",
    ),
    Msg.REMATCH_OFF: (
        "The rematch of table {table} is off: {why}.",
        "Реванша за столом {table} не будет: {why}.",
    ),
    Msg.REMATCH_TIMEOUT: ("not everyone asked in time", "не все попросили вовремя"),
    Msg.REMATCH_LEFT: ("{name} left", "{name} уже нет на сервере"),
    Msg.REMATCH_ELSEWHERE: ("{name} went to another game", "{name} уже в другой партии"),
    Msg.REMATCH_DRAIN: (
        "the server restarts once the running matches are over",
        "сервер перезапустится, когда закончатся идущие партии",
    ),
    Msg.NO_REMATCH: (
        "no rematch is on offer for you: one is asked within {seconds} s of your match's end",
        "реванш можно просить только в течение {seconds} с после конца своей партии",
    ),
    # a 'rematch' after its offer was called off within the 60 s: why (rematch.Off)
    Msg.NO_REMATCH_OFF: (
        "the rematch of table {table} is off: {why}",
        "реванша за столом {table} не будет: {why}",
    ),
    Msg.REMATCH_YOU_LEFT: ("you left the server", "вы выходили с сервера"),
    # the others', kept till the offer's 60 s are out: he may be back, or out of that
    # game, meanwhile, so not REMATCH_LEFT's «уже нет на сервере» nor REMATCH_ELSEWHERE's
    # «уже в другой партии», true only as it is called off
    Msg.REMATCH_WAS_LEFT: ("{name} left", "его отменил выход игрока {name} с сервера"),
    Msg.REMATCH_WENT_ELSEWHERE: (
        "{name} went to another game",
        "его отменил уход игрока {name} в другую партию",
    ),
    Msg.REMATCH_YOU_ELSEWHERE: ("you went to another game", "вы ушли в другую партию"),
    Msg.REMATCH_SEEK_KEPT: (
        "{name} was put back in line for the same game",
        "игрока {name} вернули в очередь на ту же партию",
    ),
    Msg.REMATCH_YOU_SEEK_KEPT: (
        "you were put back in line for the same game",
        "вас вернули в очередь на ту же партию",
    ),
    # to each person of a match just over that may be played again (not to programs)
    Msg.REMATCH_OFFERED: (
        "'rematch' within {seconds} s plays again with the same players.",
        "Реванш: наберите rematch в течение {seconds} с — сыграете снова тем же составом.",
    ),
    Msg.REMATCH_BOARD: (
        "a ladder's board is not played again",
        "доску турнира не переигрывают",
    ),
    Msg.REMATCH_HOUSE_BOT: (
        "a house bot plays one match only: open a table and ask 'bot' again",
        "бот сервера играет только одну партию: откройте стол и позовите bot снова",
    ),
    Msg.HISTORY_TITLE: (
        "History of table {table} ({match}): {players}",
        "История стола {table} ({match}): {players}",
    ),
    Msg.HISTORY_EMPTY: ("No card played yet.", "Ещё не сыграно ни одной карты."),
    Msg.HISTORY_NONE: (
        "No deal was played: the match ended before anyone made a call.",
        "Ни одной раздачи: партия кончилась раньше первого хода.",
    ),
    Msg.HISTORY_DEAL: (
        "Deal {deal}, {dealer} deals, {trump}: {end}",
        "Раздача {deal}, сдаёт {dealer}, {trump}: {end}",
    ),
    Msg.HISTORY_TRUMP: ("trump {suit}{player}", "козырь {suit}{player}"),
    Msg.HISTORY_NO_TRUMP: ("no trump yet", "козыря ещё нет"),
    Msg.HISTORY_NO_TRUMP_OVER: ("no trump", "без козыря"),  # a deal over before one was set
    Msg.HISTORY_PLAYING: ("being played", "играется"),
    Msg.HISTORY_BREAK: ("      {seat} breaks the deck: {call}", "      {seat}: {call}"),
    Msg.HISTORY_SWAP: (
        # made before his card: said so, else one under trick 1 read as after it
        "      {seat}, before his card, swaps the trump 7 for the turned {card}: {call}",
        "      {seat}, до своей карты: {call} — берёт открытую {card} за козырную семёрку",
    ),
    Msg.HISTORY_DRAWS: ("      draw: {draws}", "      добор: {draws}"),
    Msg.HISTORY_UNFINISHED: (
        "    {laid}: not taken, the deal ended there",
        "    {laid}: не взята, на этом раздача кончилась",
    ),
    # the cards of a trick the clock played (auto=1), as the table said: "(by the clock)"
    # a call the clock made, after it, as the table said it live ('bob: lomayu 1 (by the
    # clock)'): a 'state''s talk and a 'history''s break (a tryout, s49)
    Msg.BY_THE_CLOCK: (" (by the clock)", " (по часам)"),
    Msg.HISTORY_BY_CLOCK: ("      by the clock: {laid}", "      по часам: {laid}"),
    # after a finished deal's written points: what hangs for the next deal (as its end
    # and the sheet say it), hanging-separate's later sums too
    Msg.HISTORY_HANGS: ("; {hanging} points hang", "; висит {hanging}"),
    # an accepted dave's new stake, told under its answer, and under a deal still
    # played in the history; a finished deal's there, where one raised it
    Msg.STAKE_NOW: ("The deal is now played for {stake}.", "Раздача теперь играется на {stake}."),
    Msg.HISTORY_STAKE: ("The deal was played for {stake}.", "Раздача игралась на {stake}."),
    # hanging-separate: after what hangs, which deal plays for which sum (a deal's end,
    # the history); each sum after the second
    Msg.HANGS_LATER: (
        " for the next deal, {next} for the one after{later}",
        " на следующую раздачу, {next} на раздачу после неё{later}",
    ),
    Msg.HANGS_THEN: (", then {points}", ", затем {points}"),
    # what hangs as a deal starts (its line, a whole table's 'state')
    Msg.HANGING_NOW: (" Hanging: {hanging}.", " Висит: {hanging}."),
    Msg.HANGING_NOW_LATER: (
        " Hanging: {hanging} for this deal, {next} for the next{later}.",
        " Висит: {hanging} на эту раздачу, {next} на следующую{later}.",
    ),
    Msg.TOP_TITLE: (
        "Standings: {variant} {game} ({total} rated).",
        "Рейтинг: {variant} {game} (в рейтинге: {total}).",
    ),
    # (no count: '(0 rated): nobody yet.' said it twice; in brackets as TOP_TITLE's
    # count: ': в рейтинге пока никого' put a second colon in the line, a tryout, s50)
    Msg.TOP_NOBODY: (
        "Standings: {variant} {game} (nobody rated yet).",
        "Рейтинг: {variant} {game} (в рейтинге пока никого).",
    ),
    Msg.FOR_TWO: ("for 2 players", "на двоих"),
    Msg.FOR_THREE: ("for 3 players", "на троих"),
    Msg.FOR_FOUR: ("for 4 players", "на четверых"),
    Msg.FOR_N: ("for {players} players", "для {players} игроков"),  # (a plugin's game)
    Msg.TOP_LINE: (
        "{rank:>4}. {name} {rating}  {record}",  # the name padded to its column (render)
        "{rank:>4}. {name} {rating}  {record}",
    ),
    Msg.ONE_GAME: ("1 game", "партий: 1"),
    Msg.GAMES: ("{games} games", "партий: {games}"),
    Msg.RECORD: (
        "{games}: {wins} won, {losses} lost, {draws} drawn",
        "{games} — побед {wins}, поражений {losses}, ничьих {draws}",
    ),
    Msg.FINGER_TITLE: ("{name}: {who}, {where}.{last}", "{name}: {who}, {where}.{last}"),
    Msg.A_GUEST: ("a guest", "гость"),
    Msg.ONLINE: ("online", "на сервере"),
    Msg.NOT_HERE: ("not here", "не на сервере"),
    Msg.LAST_GAMES: (" Last games: {games}.", " Последние партии: {games}."),
    Msg.NO_FINISHED_GAME: (" No finished game.", " Законченных партий нет."),
    # a house bot's list is of its rated matches only (its copies' unrated ones are
    # theirs): 'No finished game.' was said of a bot whose copies had finished some
    Msg.HOUSE_LAST_GAMES: (
        " Last rated matches: {games}.",
        " Последние партии в рейтинге: {games}.",
    ),
    Msg.HOUSE_NO_RATED_GAME: (" No rated match yet.", " Партий в рейтинге пока нет."),
    Msg.HOUSE_FINGER_TITLE: (
        "{name}: a house bot, rated under this name however many copies play ({name}-N).{last}",
        "{name}: бот сервера; рейтинг один на все его копии ({name}-N).{last}",
    ),
    Msg.HOUSE_FINGER_NEVER_RATED: (
        "{name}: a house bot, never rated (its copies play as {name}-N).",
        "{name}: бот сервера, в рейтинг не играет (его копии играют как {name}-N).",
    ),
    Msg.NOT_RATED: ("  Not rated yet.", "  Рейтинга пока нет."),
    Msg.FINGER_RATED: (
        "  {variant} {game}: #{rank}, rating {rating} (mu {mu}, sigma {sigma})",
        "  {variant} {game}: место {rank}, рейтинг {rating} (μ {mu}, σ {sigma})",
    ),
    Msg.NOT_YOUR_TURN: ("it is {name}'s turn", "сейчас ход игрока {name}"),
    Msg.NOT_YOUR_TURN_TO_BID: (
        "it is {name}'s turn to bid",
        "сейчас торгуется {name}, а не вы",
    ),
    Msg.MUST_FOLLOW_SUIT: (
        "you hold {suit}: follow suit",
        "у вас есть {suit}: надо ходить в масть",
    ),
    Msg.NOT_IN_HAND: ("{card} is not in your hand", "карты {card} у вас нет"),
    Msg.DEAL_OVER: ("the deal is over", "раздача окончена"),
    Msg.WAIT_ANSWER: (
        "waiting for {name} to answer {asked}",
        "сначала отвечает {name}",
    ),
    Msg.NOT_THE_TOP: (
        # 'say': a bare ': ot tuza' read as the call refused (tryout s42)
        "that is not your combination's top; say {calls}",
        "это не старшая карта вашей комбинации; можно: {calls}",
    ),
    Msg.TOP_NOT_HIGHER: (
        "{call} does not beat {asked}, the top you heard: {calls}",
        "«{call}» не старше услышанного «{asked}»; можно: {calls}",
    ),
    Msg.ANSWER_FIRST: ("answer the question first: {calls}", "сначала ответьте на вопрос: {calls}"),
    Msg.NOT_TRUE_ANSWER: (
        "{call} is not the true answer: say {calls}",
        "«{call}» — неверный ответ; верный: {calls}",
    ),
    Msg.SEVENS_ONLY: (
        "only a seat holding all four sevens, before the first card",
        "четыре семёрки показывает только тот, у кого они все, и до первой карты",
    ),
    Msg.NOTHING_TO_SHOW: (
        "no opponent's declaration is waiting to be shown: pokazhi is said once the"
        " opponent declares, until the first card of the second trick",
        "соперник не объявлял комбинации, которую можно потребовать показать: «покажи»"
        " говорят после его объявления, до первой карты второй взятки",
    ),
    Msg.NOTHING_TO_SHOW_TWO: (
        "neither opponent has a declaration waiting to be shown: pokazhi is said once"
        " one declares, until the first card of the second trick",
        "ни один из соперников не объявлял комбинации, которую можно потребовать показать:"
        " «покажи» говорят после объявления соперника, до первой карты второй взятки",
    ),
    # Tertz's: the demand stands until the declaration is shown (docs/rules.md §12)
    Msg.NOTHING_TO_SHOW_UNTIL_SHOWN: (
        "no opponent's declaration is waiting to be shown: pokazhi is said once the"
        " opponent declares, until that declaration is shown",
        "соперник не объявлял комбинации, которую можно потребовать показать: «покажи»"
        " говорят после его объявления, пока комбинация не показана",
    ),
    Msg.SHOWN_ALREADY: ("that declaration is shown already", "эта комбинация уже показана"),
    Msg.SHOW_ASKED: (
        "you have asked to see it already",
        "вы уже потребовали её показать",
    ),
    Msg.SHOW_TOO_LATE: (
        "pokazhi is said until the first card of the second trick",
        "«покажи» говорят только до первой карты второй взятки",
    ),
    Msg.BIDDING_ON: (
        "bidding is on: {call} comes after the order",
        "идёт торговля: «{call}» — только после заказа козыря",
    ),
    Msg.BIDDING_NOT_IN_HAND: (
        "bidding is on, and {card} is not in your hand",
        "идёт торговля, и карты {card} у вас нет",
    ),
    Msg.NOT_DEALT_YET: (
        "the game is ordered; the last cards are not dealt yet",
        "козырь заказан, но последние карты ещё не розданы",
    ),
    Msg.PLAY_A_TRUMP: (
        "you have no card of the led suit: play a trump",
        "масти нет — надо бить козырем",
    ),
    Msg.BEAT_THE_TRUMP: (
        "you hold a higher trump: beat the highest trump on the table",
        "у вас есть козырь старше — надо перебить старший козырь на столе",
    ),
    Msg.MAY_NOT_PLAY: ("you may not play {card} now", "сейчас ходить {card} нельзя"),
    Msg.SWAP_WHEN: (
        "the seven may be swapped only in the first trump, by the holder of the trump 7, "
        "before his first card and before he declares",
        "меняют семёрку только в первом козыре: тот, у кого козырная семёрка, до своей "
        "первой карты и до объявления",
    ),
    Msg.SWAP_NONE: ("this table has no swap of the seven", "за этим столом семёрку не меняют"),
    Msg.SWAP_BEFORE_EXTRA: (
        "the seven is swapped before the last cards are dealt (swap-before-extra)",
        "за этим столом семёрку меняют только до прикупа",
    ),
    Msg.SWAP_SECOND_TRUMP: (
        "a game in a second trump has no swap of the seven",
        "во втором козыре семёрку не меняют",
    ),
    Msg.SWAP_DONE: ("the seven is swapped already", "семёрку уже поменяли"),
    Msg.SWAP_SEVEN_TURNED: (
        "the turned card is the trump 7 itself: there is nothing to swap",
        "открыта сама козырная семёрка: менять нечего",
    ),
    Msg.SWAP_NO_SEVEN: (
        "you do not hold the trump 7 ({card})",
        "у вас нет козырной семёрки ({card})",
    ),
    Msg.SWAP_NO_SEVEN_ASKED: (
        "you do not hold the trump 7 ({card}): answer ne-menyayu",
        "у вас нет козырной семёрки ({card}): ответьте «не меняю»",
    ),
    Msg.SWAP_BEFORE_CARD: (
        "the seven is swapped before your first card",
        "семёрку меняют до своей первой карты",
    ),
    Msg.SWAP_BEFORE_DECLARING: (
        "the seven is swapped before you declare or ask rost? (what you said must stay true)",
        "семёрку меняют до объявления и до «рост?» (сказанное должно остаться верным)",
    ),
    Msg.ANSWER_UNASKED: (
        "{call} answers a question, and none is asked of you now",
        "«{call}» — это ответ, а вас сейчас ни о чём не спрашивали",
    ),
    # prokhodit? (docs/rules.md §2): its own rule, not the swap's
    Msg.PASS_Q_WHEN: (
        "prokhodit? is asked by the holder of the trump 7 while he may swap it: in the "
        "first trump, before his first card and before he declares",
        "«проходит?» спрашивает тот, у кого козырная семёрка, пока он может её поменять: "
        "в первом козыре, до своей первой карты и до объявления",
    ),
    Msg.PASS_Q_ONCE: ("prokhodit? is asked once", "«проходит?» спрашивают один раз"),
    Msg.PASS_Q_NONE: (
        "you hold no trump sequence: prokhodit? asks whether yours passes",
        "у вас нет козырной комбинации: «проходит?» спрашивают, проходит ли она",
    ),
    Msg.NO_BELLA: (
        "you do not hold the trump king and queen",
        "у вас нет козырных короля и дамы",
    ),
    Msg.BELLA_DONE: ("bella is already declared", "белла уже объявлена"),
    Msg.BELLA_AFTER_TRICK: (
        "bella is declared after taking a trick, while holding the K or Q",
        "беллу объявляют после взятой взятки, пока король или дама ещё на руках",
    ),
    Msg.BELLA_BEFORE: (
        "bella is declared before playing the trump king or queen",
        "беллу объявляют до хода козырным королём или дамой",
    ),
    Msg.NOT_A_CALL_NOW: ("{call} is not a call you may make now", "«{call}» сейчас сказать нельзя"),
    Msg.BIDDING_OVER: ("bidding is over", "торговля уже закончилась"),
    # a bid in the play: what is asked now (a tryout, s44)
    Msg.BIDDING_OVER_PLAY: (
        "bidding is over: it is the play now, and your turn: play a card",
        "торговля уже закончилась: идёт розыгрыш, ваш ход — кладите карту",
    ),
    Msg.BIDDING_OVER_TURN: (
        "bidding is over: it is the play now, {name}'s turn",
        "торговля уже закончилась: идёт розыгрыш, ходит {name}",
    ),
    Msg.ROUND_ONE: (
        "round one plays the turned suit: say igrayu or pas",
        "в первом круге играют открытую масть: скажите «играю» или «пас»",
    ),
    Msg.ROUND_TWO_OPENS: (
        "All passed: round two of the bidding. A suit other than {suit} may be named.",
        "Все спасовали: второй круг торговли. Можно назвать масть, кроме {suit}.",
    ),
    Msg.ROUND_TWO: (
        "round two: name another suit than the turned one",
        "во втором круге назовите другую масть, не открытую",
    ),
    Msg.DEALER_MUST_NAME: (
        "the dealer must name a suit in round two (commitment)",
        "во втором круге сдающий обязан назвать масть (обязаловка)",
    ),
    Msg.DECLARE_BEFORE_CARD: (
        "declarations are made before your first card only",
        "комбинации объявляют только до своей первой карты",
    ),
    Msg.ALREADY_DECLARED: ("you have already declared", "вы уже объявили комбинацию"),
    Msg.NO_COMBINATION: ("you hold no combination", "у вас нет комбинации"),
    Msg.NOT_YOUR_BEST: (
        "you do not hold {call}; your best is {best}",
        "у вас нет «{call}»; ваша лучшая — «{best}»",
    ),
    Msg.YOURS_TO_DECLARE: (
        "you do not hold {call}; yours to declare is {best}",
        "у вас нет «{call}»; объявить можно «{best}»",
    ),
    Msg.ASK_ROST: (
        "a {category} is declared: ask rost?",
        "такая же комбинация уже объявлена: спросите «рост?»",
    ),
    Msg.LONGER_DECLARED: (
        "a longer combination is already declared",
        "уже объявлена более длинная комбинация",
    ),
    Msg.ROST_NOTHING: (
        "nothing is declared: {call} asks about a declaration",
        "никто ничего не объявлял: «{call}» спрашивают об объявленной комбинации",
    ),
    Msg.ROST_OWN: (
        "the best declaration is your own: {call} asks the opponent's",
        "лучшая объявленная комбинация — ваша: «{call}» спрашивают о комбинации соперника",
    ),
    Msg.ROST_WHEN: (
        "rost? answers a declaration, before your first card, once",
        "«рост?» спрашивают в ответ на объявление, до своей первой карты, один раз",
    ),
    Msg.ROST_PARTNER: (
        "the best declaration is your partner's: no rost? against him",
        "лучшая комбинация — у вашего партнёра: «рост?» ему не задают",
    ),
    Msg.ROST_LONGER: (
        "you hold a longer combination: declare it instead",
        "у вас комбинация длиннее: объявите её",
    ),
    Msg.ROST_NONE: (
        "you hold no combination of that length",
        "у вас нет комбинации такой длины",
    ),
    Msg.MATCH_OVER: ("the match is over", "партия окончена"),
    Msg.NO_SUCH_SEAT: ("there is no seat {number}", "места {number} нет"),
    Msg.BREAKS_FIRST: ("{name} breaks the deck first", "сначала {name} ломает колоду"),
    Msg.BREAK_FIRST: (
        "break the deck first: {first} … {last}",
        "сначала сломайте колоду: {first} … {last}",
    ),
    Msg.BREAK_ONCE: (
        "the loser of the first trick breaks the deck, once, after it",
        "колоду ломает проигравший первую взятку, один раз, сразу после неё",
    ),
    Msg.TERTZ_SWAP_UNTIL_TWO: (
        "the trump 7 takes the turned card while the talon holds more than two cards",
        "козырная семёрка берёт открытую карту, пока в колоде больше двух карт",
    ),
    Msg.TERTZ_SEVEN_DECLARED: (
        "the trump 7 is in a combination you declared: it stays in your hand",
        "козырная семёрка — в объявленной вами комбинации: она остаётся у вас",
    ),
    Msg.TERTZ_SWAP_WHEN: (
        "the trump 7 takes the turned card on its holder's turn, while the talon holds "
        "two cards or more",
        "козырная семёрка берёт открытую карту в ход своего хозяина, пока в колоде "
        "две карты или больше",
    ),
    Msg.MARIAGE_WHEN: (
        "mariage: the trump K and Q in your hand, on your turn, once",
        "марьяж: козырные король и дама у вас на руках, в ваш ход, один раз",
    ),
    Msg.NINE_CARDS: (
        "combinations are declared before your move, with nine cards",
        "комбинации объявляют до своего хода, пока на руках девять карт",
    ),
    Msg.ALL_DECLARED: (
        "you have declared every combination you hold",
        "вы уже объявили все свои комбинации",
    ),
    Msg.AS_HIGH_DECLARED: (
        "a combination as high is declared: ask rost?",
        "уже объявлена такая же комбинация: спросите «от чего?»",
    ),
    Msg.HIGHER_DECLARED: (
        "a higher combination is declared: yours would not score",
        "уже объявлена старшая комбинация: ваша не запишется",
    ),
    Msg.MUST_BEAT: (
        "the talon is gone: beat {card} if you can",
        "колода кончилась: перебейте {card}, если можете",
    ),
    # Tertz's rost?: at every trick while the seat holds nine cards (docs/rules.md §12.5)
    Msg.TERTZ_ROST_WHEN: (
        "rost? asks the opponent's best declaration, on your turn before your card, at "
        "any trick while you hold nine cards",
        "«от чего?» спрашивают о лучшей комбинации соперника в свой ход, до карты, на любой "
        "взятке, пока на руках девять карт",
    ),
    Msg.TERTZ_ROST_HIGHER: (
        "you hold a higher combination: declare it instead",
        "у вас комбинация старше: объявите её",
    ),
    Msg.TERTZ_ROST_NONE: (
        "you hold no undeclared combination of the declared one's class",
        "у вас нет необъявленной комбинации того же класса, что объявленная",
    ),
    Msg.TERTZ_NO_BIDDING: (
        "Tertz has no bidding: the turned card's suit is trump",
        "в терце не торгуются: козырь — масть открытой карты",
    ),
    Msg.TERTZ_NO_PASS_Q: (
        "Tertz has no prokhodit?: ask a declaration with rost?",
        "в терце нет «проходит?»: о комбинации спрашивают «от чего?»",
    ),
    Msg.TERTZ_NO_SEVENS: (
        "Tertz has no redeal for four sevens: the deal is played",
        "в терце нет пересдачи на четыре семёрки: раздача играется",
    ),
    Msg.CALL_WORD: ("{call}", "{ru}"),
    Msg.USAGE: ("{usage}", "набирайте так: {usage}"),
    Msg.PAGES: (
        "{command} [PAGE]: pages 1 to {pages}",
        "{command} [СТРАНИЦА]: страницы от 1 до {pages}",
    ),
    Msg.TOP_PAGES: (
        "top [VARIANT] [PLAYERS] [PAGE]: pages 1 to {pages}",
        "top [ВАРИАНТ] [ИГРОКОВ] [СТРАНИЦА]: страницы от 1 до {pages}",
    ),
    Msg.LANG_UK: (
        "lang en|ru: no Ukrainian lines yet. 'lang ru' for Russian; Ukrainian calls"
        " (граю, пише, хід туз пік) are understood in either language.",
        "lang en|ru: украинских строк пока нет. lang ru — по-русски; ходы по-украински"
        " (граю, пише, хід туз пік) понимаются на любом языке.",
    ),
    Msg.TOP_PLAYERS: (
        "top [VARIANT] [PLAYERS] [PAGE]: PLAYERS is 2, 3 or 4, not {players}",
        "top [ВАРИАНТ] [ИГРОКОВ] [СТРАНИЦА]: игроков 2, 3 или 4, а не {players}",
    ),
    Msg.TOP_GAME_PLAYERS: (
        "top [VARIANT] [PLAYERS] [PAGE]: {variant} is for {counts} players, not {players}",
        "top [ВАРИАНТ] [ИГРОКОВ] [СТРАНИЦА]: {variant} — для {counts} игроков, а не для {players}",
    ),
    # 'top chess': a first word that is no variant (nor a number), said with the variants
    Msg.TOP_NO_VARIANT: (
        "top [VARIANT] [PLAYERS] [PAGE]: no variant '{word}'; variants: {variants}",
        "top [ВАРИАНТ] [ИГРОКОВ] [СТРАНИЦА]: варианта «{word}» нет; варианты: {variants}",
    ),
    Msg.TOP_NO_VARIANT_NEAR: (
        "top [VARIANT] [PLAYERS] [PAGE]: no variant '{word}': did you mean {near}?"
        " Variants: {variants}",
        "top [ВАРИАНТ] [ИГРОКОВ] [СТРАНИЦА]: варианта «{word}» нет: может быть, {near}?"
        " Варианты: {variants}",
    ),
    Msg.INVITE_NOT_SEATED: (
        "sit at a table to invite someone to it",
        "сядьте за стол, чтобы пригласить к нему",
    ),
    Msg.INVITE_SELF: ("you sit at the table already", "вы сами уже сидите за этим столом"),
    Msg.NOBODY_HERE: (
        "no player called {name} is here ('who')",
        "игрока {name} сейчас нет на сервере (кто есть — who)",
    ),
    Msg.NOBODY_PLAYED: (
        "no player called {name} has played here",
        "под именем {name} здесь не играли",
    ),
    # 'new two': the first word is where the player count goes (docs/protocol.md §5.3)
    Msg.PLAYERS_A_NUMBER: (
        "unknown option '{word}': PLAYERS is a number, {head} or {last}"
        " ({command} [PLAYERS] [VARIANT] [OPTION ...]); 'rules' lists the variants and options",
        "«{word}» — не опция: число игроков пишется цифрой, {head} или {last}"
        " ({command} [ИГРОКОВ] [ВАРИАНТ] [ОПЦИИ…]); варианты и опции перечисляет rules",
    ),
    # 'new 5': no variant is for that many (docs/protocol.md §5.3)
    Msg.PLAYERS_NO_GAME: (
        "no game here is played by {players}: PLAYERS is {counts}"
        " ({command} [PLAYERS] [VARIANT] [OPTION ...])",
        "здесь нет игры на столько игроков ({players}): число игроков — {counts}"
        " ({command} [ИГРОКОВ] [ВАРИАНТ] [ОПЦИИ…])",
    ),
    Msg.REMATCH_SEATED: (
        "you sit at table {table}: 'leave' first",
        "вы сидите за столом {table}: сначала leave",
    ),
    Msg.REMATCH_PLAYING: (
        "your match at table {table} is still being played: 'rematch' is asked once it is over",
        "ваша партия за столом {table} ещё идёт: rematch просят, когда она окончена",
    ),
    Msg.RANDOM_NOT_RATED: ("the random bot is never rated", "случайный бот в рейтинг не играет"),
    Msg.BOT_WHICH: (
        "which bot? {head} or {last}: bot KIND [LEVEL] [rated]",
        "какой бот? {head} или {last}: bot ВИД [УРОВЕНЬ] [rated]",
    ),
    Msg.BOT_USAGE: (
        "bot {kinds} [LEVEL] [rated]: LEVEL (search only) {first} to {last}",
        "bot {kinds} [УРОВЕНЬ] [rated]: УРОВЕНЬ (только для search) от {first} до {last}",
    ),
    Msg.BOT_UNKNOWN: ("no bot '{kind}'{guess}: {which}", "бота «{kind}» нет{guess}: {which}"),
    Msg.NO_HOUSE_BOTS: (
        "this server runs no house bots (serve --house-bots)",
        "на этом сервере нет ботов сервера (serve --house-bots)",
    ),
    # (its settings cap them at 0: no 'try later' would do)
    Msg.HOUSE_BOTS_CAPPED_OFF: (
        "this server runs no house bots",
        "на этом сервере нет ботов сервера",
    ),
    Msg.SEARCH_BOTS_CAPPED_OFF: (
        "this server runs no search bots: bot heuristic or bot random",
        "на этом сервере нет поисковых ботов: bot heuristic или bot random",
    ),
    Msg.BOT_NOT_SEATED: (  # says how, as the lobby's 'help' does: asked in the lobby
        "sit at a table to ask a house bot to it: 'new 2' opens one",
        "сядьте за стол, чтобы позвать к нему бота сервера: new 2 открывает стол",
    ),
    Msg.NO_HISTORY: (
        "you sit at no table, observe none, and have no match",
        "вы не сидите за столом, ни за каким не смотрите и ещё не сыграли ни одной партии",
    ),
    Msg.NOT_AT_TABLE: ("you do not sit at table {table}", "вы не сидите за столом {table}"),
    Msg.ALREADY_SITS: (
        "{name} already sits at table {table}",
        "{name} уже сидит за столом {table}",
    ),
    Msg.ALREADY_INVITED: (
        "{name} is invited to table {table} already: 'sit {table}' is all it takes",
        "у игрока {name} уже есть приглашение за стол {table}: достаточно набрать sit {table}",
    ),
    Msg.NO_FREE_SEAT: ("table {table} has no free seat", "за столом {table} нет свободного места"),
    Msg.LADDER_BOARD: ("table {table} is a ladder's board", "стол {table} — доска турнира"),
    Msg.BOARD_NOT_WATCHED: (
        "table {table} is a ladder's board: only the server's admins watch it, so nobody"
        " sees its deck before every seating of it is played",
        "стол {table} — доска турнира: за ним смотрят только администраторы сервера,"
        " чтобы никто не увидел расклад, пока его не сыграют во всех рассадках",
    ),
    Msg.UNRATED_TABLE: (
        "table {table}'s matches are not rated",
        "партии за столом {table} не идут в рейтинг",
    ),
    Msg.GUEST_NOT_RATED: (
        "a guest's matches are not rated: log in with a password to play rated; without"
        " 'rated' the bot comes",
        "партии гостя не идут в рейтинг: чтобы играть на рейтинг, войдите с паролем; без"
        " rated бот придёт",
    ),
    Msg.RATED_BOT_HERE: (
        "{name} plays rated at this table already: its rating is one player's; ask"
        " another without 'rated'",
        "{name} уже играет здесь на рейтинг, а рейтинг у него один: другого такого"
        " зовите без rated",
    ),
    Msg.UNRATED_BY_GUEST: (
        "Table {table}'s match will not be rated: {name} is a guest.",
        "Партия за столом {table} не пойдёт в рейтинг: {name} — гость.",
    ),
    Msg.UNRATED_BY_YOU: (
        "Table {table}'s match will not be rated: you are a guest.",
        "Партия за столом {table} не пойдёт в рейтинг: вы гость.",
    ),
    Msg.UNRATED_BY_BOT: (
        "Table {table}'s match will not be rated: {name} plays unrated.",
        "Партия за столом {table} не пойдёт в рейтинг: {name} играет без рейтинга.",
    ),
    Msg.RATED_AGAIN: (
        "Table {table}'s match will be rated again.",
        "Партия за столом {table} снова пойдёт в рейтинг.",
    ),
    Msg.STALE_PAST: (
        "that answers request {seq}; the open request is {open}",
        "это ответ на старый запрос {seq}; открытый запрос — {open}",
    ),
    Msg.STALE_FUTURE: (
        "there is no request {seq} yet; the open request is {open}",
        "запроса {seq} ещё не было; открытый запрос — {open}",
    ),
    # the rule book's refusals (plugins/manager.py): a rule's name is quoted in each
    # language's way ('tertz', «tertz»), a kind of rule in the case its sentence needs
    Msg.RULES_UNKNOWN_VARIANT: (
        "unknown {kind} {name}; known: {known}",
        "{kind} {name} нет; есть: {known}",
    ),
    Msg.RULES_UNKNOWN_NEAR: (
        "unknown {kind} {name}: did you mean {near}? Variants: {variants}",
        "{kind} {name} нет: может быть, {near}? Варианты: {variants}",
    ),
    Msg.RULES_UNKNOWN_NEAR_OPTION: (
        "unknown {kind} {name}: did you mean {near}? Options: {known}",
        "{kind} {name} нет: может быть, {near}? Опции: {known}",
    ),
    Msg.RULES_UNKNOWN: (
        "unknown {kind} {name}; variants: {variants}; options: {known}",
        "{kind} {name} нет; варианты: {variants}; опции: {known}",
    ),
    Msg.RULES_ASKED_NEAR: (
        "no rule '{word}': did you mean {near}? ('rules' alone lists them all)",
        "правила «{word}» нет: может быть, {near}? (rules без слова перечисляет все)",
    ),
    Msg.RULES_VARIANT_AS_OPTION: (
        "{name} is a variant: name one, right after the player count"
        " (PLAYERS [VARIANT] [OPTION ...])",
        "{name} — вариант: вариант называют один, сразу после числа игроков"
        " (ИГРОКОВ [ВАРИАНТ] [ОПЦИИ…])",
    ),
    Msg.RULES_WRONG_KIND: (
        "{name} is {kind} rule, not {expected}",  # {kind}: 'an option', 'a variant'
        "{name} — {kind}, а не {expected}",
    ),
    Msg.RULES_PLAYERS: (  # an option
        "{name} is for {counts} players, not {players}: leave it out, or play with {counts}",
        "{name} — для {counts} игроков, а не для {players}: уберите эту опцию"
        " или наберите другое число игроков ({counts})",
    ),
    Msg.RULES_VARIANT_PLAYERS: (
        "{name} is for {counts} players, not {players}: play it with {counts},"
        " or choose another variant",
        "{name} — для {counts} игроков, а не для {players}: наберите другое число игроков"
        " ({counts}) или другой вариант",
    ),
    Msg.RULES_NEEDS_BIDDING: (
        "{name} needs a player who orders; the variant {variant} has no bidding",
        "{name}: нужен игрок, заказавший козырь, а в варианте {variant} торговли нет",
    ),
    Msg.RULES_NOT_WITH_VARIANT: (
        "{name} is not played with the variant {variant}",
        "{name} не играется в варианте {variant}",
    ),
    Msg.RULES_ONLY_WITH_VARIANT: (
        "{name} is played only with the variant {variant}",
        "{name} играется только в варианте {variant}",
    ),
    Msg.RULES_CONTRADICT: (
        "options {first} and {second} contradict each other",
        "опции {first} и {second} противоречат друг другу",
    ),
    Msg.RULES_NEEDS: (
        "option {name} needs option {needed} too",
        "опции {name} нужна и опция {needed}",
    ),
    Msg.RULES_VARIANT_NEEDS: (
        "variant {name} needs option {needed} too",
        "варианту {name} нужна и опция {needed}",
    ),
    Msg.RULES_SET_DIFFERENTLY: (
        "options {first} and {second} set {setting} differently ({a} and {b}); choose one",
        "опции {first} и {second} по-разному задают {setting} ({a} и {b}); выберите одну",
    ),
    Msg.RULES_SAME_WORD: (
        "options {first} and {second} both use {word}, for {call_a} and {call_b}",
        "опции {first} и {second} обе называют словом {word} разные заявки: {call_a} и {call_b}",
    ),
    Msg.RULES_DEAL_CLASS: (
        "{variant}: deberc_deal_class gave {what}, not a Deal class",
        "{variant}: плагин правил неисправен (deberc_deal_class дал {what}, а не класс Deal)",
    ),
    Msg.RULES_SETUP_FAILED: (
        "rule {name} (distribution {distribution}) failed to set up the table: {error}",
        "правило {name} (дистрибутив {distribution}) не смогло подготовить стол: плагин"
        " правил неисправен ({error})",
    ),
    Msg.RULES_SETTING_TYPE: (
        "rule {name} (distribution {distribution}) sets {setting} to {value} ({given}),"
        " not {wanted}",
        "правило {name} (дистрибутив {distribution}): плагин правил неисправен (задаёт"
        " {setting} = {value} ({given}), а не {wanted})",
    ),
    # 'new 2 privat': a word no rule has, near 'private' (or its Russian)
    Msg.NEW_PRIVATE_NEAR: (
        "unknown option '{word}': did you mean {near}? ('new ... private' opens a table"
        " listed only to those you invite)",
        "опции «{word}» нет: может быть, {near}? (new ... private открывает закрытый стол:"
        " его видят только приглашённые)",
    ),
    Msg.SEEK_PRIVATE: (
        "a private table is opened with 'new ... private' and joined by invitation;"
        " 'seek' finds a listed one",
        "закрытый стол открывают командой new ... private, а садятся за него по"
        " приглашению; seek ищет только открытые столы",
    ),
    Msg.LAST_RULES_GONE: (
        "your last match (table {table}) was played by rules this server no longer has"
        " ({reason}): 'history' still tells its deals",
        "ваша последняя партия (стол {table}) шла по правилам, которых на этом сервере"
        " больше нет ({reason}): history всё ещё показывает её раздачи",
    ),
    # an admin's own words (a reason, an announcement) are told as he wrote them
    Msg.ADMINS_ONLY: (
        "{command} is for the server's admins",
        "{command} — только для администраторов сервера",
    ),
    Msg.WHY: (": {reason}", ": {reason}"),
    Msg.ANNOUNCED: (
        "*** Announcement from {sender} (admin): {text}",
        "*** Объявление администратора {sender}: {text}",
    ),
    Msg.ANNOUNCE_SENT: (
        "Announced to everyone logged in.",
        "Объявление отправлено всем, кто на сервере.",
    ),
    # a kicked house bot quit as after its match: its seat stayed away, the match held
    # for the away limit, no bot coming back and nothing in the log
    Msg.NOT_ON_HOUSE_BOTS: (
        "{name} is a house bot, the server's own program: house bots are not kicked,"
        " banned or muted (each plays at the table that asked for it, and goes with it)",
        "{name} — бот сервера, его собственная программа: ботов сервера не отключают,"
        " не блокируют и не лишают слова (бот играет за столом, который его позвал, и"
        " уходит вместе с ним)",
    ),
    Msg.NOT_ON_ADMINS: (
        "{name} is an admin: admins are not kicked, banned or muted (the server's owner"
        " lists them in its admins setting)",
        "{name} — администратор: администраторов не отключают, не блокируют и не лишают"
        " слова (их перечисляет владелец сервера в настройке admins)",
    ),
    Msg.KICKED: (
        "{admin} (an admin) disconnects you{why}. You may log in again; your seat, if any,"
        " waits for you.",
        "Администратор {admin} отключает вас{why}. Можно войти снова; ваше место за"
        " столом, если оно есть, ждёт вас.",
    ),
    Msg.KICK_DONE: (
        "{name} is disconnected; his seat, if any, is away, as after any drop.",
        "Соединение игрока {name} закрыто; место за столом, если оно есть, ждёт возвращения.",
    ),
    Msg.BANNED: (
        "{admin} (an admin) bans your name from this server{why}.",
        "Администратор {admin} закрывает вашему имени вход на этот сервер{why}.",
    ),
    Msg.BAN_DONE: (
        "{name} is banned: the name may not log in{disconnected}.{nobodys}",
        "Имени {name} закрыт вход на сервер{disconnected}.{nobodys}",
    ),
    Msg.BAN_DISCONNECTED: (" (his connection is closed)", " (соединение закрыто)"),
    # a ban or mute of a name nobody holds (a slip of the keys: 'ban mihsa' for misha)
    # was answered as one of a player's, misha left online and talking
    Msg.NAME_NOBODYS: (
        " Nobody is logged in as {name} and no account has the name: a slip of the keys?"
        " '{undo} {name}' undoes it.",
        " Имя {name} ничьё: под ним никого нет на сервере, и учётной записи с ним нет."
        " Опечатка? {undo} {name} отменит это.",
    ),
    Msg.BAN_REFUSED: (
        "{name} is banned from this server{why}",
        "имени {name} закрыт вход на этот сервер{why}",
    ),
    Msg.UNBAN_DONE: ("{name} may log in again.", "Имени {name} снова открыт вход."),
    Msg.NOT_BANNED: (
        "{name} is not banned ('bans' lists them)",
        "имя {name} не заблокировано (список — bans)",
    ),
    Msg.BANS_NONE: ("No name is banned.", "Заблокированных имён нет."),
    Msg.BANS_HEAD: ("Banned names: {count}.", "Заблокировано имён: {count}."),
    Msg.BAN_LINE: (
        "  {name}: by {admin}, {since} UTC{why}",
        "  {name}: {admin}, {since} UTC{why}",
    ),
    Msg.MUTED: (
        # a sentence after the reason (": REASON"), not a second colon
        "{admin} (an admin) mutes you for {minutes} min{why}. Your 'say' and 'invite' are"
        " refused until then.",
        "Администратор {admin} лишает вас слова на {minutes} мин{why}. До тех пор say и"
        " invite не проходят.",
    ),
    Msg.MUTE_DONE: (
        "{name} is muted for {minutes} min.{nobodys}",
        "{name} не может говорить {minutes} мин.{nobodys}",
    ),
    Msg.MUTE_REFUSED: (
        "you are muted for {minutes} more min: 'say' and 'invite' are refused",
        "вы лишены слова ещё на {minutes} мин: say и invite не проходят",
    ),
    # a login while a mute of the name runs (made while he was away, or before a
    # restart): he learnt it only at his first 'say'
    Msg.MUTED_AT_LOGIN: (
        "You are muted for {minutes} more min (by {admin}, an admin): your 'say' and"
        " 'invite' are refused until then.",
        "Вы лишены слова ещё на {minutes} мин (администратор {admin}): до тех пор say и"
        " invite не проходят.",
    ),
    Msg.MUTE_MINUTES: (
        "mute NAME [MINUTES] [REASON]: MINUTES from 1 to {most}",
        "mute ИМЯ [МИНУТ] [ПРИЧИНА]: МИНУТ от 1 до {most}",
    ),
    # a length with a unit where MINUTES goes that is no whole number of minutes ('90s')
    Msg.MINUTES_WHOLE: (
        "{usage}: {word} is no whole number of minutes: MINUTES is a number of minutes"
        " (5, 5m, 2h, 1d)",
        "{usage}: {word} — не целое число минут: МИНУТ — число минут (5, 5мин, 2ч, 1д)",
    ),
    # of a name's ban, which has no length
    Msg.NAME_BAN_NO_MINUTES: (
        "{usage}: {word} looks like a length, but a name's ban has none: it holds till"
        " 'unban {name}' (an address's ban takes MINUTES)",
        "{usage}: {word} похоже на срок, но бан имени бессрочен: он действует до"
        " «unban {name}» (бан адреса принимает МИНУТ)",
    ),
    Msg.UNMUTED: (
        "{admin} (an admin) lets you talk again.",
        "Администратор {admin} возвращает вам слово.",
    ),
    # lifted on another server on the database, its row gone from the store before its
    # end (a host whose clock is ahead cleared it): which admin lifted it is not known
    Msg.UNMUTED_ELSEWHERE: (
        "An admin lets you talk again.",
        "Администратор возвращает вам слово.",
    ),
    Msg.UNMUTE_DONE: ("{name} may talk again.", "{name} снова может говорить."),
    Msg.NOT_MUTED: ("{name} is not muted", "{name} и так может говорить"),
    Msg.MUTES_NONE: ("No name is muted.", "Никто не лишён слова."),
    Msg.MUTES_HEAD: ("Muted names: {count}.", "Лишены слова: {count}."),
    Msg.MUTE_LINE: (
        "  {name}: by {admin}, {minutes} more min (till {until} UTC){why}",
        "  {name}: {admin}, ещё {minutes} мин (до {until} UTC){why}",
    ),
    # under 'finger NAME' to an admin
    Msg.FINGER_BANNED: (
        "  Banned by {admin} since {since} UTC{why}.",
        "  Заблокирован: {admin}, с {since} UTC{why}.",
    ),
    Msg.FINGER_MUTED: (
        "  Muted by {admin}, {minutes} more min (till {until} UTC){why}.",
        "  Лишён слова: {admin}, ещё {minutes} мин (до {until} UTC){why}.",
    ),
    Msg.FINGER_ADDRESS: (
        "  Connected from {address}.",
        "  Подключён с адреса {address}.",
    ),
    # 'ban ADDRESS|NETWORK' and 'unban ADDRESS|NETWORK' (server/banned_addresses.py)
    Msg.ADDRESS_BAN_NOT_ADDRESS: (
        "{usage}: {word} is neither an IPv4 or IPv6 address nor a network",
        "{usage}: {word} — не адрес IPv4 или IPv6 и не сеть",
    ),
    # a name with punctuation typed onto it ('ban ann: spam'): nothing done
    Msg.ADDRESS_BAN_NAME_MEANT: (
        "{usage}: {word} is neither an IPv4 or IPv6 address nor a network: did you mean '{meant}'?",
        "{usage}: {word} — не адрес IPv4 или IPv6 и не сеть: может быть, «{meant}»?",
    ),
    # a name with punctuation typed onto it that no address's sign marks ('ban ann, spam',
    # 'mute ann! 10'): nothing done, the name meant suggested as for 'ban ann: spam'
    Msg.NAME_STUCK_MEANT: (
        "{word} is no name (a name is 2-20 letters, digits, '_' or '-'): did you mean '{meant}'?",
        "{word} — не имя (имя — от 2 до 20 букв, цифр, знаков «_» или «-»): может быть, «{meant}»?",
    ),
    Msg.ADDRESS_BAN_HOST_BITS: (
        "{usage}: {word} has host bits set: the network is {network}",
        "{usage}: в {word} за префиксом заданы разряды узла: сеть — {network}",
    ),
    Msg.ADDRESS_BAN_TOO_WIDE: (
        "{usage}: {network} is too wide: a ban takes an IPv4 network of /16 or narrower,"
        " an IPv6 one of /32 or narrower",
        "{usage}: сеть {network} слишком широка: сеть IPv4 — не шире /16, IPv6 — не шире /32",
    ),
    Msg.ADDRESS_BAN_MINUTES: (
        "{usage}: MINUTES from 1 to {most}",
        "{usage}: МИНУТ от 1 до {most}",
    ),
    Msg.ADDRESS_BAN_DONE: (
        "{address} is banned for {minutes} min: guests and new names may not log in from"
        " it; registered players still may, and nobody logged in is disconnected.{held}"
        "{inside}",
        "С адреса {address} на {minutes} мин закрыт вход гостям и новым именам;"
        " зарегистрированные игроки входят, как прежде, и никто не отключён.{held}{inside}",
    ),
    # after 'ban ADDRESS|NETWORK''s reply: a wider ban running holds it already (this
    # one is still made: its own reason and end, holding it after that one if longer)
    Msg.ADDRESS_BAN_HELD_TOO: (
        " {network}, banned already, holds it too: this ban is its own, with its reason"
        " and end, and holds it if that one ends first.",
        " Его уже держит бан {network}: этот бан — отдельный, со своей причиной и сроком,"
        " и держит его, если тот кончится раньше.",
    ),
    Msg.ADDRESS_BAN_HELD_TOO_MANY: (
        " {networks}, banned already, hold it too: this ban is its own, with its reason"
        " and end, and holds it if those end first.",
        " Его уже держат баны {networks}: этот бан — отдельный, со своей причиной и"
        " сроком, и держит его, если те кончатся раньше.",
    ),
    # ... and narrower bans lie inside it (each its own: an unban of this one keeps them)
    Msg.ADDRESS_BAN_INSIDE_TOO: (
        " {network} inside it is banned on its own: 'unban {address}' leaves it banned.",
        " Внутри {address} отдельно заблокирован {network}: «unban {address}» его не снимет.",
    ),
    Msg.ADDRESS_BAN_INSIDE_TOO_MANY: (
        " {networks} inside it are banned on their own: 'unban {address}' leaves them banned.",
        " Внутри {address} отдельно заблокированы {networks}: «unban {address}» их не снимет.",
    ),
    # a guest's login or a new name's from a banned address (a member's is let in)
    Msg.ADDRESS_BAN_REFUSED: (
        "guests and new names may not log in from your address{why} (a registered player"
        " logs in with his password)",
        "с вашего адреса закрыт вход гостям и новым именам{why} (зарегистрированный игрок"
        " входит со своим паролем)",
    ),
    Msg.ADDRESS_UNBAN_DONE: (
        "Guests and new names may log in from {address} again.",
        "С адреса {address} снова могут входить гости и новые имена.",
    ),
    Msg.ADDRESS_NOT_BANNED: (
        "{address} is not banned ('bans' lists them)",
        "адрес {address} не заблокирован (список — bans)",
    ),
    # 'unban' of an address not banned itself that a wider ban holds
    Msg.ADDRESS_HELD_BY: (
        "{address} is not banned itself; {network} holds it: 'unban {network}'",
        "адрес {address} сам не заблокирован; его держит бан {network}: «unban {network}»",
    ),
    Msg.ADDRESS_HELD_BY_MANY: (
        "{address} is not banned itself; {networks} hold it: 'unban' each",
        "адрес {address} сам не заблокирован; его держат баны {networks}: «unban» каждого",
    ),
    # 'unban' of an address banned itself that a wider ban holds too: its own ban
    # lifted, its guests still shut out ('may log in again' said otherwise)
    Msg.ADDRESS_UNBAN_STILL_HELD: (
        "{address}'s own ban is lifted, but {network} still holds it: guests and new"
        " names may not log in from it till 'unban {network}'.",
        "Бан адреса {address} снят, но его ещё держит бан {network}: гости и новые имена"
        " не могут входить с него до «unban {network}».",
    ),
    Msg.ADDRESS_UNBAN_STILL_HELD_MANY: (
        "{address}'s own ban is lifted, but {networks} still hold it: guests and new"
        " names may not log in from it till 'unban' each.",
        "Бан адреса {address} снят, но его ещё держат баны {networks}: гости и новые"
        " имена не могут входить с него до «unban» каждого.",
    ),
    # 'unban' of a network not banned itself with narrower bans inside it
    Msg.ADDRESS_HOLDS: (
        "{address} is not banned itself, but {network} inside it is: 'unban {network}'",
        "сеть {address} сама не заблокирована, но внутри неё заблокирован {network}:"
        " «unban {network}»",
    ),
    Msg.ADDRESS_HOLDS_MANY: (
        "{address} is not banned itself, but {networks} inside it are: 'unban' each",
        "сеть {address} сама не заблокирована, но внутри неё заблокированы {networks}:"
        " «unban» каждого",
    ),
    # 'unban' of a network banned itself, lifted, with narrower bans still inside it
    Msg.ADDRESS_UNBAN_INSIDE: (
        "{address}'s ban is lifted, but {network} inside it is still banned: guests and"
        " new names may not log in from it till 'unban {network}'.",
        "Бан сети {address} снят, но внутри неё ещё заблокирован {network}: гости и"
        " новые имена не могут входить с него до «unban {network}».",
    ),
    Msg.ADDRESS_UNBAN_INSIDE_MANY: (
        "{address}'s ban is lifted, but {networks} inside it are still banned: guests"
        " and new names may not log in from them till 'unban' each.",
        "Бан сети {address} снят, но внутри неё ещё заблокированы {networks}: гости и"
        " новые имена не могут входить с них до «unban» каждого.",
    ),
    Msg.ADDRESS_BANS_HEAD: ("Banned addresses: {count}.", "Заблокировано адресов: {count}."),
    Msg.ADDRESS_BAN_LINE: (
        "  {address}: by {admin}, {minutes} more min (till {until} UTC){why}",
        "  {address}: {admin}, ещё {minutes} мин (до {until} UTC){why}",
    ),
    Msg.IGNORE_DONE: (
        "You ignore {name}: his 'say', 'invite' and 'rematch' no longer reach you (he is"
        " not told). 'unignore {name}' to hear him again.",
        "Вы не слышите игрока {name}: его say, invite и rematch до вас больше не доходят"
        " (ему об этом не говорят). unignore {name} — снова слышать.",
    ),
    Msg.IGNORE_AGAIN: ("You ignore {name} already.", "Вы и так не слышите игрока {name}."),
    Msg.IGNORE_SELF: ("you cannot ignore yourself", "не слышать себя нельзя"),
    Msg.IGNORE_MOST: (
        "you ignore {most} names already, the most: 'unignore' one first",
        "вы не слышите уже {most} имён, больше нельзя: сначала unignore одного",
    ),
    Msg.UNIGNORE_DONE: ("You hear {name} again.", "Вы снова слышите игрока {name}."),
    Msg.NOT_IGNORED: ("you do not ignore {name}", "вы и так слышите игрока {name}"),
    Msg.IGNORES_NONE: ("You ignore nobody.", "Вы слышите всех."),
    Msg.IGNORES: ("You ignore {count}: {names}.", "Вы не слышите ({count}): {names}."),
    # the accounts' refusals (server/accounts.py, login.py): a limit names what it counts
    Msg.WRONG_PASSWORD: ("wrong password for that name", "неверный пароль для этого имени"),
    Msg.NO_PASSWORD_HERE: (
        "{name} has no password on this server",
        "у имени {name} нет пароля на этом сервере",
    ),
    Msg.ADMIN_NAME_LOGIN: (
        "{name} is an admin's name: the server's owner registers it ('deberc-net admin"
        " NAME'), not a login",
        "{name} — имя администратора: его регистрирует владелец сервера (deberc-net admin"
        " ИМЯ), а не login",
    ),
    Msg.ADMIN_NAME_GUEST: (
        "{name} is an admin's name: the server's owner registers it ('deberc-net admin"
        " NAME'); a guest may not take it",
        "{name} — имя администратора: его регистрирует владелец сервера (deberc-net admin"
        " ИМЯ); гостю его не взять",
    ),
    Msg.HOUSE_NAMES: (
        "names starting '{prefix}' are the server's bots",
        "имена на «{prefix}» — у ботов сервера",
    ),
    Msg.SLOW_WRONG_PASSWORDS: (
        "too many wrong passwords for this name or from your address: wait {seconds} s",
        "много неверных паролей к имени или с адреса: подождите {seconds} с",
    ),
    Msg.SLOW_PASSWORD_CHECKS: (
        "too many password checks from your address: wait {seconds} s",
        "много проверок пароля с адреса: подождите {seconds} с",
    ),
    Msg.SLOW_REGISTRATIONS: (
        "too many names registered from your address: wait {seconds} s",
        "с вашего адреса много регистраций: подождите {seconds} с",
    ),
    Msg.SLOW_PASSWORD_CHANGES: (
        "too many names registered or passwords changed from your address: wait {seconds} s",
        "много регистраций и смен пароля с адреса: подождите {seconds} с",
    ),
    Msg.LOGINS_BEING_CHECKED: (
        "passwords for this name or from your address are still being checked:"
        " try again once they are done",
        "пароли к имени или с адреса ещё проверяются: попробуйте после них",
    ),
    Msg.REGISTRATIONS_WAITING: (
        "your address has registrations waiting: try again once they are done",
        "регистрации с вашего адреса ещё идут: попробуйте после них",
    ),
    Msg.BUSY_REGISTRATIONS: (
        "too many registrations at once: try again",
        "слишком много регистраций сразу: попробуйте ещё раз",
    ),
    Msg.SLOW_SEAT_LOGINS: (
        "{name} holds a seat and has logged in too often: wait {seconds} s",
        "{name} за столом и входит слишком часто: подождите {seconds} с",
    ),
    # the rate limits (server/allowance.py, help.py, club.py: docs/security.md)
    Msg.SLOW_SEATS: (
        "too many seats taken and left at once: wait {seconds} s",
        "вы слишком часто садитесь и встаёте: подождите {seconds} с",
    ),
    Msg.SLOW_TALK: (
        "too many 'say' and 'invite' at once: wait {seconds} s",
        "слишком много say и invite подряд: подождите {seconds} с",
    ),
    Msg.SLOW_LISTS: (
        "too many '{command}' at once: wait {seconds} s",
        "слишком много {command} подряд: подождите {seconds} с",
    ),
    # the server's caps (server/running.py, lobby.py, house.py)
    Msg.MADE_ROOM: (
        "the server is full: connections that have not logged in make room",
        "сервер полон: соединения без входа (login) уступают место",
    ),
    Msg.LINES_WAITING: (
        "your earlier lines at tables are still being handled: wait for their answers",
        "ваши прежние строки к столам ещё обрабатываются: ждите ответов",
    ),
    Msg.NO_TABLE_NUMBER: (
        "no table can open now: the server cannot reach its database; try again shortly",
        "стол сейчас не открыть: сервер не достучался до своей базы данных; попробуйте чуть позже",
    ),
    Msg.TOO_MANY_TABLES: (
        "too many tables are open; sit at one or try again later",
        "открыто слишком много столов: сядьте за один или попробуйте позже",
    ),
    Msg.NO_GAMES_HERE: (  # max_tables = 0: a server closed to games (maintenance)
        "this server plays no games for now: no table opens here; try again later",
        "на этом сервере сейчас не играют: столы не открываются; попробуйте позже",
    ),
    # the caps, each in the singular too: a server may set one to 1 ('its 1 house bots')
    Msg.ADDRESS_TABLES: (
        "your address has {count} waiting tables open; sit at one or wait",
        "ждущих столов с вашего адреса: {count}; сядьте за один или подождите",
    ),
    Msg.ADDRESS_TABLE: (
        "your address has 1 waiting table open; sit at it or wait",
        "с вашего адреса уже открыт ждущий стол: сядьте за него или подождите",
    ),
    Msg.HOUSE_BOTS_AT_TABLE: (
        "table {table} has its {count} house bots already",
        "ботов сервера за столом {table} уже {count}: больше нельзя",
    ),
    Msg.HOUSE_BOT_AT_TABLE: (
        "table {table} has its 1 house bot already",
        "за столом {table} уже есть бот сервера: больше нельзя",
    ),
    Msg.HOUSE_BOTS_OF_ADDRESS: (
        "your address has its {count} house bots already; try later",
        "ботов сервера с вашего адреса уже {count}: попробуйте позже",
    ),
    Msg.HOUSE_BOT_OF_ADDRESS: (
        "your address has its 1 house bot already; try later",
        "бот сервера с вашего адреса уже есть: попробуйте позже",
    ),
    Msg.HOUSE_BOTS_SERVER_TOO_OFTEN: (
        "house bots are asked for too often on this server: wait {seconds} s",
        "ботов сервера зовут слишком часто: подождите {seconds} с",
    ),
    Msg.HOUSE_BOTS_TOO_OFTEN: (
        "house bots asked for too often from your address: wait {seconds} s",
        "с вашего адреса слишком часто зовут ботов сервера: подождите {seconds} с",
    ),
    Msg.HOUSE_BOTS_ON_SERVER: (
        "the server runs its {count} house bots already; try later",
        "сервер уже запустил всех своих ботов ({count}): попробуйте позже",
    ),
    Msg.HOUSE_BOT_ON_SERVER: (
        "the server runs its 1 house bot already; try later",
        "сервер уже запустил своего единственного бота: попробуйте позже",
    ),
    # a table with search bots keeps about a core thinking (server/house.py)
    Msg.HOUSE_SEARCH_TABLES_OF_ADDRESS: (
        "search bots from your address already play {at}, as many as one address may:"
        " ask for one there, or try later",
        "поисковые боты с вашего адреса уже играют {at}, больше одному адресу нельзя:"
        " зовите их туда или попробуйте позже",
    ),
    # where they play, named: a tryout read '1 table(s)' and could not tell which
    Msg.HOUSE_SEARCH_AT_TABLE: ("at table {table}", "за столом {table}"),
    Msg.HOUSE_SEARCH_AT_TABLES: ("at tables {tables}", "за столами {tables}"),
    # ... but not a private table the asker may not know of (only counted)
    Msg.HOUSE_SEARCH_AT_ANOTHER: ("at another table", "за другим столом"),
    Msg.HOUSE_SEARCH_AT_OTHERS: ("at {count} other tables", "за другими столами ({count})"),
    Msg.HOUSE_SEARCH_AND_UNNAMED: ("{named} and {unnamed}", "{named} и {unnamed}"),
    Msg.HOUSE_SEARCH_TABLES_ON_SERVER: (
        "search bots already play at {count} tables, as many as this server allows; try later",
        "поисковые боты уже играют за столами ({count}), больше сервер не позволяет:"
        " попробуйте позже",
    ),
    Msg.HOUSE_SEARCH_TABLE_ON_SERVER: (
        "search bots already play at 1 table, as many as this server allows; try later",
        "поисковые боты уже играют за одним столом, больше сервер не позволяет: попробуйте позже",
    ),
    # seats and tables (server/matchmaking.py, seating.py, table.py, lobby.py)
    Msg.NOT_SEEKING: ("you are not waiting for a game", "вы не ждёте партию"),
    Msg.SEATS_RANGE: ("seats are 0 to {last}", "места — от 0 до {last}"),
    Msg.SIT_AT_THAT_TABLE: ("you sit at that table", "вы сидите за этим столом"),
    Msg.NOT_OBSERVING: ("you observe no such table", "вы не смотрите за таким столом"),
    # a bare "unobserve" names no table: "no such table" would point at one
    Msg.OBSERVING_NONE: ("you observe no table", "вы ни за одним столом не смотрите"),
    Msg.TABLE_FAILED: (
        "table {table} failed and closes; sorry",
        "сбой стола {table}: стол закрывается, извините",
    ),
    Msg.TABLE_PLAYING: (  # what to type instead: watch it (a tryout, s43)
        "table {table} is already playing: 'observe {table}' to watch it",
        "за столом {table} уже играют: смотреть — observe {table}",
    ),
    Msg.ALREADY_AT_TABLE: ("you already sit at table {table}", "вы уже сидите за столом {table}"),
    Msg.SEATS_FOR_HOUSE_BOTS: (
        "the free seats at table {table} wait for house bots",
        "свободные места за столом {table} ждут ботов сервера",
    ),
    Msg.SEAT_FOR_HOUSE_BOT: (
        "seat {seat} at table {table} waits for a house bot",
        "место {seat} за столом {table} ждёт бота сервера",
    ),
    Msg.TABLE_RESERVED: ("table {table} is reserved", "стол {table} оставлен для других игроков"),
    Msg.SEAT_NOT_FREE: (
        "seat {seat} is not free at table {table}",
        "место {seat} за столом {table} занято",
    ),
    Msg.NO_FREE_SEAT_AT: (
        "no free seat at table {table}",
        "за столом {table} нет свободного места",
    ),
    Msg.SIT_TO_CALL: ("sit at a table to make table calls", "сядьте за стол, чтобы делать ходы"),
    Msg.TABLE_HAS_CLOSED: ("table {table} has closed", "стол {table} закрылся"),
    Msg.NO_TABLE: ("there is no table {table}", "стола {table} нет"),
    # a connection's input (protocol/connection.py): it is then closed
    Msg.FLOOD: ("too many lines too fast: goodbye", "слишком много строк подряд: до свидания"),
}


@attrs.frozen
class Phrase:
    """A sentence of the catalogue with its values; a value may be a phrase itself."""

    key: Msg
    values: tuple[tuple[str, Value], ...] = ()

    def text(self, lang: Lang = Lang.EN) -> str:
        english, russian = MESSAGES[self.key]
        template = russian if lang == Lang.RU else english
        return template.format(**{k: _told(v, lang) for k, v in self.values})


@attrs.frozen
class Usage:
    """A command's form, as 'help' shows it: its words typed as they are, in Latin; its
    placeholders (NAME, [PAGE]) in the reader's language (docs/play.ru.md: ``sit СТОЛ``)."""

    form: str

    def text(self, lang: Lang = Lang.EN) -> str:
        if lang != Lang.RU:
            return self.form
        return _PLACEHOLDER.sub(lambda m: RU_PLACEHOLDERS.get(m[0], m[0]), self.form)


# the placeholders of the commands' forms in Russian (an unlisted one stays as it is)
RU_PLACEHOLDERS: dict[str, str] = {
    "COMMAND": "КОМАНДА",
    "NAME": "ИМЯ",
    "PASSWORD": "ПАРОЛЬ",
    "TOKEN": "КОД",
    "OLD": "СТАРЫЙ",
    "NEW": "НОВЫЙ",
    "PAGE": "СТРАНИЦА",
    "PLAYERS": "ИГРОКОВ",
    "VARIANT": "ВАРИАНТ",
    "OPTION ...": "ОПЦИИ…",
    "TABLE": "СТОЛ",
    "RULE": "ПРАВИЛО",
    "SEAT": "МЕСТО",
    "TEXT": "ТЕКСТ",
    "LEVEL": "УРОВЕНЬ",
    "REASON": "ПРИЧИНА",
    "MINUTES": "МИНУТ",
    "ADDRESS": "АДРЕС",
    "NETWORK": "СЕТЬ",
    "BOARD": "ДОСКА",
    "KEY": "КЛЮЧ",
}
_PLACEHOLDER = re.compile(r"\b[A-Z]{2,}\b(?: \.\.\.)?")


# a value: said as it is, a phrase or a command's form in the same language, or a list
# of them ("a, b")
Value = str | int | Phrase | Usage | tuple[str | Phrase, ...]


def _told(value: Value, lang: Lang) -> str | int:
    if isinstance(value, Phrase | Usage):
        return value.text(lang)
    if isinstance(value, tuple):
        return ", ".join(_told(v, lang) for v in value)  # type: ignore[misc]
    return value


def phrase(key: Msg, **values: Value) -> Phrase:
    return Phrase(key, tuple(values.items()))


def why(reason: str) -> Phrase:
    """': REASON' after an admin's sentence, or nothing if he gave none (§5.19)."""
    return phrase(Msg.WHY, reason=reason) if reason else phrase(Msg.NOTHING)


_FOR_PLAYERS = {2: Msg.FOR_TWO, 3: Msg.FOR_THREE, 4: Msg.FOR_FOUR}


def game_for(players: int) -> Phrase:
    """A game's players, said as the game for so many ('moscow for 3 players', «на
    троих»), not as a count of players beside a count of games or of the rated: 'top',
    'finger', a player's web page (docs/web.md), and the game port's 'tables',
    'rules' and invitations say it alike."""
    known = _FOR_PLAYERS.get(players)
    return phrase(Msg.FOR_N, players=players) if known is None else phrase(known)


def count_phrase(count: int, one: Msg, many: Msg, **values: Value) -> Phrase:
    """``one`` for a count of 1, else ``many`` with the count (``{count}``); both with
    ``values``."""
    return phrase(one, **values) if count == 1 else phrase(many, count=count, **values)


# A refusal without a phrase of its own, in Russian by its code (docs/protocol.md §10).
RU_ERRORS: dict[str, str] = {
    "line-too-long": "строка длиннее 1024 байт",
    "bad-encoding": "строка не в UTF-8",
    "control-character": "в строке управляющий символ",
    "flood": "слишком много строк сразу",
    "internal": "сбой сервера; ничего не изменилось, извините",
    "bad-proxy-header": "прокси не прислал верный заголовок PROXY: соединение закрывается",
    "line-timeout": "строка не закончена за 30 с",
    "login-timeout": "нет входа (login): соединение закрывается",
    "idle-timeout": "15 минут тишины: соединение закрывается",
    "busy": "сервер занят: подождите ответов или попробуйте позже",
    "slow-down": "слишком часто: подождите немного",
    "name-in-use": "это имя занято",
    "not-logged-in": "сначала войдите: login ИМЯ [ПАРОЛЬ]",
    "unknown-command": "нет такой команды; наберите help",
    "bad-argument": "неверные параметры команды; help КОМАНДА подскажет",
    "bad-password": "неверный пароль",
    "bad-rules": "таких правил нет; rules их перечисляет",
    "shutting-down": "сервер останавливается",
    "already-seated": "вы уже сидите за столом: сначала leave",
    "unknown-table": "такого стола нет",
    "table-full": "за этим столом уже играют",
    "seat-taken": "это место занято",
    "not-seated": "вы не сидите за столом и ни за каким не смотрите",
    "seat-reserved": "этот стол оставлен для других игроков",
    "stale": "это ответ на старый запрос",
    "wrong-phase": "сейчас это не ко времени",
    "not-your-turn": "сейчас не ваш ход",
    "answer-required": "сначала ответьте на вопрос",
    "illegal-card": "такой карты у вас нет",
    "must-follow-suit": "надо ходить в масть",
    "must-trump": "масти нет — надо бить козырем",
    "must-overtrump": "надо перебить козырь старшим козырем",
    "must-beat": "талон кончился — надо перебить карту соперника",
    "forbidden-rost": "«рост?» здесь нельзя",
    "false-declaration": "такой комбинации у вас нет",
    "not-allowed": "так сейчас нельзя",
    "game-over": "партия окончена",
    "illegal-call": "так сейчас нельзя",
    "ambiguous-rank": "туз или десятка? напишите «туз» или «10»",
    "ambiguous-call": "это может быть разное: скажите, что именно",
    "not-invited": "стол закрытый: сначала вас должен пригласить кто-то за ним (invite)",
    "unknown-player": "игрока с таким именем здесь нет",
    "already-invited": "этого игрока уже пригласили за этот стол",
    "banned": "этому имени закрыт вход на сервер",
    "muted": "вы пока лишены слова",
}


# 'help' in Russian: each command's summary (its words are typed as they are, in Latin;
# its placeholders are Russian: Usage);
# a command not here yet is explained in English.
RU_COMMANDS: dict[str, str] = {
    "help": "Команды, или как пользоваться одной из них."
    " lang=en или lang=ru: этот ответ на этом языке.",
    "login": "Войти. С паролем (не короче 6 знаков) имя регистрируется при первом входе"
    " и проверяется потом; "
    "без пароля вы гость и получаете код возврата. Занятое имя не дают; пароль "
    "или код возврата гостя возвращают ваше место. lang=ru сразу включает русский, "
    "style=machine — как «style machine».",
    "style": "Вывод: текст для людей или строки key=value для программ.",
    "sort": "Порядок карт в руке: по порядку, 7 8 9 10 В Д К Т (так видны терцы и "
    "полтинники; так по умолчанию), или по силе в игре. В обоих случаях по мастям.",
    "clock": "Часы человека ({human} с на ход на этом сервере) или бота ({bot} с). Без "
    "этой команды решает "
    "стиль. Действует с начала каждой партии.",
    "lang": "Язык: английский или русский (буквы В Д К Т, речь за столом как "
    "говорят: «от туза», «пишет»). Ходы понимаются на обоих языках.",
    "quit": "Уйти с сервера (место за столом, если оно у вас есть, ждёт вас).",
    "who": "Кто сейчас на сервере (по страницам).",
    "tables": "Столы: правила, места, состояние (по страницам).",
    "ping": "Держать соединение: подойдёт любая строка, ping больше ничего не делает.",
    "new": "Открыть стол (по умолчанию moscow на двоих) и сесть за него. "
    "Пример: new 2 moscow to-301. Закрытый стол (private) виден только своим: за него "
    "садятся и смотрят только те, кого вы пригласили (invite). Варианты и опции "
    "перечисляет rules в лобби.",
    "invite": "Пригласить игрока (человека или бота) за ваш ждущий стол или смотреть "
    "за ним; единственный путь за закрытый стол. Игроку скажут.",
    "bot": "Бот сервера сыграет партию за вашим ждущим столом. Эвристический играет как "
    "клубный игрок, случайный — любой картой, поисковый сильней их (1-5, обычно 3). "
    "rated: в рейтинг (не случайный).",
    "rematch": "После партии: сыграть ещё раз теми же игроками и по тем же правилам, "
    "каждый на место дальше. Просить должны все в течение {rematch} с после конца "
    "партии (на этом сервере); другим скажут, кто просит.",
    "history": "Партия за вашим столом (или за которым смотрите; вне стола — ваша "
    "последняя) по раздачам: кто сдавал, козырь, чем кончилась, и каждая взятка.",
    "top": "Рейтинг игроков варианта и числа игроков (без слов — игры, которую вы чаще "
    "всего играли в рейтинг, иначе той, где в рейтинге больше всего игроков), "
    "лучшие сначала (по страницам). В рейтинг идут открытые партии "
    "зарегистрированных игроков; с ботом сервера — только по bot … rated.",
    "finger": "Кто игрок (по умолчанию вы): зарегистрировано ли имя, здесь ли, его "
    "рейтинги с местом и итогом (выигрыши, проигрыши, ничьи) и последние партии.",
    "sit": "Сесть за стол; партия начинается, когда все места заняты.",
    "leave": "Встать из-за стола, перестать смотреть или ждать партию. Идущая партия "
    "засчитывается проигранной: leave сначала спрашивает, второй leave за 10 с "
    "подтверждает.",
    "leave!": "Встать из-за стола сразу, без вопроса (идущая партия проиграна).",
    "observe": "Смотреть за столом: сыгранные карты, заявки и счёт; руки игроков не видны.",
    "unobserve": "Перестать смотреть за столом (без номера — за всеми).",
    "say": "Сказать своему столу (зрителю — зрителям стола) или всем в зале. Разговоры "
    "записываются в журнал сервера: администраторы могут их прочесть.",
    "seek": "Ждать партию с этими правилами; вас посадят, когда наберутся игроки. "
    "seek другой партии заменяет прежний: ждать можно одну партию за раз "
    "(unseek — перестать ждать).",
    "reserve": "(для админов) Стол для названных игроков на заданных местах: доска турнира.",
    "release": "(для админов) Отдать игрокам доски записи её раздач.",
    "announce": "(для админов) Объявление всем, кто на сервере, с пометкой администратора.",
    "kick": "(для админов) Закрыть соединение игрока, сказав ему причину; его место "
    "ждёт его, как после любого обрыва, и он может войти снова.",
    "ban": "(для админов) Закрыть имени вход на сервер (хранится и после перезапуска), "
    "с причиной, которую ему скажут; соединение под этим именем закрывается. Слово с «.», "
    "«:» или «/» — адрес (203.0.113.7, 2001:db8::1: его /64) или сеть (203.0.113.0/24, "
    "не шире /16; IPv6 — /32): гостям и новым именам с него закрыт вход на МИНУТ (по "
    "умолчанию сутки, не больше года), зарегистрированным — нет; адрес игрока скажет "
    "finger ИМЯ.",
    "unban": "(для админов) Снова открыть вход имени или гостям с адреса.",
    "bans": "(для админов) Заблокированные имена и адреса: кто, когда (и до каких пор) и за что.",
    "mute": "(для админов) Лишить игрока слова (say, invite) на МИНУТ (по умолчанию 60, "
    "не больше недели; или с единицей: 5мин, 2ч, 1д; хранится и после перезапуска).",
    "unmute": "(для админов) Вернуть игроку слово.",
    "mutes": "(для админов) Кто лишён слова: кем, на сколько ещё и за что.",
    "drain": "(для админов) Остановить сервер, когда закончатся идущие партии, как по"
    " сигналу SIGUSR1, чтобы его снова запустил супервизор (сам он не запускается): до тех"
    " пор новые партии не начинаются, а ждущие игроков столы закрываются.",
    "unseek": "Перестать ждать партию.",
    "ignore": "Не слышать игрока: его say (в зале и за столом), invite и rematch до вас"
    " не доходят (ему не говорят); объявления админов и ходы за столом — доходят. Без"
    " ИМЕНИ — кого вы не слышите. Имя зарегистрированного хранится.",
    "unignore": "Снова слышать игрока.",
    "rules": "Правила стола словами: вариант, опции, часы. rules tertz (вариант или"
    " опция по имени) — о нём одном. lang=en или lang=ru: этот ответ на этом языке.",
    "state": "Снова показать стол: карты, козырь, взятку, счёт.",
    "last": "Последняя взятка за столом (вне стола — вашей последней партии): чей первый "
    "ход, карты, у кого взятка.",
    "sheet": "Запись партии (вне стола — вашей последней): очки каждой раздачи и итог; "
    "в деберце ещё байды и висячие очки (в терце их нет).",
    "games": "Последние законченные партии игрока, с номером партии. Запись партии m12 — "
    "/games/m12 на веб-страницах сервера.",
    "calls": "Ходы и заявки за столом и как их набирать."
    " lang=en или lang=ru: этот ответ на этом языке.",
    "password": "Сменить пароль своего зарегистрированного имени: сначала старый, потом "
    "новый. У гостя пароля нет (login ИМЯ ПАРОЛЬ регистрирует свободное имя).",
}

# the sentences 'help' adds for the server's admins (CommandSpec.admin_summary)
RU_ADMIN_SUMMARIES: dict[str, str] = {
    "seek": " seek reserved ждёт только стол, оставленный для вас.",
}

# the answers to the table talk, the same in Deberts and Tertz
_RU_TALK_ANSWERS = """\
  от КАРТЫ [козырного]        ответ на «рост?»: от туза, от короля козырного
  пишет (pishet, годится)     уступить: комбинация соперника лучше
  покажи (pokazhi, show)      потребовать показать объявленные карты
  показываю / скинь           показать их / потребовать сначала сходить"""

RU_CALLS_HELP = f"""\
Ходы и заявки (русскими или латинскими буквами, по-английски; регистр неважен):
  пас (pas, pass)             пас в торговле
  играю (igrayu, play)        играть в открытую масть
  играю МАСТЬ (играю черви)   второй круг: назвать другую масть
  меняю (menyayu, swap)       поменять козырную семёрку на открытую карту:
                              в первом козыре, до своей первой карты и до
                              объявления
  проходит? (prokhodit?)      спросить, проходит ли ваша козырная комбинация
  терц, два терца, пятьдесят, два полтинника (две копы)
                              объявить лучшую комбинацию до своей первой карты
  рост? (rost?)               спросить высоту комбинации той же длины
{_RU_TALK_ANSWERS}
  белла (bella)               козырные К и Д: объявить до хода одной из них
  КАРТА или ход КАРТА         сходить: ранг 7 8 9 10 В Д К Т и масть ♠ ♥ ♦ ♣
                              или п ч б к: 10ч, Вп, Д♠, туз пик, десятка ♥
  четыре семёрки (sevens)     показать четыре семёрки: сдать заново
Русская Т — туз, как показано (Т♠); латинская T на вид такая же, но это десятка:
если можно сыграть и туз, и десятку этой масти, сервер переспросит; «туз ♠» и
«10♠» не спутать.
По-украински тоже: граю, пасую, пише, від туза, туз пік. На опечатку в букву-две
сервер подскажет: «Может быть, …?».
"""

RU_TERTZ_CALLS_HELP = f"""\
Ходы и заявки в терце (торговли нет; русскими или латинскими буквами):
  ломаю N (lomayu N, break N)
                              проигравший первую взятку ломает колоду;
                              N — число 1–12
  меняю (menyayu, swap)       поменять козырную семёрку на открытую карту:
                              на своём ходу, пока в колоде две карты или больше
                              (семёрка из объявленной комбинации остаётся)
  терц, пятьдесят             объявить терц (20) или пятьдесят (50) на любой
                              взятке, пока у вас девять карт
  сто пять, сто шесть, сто семь, сто восемь
                              объявить пять, шесть, семь, восемь подряд (100)
  сто дам, сто королей, сто тузов
                              объявить четыре дамы, короля, туза (100)
  сто (100, hundred)          свою сотню: какую — сервер подставит сам
  двести (dvesti, 200)        объявить четыре валета (200)
  от чего? (rost?, рост?)     спросить высоту комбинации того же класса
{_RU_TALK_ANSWERS.replace("«рост?»", "«от чего?»")}
  марьяж (bella, белла)       козырные К и Д: на своём ходу, один раз
  КАРТА или ход КАРТА         сходить: ранг 7 8 9 10 В Д К Т и масть ♠ ♥ ♦ ♣
                              или п ч б к
"""
RU_VARIANT_CALLS_HELP = {"tertz": RU_TERTZ_CALLS_HELP}
# the engine's calls an option makes, as commands.OPTION_CALLS_HELP (in the options'
# column of 'calls', as «даве (dave, double)   опция dave»)
RU_OPTION_CALLS_HELP = {
    "swap-before-extra": """\
  не меняю (ne menyayu, keep)          опция swap-before-extra: не меняться
                                       до прикупа""",
    "manual-claim": """\
  конец (konets, claim, 501)           опция manual-claim: объявить конец
                                       партии после своей взятки""",
}
# the variants whose clock, out of time, breaks the deck (Tertz: lomayu-1, the first of
# legal=, docs/protocol.md §11.2) and which have no bidding: their 'rules' clock line
# says so, no other's
RULES_BREAKS = frozenset({"tertz"})
