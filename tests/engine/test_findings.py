"""Finding codes, their order and severity (SCORESHEET.md, "Finding codes (stable)")."""

import dataclasses
import re
import string

import pytest

from adjudication.engine.findings import (
    CODES,
    MESSAGES,
    SPECS,
    Finding,
    finding,
    format_finding,
    summarize,
)

# The spec's table, in its order: the order decides which code reports a defect ("one defect, one code").
JAMAICAN_TABLE = [
    ("BAD_CARD", "error"),
    ("PLAYER_COUNT", "error"),
    ("DEAL_SEQUENCE", "error"),
    ("VOID_SCORED", "error"),
    ("MISSING_RESULT", "error"),
    ("NO_WINNER", "error"),
    ("WINNER_SCORED", "error"),
    ("CONTRACT_ERROR_OUT", "error"),
    ("OVERCALL_BEND", "error"),
    ("UNDOUBLED_BEND", "error"),
    ("CALL_LIMIT", "error"),
    ("OVERCALL_MISMARKED", "error"),
    ("HAND_SIZE", "error"),
    ("CONTRACT_ERROR_OPENED", "error"),
    ("CARD_SUPPLY", "error"),
    ("NOT_DOUBLED", "error"),
    ("PENALTY_MISMATCH", "error"),
    ("NONWINNER_ZERO", "error"),
    ("DOUBLED_ODD", "error"),
    ("PENALTY_RANGE", "error"),
    ("TOTAL_MISMATCH", "error"),
    ("DEALER_ORDER", "warning"),
    ("SET_INCOMPLETE", "warning"),
]
# The British game sheet's own codes (SCORESHEET.md, "A British Kalooki game sheet"), after the others.
BRITISH_TABLE = [
    ("BUY_IN_RESET", "error"),
    ("BUY_IN_NOT_OVER", "error"),
    ("BUY_IN_LIMIT", "error"),
    ("PLAYED_AFTER_OUT", "error"),
    ("GAME_OVER", "error"),
    ("GAME_UNFINISHED", "warning"),
]
# The North American game sheet's own code (SCORESHEET.md, "A North American Kaluki game sheet"), last.
NORTH_AMERICAN_TABLE = [("COLLECTED_MISMATCH", "error")]
SPEC_TABLE = JAMAICAN_TABLE + BRITISH_TABLE + NORTH_AMERICAN_TABLE


def test_codes_are_in_the_spec_order():
    assert list(CODES) == [code for code, _ in SPEC_TABLE]


@pytest.mark.parametrize(("code", "severity"), JAMAICAN_TABLE)
def test_each_code_has_its_spec_severity_and_a_rule(code, severity):
    assert SPECS[code].severity == severity
    assert SPECS[code].rule[0] in "RV" and SPECS[code].rule[1:].isdigit()


@pytest.mark.parametrize(("code", "severity"), BRITISH_TABLE)
def test_each_british_code_has_its_spec_severity_and_a_british_rule(code, severity):
    assert SPECS[code].severity == severity
    assert re.fullmatch(r"BV?\d+", SPECS[code].rule)


@pytest.mark.parametrize("code", CODES)
def test_each_code_has_a_message(code):
    assert code in MESSAGES


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_each_message_belongs_to_a_code(key):
    assert key.split(".")[0] in CODES


def test_a_finding_takes_its_wording_from_the_table():
    item = finding("TOTAL_MISMATCH", deal=2, player="Bob", expected=86, found=68)
    assert item.message == "Bob's running total after deal 2 is 86, not 68"
    assert (item.severity, item.rule) == ("error", "V14")


def test_a_finding_can_cite_another_rule_than_the_default():
    assert finding("HAND_SIZE", variant="winner", player="Ann", found=2, rule="V1").rule == "V1"


def test_as_dict_has_the_spec_shape():
    item = finding("NOT_DOUBLED", deal=3, player="Bob", expected=146, found=73, value=73)
    assert item.as_dict() == {
        "code": "NOT_DOUBLED",
        "severity": "error",
        "deal": 3,
        "player": "Bob",
        "rule": "V7",
        "message": item.message,
        "expected": 146,
        "found": 73,
    }


def test_findings_are_frozen():
    item = finding("SET_INCOMPLETE", expected=9, found=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.code = "X"  # type: ignore[misc]


# What the validator passes to a message besides deal, player, expected and found.
DETAILS = {
    "infractions",
    "bonus",
    "limit",
    "calls",
    "deal_size",
    "card",
    "value",
    "factor",
    "cards",
    "low",
    "high",
    "needed",
    "deck",
    "missing",
    # British Kalooki's wording.
    "hand_size",
    "fewest",
    "most",
    "lowest",
    "count",
}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_messages_use_only_known_placeholders(key):
    # A misspelt placeholder would raise KeyError only when the defect first shows up on a real sheet.
    names = {name for _, name, _, _ in string.Formatter().parse(MESSAGES[key]) if name}
    assert names <= {"deal", "player", "expected", "found"} | DETAILS


@pytest.mark.parametrize(
    ("item", "line"),
    [
        (
            Finding("SET_INCOMPLETE", "warning", None, None, "V12", "3 of 9 deals scored", 9, 3),
            "sheet: SET_INCOMPLETE (V12) 3 of 9 deals scored — expected 9, found 3 [warning]",
        ),
        (
            Finding("NO_WINNER", "error", 4, None, "V1", "no winner", None, None),
            "deal 4: NO_WINNER (V1) no winner",
        ),
    ],
)
def test_format_finding_says_where_and_what(item, line):
    assert format_finding(item) == line


@pytest.mark.parametrize(
    ("severities", "summary"),
    [
        ([], "no findings"),
        (["error"], "1 error, 0 warnings"),
        (["error", "error", "warning"], "2 errors, 1 warning"),
    ],
)
def test_summary_counts_errors_and_warnings(severities, summary):
    items = [Finding("X", severity, None, None, "V1", "", None, None) for severity in severities]
    assert summarize(items) == summary
