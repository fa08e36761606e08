"""`manage.py check_laydown` (SCORESHEET.md, "Checking a disputed lay-down"): exit 0 / 1 / 2."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
SPEC_EXAMPLE = "QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC"


def run(*args: str) -> tuple[int, str, str]:
    """Call the command in-process; return (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("check_laydown", *args, stdout=out, stderr=err)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    else:
        code = 0
    return code, out.getvalue(), err.getvalue()


def test_a_valid_laydown_exits_0_and_says_valid_with_a_description() -> None:
    assert run("--deal", "3", SPEC_EXAMPLE) == (
        0,
        "valid\ndeal 3 · 1 set + 2 runs: Q♠ Q♥ JK | 4♥ 5♥ 6♥ 7♥ | 9♣ 10♣ J♣ Q♣\n",
        "",
    )


def test_melds_may_come_as_separate_arguments() -> None:
    code, out, _ = run("--deal", "1", "KS", "KH", "KD", "|", "QS", "QH", "QD", "|", "6S", "6H", "6D")
    assert code == 0 and out.startswith("valid\n")


@pytest.mark.parametrize(
    ("deal", "text", "lines"),
    [
        (
            "3",
            "QS QH JK | 4H 5H 7H 8H | 9C 10C JC",
            [
                "meld 2 (4♥ 5♥ 7♥ 8♥): R6: not consecutive: 6♥ is missing",
                "meld 3 (9♣ 10♣ J♣): R6: a run needs at least 4 cards, this has 3",
            ],
        ),
        ("4", SPEC_EXAMPLE, ["lay-down: R10: deal 4's contract is 3 runs; this lay-down is 1 set + 2 runs"]),
        ("1", "KS KH KD | QS JK JK | 6S 6H 6D", ["meld 2 (Q♠ JK JK): R5: a set needs at least 2 natural"]),
        ("1", "KS KH KD | QS QH QD | KC KD JK", ["lay-down: R7: melds 1 and 3 are both sets of K"]),
    ],
)
def test_a_broken_laydown_exits_1_with_a_line_per_meld_naming_the_rule(
    deal: str, text: str, lines: list[str]
) -> None:
    code, out, err = run("--deal", deal, text)
    assert (code, err) == (1, "")
    written = out.splitlines()
    assert len(written) == len(lines)
    for line, expected in zip(written, lines, strict=True):
        assert line.startswith(expected)


@pytest.mark.parametrize(
    ("deal", "text"),
    [
        # Issue 10: an opening that meets the contract may add further valid melds that turn (R10).
        ("1", "QS QH QD | KS KH KD | 6S 6H 6D | 9S 9H 9D"),
        ("1", "QS QH QD | KS KH KD | 6S 6H 6D | 4H 5H 6H 7H"),
        ("2", "QS QH QD | KS KH KD | 6S 6H 6D | 4H 5H 6H 7H"),
        ("3", "QS QH QD | KS KH KD | 4H 5H 6H 7H | 9C 10C JC QC"),
        ("4", "AS 2S 3S 4S | 4H 5H 6H 7H | 9C 10C JC QC | JD QD KD AD"),
    ],
)
def test_an_opening_with_further_melds_is_valid(deal: str, text: str) -> None:
    code, out, err = run("--deal", deal, text)
    assert (code, err) == (0, "")
    assert out.startswith("valid\n")


def test_a_run_valid_in_another_order_says_so_and_exits_1() -> None:
    code, out, err = run("--deal", "3", "QS QH QD | JK JK 5H 6H | 9C 10C JC QC")
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "meld 2 (JK JK 5♥ 6♥): R6: two jokers stand side by side; a run's jokers may never be adjacent",
        "meld 2 (JK JK 5♥ 6♥): not valid as written; valid as JK 5H 6H JK",
    ]
    code, out, _ = run("--deal", "3", "--format", "json", "QS QH QD | JK JK 5H 6H | 9C 10C JC QC")
    assert json.loads(out)["melds"][1]["valid_as"] == ["JK 5H 6H JK"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--deal", "3", "QS QH 1H"), "meld 1: not a card: '1H'"),
        (("--deal", "3", "QS QH JK | 4H 5H 6H 7H | 9C 10C JC QX"), "meld 3: not a card: 'QX'"),
        (("--deal", "3", "QS QH JK || 4H 5H 6H 7H"), "meld 2 is empty"),
        (("--deal", "3", " "), "nothing to check: write the melds separated by |"),
        (("--deal", "10", SPEC_EXAMPLE), "--deal: expected a deal number 1–9, got '10'"),
        (("--deal", "0", SPEC_EXAMPLE), "--deal: expected a deal number 1–9, got '0'"),
        (("--deal", "three", SPEC_EXAMPLE), "--deal: expected a deal number 1–9, got 'three'"),
        (
            ("--deal", "3", "--ruleset", "kaluki", SPEC_EXAMPLE),
            "--ruleset: unknown ruleset 'kaluki' (known: british, british-301, british-501, british-swedish, "
            "jamaican, jamaican-large, north-american)",
        ),
    ],
)
def test_what_cannot_be_read_exits_2_with_one_message_on_stderr(args: tuple[str, ...], message: str) -> None:
    assert run(*args) == (2, "", message + "\n")


def test_the_ruleset_decides_the_deck() -> None:
    laydown = "QS QS QS | 4H 5H 6H 7H | 9C 10C JC QC"
    assert run("--deal", "3", laydown)[0] == 1
    assert run("--deal", "3", "--ruleset", "jamaican-large", laydown)[0] == 0


def test_json_output_is_the_verdict_as_data() -> None:
    code, out, _ = run("--deal", "3", "--format", "json", "QS QH | 4H 5H 6H 7H | 9C 10C JC QC")
    data = json.loads(out)
    assert code == 1 and data["valid"] is False
    assert data["melds"][0]["problems"] == [
        {"rule": "R5", "message": "a set needs at least 3 cards, this has 2"}
    ]


@pytest.mark.parametrize(
    ("args", "code", "stdout", "stderr"),
    [
        (("--deal", "3", SPEC_EXAMPLE), 0, "valid\n", ""),
        (("--deal", "1", "QS QH QD | KS KH KD | 6S 6H 6D | 9S 9H 9D"), 0, "valid\n", ""),
        (("--deal", "3", "QS QH QD | JK JK 5H 6H | 9C 10C JC QC"), 1, "meld 2 ", ""),
        (("--deal", "2", SPEC_EXAMPLE), 1, "lay-down: R10: ", ""),
        (("--deal", "3", "QS QH 1H"), 2, "", "meld 1: not a card: '1H'\n"),
    ],
)
def test_the_exit_codes_reach_the_shell(args: tuple[str, ...], code: int, stdout: str, stderr: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check_laydown", *args],
        cwd=ROOT,
        # The suit symbols must survive whatever locale the machine has.
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == code
    assert done.stdout.startswith(stdout)
    assert done.stderr == stderr
