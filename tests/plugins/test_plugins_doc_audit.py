"""An audit of docs/plugins.md against the code, promise by promise: each one a plugin
author may rely on, and (→) the tests that pin it (a module under tests/ and its tests;
"here" for this module's). The page's examples are run here as written: the `to-777`
plugin is published as its code block and entry point say, the `deberc_net.testing`
example is executed from the page's own text.

§intro a table's rules are built once by `book.ruleset(players, variant, options)`, into a
frozen `RuleSet`; no hook on the path of a card
    → plugins/test_plugins.py test_the_rule_set_is_resolved_once
§Loading 1 one scan of the entry points, each distribution's metadata read once
    → plugins/test_loading.py
      test_loading_reads_the_entry_points_once_and_each_distributions_metadata_once
§Loading 1 ours are published as a third party's
    → plugins/test_third_party.py test_every_shipped_rule_is_loaded_from_our_entry_points
§Loading 1 `check_pending()` refuses a misspelled hook; a hook asking an argument never given
    → plugins/test_plugins.py test_check_pending_refuses_a_misspelled_hook,
      test_loading_refuses_a_misspelled_hook, test_a_hook_with_wrong_arguments_is_refused;
    → plugins/test_loading.py test_serve_exits_2_naming_a_broken_distribution
§Loading 1 one plugin object under two names is refused
    → plugins/test_loading.py test_one_plugin_published_under_two_names_is_refused
§Loading 2 `name` is the entry point's; aliases checked (below); one name twice refused,
the third party blamed; two third parties both named
    → plugins/test_loading.py test_the_entry_point_name_must_be_the_rules_own,
      test_a_third_party_taking_a_shipped_rules_name_is_blamed_not_the_server,
      test_two_third_parties_publishing_one_rule_name_are_both_named
§Loading 3 a plugin's version is its distribution's
    → plugins/test_loading.py
      test_a_working_third_party_rule_is_loaded_with_its_distributions_version;
    → here: test_the_to_777_example_published_as_the_page_shows_plays_to_777
§Loading exit status 2 before listening, naming the distribution; the file and line of
the import or loading hook that raised (innermost; a SyntaxError's own); no traceback;
`selfplay` and `ladder run` too
    → plugins/test_loading.py test_serve_exits_2_naming_a_broken_distribution,
      test_an_import_error_names_the_plugins_file_and_line,
      test_the_line_named_is_the_innermost_in_the_plugins_package,
      test_a_syntax_error_names_its_files_whole_path_and_line_once,
      test_a_hook_raising_at_loading_names_the_plugins_file_and_line,
      test_selfplay_and_ladder_refuse_to_start_too
§Loading the example message, both lines, as printed
    → here: test_a_broken_package_is_refused_in_the_two_lines_the_page_shows
§Loading one manager; builtin first, then player-count rules, variants, options, each
group by name (so the later option by name answers a firstresult hook first)
    → plugins/test_loading.py
      test_the_book_registers_the_same_hook_implementations_as_pluggy_would;
    → here: test_options_are_registered_by_name_after_the_variant
§Loading no plugin state at module level; a package change takes a restart
    → plugins/test_loading.py test_tables_never_look_for_plugins_after_start_up
§Loading an unmarked `deberc_` name is refused with the page's words
    → plugins/test_loading.py
      test_a_method_named_like_a_hook_without_the_marker_is_refused_by_name,
      test_serve_exits_2_naming_a_broken_distribution
§Rule set 1 unknown names listing the known; kinds, player counts, conflicts, requires
    → plugins/test_plugins.py test_unknown_variant_is_refused_listing_the_known,
      test_unknown_option_is_refused_listing_the_known,
      test_conflicting_options_are_refused_naming_both,
      test_player_count_the_variant_does_not_support, test_an_option_is_not_a_variant,
      test_the_variant_is_not_an_option, test_option_player_count
§Rule set 1 an option's conflicts may name a variant (`'bella-40' is not played with the
variant 'tertz'`); `needs_bidding` refused where `bidding=False`; `'ski-penalty' is not
played with the variant 'tertz'`; `tertz is not played with the options: …` in `rules`
    → plugins/test_author_api.py test_an_options_conflicts_may_name_a_variant;
    → plugins/test_third_party.py test_perezdacha_needs_an_ordering_player_so_tertz_refuses_it;
    → protocol/test_rule_refusals.py; → tertz/ (the variant's refusals)
§Rule set 1 `RuleError` is a `ValueError`; `build_ruleset` raises it with the page's match
    → here: test_build_ruleset_raises_the_rule_error_the_page_matches
§Rule set 3 builtin configures first; each option once, on its own copy; disagreeing
options refused naming both and the setting; `requires` orders them; agreeing ones pass;
assigning Moscow's own value clashes
    → plugins/test_author_api.py
      test_two_options_setting_one_thing_differently_are_refused_naming_both,
      test_an_option_setting_a_setting_to_the_value_it_had_clashes_too,
      test_options_that_agree_or_build_on_each_other_are_accepted,
      test_an_option_configures_once_on_the_variants_settings;
    → plugins/test_plugins.py test_house_rule_beats_builtin_and_builtin_configures_first
§Rule set 4 aliases gathered; two options giving one word to two calls refused
    → plugins/test_author_api.py test_two_options_giving_one_word_to_different_calls_are_refused
§Rule set 5 cached by (players, variant, options)
    → plugins/test_loading.py test_tables_never_look_for_plugins_after_start_up
§Rule set firstresult order: option over variant over builtin; `None` is no opinion
    → plugins/test_plugins.py test_a_plugin_without_opinion_falls_back_to_builtin,
      test_an_option_answering_a_per_deal_hook_overrides_the_builtin;
    → here: test_options_are_registered_by_name_after_the_variant
§Rule set per-deal hooks looked up once (`resolved`, `plain`), pluggy's results; wrappers
keep pluggy's call
    → plugins/test_resolved_hooks.py (all);
    → plugins/test_plugins.py
      test_scoring_hooks_the_rule_set_cannot_call_plainly_still_run_in_pluggys_way
§Rule set pluggy's tracing does not see the looked-up calls: a statement of a limit, not
pinned (nothing a plugin may rely on)
§The hooks the table names exactly the declared hooks, `firstresult` where it says so;
the builtin's configure is `tryfirst`, its answers `trylast`
    → here: test_the_hook_table_is_the_declared_hooks_with_their_kinds
§The hooks each hook's behaviour (combo key, extra calls for every seat, out-of-turn calls,
`konets` listed where manual-claim is off, deal events)
    → plugins/test_plugins.py; → examples/perezdacha/tests;
    → server/test_plugin_legal_calls.py; → play/ and house-rule tests
§What to import every name from `deberc_net.plugins`, the same object as at home
    → plugins/test_plugins_doc.py test_the_page_says_where_each_export_comes_from,
      test_every_type_a_hook_or_the_deal_names_is_exported
§PluginError `.rule`, `.distribution`, `.distributions`
    → plugins/test_loading.py test_two_third_parties_publishing_one_rule_name_are_both_named
§The hooks / timeline the three scoring hooks once per deal played out, in the order
`deberc_deal_points` → `deberc_deal_outcome` → `deberc_adjust_written`; `"play"` when
all cards are dealt, before the first card
    → plugins/test_plugins.py test_the_rule_set_is_resolved_once;
    → here: test_a_deal_played_out_runs_the_scoring_hooks_once_in_order_with_extras_stake
§The hooks `"ordered"` (pause_after_order) and `"swap"`: the shipped `poltinniki` and
`deberts` run on them
    → game/test_short_games.py (poltinniki's pause),
      test_without_poltinniki_the_last_cards_come_at_once;
    → game/test_options.py test_deberts_seven_trumps_in_sequence_end_the_match_at_once
§The hooks `deberc_extra_calls`, `deberc_apply_extra_call`, `deberc_deal_event` only if
implemented
    → plugins/test_plugins.py test_default_ruleset_is_moscow_to_501;
    → here: test_only_implemented_per_deal_hooks_are_called_at_all
§Timeline a deal ended early (the engine's claim, a plugin's `end_deal`) skips the
scoring hooks (also Step by step 2: a claim is written on the engine's count)
    → here: test_a_deal_ended_early_skips_the_scoring_hooks
§PluginDeal `extra["stake"]` is read into `DealScore.stake`; `Deal.copy` copies `extra`
one level deep
    → here: test_a_deal_played_out_runs_the_scoring_hooks_once_in_order_with_extras_stake,
      test_a_copy_of_the_deal_copies_extra_one_level_deep
§PluginDeal `end_deal(..., played=True)`: hanging points go to who writes more
    → game/test_rules_audit.py test_hanging_points_go_to_the_player_who_accepts_an_offer
§PluginDeal a plugin's call is a `CallMade`, `continue_after_order()` a `Dealt`, a deal
it ends `DealEnded` then the next deal
    → here: test_a_plugins_moves_are_told_as_the_engines_events
§PluginDeal a Protocol the engine's deal satisfies; `py.typed`; every member the table lists
    → plugins/test_author_api.py test_the_engines_deal_is_what_plugins_are_promised,
      test_the_package_says_it_is_typed_so_a_plugins_type_checker_reads_it,
      test_the_deal_says_which_seat_it_waits_for_a_pending_answer_first;
    → here: test_the_plugin_deal_table_lists_the_protocols_members
§Spoken calls the example is perezdacha's; heard only at its tables; the engine's words
refused at loading with the page's message; more words for an engine call; `name-…` heads
    → here: test_the_spoken_calls_example_is_the_perezdacha_plugins_own,
      test_a_plugins_words_are_heard_in_any_case_and_its_name_refused_as_not_now;
    → plugins/test_author_api.py
      test_shipped_calls_are_heard_in_russian_and_english_at_their_tables_only,
      test_a_word_the_engine_reads_as_its_own_call_is_refused_at_loading,
      test_a_calls_own_name_the_engine_reads_otherwise_is_refused_too,
      test_more_words_for_the_engines_own_call_are_heard_as_that_call;
    → protocol/test_lang.py, server/test_human_ru.py (the words shown; Tertz's «марьяж»)
§Settings misspelled name, wrong type refused with the page's words; the table lists every
field with its Moscow value
    → plugins/test_author_api.py test_a_misspelled_setting_is_named_with_the_one_meant,
      test_an_option_setting_a_value_of_another_type_is_refused,
      test_values_of_the_settings_type_are_taken;
    → plugins/test_plugins_doc.py test_the_settings_table_lists_every_field_with_its_moscow_value
§DealScore `written` arrives zeroed, one per side
    → plugins/test_author_api.py test_an_outcome_hook_may_write_by_side_into_a_zeroed_list
§DealScore the paragraph names every field (`sides` was missing: a slip, added)
    → here: test_the_deal_score_paragraph_names_every_field
§Shipped plugins each row's names, kind, players and module; every shipped rule a row
    → here: test_the_shipped_plugins_table_is_what_deberc_net_publishes;
    → plugins/test_loading.py test_every_shipped_rule_describes_itself_in_russian_too
§Writing a rule plugin the `to-777` example, published with the page's entry point, found
by `--option to-777`, refused beside its conflicts
    → here: test_the_to_777_example_published_as_the_page_shows_plays_to_777
§Writing `summary_ru`, `outcomes_ru` (keyword only; the engine's outcomes refused)
    → plugins/test_loading.py test_the_fields_added_after_the_first_plugins_are_keyword_only;
    → plugins/test_author_api.py
      test_russian_outcome_words_for_the_engines_outcomes_or_not_words_are_refused;
    → server/test_human_ru.py (`summary_ru` told to `lang ru`);
    → server/test_plugin_words.py (`Раздача 1: пересдача по просьбе.`, without:
      `Раздача 1: redeal.`)
§Writing a hook raising while rules are built: `RuleError` naming rule and distribution,
chained; `bad-rules` text; `rule_setup_failed` logged
    → plugins/test_author_api.py
      test_an_options_configure_that_raises_refuses_the_table_naming_the_rule,
      test_a_hook_raising_as_the_rules_are_built_names_its_rule,
      test_a_failure_in_no_rules_own_code_names_the_variant;
    → server/test_bad_rules_first.py, server/test_bad_rules_words.py
§Writing a hook raising at a table: `table_error`, `error code=internal`,
`reason=internal`, `table_end_failed`; `ladder run` exits 2
    → server/test_table_failure.py; → ladder/test_table_failure.py
§Writing hooks deterministic: a request to authors (replay checks it: `assert_replays`)
§Examples two packages with their own tests; `make test` installs and runs them
    → plugins/test_third_party.py test_the_example_packages_are_installed_and_found;
    → examples/*/tests; → here: test_make_test_installs_and_runs_both_examples
§Testing the helpers named with the arguments the table gives (`refused(…, token, …)`,
`say(…, *tokens)`, `parse(token)`, `talon=""`: slips, corrected to `text`, `*texts`,
`text`, `talon=()`, the names and default the helpers have)
    → here: test_the_testing_helpers_take_the_arguments_the_table_gives
§Testing the page's example runs as written
    → here: test_the_testing_example_runs_as_written
§Testing `new_deal`'s `seed` is the deal's own (`deal.seed`, a match's deal N `"S/N"`), its
example as written → here: test_new_deals_seed_is_the_deals_own_as_the_table_says
§Testing `new_match`'s seeded deals after the scripted decks
    → plugins/test_author_api.py test_a_match_deals_on_from_its_seed_once_the_scripted_decks_run_out
§Step by step the claim skips scoring hooks
    → here: test_a_deal_ended_early_skips_the_scoring_hooks
§Step by step 1–3: advice to authors (which hook for which job), nothing to pin
§Whole new game every member the override table names is the engine's `Deal`'s; Tertz's
modules are where the table says, its plugin implements the hooks listed
    → here: test_the_whole_new_game_tables_name_real_members_and_modules;
    → game/test_deal_hooks.py (a subclass's `_compute_legal`, `_do_play`, `_trick_points`
      found in its class body; legal calls forgotten as the state changes);
§Whole new game `deberc_deal_class` (`None`: the engine's deal) makes every deal;
`record_extra` keys join the records and replay checks them
    → here: test_a_games_own_deal_class_is_played_and_its_record_keys_replay;
§Whole new game `view_fields` on `ask`/`state`; a numbered call shown as one option
(`lomayu 1..12`)
    → server/test_ask_line.py; → server/test_tertz_human.py, play/test_state.py
    → tertz/ (the game itself); server/test_tertz_human.py;
    → server/test_commands.py test_calls_of_a_third_partys_own_game_are_its_own_not_deberts
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import attrs
import pluggy
import pytest

import deberc_net
import deberc_net.testing
from deberc_net.game import events as ev
from deberc_net.game.deal import Deal
from deberc_net.game.record import replay_matches
from deberc_net.plugins import DealScore, PluginDeal, RuleBook, RuleError, RuleInfo, hookimpl
from deberc_net.plugins.hookspecs import PROJECT, RuleSpecs
from deberc_net.plugins.manager import RuleManager
from deberc_net.protocol.vocabulary import CallSyntaxError
from deberc_net.testing import (
    build_deck,
    build_ruleset,
    new_deal,
    new_match,
    parse,
    play,
    refused,
    say,
    spoken,
)
from tests.dist_info import write_distribution

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The page's text under ``heading`` (any level), up to the next heading outside a
    code block (a comment line in one is no heading)."""
    lines, out, inside, fenced = PAGE.splitlines(keepends=True), [], False, False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            if inside:
                break
            inside = line.lstrip("#").strip() == heading
            continue
        if inside:
            out.append(line)
    assert out, heading
    return "".join(out)


def code_blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def table_rows(text: str) -> list[list[str]]:
    """The cells of every markdown table row in ``text`` but the header and rule rows."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return [row for row in rows if row[0] not in {"hook", "name", "member", "helper", "module"}]


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


# ------------------------------------------------------------------------- loading
@pytest.mark.timeout(60)
def test_a_broken_package_is_refused_in_the_two_lines_the_page_shows(tmp_path: Path) -> None:
    """The page's example, rebuilt: a package whose __init__ imports a missing module at
    line 3; `serve` exits 2 with exactly the two lines shown, nothing else."""
    (example,) = re.findall(r"^```\n(deberc-net serve: rule plugin .*?)^```", PAGE, re.M | re.S)
    package = tmp_path / "src" / "deberc_brokenmod"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        '"""A broken rule."""\n\nimport nosuchthing\n', encoding="utf-8"
    )
    write_distribution(
        tmp_path / "src", "deberc-broken", "[deberc_net]\nbroken-rule = deberc_brokenmod\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "src"), str(ROOT)]))
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", "serve", "--port", "0", "--db", str(tmp_path / "db")],
        env=env,
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    expected = example.replace("/home/me/deberc-broken/src", str(tmp_path / "src"))
    assert done.stderr == expected
    assert done.stdout == ""


class ByName:
    """A rule answering `deberc_combo_key` with a key that says who answered."""

    def __init__(self, name: str, kind: str) -> None:
        self.name, self.kind = name, kind

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind=self.kind, summary=f"test rule {self.name}")

    @hookimpl
    def deberc_combo_key(self, settings: object) -> object:
        return lambda combo, trump: (self.name,)


def answered(book: RuleBook, variant: str, options: list[str]) -> object:
    """Which rule's combo key the table's rules use."""
    return book.ruleset(2, variant, options).combo_key(None, None)  # type: ignore[arg-type]


def test_options_are_registered_by_name_after_the_variant() -> None:
    """Last registered, first called: an option beats the variant whatever their names,
    and of two options the one later by name answers a firstresult hook."""
    book = RuleBook.load(
        extra=[ByName("zz-game", "variant"), ByName("b-key", "option"), ByName("a-key", "option")]
    )
    assert answered(book, "zz-game", ["a-key"]) == ("a-key",)
    assert answered(book, "zz-game", ["b-key", "a-key"]) == ("b-key",)
    assert answered(book, "zz-game", []) == ("zz-game",)


# ------------------------------------------------------------------- a table's rules
class Bella40:
    """The page's option played with no Tertz: `conflicts=("tertz",)`."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="bella-40", kind="option", summary="x", conflicts=("tertz",))


def test_build_ruleset_raises_the_rule_error_the_page_matches() -> None:
    assert issubclass(RuleError, ValueError)
    with pytest.raises(RuleError, match="'bella-40' is not played with the variant 'tertz'"):
        deberc_net.testing.build_ruleset(2, "tertz", ["bella-40"], plugins=[Bella40()])


# ----------------------------------------------------------------------- the hooks
def test_the_hook_table_is_the_declared_hooks_with_their_kinds() -> None:
    rows = table_rows(section("The hooks"))
    table = {ticked(row[0])[0].split("(")[0]: row[1] for row in rows}
    pm = RuleManager(PROJECT)
    pm.add_hookspecs(RuleSpecs)
    declared = {
        name: caller.spec.opts for name, caller in vars(pm.hook).items() if caller.spec is not None
    }
    assert table.keys() == declared.keys()
    for name, kind in table.items():
        assert (kind == "firstresult") == declared[name].get("firstresult", False), name
    from deberc_net.plugins.builtin import moscow

    opts: dict[str, pluggy.HookimplOpts] = {
        name: getattr(moscow, name).deberc_net_impl
        for name in declared
        if hasattr(getattr(moscow, name, None), "deberc_net_impl")
    }
    assert opts["deberc_configure"]["tryfirst"]  # "builtin first"
    assert all(opts[n]["trylast"] for n in opts if table[n] == "firstresult"), opts


def test_the_plugin_deal_table_lists_the_protocols_members() -> None:
    section_text = section("What a plugin may use on a deal: `PluginDeal`")
    named = {word.split("(")[0] for row in table_rows(section_text) for word in ticked(row[0])}
    promised = {n for n in [*dir(PluginDeal), *PluginDeal.__annotations__] if n[0] != "_"}
    assert named == promised


def test_the_spoken_calls_example_is_the_perezdacha_plugins_own() -> None:
    (example,) = code_blocks(section("Spoken calls: `deberc_call_aliases`"), "python")
    space: dict[str, object] = {"hookimpl": hookimpl}
    exec(example, space)
    aliases = space["deberc_call_aliases"]
    assert callable(aliases)
    shipped = RuleBook.load().get("perezdacha")
    assert shipped is not None and shipped.distribution == "deberc-perezdacha"
    assert aliases() == getattr(shipped.plugin, "deberc_call_aliases")()  # noqa: B009


# ---------------------------------------------------------------- shipped plugins
def players_of(cell: str) -> set[tuple[int, ...]] | None:
    """The players column: 'any', '2, 3, 4', '2–3 / 2' (two groups); None: see §10."""
    if cell.startswith("see"):
        return None
    if cell == "any":
        return {(2, 3, 4)}
    groups = set()
    for group in cell.split("/"):
        low, _, high = group.strip().partition("–")
        if high:
            groups.add(tuple(range(int(low), int(high) + 1)))
        else:
            groups.add(tuple(int(n) for n in group.split(",")))
    return groups


def test_the_shipped_plugins_table_is_what_deberc_net_publishes() -> None:
    ours = {
        point.name: point.module
        for point in metadata.entry_points(group="deberc_net")
        if point.dist is not None and point.dist.name == "deberc-net"
    }
    book = RuleBook.load()
    listed: set[str] = set()
    for names, kind, players, module, _ in table_rows(section("Shipped plugins")):
        words = ticked(names)
        if "…" in names:  # `stake-1` … `stake-100`: the first and the last of a run
            head = words[0].rsplit("-", 1)[0]
            words = [n for n in ours if n.startswith(head + "-") and n[len(head) + 1 :].isdigit()]
        home = "deberc_net.plugins." + ticked(module)[0].removesuffix(".py").strip("/").replace(
            "/", "."
        )
        for name in words:
            rule = book.get(name)
            assert rule is not None and rule.distribution == "deberc-net", name
            assert rule.info.kind.value == kind.split()[0], name
            assert ours[name] == home or ours[name].startswith(home + "."), (name, ours[name])
            expected = players_of(players)
            assert expected is None or rule.info.players in expected, (name, rule.info.players)
            listed.add(name)
    assert listed == ours.keys()


# ------------------------------------------------------------- writing a rule plugin
@pytest.mark.timeout(60)
def test_the_to_777_example_published_as_the_page_shows_plays_to_777(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's module and entry point, as written, in a distribution of their own:
    found by the book, played to 777, refused beside its conflicts, versioned as its
    distribution; and `--option to-777` finds it on the command line."""
    text = section("Writing a rule plugin")
    (source,) = code_blocks(text, "python")
    path = source.splitlines()[0].removeprefix("# ")
    assert path == "my_house_rules/target_777.py"
    (tmp_path / "my_house_rules").mkdir()
    (tmp_path / path).write_text(source, encoding="utf-8")
    (toml,) = code_blocks(text, "toml")
    points = tomllib.loads(toml)["project"]["entry-points"]["deberc_net"]
    lines = "".join(f"{name} = {value}\n" for name, value in points.items())
    write_distribution(tmp_path, "my-house-rules", f"[deberc_net]\n{lines}")
    monkeypatch.syspath_prepend(str(tmp_path))
    book = RuleBook.load()
    rule = book.get("to-777")
    assert rule is not None and (rule.distribution, rule.version) == ("my-house-rules", "0.0.1")
    rules = book.ruleset(2, "moscow", ["to-777"])
    assert rules.settings.target == 777 and rules.versions["to-777"] == "0.0.1"
    for other in ("to-301", "to-1001"):
        with pytest.raises(RuleError, match="to-777"):
            book.ruleset(2, "moscow", ["to-777", other])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    done = subprocess.run(
        [
            *(sys.executable, "-m", "deberc_net", "selfplay", "--games", "1"),
            *("--option", "to-777", "--records", str(tmp_path / "records.jsonl")),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert records[0]["options"] == ["to-777"]
    assert records[0]["rule_versions"]["to-777"] == "0.0.1"
    assert max(records[-1]["totals"]) >= 777


def test_make_test_installs_and_runs_both_examples() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    examples = sorted(p.parent.name for p in (ROOT / "examples").glob("*/pyproject.toml"))
    assert examples == ["perezdacha", "posled20"]
    (listed,) = re.findall(r"^EXAMPLES := (.*)$", makefile, re.MULTILINE)
    assert sorted(Path(p).name for p in listed.split()) == examples
    assert "-e '.[test]' $(addprefix -e ,$(EXAMPLES))" in makefile  # with the test tools
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "examples" in pyproject["tool"]["pytest"]["ini_options"]["testpaths"]
    for name in examples:
        assert list((ROOT / "examples" / name / "tests").glob("test_*.py")), name


# ------------------------------------------------------------------------- testing
def test_the_testing_helpers_take_the_arguments_the_table_gives() -> None:
    """Each helper as the table writes its call: the names and defaults of its
    parameters, every one of them (`new_deal`'s `seed` went unsaid: an author could not
    know a scripted deal's seed is his to give)."""
    text = section("Testing a plugin: `deberc_net.testing`")
    written = [call for row in table_rows(text) for call in ticked(row[0])]
    assert len(written) >= 15
    for call in written:
        name, _, args = call.partition("(")
        helper = getattr(deberc_net.testing, name)
        if not args:
            continue
        parameters = inspect.signature(helper).parameters
        given = [a.strip() for a in args.removesuffix(")").split(",") if a.strip()]
        named = {a.partition("=")[0].strip().lstrip("*") for a in given}
        positional = list(parameters)
        for at, arg in enumerate(given):
            param, _, default = arg.partition("=")
            param = param.strip()
            if param.startswith('"'):  # an example of the value: `play(deal, "Jc Kc …")`
                named.add(positional[at])
                continue
            if param.startswith("*"):  # any name: the helper takes any number
                assert any(p.kind is p.VAR_POSITIONAL for p in parameters.values()), call
                continue
            assert param in parameters, (call, param)
            if default:
                assert parameters[param].default == eval(default), (call, param)
        required = [
            p
            for p in parameters.values()
            if p.default is p.empty and p.kind is not p.VAR_POSITIONAL
        ]
        assert len(required) <= len([a for a in given if not a.startswith("*")]), call
        assert set(parameters) <= named, (call, sorted(set(parameters) - named))


def test_new_deals_seed_is_the_deals_own_as_the_table_says() -> None:
    """The table's example of `new_deal`'s `seed`, evaluated as written; and a match's
    deal N carries its seed as the table says (`"S/N"`), deals that seed or not."""
    text = section("Testing a plugin: `deberc_net.testing`")
    [example] = [t for t in ticked(text) if t.startswith("new_deal(") and "==" in t]
    rules, deck = build_ruleset(), build_deck(*HANDS)
    assert eval(example, {"new_deal": new_deal, "rules": rules, "deck": deck}) is True
    assert new_deal(rules, deck).seed == "scripted"
    match = new_match(rules, deck, seed="m1")
    say(match, 0, "igrayu")
    play(match, PLAYED)
    assert match.deal.deal_no == 2 and match.deal.seed == "m1/2"
    assert [r["seed"] for r in match.records] == ["m1/1"]


def test_the_testing_example_runs_as_written() -> None:
    (example,) = code_blocks(section("Testing a plugin: `deberc_net.testing`"), "python")
    space: dict[str, object] = {}
    exec(compile(example, "docs/plugins.md", "exec"), space)
    tests = [value for name, value in space.items() if name.startswith("test_")]
    assert len(tests) == 1 and callable(tests[0])
    tests[0]()


# -------------------------------------------------------------- a whole new game
def test_the_whole_new_game_tables_name_real_members_and_modules() -> None:
    from deberc_net.plugins.variants.tertz import plugin as tertz

    text = section("What the subclass overrides")
    members = {ticked(row[0])[0].split("(")[0] for row in table_rows(text)}
    members |= {m.split("(")[0] for row in table_rows(text) for m in ticked(row[0])}
    for member in members:
        assert hasattr(Deal, member), member
    home = ROOT / "deberc_net" / "plugins" / "variants" / "tertz"
    for row in table_rows(section("Writing a whole new game")):
        for module in ticked(row[0]):
            assert (home / module).is_file(), module
    hooks = {
        h
        for h in ticked(table_rows(section("Writing a whole new game"))[0][1])
        if h.startswith("deberc_")
    }
    assert len(hooks) >= 9
    implemented = {n for n in dir(tertz) if n.startswith("deberc_")} | {
        n for obj in vars(tertz).values() for n in dir(obj) if n.startswith("deberc_")
    }
    assert hooks <= implemented, hooks - implemented


# ------------------------------------------------------------- the deal and its hooks
HANDS = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")  # trump clubs
PLAYED = "Jc Kc 9c 10c Ac Qd As Js 10s Qs Ks 9s 7h Ah 10h 8h Kh 7d"  # seat 0 leads


class Scorer:
    """An option on the scoring hooks that only watches: how often each is called, the
    stake each sees; and at the deal's "play" moment it sets `deal.extra["stake"]`."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.stakes: list[int] = []
        self.at_play: list[tuple[str, int]] = []

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="scorer", kind="option", summary="Watches the scoring.")

    @hookimpl
    def deberc_deal_event(self, deal: PluginDeal, name: str) -> None:
        if name == "play":
            self.at_play.append((deal.phase, len(deal.trick.cards)))
            deal.extra["stake"] = 7

    @hookimpl
    def deberc_deal_points(self, score: DealScore) -> None:
        self.calls.append("deal_points")
        self.stakes.append(score.stake)

    @hookimpl
    def deberc_deal_outcome(self, score: DealScore) -> None:
        self.calls.append("deal_outcome")

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        self.calls.append("adjust_written")


def test_a_deal_played_out_runs_the_scoring_hooks_once_in_order_with_extras_stake() -> None:
    scorer = Scorer()
    rules = build_ruleset(options=["scorer"], plugins=[scorer])
    deal = new_deal(rules, build_deck(*HANDS))
    say(deal, 0, "igrayu")
    assert scorer.at_play == [("play", 0)]  # all cards dealt, before the first card
    play(deal, PLAYED)
    assert scorer.calls == ["deal_points", "deal_outcome", "adjust_written"]
    assert scorer.stakes == [7]  # deal.extra["stake"] is read into DealScore.stake


def test_a_deal_ended_early_skips_the_scoring_hooks() -> None:
    """A plugin's `end_deal` (perezdacha) and the engine's claim at the target."""
    scorer = Scorer()
    rules = build_ruleset(options=["perezdacha", "scorer"], plugins=[scorer])
    match = new_match(rules, build_deck(*HANDS))
    say(match, 0, "igrayu", "perezdacha")
    assert match.records[0]["outcome"] == "redeal"
    near = Deal(
        rules=rules, deal_no=1, dealer=1, deck=build_deck(*HANDS), seed="t", totals_before=(490, 0)
    )
    say(near, 0, "igrayu")
    play(near, "Jc Kc")  # the first trick takes seat 0 past 501: the engine claims
    assert near.result is not None and near.result.score.outcome == "claim"
    assert scorer.calls == []


def test_only_implemented_per_deal_hooks_are_called_at_all() -> None:
    """`deberc_extra_calls`, `deberc_apply_extra_call`, `deberc_deal_event`: none bound
    where no plugin of the table implements them."""
    plain = build_ruleset(options=["to-301"])
    assert (plain.extra_calls, plain.apply_extra_call, plain.deal_event) == (None, None, None)
    scorer = build_ruleset(options=["scorer"], plugins=[Scorer()])
    assert scorer.deal_event is not None and scorer.extra_calls is None
    perezdacha = build_ruleset(options=["perezdacha"])
    assert perezdacha.extra_calls is not None and perezdacha.apply_extra_call is not None


def test_a_copy_of_the_deal_copies_extra_one_level_deep() -> None:
    deal = new_deal(build_ruleset(), build_deck(*HANDS))
    deal.extra["offers"] = [1]
    copy = deal.copy()
    copy.extra["stake"] = 3
    assert "stake" not in deal.extra  # the dict is the copy's own
    assert copy.extra["offers"] is deal.extra["offers"]  # its values are shared: replace them


def test_a_plugins_moves_are_told_as_the_engines_events() -> None:
    """A plugin's call is a `CallMade`; `continue_after_order()` a `Dealt`; a deal it ends
    is told by the match: `DealEnded`, then the next deal."""
    match = new_match(build_ruleset(options=["perezdacha"]), build_deck(*HANDS))
    say(match, 0, "igrayu")
    told = match.apply(0, parse("perezdacha"))
    assert [type(e) for e in told] == [ev.CallMade, ev.DealEnded, ev.DealStarted]
    assert told[0].call.name == "perezdacha"  # type: ignore[union-attr]
    match = new_match(build_ruleset(options=["poltinniki"]), build_deck(*HANDS))
    say(match, 0, "igrayu")  # the whistler is asked: offer or play on
    told = match.apply(1, parse("igraem"))
    assert [type(e) for e in told] == [ev.CallMade, ev.Dealt]


def test_the_deal_score_paragraph_names_every_field() -> None:
    text = section("`DealScore` (the scoring hooks' argument)").split("What a scoring hook")[0]
    named = {w for w in ticked(text) if re.fullmatch(r"[a-z_]+", w)}
    assert named == {f.name for f in attrs.fields(DealScore)}


class MiniDeal(Deal):
    """A whole new game at its smallest: Deberts's deal with a key of its own."""

    def record_extra(self) -> dict[str, object]:
        return {"mini_tricks": len(self.tricks)}


class Mini:
    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="mini", kind="variant", summary="Deberts with a record key.")

    @hookimpl
    def deberc_deal_class(self, settings: object) -> type[Deal]:
        return MiniDeal


def test_a_games_own_deal_class_is_played_and_its_record_keys_replay() -> None:
    """`deberc_deal_class`: `None` (the builtin) is the engine's deal; a variant's class
    makes the deals (`new_deal`, `new_match`), its `record_extra` keys join the records
    beside `RECORD_KEYS`, and replay checks them."""
    assert build_ruleset().deal_class is None
    rules = build_ruleset(2, "mini", plugins=[Mini()])
    assert rules.deal_class is MiniDeal
    assert type(new_deal(rules, build_deck(*HANDS))) is MiniDeal
    match = new_match(rules, build_deck(*HANDS))
    say(match, 0, "igrayu")
    play(match, PLAYED)
    (record,) = match.records
    assert record["mini_tricks"] == 9 and record.keys() >= deberc_net.testing.RECORD_KEYS
    deberc_net.testing.assert_replays(match)
    assert not replay_matches({**record, "mini_tricks": 8}, rules)


def test_a_plugins_words_are_heard_in_any_case_and_its_name_refused_as_not_now() -> None:
    """Case and spacing do not matter; the call's own name is heard at the plugin's
    tables legal or not, so a call at the wrong moment is refused as not allowed now;
    at a table without the plugin its word is no call."""
    rules = build_ruleset(options=["perezdacha"])
    assert spoken(rules, "  ПеРеСдАчА ").token() == spoken(rules, "REDEAL").token() == "perezdacha"
    match = new_match(rules, build_deck(*HANDS))
    refused(match.deal, 0, "perezdacha", code="wrong-phase")  # bidding is on
    with pytest.raises(CallSyntaxError):
        spoken(build_ruleset(), "пересдача")
