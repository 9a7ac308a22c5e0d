"""What a plugin author is given: spoken aliases for a plugin's calls, the typed deal
(``PluginDeal``), and a clear refusal when two options disagree on a setting."""

from __future__ import annotations

import re
import tomllib
import types
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import pytest

from deberc_net.game.calls import Call
from deberc_net.game.rules import DealScore, Settings
from deberc_net.plugins import (
    Pending,
    PluginDeal,
    PluginError,
    RuleBook,
    RuleError,
    RuleInfo,
    hookimpl,
)
from deberc_net.protocol.vocabulary import AmbiguousRank, CallSyntaxError
from deberc_net.testing import (
    build_deck,
    build_ruleset,
    legal,
    new_deal,
    new_match,
    parse,
    play,
    say,
    spoken,
)


class Setter:
    """An option that sets one setting; ``requires`` other options."""

    def __init__(
        self,
        name: str,
        setting: str,
        value: Any,
        requires: tuple[str, ...] = (),
        conflicts: tuple[str, ...] = (),
    ):
        self.name, self.setting, self.value = name, setting, value
        self.requires, self.conflicts = requires, conflicts

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name=self.name,
            kind="option",
            summary="sets one thing",
            requires=self.requires,
            conflicts=self.conflicts,
        )

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        setattr(settings, self.setting, self.value)


class Speaker:
    """An option with calls and the words people say for them."""

    def __init__(self, name: str, aliases: Any) -> None:
        self.name, self.aliases = name, aliases

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind="option", summary="speaks")

    @hookimpl
    def deberc_call_aliases(self) -> Any:
        return self.aliases


TO_777 = Setter("to-777", "target", 777)
TO_888 = Setter("to-888", "target", 888)
ALSO_777 = Setter("also-777", "target", 777)
CLAIM_ON = Setter("claim-on", "auto_claim", True)  # Moscow's own value, said again
# named to sort first: the order of names must not decide, ``requires`` does
A_ON_777 = Setter("a-on-777", "target", 1, requires=("to-777",))
SETTERS = (TO_777, TO_888, ALSO_777, A_ON_777, CLAIM_ON)


# ------------------------------------------------------------- settings conflicts
def test_two_options_setting_one_thing_differently_are_refused_naming_both() -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["to-888", "to-777"], plugins=SETTERS)
    text = str(info.value)
    assert "'to-777'" in text and "'to-888'" in text and "target" in text
    assert "777" in text and "888" in text


def test_an_option_setting_a_setting_to_the_value_it_had_clashes_too() -> None:
    """claim-on assigns auto_claim = True, Moscow's value: compared with the settings it
    was handed it changed nothing, and manual-claim's False won quietly (failed before)."""
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["claim-on", "manual-claim"], plugins=SETTERS)
    text = str(info.value)
    assert "'claim-on'" in text and "'manual-claim'" in text and "auto_claim" in text
    assert "(True and False)" in text
    assert build_ruleset(options=["claim-on"], plugins=SETTERS).settings.auto_claim is True


def test_options_that_agree_or_build_on_each_other_are_accepted() -> None:
    assert build_ruleset(options=["to-777", "also-777"], plugins=SETTERS).settings.target == 777
    # the option built on another wins, whatever the names' order
    assert build_ruleset(options=["to-777", "a-on-777"], plugins=SETTERS).settings.target == 1
    # shipped: to-9-stakes requires dave and sets the target dave leaves out
    assert build_ruleset(options=["dave", "to-9-stakes"]).settings.target == 9


def test_an_option_configures_once_on_the_variants_settings() -> None:
    rules = build_ruleset(3, "kharkov", ["to-777"], plugins=SETTERS)
    assert rules.settings.target == 777 and rules.settings.players == 3


# ------------------------------------------------------------- a rule failing to set up
class Boom:
    """A rule whose hook ``failing`` raises KeyError('x'): a bug in a plugin."""

    def __init__(
        self,
        name: str,
        failing: str,
        kind: str = "option",
        players: tuple[int, ...] = (2, 3, 4),
    ) -> None:
        self.name, self.failing, self.kind, self.players = name, failing, kind, players

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind=self.kind, summary="fails", players=self.players)

    def fail(self, hook: str) -> None:
        if hook == self.failing:
            dict[str, int]()["x"]  # the bug

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        self.fail("deberc_configure")

    @hookimpl
    def deberc_combo_key(self, settings: Settings) -> None:
        self.fail("deberc_combo_key")

    @hookimpl
    def deberc_deal_class(self, settings: Settings) -> None:
        self.fail("deberc_deal_class")


FAILED = "(distribution '(registered in-process)') failed to set up the table: KeyError: 'x'"


def test_an_options_configure_that_raises_refuses_the_table_naming_the_rule() -> None:
    """Was the KeyError itself: the server said 'error code=internal' and named no rule."""
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["boom-config"], plugins=[Boom("boom-config", "deberc_configure")])
    assert str(info.value) == f"rule 'boom-config' {FAILED}"
    assert isinstance(info.value.__cause__, KeyError)


@pytest.mark.parametrize(
    ("boom", "players", "variant", "options"),
    [
        (Boom("boom-variant", "deberc_configure", kind="variant"), 2, "boom-variant", ()),
        # named from the traceback: not the variant, whose configure ran too
        (Boom("boom-three", "deberc_configure", "players", (3,)), 3, "kharkov", ()),
        (Boom("boom-key", "deberc_combo_key"), 2, "moscow", ("boom-key",)),
        (Boom("boom-class", "deberc_deal_class"), 4, "kharkov", ("boom-class",)),
    ],
)
def test_a_hook_raising_as_the_rules_are_built_names_its_rule(
    boom: Boom, players: int, variant: str, options: tuple[str, ...]
) -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(players, variant, options, plugins=[boom])
    assert str(info.value) == f"rule {boom.name!r} {FAILED}"
    assert isinstance(info.value.__cause__, KeyError)


class TwoLines(Boom):
    """A rule whose configure raises an exception with a line break in its message."""

    def fail(self, hook: str) -> None:
        if hook == self.failing:
            raise RuntimeError("first\n  second")


def test_the_exceptions_message_is_told_on_one_line() -> None:
    """A line break in it would end the 'error' line the player is sent."""
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["two-lines"], plugins=[TwoLines("two-lines", "deberc_configure")])
    assert str(info.value).endswith("the table: RuntimeError: first second")
    assert str(info.value.__cause__) == "first\n  second"


def test_a_failure_in_no_rules_own_code_names_the_variant() -> None:
    """A hook whose code is in no chosen rule's module (nor package): the variant."""
    elsewhere: dict[str, Any] = {"__name__": "somewhere_else"}
    exec("def deberc_configure(settings, players):\n    {}['x']\n", elsewhere)
    plugin = types.ModuleType("deberc_test_borrowed")
    plugin.deberc_rule_info = hookimpl(  # type: ignore[attr-defined]
        lambda: RuleInfo(name="borrowed-three", kind="players", summary="-", players=(3,))
    )
    plugin.deberc_configure = hookimpl(elsewhere["deberc_configure"])  # type: ignore[attr-defined]
    with pytest.raises(RuleError) as info:
        build_ruleset(3, "kharkov", plugins=[plugin])
    assert str(info.value) == (
        "rule 'kharkov' (distribution 'deberc-net') failed to set up the table: KeyError: 'x'"
    )


def test_a_misspelled_setting_is_named_with_the_one_meant() -> None:
    """Was "AttributeError: '_Noting' object has no attribute 'last_trick_bonu'", the
    name of a class of ours the plugin never saw."""
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["bonu"], plugins=[Setter("bonu", "last_trick_bonu", 0)])
    assert str(info.value) == (
        "rule 'bonu' (distribution '(registered in-process)') failed to set up the table: "
        "AttributeError: Settings has no setting 'last_trick_bonu' "
        "(did you mean 'last_trick_bonus'?)"
    )
    settings = Settings()  # the variant's configure is handed the Settings itself
    with pytest.raises(AttributeError) as plain:
        settings.last_trick_bonu = 0
    assert str(plain.value) == str(info.value.__cause__)
    with pytest.raises(AttributeError, match=r"^Settings has no setting 'zzz'$"):
        settings.zzz = 0


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("last_trick_bonus", "20", "sets last_trick_bonus to '20' (a str), not an int"),
        ("last_trick_bonus", True, "sets last_trick_bonus to True (a bool), not an int"),
        ("last_trick_bonus", None, "sets last_trick_bonus to None (a NoneType), not an int"),
        ("fresa", 1, "sets fresa to 1 (an int), not a bool"),
        ("target", "777", "sets target to '777' (a str), not an int or None"),
        ("deal_before", [3, 3], "sets deal_before to [3, 3] (a list), not a tuple of ints"),
        ("deal_after", (3, "3"), "sets deal_after to (3, '3') (a tuple), not a tuple of ints"),
    ],
)
def test_an_option_setting_a_value_of_another_type_is_refused(
    setting: str, value: object, said: str
) -> None:
    """An int setting given "20" failed only at the deal's last trick (a TypeError)."""
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["typed"], plugins=[Setter("typed", setting, value)])
    assert str(info.value) == f"rule 'typed' (distribution '(registered in-process)') {said}"


@pytest.mark.parametrize(
    ("setting", "value"),
    [("target", None), ("stake", None), ("stake", 5), ("deal_before", (2, 2, 2)), ("fresa", False)],
)
def test_values_of_the_settings_type_are_taken(setting: str, value: object) -> None:
    rules = build_ruleset(options=["typed"], plugins=[Setter("typed", setting, value)])
    assert getattr(rules.settings, setting) == value


# ------------------------------------------------------------- spoken aliases
def test_shipped_calls_are_heard_in_russian_and_english_at_their_tables_only() -> None:
    dave = build_ruleset(options=["dave"])
    assert spoken(dave, "даве").token() == "dave"
    assert spoken(dave, "Give up").token() == "sdayus"
    assert spoken(build_ruleset(options=["poltinniki"]), "играем").token() == "igraem"
    with pytest.raises(CallSyntaxError):
        spoken(build_ruleset(), "даве")


def test_spoken_takes_the_legal_calls_as_legal_gives_them() -> None:
    """docs/plugins.md shows spoken(rules, text, legal=()); tokens, as legal() returns
    them, failed with an AttributeError (a str has no .card)."""
    rules = build_ruleset()
    assert spoken(rules, "terts", legal=("dva-tertsa", "Jc")).token() == "dva-tertsa"
    assert spoken(rules, "prokhodit", legal=["pishet"]).token() == "pishet"
    assert spoken(rules, "Jc", legal=("terts", "Jc")).token() == "Jc"
    with pytest.raises(AmbiguousRank):  # the ten and the ace both legal: which?
        spoken(rules, "Th", legal=("10h", "Ah"))
    deal = new_deal(
        rules, build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
    )
    say(deal, 0, "igrayu")
    assert spoken(rules, "валет треф", legal(deal, 0)) == parse("Jc")
    assert spoken(rules, "ход Jc", deal.legal_calls(0)).token() == "Jc"  # Calls as before


def test_two_options_giving_one_word_to_different_calls_are_refused() -> None:
    yes = Speaker("house-yes", {"da": ["yes please"]})
    other = Speaker("house-other", {"net": ["Yes  Please"]})
    assert (
        spoken(build_ruleset(options=["house-yes"], plugins=[yes, other]), "yes please").token()
        == "da"
    )
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["house-yes", "house-other"], plugins=[yes, other])
    assert "'house-yes'" in str(info.value) and "'house-other'" in str(info.value)


@pytest.mark.parametrize(
    "aliases",
    [
        ["da"],  # not a mapping
        {"da": "yes"},  # a bare string, not a list of words
        {"da": ["yes"], "net": ["yes"]},  # one word for two calls
        {"da": [""]},
    ],
)
def test_bad_aliases_are_refused_at_loading(aliases: Any) -> None:
    with pytest.raises(PluginError, match="deberc_call_aliases") as info:
        RuleBook.load(extra=[Speaker("house-bad", aliases)])
    assert info.value.rule == "house-bad"


@pytest.mark.parametrize(
    ("word", "engine"),
    [
        ("Jc", "a card: Jc"),
        ("terts", "terts"),
        ("pas", "pas"),
        ("Ot K", "ot-K"),
        ("brosayu", None),  # the call's own name is free: refused only if the engine's
    ],
)
def test_a_word_the_engine_reads_as_its_own_call_is_refused_at_loading(
    word: str, engine: str | None
) -> None:
    """Heard after the engine's own words, docs/plugins.md said: but 'Jc' and 'terts'
    were heard as the plugin's call when not legal (the server said 'bidding is on:
    brosayu comes after the order' to whoever typed terts): failed before."""
    speaker = Speaker("house-brosayu", {"brosayu": ("брошу", word)})
    if engine is None:
        rules = build_ruleset(options=["house-brosayu"], plugins=[speaker])
        assert spoken(rules, "брошу").token() == "brosayu"
        return
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[speaker])
    assert info.value.rule == "house-brosayu"
    assert str(info.value).endswith(
        f"deberc_call_aliases: {word!r} is the game's own call ({engine}); "
        "a plugin's word may not take it"
    )


def test_a_calls_own_name_the_engine_reads_otherwise_is_refused_too() -> None:
    with pytest.raises(PluginError, match=r"'7h' is the game's own call \(a card: 7h\)"):
        RuleBook.load(extra=[Speaker("house-card", {"7h": ("семь червей",)})])


@pytest.mark.parametrize(
    ("word", "command"),
    [
        ("state", "state"),
        ("Leave", "leave"),
        ("rules of it", "rules"),  # a line is a command by its first word
        ("история", "history"),  # a command's spoken name
    ],
)
def test_a_word_the_server_reads_as_a_command_is_refused_at_loading(
    word: str, command: str
) -> None:
    """A line whose first word names a command is that command, at a table too: a
    plugin given 'state' loaded, 'calls' listed the word for its call, and a seat that
    typed it at the table (the call legal) got the table's state, never the call."""
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[Speaker("house-cmd", {"house-cmd": ("брошу", word)})])
    assert info.value.rule == "house-cmd"
    assert str(info.value).endswith(
        f"deberc_call_aliases: {word!r} is the server's command {command!r}: typed at a "
        "table it runs the command, so it would never be heard as the call"
    )


@pytest.mark.parametrize("call", ["re,double", "kontra double", "re:double", "", "-"])
def test_a_call_name_the_machine_style_cannot_write_is_refused_at_loading(call: str) -> None:
    """legal= is a comma-separated list and a value holds no space: 're,double' loaded
    and reached bots as two tokens; a value holds no space (docs/protocol.md §3.1)."""
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[Speaker("house-token", {call: ("словечко",)})])
    assert info.value.rule == "house-token"
    assert f"deberc_call_aliases: the call name {call!r} is no token" in str(info.value)


@pytest.mark.parametrize(
    ("aliases", "said"),
    [
        (
            {"kontra": "контра"},
            "'kontra' is given the bare word 'контра', not a list of words: ['контра']",
        ),
        ({"kontra": None}, "'kontra' is given None (a NoneType), not a list of words"),
        ({"kontra": 5}, "'kontra' is given 5 (an int), not a list of words"),
        ({"kontra": {"контра"}}, "'kontra' is given {'контра'} (a set), not a list of words"),
        ({"kontra": ["контра", 1]}, "'kontra' is given the word 1, an int, not a str"),
        ({"kontra": ["контра", " "]}, "'kontra' is given an empty word (' ')"),
        ({1: ["контра"]}, "the call name 1 is an int, not a str"),
    ],
    ids=["bare-word", "none", "int", "set", "int-word", "empty-word", "int-name"],
)
def test_a_calls_words_that_are_no_list_of_words_are_refused_saying_what_they_are(
    aliases: dict[Any, Any], said: str
) -> None:
    """A tryout's plugin (s50) gave its call one bare word: it was told "'kontra':
    'контра' is not a call name with a list of words", which reads as if 'контра' were
    to be a call's name; None or a number for the words stopped serve with a
    traceback (TypeError: 'int' object is not iterable), not status 2 and a line."""
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[Speaker("kontra", aliases)])
    assert info.value.rule == "kontra"
    assert str(info.value).endswith(f"deberc_call_aliases: {said}")


def test_a_calls_own_name_that_is_a_command_is_refused_too() -> None:
    with pytest.raises(PluginError, match="'leave' is the server's command 'leave'"):
        RuleBook.load(extra=[Speaker("house-leave", {"leave": ("уйду",)})])


@pytest.mark.parametrize(
    ("call", "shown", "command"),
    [("leave-it", "leave it", "leave"), ("state-of-play", "state of play", "state")],
)
def test_a_call_name_the_prompt_shows_as_a_command_is_refused(
    call: str, shown: str, command: str
) -> None:
    """The human style's prompt shows a plugin's call with its hyphens as spaces ('Your
    call: … | leave it'): 'leave-it' loaded, and the person who typed what he was shown
    ran 'leave', never the call."""
    rule = Speaker("house-shown", {call: ("брось",)})
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[rule])
    assert str(info.value).endswith(
        f"deberc_call_aliases: the call name {call!r}, shown to people as {shown!r}, is the "
        f"server's command {command!r}: typed at a table it runs the command, so it would "
        "never be heard as the call"
    )


@pytest.mark.parametrize("word", ["state-of-play", "историям", "leaver", "кто-то", "who's first"])
def test_a_word_only_beginning_with_a_commands_letters_loads(word: str) -> None:
    """A line is a command by its whole first word: a word that merely shares a
    command's letters is heard as the call."""
    assert RuleBook.load(extra=[Speaker("house-near", {"house-near": (word,)})]).get("house-near")


class Describer:
    """An option saying of itself whatever ``fields`` say (beside name and kind)."""

    def __init__(self, **fields: Any) -> None:
        self.fields = fields

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="house-says", kind="option", **self.fields)


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        # the tuple's comma forgotten: read letter by letter, the conflict was never seen
        (
            {"conflicts": ("to-301")},
            "conflicts is 'to-301', not a tuple of rule names: ('to-301',)",
        ),
        ({"requires": "dave"}, "requires is 'dave', not a tuple of rule names: ('dave',)"),
        ({"players": 2}, "players is 2, not a tuple of player counts: (2,)"),
        ({"players": (2, True)}, "players is (2, True), not a tuple of player counts"),
        ({"summary": None}, "summary is None, not a sentence"),
        ({"summary": " "}, "summary is ' ', not a sentence"),
        ({"summary_ru": None}, "summary_ru is None, not a str"),
        ({"needs_bidding": 1}, "needs_bidding is 1, not True or False"),
    ],
)
def test_rule_info_fields_of_the_wrong_type_are_refused_at_loading(
    fields: dict[str, Any], said: str
) -> None:
    """They loaded: conflicts=("to-301") let the option sit beside to-301, requires="dave"
    asked for an option 'd', and summary=None broke each table with a TypeError."""
    fields = {"summary": "says", **fields}
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[Describer(**fields)])
    assert info.value.rule == "house-says"
    assert str(info.value).endswith(f"deberc_rule_info: {said}")


def test_rule_info_takes_lists_as_well_as_tuples() -> None:
    with pytest.raises(RuleError, match="'house-says' and 'to-301' contradict each other"):
        build_ruleset(
            options=["house-says", "to-301"],
            plugins=[Describer(summary="says", conflicts=["to-301"])],
        )
    # held as tuples: a RuleInfo is hashable as any frozen class (lists raised TypeError)
    info = Describer(summary="says", players=[2], conflicts=["a"], requires=["b"])
    told = info.deberc_rule_info()
    assert (told.players, told.conflicts, told.requires) == ((2,), ("a",), ("b",))
    assert hash(told) == hash(attrs.evolve(told))


def test_more_words_for_the_engines_own_call_are_heard_as_that_call() -> None:
    """Tertz gives the engine's bella its own words (mariazh): the word 'bella' is the
    call it names, not another's; so is a plugin's own word for pas."""
    speaker = Speaker("house-pas", {"pas": ("брошу",)})
    rules = build_ruleset(options=["house-pas"], plugins=[speaker])
    assert spoken(rules, "брошу").token() == "pas"
    assert spoken(build_ruleset(2, "tertz"), "марьяж").token() == "bella"


# ------------------------------------------------------------- the typed deal
def test_the_engines_deal_is_what_plugins_are_promised() -> None:
    deal = new_deal(
        build_ruleset(),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    assert isinstance(deal, PluginDeal)  # every member of the Protocol is there
    promised = {n for n in [*dir(PluginDeal), *PluginDeal.__annotations__] if n[0] != "_"}
    assert {"pending", "extra", "end_deal", "continue_after_order", "hands"} <= promised


def test_the_deal_says_which_seat_it_waits_for_a_pending_answer_first() -> None:
    """'turn' is whose turn to play; a plugin's question goes first: to_act (a plugin
    author driving a deal by legal calls had to know that pending.answerer wins)."""
    assert "to_act" in dir(PluginDeal)
    deal: PluginDeal = new_deal(
        build_ruleset(),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    assert deal.to_act == deal.turn == 0
    deal.pending = Pending("ask", 0, 1)
    assert (deal.turn, deal.to_act) == (0, 1)


def test_the_package_says_it_is_typed_so_a_plugins_type_checker_reads_it() -> None:
    """PEP 561: without py.typed, mypy on a plugin package treats every deberc_net
    import as untyped (a third party's mypy --strict refused them: failed before)."""
    assert resources.files("deberc_net").joinpath("py.typed").is_file()
    pyproject = tomllib.loads(
        (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    )
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["deberc_net"]


def test_an_options_conflicts_may_name_a_variant() -> None:
    """docs/plugins.md: bella-40's conflicts=("tertz",) refuses it at Tertz tables."""
    not_with_tertz = Setter("not-with-tertz", "target", 777, conflicts=("tertz",))
    with pytest.raises(RuleError, match="'not-with-tertz' is not played with the variant 'tertz'"):
        build_ruleset(2, "tertz", ["not-with-tertz"], plugins=[not_with_tertz])


def test_a_match_deals_on_from_its_seed_once_the_scripted_decks_run_out() -> None:
    """docs/plugins.md, new_match: deal 2 of a one-deck match comes from the seed's
    deck 2, the same on every run; another seed deals other cards."""
    deck = build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
    seconds = []
    for seed in ("scripted", "scripted", "another"):
        match = new_match(build_ruleset(), deck, seed=seed)
        for _ in range(4):  # everyone passes twice: a void deal, the next one deals
            seat = match.deal.to_act
            assert seat is not None
            say(match, seat, "pas")
        assert match.deal.deal_no == 2
        seconds.append(match.deal.hands)
    assert seconds[0] == seconds[1] != seconds[2]


# ------------------------------------------------------------- scoring hooks
class _WhistlerWrites:
    """An outcome hook that writes by index, as docs/plugins.md's "fill score.written"
    reads: failed before (``written`` came as an empty list: an IndexError)."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="whistler-writes", kind="option", summary="the whistler writes 80")

    @hookimpl
    def deberc_deal_outcome(self, score: DealScore) -> bool:
        score.written[1 - score.player_side] = 80
        score.outcome = "whistled"
        return True


def test_an_outcome_hook_may_write_by_side_into_a_zeroed_list() -> None:
    rules = build_ruleset(options=["whistler-writes"], plugins=[_WhistlerWrites()])
    score = DealScore(
        sides=rules.settings.sides(),
        player_side=0,
        points=[70, 92],
        card_points=[70, 82],
        combo_points=[0, 0],
        bella_points=[0, 0],
        tricks_taken=[4, 5],
        last_trick_side=1,
        hanging_in=0,
        hanging_pending=[],
        bides_before=[0, 0],
    )
    assert score.written == [0, 0]
    rules.score_deal(score)
    assert score.written == [0, 80] and score.outcome == "whistled"


class _Copier:
    """An option whose hook makes a copy of what it is handed (attrs.evolve)."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="copier", kind="option", summary="copies its settings")

    @hookimpl
    def deberc_configure(self, settings: Settings) -> None:
        copy = attrs.evolve(settings, target=1001)
        settings.target = copy.target


def test_an_option_that_copies_the_settings_it_is_handed_is_checked_as_any() -> None:
    # a review: the clash check handed the hook a Settings whose class took other
    # arguments, and attrs.evolve of it raised TypeError there alone
    assert build_ruleset(options=["copier"], plugins=[_Copier()]).settings.target == 1001
    with pytest.raises(RuleError, match="target"):
        build_ruleset(options=["copier", "to-777"], plugins=[_Copier(), *SETTERS])


class Outcomes:
    """An option that gives Russian words for outcomes."""

    def __init__(self, name: str, words: Any) -> None:
        self.name, self.words = name, words

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind="option", summary="ends", outcomes_ru=self.words)


@pytest.mark.parametrize(
    ("words", "refusal"),
    [
        ({"made": "сыграна иначе"}, "outcomes_ru: 'made' is the engine's own outcome"),
        (["redeal"], "not a mapping of outcomes to words"),
        ({"redeal": " "}, "not a mapping of outcomes to words"),
    ],
)
def test_russian_outcome_words_for_the_engines_outcomes_or_not_words_are_refused(
    words: Any, refusal: str
) -> None:
    """A plugin words only its own outcomes: the engine's are said at every table."""
    with pytest.raises(PluginError, match=refusal) as info:
        RuleBook.load(extra=[Outcomes("house-ends", words)])
    assert info.value.rule == "house-ends"
    rules = RuleBook.load(extra=[Outcomes("house-ends", {"ends": "кончено"})])
    assert "house-ends" in {rule.info.name for rule in rules.rules()}


# ------------------------------------------------------------- scoring by a call
class Doubler:
    """Before the first card the whistler may say 'kontra': the deal is written double.
    The call is carried out on the deal; the scoring hook, handed no deal, reads it from
    ``score.extra``."""

    KONTRA = Call("kontra")

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="house-kontra", kind="option", summary="kontra doubles")

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        settings.auto_claim = False  # every deal reaches the scoring hooks

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        whistler = deal.player is not None and seat != deal.player
        first_card = not deal.tricks and not deal.trick.cards
        fresh = "house-kontra" not in deal.extra
        return [self.KONTRA] if deal.phase == "play" and whistler and first_card and fresh else []

    @hookimpl
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> bool | None:
        if call != self.KONTRA:
            return None
        deal.extra["house-kontra"] = seat
        return True

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        if "house-kontra" in score.extra:
            score.written = [2 * w for w in score.written]


def test_a_scoring_hook_reads_what_a_call_of_the_deal_left_in_its_extra() -> None:
    """The scoring hooks are handed a DealScore, not the deal: the deal's 'extra' was
    carried into it only as 'stake' (an int, dave's), so a rule written by its own call
    had nothing to read but to borrow dave's key."""
    hands = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
    cards = "Jc Kc 9c 10c Ac Qd As Js 10s Qs Ks 9s 7h Ah 10h 8h Kh 7d"
    written: list[list[int]] = []
    for kontra in (False, True):
        match = new_match(
            build_ruleset(options=["house-kontra"], plugins=[Doubler()]), build_deck(*hands)
        )
        say(match, 0, "igrayu")
        if kontra:
            say(match, 1, "kontra")
        play(match, cards)
        written.append(match.records[0]["written"])
    assert written == [[92, 35], [184, 70]]


def test_the_phases_a_hook_compares_with_come_from_deberc_net_plugins() -> None:
    """PluginDeal's ``phase`` named deberc_net.game.phases, which the plugin package did
    not export: the shipped example imported PLAY from the engine's module."""
    from deberc_net.plugins import Phase

    match = new_match(
        build_ruleset(),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    phases = [match.deal.phase]
    say(match, 0, "igrayu")
    phases.append(match.deal.phase)
    assert phases == [Phase.BIDDING, Phase.PLAY] == ["bidding", "play"]


class Lister:
    """An option whose deberc_extra_calls returns ``given`` to the seat to act in play."""

    def __init__(self, given: object) -> None:
        self.given = given

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="house-lister", kind="option", summary="lists calls")

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> object:
        return self.given if deal.phase == "play" and seat == deal.to_act else []


@pytest.mark.parametrize("given", [["kontra"], "kontra", Call("kontra"), [Call("kontra"), 1]])
def test_extra_calls_that_are_not_a_list_of_calls_are_told_as_such(given: object) -> None:
    """A word for a Call failed as "'str' object has no attribute 'token'" and one Call
    for a list as "'Call' object is not iterable", both from the engine's code."""
    match = new_match(
        build_ruleset(options=["house-lister"], plugins=[Lister(given)]),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    say(match, 0, "igrayu")
    with pytest.raises(TypeError) as info:
        legal(match, 0)
    assert str(info.value) == (
        f"deberc_extra_calls returned {given!r}, not a list of Call "
        "(deberc_net.plugins.Call: [Call('kontra')])"
    )


@pytest.mark.parametrize("name", ["re,double", "re double", "re:double", "-", ""])
def test_extra_calls_whose_name_is_no_token_are_told_as_such(name: str) -> None:
    """A call listed with no words of its own (deberc_call_aliases, checked at loading)
    was checked nowhere: 're,double' went out as two calls in an ask's legal= list."""
    match = new_match(
        build_ruleset(options=["house-lister"], plugins=[Lister([Call(name)])]),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    say(match, 0, "igrayu")
    with pytest.raises(TypeError, match=f"the call name {re.escape(repr(name))} is no token"):
        legal(match, 0)


@pytest.mark.parametrize("name", ["leave", "state-of-play", "Who", "история"])
def test_extra_calls_named_as_a_server_command_are_told_as_such(name: str) -> None:
    """A call listed with no words of its own (deberc_call_aliases refuses a command's
    word at loading) was refused nowhere: its prompt showed 'leave', which typed ran
    the command."""
    match = new_match(
        build_ruleset(options=["house-lister"], plugins=[Lister([Call(name)])]),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    say(match, 0, "igrayu")
    with pytest.raises(TypeError, match=f"{re.escape(repr(name))} begins with a server command"):
        legal(match, 0)


def test_a_tuple_of_calls_is_a_list_of_calls_too() -> None:
    match = new_match(
        build_ruleset(options=["house-lister"], plugins=[Lister((Call("kontra"),))]),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    say(match, 0, "igrayu")
    assert legal(match, 0)[-1] == "kontra"


class Yielder(Lister):
    """Its deberc_extra_calls a generator, made anew each time it is asked."""

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> Iterator[Call]:
        if deal.phase == "play" and seat == deal.to_act:
            yield Call("kontra")


def test_calls_a_generator_yields_are_listed_not_lost() -> None:
    """Checked for being Calls, a generator's calls were used up before they were
    added: the plugin's call was never legal, and nothing said why."""
    match = new_match(
        build_ruleset(options=["house-lister"], plugins=[Yielder(None)]),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    say(match, 0, "igrayu")
    assert legal(match, 0)[-1] == "kontra"


class Forgetful(Lister):
    """Lists 'kontra' and carries it out, but forgets to say so (returns None)."""

    @hookimpl
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> None:
        deal.extra["house-lister"] = seat


def test_an_apply_hook_that_forgets_to_return_true_is_told_what_it_owes() -> None:
    """The engine said only 'no rule carries out the legal call kontra'."""
    match = new_match(
        build_ruleset(options=["house-lister"], plugins=[Forgetful([Call("kontra")])]),
        build_deck("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c"),
    )
    say(match, 0, "igrayu")
    with pytest.raises(AssertionError, match="must return True from deberc_apply_extra_call"):
        say(match, 0, "kontra")


class Sneaky(Setter):
    """A third party's rule of kind "players" for two: the last trick counts 30."""

    def __init__(self) -> None:
        super().__init__("house-sneaky", "last_trick_bonus", 30)

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind="players", summary="a players rule", players=(2,))


def test_a_third_partys_players_rule_is_played_unasked_at_each_table_of_its_counts() -> None:
    """What docs/plugins.md warns of (kind "players", "Step by step"): no option names
    it, yet every table of a count it lists plays it; its records name it."""
    two = build_ruleset(2, plugins=[Sneaky()])
    assert (two.options, two.settings.last_trick_bonus) == ((), 30)
    assert "house-sneaky" in two.record_fields()["rule_versions"]
    assert build_ruleset(2, "kharkov", plugins=[Sneaky()]).settings.last_trick_bonus == 30
    assert build_ruleset(3, plugins=[Sneaky()]).settings.last_trick_bonus == 10


def test_an_option_requiring_a_rule_nobody_installed_is_refused_at_loading() -> None:
    """It loaded, and every table naming it was refused 'option ... needs option
    'to-7777' too', a rule nobody could add: the start-up said nothing."""
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[Setter("house-needy", "target", 1, requires=("to-7777",))])
    assert info.value.rule == "house-needy"
    assert str(info.value).endswith(
        "it requires 'to-7777', which no installed plugin is: install the distribution "
        "that publishes it, or correct the name"
    )
    # one installed beside it: loaded, and played together
    both = build_ruleset(options=["a-on-777", "to-777"], plugins=[A_ON_777, TO_777])
    assert both.settings.target == 1
