"""Properties over simulated British games: they validate clean, round-trip, and any changed score, total,
reset value or buy-in is caught.

Example counts as for the Jamaican properties (KALOOKI_HYPOTHESIS_PROFILE=thorough runs many more).
"""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from adjudication.engine.british_game import game_state
from adjudication.engine.british_rules import british_ruleset_from
from adjudication.engine.british_sheet import BritishSheet
from adjudication.engine.british_simulator import simulate_british_sheet
from adjudication.engine.cards import FULL_DECK, JOKER, parse_cards
from adjudication.engine.sheet import parse_sheet, sheet_to_dict
from adjudication.engine.validator import has_errors, validate, validate_data
from tests.engine.british_games import carry
from tests.engine.test_validator_properties import PROPERTY

OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "buy_ins": st.integers(0, 3),
        "kalookie_doubles": st.booleans(),
        "opening_points": st.sampled_from([30, 40, 51]),
        "card_values": st.fixed_dictionaries({}, optional={"joker": st.integers(10, 25)}),
    },
)


@st.composite
def games(draw: Any, *, with_hands: bool | None = None, finished: bool = False) -> dict[str, Any]:
    rules = british_ruleset_from(
        draw(st.sampled_from(["british", "british-swedish", "british-301", "british-501"])), draw(OVERRIDES)
    )
    count = draw(st.integers(rules.min_players, rules.max_players))
    return simulate_british_sheet(
        draw(st.integers(0, 2**32)),
        [f"P{seat}" for seat in range(count)],
        rules=rules,
        hands=None if finished else draw(st.one_of(st.none(), st.integers(0, 12))),
        with_hands=draw(st.booleans()) if with_hands is None else with_hands,
        void_rate=draw(st.sampled_from([0.0, 0.1, 0.3])),
        kalookie_rate=draw(st.sampled_from([0.0, 0.1, 0.5])),
        open_rate=draw(st.sampled_from([0.0, 0.6, 1.0])),
        buy_in_rate=draw(st.sampled_from([0.0, 0.5, 1.0])),
        dealers=draw(st.booleans()),
    )


def lines(game: dict[str, Any]) -> list[tuple[int, str, dict[str, Any]]]:
    """Every (hand, player, result) of the scored hands."""
    return [
        (hand["deal"], name, result)
        for hand in game["deals"]
        if not hand.get("void")
        for name, result in hand["results"].items()
    ]


@PROPERTY
@given(games())
def test_every_simulated_game_validates_clean(game: dict[str, Any]) -> None:
    assert [item.code for item in validate_data(game)] in ([], ["GAME_UNFINISHED"])


@PROPERTY
@given(games(finished=True))
def test_a_game_played_out_is_finished(game: dict[str, Any]) -> None:
    assert validate_data(game) == []


@PROPERTY
@given(games())
def test_round_trip_is_identity(game: dict[str, Any]) -> None:
    parsed = parse_sheet(game)
    assert sheet_to_dict(parsed) == game
    assert parse_sheet(sheet_to_dict(parsed)) == parsed


@PROPERTY
@given(games(), st.data())
def test_both_doors_agree_on_a_broken_game(game: dict[str, Any], data: Any) -> None:
    assume(lines(game))
    _, _, result = data.draw(st.sampled_from(lines(game)))
    result["penalty"] += data.draw(st.integers(1, 40))
    assert validate(parse_sheet(game)) == validate_data(game)


@PROPERTY
@given(games(), st.data())
def test_changing_any_score_is_caught(game: dict[str, Any], data: Any) -> None:
    assume(lines(game))
    _, _, result = data.draw(st.sampled_from(lines(game)))
    result["penalty"] += data.draw(st.integers(-result["penalty"], 200).filter(bool))
    assert has_errors(validate_data(game))


@PROPERTY
@given(games(with_hands=True), st.data())
def test_changing_any_score_and_carrying_it_is_caught_with_hands(game: dict[str, Any], data: Any) -> None:
    assume(lines(game))
    number, name, result = data.draw(st.sampled_from(lines(game)))
    carry(
        game, number, name, result["penalty"] + data.draw(st.integers(-result["penalty"], 200).filter(bool))
    )
    assert has_errors(validate_data(game))


@PROPERTY
@given(games(), st.data())
def test_changing_any_total_is_caught(game: dict[str, Any], data: Any) -> None:
    assume(lines(game))
    _, _, result = data.draw(st.sampled_from(lines(game)))
    result["total"] += data.draw(st.integers(-300, 300).filter(bool))
    assert has_errors(validate_data(game))


def buy_ins(game: dict[str, Any]) -> list[tuple[int, str, dict[str, Any]]]:
    return [line for line in lines(game) if line[2].get("buy_in")]


@PROPERTY
@given(games(), st.data())
def test_changing_any_reset_value_is_caught(game: dict[str, Any], data: Any) -> None:
    assume(buy_ins(game))
    _, _, result = data.draw(st.sampled_from(buy_ins(game)))
    result["reset_to"] += data.draw(st.integers(-result["reset_to"], 300).filter(bool))
    assert has_errors(validate_data(game))


@PROPERTY
@given(games(finished=True), st.data())
def test_dropping_any_buy_in_is_caught(game: dict[str, Any], data: Any) -> None:
    # B7: without the buy-in the player is out, yet the game goes on with them.
    last = game["deals"][-1]["deal"]
    earlier = [line for line in buy_ins(game) if line[0] != last]
    assume(earlier)
    _, _, result = data.draw(st.sampled_from(earlier))
    del result["buy_in"], result["reset_to"]
    assert has_errors(validate_data(game))


@PROPERTY
@given(games(), st.data())
def test_a_buy_in_on_a_line_not_over_the_limit_is_caught(game: dict[str, Any], data: Any) -> None:
    limit = parse_sheet(game).rules.limit
    under = [line for line in lines(game) if not line[2].get("buy_in") and line[2]["total"] <= limit]
    assume(under)
    _, _, result = data.draw(st.sampled_from(under))
    result |= {"buy_in": True, "reset_to": data.draw(st.integers(0, limit))}
    assert has_errors(validate_data(game))


@PROPERTY
@given(games(with_hands=True), st.data())
def test_changing_any_card_is_caught(game: dict[str, Any], data: Any) -> None:
    rules = parse_sheet(game).rules
    held = [result for _, _, result in lines(game) if result["hand"]]
    assume(held)
    result = data.draw(st.sampled_from(held))
    cards = list(parse_cards(result["hand"]))
    position = data.draw(st.integers(0, len(cards) - 1))
    # A card of another value: a swap for an equal card (10♥ for J♦) is indistinguishable on paper.
    others = [
        card for card in (*FULL_DECK, JOKER) if rules.card_value(card) != rules.card_value(cards[position])
    ]
    cards[position] = data.draw(st.sampled_from(others))
    result["hand"] = " ".join(card.notation for card in cards)
    assert has_errors(validate_data(game))


@PROPERTY
@given(games(finished=True))
def test_a_hand_after_the_end_is_caught(game: dict[str, Any]) -> None:
    sheet = parse_sheet(game)
    assert isinstance(sheet, BritishSheet)
    winner = game_state(sheet).winner
    game["deals"].append(
        {"deal": game["deals"][-1]["deal"] + 1, "out": winner, "results": {winner: {"penalty": 0}}}
    )
    assert [item.code for item in validate_data(game)] == ["GAME_OVER"]
