"""The simulator makes valid, reproducible sheets (tests and benchmarks break them on purpose)."""

import itertools
from collections import Counter

import pytest

from adjudication.engine.cards import parse_cards
from adjudication.engine.rules import ruleset_from
from adjudication.engine.sheet import MAX_VOID_DEALS
from adjudication.engine.simulator import simulate_many, simulate_sheet
from adjudication.engine.validator import validate_data

LARGE = ruleset_from("jamaican-large")


def scored(sheet):
    return [deal for deal in sheet["deals"] if not deal.get("void")]


def test_the_same_seed_gives_the_same_sheet():
    assert simulate_sheet(11) == simulate_sheet(11)
    assert simulate_sheet(11) != simulate_sheet(12)
    assert simulate_many(5, 3) == simulate_many(5, 3)


@pytest.mark.parametrize(
    ("players", "rules"),
    [
        (("Ann", "Bob", "Cy"), None),
        (("Ann", "Bob", "Cy", "Dee"), None),
        (tuple("ABCDEF"), None),
        (tuple("ABCDE"), LARGE),
        (tuple("ABCDEFG"), LARGE),
        (("Ann", "Bob", "Cy", "Dee"), ruleset_from("jamaican", {"call_limit": 0, "bend_bonus": 20})),
        (
            ("Ann", "Bob", "Cy", "Dee"),
            ruleset_from("jamaican", {"void_redeal": "next", "doubling_factor": 3}),
        ),
    ],
)
@pytest.mark.parametrize("with_hands", [True, False])
def test_simulated_sheets_validate_clean(players, rules, with_hands):
    for seed in range(40):
        sheet = simulate_sheet(
            seed, players, rules=rules, with_hands=with_hands, void_rate=0.2, infraction_rate=0.2
        )
        assert validate_data(sheet) == [], seed


def test_a_set_in_play_is_only_incomplete():
    assert [item.code for item in validate_data(simulate_sheet(3, deals=4))] == ["SET_INCOMPLETE"]
    assert len(scored(simulate_sheet(3, deals=0))) == 0


def test_hands_follow_the_calls_and_the_deck():
    rules = ruleset_from("jamaican")
    for sheet in simulate_many(1, 30, void_rate=0.2):
        for deal in scored(sheet):
            size = rules.deal_size(deal["deal"])
            cards = Counter()
            for name, line in deal["results"].items():
                hand = parse_cards(line["hand"])
                cards.update(hand)
                if name == deal["out"]:
                    assert hand == ()
                elif line.get("opened"):
                    assert 1 <= len(hand) <= 2 * line["calls"]
                elif line.get("opened") is False:
                    assert len(hand) == size + 2 * line["calls"]
            assert all(
                count <= (rules.jokers if card.is_joker else rules.decks) for card, count in cards.items()
            )


def test_a_winner_without_a_call_always_doubled():
    winners = [
        (deal["doubled"], deal["results"][deal["out"]]["calls"])
        for sheet in simulate_many(2, 40)
        for deal in scored(sheet)
    ]
    assert all(doubled for doubled, calls in winners if calls == 0)
    assert {doubled for doubled, _ in winners} == {True, False}


def test_rulings_carry_their_penalties_and_never_sit_on_a_forbidden_winner():
    lines = [
        (deal, name, line)
        for sheet in simulate_many(3, 60, infraction_rate=0.3)
        for deal in scored(sheet)
        for name, line in deal["results"].items()
    ]
    kinds = Counter(
        key for _, _, line in lines for key in ("overcall", "contract_error", "other_points") if key in line
    )
    assert set(kinds) == {"overcall", "contract_error", "other_points"}
    for deal, name, line in lines:
        if name == deal["out"]:
            assert not line.get("contract_error")
            assert not (deal["doubled"] and line.get("overcall"))
        if line.get("overcall"):
            assert line["calls"] > 3


def test_a_contract_error_leaves_the_player_unopened_with_an_unopened_hand():
    # R18: the lay-down went back to hand, so never marked opened and holding d + 2c (V4).
    rules = ruleset_from("jamaican")
    errors = [
        (rules.deal_size(deal["deal"]), line)
        for sheet in simulate_many(5, 80, infraction_rate=0.3, open_rate=1.0)
        for deal in scored(sheet)
        for line in deal["results"].values()
        if line.get("contract_error")
    ]
    assert len(errors) > 20
    for size, line in errors:
        assert line.get("opened") is not True
        assert len(parse_cards(line["hand"])) == size + 2 * line["calls"]


def test_at_most_nine_void_deals_in_a_set():
    sheet = simulate_sheet(1, void_rate=0.95)
    assert sum(1 for deal in sheet["deals"] if deal.get("void")) == MAX_VOID_DEALS
    assert len(scored(sheet)) == 9
    assert validate_data(sheet) == []


def test_void_deals_are_followed_by_their_replay():
    sheet = simulate_sheet(4, void_rate=0.5)
    entries = sheet["deals"]
    assert any(deal.get("void") for deal in entries)
    for before, after in itertools.pairwise(entries):
        if before.get("void"):
            assert after["deal"] == before["deal"]


def test_dealers_pass_to_the_left():
    sheet = simulate_sheet(6, void_rate=0)
    seat = sheet["players"].index(sheet["first_dealer"])
    assert [deal["dealer"] for deal in sheet["deals"]] == [
        sheet["players"][(seat + number) % 4] for number in range(9)
    ]


def test_totals_add_up():
    sheet = simulate_sheet(8)
    for name in sheet["players"]:
        running = 0
        for deal in scored(sheet):
            running += deal["results"][name]["penalty"]
            assert deal["results"][name]["total"] == running


def test_rule_overrides_are_written_on_the_sheet():
    sheet = simulate_sheet(1, rules=ruleset_from("jamaican", {"bend_bonus": 20}))
    assert sheet["rules"] == {"bend_bonus": 20}
    assert "rules" not in simulate_sheet(1)


@pytest.mark.parametrize(
    ("players", "rules", "problem"),
    [
        (("Ann", "Bob"), None, "cannot sit"),
        (tuple("ABCDEFG"), None, "cannot sit"),
        (("Ann", "Ann", "Bob"), None, "must differ"),
    ],
)
def test_impossible_tables_are_refused(players, rules, problem):
    with pytest.raises(ValueError, match=problem):
        simulate_sheet(1, players, rules=rules)
