"""`python manage.py validate_sheet FILE [--format text|json]`: exit codes and output (SCORESHEET.md)."""

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

DATA = Path(__file__).resolve().parent.parent / "data"
ROOT = Path(__file__).resolve().parent.parent.parent
CLEAN = DATA / "example-sheet.json"
EXAMPLE = json.loads(CLEAN.read_text())


def run(*args, stdin=None):
    """The command in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    if stdin is not None:
        sys_stdin, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        call_command("validate_sheet", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        code = exit_.code
    finally:
        if stdin is not None:
            sys.stdin = sys_stdin
    return code, out.getvalue(), err.getvalue()


def write(tmp_path, sheet):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet) if not isinstance(sheet, str) else sheet)
    return str(path)


def broken():
    """Bob's doubled deal-3 score written odd (carried into his totals): DOUBLED_ODD."""
    sheet = copy.deepcopy(EXAMPLE)
    sheet["deals"][2]["results"]["Bob"]["penalty"] += 1
    for deal in sheet["deals"][2:]:
        deal["results"]["Bob"]["total"] += 1
    return sheet


def test_a_clean_sheet_exits_0_with_a_summary():
    code, out, err = run(str(CLEAN))
    assert (code, err) == (0, "")
    assert out == f"{CLEAN}: no findings\n"


def test_a_clean_sheet_as_json_is_an_empty_list():
    code, out, _ = run(str(CLEAN), "--format", "json")
    assert (code, json.loads(out)) == (0, [])


def test_errors_exit_1_with_one_line_each(tmp_path):
    path = write(tmp_path, broken())
    code, out, err = run(path)
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "deal 3, Bob: DOUBLED_ODD (V7) deal 3 is doubled, so Bob's score less 0 infraction points is a "
        "multiple of 2; 197 is not — expected 0 + a multiple of 2, found 197",
        f"{path}: 1 error, 0 warnings",
    ]


def test_warnings_alone_exit_0(tmp_path):
    sheet = copy.deepcopy(EXAMPLE)
    del sheet["deals"][5:]
    code, out, _ = run(write(tmp_path, sheet))
    assert code == 0
    assert "SET_INCOMPLETE (V12)" in out
    assert out.splitlines()[-1].endswith(": 0 errors, 1 warning")


def test_json_lists_each_finding_in_the_spec_shape(tmp_path):
    sheet = broken()
    sheet["deals"][0]["results"]["Ann"]["penalty"] = 0
    for deal in sheet["deals"]:
        deal["results"]["Ann"]["total"] -= 23
    code, out, _ = run(write(tmp_path, sheet), "--format", "json")
    findings = json.loads(out)
    assert code == 1
    assert [(item["code"], item["deal"], item["player"]) for item in findings] == [
        ("NONWINNER_ZERO", 1, "Ann"),
        ("DOUBLED_ODD", 3, "Bob"),
    ]
    assert findings[0] == {
        "code": "NONWINNER_ZERO",
        "severity": "error",
        "deal": 1,
        "player": "Ann",
        "rule": "V2",
        "message": findings[0]["message"],
        "expected": "≥ 1",
        "found": 0,
    }


def test_standard_input():
    code, out, _ = run("-", "--format", "json", stdin=json.dumps(broken()))
    assert code == 1
    assert [item["code"] for item in json.loads(out)] == ["DOUBLED_ODD"]
    assert run("-", stdin=CLEAN.read_text())[1] == "standard input: no findings\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
        ("[]", "expected an object, got []"),
        ('{"format": "kalooki-event/1"}', 'format: expected "kalooki-sheet/1", got "kalooki-event/1"'),
        (
            json.dumps({**EXAMPLE, "deals": [{"deal": 1, "results": {"Bob": {"calls": "two"}}}]}),
            'deals[0].results.Bob.calls: expected a whole number, got "two"',
        ),
        (json.dumps({**EXAMPLE, "ruleset": "kaluki"}), "ruleset: unknown ruleset 'kaluki'"),
        (json.dumps({**EXAMPLE, "players": ["Ann", "Ann"]}), 'players[1]: duplicate player name "Ann"'),
    ],
)
@pytest.mark.parametrize("output", ["text", "json"])
def test_unreadable_exits_2_with_one_message_and_no_output(tmp_path, text, message, output):
    code, out, err = run(write(tmp_path, text), "--format", output)
    assert (code, out) == (2, "")
    assert err.splitlines() == [err.strip()]
    assert err.strip().startswith(message)


def edited(change):
    """The spec example as JSON text after ``change(sheet)``."""
    sheet = copy.deepcopy(EXAMPLE)
    change(sheet)
    return json.dumps(sheet)


def line(sheet, index, name):
    return sheet["deals"][index]["results"][name]


# SCORESHEET.md's exit-2 list: scores are never negative, and the size limits.
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            edited(lambda sheet: sheet.update(rules={"bend_bonus": -50})),
            "rules.bend_bonus: scores are never negative (R14)",
        ),
        (
            edited(lambda sheet: line(sheet, 0, "Cy").update(penalty=-50)),
            "deals[0].results.Cy.penalty: expected a whole number of at least 0, got -50",
        ),
        (
            edited(lambda sheet: sheet.update(deals=[{"deal": 1, "void": True}] * 10 + sheet["deals"])),
            "deals[9]: more than 9 void deals in one set",
        ),
        (
            edited(lambda sheet: line(sheet, 0, "Bob").update(hand=" ".join(["2C"] * 61))),
            "deals[0].results.Bob.hand: 61 cards in one hand; at most 60 are allowed",
        ),
        (
            edited(lambda sheet: line(sheet, 0, "Dee").update(other_reason="x" * 501)),
            "deals[0].results.Dee.other_reason: a text of 501 characters; at most 500 are allowed",
        ),
        (
            edited(lambda sheet: sheet.update(players=["Ann", "Bob", "Cy", "D" * 501])),
            "players[3]: a text of 501 characters",
        ),
        (
            edited(lambda sheet: line(sheet, 0, "Bob").update(note=json.loads("[" * 16 + "]" * 16))),
            "deals[0].results.Bob.note" + "[0]" * 15 + ": JSON nested deeper than 20 levels",
        ),
        ("[" * 100_000 + "]" * 100_000, "JSON nested deeper than 20 levels"),
    ],
    ids=[
        "bend bonus",
        "negative penalty",
        "10 void deals",
        "61 cards",
        "long reason",
        "long name",
        "21 levels",
        "100,000 levels",
    ],
)
def test_what_breaks_a_limit_exits_2_naming_the_place(tmp_path, text, message):
    code, out, err = run(write(tmp_path, text))
    assert (code, out) == (2, "")
    assert err.splitlines() == [err.strip()]
    assert err.strip().startswith(message)


def test_a_missing_file_is_unreadable(tmp_path):
    code, out, err = run(str(tmp_path / "nowhere.json"))
    assert (code, out) == (2, "")
    assert "nowhere.json: cannot be read" in err


# The process contract itself (real exit status, real streams), once per exit code.
@pytest.mark.parametrize(
    ("stdin", "status", "stdout_empty"),
    [
        (CLEAN.read_text(), 0, False),
        (json.dumps(broken()), 1, False),
        ('{"format": "kalooki-sheet/1", "deals": []}', 2, True),
    ],
)
def test_the_process_exit_status(stdin, status, stdout_empty):
    done = subprocess.run(
        [sys.executable, "manage.py", "validate_sheet", "-"],
        input=stdin.encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == status
    assert (done.stdout == b"") == stdout_empty
    if status == 2:
        assert done.stderr.decode().strip() == "players: expected a list of player names, got null"


# --- British game sheets --------------------------------------------------------------------------

BRITISH = DATA / "british-game.json"


def test_a_clean_british_game_exits_0():
    code, out, err = run(str(BRITISH))
    assert (code, err) == (0, "")
    assert out == f"{BRITISH}: no findings\n"


def test_a_british_game_with_a_wrong_reset_exits_1(tmp_path):
    game = json.loads(BRITISH.read_text())
    line = next(
        result
        for hand in game["deals"]
        for result in hand.get("results", {}).values()
        if result.get("buy_in")
    )
    line["reset_to"] += 1
    code, out, _ = run(write(tmp_path, game), "--format", "json")
    assert code == 1
    assert json.loads(out)[0]["code"] == "BUY_IN_RESET"


def test_a_british_game_still_in_play_is_a_warning(tmp_path):
    game = json.loads(BRITISH.read_text())
    del game["deals"][-1]
    code, out, _ = run(write(tmp_path, game))
    assert code == 0
    assert "GAME_UNFINISHED (BV7)" in out and out.endswith(": 0 errors, 1 warning\n")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"ruleset": "british", "rules": {"call_limit": 3}},
            "rules.call_limit: a Jamaican Kalooki parameter",
        ),
        ({"ruleset": "jamaican"}, "deals[10].deal: expected a deal number from 1 to 9, got 10"),
    ],
)
def test_an_unreadable_british_game_exits_2(tmp_path, change, message):
    game = json.loads(BRITISH.read_text()) | change
    code, out, err = run(write(tmp_path, game))
    assert (code, out) == (2, "")
    assert err.strip().startswith(message)


def test_a_british_buy_in_without_its_reset_value_exits_2(tmp_path):
    game = json.loads(BRITISH.read_text())
    index, name = next(
        (index, name)
        for index, hand in enumerate(game["deals"])
        for name, result in hand.get("results", {}).items()
        if result.get("buy_in")
    )
    del game["deals"][index]["results"][name]["reset_to"]
    code, out, err = run(write(tmp_path, game))
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"deals[{index}].results.{name}.reset_to: missing: a buy-in needs the total it resets to (B7)"
    )
