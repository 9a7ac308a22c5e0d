"""Load every rule plugin once, at start-up, and build tables' rule sets from them.

``RuleBook.load()`` loads the entry-point group ``deberc_net`` with pluggy's
``load_setuptools_entrypoints`` and ``check_pending`` (as pytest loads its plugins). Our
own rules are published there exactly as a third party publishes one (pyproject.toml).
Anything wrong with a plugin (its import raises, a misspelled ``deberc_`` hook, a name
that is not its entry point's) raises ``PluginError`` naming its distribution, so the
server refuses to start instead of failing every table.

The book then registers the rules, in a fixed order, with one plugin manager: the
builtin Moscow rules first, then the player-count rules, the variants and the options
(each by name). Pluggy calls the last registered first, so an option overrides the
variant, which overrides the builtin. A table's rule set calls only its own plugins
(``subset_hook_caller``) and is cached by (players, variant, options); the cache belongs
to the book, which the server (or a test) creates.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import re
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib import metadata
from typing import Any

import attrs
import pluggy

from deberc_net.game.calls import PLAY, Call
from deberc_net.game.deal import Deal
from deberc_net.game.outcomes import Outcome
from deberc_net.game.rules import DealScore, MatchSnapshot, RuleSet, Settings
from deberc_net.protocol.commands import COMMANDS, command_word
from deberc_net.protocol.lang import spoken_call
from deberc_net.protocol.said_back import said_back
from deberc_net.protocol.vocabulary import engine_call

from .api import PluginDeal
from .assigned import assignments
from .failed_import import HookCodes, hook_raised, raised_in, told
from .hookspecs import HOOK_PREFIX, PROJECT, RuleInfo, RuleKind, RuleSpecs
from .near_names import near_name

ENTRY_POINT_GROUP = "deberc_net"
OWN_DISTRIBUTION = "deberc-net"  # ours: its rules' names are taken, never to blame
BUILTIN_VARIANT = "moscow"
IN_PROCESS = "(registered in-process)"  # the distribution of a plugin handed to load()
CACHED_RULE_SETS = 256  # distinct (players, variant, options) kept; users choose them


class RuleError(ValueError):
    """The requested variant and options do not make a table."""


class PluginError(Exception):
    """A rule plugin cannot be used; the message names its distribution. ``also``: other
    distributions whose fix would do as well (two third parties publishing one name)."""

    def __init__(
        self, distribution: str, rule: str, problem: str, also: tuple[str, ...] = ()
    ) -> None:
        super().__init__(f"rule plugin {rule!r} from distribution {distribution!r}: {problem}")
        self.distribution = distribution
        self.rule = rule
        self.distributions = (distribution, *also)  # to fix or uninstall: any one of them


class RuleManager(pluggy.PluginManager):
    """pluggy's manager, told that no hook is a dunder: registration looks at every name
    ``dir(plugin)`` gives, statically (``inspect.getattr_static``), and a plugin object's
    ~26 dunders from ``object`` were three quarters of that work at every start-up.

    A function named like a hook (``deberc_…``) without the ``@hookimpl`` marker is
    refused: pluggy would pass it over, and the rule would load and do nothing."""

    def parse_hookimpl_opts(self, plugin: object, name: str) -> pluggy.HookimplOpts | None:
        if name.startswith("__") and name.endswith("__"):
            return None
        opts = super().parse_hookimpl_opts(plugin, name)
        found = inspect.getattr_static(plugin, name, None) if opts is None else None
        if name.startswith(HOOK_PREFIX) and _no_function(found):
            raise pluggy.PluginValidationError(
                plugin,
                f"{name} is marked @hookimpl but is a {type(found).__name__}, not a "
                "function: pluggy calls only a def (a method, a static or class method) "
                "and would pass it over, so it would never run; write a def that calls it",
            )
        if opts is None and name.startswith(HOOK_PREFIX) and _is_function(plugin, name):
            raise pluggy.PluginValidationError(
                plugin,
                f"{name} is named like a hook but not marked as one: decorate it with "
                "@hookimpl (from deberc_net.plugins import hookimpl), or give it a name "
                f"without the {HOOK_PREFIX} prefix",
            )
        if opts is not None and _is_async(getattr(plugin, name, None)):
            raise pluggy.PluginValidationError(
                plugin,
                f"{name} is an async def: hooks are called, never awaited, so its body "
                "would never run; write it with a plain def",
            )
        return opts


def said_counts(counts: Iterable[int]) -> str:
    """Player counts as a sentence says them: '2', '2 or 3', '2, 3 or 4'."""
    told = [str(n) for n in sorted(counts)]
    return told[0] if len(told) == 1 else f"{', '.join(told[:-1])} or {told[-1]}"


def _is_async(function: object) -> bool:
    """A trio author's ``async def`` hook: called, it makes a coroutine nobody awaits."""
    function = inspect.unwrap(function) if callable(function) else function
    return inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function)


def _no_function(found: object) -> bool:
    """Whether ``found``, marked a hook, is a callable pluggy passes over as no function
    (a ``functools.partial``, a callable object): the rule would load and it never run."""
    if found is None or inspect.isroutine(found) or isinstance(found, (staticmethod, classmethod)):
        return False
    marker = inspect.getattr_static(found, f"{PROJECT}_impl", None)  # (runs no code of its)
    return callable(found) and marker is not None


def _is_function(plugin: object, name: str) -> bool:
    """Whether ``plugin.name`` is a function or method, looked up as pluggy does
    (statically: a property is not run)."""
    found = inspect.getattr_static(plugin, name, None)
    return inspect.isroutine(found) or isinstance(found, (staticmethod, classmethod))


def _codes_of(function: object) -> Iterator[types.CodeType]:
    """The code a hook's frames run: the function's own and, for one a decorator
    wrapped (``functools.wraps``: ``__wrapped__``), each it wraps."""
    seen: set[int] = set()
    while id(function) not in seen:  # (a chain that loops)
        seen.add(id(function))
        if isinstance(function, types.MethodType):  # a plugin object's hook
            function = function.__func__
        if not isinstance(function, types.FunctionType):
            return  # (nothing else is looked at: a failed table's error path reads it)
        yield function.__code__
        function = function.__dict__.get("__wrapped__")


def _class_codes(deal_class: type[Deal]) -> Iterator[types.CodeType]:
    """The code of each method a game's deal class defines itself: in the classes its
    own above the engine's ``Deal``, static, class methods and properties too."""
    mro = deal_class.__mro__
    for cls in mro[: mro.index(Deal)] if Deal in mro else ():
        for value in vars(cls).values():  # (functions only: nothing else is looked at,
            # as a lazy proxy raises when it is, in a failed table's error path)
            if isinstance(value, (staticmethod, classmethod)):
                yield from _codes_of(value.__func__)
            elif isinstance(value, property):
                for function in (value.fget, value.fset, value.fdel):
                    yield from _codes_of(function)
            elif isinstance(value, functools.cached_property):
                yield from _codes_of(value.func)
            else:
                yield from _codes_of(value)  # (a function's, else none)


@attrs.frozen
class LoadedRule:
    """One rule plugin as loaded: what it says about itself and where it comes from."""

    plugin: object
    info: RuleInfo
    distribution: str
    version: str
    aliases: Mapping[str, str]  # a word people type -> the plugin's call name

    @property
    def name(self) -> str:
        return self.info.name


class RuleBook:
    """Every rule plugin, loaded once; the rule sets of tables, built from one manager."""

    def __init__(self, rules: Iterable[LoadedRule]) -> None:
        self._rules: dict[str, LoadedRule] = {}
        for rule in rules:
            known = self._rules.setdefault(rule.name, rule)
            if known is not rule:
                raise PluginError(
                    rule.distribution,
                    rule.name,
                    f"the same rule name comes from distribution {known.distribution!r} too",
                )
        if BUILTIN_VARIANT not in self._rules:
            raise PluginError(
                OWN_DISTRIBUTION,
                BUILTIN_VARIANT,
                "the builtin rules are not "
                "installed (reinstall deberc-net: its entry points are missing)",
            )
        for rule in self._rules.values():
            missing = [n for n in rule.info.requires if n not in self._rules]
            if missing:  # else every table naming it is refused, and no start-up said why
                raise PluginError(
                    rule.distribution,
                    rule.name,
                    f"it requires {missing[0]!r}, which no installed plugin is: install the "
                    "distribution that publishes it, or correct the name",
                )
            games = [n for n in rule.info.requires if self._rules[n].info.kind == RuleKind.VARIANT]
            if len(games) > 1:  # a table plays one: every table naming it would be refused
                raise PluginError(
                    rule.distribution,
                    rule.name,
                    f"it requires the variants {games[0]!r} and {games[1]!r}: a table plays"
                    " one (an option of one game names that game alone)",
                )
            # a variant on another variant: a table plays one (the builtin every table is
            # built on aside), so every table naming it was refused, 'option ... needs
            # option ...', a variant no 'new' can add
            if rule.info.kind == RuleKind.VARIANT and set(games) - {BUILTIN_VARIANT}:
                raise PluginError(
                    rule.distribution,
                    rule.name,
                    f"it is a variant and requires the variant {games[0]!r}: a table plays"
                    " one (require its options, or reuse its hooks)",
                )
        # the one manager every rule is registered with (once: pluggy's registration
        # inspects every name a plugin module holds), checked as pytest checks its own
        self._pm = RuleManager(PROJECT)
        self._pm.add_hookspecs(RuleSpecs)
        for rule in sorted(self._rules.values(), key=_registration_order):
            try:
                self._pm.register(rule.plugin, name=rule.name)
            except (pluggy.PluginValidationError, ValueError) as exc:
                told_so = _invalid_told(exc, rule.plugin)
                raise PluginError(rule.distribution, rule.name, told_so) from exc
        try:
            self._pm.check_pending()
        except pluggy.PluginValidationError as exc:
            bad = next(r for r in self._rules.values() if r.plugin is exc.plugin)
            raise PluginError(bad.distribution, bad.name, str(exc)) from exc
        self._cached = functools.lru_cache(maxsize=CACHED_RULE_SETS)(self._build)
        self._hook_codes = self._codes_of_hooks()

    def _codes_of_hooks(self) -> HookCodes:
        """Each hook implementation's code, with the rules whose plugin runs it (each
        once): a decorated hook's wrapper and the function it wraps, whose frame names
        the rule where one wrapper serves several hooks (its code is theirs)."""
        codes: dict[types.CodeType, list[tuple[object, str]]] = {}
        for rule in self._rules.values():
            owner = (rule.plugin, rule.name)
            for caller in self._pm.get_hookcallers(rule.plugin) or ():
                for impl in caller.get_hookimpls():
                    if impl.plugin is not rule.plugin:
                        continue
                    for code in _codes_of(impl.function):
                        owners = codes.setdefault(code, [])
                        if owner not in owners:
                            owners.append(owner)
        return codes

    def failed_hook(self, exc: BaseException, rules: RuleSet | None = None) -> str | None:
        """The rule whose hook raised ``exc`` (a failed table's log names it), or None:
        no rule's hook is in its traceback. With the table's ``rules``, code its game's
        own deal class defines (Tertz's deals, which the engine calls, not as hooks)
        names its variant too."""
        codes = self._hook_codes
        if rules is not None and rules.deal_class is not None:
            loaded = self._rules.get(rules.variant)  # (the book's own: never missing)
            variant = ((None if loaded is None else loaded.plugin, rules.variant),)
            codes = {**codes, **dict.fromkeys(_class_codes(rules.deal_class), variant)}
        return hook_raised(exc, codes)

    @classmethod
    def load(cls, extra: Iterable[object] = (), group: str = ENTRY_POINT_GROUP) -> RuleBook:
        """Every rule installed under the entry-point group ``group``, plus ``extra``
        plugin objects (a test's own rules). Raises PluginError naming what is broken."""
        return cls(_load(group, extra))

    # ------------------------------------------------------------------ what is known
    def rules(self) -> list[LoadedRule]:
        """Every loaded rule, by name."""
        return [self._rules[name] for name in sorted(self._rules)]

    def get(self, name: str) -> LoadedRule | None:
        return self._rules.get(name)

    def kind_of(self, name: str) -> RuleKind | None:
        rule = self._rules.get(name)
        return None if rule is None else rule.info.kind

    # ------------------------------------------------------------------ rule sets
    def ruleset(
        self, players: int = 2, variant: str = BUILTIN_VARIANT, options: Iterable[str] = ()
    ) -> RuleSet:
        """The resolved rules of a table (shared by every table with the same rules).
        Raises RuleError naming what does not fit."""
        return self._cached(players, variant, tuple(sorted(set(options))))

    def _build(self, players: int, variant: str, options: tuple[str, ...]) -> RuleSet:
        picked = self._pick(variant, options, players)
        others = [r.plugin for name, r in self._rules.items() if name not in picked]
        chosen = [self._rules[name] for name in picked]
        base = [r.plugin for r in chosen if r.info.kind != RuleKind.OPTION]

        def hook(name: str, without: Iterable[object] = others) -> Any:
            return self._pm.subset_hook_caller(name, remove_plugins=without)

        settings = self._settings(hook, chosen, base, players)
        with _setting_up(chosen, self._rules[variant]):
            deal_class = hook("deberc_deal_class")(settings=settings)
            combo_key = hook("deberc_combo_key")(settings=settings)
        if deal_class is not None and not (
            isinstance(deal_class, type) and issubclass(deal_class, Deal)
        ):
            raise RuleError(f"{variant!r}: deberc_deal_class gave {deal_class!r}, not a Deal class")
        return RuleSet(
            settings=settings,
            variant=variant,
            options=tuple(r.name for r in chosen if r.info.kind == RuleKind.OPTION),
            versions={r.name: r.version for r in chosen},
            combo_key=combo_key,
            combo_winners=_combo_winners(hook("deberc_combo_winners")),
            score_deal=_score_deal(hook),
            next_dealer=_on_snapshot(hook("deberc_next_dealer")),
            match_end=_on_snapshot(hook("deberc_match_end")),
            extra_calls=_extra_calls(hook("deberc_extra_calls")),
            apply_extra_call=_apply_extra_call(hook("deberc_apply_extra_call")),
            deal_event=_deal_event(hook("deberc_deal_event")),
            describe=_table_rules_told(chosen, variant, deal_class),
            describe_ru=_table_rules_told(chosen, variant, deal_class, russian=True),
            call_aliases=_aliases(chosen),
            deal_class=deal_class,
        )

    def options_for(self, variant: str, players: int) -> list[str]:
        """The options a table of ``variant`` for ``players`` may take alone: of its
        player count, not refused by its variant (``refused_options``)."""
        refused = self.refused_options(variant)
        return [
            r.name
            for r in self.rules()
            if r.info.kind == RuleKind.OPTION
            and players in r.info.players
            and r.name not in refused
        ]

    def refused_options(self, variant: str) -> frozenset[str]:
        """The options ``variant`` refuses (docs/rules.md §12.8), read from the rules' own
        information as ``_pick`` checks a table's: the variant's conflicts, the options
        whose conflicts name it (a third party's bella-40 refusing tertz), without bidding
        every option that needs it (``RuleInfo.needs_bidding``), another game's own
        options (whose ``requires`` name another variant: tertz-501 at moscow), and the
        options that require a refused one (to-9-stakes, which needs dave, where dave
        is refused)."""
        rule = self._rules.get(variant)
        options = [r.info for r in self.rules() if r.info.kind == RuleKind.OPTION]
        refused = set(rule.info.conflicts) if rule is not None else set()
        refused |= {o.name for o in options if variant in o.conflicts}
        if rule is not None and not rule.info.bidding:
            refused |= {o.name for o in options if o.needs_bidding}
        refused |= {
            o.name
            for o in options
            if any(self.kind_of(n) == RuleKind.VARIANT and n != variant for n in o.requires)
        }
        while more := {
            o.name for o in options if o.name not in refused and refused & set(o.requires)
        }:
            refused |= more
        return frozenset(refused)

    def _pick(self, variant: str, options: Sequence[str], players: int) -> list[str]:
        """The table's rules: the builtin, the player-count rules, the variant, the
        options. Raises RuleError naming what does not fit."""
        picked = [BUILTIN_VARIANT]
        picked += [
            r.name
            for r in self.rules()
            if r.info.kind == RuleKind.PLAYERS and players in r.info.players
        ]
        for index, name in enumerate([variant, *options]):
            expected = RuleKind.VARIANT if index == 0 else RuleKind.OPTION
            rule = self._rules.get(name)
            if rule is None:
                told = said_back(name)  # the word as typed: cut, as any word said back
                games = [r.name for r in self.rules() if r.info.kind == RuleKind.VARIANT]
                kinds = [r.name for r in self.rules() if r.info.kind == expected]
                variants, known = ", ".join(games), ", ".join(kinds)
                # a word near a known one is most likely it mistyped: that one named, read
                # in Latin letters too (near_names: 'терц-501', 'tо-301'); after the player
                # count a word may be a variant mistyped: the variants are near ones of an
                # option's too. A word near variants only is a mistyped variant, wherever
                # it stands, and the variants are listed; near an option, the options
                # (a tryout, s42: 'to-300' was told the variants, 'kharkof' an option)
                near = near_name(name, games if expected == RuleKind.VARIANT else [*games, *kinds])
                if near is not None and all(n in games for n in near.split(", ")):
                    raise RuleError(
                        f"unknown variant {told!r}: did you mean {near}? Variants: {variants}"
                    )
                if near is not None:  # the options this table could take, not 40
                    fit = ", ".join(self.options_for(variant, players))
                    raise RuleError(f"unknown option {told!r}: did you mean {near}? Options: {fit}")
                if expected == RuleKind.VARIANT:
                    raise RuleError(f"unknown {expected} {told!r}; known: {known}")
                # the options this table could take, as the near form lists them: all 40
                # named tertz-501 and pair-combinations at a moscow for 2 (a tryout, s47)
                fit = ", ".join(self.options_for(variant, players))
                raise RuleError(
                    f"unknown {expected} {told!r}; variants: {variants}; options: {fit}"
                )
            if rule.info.kind == RuleKind.VARIANT and expected == RuleKind.OPTION:
                raise RuleError(
                    f"{name!r} is a variant: name one, right after the player count"
                    " (PLAYERS [VARIANT] [OPTION ...])"
                )
            if rule.info.kind != expected:
                raise RuleError(f"{name!r} is {_a(rule.info.kind)} rule, not {_a(expected)}")
            if players not in rule.info.players:
                # said as a person says it, with what to do instead (a tryout, s44: "is
                # for 2, 3 players, not 4" told neither): an option left out, a variant
                # played by as many as it is for
                counts = said_counts(rule.info.players)
                if expected == RuleKind.OPTION:
                    raise RuleError(
                        f"{name!r} is for {counts} players, not {players}:"
                        f" leave it out, or play with {counts}"
                    )
                raise RuleError(
                    f"{name!r} is for {counts} players, not {players}:"
                    f" play it with {counts}, or choose another variant"
                )
            if name not in picked:
                picked.append(name)
        infos = {name: self._rules[name].info for name in picked}
        for name, info in infos.items():
            if info.kind == RuleKind.OPTION and info.needs_bidding and not infos[variant].bidding:
                raise RuleError(
                    f"{name!r} needs a player who orders; the variant {variant!r} has no bidding"
                )
            for other in info.conflicts:
                # (a variant named: the table's, not the builtin every table is built on)
                if other not in picked or (other == BUILTIN_VARIANT != variant):
                    continue
                if info.kind == RuleKind.VARIANT:
                    raise RuleError(f"{other!r} is not played with the variant {name!r}")
                if infos[other].kind == RuleKind.VARIANT:
                    raise RuleError(f"{name!r} is not played with the variant {other!r}")
                raise RuleError(f"options {name!r} and {other!r} contradict each other")
            # a variant required first: the option's own game, before what it needs there
            # (its option named first told 'needs option short too', then, that added,
            # that the option is another game's)
            games = [
                n
                for n in info.requires
                if info.kind == RuleKind.OPTION and self._rules[n].info.kind == RuleKind.VARIANT
            ]
            for needed in games:
                # an option of one game only (Tertz's tertz-501): at another it would
                # change nothing, and the table would not be the game asked for. The
                # table's variant, not the rules picked: the builtin moscow is every
                # table's base, and an option of Moscow's was taken at a Tertz table
                if needed != variant:
                    raise RuleError(f"{name!r} is played only with the variant {needed!r}")
            for needed in info.requires:
                if needed in picked or needed in games:
                    continue
                # said as what each is: a variant's own option ('option 'v' needs ...'
                # named the variant an option, which no 'new ... v' reads so)
                if info.kind == RuleKind.VARIANT:
                    raise RuleError(f"variant {name!r} needs option {needed!r} too")
                raise RuleError(f"option {name!r} needs option {needed!r} too")
        return picked

    def _settings(
        self,
        hook: Callable[..., Any],
        chosen: list[LoadedRule],
        base: list[object],
        players: int,
    ) -> Settings:
        """Configure the builtin, player-count rules and variant; then each option on a
        copy of that, once. Two options that set one setting to different values are
        refused (which one won would be an accident of their names), unless one requires
        the other: then the one built on the other goes last and its values stand. An
        option sets what it assigns, even the value the setting had (``assigned``)."""
        everyone = [r.plugin for r in self._rules.values()]
        start = Settings()
        variant = next(r for r in reversed(chosen) if r.info.kind == RuleKind.VARIANT)
        with _setting_up([r for r in chosen if r.plugin in base], variant):
            hook("deberc_configure", [p for p in everyone if p not in base])(
                settings=start, players=players
            )
        options = [r for r in chosen if r.info.kind == RuleKind.OPTION]
        changes: dict[str, dict[str, Any]] = {}
        for rule in options:
            configure = hook("deberc_configure", [p for p in everyone if p is not rule.plugin])
            with _setting_up([rule], rule):
                assigned = assignments(functools.partial(configure, players=players), start)
            _refuse_wrong_types(rule, assigned)
            changes[rule.name] = assigned
        requires = {r.name: r.info.requires for r in options}
        _refuse_disagreements(changes, requires)
        settings = attrs.evolve(start)
        for name in sorted(changes, key=lambda n: (_depth(n, requires), n)):
            for setting, value in changes[name].items():
                setattr(settings, setting, value)
        return settings


# a rule's source in its summary ('(seed 004)', '(seed 003 'with commitment')'): for
# the project's readers, meaningless to players ('rules' leaves it out)
_SOURCE = re.compile(r"\s*\([^()]*\bseeds?\b[^()]*\)")


def for_players(summary: str) -> str:
    """A rule's summary as players are told it: without its sources."""
    return _SOURCE.sub("", summary)


# a rule without a Russian summary, told in Russian: its English, said to be so (a
# Russian 'rules' list read one line in English with no word why: a tryout, s45)
ENGLISH_ONLY_RU = "по-английски (описания по-русски у правила нет): "


def summary_for(info: RuleInfo, russian: bool) -> str:
    """A rule's summary as players are told it, in Russian if asked: its own Russian,
    else its English said to be so (ENGLISH_ONLY_RU)."""
    if not russian:
        return for_players(info.summary)
    if info.summary_ru:
        return for_players(info.summary_ru)
    return ENGLISH_ONLY_RU + for_players(info.summary)


def _table_rules_told(
    chosen: Sequence[LoadedRule], variant: str, deal_class: object, russian: bool = False
) -> tuple[str, ...]:
    """The table's rules in words. A variant that is a game of its own (its own deal
    class: Tertz) is not the builtin's game: the builtin's summary would mislead. The
    player count's rule, which nobody asks for by name, is its summary alone: it names
    itself ('Three players: …'; «three-players:» was an English word in a Russian line)."""
    return tuple(
        summary_for(r.info, russian)
        if r.info.kind == RuleKind.PLAYERS
        else f"{r.name}: {summary_for(r.info, russian)}"
        for r in chosen
        if not (deal_class is not None and r.name == BUILTIN_VARIANT != variant)
    )


@contextlib.contextmanager
def _setting_up(rules: Sequence[LoadedRule], otherwise: LoadedRule) -> Iterator[None]:
    """A hook of ``rules`` raising while a table's rules are built (a bug in a plugin)
    is a RuleError naming the rule whose code raised (``raised_in``: the innermost
    frame in its module or package), else ``otherwise`` (the variant), chained to the
    exception: the server logs its traceback and tells the player who asked."""
    try:
        yield
    except RuleError:
        raise  # a refusal, said as it is
    except Exception as exc:
        found = raised_in(exc, [_home(r.plugin) for r in rules])
        rule = otherwise if found is None else rules[found]
        raise RuleError(
            f"rule {rule.name!r} (distribution {rule.distribution!r}) failed to set up "
            f"the table: {type(exc).__name__}: {_one_line(exc)}"
        ) from exc


def _invalid_told(exc: Exception, plugin: object) -> str:
    """pluggy's refusal of an implementation (arguments the hook does not give; an
    unmarked or async one, ours), on one line, with the file and line of the function,
    as an error raised in a plugin is."""
    text = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    hook = re.search(r"for hook '(\w+)'|^(deberc_\w+) is ", text)
    function = getattr(plugin, hook.group(1) or hook.group(2), None) if hook else None
    code = getattr(inspect.unwrap(function), "__code__", None) if callable(function) else None
    if code is None:
        return text
    return f"{text} (at {code.co_filename}:{code.co_firstlineno})"


def _one_line(exc: Exception, longest: int = 300) -> str:
    """An exception's message as one line of the protocol (a line break in it would end
    the refusal's line), cut short: the log has the whole of it."""
    said = " ".join(str(exc).split())
    return said if len(said) <= longest else said[: longest - 1] + "…"


def _home(plugin: object) -> tuple[str, str]:
    """The module of ``plugin``'s code and the package holding it (a package plugin:
    itself; a top-level module: itself)."""
    if isinstance(plugin, types.ModuleType):
        module = plugin.__name__
        if hasattr(plugin, "__path__"):
            return module, module
    else:
        module = getattr(plugin, "__module__", None) or type(plugin).__module__
    return module, module.rpartition(".")[0] or module


# each setting's type, read once (the annotations are strings in game/rules.py)
_SETTING_TYPES: dict[str, Any] = typing.get_type_hints(Settings)


def _refuse_wrong_types(rule: LoadedRule, assigned: Mapping[str, Any]) -> None:
    """A value of another type than its setting's (a ``"20"`` for ``last_trick_bonus``)
    failed only when the deal read it, at its last trick: refused as the table's rules
    are built. A bool is no int here (Python says it is), nor an int a bool."""
    for setting, value in assigned.items():
        expected = _SETTING_TYPES[setting]
        if not _fits(value, expected):
            given = _a(type(value).__name__)
            raise RuleError(
                f"rule {rule.name!r} (distribution {rule.distribution!r}) sets {setting} "
                f"to {value!r} ({given}), not {_described(expected)}"
            )


def _fits(value: object, expected: Any) -> bool:
    arms = typing.get_args(expected)
    if typing.get_origin(expected) in (typing.Union, types.UnionType):
        return any(_fits(value, arm) for arm in arms)
    if expected is type(None):
        return value is None
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if typing.get_origin(expected) is tuple:
        if not isinstance(value, tuple):
            return False
        if len(arms) == 2 and arms[1] is Ellipsis:
            return all(_fits(item, arms[0]) for item in value)
        return len(arms) == len(value) and all(map(_fits, value, arms))
    return not isinstance(expected, type) or isinstance(value, expected)


def _described(expected: Any) -> str:
    """``an int``, ``an int or None``, ``a tuple of ints``: a setting's type in words."""
    if typing.get_origin(expected) in (typing.Union, types.UnionType):
        arms = typing.get_args(expected)
        return " or ".join("None" if a is type(None) else _described(a) for a in arms)
    if typing.get_origin(expected) is tuple:
        arms = typing.get_args(expected)
        return f"a tuple of {arms[0].__name__}s" if arms else "a tuple"
    return _a(getattr(expected, "__name__", str(expected)))


def _a(name: str) -> str:
    return f"{'an' if name[:1] in tuple('aeiou') else 'a'} {name}"


def _depth(
    name: str,
    requires: Mapping[str, Sequence[str]],
    seen: frozenset[str] = frozenset(),
) -> int:
    """How many options ``name`` is built on, through ``requires`` (0: on none)."""
    below = [n for n in requires.get(name, ()) if n in requires and n not in seen]
    return max((1 + _depth(n, requires, seen | {name}) for n in below), default=0)


def _registration_order(rule: LoadedRule) -> tuple[int, str]:
    rank = {RuleKind.PLAYERS: 1, RuleKind.VARIANT: 2, RuleKind.OPTION: 3}[rule.info.kind]
    return (0 if rule.name == BUILTIN_VARIANT else rank, rule.name)


def _refuse_disagreements(
    changes: Mapping[str, Mapping[str, Any]], requires: Mapping[str, Sequence[str]]
) -> None:
    names = sorted(changes)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if second in requires[first] or first in requires[second]:
                continue  # built on the other: it may override it (to-9-stakes on dave)
            for setting in sorted(changes[first].keys() & changes[second].keys()):
                a, b = changes[first][setting], changes[second][setting]
                if a != b:
                    raise RuleError(
                        f"options {first!r} and {second!r} set {setting} differently "
                        f"({a!r} and {b!r}); choose one"
                    )


def _aliases(chosen: Iterable[LoadedRule]) -> dict[str, str]:
    words: dict[str, str] = {}
    said_by: dict[str, str] = {}
    for rule in chosen:
        for word, call in rule.aliases.items():
            if words.get(word, call) != call:
                raise RuleError(
                    f"options {said_by[word]!r} and {rule.name!r} both use "
                    f"{word!r}, for {words[word]!r} and {call!r}"
                )
            words[word] = call
            said_by.setdefault(word, rule.name)
    return words


# ---------------------------------------------------------------------- the engine's view
def resolved(caller: pluggy.HookCaller) -> Callable[..., Any]:
    """``caller``'s hook, its implementations looked up once: a rule set's plugins never
    change after it is built, and the engine calls these hooks every deal (pluggy's
    full dispatch copies and checks them on each call). The same order and results as
    pluggy's: the last registered first, each given only the arguments it names, None
    results dropped, the first result alone for a firstresult hook. Hooks with wrappers
    or keyword-only arguments keep pluggy's own call."""
    impls = caller.get_hookimpls()
    if any(impl.hookwrapper or impl.wrapper or impl.kwargnames for impl in impls):
        return caller
    firstresult = bool(caller.spec is not None and caller.spec.opts.get("firstresult"))
    order = tuple((impl.function, tuple(impl.argnames)) for impl in reversed(impls))
    if len(order) == 1:  # most hooks of a rule set: no loop, no list to fill
        return _resolved_one(*order[0], firstresult)
    # each implementation as a firstresult call: its own result, None included
    ones = tuple(_resolved_one(function, names, True) for function, names in order)

    def call(**kwargs: Any) -> Any:
        results = []
        for one in ones:
            result = one(**kwargs)
            if result is not None:
                if firstresult:
                    return result
                results.append(result)
        return None if firstresult else results

    return call


def _resolved_one(
    function: Callable[..., Any], names: tuple[str, ...], firstresult: bool
) -> Callable[..., Any]:
    """``resolved``'s call for a hook with one implementation: the same results."""

    def call(**kwargs: Any) -> Any:
        try:
            args = [kwargs[name] for name in names]
        except KeyError as missing:
            raise pluggy.HookCallError(
                f"hook call must provide argument {missing.args[0]!r}"
            ) from missing
        result = function(*args)
        if firstresult:
            return result
        return [] if result is None else [result]

    return call


def plain(
    caller: pluggy.HookCaller, names: tuple[str, ...]
) -> tuple[Callable[..., Any], ...] | None:
    """``caller``'s implementations as plain functions, in pluggy's order (the last
    registered first), when every one takes exactly ``names`` (so each can be called
    with them in that order) and none is a wrapper; None otherwise. For the hooks the
    engine calls every deal with one argument: no keywords, no lookups per call."""
    impls = caller.get_hookimpls()
    if any(
        impl.hookwrapper or impl.wrapper or impl.kwargnames or tuple(impl.argnames) != names
        for impl in impls
    ):
        return None
    return tuple(impl.function for impl in reversed(impls))


def _as_plugin_deal(deal: Deal) -> PluginDeal:
    return deal  # mypy checks here that the engine's Deal is what plugins are promised


def _first_answer(caller: pluggy.HookCaller, name: str) -> Callable[[Any], Any]:
    """A firstresult hook of the one argument ``name``, called with its value: the
    first answer that is not None, in pluggy's order (None when nobody answers)."""
    functions = plain(caller, (name,))
    if functions is None:  # a wrapper, or an implementation naming no argument
        hook = resolved(caller)
        return lambda value: hook(**{name: value})
    if len(functions) == 1:
        return functions[0]  # its answer is the hook's: called as it is

    def first(value: Any) -> Any:
        for function in functions:
            answer = function(value)
            if answer is not None:
                return answer
        return None

    return first


def _combo_winners(caller: pluggy.HookCaller) -> Callable[[Deal], list[int]]:
    hook = _first_answer(caller, "deal")

    def combo_winners(deal: Deal) -> list[int]:
        return list(hook(_as_plugin_deal(deal)))

    return combo_winners


def _on_snapshot(caller: pluggy.HookCaller) -> Callable[[MatchSnapshot], Any]:
    """A firstresult hook on the match's snapshot."""
    return _first_answer(caller, "snapshot")


def _score_deal(hook: Callable[[str], pluggy.HookCaller]) -> Callable[[DealScore], None]:
    callers = [hook(name) for name in _SCORE_HOOKS]
    found = [plain(caller, ("score",)) for caller in callers]
    if all(functions is not None for functions in found):
        points, outcome, adjust = (functions or () for functions in found)

        def score_deal_plainly(score: DealScore) -> None:
            for function in points:  # results dropped: every implementation runs
                function(score)
            for function in outcome:  # firstresult: up to the first that says
                if function(score) is not None:
                    break
            for function in adjust:
                function(score)

        return score_deal_plainly
    points_hook, outcome_hook, adjust_hook = (resolved(caller) for caller in callers)

    def score_deal(score: DealScore) -> None:
        points_hook(score=score)
        outcome_hook(score=score)
        adjust_hook(score=score)

    return score_deal


# the hooks that score a deal, in the order they are called
_SCORE_HOOKS = ("deberc_deal_points", "deberc_deal_outcome", "deberc_adjust_written")


def _listed(calls: object) -> Sequence[Any] | None:
    """``calls`` as a list or a tuple (a generator's read into one), if iterable."""
    if isinstance(calls, (list, tuple)):  # (most: no copy, every seat's every ask)
        return calls
    return list(calls) if isinstance(calls, Iterable) else None


def _extra_calls(caller: Any) -> Callable[[Deal, int], list[Call]] | None:
    if not caller.get_hookimpls():
        return None  # nobody adds calls: the engine pays nothing for the hook
    hook = resolved(caller)

    def extra_calls(deal: Deal, seat: int) -> list[Call]:
        out: list[Call] = []
        for calls in hook(deal=_as_plugin_deal(deal), seat=seat):
            # a plugin's slip ('kontra' for Call('kontra'), one Call for a list) told
            # here, not as an AttributeError deep in the engine's reading of the calls
            # (read once: a generator's calls, checked, were gone before they were added)
            listed = None if isinstance(calls, (str, Call)) else _listed(calls)
            if listed is None or not all(isinstance(c, Call) for c in listed):
                raise TypeError(
                    f"deberc_extra_calls returned {calls!r}, not a list of Call "
                    "(deberc_net.plugins.Call: [Call('kontra')])"
                )
            # a call without deberc_call_aliases is checked nowhere else: 're,double'
            # would be two calls of the legal= list, 'leave' typed ran the command
            wrong = next((why for c in listed if (why := _listed_name_refused(c.name))), None)
            if wrong is not None:
                raise TypeError(f"deberc_extra_calls: the call name {wrong}")
            out += listed
        return out

    return extra_calls


def _deal_event(caller: Any) -> Callable[[Deal, str], None] | None:
    if not caller.get_hookimpls():
        return None
    hook = resolved(caller)

    def deal_event(deal: Deal, name: str) -> None:
        hook(deal=_as_plugin_deal(deal), name=name)

    return deal_event


def _apply_extra_call(caller: Any) -> Callable[[Deal, int, Call], bool] | None:
    if not caller.get_hookimpls():
        return None
    hook = resolved(caller)

    def apply_extra_call(deal: Deal, seat: int, call: Call) -> bool:
        return bool(hook(deal=_as_plugin_deal(deal), seat=seat, call=call))

    return apply_extra_call


# ---------------------------------------------------------------------- loading
def _load(group: str, extra: Iterable[object]) -> list[LoadedRule]:
    """Import every plugin of the group (as pluggy's ``load_setuptools_entrypoints``
    does, from one scan of the installed distributions), name the broken one. The book
    registers them (once) and checks their hooks."""
    points = sorted(metadata.entry_points(group=group), key=lambda ep: ep.name)
    _refuse_duplicates(points)
    about: dict[int, tuple[str, str]] = {}  # id(distribution) -> (name, version)
    found: list[LoadedRule] = []
    published: dict[int, str] = {}  # id(plugin) -> the entry point that published it
    for point in points:
        try:
            plugin = point.load()
        except Exception as exc:
            raise PluginError(
                _dist_name(point),
                point.name,
                f"loading {point.value} failed: {told(exc, point.module)}",
            ) from exc
        dist, version = _distribution(point, about)
        first = published.setdefault(id(plugin), point.name)
        if first != point.name:
            raise PluginError(dist, point.name, f"the same plugin is published as {first!r} too")
        found.append(_describe(plugin, point.name, dist, version))
    found += [_describe(plugin, "", IN_PROCESS, "unpackaged") for plugin in extra]
    return found


def _distribution(point: metadata.EntryPoint, about: dict[int, tuple[str, str]]) -> tuple[str, str]:
    """The name and version of the distribution publishing ``point``: its metadata
    parsed once per distribution (each ``Distribution.version`` parses it again)."""
    dist = point.dist
    if dist is None:
        return "?", ""
    if id(dist) not in about:
        meta = dist.metadata
        about[id(dist)] = (meta["Name"], meta["Version"])
    return about[id(dist)]


def _refuse_duplicates(points: Sequence[metadata.EntryPoint]) -> None:
    """One rule name published twice: a name of ours is taken, the third party is to
    blame; between third parties neither came first, so both are named."""
    for name, group in itertools.groupby(points, key=lambda point: point.name):
        same = list(group)
        if len(same) < 2:
            continue  # the usual case: no distribution's metadata is read
        publishers = sorted({_dist_name(point) for point in same})
        theirs = [d for d in publishers if d != OWN_DISTRIBUTION]
        if len(publishers) < 2 or not theirs:
            continue  # one distribution twice: the book refuses the second rule
        said = [f"distribution {d!r}" for d in theirs[1:]]
        if OWN_DISTRIBUTION in publishers:
            said.insert(0, f"distribution {OWN_DISTRIBUTION!r} (the server's own rules)")
        problem = f"the same rule name is published by {' and '.join(said)} too"
        raise PluginError(theirs[0], name, problem, also=tuple(theirs[1:]))


def _dist_name(point: metadata.EntryPoint) -> str:
    return point.dist.name if point.dist is not None else "?"


def _name_of(plugin: object) -> str:
    """The rule's own name if it can say it, else what Python calls the object."""
    with contextlib.suppress(Exception):  # only a label for an error message
        info = plugin.deberc_rule_info()  # type: ignore[attr-defined]
        if isinstance(info, RuleInfo):
            return info.name
    return str(getattr(plugin, "__name__", None) or plugin)


def _takes_self(cls: type) -> bool:
    """Whether a class published as the plugin has a hook written as a method (taking
    ``self``): called on the class, it is unbound. A class whose hooks are all static
    or class methods is a plugin as it stands, as pluggy takes any namespace."""
    return any(
        inspect.isfunction(inspect.getattr_static(cls, name))
        for name in dir(cls)
        if name.startswith(HOOK_PREFIX)
    )


def _describe(plugin: object, name: str, dist: str, version: str) -> LoadedRule:
    """Ask the plugin about itself and check the answer; PluginError if it is wrong."""
    label = name or _name_of(plugin)
    if inspect.isclass(plugin) and _takes_self(plugin):  # unbound: 'missing ... self'
        raise PluginError(
            dist,
            label,
            f"it is the class {plugin.__name__}, not a plugin object: publish an instance "
            f"(the module's 'PLUGIN = {plugin.__name__}()', the entry point naming "
            f"'{plugin.__module__}:PLUGIN') or the module itself",
        )
    describe = getattr(plugin, "deberc_rule_info", None)
    if describe is None:
        raise PluginError(dist, label, "it does not describe itself (deberc_rule_info)")
    try:
        info = describe()
        aliases: object = getattr(plugin, "deberc_call_aliases", dict)()
    except Exception as exc:  # named with its line in the plugin's own code
        raise PluginError(dist, label, told(exc, _home(plugin)[0])) from exc
    if not isinstance(info, RuleInfo):
        raise PluginError(dist, label, f"deberc_rule_info returned {info!r}, not a RuleInfo")
    if name and info.name != name:
        raise PluginError(
            dist,
            name,
            f"its entry point is named {name!r} but the rule "
            f"calls itself {info.name!r}; the two must be the same",
        )
    _check_fields(dist, info)
    _check_outcome_words(dist, info)
    return LoadedRule(plugin, info, dist, version, _spoken(dist, info.name, aliases))


def _check_fields(dist: str, info: RuleInfo) -> None:
    """RuleInfo's fields of the types they are read as, told at loading: a bare string
    for ``conflicts`` (``("to-301")``, the comma forgotten) was read letter by letter,
    so the conflict was never seen and ``requires="dave"`` asked for an option 'd'; a
    missing summary failed only when a table or ``rules`` read it."""
    wrong = _wrong_field(info)
    if wrong is not None:
        raise PluginError(dist, info.name, f"deberc_rule_info: {wrong}")


def _wrong_field(info: RuleInfo) -> str | None:
    if not isinstance(info.summary, str) or not info.summary.strip():
        return f"summary is {info.summary!r}, not a sentence"
    if not isinstance(info.summary_ru, str):
        return f"summary_ru is {info.summary_ru!r}, not a str"
    for field, item, of in (
        ("players", "player counts", int),
        ("conflicts", "rule names", str),
        ("requires", "rule names", str),
    ):
        value: object = getattr(info, field)
        if isinstance(value, (str, int)):  # one, the tuple's comma forgotten
            return f"{field} is {value!r}, not a tuple of {item}: ({value!r},)"
        if not isinstance(value, Sequence) or not all(
            isinstance(v, of) and not isinstance(v, bool) for v in value
        ):
            return f"{field} is {value!r}, not a tuple of {item}"
    for field in ("needs_bidding", "bidding"):
        if not isinstance(getattr(info, field), bool):
            return f"{field} is {getattr(info, field)!r}, not True or False"
    return None


def _check_outcome_words(dist: str, info: RuleInfo) -> None:
    """A plugin's Russian outcome words (``RuleInfo.outcomes_ru``): words for words of
    its own, never a new word for one of the engine's outcomes (told at every table)."""
    words: object = info.outcomes_ru
    if not isinstance(words, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and k and v.strip() for k, v in words.items()
    ):
        raise PluginError(
            dist, info.name, f"outcomes_ru is {words!r}, not a mapping of outcomes to words"
        )
    engine = sorted(set(words) & {o.value for o in Outcome})
    if engine:
        raise PluginError(
            dist,
            info.name,
            f"outcomes_ru: {engine[0]!r} is the engine's own outcome; a plugin words only its own",
        )


def _spoken(dist: str, rule: str, aliases: object) -> dict[str, str]:
    """``{call: words}`` from deberc_call_aliases, checked, as ``{word: call}``."""
    if not isinstance(aliases, Mapping):
        raise PluginError(
            dist,
            rule,
            f"deberc_call_aliases returned {aliases!r}, not a mapping of call names to words",
        )
    words: dict[str, str] = {}
    for call, said in aliases.items():
        problem = _aliases_problem(call, said)
        if problem is not None:
            raise PluginError(dist, rule, f"deberc_call_aliases: {problem}")
        if not _TOKEN.fullmatch(call):
            raise PluginError(
                dist,
                rule,
                f"deberc_call_aliases: the call name {call!r} is no token: {_NO_TOKEN_WHY}; "
                "give people's words as its words",
            )
        for word in (call, *said):  # the call's own name is heard too, legal or not
            _refuse_engine_word(dist, rule, word, call)
            _refuse_command_word(dist, rule, word)
            spoken = " ".join(word.lower().split())
            if words.get(spoken, call) != call:
                raise PluginError(
                    dist,
                    rule,
                    f"deberc_call_aliases gives {word!r} to both {words[spoken]!r} and {call!r}",
                )
            words[spoken] = call
        _refuse_command_word(dist, rule, spoken_call(call), call)
    return words


def _aliases_problem(call: object, said: object) -> str | None:
    """What is wrong with one entry of deberc_call_aliases, each case in its own words:
    a bare word ({'kontra': 'контра'}) was told "'контра' is not a call name with a list
    of words", and a value of None or a number stopped serve with a traceback (a
    tryout, s50)."""
    if not isinstance(call, str):
        return f"the call name {call!r} is {_a(type(call).__name__)}, not a str"
    if isinstance(said, str):
        return f"{call!r} is given the bare word {said!r}, not a list of words: [{said!r}]"
    if not isinstance(said, Sequence):  # (a set's order, which words come first, varies)
        return f"{call!r} is given {said!r} ({_a(type(said).__name__)}), not a list of words"
    for word in said:
        if not isinstance(word, str):
            return f"{call!r} is given the word {word!r}, {_a(type(word).__name__)}, not a str"
        if not word.strip():
            return f"{call!r} is given an empty word ({word!r})"
    return None


# a call's name as the machine style writes it in lists (legal=a,b) and pairs (0:pas)
_TOKEN = re.compile(r"(?!-\Z)[^\s,:]+")  # "-" alone is none
# why a call's name must be a token, and begin with no server command
_NO_TOKEN_WHY = (
    "a bot reads it in a comma-separated legal= list and sends it back, so it holds no "
    "space, comma or colon (docs/protocol.md §3.1)"
)
_COMMAND_WHY = "typed at a table it runs the command, so it would never be heard as the call"


def _refuse_engine_word(dist: str, rule: str, word: str, call: str) -> None:
    """A word the engine reads as a call of its own is heard as that call before any
    plugin's (``pas``), or taken from a card or a declaration it would otherwise be
    (``Jc``, ``terts``): refused, unless it is that very call (a variant giving the
    engine's ``bella`` more words, as Tertz does)."""
    engine = engine_call(word)
    if engine is None or engine == Call(call):
        return
    what = f"a card: {engine.token()}" if engine.name == PLAY else engine.token()
    raise PluginError(
        dist,
        rule,
        f"deberc_call_aliases: {word!r} is the game's own call ({what}); "
        "a plugin's word may not take it",
    )


def _command_first(said: str) -> str | None:
    """The server command a line beginning with ``said`` runs (``parse_line`` reads its
    first word so, at a table too), if any."""
    words = said.split()
    first = command_word(words[0]) if words else ""
    return first if first in COMMANDS else None


@functools.lru_cache(maxsize=4096)
def _listed_name_refused(name: str) -> str | None:
    """Why a listed call may not be named ``name`` ('NAME is no token: …'), None if it
    may: a token, and begins with no server command as people are shown it
    (``spoken_call``: its hyphens as spaces, as deberc_call_aliases' names are judged at
    loading). Kept: each listed call's name is asked at every ask."""
    if not _TOKEN.fullmatch(name):
        return f"{name!r} is no token: {_NO_TOKEN_WHY}"
    if _command_first(spoken_call(name)) is not None:
        return f"{name!r} begins with a server command: {_COMMAND_WHY}"
    return None


def _refuse_command_word(dist: str, rule: str, word: str, shown_for: str = "") -> None:
    """A line whose first word names a server command is that command, at a table too
    (protocol/commands.py, ``parse_line``): a plugin's word beginning so (``state``,
    ``leave``, ``история``) would never be heard as its call, though ``calls`` lists it.
    ``shown_for``: the call whose name the human style's prompt shows as ``word``, its
    hyphens as spaces (``leave-it`` as 'leave it', which a person then types)."""
    first = _command_first(word)
    if first is not None:
        what = (
            f"the call name {shown_for!r}, shown to people as {word!r},"
            if shown_for
            else repr(word)
        )
        raise PluginError(
            dist,
            rule,
            f"deberc_call_aliases: {what} is the server's command {first!r}: {_COMMAND_WHY}",
        )
