"""A table's own English words for calls (protocol/lang.py ``table_words``): Tertz's
mariage is 'mariage' in English lines (docs/rules.md §12.5, the sources' word), as it
is «марьяж» in Russian ones; a tryout found the English prompt, call lines, talk and
scored combinations saying Deberts's 'bella'. A Deberts table still says 'bella'; the
token on the wire stays 'bella' (docs/protocol.md, Tertz's calls)."""

from __future__ import annotations

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import TERTZ_CALLS_HELP
from deberc_net.protocol.lang import NO_WORDS, Lang, ru_call, spoken_call, table_words
from deberc_net.protocol.refusals import refusal_phrase
from deberc_net.protocol.render import combo_word, for_people, render, scored_lines
from deberc_net.testing import build_ruleset, build_talon_deck, legal, say

TERTZ = build_ruleset(2, "tertz")
TERTZ_WORDS = table_words(TERTZ.call_aliases)
NAMES = ("anna", "boris")


def test_tertz_tables_say_mariage_in_english_deberts_tables_bella() -> None:
    assert spoken_call(C.BELLA, TERTZ_WORDS) == "mariage"
    # its 'from what?' as its 'calls' leads (a whole match in the terminal client, s41,
    # was asked 'rost?', Deberts's word, and told to answer 'ot chego?')
    assert spoken_call(C.ROST, TERTZ_WORDS) == "ot chego?"
    assert spoken_call(C.ROST) == spoken_call(C.ROST, NO_WORDS) == "rost?"
    assert ru_call(C.BELLA, TERTZ_WORDS) == "марьяж"  # the Russian as before
    assert spoken_call(C.BELLA) == spoken_call(C.BELLA, NO_WORDS) == "bella"
    short = table_words(build_ruleset(2, options=("dave",)).call_aliases)
    assert spoken_call(C.BELLA, short) == "bella" and spoken_call("dave", short) == "dave"


def test_an_english_tertz_prompt_call_line_talk_and_hint_say_mariage() -> None:
    # anna holds K♥ Q♥, hearts trumps: the mariage is hers to say on her turn
    deck = build_talon_deck("Kh Qh 7c 8c 9c 10c Jc Qc 7d", "8h 9h 10h 8d 9d 10d Jd Qd Kd", "Ah", "")
    match = Match(TERTZ, seed="t", dealer=1, decks={1: deck}, names=NAMES)
    assert C.BELLA in legal(match, 0)
    [*_, prompt] = render(ev.Ask(1, 1, view(match, 0), 60500, words=TERTZ_WORDS), "human")
    assert "| mariage |" in prompt and "bella" not in prompt, prompt
    said = g.CallMade(0, C.Call(C.BELLA))
    assert render(ev.TableEvent(2, 1, NAMES, said, words=TERTZ_WORDS), "human") == ["anna: mariage"]
    assert render(ev.TableEvent(2, 1, NAMES, said), "human") == ["anna: bella"]  # Deberts
    hint = ev.Error("unknown-command", "not a call", hint=C.BELLA, words=TERTZ_WORDS)
    assert "Did you mean mariage?" in " ".join(render(hint, "human"))
    say(match, 0, C.BELLA)  # the table's talk so far, as 'state' shows it
    state = ev.Ask(3, 1, view(match, 1), None, ev.AskKind.STATE, whole=True, words=TERTZ_WORDS)
    assert any("anna mariage" in x for x in render(state, "human")), render(state, "human")
    machine = render(ev.TableEvent(2, 1, NAMES, said, words=TERTZ_WORDS), "machine")
    assert "call=bella" in machine[0]  # the wire's token is the protocol's


def test_a_tertz_deals_scored_mariage_is_said_so_in_english() -> None:
    assert combo_word("bella", Lang.EN, TERTZ_WORDS) == "mariage"
    assert combo_word("bella", Lang.EN) == "bella"
    scored = [ev.Scored(1, "bella", 20), ev.Scored(0, "run of 3 to 9d", 20)]
    assert scored_lines(scored, NAMES, Lang.EN, TERTZ_WORDS) == [
        "Scored for combinations: anna terts 20; boris mariage 20."
    ]


def test_the_tertz_calls_list_names_mariage_and_from_what_first() -> None:
    assert "  mariage (bella, марьяж)" in TERTZ_CALLS_HELP
    # led by its word, as the entries beside it are ('help от туза' in the lobby
    # listed Tertz's "from what?" as the bare rost? beside Deberts's 'ot RANK')
    assert "  ot chego? (rost?, от чего?)" in TERTZ_CALLS_HELP
    assert "answer ot chego? with your top card" in TERTZ_CALLS_HELP
    assert "рост?" not in TERTZ_CALLS_HELP


def test_a_tertz_tables_english_refusals_say_its_calls_in_its_words() -> None:
    """The engine's refusals (the wire's text, the token) were said to a person at a
    Tertz table in Deberts's words: 'ask rost?' where its prompt, talk and question say
    'ot chego?', 'bella' where they say 'mariage'. A Deberts table's are as they were."""
    cases = [
        ("a combination as high is declared: ask rost?", "ask ot chego?"),
        ("Tertz has no prokhodit?: ask a declaration with rost?", "with ot chego?"),
        ("the best declaration is your own: rost? asks the opponent's", ": ot chego? asks"),
        ("waiting for seat 1 to answer rost?", "boris to answer ot chego?"),
        ("bella is not a call you may make now", "mariage is not"),
    ]
    for message, said in cases:
        assert said in for_people(message, NAMES, TERTZ_WORDS), message
        assert "ot chego?" not in for_people(message, NAMES)  # Deberts: as it came
        assert "mariage" not in for_people(message, NAMES)
    assert for_people("ot-K is not a call you may make now", NAMES, TERTZ_WORDS).startswith(
        "ot korolya is"
    )
    # a catalogue phrase's English names the call so too, its Russian as before
    own = "the best declaration is your own: rost? asks the opponent's"
    found = refusal_phrase(own, NAMES, TERTZ_WORDS)
    assert found is not None
    assert "ot chego? asks" in found.text(Lang.EN) and "«от чего?»" in found.text(Lang.RU)
