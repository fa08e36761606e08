"""British melds and the 40-point opening (RULES.md B2, B3), and `check_laydown --ruleset british`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudication.engine.british_melds import check_british_meld, check_opening
from adjudication.engine.british_rules import OpeningValues, british_ruleset_from
from adjudication.engine.cards import parse_cards
from adjudication.engine.laydown import parse_laydown
from tests.engine.test_check_laydown_command import run

ROOT = Path(__file__).resolve().parents[2]
VALUES = OpeningValues()


def readings(text: str) -> list[tuple[str, str, int]]:
    check = check_british_meld(parse_cards(text))
    return [(meld.kind, meld.describe(), meld.points(VALUES)) for meld in check.readings]


def problems(text: str) -> list[str]:
    return [str(problem) for problem in check_british_meld(parse_cards(text)).problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # B2 sets: 3 or 4 of one rank, all of different suits; jokers wild.
        ("7S 7H 7C", [("set", "set of 7", 21)]),
        ("QS QH QD", [("set", "set of Q", 30)]),
        ("AS AH AD AC", [("set", "set of A", 44)]),
        ("KS KH JK", [("set", "set of K", 30)]),
        ("KS JK KD JK", [("set", "set of K", 40)]),
        # B2 runs: 3 or more of one suit in sequence, ace high only.
        ("9D 10D JD", [("run", "run 9♦–J♦", 29)]),
        ("QH KH AH", [("run", "run Q♥–A♥", 31)]),
        ("AH KH QH", [("run", "run Q♥–A♥", 31)]),
        ("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", [("run", "run 2♣–A♣", 95)]),
        ("8S 6S 7S", [("run", "run 6♠–8♠", 21)]),
        # A joker keeps the place it is laid in and counts as the card it replaces (B3).
        ("JK 7S 8S", [("run", "run 6♠–8♠", 21)]),
        ("7S JK 9S", [("run", "run 7♠–9♠", 24)]),
        ("7S 8S JK", [("run", "run 7♠–9♠", 24)]),
        ("QH KH JK", [("run", "run Q♥–A♥", 31)]),
        ("JK JK 10S JS", [("run", "run 8♠–J♠", 37)]),
        # Laid high to low, a joker keeps its place too.
        ("8S JK 6S", [("run", "run 6♠–8♠", 21)]),
        # One natural card and two jokers: a set or a run, both readings reported.
        ("7S JK JK", [("set", "set of 7", 21), ("run", "run 7♠–9♠", 24)]),
        ("JK 7S JK", [("set", "set of 7", 21), ("run", "run 6♠–8♠", 21)]),
        ("JK JK 7S", [("set", "set of 7", 21), ("run", "run 5♠–7♠", 18)]),
        ("AS JK JK", [("set", "set of A", 33), ("run", "run Q♠–A♠", 31)]),
        # 2 with jokers after it cannot be read downwards (no ace low): a set or 2-3-4.
        ("2S JK JK", [("set", "set of 2", 6), ("run", "run 2♠–4♠", 9)]),
        ("JK 2S JK", [("set", "set of 2", 6)]),
    ],
)
def test_legal_melds_and_their_readings(text: str, expected: list[tuple[str, str, int]]) -> None:
    assert readings(text) == expected
    assert check_british_meld(parse_cards(text)).ambiguous is (len(expected) > 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7S 7H", ["B2: a set holds 3 or 4 cards, this has 2"]),
        (
            "7S 7H 7D 7C 7S",
            ["B2: a set holds 3 or 4 cards, this has 5", "B2: a set is of different suits; 7♠ twice"],
        ),
        ("7S 7S 7H", ["B2: a set is of different suits; 7♠ twice"]),
        ("QS QH KS", ["B2: a set is cards of one rank; this mixes Q and K"]),
        ("JK JK JK", ["B2: jokers alone make no meld: a set needs a natural card to give its rank"]),
        ("AS 2S 3S", ["B2: the ace is high only: Q-K-A is a run, A-2-3 and K-A-2 are not"]),
        ("KS AS 2S", ["B2: the ace is high only: Q-K-A is a run, A-2-3 and K-A-2 are not"]),
        (
            "JK 2S 3S",
            ["B2: the ace is high only: Q-K-A is a run, A-2-3 and K-A-2 are not; valid as 2♠ 3♠ JK"],
        ),
        ("4H 5H 7H", ["B2: not consecutive: 6♥ is missing"]),
        ("9C 10C QC KC", ["B2: not consecutive: J♣ is missing"]),
        ("4H 5H 8H", ["B2: not consecutive: 6♥ and 7♥ are missing"]),
        ("7S 8S 8S", ["B2: a run holds each card once; 8♠ twice"]),
        ("7S 8H 9S", ["B2: a run is of one suit; this mixes ♠ and ♥"]),
        ("7S 8S", ["B2: a run needs at least 3 cards, this has 2"]),
        ("6S JK 7S", ["B2: not a run as laid: a joker keeps the place it is laid in; valid as 6♠ 7♠ JK"]),
        ("8S 6S JK", ["B2: not a run as laid: a joker keeps the place it is laid in; valid as 6♠ JK 8♠"]),
        ("KS JK QS", ["B2: not a run as laid: a joker keeps the place it is laid in; valid as Q♠ K♠ JK"]),
    ],
)
def test_what_is_not_a_meld_names_b2(text: str, expected: list[str]) -> None:
    assert problems(text) == expected
    assert not check_british_meld(parse_cards(text)).valid


def test_a_run_has_at_most_thirteen_cards() -> None:
    assert problems("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC JK") == [
        "B2: a run has at most 13 cards, 2 to A (the ace is high only)"
    ]


def test_a_jokers_card_in_a_run_is_known_and_in_a_set_is_of_no_suit() -> None:
    run = check_british_meld(parse_cards("9H JK JH")).readings[0]
    assert [str(card) for card in run.stands_for()] == ["9♥", "10♥", "J♥"]
    a_set = check_british_meld(parse_cards("KS JK KD")).readings[0]
    assert [None if card is None else str(card) for card in a_set.stands_for()] == ["K♠", None, "K♦"]


# --- B3: the opening ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lowest", "highest", "valid", "certain"),
    [
        # Seed 002's examples: Q♠ Q♥ Q♦ (30) and 6♣ 7♣ 8♣ (21) open with 51; the three queens alone do not.
        ("QS QH QD | 6C 7C 8C", 51, 51, True, True),
        ("QS QH QD", 30, 30, False, False),
        ("KS KH KD KC | JK 7S 8S", 61, 61, True, True),
        # Exactly 40 opens; 39 does not.
        ("10S JS QS KS", 40, 40, True, True),
        ("QS QH QD | 2C 3C 4C", 39, 39, False, False),
        # A joker counts as the card it replaces: J-Q-K-(A) is 41, (10)-J-Q-K is 40.
        ("JH QH KH JK", 41, 41, True, True),
        ("JK JH QH KH", 40, 40, True, True),
        # Several melds in one turn count together; four cards are the fewest that open.
        ("AS AH AD AC", 44, 44, True, True),
        ("AS AH AD", 33, 33, False, False),
        ("2S 3S 4S | 2H 3H 4H | 5D 6D 7D", 36, 36, False, False),
        # One natural with two jokers: the reading decides.
        ("QS QH QD | JK JK 3S", 39, 42, True, False),
        ("QS QH QD | 7S JK JK", 51, 54, True, True),
    ],
)
def test_an_opening_needs_forty_points_a_joker_worth_its_card(
    text: str, lowest: int, highest: int, valid: bool, certain: bool
) -> None:
    verdict = check_opening(parse_laydown(text))
    assert (verdict.lowest, verdict.highest, verdict.valid, verdict.certain) == (
        lowest,
        highest,
        valid,
        certain,
    )


def test_a_short_opening_names_b3_with_its_points() -> None:
    assert check_opening(parse_laydown("QS QH QD | 2C 3C 4C")).lines() == (
        "lay-down: B3: the melds are worth 39 points; an opening needs at least 40",
    )


def test_an_opening_whose_reading_decides_says_which() -> None:
    assert check_opening(parse_laydown("QS QH QD | JK JK 3S")).lines() == (
        "valid",
        "opening, 40 points needed: Q♠ Q♥ Q♦ (set of Q, 30) | JK JK 3♠ (set of 3, 9 · or run 3♠–5♠, 12)"
        " = 39 or 42 points",
        "only if meld 2 is the run: read otherwise it is worth 39 points (B3)",
    )


def test_the_opening_points_are_the_rulesets() -> None:
    laydown = parse_laydown("QS QH QD | 2C 3C 4C")
    assert check_opening(laydown, british_ruleset_from("british", {"opening_points": 39})).valid
    assert check_opening(laydown, british_ruleset_from("british", {"opening_points": 51})).needed == 51
    tens = british_ruleset_from("british", {"opening_values": {"ten_to_king": 11}})
    assert check_opening(laydown, tens).highest == 42


def test_the_deck_must_hold_the_cards_laid() -> None:
    verdict = check_opening(parse_laydown("QS QH QD | QS QC QD | QS QH QC"))
    assert [str(problem) for problem in verdict.problems] == ["B1: Q♠ is laid 3 times but the deck holds 2"]
    jokers = check_opening(parse_laydown("AS JK JK | KS JK KH"))
    assert [str(problem) for problem in jokers.problems] == ["B1: 3 jokers are laid but the deck holds 2"]
    assert check_opening(
        parse_laydown("AS JK JK | KS JK KH"), british_ruleset_from("british", {"jokers": 4})
    ).valid


def test_a_broken_meld_is_reported_not_counted() -> None:
    verdict = check_opening(parse_laydown("KS KH KD KC | 7S 8S 8S"))
    assert not verdict.valid and verdict.lowest is None
    assert verdict.lines() == ("meld 2 (7♠ 8♠ 8♠): B2: a run holds each card once; 8♠ twice",)


def test_the_verdict_as_data() -> None:
    data = check_opening(parse_laydown("KS KH KD KC | JK 7S 8S")).as_dict()
    assert (data["valid"], data["certain"], data["needed"], data["points"]) == (
        True,
        True,
        40,
        {"lowest": 61, "highest": 61},
    )
    assert data["melds"][1]["readings"] == [
        {"kind": "run", "description": "run 6♠–8♠", "points": 21, "stands_for": ["6S", "7S", "8S"]}
    ]


# --- the command ----------------------------------------------------------------------------------


def test_the_specs_british_example_is_valid() -> None:
    assert run("--ruleset", "british", "KS KH KD KC | JK 7S 8S") == (
        0,
        "valid\n"
        "opening, 40 points needed: K♠ K♥ K♦ K♣ (set of K, 40) | JK 7♠ 8♠ (run 6♠–8♠, 21) = 61 points\n",
        "",
    )


@pytest.mark.parametrize("ruleset", ["british", "british-swedish", "british-301", "british-501"])
def test_a_short_opening_exits_1_naming_the_rule(ruleset: str) -> None:
    code, out, err = run("--ruleset", ruleset, "QS QH QD")
    assert (code, err) == (1, "")
    assert out == "lay-down: B3: the melds are worth 30 points; an opening needs at least 40\n"


def test_json_output_for_a_british_opening() -> None:
    code, out, _ = run("--ruleset", "british", "--format", "json", "QS QH QD | JK JK 3S")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True and data["certain"] is False
    assert [reading["kind"] for reading in data["melds"][1]["readings"]] == ["set", "run"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--ruleset", "british", "--deal", "3", "KS KH KD KC"),
            "--deal: British Kalooki has no contracts, so no deal to check against; leave it out",
        ),
        (("--ruleset", "british", "KS KH 1D"), "meld 1: not a card: '1D'"),
        (
            ("KS KH KD | QS QH QD | 6S 6H 6D",),
            "--deal: the jamaican ruleset checks a lay-down against one deal's contract: "
            "give the deal number 1–9",
        ),
    ],
)
def test_what_cannot_be_read_exits_2(args: tuple[str, ...], message: str) -> None:
    assert run(*args) == (2, "", message + "\n")


def test_the_british_exit_codes_reach_the_shell() -> None:
    for text, code in (("KS KH KD KC | JK 7S 8S", 0), ("QS QH QD", 1), ("QS QH 1D", 2)):
        done = subprocess.run(
            [sys.executable, "manage.py", "check_laydown", "--ruleset", "british", text],
            cwd=ROOT,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
            check=False,
        )
        assert done.returncode == code, (text, done.stdout, done.stderr)
