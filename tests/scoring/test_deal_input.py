"""The one way in for a deal (scoring.deal_input): form strings and JSON read by the engine's reader,
with the spec's limits and the database's, the same for director entry, sheet imports and archives;
and a deal's place in playing order follows its number (the lowest missing deal is due next)."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from adjudication.engine.rules import ruleset_from
from adjudication.engine.sheet import MAX_HAND_CARDS, MAX_TEXT, MAX_VOID_DEALS
from scoring import deal_input, selectors, services
from scoring.models import Deal
from scoring.web.forms import PlayerResultForm

JAMAICAN = ruleset_from("jamaican")
FOUR = ["Ann", "Bob", "Cy", "Dee"]


def _record(game_set, director, data, **kwargs):
    return services.deal_record(game_set=game_set, user=director, data=data, **kwargs)


def _deal(number, *, out="Ann", scores=(0, 10, 20, 30)):
    return {
        "deal": number,
        "out": out,
        "results": {name: {"calls": 1, "penalty": score} for name, score in zip(FOUR, scores, strict=True)},
    }


def test_form_strings_become_the_engines_deal_value():
    deal = deal_input.read_deal(
        {
            "deal": "2",
            "out": "Ann",
            "doubled": "no",
            "dealer": "",
            "results": {"Bob": {"calls": "1", "hand": "as 7d"}},
        },
        players=FOUR,
        rules=JAMAICAN,
    )
    assert (deal.deal, deal.out, deal.doubled, deal.dealer) == (2, "Ann", False, None)
    bob = deal.results["Bob"]
    # Stored in file notation; the penalty R16 gives: A♠ 15 + 7♦ 7.
    assert (bob.calls, bob.hand, bob.penalty) == (1, "AS 7D", 22)


@pytest.mark.parametrize(
    ("data", "where", "words"),
    [
        (
            {"results": {"Bob": {"hand": " ".join(["2C"] * (MAX_HAND_CARDS + 1))}}},
            "results.Bob.hand",
            "61 cards",
        ),
        (
            {"results": {"Bob": {"penalty": 5, "other_reason": "x" * (MAX_TEXT + 1)}}},
            "results.Bob.other_reason",
            "500",
        ),
        ({"results": {"Bob": {"penalty": 5, "other_points": -5}}}, "results.Bob.other_points", "at least 0"),
        ({"results": {"Bob": {"penalty": deal_input.LARGEST_NUMBER + 1}}}, "results.Bob.penalty", "at most"),
        ({"results": {"Bob": {"penalty": 5, "total": -1}}}, "results.Bob.total", "at least 0"),
        ({"results": {"Bob": {"penalty": 5, "hand": "AS\x00"}}}, "results.Bob.hand", "NUL"),
        ({"deal": 10}, "deal", "1 to 9"),
    ],
)
def test_one_set_of_limits_names_the_place(data, where, words):
    with pytest.raises(ValidationError) as refused:
        deal_input.read_deal({"deal": 1, "out": "Ann", **data}, players=FOUR, rules=JAMAICAN)
    assert where in refused.value.message_dict
    assert words in " ".join(refused.value.message_dict[where])


def test_an_archives_place_prefixes_the_path():
    with pytest.raises(ValidationError) as refused:
        deal_input.read_deal(
            {"deal": 1, "results": {"Bob": {"calls": "two"}}}, players=FOUR, rules=JAMAICAN, path="deals[3]"
        )
    assert list(refused.value.message_dict) == ["deals[3].results.Bob.calls"]


def test_the_forms_limits_are_the_deal_inputs():
    fields = PlayerResultForm().fields
    assert fields["penalty"].max_value == fields["total"].max_value == deal_input.LARGEST_NUMBER
    assert fields["calls"].max_value == deal_input.LARGEST_CALLS
    assert fields["hand"].max_length == fields["other_reason"].max_length == MAX_TEXT


def test_a_set_with_deals_2_and_3_asks_for_deal_1(game_set, director):
    _record(game_set, director, _deal(2))
    _record(game_set, director, _deal(3))
    grid = selectors.set_grid(game_set)
    assert grid.next_number == 1
    assert [(row.number, row.placeholder) for row in grid.rows[:4]] == [
        (1, True),
        (2, False),
        (3, False),
        (4, True),
    ]
    outcome = _record(game_set, director, {k: v for k, v in _deal(1).items() if k != "deal"})
    assert outcome.deal.number == 1
    # Deal 1 takes its place first in playing order; deals 2 and 3 move after it.
    assert list(Deal.objects.filter(game_set=game_set).values_list("number", "sequence")) == [
        (1, 1),
        (2, 2),
        (3, 3),
    ]
    assert [finding.code for finding in outcome.findings] == ["SET_INCOMPLETE"]


def test_a_void_deal_goes_just_before_its_replay(game_set, director):
    _record(game_set, director, _deal(1))
    _record(game_set, director, _deal(2))
    _record(game_set, director, {"deal": 2, "void": True})
    order = list(Deal.objects.filter(game_set=game_set).values_list("number", "void"))
    assert order == [(1, False), (2, True), (2, False)]


def test_a_corrected_deal_number_moves_to_its_place(game_set, director):
    _record(game_set, director, _deal(1))
    wrong = _record(game_set, director, _deal(5)).deal
    _record(game_set, director, _deal(3))
    _record(game_set, director, {**_deal(2)}, deal=wrong, expected_version=1)
    assert list(Deal.objects.filter(game_set=game_set).values_list("number", flat=True)) == [1, 2, 3]


def test_the_live_check_sees_the_deal_where_it_will_be_saved(game_set, director):
    _record(game_set, director, _deal(2, scores=(0, 10, 20, 30)))
    preview = selectors.deal_preview(game_set, data=_deal(1, scores=(0, 5, 5, 5)))
    assert preview.number == 1
    # Bob's running total after deal 1 counts deal 1 alone, not deal 2 before it.
    assert [line.total for line in preview.players] == [0, 5, 5, 5]
    assert not [finding for finding in preview.findings if finding.code == "DEAL_SEQUENCE"]


def test_a_tenth_void_deal_is_refused_naming_the_field(game_set, director):
    for _ in range(MAX_VOID_DEALS):
        _record(game_set, director, {"deal": 1, "void": True})
    with pytest.raises(ValidationError) as refused:
        _record(game_set, director, {"deal": 1, "void": True})
    assert "void" in refused.value.message_dict
    assert Deal.objects.filter(game_set=game_set).count() == MAX_VOID_DEALS


def test_a_negative_bend_bonus_is_refused_for_an_event(director):
    with pytest.raises(ValidationError) as refused:
        services.event_create(
            user=director, name="Bent", date_start=date(2026, 12, 5), rules_overrides={"bend_bonus": -50}
        )
    assert "never negative" in " ".join(refused.value.message_dict["rules_overrides"])
