"""A bot's own faults in a ladder (an exception in ``choose``, an answer not legal) are
counted in the report, per bot, with the first one and where it was raised, and said on
the ladder's standard error (docs/bots.md "A bot's faults"). Failed before: the report
was as for a sound bot, and nothing was said. And a ``py:MODULE`` in the current
directory is found, as ``python -m`` finds it (failed before: "cannot import")."""

from __future__ import annotations

from pathlib import Path

from deberc_net.ladder import report

from .helpers import RAND, RAW_HEAD, ladder, script, summary

BUGGY = """
from clients.client import Brain


def brain(name, seed):
    calls = [0]

    def choose(view):
        calls[0] += 1
        if calls[0] % 5 == 0:
            raise RuntimeError("bug in choose")
        return "nonsense" if calls[0] % 7 == 0 else view.legal[-1]

    return Brain(choose)
"""


def test_a_buggy_bots_faults_are_in_the_report(tmp_path: Path) -> None:
    (tmp_path / "buggy_bot_here.py").write_text(BUGGY, encoding="utf-8")
    args = ("--bot", "bug=py:buggy_bot_here", "--bot", RAND, "--deals", "6", "--seed", "b1")
    done = ladder(tmp_path, *args, "--json")
    data = summary(done)
    assert data["fallbacks"]["bug"] >= data["bot_errors"]["bug"] > 0
    assert "rand" not in data["fallbacks"] and "rand" not in data["first_faults"]
    first = data["first_faults"]["bug"]
    assert first.startswith("choose raised RuntimeError('bug in choose') at buggy_bot_here.py:")
    assert f": {first}; the first legal call was sent instead (a fallback)" in done.stderr
    told = report.text(data)
    assert (
        f"  bug: {data['fallbacks']['bug']} fallbacks, {data['bot_errors']['bug']} exceptions; "
        f"first: {first}"
    ) in told.splitlines(), told


# the same brain, run as a command by the client library's run_bot
BUGGY_PROCESS = """
from buggy_bot_here import brain

from clients.client import bot_arguments, run_bot

args = bot_arguments("a buggy bot").parse_args()
run_bot(brain(args.name, None).choose, args)
"""


def test_a_process_bots_fault_counts_come_back_to_the_report(tmp_path: Path) -> None:
    """A bot of the client library run as a command says its fault counts on standard
    error (the ladder asks it to); the ladder reads them into the report, as an
    in-process bot's, and does not pass those lines on. Failed before: its counts stayed
    in its process, the report said nothing of them."""
    (tmp_path / "buggy_bot_here.py").write_text(BUGGY, encoding="utf-8")  # (beside it)
    bug = script(tmp_path, "bug", BUGGY_PROCESS)
    done = ladder(tmp_path, "--bot", bug, "--bot", RAND, "--deals", "6", "--seed", "b1", "--json")
    data = summary(done)
    assert data["fallbacks"]["bug"] >= data["bot_errors"]["bug"] > 0, data
    first = data["first_faults"]["bug"]
    assert first.startswith("choose raised RuntimeError('bug in choose') at buggy_bot_here.py:")
    assert f"bug-1: {first}; the first legal call was sent instead" in done.stderr
    assert "faults fallbacks=" not in done.stderr  # read, not passed on
    told = report.text(data).splitlines()
    assert "Bot faults:" in told and any(x.startswith("  bug: ") for x in told), told


# a bot that keeps the deal's history, with a bug in it: on_event raises now and then
FORGETFUL = """
from clients.client import Brain


def brain(name, seed):
    lines = [0]

    def on_event(item):
        lines[0] += 1
        if lines[0] % 9 == 0:
            raise KeyError("bug in on_event")

    def on_board(key):
        if seed == "boards":
            raise ValueError("bug in on_board")

    events = None if seed else on_event
    return Brain(lambda view: view.legal[-1], on_event=events, on_board=on_board)
"""

FORGETFUL_PROCESS = """
from forgetful_bot_here import brain

from clients.client import Bot, bot_arguments, run_to_end

args = bot_arguments("a forgetful bot").parse_args()
mind = brain(args.name, None)
bot = Bot(mind.choose, args.name, args.host, args.port, seek=args.seek, on_event=mind.on_event)
run_to_end(bot)
"""


def test_an_exception_in_on_event_is_a_fault_not_a_crash(tmp_path: Path) -> None:
    """``on_event`` (or ``on_board``) raising is counted and said as ``choose`` raising
    is, and the bot plays on, in the ladder's process and as a command alike. Failed before: each
    exception ended the copy (a crash; as a command, a traceback), which was restarted
    again and again, its logins slowed down and its seats forfeited, and the report
    said only "keeps failing; its last words: KeyError('bug in on_event')", or nothing
    of why."""
    (tmp_path / "forgetful_bot_here.py").write_text(FORGETFUL, encoding="utf-8")
    cmd = script(tmp_path, "cmd", FORGETFUL_PROCESS)
    boards = "boards=py:forgetful_bot_here --seed boards"
    bots = ("--bot", "inproc=py:forgetful_bot_here", "--bot", cmd, "--bot", boards)
    done = ladder(tmp_path, *bots, "--deals", "3", "--seed", "e1", "--json")
    data = summary(done)
    assert data["crashes"] == {} and data["forfeits"] == {}, data
    assert data["games"] == 3 * 2 * 3  # every pair of the three, both seatings
    assert data["first_faults"]["boards"].startswith(
        "on_board raised ValueError('bug in on_board') at forgetful_bot_here.py:"
    )
    for bot in ("inproc", "cmd"):
        assert data["bot_errors"][bot] > 0 and not data["fallbacks"].get(bot), data
        first = data["first_faults"][bot]
        assert first.startswith(
            "on_event raised KeyError('bug in on_event') at forgetful_bot_here.py:"
        ), first
        assert f"{bot}-1: {first}; the bot plays on (that line was not taken in)" in done.stderr
    assert "Traceback" not in done.stderr and "faults fallbacks=" not in done.stderr


# a bot of its own (no client library) whose first answer is refused: it sends its
# first legal call instead and says so in the words docs/bots.md gives
OWN_WORDS = (
    RAW_HEAD
    + """\
import sys
from deberc_net.protocol.wire import fields_of
asks, legal, fallbacks = 0, [], 0
for line in sock.makefile("r", encoding="utf-8", newline="\\r\\n"):
    tag, kv = fields_of(line)
    if tag == "ask":
        asks += 1
        legal = [kv["legal"].split(",")[0], kv["seq"]]
        call = "xyz" if asks == 1 else legal[0]
        sock.sendall(f"{call} seq={kv['seq']}\\n".encode())
    elif tag == "error" and legal:
        fallbacks += 1
        if fallbacks == 1:
            print(f"{a.name}: 'xyz' refused: {kv['code']}; the first legal call was sent "
                  "instead (a fallback)", file=sys.stderr, flush=True)
        print(f"{a.name}: faults fallbacks={fallbacks} exceptions=0", file=sys.stderr, flush=True)
        sock.sendall(f"{legal[0]} seq={legal[1]}\\n".encode())
        legal = []
    elif tag == "event" and kv.get("kind") == "match-end":
        sock.sendall(b"seek reserved\\n")
"""
)


def test_a_bot_of_its_own_has_its_faults_in_the_report_in_the_documented_words(
    tmp_path: Path,
) -> None:
    own = script(tmp_path, "own", OWN_WORDS)
    done = ladder(tmp_path, "--bot", own, "--bot", RAND, "--deals", "1", "--concurrency", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "  own: 1 fallback, 0 exceptions; first: 'xyz' refused: unknown-command" in done.stdout
    assert "faults fallbacks=" not in done.stderr  # read into the report, not passed on
