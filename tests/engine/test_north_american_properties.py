"""Properties over simulated North American games: they validate clean, round-trip, and any changed score,
total, collected or card is caught.

Example counts as for the Jamaican properties (KALOOKI_HYPOTHESIS_PROFILE=thorough runs many more).
"""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from adjudication.engine.cards import FULL_DECK, JOKER, parse_cards
from adjudication.engine.north_american_game import finishing_order, game_state
from adjudication.engine.north_american_rules import north_american_ruleset_from
from adjudication.engine.north_american_sheet import NorthAmericanSheet
from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.engine.sheet import parse_sheet, sheet_to_dict
from adjudication.engine.validator import has_errors, validate, validate_data
from tests.engine.north_american_games import carry
from tests.engine.test_british_properties import lines
from tests.engine.test_validator_properties import PROPERTY

OVERRIDES = st.fixed_dictionaries(
    {"hands": st.integers(1, 12)},
    optional={
        "opening_points": st.sampled_from([40, 51, 60]),
        "card_values": st.fixed_dictionaries({}, optional={"joker": st.integers(15, 50)}),
        "hand_sizes": st.fixed_dictionaries({}, optional={"6": st.integers(9, 12), "2": st.integers(13, 17)}),
    },
)


@st.composite
def games(draw: Any, *, with_hands: bool | None = None, finished: bool = False) -> dict[str, Any]:
    rules = north_american_ruleset_from("north-american", draw(OVERRIDES))
    count = draw(st.integers(rules.min_players, rules.max_players))
    return simulate_north_american_sheet(
        draw(st.integers(0, 2**32)),
        [f"P{seat}" for seat in range(count)],
        rules=rules,
        hands=None if finished else draw(st.one_of(st.none(), st.integers(0, 12))),
        with_hands=draw(st.booleans()) if with_hands is None else with_hands,
        void_rate=draw(st.sampled_from([0.0, 0.1, 0.3])),
        open_rate=draw(st.sampled_from([0.0, 0.6, 1.0])),
        collected_rate=draw(st.sampled_from([0.0, 0.8, 1.0])),
        dealers=draw(st.booleans()),
    )


@PROPERTY
@given(games())
def test_every_simulated_game_validates_clean(game: dict[str, Any]) -> None:
    assert [item.code for item in validate_data(game)] in ([], ["GAME_UNFINISHED"])


@PROPERTY
@given(games(finished=True))
def test_a_game_played_out_is_finished_and_ordered_by_total(game: dict[str, Any]) -> None:
    assert validate_data(game) == []
    sheet = parse_sheet(game)
    assert isinstance(sheet, NorthAmericanSheet)
    assert game_state(sheet).over
    totals = [item.total for item in finishing_order(sheet)]
    assert totals == sorted(totals, reverse=True)
    # NA6: what the winners collected is what the others paid out.
    assert sum(totals) == sum(player.penalty for player in game_state(sheet).players)


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


@PROPERTY
@given(games(), st.data())
def test_changing_any_collected_is_caught(game: dict[str, Any], data: Any) -> None:
    written = [result for _, _, result in lines(game) if "collected" in result]
    assume(written)
    result = data.draw(st.sampled_from(written))
    result["collected"] += data.draw(st.integers(-result["collected"], 300).filter(bool))
    assert [item.code for item in validate_data(game) if item.is_error] == ["COLLECTED_MISMATCH"]


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
    last = next(hand for hand in reversed(game["deals"]) if not hand.get("void"))
    game["deals"].append({**last, "deal": last["deal"] + 1})
    game["deals"][-1].pop("dealer", None)
    assert [item.code for item in validate_data(game)] == ["GAME_OVER"]
