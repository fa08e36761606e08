"""Scoring a deal (R14–R18) and the worked examples of RULES.md."""

import pytest

from adjudication.engine.cards import InvalidCard, parse_cards
from adjudication.engine.rules import ruleset_from
from adjudication.engine.scoring import (
    deal_score,
    hand_text_value,
    hand_value,
    infraction_points,
    read_token,
    result_penalty,
    scored_infractions,
    token_values,
)

JAMAICAN = ruleset_from("jamaican")

# RULES.md, "Worked examples": hand, doubled, over-call, contract error, raw, scored.
WORKED_EXAMPLES = [
    ("AS AH JK 7D", True, False, False, 73, 146),
    ("KC KD 10S 9H 9C 5D 3S 2H AD", False, False, False, 59, 59),
    ("KC KD 10S 9H 9C 5D 3S 2H AD", True, False, False, 59, 118),
    ("JC AH", True, False, False, 11, 22),
    ("7D 7C 2S", True, True, False, 16, 82),
    ("QS QC QH 9S 9D 9C 4H 4D 4C 8H 8D 8S", False, False, True, 93, 143),
    ("AH AD AS AC", True, False, False, 32, 64),
    ("JK JK JK JK", True, False, False, 200, 400),
]


@pytest.mark.parametrize(("hand", "doubled", "overcall", "contract_error", "raw", "scored"), WORKED_EXAMPLES)
def test_worked_examples(hand, doubled, overcall, contract_error, raw, scored):
    points = infraction_points(rules=JAMAICAN, overcall=overcall, contract_error=contract_error)
    assert hand_value(parse_cards(hand), JAMAICAN) == raw
    assert hand_text_value(hand, JAMAICAN) == raw
    assert deal_score(raw=raw, doubled=doubled, infractions=points, rules=JAMAICAN) == scored


@pytest.mark.parametrize(
    ("card", "value"),
    [
        ("JK", 50),
        ("AS", 15),
        ("AC", 15),
        ("AH", 1),
        ("AD", 1),
        ("KH", 10),
        ("QS", 10),
        ("JD", 10),
        ("10C", 10),
        ("9S", 9),
        ("2H", 2),
    ],
)
def test_card_values_follow_r15(card, value):
    assert hand_value(parse_cards(card), JAMAICAN) == value


def test_card_values_are_ruleset_data():
    rules = ruleset_from("jamaican", {"card_values": {"joker": 25, "red_ace": 11}})
    assert hand_text_value("JK AH AS", rules) == 25 + 11 + 15


def test_the_winner_scores_infractions_and_the_bend_bonus_only_when_doubled():
    # R14 (revised): a bend bonus only ever adds to the winner's score.
    rules = ruleset_from("jamaican", {"bend_bonus": 20})
    assert deal_score(raw=40, doubled=False, infractions=0, rules=rules, winner=True) == 0
    assert deal_score(raw=40, doubled=True, infractions=0, rules=rules, winner=True) == 20
    assert deal_score(raw=0, doubled=False, infractions=50, rules=rules, winner=True) == 50


@pytest.mark.parametrize(("hand", "doubled", "overcall", "contract_error", "raw", "scored"), WORKED_EXAMPLES)
def test_a_result_line_s_penalty_from_its_hand_is_the_worked_example(
    hand, doubled, overcall, contract_error, raw, scored
):
    penalty = result_penalty(
        rules=JAMAICAN,
        winner=False,
        doubled=doubled,
        cards=parse_cards(hand),
        overcall=overcall,
        contract_error=contract_error,
        other_points=0,
    )
    assert penalty == scored


BEND_20 = ruleset_from("jamaican", {"bend_bonus": 20})
DOUBLE_INFRACTIONS = ruleset_from("jamaican", {"double_infractions": True})


@pytest.mark.parametrize(
    ("rules", "winner", "doubled", "hand", "overcall", "contract_error", "other", "penalty"),
    [
        # R16: the winner scores 0 plus infraction points, whatever cards are written.
        (JAMAICAN, True, False, None, False, False, 0, 0),
        (JAMAICAN, True, True, "", False, False, 0, 0),
        (JAMAICAN, True, False, "KS", False, False, 5, 5),
        (JAMAICAN, True, False, None, True, False, 10, 60),
        # R14: the bend bonus only when the winner bent the table; infractions undoubled.
        (BEND_20, True, True, None, False, False, 0, 20),
        (BEND_20, True, False, None, False, False, 0, 0),
        (DOUBLE_INFRACTIONS, True, True, None, False, False, 5, 5),
        # A non-winner: hand value × factor + infraction points (doubled only with double_infractions).
        (JAMAICAN, False, False, "KS 2H", False, False, 0, 12),
        (JAMAICAN, False, True, "KS 2H", False, False, 5, 29),
        (DOUBLE_INFRACTIONS, False, True, "KS 2H", False, False, 5, 34),
        (JAMAICAN, False, False, "", False, False, 0, 0),
        (JAMAICAN, False, False, "7D 7C 2S", True, True, 25, 141),
        # Without the cards only the sheet knows a non-winner's score.
        (JAMAICAN, False, False, None, False, False, 0, None),
        (JAMAICAN, False, True, None, True, True, 5, None),
    ],
)
def test_result_penalty(rules, winner, doubled, hand, overcall, contract_error, other, penalty):
    cards = None if hand is None else parse_cards(hand)
    assert (
        result_penalty(
            rules=rules,
            winner=winner,
            doubled=doubled,
            cards=cards,
            overcall=overcall,
            contract_error=contract_error,
            other_points=other,
        )
        == penalty
    )


def test_infractions_are_doubled_only_with_double_infractions():
    doubling = ruleset_from("jamaican", {"double_infractions": True})
    assert deal_score(raw=16, doubled=True, infractions=50, rules=doubling) == 132
    assert deal_score(raw=16, doubled=False, infractions=50, rules=doubling) == 66
    assert scored_infractions(50, rules=JAMAICAN, doubled=True) == 50


def test_the_doubling_factor_is_ruleset_data():
    tripling = ruleset_from("jamaican", {"doubling_factor": 3})
    assert deal_score(raw=73, doubled=True, infractions=0, rules=tripling) == 219


def test_each_ruling_adds_its_penalty_once():
    rules = ruleset_from("jamaican", {"overcall_penalty": 25, "contract_error_penalty": 40})
    assert infraction_points(rules=rules) == 0
    assert infraction_points(rules=rules, overcall=True) == 25
    assert infraction_points(rules=rules, overcall=True, contract_error=True, other=10) == 75


@pytest.mark.parametrize("text", ["as 10h Jk", "AS,10H,JK", "A♠ 10♥ JK", "as, th *", "AS\t10H\nJOKER"])
def test_hand_text_reads_every_spelling(text):
    assert hand_text_value(text, JAMAICAN) == 75


def test_hand_text_names_the_bad_token():
    with pytest.raises(InvalidCard, match="'1H'"):
        hand_text_value("AS 1H", JAMAICAN)


def test_token_table_matches_the_card_parser_in_every_case():
    table = token_values(JAMAICAN)
    for token in ("as", "aS", "As", "AS", "10h", "Th", "jk", "jK", "*", "q♣"):
        assert table[token] == hand_value(parse_cards(token), JAMAICAN)


@pytest.mark.parametrize(
    "token",
    [
        "as",
        "AS",
        "10h",
        "TH",
        "t♥",
        "10\u2665\ufe0f",
        "Q\u2663\ufe0e",
        "jk",
        "JoKeR",
        "*",
        "1H",
        "",
        "ZZ",
        "10",
    ],
)
def test_the_fast_token_reader_agrees_with_the_card_parser(token):
    try:
        parsed = parse_cards(token)
    except InvalidCard:
        parsed = None
    assert read_token(token) == (parsed[0] if parsed else None)
