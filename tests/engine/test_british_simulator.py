"""The British simulator plays whole, consistent, reproducible games (tests and benchmarks break them)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from adjudication.engine.british_game import finishing_order, game_state
from adjudication.engine.british_rules import british_ruleset_from
from adjudication.engine.british_sheet import BritishSheet
from adjudication.engine.british_simulator import simulate_british_many, simulate_british_sheet
from adjudication.engine.cards import parse_cards
from adjudication.engine.sheet import parse_sheet
from adjudication.engine.validator import validate_data
from tests.engine.british_games import hand_value


def scored(game: dict[str, Any]) -> list[dict[str, Any]]:
    return [hand for hand in game["deals"] if not hand.get("void")]


def test_the_same_seed_gives_the_same_game() -> None:
    assert simulate_british_sheet(11) == simulate_british_sheet(11)
    assert simulate_british_sheet(11) != simulate_british_sheet(12)
    assert simulate_british_many(5, 3) == simulate_british_many(5, 3)


@pytest.mark.parametrize(
    ("players", "preset", "overrides"),
    [
        (("Ann", "Bob"), "british", None),
        (("Ann", "Bob", "Cy", "Dee"), "british", None),
        (tuple("ABCDE"), "british", None),
        (("Ann", "Bob", "Cy"), "british-swedish", None),
        (("Ann", "Bob", "Cy", "Dee"), "british-501", {"kalookie_doubles": True}),
        (("Ann", "Bob", "Cy"), "british", {"buy_ins": 0}),
        (("Ann", "Bob", "Cy"), "british-301", {"card_values": {"joker": 25}, "opening_points": 51}),
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_a_simulated_game_is_played_to_its_end_and_checks_out(
    players: tuple[str, ...], preset: str, overrides: dict[str, Any] | None, seed: int
) -> None:
    rules = british_ruleset_from(preset, overrides)
    game = simulate_british_sheet(seed, players, rules=rules)
    assert validate_data(game) == []
    sheet = parse_sheet(game)
    assert isinstance(sheet, BritishSheet)
    state = game_state(sheet)
    assert state.over and state.winner is not None
    assert len(finishing_order(sheet)) == len(players)


def test_every_hand_is_scored_from_its_cards_and_the_totals_add_up() -> None:
    game = simulate_british_sheet(3, ["Ann", "Bob", "Cy", "Dee"])
    totals = dict.fromkeys(game["players"], 0)
    for hand in scored(game):
        for name, result in hand["results"].items():
            # B5, and BV1: the winner's hand is empty.
            assert result["penalty"] == hand_value(result["hand"])
            assert (result["hand"] == "") is (name == hand["out"])
            totals[name] += result["penalty"]
            assert result["total"] == totals[name]
            if result.get("buy_in"):
                totals[name] = result["reset_to"]


def test_the_cards_of_one_hand_come_from_one_deck() -> None:
    for game in simulate_british_many(1, 20):
        for hand in scored(game):
            counts = Counter(
                card for result in hand["results"].values() for card in parse_cards(result["hand"])
            )
            assert all(count <= 2 for count in counts.values())


def test_games_have_buy_ins_eliminations_void_hands_and_kalookies() -> None:
    games = simulate_british_many(7, 60, kalookie_rate=0.1, void_rate=0.1)
    lines = [result for game in games for hand in scored(game) for result in hand["results"].values()]
    assert any(result.get("buy_in") for result in lines)
    assert any(hand.get("void") for game in games for hand in game["deals"])
    assert any(hand["kalookie"] for game in games for hand in scored(game))
    # Someone goes out of the game without buying in: they play no later hand.
    assert any(len(scored(game)[-1]["results"]) < len(game["players"]) for game in games)


def test_a_kalookie_doubles_the_others_under_its_variant() -> None:
    rules = british_ruleset_from("british", {"kalookie_doubles": True})
    game = simulate_british_sheet(2, rules=rules, kalookie_rate=1.0)
    for hand in scored(game):
        for result in hand["results"].values():
            assert result["penalty"] == 2 * hand_value(result["hand"])


def test_a_game_can_stop_while_in_play_and_without_hands_or_dealers() -> None:
    game = simulate_british_sheet(4, hands=3, with_hands=False, dealers=False)
    assert [hand["deal"] for hand in scored(game)] == [1, 2, 3]
    assert all("hand" not in result for hand in scored(game) for result in hand["results"].values())
    assert "first_dealer" not in game and all("dealer" not in hand for hand in game["deals"])
    assert [item.code for item in validate_data(game)] == ["GAME_UNFINISHED"]


@pytest.mark.parametrize(
    ("players", "message"), [(["Ann"], "1 players cannot sit"), (["A", "A"], "must differ")]
)
def test_a_table_the_rules_cannot_seat_is_refused(players: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate_british_sheet(1, players)
