"""Sets, runs and openings (RULES.md R5–R8, R10, R11; the examples of seeds 000, 003 and 004)."""

from __future__ import annotations

import dataclasses
import json
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudication.engine.cards import JOKER, SUITS, Card, InvalidCard, parse_cards
from adjudication.engine.laydown import InvalidLaydown, LaydownVerdict, check_laydown, parse_laydown
from adjudication.engine.melds import (
    IllegalPlay,
    InvalidMeld,
    Meld,
    check_run,
    check_set,
    classify,
    extend_run,
    extend_set,
    replace_run_joker,
)
from adjudication.engine.rules import InvalidDeal, ruleset_from


def rules_of(problems: object) -> list[str]:
    return [problem.rule for problem in problems]  # type: ignore[attr-defined]


# --- sets (R5) ----------------------------------------------------------------------------------

VALID_SETS = [
    "QS QH QD",
    "QS QH QD QC",
    "QS QS QD",  # duplicated suits are allowed
    "QS QS QS QS",
    "QS QH JK",
    "JK QS QH",
    "QS JK QH",
    "QS QH JK JK",  # two naturals is enough, however many jokers
    "JK JK QS QS",
    "10S 10H TD JK",
    "QS QH QD QC QS QH JK",
    "AS AH AD",
    "2C 2C JK",
    "KS KH KD",  # seed 000's going-out hand
    "6S 6H 6D",
]


@pytest.mark.parametrize("text", VALID_SETS)
def test_a_set_is_three_or_more_of_one_rank_with_two_naturals(text: str) -> None:
    cards = parse_cards(text)
    check = check_set(cards)
    assert check.valid and check.problems == ()
    assert check.meld == Meld(cards, "set")
    assert check.meld.cards == cards  # a set keeps the order it was laid in
    assert classify(cards) == check


INVALID_SETS = [
    ("QS QH", "a set needs at least 3 cards, this has 2"),
    ("QS", "a set needs at least 3 cards, this has 1"),
    ("QS JK JK", "a set needs at least 2 natural cards besides its jokers, this has 1"),
    ("JK JK JK", "this has 0"),
    ("QS QH KS", "a set is cards of one rank; this mixes Q and K"),
    ("QS 4H 9C", "this mixes Q, 4 and 9"),
]


@pytest.mark.parametrize(("text", "why"), INVALID_SETS)
def test_a_set_that_breaks_r5_is_reported(text: str, why: str) -> None:
    check = check_set(parse_cards(text))
    assert not check.valid and check.meld is None
    assert set(rules_of(check.problems)) == {"R5"}
    assert any(why in problem.message for problem in check.problems)


def test_a_set_reports_every_problem_it_has() -> None:
    check = check_set(parse_cards("QS JK"))
    assert [problem.message for problem in check.problems] == [
        "a set needs at least 3 cards, this has 2",
        "a set needs at least 2 natural cards besides its jokers, this has 1",
    ]


# --- runs (R6) ----------------------------------------------------------------------------------

VALID_RUNS = [
    # (as laid, kept low to high)
    ("4H 5H 6H 7H", "4H 5H 6H 7H"),
    ("9C 10C JC QC", "9C 10C JC QC"),
    ("7H 6H 5H 4H", "4H 5H 6H 7H"),  # laid high to low
    ("5H 7H 4H 6H", "4H 5H 6H 7H"),  # naturals alone may come in any order
    ("AH 2H 3H 4H", "AH 2H 3H 4H"),  # ace low
    ("2H AH 4H 3H", "AH 2H 3H 4H"),
    ("JH QH KH AH", "JH QH KH AH"),  # ace high
    ("AH KH QH JH", "JH QH KH AH"),
    ("8H JK 10H JH", "8H JK 10H JH"),  # seed 000
    ("JH 10H JK 8H", "8H JK 10H JH"),  # the same run laid high to low
    ("JK 5H JK 7H", "JK 5H JK 7H"),  # jokers apart
    ("4H 5H JK 7H 8H", "4H 5H JK 7H 8H"),
    ("JK 2H 3H 4H", "JK 2H 3H 4H"),  # the joker is a low ace
    ("JH QH KH JK", "JH QH KH JK"),  # the joker is a high ace
    ("JK QH KH AH", "JK QH KH AH"),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),
    ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
    ("3S 4S 5S 6S 7S 8S 9S 10S", "3S 4S 5S 6S 7S 8S 9S 10S"),
]


@pytest.mark.parametrize(("laid", "kept"), VALID_RUNS)
def test_a_run_is_four_or_more_in_sequence_of_one_suit(laid: str, kept: str) -> None:
    check = check_run(parse_cards(laid))
    assert check.valid and check.problems == ()
    assert check.meld is not None and check.meld.notation == kept
    assert check.cards == parse_cards(laid)  # the check remembers the cards as laid
    assert classify(parse_cards(laid)) == check


INVALID_RUNS = [
    # (as laid, what the director is told) — every one an R6 problem
    ("4H 5H 6H", "a run needs at least 4 cards, this has 3"),
    ("QH KH AH", "a run needs at least 4 cards"),
    ("4H 5H 6S 7H", "a run is of one suit; this mixes ♥ and ♠"),
    ("8H JK JK JH", "two jokers stand side by side"),  # jokers adjacent
    ("JK JK 6H 7H", "two jokers stand side by side"),
    ("4H 5H JK JK", "two jokers stand side by side"),
    ("KH AH 2H 3H", "never turns the corner (K-A-2)"),  # K-A-2-3 wraps
    ("QH KH AH 2H", "never turns the corner"),
    ("2H AH KH QH", "never turns the corner"),
    ("2H 3H KH AH", "never turns the corner"),  # ace in the middle, however laid
    ("JK AH 2H 3H", "never turns the corner"),  # the joker would be a K below the ace
    ("QH KH AH JK", "never turns the corner"),  # the joker would follow the high ace
    ("JK KH JK 2H", "never turns the corner"),  # the joker would be the ace in the middle
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "at most 13 cards"),  # no 14-card wrap
    ("4H 5H 7H 8H", "not consecutive: 6♥ is missing"),
    ("4H 5H 8H 9H", "not consecutive: 6♥ and 7♥ are missing"),
    ("AH 3H 2H 5H", "not consecutive: 4♥ is missing"),
    ("4H 4H 5H 6H", "4♥ twice; a run holds each card once"),
    ("10H JK 8H JH", "not in order as laid"),  # the jokers' places as laid count
    ("4H 6H JK 7H", "no joker stands between 4♥ and 6♥ where 1 card is missing"),
    ("4H JK 8H 9H", "1 joker stands between 4♥ and 8♥ where 3 cards are missing"),
    ("4H JK 5H 6H", "1 joker stands between 4♥ and 5♥ where 0 cards are missing"),
]


@pytest.mark.parametrize(("laid", "why"), INVALID_RUNS)
def test_a_run_that_breaks_r6_is_reported(laid: str, why: str) -> None:
    check = check_run(parse_cards(laid))
    assert not check.valid and check.meld is None
    assert set(rules_of(check.problems)) == {"R6"}
    assert any(why in problem.message for problem in check.problems), check.problems


def test_a_run_of_one_rank_is_no_run() -> None:
    check = check_run(parse_cards("QS QH QD QC"))
    assert not check.valid
    assert "mixes ♠, ♥, ♦ and ♣" in check.problems[0].message


def test_a_short_run_of_mixed_suits_reports_both() -> None:
    check = check_run(parse_cards("4H 5S 6H"))
    assert [problem.message for problem in check.problems] == [
        "a run needs at least 4 cards, this has 3",
        "a run is of one suit; this mixes ♥ and ♠",
    ]


# --- seeds 003 and 004 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        # Seed 003: "two queens and a joker, but not two jokers and only one queen".
        ("QS QH JK", True),
        ("QS JK JK", False),
        # Seed 003: "a 3, 4 and a Joker" may stand in a four, "a 3, 6 and two Jokers" may not.
        ("3H 4H JK 6H", True),
        ("3H JK JK 6H", False),
        # Seeds 003 and 004: ace high or low, never in the interior: never K-A-2.
        ("AH 2H 3H 4H", True),
        ("KH AH 2H 3H", False),
        # Seed 004: three or more of one rank, duplicates included.
        ("7D 7D 7C", True),
    ],
)
def test_the_seed_examples(text: str, valid: bool) -> None:
    assert classify(parse_cards(text)).valid is valid


# --- classify -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("QS QH JK", "set"),
        ("9C 10C JC QC", "run"),
        ("QS QH", "set"),  # too short, but plainly meant as a set
        ("QS QH KS", "set"),
        ("QS 4H 9C", "set"),
        ("JK JK JK", "set"),
        ("JK JK JK JK", "set"),
        ("4H 5H 6S 7H", "run"),
        ("4H 4H 5H 6H", "run"),
        ("QH KH JK", "run"),
        ("4H 5H", "run"),
    ],
)
def test_classify_takes_cards_for_the_meld_they_make_or_look_most_like(text: str, kind: str) -> None:
    assert classify(parse_cards(text)).kind == kind


def test_classify_reports_a_broken_meld_as_what_it_looks_like() -> None:
    check = classify(parse_cards("QS QH KS"))
    assert str(check) == "Q♠ Q♥ K♠: R5: a set is cards of one rank; this mixes Q and K"
    assert check.as_dict() == {
        "cards": "QS QH KS",
        "display": "Q♠ Q♥ K♠",
        "kind": "set",
        "valid": False,
        "meld": None,
        "problems": [{"rule": "R5", "message": "a set is cards of one rank; this mixes Q and K"}],
        "valid_as": [],
    }


# --- the Meld value -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown", "representation"),
    [
        ("QS QH JK", "Q♠ Q♥ JK", "Meld.parse('QS QH JK')"),
        ("JH 10H JK 8H", "8♥ JK 10♥ J♥", "Meld.parse('8H JK 10H JH')"),
        ("AH KH QH JH", "J♥ Q♥ K♥ A♥", "Meld.parse('JH QH KH AH')"),
    ],
)
def test_a_meld_prints_as_symbols_and_its_repr_evaluates_back(
    text: str, shown: str, representation: str
) -> None:
    meld = Meld.parse(text)
    assert str(meld) == shown
    assert repr(meld) == representation
    assert eval(repr(meld), {"Meld": Meld}) == meld


def test_a_meld_is_a_frozen_value_of_its_cards() -> None:
    meld = Meld.parse("4H 5H 6H 7H")
    assert meld == Meld(parse_cards("7H 6H 5H 4H"), "run") == Meld(list(parse_cards("4H 5H 6H 7H")), "run")
    assert hash(meld) == hash(Meld.parse("7H 6H 5H 4H"))
    assert list(meld) == list(parse_cards("4H 5H 6H 7H")) and len(meld) == 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.kind = "set"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("cards", "kind", "rule"),
    [
        ("QS QH", "set", "R5"),
        ("4H 5H 6H 7H", "set", "R5"),
        ("QS QH QD", "run", "R6"),
        ("8H JK JK JH", "run", "R6"),
    ],
)
def test_a_meld_cannot_be_built_from_cards_that_are_not_one(cards: str, kind: str, rule: str) -> None:
    with pytest.raises(InvalidMeld) as caught:
        Meld(parse_cards(cards), kind)  # type: ignore[arg-type]
    assert rules_of(caught.value.problems)[0] == rule
    assert str(caught.value).startswith(f"{rule}: ")


def test_a_meld_is_a_set_or_a_run() -> None:
    with pytest.raises(ValueError, match="a set or a run"):
        Meld(parse_cards("QS QH QD"), "pair")  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "error"), [("QS QH 1H", InvalidCard), ("QS QH", InvalidMeld)])
def test_meld_parse_raises_on_bad_notation_and_on_an_illegal_meld(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        Meld.parse(text)


@pytest.mark.parametrize(
    ("text", "rank", "suit", "low", "high", "stand_ins"),
    [
        ("QS QH JK", 12, None, None, None, ""),
        ("8H JK 10H JH", None, "H", 8, 11, "9H"),
        ("JK 2H 3H 4H", None, "H", 1, 4, "AH"),
        ("JH QH KH JK", None, "H", 11, 14, "AH"),
        ("JK QH KH JK", None, "H", 11, 14, "JH AH"),
        ("AH 2H 3H 4H", None, "H", 1, 4, ""),
        ("JC QC KC AC", None, "C", 11, 14, ""),
    ],
)
def test_a_meld_knows_its_rank_or_suit_its_ends_and_what_its_jokers_stand_for(
    text: str, rank: int | None, suit: str | None, low: int | None, high: int | None, stand_ins: str
) -> None:
    meld = Meld.parse(text)
    assert (meld.rank, meld.suit, meld.low, meld.high) == (rank, suit, low, high)
    assert meld.jokers_stand_for() == parse_cards(stand_ins)
    assert meld.reaches_ace is (high == 14)


# --- changing a run: tacking on (R11) and replacing a joker (R8) -------------------------------


@pytest.mark.parametrize(
    ("run", "card", "after"),
    [
        ("9H 10H JH QH", "KH", "9H 10H JH QH KH"),
        ("10H JH QH KH", "AH", "10H JH QH KH AH"),  # up to the ace
        ("JH QH KH AH", "10H", "10H JH QH KH AH"),  # only then downwards
        ("AH 2H 3H 4H", "5H", "AH 2H 3H 4H 5H"),
        ("8H JK 10H JH", "QH", "8H JK 10H JH QH"),
        ("8H JK 10H JH", "JK", "8H JK 10H JH JK"),
        ("10H JH QH KH", "JK", "10H JH QH KH JK"),  # a joker as the high ace
        ("JH QH KH AH", "JK", "JK JH QH KH AH"),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH", "KH", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),
    ],
)
def test_a_run_extends_upward_until_the_ace_then_downward(run: str, card: str, after: str) -> None:
    assert extend_run(Meld.parse(run), Card.parse(card)) == Meld.parse(after)


@pytest.mark.parametrize(
    ("run", "card", "rule", "why"),
    [
        # Seed 000: a low extension of 8♥-JK-10♥-J♥ with 7♥ is illegal (the run has not reached A).
        ("8H JK 10H JH", "7H", "R11", "grows at its high end until it reaches A: Q♥ or a joker goes next"),
        ("4H 5H 6H 7H", "3H", "R11", "not 3♥ at the low end"),
        ("8H JK 10H JH", "KH", "R6", "K♥ does not follow on: Q♥ or a joker goes at the high end"),
        ("8H JK 10H JH", "QS", "R6", "Q♠ cannot join a ♥ run"),
        ("JH QH KH AH", "9H", "R6", "10♥ or a joker goes at the low end"),
        ("8H 9H 10H JK", "JK", "R6", "beside another joker"),
        ("JK QH KH AH", "JK", "R6", "beside another joker"),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH", "R6", "is complete"),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "AH", "R6", "is complete"),
        ("QS QH JK", "QD", "R11", "is a set"),
    ],
)
def test_a_run_refuses_a_card_at_the_wrong_end(run: str, card: str, rule: str, why: str) -> None:
    with pytest.raises(IllegalPlay) as caught:
        extend_run(Meld.parse(run), Card.parse(card))
    assert caught.value.rule == rule == caught.value.problem.rule
    assert why in caught.value.problem.message


def test_seed_000_the_natural_card_takes_the_jokers_place_and_the_joker_moves_up() -> None:
    run = Meld.parse("8H JK 10H JH")
    after = replace_run_joker(run, Card.parse("9H"))
    assert after.notation == "8H 9H 10H JH JK"
    assert after.jokers_stand_for() == (Card.parse("QH"),)  # the joker is now Q♥


def test_seed_000_seven_of_hearts_at_the_low_end_stays_illegal() -> None:
    run = Meld.parse("8H JK 10H JH")
    with pytest.raises(IllegalPlay) as caught:
        replace_run_joker(run, Card.parse("7H"))
    assert caught.value.rule == "R8"
    with pytest.raises(IllegalPlay) as caught:
        extend_run(run, Card.parse("7H"))
    assert caught.value.rule == "R11"
    after = replace_run_joker(run, Card.parse("9H"))
    with pytest.raises(IllegalPlay):
        extend_run(after, Card.parse("7H"))


@pytest.mark.parametrize(
    ("run", "card", "after"),
    [
        ("8H 9H 10H JK", "JH", "8H 9H 10H JH JK"),  # the joker moves one place up
        ("JK 2H 3H 4H", "AH", "AH 2H 3H 4H JK"),
        ("JH QH KH JK", "AH", "JK JH QH KH AH"),  # the run reaches A: the joker goes low
        ("JK QH KH AH", "JH", "JK JH QH KH AH"),
        ("10H JK QH KH AH", "JH", "JK 10H JH QH KH AH"),
        ("8H JK 10H JK", "JH", "8H JK 10H JH JK"),
        ("JK 5H JK 7H", "4H", "4H 5H JK 7H JK"),
    ],
)
def test_a_replaced_joker_moves_to_the_high_end_or_the_low_end_once_the_run_reaches_a(
    run: str, card: str, after: str
) -> None:
    assert replace_run_joker(Meld.parse(run), Card.parse(card)) == Meld.parse(after)


@pytest.mark.parametrize(
    ("run", "card", "why"),
    [
        ("8H JK 10H JH", "7H", "this run's joker stands for 9♥, not 7♥"),
        ("8H JK 10H JH", "9S", "not 9♠"),
        ("8H JK 10H JH", "JK", "not JK"),
        ("JK 5H JK 7H", "8H", "this run's jokers stand for 4♥ and 6♥"),
        ("4H 5H 6H 7H", "5H", "has no joker to replace"),
        ("8H JK 10H JK", "9H", "the joker would end beside another joker at the high end"),
        ("JK QH JK AH", "KH", "the joker would end beside another joker at the low end"),
        ("AH 2H JK 4H 5H 6H 7H 8H 9H 10H JH QH KH", "3H", "the joker has nowhere to go"),
        ("2H JK 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "3H", "the joker has nowhere to go"),
    ],
)
def test_a_joker_is_replaced_only_by_its_exact_card_and_never_off_the_run(
    run: str, card: str, why: str
) -> None:
    with pytest.raises(IllegalPlay) as caught:
        replace_run_joker(Meld.parse(run), Card.parse(card))
    assert caught.value.rule == "R8"
    assert why in str(caught.value)


def test_a_sets_joker_never_moves() -> None:
    with pytest.raises(IllegalPlay):
        replace_run_joker(Meld.parse("QS QH JK"), Card.parse("QD"))


@pytest.mark.parametrize(
    ("card", "after"), [("QD", "QS QH JK QD"), ("QS", "QS QH JK QS"), ("JK", "QS QH JK JK")]
)
def test_a_set_takes_cards_of_its_rank_and_jokers(card: str, after: str) -> None:
    assert extend_set(Meld.parse("QS QH JK"), Card.parse(card)) == Meld.parse(after)


@pytest.mark.parametrize(("meld", "card"), [("QS QH JK", "KD"), ("4H 5H 6H 7H", "4S")])
def test_a_set_refuses_other_ranks(meld: str, card: str) -> None:
    with pytest.raises(IllegalPlay) as caught:
        extend_set(Meld.parse(meld), Card.parse(card))
    assert caught.value.rule == "R5"


# --- reading a lay-down -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "melds"),
    [
        ("QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC", ("QS QH JK", "4H 5H 6H 7H", "9C 10C JC QC")),
        ("qs,qh,jk|4h 5h 6h 7h", ("QS QH JK", "4H 5H 6H 7H")),
        ("  Q♠ Q♥ *  ", ("QS QH JK",)),
    ],
)
def test_parse_laydown_reads_melds_separated_by_bars(text: str, melds: tuple[str, ...]) -> None:
    assert parse_laydown(text) == tuple(parse_cards(meld) for meld in melds)


@pytest.mark.parametrize(
    ("text", "message", "meld", "token"),
    [
        ("QS QH JK | 4H 5H 6H 1H", "meld 2: not a card: '1H'", 2, "1H"),
        ("QX QH JK", "meld 1: not a card: 'QX'", 1, "QX"),
        ("QS QH JK || 4H 5H 6H 7H", "meld 2 is empty", 2, None),
        ("QS QH JK |", "meld 2 is empty", 2, None),
        ("| QS QH JK", "meld 1 is empty", 1, None),
        ("", "nothing to check: write the melds separated by |", None, None),
        ("   ", "nothing to check: write the melds separated by |", None, None),
    ],
)
def test_parse_laydown_names_the_bad_token_or_the_empty_meld(
    text: str, message: str, meld: int | None, token: str | None
) -> None:
    with pytest.raises(InvalidLaydown) as caught:
        parse_laydown(text)
    assert str(caught.value) == message
    assert (caught.value.meld, caught.value.token) == (meld, token)
    assert isinstance(caught.value, ValueError)


# --- checking an opening (R10 with R5–R7) -------------------------------------------------------

# One valid opening for each of the nine contracts, using exactly the deal's cards (R4).
OPENINGS = {
    1: "KS KH KD | QS QH QD | 6S 6H 6D",  # seed 000's going-out hand
    2: "KS KH JK | 7C 7D 7S | 4H 5H 6H 7H",
    3: "QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC",  # SCORESHEET.md's example
    4: "AS 2S 3S 4S | 8H JK 10H JH | JD QD KD AD",
    5: "2S 2H 2D | 5C 5C 5D | 9S 9H JK | KC KD KS",
    6: "2S 2H 2D | 5C 5C 5D | 9S 9H JK | 10H JH QH KH",
    7: "AS AH AC | 8D 8D 8C | 2C 3C JK 5C | 9H 10H JH QH",
    8: "JK 7S 7H | 2H 3H 4H 5H | 5D JK 7D 8D | JC QC KC AC",
    9: "AS 2S 3S 4S | 5H 6H JK 8H | 9D 10D JD QD | JK QC KC AC",
}


@pytest.mark.parametrize("deal", sorted(OPENINGS))
def test_each_contract_has_a_valid_opening(deal: int) -> None:
    melds = parse_laydown(OPENINGS[deal])
    assert sum(len(meld) for meld in melds) == ruleset_from().deal_size(deal)
    verdict = check_laydown(melds, deal=deal)
    assert verdict.valid, verdict.lines()
    assert verdict.lines()[0] == "valid"
    assert verdict.contract_description in verdict.summary()


def _holds(laid: str, contract: str) -> bool:
    return all(laid.count(digit) >= contract.count(digit) for digit in "34")


@pytest.mark.parametrize("deal", sorted(OPENINGS))
def test_an_opening_for_one_deal_opens_another_only_when_it_holds_that_contract(deal: int) -> None:
    # R10 (seed 000 §04): an opening lays at least the contract; further melds may come with it.
    melds = parse_laydown(OPENINGS[deal])
    contract = ruleset_from().contract(deal)
    for other in range(1, 10):
        verdict = check_laydown(melds, deal=other)
        holds = _holds(contract, ruleset_from().contract(other))
        assert verdict.valid is holds
        if not holds:
            assert rules_of(verdict.problems) == ["R10"]


# Issue 10: openings that meet the contract and add further legal melds the same turn (R10).
FURTHER_MELDS = [
    (1, "QS QH QD | KS KH KD | 6S 6H 6D | 9S 9H 9D"),
    (1, "KS KH KD | QS QH QD | 6S 6H 6D | 2C 2D 2H"),
    (1, "KS KH KD | QS QH QD | 6S 6H 6D | 4H 5H 6H 7H"),
    (1, "4H 5H 6H 7H | KS KH KD | QS QH QD | 6S 6H 6D"),
    (2, "KS KH KD | QS QH QD | 6S 6H 6D | 4H 5H 6H 7H"),
    (3, "KS KH KD | QS QH QD | 4H 5H 6H 7H | 9C 10C JC QC"),
    (4, "AS 2S 3S 4S | 8H JK 10H JH | JD QD KD AD | 5C 6C 7C 8C"),
    (5, "2S 2H 2D | 5C 5C 5D | 9S 9H JK | KC KD KS | 7H 8H 9H 10H"),
    (9, "AS 2S 3S 4S | 5H 6H JK 8H | 9D 10D JD QD | JK QC KC AC | 7S 7H 7D"),
]


@pytest.mark.parametrize(("deal", "text"), FURTHER_MELDS)
def test_an_opening_may_add_further_valid_melds_the_same_turn(deal: int, text: str) -> None:
    verdict = check_laydown(parse_laydown(text), deal=deal)
    assert verdict.valid, verdict.lines()
    assert verdict.lines()[0] == "valid"


@pytest.mark.parametrize(
    ("deal", "text", "summary"),
    [
        (1, "QS QH QD | KS KH KD | 6S 6H 6D | 9S 9H 9D", "deal 1 · 3 sets (further: 1 set): "),
        (
            1,
            "4H 5H 6H 7H | KS KH KD | QS QH QD | 6S 6H 6D",
            "deal 1 · 3 sets (further: 1 run): 4♥ 5♥ 6♥ 7♥ | ",
        ),
        (3, "KS KH KD | QS QH QD | 4H 5H 6H 7H | 9C 10C JC QC", "deal 3 · 1 set + 2 runs (further: 1 set): "),
        (3, "QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC", "deal 3 · 1 set + 2 runs: "),
    ],
)
def test_the_summary_names_the_further_melds(deal: int, text: str, summary: str) -> None:
    assert check_laydown(parse_laydown(text), deal=deal).summary().startswith(summary)


@pytest.mark.parametrize(
    ("deal", "text", "lines"),
    [
        # R7 still holds across the contract's melds and the further ones.
        (
            1,
            "KS KH KD | QS QH QD | 6S 6H 6D | KC KD JK",
            ["lay-down: R7: melds 1 and 4 are both sets of K"],
        ),
        (
            3,
            "QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC | 9H 10H JH QH",
            ["lay-down: R7: melds 2 and 4 are both runs in ♥"],
        ),
        # A further meld must itself be legal (R5, R6).
        (1, "KS KH KD | QS QH QD | 6S 6H 6D | 2C 2D", ["meld 4 (2♣ 2♦): R5: a set needs at least 3 cards"]),
        # More melds of one kind never make up for a missing one of the other.
        (
            2,
            "KS KH KD | QS QH QD | 6S 6H 6D | 2C 2D 2H",
            ["lay-down: R10: deal 2's contract is 2 sets + 1 run; this lay-down is 4 sets"],
        ),
        (
            4,
            "KS KH KD | 4H 5H 6H 7H | 9C 10C JC QC",
            ["lay-down: R10: deal 4's contract is 3 runs; this lay-down is 1 set + 2 runs"],
        ),
    ],
)
def test_further_melds_still_answer_to_r5_to_r7_and_the_contract(
    deal: int, text: str, lines: list[str]
) -> None:
    verdict = check_laydown(parse_laydown(text), deal=deal)
    assert not verdict.valid
    assert len(verdict.lines()) == len(lines)
    for line, expected in zip(verdict.lines(), lines, strict=True):
        assert line.startswith(expected)


def test_the_spec_example_prints_valid_and_a_one_line_description() -> None:
    verdict = check_laydown(parse_laydown("QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC"), deal=3)
    assert str(verdict) == "valid\ndeal 3 · 1 set + 2 runs: Q♠ Q♥ JK | 4♥ 5♥ 6♥ 7♥ | 9♣ 10♣ J♣ Q♣"


def test_extra_cards_may_lengthen_the_melds_of_an_opening() -> None:
    verdict = check_laydown(parse_laydown("KS KH KD KC KS | QS QH QD JK | 6S 6H 6D"), deal=1)
    assert verdict.valid


def test_melds_may_be_laid_in_any_order_and_runs_high_to_low() -> None:
    verdict = check_laydown(parse_laydown("QC JC 10C 9C | QS QH JK | 7H 6H 5H 4H"), deal=3)
    assert verdict.valid
    assert verdict.summary() == "deal 3 · 1 set + 2 runs: 9♣ 10♣ J♣ Q♣ | Q♠ Q♥ JK | 4♥ 5♥ 6♥ 7♥"


INVALID_OPENINGS = [
    # (deal, lay-down, the lines the director reads)
    (
        3,
        "QS QH JK | 4H 5H 6H 7H",
        ["lay-down: R10: deal 3's contract is 1 set + 2 runs; this lay-down is 1 set + 1 run"],
    ),
    (
        4,
        "KS KH KD | QS QH QD | 6S 6H 6D",
        ["lay-down: R10: deal 4's contract is 3 runs; this lay-down is 3 sets"],
    ),
    (
        1,
        "KS KH KD | QS QH | 6S 6H 6D",
        ["meld 2 (Q♠ Q♥): R5: a set needs at least 3 cards, this has 2"],
    ),
    (
        1,
        "KS KH KD | QS JK JK | 6S 6H 6D",
        ["meld 2 (Q♠ JK JK): R5: a set needs at least 2 natural cards besides its jokers, this has 1"],
    ),
    (
        1,
        "KS KH KD | QS QH QD | KC KS JK",
        ["lay-down: R7: melds 1 and 3 are both sets of K; separately laid sets must have different ranks"],
    ),
    (
        3,
        "QS QH JK | 4H 5H 6H 7H | 9H 10H JH QH",
        ["lay-down: R7: melds 2 and 3 are both runs in ♥; separately laid runs must be of different suits"],
    ),
    (
        3,
        "QS QH JK | 4H 5H 7H 8H | 9C 10C JC",
        [
            "meld 2 (4♥ 5♥ 7♥ 8♥): R6: not consecutive: 6♥ is missing",
            "meld 3 (9♣ 10♣ J♣): R6: a run needs at least 4 cards, this has 3",
        ],
    ),
    (
        3,
        "QS QH JK | 8H JK JK JH | KH AH 2H 3H",
        [
            "meld 2 (8♥ JK JK J♥): R6: two jokers stand side by side; a run's jokers may never be adjacent",
            "meld 3 (K♥ A♥ 2♥ 3♥): R6: an ace is only low (A-2-3-4) or high (J-Q-K-A), at an end: "
            "a run never turns the corner (K-A-2)",
            # No R7 line: only legal runs are compared for their suits.
        ],
    ),
    (
        3,
        "QS QS QS | 4H 5H 6H 7H | 9C 10C JC QC",
        ["lay-down: R1: Q♠ is laid 3 times but the deck holds 2"],
    ),
    (
        5,
        "2S 2H JK | 5C 5D JK | 9S 9H JK | KC KD JK | AS AD JK",
        # Five sets hold deal 5's four (R10); the fifth joker is one too many (R1).
        ["lay-down: R1: 5 jokers are laid but the deck holds 4"],
    ),
    (
        3,
        "QS QH KD | QD QC QS | 9H 10H JH QH",
        [
            "meld 1 (Q♠ Q♥ K♦): R5: a set is cards of one rank; this mixes Q and K",
            "lay-down: R10: deal 3's contract is 1 set + 2 runs; this lay-down is 2 sets + 1 run",
        ],
    ),
]


@pytest.mark.parametrize(("deal", "text", "lines"), INVALID_OPENINGS)
def test_an_opening_that_breaks_a_rule_names_the_meld_the_rule_and_why(
    deal: int, text: str, lines: list[str]
) -> None:
    verdict = check_laydown(parse_laydown(text), deal=deal)
    assert not verdict.valid
    assert list(verdict.lines()) == lines
    assert str(verdict) == "\n".join(lines)


# Cards are read as written; a run whose written order breaks it may be legal in another (SCORESHEET.md).
VALID_AS = [
    ("JK JK 5H 6H", ["JK 5H 6H JK"]),
    ("5H 6H JK JK", ["JK 5H 6H JK"]),
    ("5H JK 6H 7H", ["JK 5H 6H 7H", "5H 6H 7H JK"]),
    ("4H 5H 7H JK", ["4H 5H JK 7H"]),
    ("JK 8C 9C JK 10C", ["JK 8C 9C 10C JK"]),
    ("JK 8C 9C 10C JK JK", []),  # three consecutive naturals leave no gap between them for a joker
    ("AH JK JK 3H", ["AH JK 3H JK"]),
    ("JK AS JK QS", ["JK QS JK AS"]),
    ("QD JK KD AD JK", []),  # Q-K-A and two jokers only fit as 10-J-Q-K-A, the jokers side by side
    ("8H JK JK JH", []),  # 8 and J with two jokers only fit side by side
    ("KH AH 2H 3H", []),  # no joker: naturals are read in any order, and these turn the corner
    ("JK 9C JK 5C", []),  # 5 to 9 is five places for four cards
    ("QH JK JK", []),  # too short in any order
    ("5H 6S JK JK", []),  # two suits in any order
    ("5H 5H JK JK", []),  # a set, and as a run the same card twice
]


@pytest.mark.parametrize(("text", "orders"), VALID_AS)
def test_a_run_written_in_a_breaking_order_says_which_orders_are_valid(text: str, orders: list[str]) -> None:
    check = check_run(parse_cards(text))
    assert not check.valid
    assert [" ".join(card.notation for card in order) for order in check.valid_as] == orders
    assert check.as_dict()["valid_as"] == orders
    for order in check.valid_as:
        assert check_run(order).valid and sorted(map(str, order)) == sorted(map(str, check.cards))


def test_a_legal_run_has_no_other_order_to_offer() -> None:
    assert check_run(parse_cards("JK 5H JK 7H")).valid_as == ()
    assert check_run(parse_cards("JK 5H JK 7H")).as_dict()["valid_as"] == []


def test_the_laydown_verdict_says_valid_as_for_the_meld() -> None:
    verdict = check_laydown(parse_laydown("QS QH QD | JK JK 5H 6H | 9C 10C JC QC"), deal=3)
    assert not verdict.valid
    assert verdict.lines() == (
        "meld 2 (JK JK 5♥ 6♥): R6: two jokers stand side by side; a run's jokers may never be adjacent",
        "meld 2 (JK JK 5♥ 6♥): not valid as written; valid as JK 5H 6H JK",
    )
    assert verdict.as_dict()["melds"][1]["valid_as"] == ["JK 5H 6H JK"]
    # Laid in that order, the same cards open deal 3.
    assert check_laydown(parse_laydown("QS QH QD | JK 5H 6H JK | 9C 10C JC QC"), deal=3).valid


def test_cards_that_could_be_a_run_in_another_order_are_checked_as_a_run() -> None:
    check = classify(parse_cards("JK JK 5H 6H"))
    assert (check.kind, [problem.rule for problem in check.problems]) == ("run", ["R6"])


def test_nothing_laid_is_no_opening() -> None:
    verdict = check_laydown([], deal=1)
    assert not verdict.valid
    assert verdict.lines() == ("lay-down: R10: deal 1's contract is 3 sets; this lay-down is nothing",)


def test_three_decks_hold_three_of_each_card() -> None:
    melds = parse_laydown("QS QS QS | 4H 5H 6H 7H | 9C 10C JC QC")
    assert check_laydown(melds, deal=3, rules=ruleset_from("jamaican-large")).valid


def test_the_contract_comes_from_the_ruleset() -> None:
    schedule = [[9, "333"], [9, "333"]] + [list(pair) for pair in ruleset_from().schedule[2:]]
    rules = ruleset_from("jamaican", {"schedule": schedule})
    melds = parse_laydown(OPENINGS[1])
    assert check_laydown(melds, deal=2, rules=rules).valid
    assert not check_laydown(melds, deal=2).valid


@pytest.mark.parametrize("deal", [0, 10, -1])
def test_a_deal_outside_the_schedule_cannot_be_checked(deal: int) -> None:
    with pytest.raises(InvalidDeal):
        check_laydown(parse_laydown(OPENINGS[1]), deal=deal)


def test_the_verdict_is_data_for_the_entry_page() -> None:
    verdict = check_laydown(parse_laydown("QS QH JK | 7H 6H 4H 5H | 9C 10C JC"), deal=3)
    data = verdict.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["valid"] is False
    assert (data["deal"], data["contract"], data["contract_description"]) == (3, "344", "1 set + 2 runs")
    assert [meld["number"] for meld in data["melds"]] == [1, 2, 3]
    assert data["melds"][1] == {
        "number": 2,
        "cards": "7H 6H 4H 5H",
        "display": "4♥ 5♥ 6♥ 7♥",
        "kind": "run",
        "valid": True,
        "meld": "4H 5H 6H 7H",
        "problems": [],
        "valid_as": [],
    }
    assert data["melds"][2]["problems"] == [
        {"rule": "R6", "message": "a run needs at least 4 cards, this has 3"}
    ]
    assert data["problems"] == []
    assert data["lines"] == ["meld 3 (9♣ 10♣ J♣): R6: a run needs at least 4 cards, this has 3"]
    assert data["summary"] == "deal 3 · 1 set + 2 runs: Q♠ Q♥ JK | 4♥ 5♥ 6♥ 7♥ | 9♣ 10♣ J♣"


def test_a_verdict_is_a_frozen_value() -> None:
    verdict = check_laydown(parse_laydown(OPENINGS[1]), deal=1)
    assert isinstance(verdict, LaydownVerdict)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.deal = 2  # type: ignore[misc]


# --- properties ---------------------------------------------------------------------------------


@st.composite
def legal_runs(draw: st.DrawFn) -> tuple[list[Card], list[Card]]:
    """A legal run low to high, and what each of its places stands for (jokers never adjacent)."""
    suit = draw(st.sampled_from(SUITS))
    length = draw(st.integers(4, 13))
    # 1 is a low ace, 14 a high one; a 13-card run is A–K or 2–A.
    low = draw(st.integers(1, 14 - length + 1))
    places = [Card(1 if value == 14 else value, suit) for value in range(low, low + length)]
    jokers: set[int] = set()
    for index in draw(st.lists(st.integers(0, length - 1), max_size=length // 2)):
        if index - 1 not in jokers and index + 1 not in jokers:
            jokers.add(index)
    cards = [JOKER if index in jokers else card for index, card in enumerate(places)]
    return cards, places


@settings(deadline=None)
@given(legal_runs(), st.booleans())
def test_any_legal_run_is_accepted_laid_either_way_and_kept_low_to_high(
    run: tuple[list[Card], list[Card]], descending: bool
) -> None:
    cards, places = run
    laid = cards[::-1] if descending else cards
    check = check_run(laid)
    assert check.valid, check.problems
    meld = check.meld
    assert meld is not None and list(meld.cards) == cards
    assert Meld.parse(meld.notation) == meld
    stands_for = tuple(place for card, place in zip(cards, places, strict=True) if card.is_joker)
    assert meld.jokers_stand_for() == stands_for


@settings(deadline=None)
@given(legal_runs(), st.data())
def test_swapping_two_adjacent_places_of_a_run_with_a_joker_breaks_it_unless_nothing_changed(
    run: tuple[list[Card], list[Card]], data: st.DataObject
) -> None:
    cards, _ = run
    if not any(card.is_joker for card in cards):
        return
    index = data.draw(st.integers(0, len(cards) - 2))
    swapped = list(cards)
    swapped[index], swapped[index + 1] = swapped[index + 1], swapped[index]
    # A joker keeps the place it is laid in, so moving it changes (and here breaks) the run, unless the
    # swap turned it into the same run laid high to low: JK 3♠ 2♠ JK is A-2-3-4 read the other way.
    if swapped != cards:
        check = check_run(swapped)
        assert not check.valid or (check.meld is not None and list(check.meld.cards) == swapped[::-1])


@settings(deadline=None)
@given(legal_runs(), st.randoms(use_true_random=False))
def test_a_legal_run_shuffled_is_either_legal_or_valid_as_its_order(
    run: tuple[list[Card], list[Card]], rng: Random
) -> None:
    cards, _ = run
    shuffled = list(cards)
    rng.shuffle(shuffled)
    check = check_run(shuffled)
    if check.valid:
        assert check.valid_as == ()
    elif any(card.is_joker for card in cards):
        assert tuple(cards) in check.valid_as
        for order in check.valid_as:
            assert check_run(order).valid


@settings(deadline=None)
@given(
    st.sampled_from(range(1, 14)),
    st.lists(st.sampled_from(SUITS), min_size=2, max_size=8),
    st.integers(0, 4),
)
def test_any_set_of_one_rank_with_two_naturals_is_accepted(rank: int, suits: list[str], jokers: int) -> None:
    cards = [Card(rank, suit) for suit in suits] + [JOKER] * jokers
    check = check_set(cards)
    assert check.valid is (len(cards) >= 3)
    if check.meld is not None:
        assert check.meld.rank == rank
        assert Meld.parse(check.meld.notation) == check.meld


@settings(deadline=None)
@given(legal_runs())
def test_a_run_that_can_grow_grows_at_the_end_r11_names(run: tuple[list[Card], list[Card]]) -> None:
    meld = Meld(tuple(run[0]), "run")
    low, high = meld.low, meld.high
    assert low is not None and high is not None and meld.suit is not None
    if high < 14 and len(meld) < 13:
        grown = extend_run(meld, Card(1 if high + 1 == 14 else high + 1, meld.suit))
        assert grown.high == high + 1 and grown.low == low
    elif high == 14 and low > 2:
        grown = extend_run(meld, Card(low - 1, meld.suit))
        assert grown.low == low - 1 and grown.high == 14
