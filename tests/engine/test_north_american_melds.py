"""North American melds and the 51 opening (RULES.md NA2, NA3), and `check_laydown --ruleset
north-american`."""

from __future__ import annotations

import json

import pytest

from adjudication.engine.british_melds import check_british_meld
from adjudication.engine.british_rules import OpeningValues
from adjudication.engine.cards import parse_cards
from adjudication.engine.laydown import parse_laydown
from adjudication.engine.north_american_melds import check_north_american_meld, check_opening
from adjudication.engine.north_american_rules import north_american_ruleset_from
from tests.engine.test_check_laydown_command import run

VALUES = OpeningValues()


def readings(text: str) -> list[tuple[str, str, int]]:
    check = check_north_american_meld(parse_cards(text))
    return [(meld.kind, meld.describe(), meld.points(VALUES)) for meld in check.readings]


def problems(text: str) -> list[str]:
    return [str(problem) for problem in check_north_american_meld(parse_cards(text)).problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # NA2: the ace low (A-2-3) — an ace low counts 1 towards an opening (NA3).
        ("AS 2S 3S", [("run", "run A♠–3♠", 6)]),
        ("3S 2S AS", [("run", "run A♠–3♠", 6)]),
        ("2H AH 3H 4H", [("run", "run A♥–4♥", 10)]),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", [("run", "run A♣–K♣", 85)]),
        # … and high (Q-K-A), where it counts 11.
        ("QH KH AH", [("run", "run Q♥–A♥", 31)]),
        ("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", [("run", "run 2♣–A♣", 95)]),
        # A joker standing for the low ace counts 1 as well.
        ("JK 2D 3D", [("run", "run A♦–3♦", 6)]),
        ("AD JK 3D", [("run", "run A♦–3♦", 6)]),
        ("AS JK JK", [("set", "set of A", 33), ("run", "run Q♠–A♠", 31)]),
        # Sets are British sets (B2): of different suits.
        ("AS AH AD AC", [("set", "set of A", 44)]),
        ("KS KH JK", [("set", "set of K", 30)]),
    ],
)
def test_na2_melds_with_the_ace_high_or_low(text: str, expected: list[tuple[str, str, int]]) -> None:
    assert readings(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("KS AS 2S", "NA2: the ace is high or low, not both: A-2-3 and Q-K-A are runs, K-A-2 is not"),
        ("QD KD AD 2D", "NA2: the ace is high or low, not both: A-2-3 and Q-K-A are runs, K-A-2 is not"),
        ("AS 2S 4S", "NA2: not consecutive: 3♠ is missing"),
        ("7S 7S 7H", "NA2: a set is of different suits; 7♠ twice"),
        ("AS 2H 3S", "NA2: a run is of one suit; this mixes ♠ and ♥"),
    ],
)
def test_na2_what_is_not_a_meld(text: str, message: str) -> None:
    assert problems(text) == [message]


def test_the_british_reading_of_the_same_cards_is_unchanged() -> None:
    assert not check_british_meld(parse_cards("AS 2S 3S")).valid
    assert check_british_meld(parse_cards("KS AS 2S")).problems[0].rule == "B2"


@pytest.mark.parametrize(
    ("text", "valid", "points"),
    [
        # The spec's example: the ace low counts 1, so 10 + 30 + 30 = 70.
        ("AS 2S 3S 4S | KD KH KC | QD QH QC", True, 70),
        # Aces high count 11: Q-K-A 31 + A A A 33 = 64.
        ("QH KH AH | AS AD AC", True, 64),
        # Low and high in one opening: 6 + 31 + 30 = 67.
        ("AS 2S 3S | QH KH AH | JD JC JS", True, 67),
        # A-2-3-4-5 low (15) + K K K (30) + 2 3 4 (9) = 54.
        ("AC 2C 3C 4C 5C | KD KH KS | 2D 3D 4D", True, 54),
        ("JS QS KS | 6H 6D 6C | 5C 5H 5S", True, 63),
        # Short: with the ace low the same run is worth 10, not 51.
        ("AS 2S 3S 4S | 9D 9H 9C", False, 37),
        ("KS KH KD KC | 2H 3H 4H", False, 49),
        ("AH AS AD AC", False, 44),
    ],
)
def test_na3_the_opening_needs_51_with_aces_counted_low_and_high(text: str, valid: bool, points: int) -> None:
    verdict = check_opening(parse_laydown(text))
    assert (verdict.valid, verdict.highest) == (valid, points)
    assert verdict.needed == 51
    if not valid:
        assert verdict.problems[0].rule == "NA3"


def test_na1_the_deck_holds_four_jokers() -> None:
    assert check_opening(parse_laydown("AS JK JK | KS JK JK | QS QH QD")).valid
    verdict = check_opening(parse_laydown("AS JK JK | KS JK JK | QS QH JK"))
    assert [str(problem) for problem in verdict.problems] == ["NA1: 5 jokers are laid but the deck holds 4"]


def test_the_opening_follows_the_rules_given() -> None:
    rules = north_american_ruleset_from("north-american", {"opening_points": 71})
    assert not check_opening(parse_laydown("AS 2S 3S 4S | KD KH KC | QD QH QC"), rules).valid


# --- the command ----------------------------------------------------------------------------------


def test_check_laydown_north_american_the_spec_example() -> None:
    code, out, err = run("--ruleset", "north-american", "AS 2S 3S 4S | KD KH KC | QD QH QC")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "valid",
        "opening, 51 points needed: A♠ 2♠ 3♠ 4♠ (run A♠–4♠, 10) | K♦ K♥ K♣ (set of K, 30) | "
        "Q♦ Q♥ Q♣ (set of Q, 30) = 70 points",
    ]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (
            "KS AS 2S | KD KH KC | QD QH QC",
            [
                "meld 1 (K♠ A♠ 2♠): NA2: the ace is high or low, not both: A-2-3 and Q-K-A are runs, "
                "K-A-2 is not"
            ],
        ),
        (
            "AS 2S 3S | KD KH KC",
            ["lay-down: NA3: the melds are worth 36 points; an opening needs at least 51"],
        ),
    ],
)
def test_check_laydown_north_american_exits_1_naming_the_rule(text: str, lines: list[str]) -> None:
    code, out, err = run("--ruleset", "north-american", text)
    assert (code, err, out.splitlines()) == (1, "", lines)


def test_check_laydown_north_american_as_json() -> None:
    code, out, _ = run("--ruleset", "north-american", "--format", "json", "AS 2S 3S 4S | KD KH KC | QD QH QC")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["needed"] == 51
    assert data["melds"][0]["readings"][0]["points"] == 10
    assert data["melds"][0]["readings"][0]["stands_for"] == ["AS", "2S", "3S", "4S"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--ruleset", "north-american", "--deal", "3", "AS 2S 3S"),
            "--deal: North American Kaluki has no contracts",
        ),
        (("--ruleset", "north-american", "AS 2S 1S"), "meld 1: not a card: '1S'"),
    ],
)
def test_check_laydown_north_american_exits_2_when_unreadable(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out) == (2, "") and err.startswith(message)
