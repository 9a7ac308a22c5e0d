"""The search bot: its card-play solver against the engine's rules, its sampled worlds
against what the seat has seen, whole deals in-process under every player count and
some table options, and a few boards through the real ladder and server."""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients import heuristic_bot
from clients.protocol import parse
from clients.search.history import Tracker
from clients.search.local import call_for, history_of, view_of
from clients.search.policy import SearchPlayer
from clients.search.solver import Solver, mask_of
from clients.search.world import (
    BID_FLOOR,
    BID_SCALE,
    UNLIKELY_BID,
    bid_likelihood,
    knowledge,
    worlds,
)
from deberc_net.game import calls as C
from deberc_net.game.cards import card_points, card_str, parse_card
from deberc_net.game.deal import BIDDING, PLAY
from deberc_net.game.match import Match
from deberc_net.game.play import legal_cards, trick_winner
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.testing import build_ruleset
from tests.ladder.helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
TABLES = [  # players, variant, options
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ()),
    (2, "kharkov", ()),
    (4, "moscow", ("partner-exemption",)),
    (3, "kharkov", ("player-leads",)),
    (2, "moscow", ("sequence-by-strength", "bella-after-trick")),
]
# tables whose rule plugins add calls and phases of their own
PLUGIN_TABLES = [
    (2, "moscow", ("poltinniki", "manual-claim")),
    (2, "moscow", ("swap-before-extra",)),
    (4, "moscow", ("pair-combinations", "show-combination")),
]


def heuristic_steps(match: Match, rng: random.Random, limit: int = 400) -> Iterator[int]:
    """Play the match with the heuristic bot, yielding before each call."""
    for _ in range(limit):
        if match.over:
            return
        seat = match.to_act
        assert seat is not None
        yield seat
        match.apply(seat, call_for(match, seat, heuristic_bot.choose(view_of(match, seat))))


@pytest.mark.parametrize(("players", "variant", "options"), TABLES)
def test_solver_legal_cards_are_the_engines(
    players: int, variant: str, options: tuple[str, ...]
) -> None:
    rules = build_ruleset(players, variant, options)
    checked = 0
    for game in range(2):
        match = Match(rules, seed=f"legal{game}")
        for seat in heuristic_steps(match, random.Random(game)):
            deal = match.deal
            if deal.phase != PLAY or deal.pending is not None or seat != deal.turn:
                continue
            assert deal.trump is not None
            solver = Solver(
                deal.trump,
                [deal.side_of(x) for x in range(players)],
                partner_exemption=rules.settings.partner_exemption,
                side=[deal.side_of(x) for x in range(players)],
            )
            engine = [c.card for c in deal.legal_calls(seat) if c.card is not None]
            mask = solver.legal(mask_of(deal.hands[seat]), deal.trick.cards, seat)
            assert mask == mask_of(engine)
            checked += 1
    assert checked > 50


def _minimax(
    hands: list[list[int]], trick: list[tuple[int, int]], turn: int, trump: int, team: list[int]
) -> int:
    """The plain definition, with the engine's own rules of play, for small endings."""
    values = []
    for card in legal_cards(hands[turn], trick, trump):
        rest = [list(h) for h in hands]
        rest[turn].remove(card)
        now = [*trick, (turn, card)]
        if len(now) < len(hands):
            values.append(_minimax(rest, now, (turn + 1) % len(hands), trump, team))
            continue
        winner = trick_winner(now, trump)
        got = sum(card_points(c, trump) for _, c in now) + (0 if any(rest) else 10)
        later = _minimax(rest, [], winner, trump, team) if any(rest) else 0
        values.append((got if team[winner] == 0 else -got) + later)
    return max(values) if team[turn] == 0 else min(values)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_solver_finds_the_minimax_value_of_small_endings(players: int) -> None:
    rng = random.Random(players)
    for _ in range(12):
        deck = list(range(32))
        rng.shuffle(deck)
        size = 4 if players < 4 else 3
        hands = [deck[i * size : (i + 1) * size] for i in range(players)]
        trump = rng.randrange(4)
        team = [rng.randrange(2) for _ in range(players)]
        solver = Solver(trump, team)
        masks = [mask_of(h) for h in hands]
        expected = _minimax(hands, [], 0, trump, team)
        assert solver.value(masks, [], 0) == expected
        per_card = solver.move_values(masks, [], 0)
        assert set(per_card) == set(hands[0])
        best = max(per_card.values()) if team[0] == 0 else min(per_card.values())
        assert best == expected


# Matches whose talk the sampler once could not keep true, so that the search bot fell
# back to the heuristic bot for the rest of a deal: a run planted beside a card of the
# seat's made a longer one (p48: "terts", then J♣ played; Q♣ K♣ A♣ planted beside it
# made a fifty, and the replay refused the "terts").
@pytest.mark.parametrize(("players", "seed"), [(2, "p48"), (2, "p53"), (3, "p42"), (3, "p49")])
def test_every_decision_of_a_match_with_table_talk_has_sampled_worlds(
    players: int, seed: str
) -> None:
    rules = build_ruleset(players, "moscow")
    match = Match(rules, seed=seed)
    rng = random.Random(1)
    decisions = 0
    for seat in heuristic_steps(match, rng):
        if len(match.records) == 3:
            break
        view = view_of(match, seat)
        if len(view.legal) > 1:
            decisions += 1
            found = next(worlds(view, history_of(match), rules, rng, 1), None)
            assert found is not None, (seed, history_of(match).calls)
    assert decisions > 20


@pytest.mark.parametrize(("players", "variant", "options"), TABLES[:5])
def test_sampled_worlds_never_contradict_what_the_seat_has_seen(
    players: int, variant: str, options: tuple[str, ...]
) -> None:
    rules = build_ruleset(players, variant, options)
    rng = random.Random(7)
    sampled = 0
    for game in range(1):
        match = Match(rules, seed=f"worlds{game}")
        for seat in heuristic_steps(match, rng):
            deal = match.deal
            if deal.phase not in (BIDDING, PLAY) or rng.random() > 0.2:
                continue
            view, history = view_of(match, seat), history_of(match)
            known = knowledge(view, history, rules)
            seen = {parse_card(c) for c in view.hand}
            seen |= {c for cards in known.played for c in cards}
            seen.add(deal.original_turned)
            if view.fresa:
                seen.add(parse_card(view.fresa))
            for world in worlds(view, history, rules, rng, 3):
                sampled += 1
                assert sorted(world.hands[seat]) == sorted(deal.hands[seat])
                assert [len(h) for h in world.hands] == [len(h) for h in deal.hands]
                assert world.trick.cards == deal.trick.cards
                assert world.to_act == deal.to_act and world.phase == deal.phase
                for other in range(players):
                    if other == seat:
                        continue
                    hidden = set(world.hands[other])
                    # a card seen elsewhere is never in another seat's sampled hand...
                    if known.swapped_by != other:
                        assert not (
                            hidden & (seen - {deal.original_turned}) - set(deal.hands[other])
                        )
                    # ...nor a suit it showed it has none of
                    for card in hidden:
                        assert not known.forbid[other] >> card & 1
                    # the revealed voids are true in the real deal too
                    for card in deal.hands[other]:
                        assert not known.forbid[other] >> card & 1
    assert sampled > 15


def test_a_bid_is_likelier_the_more_the_hand_fits_it() -> None:
    ordering = [bid_likelihood(margin, True, BID_SCALE) for margin in (-30, -6, 0, 6, 30)]
    assert ordering == sorted(ordering) and ordering[2] == pytest.approx(0.5)
    assert ordering[0] == BID_FLOOR  # other players order on anything now and then
    assert bid_likelihood(6, False, BID_SCALE) == pytest.approx(1 - ordering[3])
    # scale 0: keep or reject by the threshold alone
    assert bid_likelihood(3, True, 0) == 1 and bid_likelihood(3, False, 0) == UNLIKELY_BID


def test_sampled_worlds_give_a_seat_that_ordered_a_stronger_hand_than_one_that_passed() -> None:
    rules = build_ruleset(2, "moscow", ())
    mean_strength = {}
    for bid in (C.IGRAYU, C.PAS):
        match = Match(rules, seed="bids")
        first = match.to_act
        assert first is not None
        match.apply(first, call_for(match, first, bid))
        seat = 1 - first  # the other seat's view, whether or not it acts next
        view, history = view_of(match, seat), history_of(match)
        trump = match.deal.original_turned >> 3
        found = [
            heuristic_bot.hand_strength([*w.hands[first], w.original_turned], trump)
            for w in worlds(view, history, rules, random.Random(3), 60)
        ]
        assert len(found) >= 40
        mean_strength[bid] = sum(found) / len(found)
    assert mean_strength[C.IGRAYU] > mean_strength[C.PAS] + 10


@pytest.mark.parametrize(("players", "variant", "options"), TABLES + PLUGIN_TABLES)
def test_search_player_plays_whole_deals_legally(
    players: int, variant: str, options: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 100 ms of the thread's CPU, not of the wall: on a busy machine a wall-clock limit
    # can pass before one world is drawn, and the decision falls back (counted below);
    # a level-1 decision takes ~5 ms, yet under load 15 ms of CPU once ran out (a
    # collection, cold caches), so the bound is generous: it only catches a hang
    from clients.search import clock

    monkeypatch.setattr(clock, "now", time.thread_time)
    rules = build_ruleset(players, variant, options)
    match = Match(rules, seed="search")
    bot = SearchPlayer(level=1, ms=100, seed="t", strict=True)
    bot.tracker.rules.players, bot.tracker.rules.variant = players, variant
    bot.tracker.rules.options = options
    deals = 0
    while not match.over and match.deal.deal_no <= 1:
        seat = match.to_act
        assert seat is not None
        view = view_of(match, seat)
        if seat == 0:
            bot.tracker.deals[1] = history_of(match)
            choice = bot.choose(view)
        else:
            choice = heuristic_bot.choose(view)
        assert choice in view.legal
        match.apply(seat, call_for(match, seat, choice))
        deals = len(match.records)
    assert deals >= 1 and bot.fallbacks == 0


def test_a_whistler_completing_a_trick_values_his_own_points_above_his_partners() -> None:
    """Three players, the whistlers searched as one side (no ``whistler_search``): a
    whistler's value of a card that completes the trick is the shared one plus
    ``own_share`` (3/4) of the trick's points if he takes it, less as much if the other
    whistler does, the same if the player does; the player's values are the shared ones."""
    rules = build_ruleset(3, "moscow", ())
    own = SearchPlayer(level=1, seed="own", strict=True, whistler_search=False)
    shared = SearchPlayer(level=1, seed="own", strict=True, whistler_search=False, own_share=0)
    checked = set()
    for game in range(6):
        match = Match(rules, seed=f"own{game}")
        for seat in heuristic_steps(match, random.Random(game)):
            deal = match.deal
            if deal.phase != PLAY or deal.player is None or len(deal.trick.cards) != 2:
                continue
            if deal.pending is not None:
                continue  # a question to answer, no card to play
            values = own.values_in(deal, seat, [], 0.0)
            base = shared.values_in(deal, seat, [], 0.0)
            assert values.keys() == base.keys() and values
            if seat == deal.player:
                assert values == base
                continue
            trump = deal.trump
            assert deal.turn == seat and trump is not None
            for card in deal.hands[seat]:
                if card_str(card) not in values:
                    continue  # not legal
                done = [*deal.trick.cards, (seat, card)]
                winner = trick_winner(done, trump)
                got = sum(card_points(c, trump) for _, c in done)
                expected = {seat: 0.75 * got, deal.player: 0.0}.get(winner, -0.75 * got)
                assert values[card_str(card)] - base[card_str(card)] == pytest.approx(expected)
                checked.add(
                    "mine" if winner == seat else "player" if winner == deal.player else "his"
                )
    assert checked == {"mine", "his", "player"}


def _ladder(tmp_path: Path, players: int, boards: int) -> dict[str, Any]:
    py = sys.executable
    argv = [
        py,
        "-m",
        "deberc_net",
        "ladder",
        "run",
        "--bot",
        f"search={py} -m clients.search_bot --level 1 --ms 30 --seed t",
        "--bot",
        f"heur={py} -m clients.heuristic_bot",
        "--players",
        str(players),
        "--deals",
        str(boards),
        "--seed",
        "sb",
        "--concurrency",
        "1",
        "--db",
        str(tmp_path / f"l{players}.sqlite3"),
        "--json",
    ]
    # the ladder in this process (its process is tests/ladder's), the bots as commands
    done = run_cli(argv[3:], cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_search_bot_plays_ladder_boards_through_the_server(tmp_path: Path) -> None:
    players, boards = 2, 2
    data = _ladder(tmp_path, players, boards)
    assert data["boards"] == boards and data["games"] == 2 * boards
    assert data["crashes"] == {} and data["forfeits"] == {}
    (pair,) = data["pairs"]
    assert {pair["a"], pair["b"]} == {"search", "heur"} and pair["deals"] == 2 * boards


def test_in_process_search_bot_plays_ladder_boards_with_its_level_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [  # the ladder, and its bots, in this process
        "ladder",
        "run",
        *(
            "--bot",
            "search=py:clients.search_bot --seed t",
            "--bot",
            "heur=py:clients.heuristic_bot",
        ),
        *("--players", "2", "--deals", "1", "--seed", "ip", "--concurrency", "1"),
        *("--db", str(tmp_path / "ip.sqlite3"), "--json"),
    ]
    monkeypatch.setenv("DEBERC_SEARCH_LEVEL", "1")
    monkeypatch.setenv("DEBERC_SEARCH_MS", "20")
    done = run_cli(argv, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["games"] == 2 and data["crashes"] == {} and data["forfeits"] == {}
    monkeypatch.setenv("DEBERC_SEARCH_LEVEL", "9")
    bad = run_cli(argv, cwd=ROOT)
    assert bad.returncode != 0 and "DEBERC_SEARCH_LEVEL must be" in bad.stderr
    assert "Traceback" not in bad.stderr  # refused before the ladder starts


def test_an_in_process_search_bot_hears_every_line_of_its_connection() -> None:
    brain = BotSpec("search", "py:clients.search_bot --seed t").brain_factory()("search-1")
    assert brain.on_event is not None and brain.on_board is not None
    brain.on_event(parse("event seq=3 table=7 kind=deal deal=1 dealer=0 turned=Ac"))
    player = brain.on_event
    assert isinstance(player, Tracker) and player.deals[7].turned == "Ac"


def test_a_ladder_board_is_a_match_of_one_deal_and_a_win_counts_beyond_its_points() -> None:
    bot = SearchPlayer(level=1, ms=15)
    deal = Match(build_ruleset(2, "moscow", ()), seed="w").deal
    assert bot.worth(deal, 0, [12, 0]) == 12  # a table outside a ladder: points alone
    bot.tracker(parse("ok cmd=sit table=4 seat=1 board=b7 text=You sit at table 4, seat 1."))
    assert bot.tracker.one_deal
    assert (
        bot.worth(deal, 0, [12, 0]) > bot.worth(deal, 0, [0, 0]) == 0 > bot.worth(deal, 0, [0, 12])
    )
    assert (
        bot.worth(deal, 0, [12, 0]) - bot.worth(deal, 0, [0, 12]) > 2 * 12
    )  # the win itself counts
    bot.tracker(parse("ok cmd=sit table=5 seat=0 text=You sit at table 5, seat 0."))
    assert not bot.tracker.one_deal and bot.worth(deal, 0, [0, 12]) == -12


def test_with_three_players_a_one_deal_board_counts_the_result_against_each_other_seat() -> None:
    bot = SearchPlayer(level=1, ms=15, win_bonus_three=150)
    deal = Match(build_ruleset(3, "moscow", ()), seed="w").deal
    bot.tracker(parse("ok cmd=sit table=4 seat=1 board=b7 text=You sit at table 4, seat 1."))
    # the same lead over the others' mean: ahead of both beats ahead of one only
    both = bot.worth(deal, 0, [30, 0, 0])
    one = bot.worth(deal, 0, [30, 60, -60])
    assert both - one == pytest.approx(bot.win_bonus_three)
    assert one == 30  # one seat beaten, one beating it: even
    assert bot.worth(deal, 0, [0, 0, 0]) == 0
    assert bot.worth(deal, 0, [0, 30, 30]) == -30 - bot.win_bonus_three


def test_the_search_clock_is_the_threads_cpu_time_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib
    import time

    from clients.search import clock

    try:
        monkeypatch.setenv(clock.CLOCK_ENV, "cpu")
        assert importlib.reload(clock).now is time.thread_time
        monkeypatch.delenv(clock.CLOCK_ENV)
        assert importlib.reload(clock).now is time.perf_counter
    finally:
        monkeypatch.undo()
        importlib.reload(clock)


def test_four_sevens_in_play_are_valued_as_a_redeal_against_the_cards() -> None:
    match = Match(build_ruleset(2, "moscow", ()), seed="s7/30")  # seat 1 gets four sevens
    while match.deal.phase != PLAY:
        seat = match.to_act
        assert seat is not None
        legal = [t for t in view_of(match, seat).legal if t != C.SEVENS]
        said = heuristic_bot.choose(view_of(match, seat))
        match.apply(seat, call_for(match, seat, said if said in legal else legal[0]))
    view = view_of(match, 1)
    assert match.deal.to_act == 1 and C.SEVENS in view.legal
    bot = SearchPlayer(level=1, ms=10**6, seed="s7", strict=True)
    bot.tracker.deals[view.table] = history_of(match)
    values = bot.values_in(match.deal, 1, [C.SEVENS], 0.0)
    assert values[C.SEVENS] == 0  # a redeal: nobody writes
    cards = {t: v for t, v in values.items() if t != C.SEVENS}
    assert set(cards) == {t for t in view.legal if t != C.SEVENS}
    # the opponent ordered and this hand loses in every card: the redeal is better
    assert max(cards.values()) < 0 and bot.choose(view) == C.SEVENS
