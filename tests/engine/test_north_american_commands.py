"""`manage.py validate_sheet` reads a North American sheet (SCORESHEET.md, "The validator's answer"): exit
0 clean, 1 with an error, 2 unreadable; `check_laydown --ruleset north-american` is in
test_north_american_melds.py."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.engine.north_american_games import SAMPLE_GAME, short_game
from tests.engine.test_validate_sheet_command import ROOT, run

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "north-american-game.json"


def write(tmp_path: Path, sheet: Any) -> str:
    path = tmp_path / "north-american.json"
    path.write_text(json.dumps(sheet))
    return str(path)


def test_the_sample_game_exits_0() -> None:
    assert run(str(SAMPLE)) == (0, f"{SAMPLE}: no findings\n", "")


def test_a_wrong_collected_exits_1_naming_the_code(tmp_path: Path) -> None:
    sheet = short_game()
    sheet["deals"][0]["results"]["Bob"]["collected"] = 150
    code, out, err = run(write(tmp_path, sheet), "--format", "json")
    assert (code, err) == (1, "")
    assert json.loads(out) == [
        {
            "code": "COLLECTED_MISMATCH",
            "severity": "error",
            "deal": 1,
            "player": "Bob",
            "rule": "NV1",
            "message": "Bob went out in hand 1, so collects the sum of the others' hand values, 151, not 150",
            "expected": 151,
            "found": 150,
        }
    ]


def test_a_game_still_in_play_is_a_warning_and_exits_0(tmp_path: Path) -> None:
    sheet = copy.deepcopy(SAMPLE_GAME)
    sheet["rules"]["hands"] = 8
    code, out, _ = run(write(tmp_path, sheet))
    assert code == 0
    assert out.splitlines()[0] == (
        "sheet: GAME_UNFINISHED (NV4) 6 of 8 hands scored: the game is still in play — "
        "expected 8, found 6 [warning]"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda sheet: sheet.pop("rules"),
            "rules.hands: missing: a North American game is a fixed number of hands",
        ),
        (lambda sheet: sheet["rules"].update(limit=150), "rules.limit: a British Kalooki parameter"),
        (
            lambda sheet: sheet["deals"][0]["results"]["Ann"].update(buy_in=True),
            "deals[0].results.Ann.buy_in: a British Kalooki field",
        ),
    ],
)
def test_what_cannot_be_read_exits_2(tmp_path: Path, change: Any, message: str) -> None:
    sheet = short_game()
    change(sheet)
    code, out, err = run(write(tmp_path, sheet))
    assert (code, out) == (2, "") and err.startswith(message)


def test_the_exit_codes_reach_the_shell(tmp_path: Path) -> None:
    sheet = short_game()
    sheet["deals"][1]["results"]["Ann"]["penalty"] += 1
    done = subprocess.run(
        [sys.executable, "manage.py", "validate_sheet", write(tmp_path, sheet)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "PENALTY_MISMATCH (NA4)" in done.stdout
