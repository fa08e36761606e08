"""Properties over simulated sheets: they validate clean, round-trip, and any one change is caught.

Example counts are modest so the engine suite stays fast; KALOOKI_HYPOTHESIS_PROFILE=thorough (or ci)
runs many more.
"""

import copy
import os

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from adjudication.engine.cards import FULL_DECK, JOKER, parse_cards
from adjudication.engine.rules import UPCARD, ruleset_from
from adjudication.engine.sheet import parse_sheet, sheet_to_dict
from adjudication.engine.simulator import simulate_sheet
from adjudication.engine.validator import has_errors, validate, validate_data

EXAMPLES = {"quick": 25, "ci": 100, "thorough": 1000}[os.environ.get("KALOOKI_HYPOTHESIS_PROFILE", "quick")]
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "call_limit": st.integers(0, 4),
        "overcall_penalty": st.integers(0, 100),
        "contract_error_penalty": st.integers(0, 100),
        "doubling_factor": st.integers(1, 3),
        "double_infractions": st.booleans(),
        "bend_bonus": st.sampled_from([0, 10, 20, 50]),  # R14: never negative
        "void_redeal": st.sampled_from(["same", "next"]),
        "card_values": st.fixed_dictionaries(
            {},
            optional={
                "joker": st.integers(0, 60),
                "black_ace": st.integers(0, 20),
                "red_ace": st.integers(0, 5),
                "ten_to_king": st.integers(1, 12),
            },
        ),
    },
)


@st.composite
def sheets(draw, *, with_hands=None, deals=None, default_values=False):
    preset = draw(st.sampled_from(["jamaican", "jamaican-large"]))
    overrides = draw(OVERRIDES)
    if default_values:
        overrides.pop("card_values", None)
    rules = ruleset_from(preset, overrides)
    most = min(rules.max_players, (rules.deck_size - UPCARD) // rules.largest_deal)
    # jamaican-large is there for its bigger tables (5–7 players).
    count = draw(st.integers(5 if preset == "jamaican-large" else rules.min_players, most))
    return simulate_sheet(
        draw(st.integers(0, 2**32)),
        [f"P{seat}" for seat in range(count)],
        rules=rules,
        with_hands=draw(st.booleans()) if with_hands is None else with_hands,
        deals=draw(st.one_of(st.just(9), st.integers(0, 8))) if deals is None else deals,
        void_rate=draw(st.sampled_from([0.0, 0.1, 0.3])),
        double_rate=draw(st.sampled_from([0.0, 0.25, 0.9])),
        infraction_rate=draw(st.sampled_from([0.0, 0.05, 0.3])),
        open_rate=draw(st.sampled_from([0.0, 0.5, 1.0])),
    )


def lines(sheet):
    """Every player's result in the scored deals."""
    return [line for deal in sheet["deals"] if not deal.get("void") for line in deal["results"].values()]


@PROPERTY
@given(sheets())
def test_every_simulated_sheet_validates_clean(sheet):
    complete = sum(1 for deal in sheet["deals"] if not deal.get("void")) == 9
    assert [item.code for item in validate_data(sheet)] == ([] if complete else ["SET_INCOMPLETE"])


@PROPERTY
@given(sheets())
def test_round_trip_is_identity(sheet):
    parsed = parse_sheet(sheet)
    assert parse_sheet(sheet_to_dict(parsed)) == parsed


@PROPERTY
@given(sheets(), st.data())
def test_both_doors_agree_on_a_broken_sheet(sheet, data):
    assume(lines(sheet))
    line = data.draw(st.sampled_from(lines(sheet)))
    line["penalty"] += data.draw(st.integers(1, 40))
    assert validate(parse_sheet(sheet)) == validate_data(sheet)


@PROPERTY
@given(sheets(deals=9), st.data())
def test_changing_any_score_is_caught(sheet, data):
    line = data.draw(st.sampled_from(lines(sheet)))
    change = data.draw(st.integers(-line["penalty"], 200).filter(bool))
    line["penalty"] += change
    assert has_errors(validate_data(sheet))


@PROPERTY
@given(sheets(deals=9), st.data())
def test_changing_any_total_is_caught(sheet, data):
    line = data.draw(st.sampled_from(lines(sheet)))
    line["total"] += data.draw(st.integers(-300, 300).filter(bool))
    assert has_errors(validate_data(sheet))


@PROPERTY
@given(sheets(deals=9, with_hands=True), st.data())
def test_changing_an_unopened_hands_call_count_is_caught(sheet, data):
    # V4: an unopened hand holds d + 2c cards, so its calls show in its size.
    unopened = [line for line in lines(sheet) if line.get("opened") is False]
    assume(unopened)
    line = data.draw(st.sampled_from(unopened))
    line["calls"] = data.draw(st.integers(0, 8).filter(lambda calls: calls != line["calls"]))
    assert has_errors(validate_data(sheet))


@PROPERTY
@given(sheets(deals=9), st.data())
def test_calls_above_the_limit_without_a_ruling_are_caught(sheet, data):
    # V3: any player, opened or not, winner or not.
    limit = parse_sheet(sheet).rules.call_limit
    unruled = [line for line in lines(sheet) if not line.get("overcall")]
    line = data.draw(st.sampled_from(unruled))
    line["calls"] = limit + data.draw(st.integers(1, 4))
    assert has_errors(validate_data(sheet))


@PROPERTY
@given(sheets(deals=9, with_hands=True), st.data())
def test_changing_any_card_is_caught(sheet, data):
    rules = parse_sheet(sheet).rules
    held = [line for line in lines(sheet) if line["hand"]]
    line = data.draw(st.sampled_from(held))
    cards = list(parse_cards(line["hand"]))
    position = data.draw(st.integers(0, len(cards) - 1))
    # A card of another value: a swap for an equal card (10♥ for J♦) is indistinguishable on paper.
    others = [
        card for card in (*FULL_DECK, JOKER) if rules.card_value(card) != rules.card_value(cards[position])
    ]
    cards[position] = data.draw(st.sampled_from(others))
    line["hand"] = " ".join(card.notation for card in cards)
    assert has_errors(validate_data(sheet))


@PROPERTY
@given(sheets(deals=9, with_hands=True, default_values=True), st.data())
def test_dropping_or_adding_a_card_is_caught(sheet, data):
    held = [line for line in lines(sheet) if line["hand"]]
    line = data.draw(st.sampled_from(held))
    cards = line["hand"].split()
    if data.draw(st.booleans()):
        del cards[data.draw(st.integers(0, len(cards) - 1))]
    else:
        cards.append(data.draw(st.sampled_from([card.notation for card in (*FULL_DECK, JOKER)])))
    line["hand"] = " ".join(cards)
    assert has_errors(validate_data(copy.deepcopy(sheet)))
