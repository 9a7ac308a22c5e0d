"""The Textual application of ``deberc-net play`` (docs/play.md).

The screen, for 80×24: a status line (name, resume token), the table pane and the score
beside it, the hand and the calls you may make, the log (talk and notices), the input
line and the keys. Everything drawn comes from ``state.fold`` over the server's lines.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Footer, Input, Static

from deberc_net.game.calls import IGRAYU, NE_PROKHODIT, PAS
from deberc_net.protocol.commands import command_word
from deberc_net.protocol.lang import Lang, ru_call
from deberc_net.protocol.messages import LEAVE_CONFIRM_S, LEAVE_DECLINED, Msg, phrase

from . import draw
from .entry import History, asked_in, candidates, token_of
from .link import Link
from .state import (
    TableState,
    fold,
    noted,
    playing,
    resync_requests,
    seek_line,
    sent_on_behalf,
    typed,
)
from .texts import T, say

TICK_S = 0.25  # how often the clock redraws
SCORE_PANE = 27  # the score pane's columns, border and padding included (CSS below)
TOP_LINES = 9  # the table and score panes' height, when the table's lines fit in it


class WireLine(Message):
    """A line from the server (or a notice of the link), posted from the link's thread."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line


class LegalSuggester(Suggester):
    """Shows, greyed after the cursor, the first legal call or command that fits."""

    def __init__(self, app: PlayApp) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._app = app

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        state = self._app.state
        found = candidates(value, state.legal, state.lang, state.words)
        return value + found[0][len(value) :] if found else None


def _editing_keys() -> dict[str, str]:
    """Input's own keys that edit the line or move in it, each with its action
    (textual's: Ctrl+U deletes what is left of the cursor, Ctrl+K what is right of it,
    Ctrl+W a word, as a shell's line does); not the clipboard's, nor Enter."""
    keys: dict[str, str] = {}
    for binding in Input.BINDINGS:
        key, action = (binding.key, binding.action) if isinstance(binding, Binding) else binding[:2]
        if action.startswith(("cursor_", "delete_", "home", "end")):
            keys.update({k.strip(): action for k in key.split(",")})
    return keys


_EDITING = _editing_keys()


class Entry(Input):
    """The input line. Tab and the arrows are its own keys, not the app's priority
    ones: those run when the app reads the key, before the line has taken the keys that
    came just before it in one burst (a paste, tmux's send-keys), so 'i' and Tab at once
    completed the empty line and then typed 'i' after it."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("tab", "app.complete", "complete", show=False),
        Binding("up", "app.history(-1)", "history", show=False),
        Binding("down", "app.history(1)", "history", show=False),
    ]

    # Enter ends the line as the key comes, not when its binding runs: the keys read
    # with it ('bella', Enter, 'Jc', Enter from one read) were typed on first, and
    # 'bellaJc' went out twice (a tryout, s29). textual calls these before Input's own
    # handlers of the same name, which prevent_default() keeps from running.
    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.submit_line("")
            return
        # the line's editing keys too (Ctrl+U, Backspace, the arrows, …): as bindings
        # they ran after the keys read with them, so 'ig', Ctrl+U, 'terts', Enter in one
        # read sent 'igterts' (a tryout, s42), 'terx', Backspace, 'ts' 'terxts'
        action = _EDITING.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)

    def _on_paste(self, event: events.Paste) -> None:
        """A paste of several lines sends each whole one and keeps the last, unended,
        on the line (Input took the first alone; the others were lost)."""
        *whole, rest = event.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if whole:  # (one line: Input's own handler inserts it)
            event.stop()
            event.prevent_default()
            self.submit_line(whole[0], *whole[1:])
            self.value, self.cursor_position = rest, len(rest)

    def submit_line(self, end: str, *more: str) -> None:
        """The line typed so far with ``end`` after it, then each of ``more``, sent as
        Enter sends one; the line left empty."""
        line, self.value = self.value + end, ""
        for each in (line, *more):
            self.post_message(self.Submitted(self, each))


class Pane(Static):
    """A pane of plain text; ``text`` is what it shows now (markup off: cards are text)."""

    def __init__(self, **kwargs: str) -> None:
        super().__init__("", markup=False, **kwargs)  # type: ignore[arg-type]
        self.text = ""

    def show(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.update(text)


class KeyBar(Footer):
    """The keys' footer: on one line where they all fit whole, else on two (a terminal
    narrower than 80 columns: the last keys, F10 and Ctrl+R, went past its edge)."""

    def compose(self) -> ComposeResult:
        yield from super().compose()
        keys = [
            (self.app.get_key_display(binding), binding.description)
            for _node, binding, enabled, _tip in self.screen.active_bindings.values()
            if binding.show
        ]
        # each key as the compact footer draws it: 'f1 help' and a column after it
        width = sum(cell_len(f"{key} {word} ") for key, word in keys)
        if keys and width > self.app.size.width:
            columns = -(-len(keys) // 2)
            self.styles.layout = "grid"
            self.styles.grid_size_columns, self.styles.grid_size_rows = columns, 2
            self.styles.height = 2
        else:
            self.styles.layout = "horizontal"
            self.styles.height = 1


def key_bindings(lang: Lang) -> list[Binding | tuple[str, str] | tuple[str, str, str]]:
    """The app's keys, their words in the footer in ``lang`` (F2, F3: the calls as said)."""

    def word(key: T) -> str:
        return say(key, lang)

    def call(token: str) -> str:
        return ru_call(token) if lang == Lang.RU else token

    return [
        Binding("f1", "send('help')", word(T.KEY_HELP), priority=True),
        Binding("f2", "bid('pas')", call(PAS), priority=True),
        Binding("f3", "bid('igrayu')", call(IGRAYU), priority=True),
        Binding("f4", "send('state')", word(T.KEY_STATE), priority=True),
        Binding("f5", "send('tables')", word(T.KEY_TABLES), priority=True),
        Binding("f6", "send('who')", word(T.KEY_WHO), priority=True),
        Binding("f7", "seek", word(T.KEY_SEEK), priority=True),
        Binding("f8", "break_deck", word(T.KEY_BREAK), priority=True),
        Binding("f10", "send('quit')", word(T.KEY_QUIT), priority=True),
        Binding("ctrl+r", "reconnect", word(T.KEY_RECONNECT), priority=True),
        # the log pane: a reply taller than it ('calls', 'rules') is read a page at a time
        Binding("pageup", "scroll_log(1)", "log up", show=False, priority=True),
        Binding("pagedown", "scroll_log(-1)", "log down", show=False, priority=True),
    ]


def other_lang(line: str, lang: Lang) -> Lang | None:
    """The language a typed ``lang X`` asks when it is not the screen's ``lang``; None
    for any other line (a 'lang uk' goes to the server, which says why not)."""
    words = line.split()
    if len(words) != 2 or command_word(words[0]) != "lang":
        return None
    asked = {"en": Lang.EN, "ru": Lang.RU}.get(words[1].casefold())
    return asked if asked is not None and asked != lang else None


def key_places(state: TableState) -> tuple[bool, tuple[str, ...], bool, bool, bool]:
    """What the keys shown depend on: we are logged in, which of F2/F3's calls are legal
    now, our match runs, the deck is ours to break now (Tertz's lomayu N among the ask's
    calls), we sit (a match's end puts its players back in the lobby, docs/protocol.md
    §9.7, though its table stays on screen)."""
    seated = state.table is not None and state.seat is not None and state.result is None
    bids = tuple(call for call in (PAS, IGRAYU) if call in state.legal)
    breaks = draw.default_break(state.legal) is not None
    return state.name is not None, bids, playing(state), breaks, seated


def keys_shown(state: TableState, action: str, parameters: tuple[object, ...]) -> bool:
    """Whether the key for ``action`` works now, so is shown and sent. F2/F3 (pas,
    igrayu) each only while its call is legal: our turn to bid ('igrayu' in the first
    round only: the second names a suit); in the lobby, to a watcher, in the play, out
    of turn or once the match is over the server refuses them. F8 (the break) likewise
    only while the break is ours (a Tertz deal showed it from its start, before any
    break was due: a tryout, s47); F7 (seek) not while we sit ('leave' first). Before a
    login only F1 (help), F10 and Ctrl+R work: the others' commands are refused ('log
    in first')."""
    logged_in, bids, running, breaks, seated = key_places(state)
    if not logged_in and action in ("send", "seek"):
        return action == "send" and parameters in (("help",), ("quit",))
    if action == "bid":
        return bool(parameters) and parameters[0] in bids
    if action == "break_deck":
        return running and breaks
    return not (action == "seek" and seated)


class PlayApp(App[None]):
    """The client in English; ``RussianPlayApp`` in Russian (``play_app``)."""

    LANG: ClassVar[Lang] = Lang.EN
    TITLE = "deberc-net play"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #top { height: 9; }
    #table { width: 1fr; padding: 0 1; }
    /* no padding at the screen's edge: 25 columns inside, as draw.SCORE_COLUMNS */
    #score { width: 27; border-left: solid $primary; padding: 0 0 0 1; }
    #hand { height: 1; padding: 0 1; text-style: bold; }
    #legal { height: 2; padding: 0 1; color: $success; }
    #log { height: 1fr; padding: 0; color: $text-muted; }
    #input { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = key_bindings(
        Lang.EN
    )

    def __init__(
        self, host: str, port: int, name: str | None = None, token: str | None = None
    ) -> None:
        super().__init__()
        self.address = f"{host}:{port}"
        self.state = TableState(lang=self.LANG)
        self.history = History()
        self.asked_at = 0.0  # when the open ask came (its clock counts from there)
        self.link = Link(host, port, self._from_link, name, self.LANG)
        self.link.token = token  # a guest's token from an earlier run: resumes the seat
        self._cycle: list[str] = []
        self.log_back = 0  # the log pane scrolled back this many lines (0: the newest)
        self.leave_asked: float | None = None  # when 'leave' asked to be confirmed

    # ------------------------------------------------------------------ screen
    def compose(self) -> ComposeResult:
        yield Pane(id="status")
        with Horizontal(id="top"):
            yield Pane(id="table")
            yield Pane(id="score")
        yield Pane(id="hand")
        yield Pane(id="legal")
        yield Pane(id="log")
        yield Entry(
            id="input",
            placeholder=say(T.PLACEHOLDER, self.LANG),
            suggester=LegalSuggester(self),
        )
        # compact (one column between keys) and without Textual's `^p palette`, which
        # docks right over the last keys: at 80 columns f10 and ^r were hidden under it
        # (Ctrl+P still opens the palette in English; the Russian app has none)
        yield KeyBar(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#input", Input).focus()
        self.set_interval(TICK_S, self.redraw)
        self.link.start()

    def on_unmount(self) -> None:
        self.link.stop()

    def pane(self, name: str) -> Pane:
        return self.query_one(f"#{name}", Pane)

    def remaining_ms(self) -> int | None:
        if not self.state.asking or self.state.clock_ms is None:
            return None
        return self.state.clock_ms - int((time.monotonic() - self.asked_at) * 1000)

    def redraw(self) -> None:
        try:
            self._draw()
        except NoMatches:
            # the clock's timer can tick while the app closes, its panes already removed
            # (seen under load in tests/play: a traceback at exit); nothing to draw then
            return

    def on_resize(self, event: events.Resize) -> None:
        try:
            bar = self.query_one(KeyBar)
        except NoMatches:  # (not composed yet: it is laid out for this size then)
            return
        bar.refresh(recompose=True)  # one line of keys or two
        self.redraw()

    def _draw(self) -> None:
        state = self.state
        self.pane("status").show(draw.status_text(state, self.address))
        # the table pane's columns as laid out (80 - 27 - 2 at 80 columns): narrower, a
        # line that does not fit is folded, and the panes grow to hold it (the log less)
        columns = max(self.size.width - SCORE_PANE - 2, 10)
        table = draw.table_text(state, self.remaining_ms(), columns)
        self.query_one("#top").styles.height = max(TOP_LINES, table.count("\n") + 1)
        self.pane("table").show(table)
        self.pane("score").show(draw.score_text(state))
        self.pane("hand").show(draw.hand_text(state) if state.table is not None else "")
        self.pane("legal").show(draw.legal_text(state))
        log = self.pane("log")
        # the newest lines that fit the pane as laid out now (a long reply wraps)
        size = log.content_size
        log.show(draw.log_text(state.log, size.width, size.height, self.log_back, state.lang))

    # ------------------------------------------------------------------- lines
    def _from_link(self, line: str) -> None:
        self.post_message(WireLine(line))  # thread-safe: runs on_wire_line in the app

    def on_wire_line(self, message: WireLine) -> None:
        self.link.shown_one()
        was_asking, seq = self.state.asking, self.state.seq
        places = key_places(self.state)
        logged = self.state.logged
        self.state = fold(self.state, message.line)
        added = self.state.logged - logged
        if self.log_back and added:
            # scrolled back: what is read stays in place as new lines come below it (the
            # log full, the oldest go: counted, not found by comparing the logs)
            new = self.state.log[-added:]
            self.log_back += draw.log_lines(new, self.pane("log").content_size.width)
        if key_places(self.state) != places:
            self.refresh_bindings()  # the calls' keys come and go with the game and seat
        self.state, again = resync_requests(self.state)
        for request in again:  # back after a drop: ask what was missed (state.py)
            self.link.send(request)
        self.state, mine = sent_on_behalf(self.state)
        for request in mine:  # the player's own, as if typed: a place in line taken again
            self.link.send(request)
        if self.state.asking and (not was_asking or self.state.seq != seq):
            self.asked_at = time.monotonic()
        self.redraw()
        if self.link.quitting and self.link.closed.is_set():
            self.exit()  # 'quit' was answered with bye: the session is over

    # ------------------------------------------------------------------ typing
    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()  # (the line emptied as it was sent: Entry)
        self._cycle = []
        self.log_back = 0  # back to the newest lines (Enter alone too)
        if line:
            self.history.add(line)
            self.action_send(line)

    def action_send(self, line: str) -> None:
        if self.log_back:  # typed or by a key: back to the newest lines, where answers come
            self.log_back = 0
            self.redraw()
        if command_word(line.split()[0]) == "quit" and self.link.down:  # (or «выход»)
            self.link.send(line)  # (the link, waiting for Ctrl+R, ends too)
            self.exit()
            return
        if line.strip().lower() == "leave" and self.leave_unconfirmed():
            return
        other = other_lang(line, self.LANG)
        if other is not None:  # the screen's language is not the connection's to set
            self.state = noted(self.state, say(T.LANG_AT_START, other))
            self.redraw()
            return
        if self.leave_declined(line):
            return
        line = asked_in(token_of(line, self.state.legal, self.state.words), self.LANG)
        if not self.link.send(line):
            self.state = noted(self.state, self.state.say(T.NOT_CONNECTED))
            self.redraw()
            return
        self.state = typed(self.state, line)  # (a seek waits for its answer)

    def leave_unconfirmed(self) -> bool:
        """'leave' while our match runs forfeits it: the machine style never asks, so
        the client asks as the human style does, and a second 'leave' within the time
        sends it ('leave!' goes at once); whether this one was held back to ask."""
        now = time.monotonic()
        asked, self.leave_asked = self.leave_asked, None
        if not playing(self.state) or (asked is not None and now - asked <= LEAVE_CONFIRM_S):
            return False
        self.leave_asked = now
        seconds = f"{LEAVE_CONFIRM_S:.0f}"
        question = phrase(Msg.LEAVE_CONFIRM, seconds=seconds).text(self.LANG)
        self.state = noted(self.state, question)
        self.redraw()
        return True

    def leave_declined(self, line: str) -> bool:
        """'no' answering that question within its time keeps the seat, as in the human
        style (docs/protocol.md §5.6): said, and not sent (the call 'no', ne-prokhodit,
        was refused); unless ne-prokhodit is a call to make now, which it then is."""
        asked, table = self.leave_asked, self.state.table
        if asked is None or table is None or time.monotonic() - asked > LEAVE_CONFIRM_S:
            return False
        if line.strip().casefold() not in LEAVE_DECLINED or NE_PROKHODIT in self.state.legal:
            return False
        self.leave_asked = None
        stay = phrase(Msg.LEAVE_DECLINED, table=table).text(self.LANG)
        self.state = noted(self.state, stay)
        self.redraw()
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # only the keys that work where the person is (keys_shown)
        return keys_shown(self.state, action, parameters)

    def action_scroll_log(self, pages: int) -> None:
        """PgUp/PgDn: the log pane a page back or forward (never past its ends)."""
        log = self.pane("log")
        height, width = max(log.content_size.height, 2), log.content_size.width
        most = max(draw.log_lines(self.state.log, width) - (height - 1), 0)
        self.log_back = min(max(self.log_back + pages * (height - 1), 0), most)
        self.redraw()

    def action_seek(self) -> None:
        """F7: seek the game last played ('seek 2 tertz to-301'), else 'seek 2'."""
        self.action_send(seek_line(self.state))

    def action_bid(self, call: str) -> None:
        self.action_send(call)

    def action_break_deck(self) -> None:
        """Tertz: break the deck by the middle of the range offered (lomayu N)."""
        chosen = draw.default_break(self.state.legal)
        if chosen is not None:  # (the key is there only then: keys_shown)
            self.action_send(chosen)

    def action_reconnect(self) -> None:
        """Drop the connection and resume the session with the token: for a link
        that seems stuck; once the link has given up trying, it tries again."""
        self.link.drop()

    def action_complete(self) -> None:
        box = self.query_one("#input", Input)
        if self._cycle and box.value in self._cycle:
            following = self._cycle[(self._cycle.index(box.value) + 1) % len(self._cycle)]
        else:
            state = self.state
            self._cycle = candidates(box.value, state.legal, state.lang, state.words)
            if not self._cycle:
                return
            following = self._cycle[0]
        box.value = following
        box.cursor_position = len(following)

    def action_history(self, step: int) -> None:
        box = self.query_one("#input", Input)
        line = self.history.back() if step < 0 else self.history.forward()
        if line is not None:
            box.value = line
            box.cursor_position = len(line)


class RussianPlayApp(PlayApp):
    """The client in Russian (``--lang ru``): its panes, keys and log, the calls as the
    Russian human style says them, the server's sentences read back into Russian."""

    LANG: ClassVar[Lang] = Lang.RU
    # Textual's command palette (^p: themes, keys, quit) speaks English only: not on a
    # Russian screen, whose keys are all in the footer
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = key_bindings(
        Lang.RU
    )


def play_app(lang: Lang) -> type[PlayApp]:
    """The application in ``lang``."""
    return RussianPlayApp if lang == Lang.RU else PlayApp
