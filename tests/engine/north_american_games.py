"""North American Kaluki games for the engine tests: a short game built hand by hand, and how a director's
mistake changes one.

The builder is its own arithmetic (NA4 values, NA6 collecting, running totals), so a test of the engine
never takes the engine's word for what a sheet should say.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.engine.british_games import hand_value as british_hand_value

DATA = Path(__file__).resolve().parent.parent / "data"
# Six hands at a table of five (13 cards each), two void hands, written by the simulator and checked by hand.
SAMPLE_GAME: dict[str, Any] = json.loads((DATA / "north-american-game.json").read_text(encoding="utf-8"))

# NA4: ace 15, joker 25, K Q J 10 → 10, 2–9 face value.
PICTURE_VALUES = {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10, "JK": 25}


def hand_value(cards: str) -> int:
    return british_hand_value(cards, PICTURE_VALUES)


FIFTEEN = "AS 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC KS JK 2C"
# A game of three (15 cards each, NA1) over three hands (rules.hands): (hand, dealer, out, lines) with each
# line (cards left, opened). Hand 1: Bob goes out; Ann unopened with 15 cards; Cy opened with two left.
SHORT_GAME_HANDS: list[tuple[int, str, str, dict[str, tuple[str, bool | None]]]] = [
    (1, "Ann", "Bob", {"Ann": (FIFTEEN, False), "Bob": ("", None), "Cy": ("AH KH", True)}),
    (2, "Bob", "Cy", {
        "Ann": ("QS JS 10S", True),
        "Bob": ("2S 3S 4S 5D 6D 7D 8S 9D 10D JC QD KD AD 3C 4D", False),
        "Cy": ("", None),
    }),
    (3, "Cy", "Ann", {"Ann": ("", None), "Bob": ("JK 7S", True), "Cy": ("9H", True)}),
]  # fmt: skip


def short_game(
    hands: list[tuple[int, str, str, dict[str, tuple[str, bool | None]]]] | None = None,
    *,
    game_hands: int = 3,
) -> dict[str, Any]:
    """The short game as a sheet: every line's penalty, the winner's collected and every running total."""
    players = ["Ann", "Bob", "Cy"]
    totals = dict.fromkeys(players, 0)
    deals = []
    for number, dealer, out, lines in hands or SHORT_GAME_HANDS:
        results: dict[str, dict[str, Any]] = {}
        collected = sum(hand_value(cards) for name, (cards, _) in lines.items() if name != out)
        totals[out] += collected
        for name, (cards, opened) in lines.items():
            line: dict[str, Any] = {"hand": cards}
            if opened is not None:
                line["opened"] = opened
            line["penalty"] = 0 if name == out else hand_value(cards)
            if name == out:
                line["collected"] = collected
            line["total"] = totals[name]
            results[name] = line
        deals.append({"deal": number, "dealer": dealer, "out": out, "results": results})
    return {
        "format": "kalooki-sheet/1",
        "ruleset": "north-american",
        "rules": {"hands": game_hands},
        "players": players,
        "first_dealer": "Ann",
        "deals": deals,
    }


def index_of(sheet: dict[str, Any], number: int) -> int:
    """The position in ``deals`` of the scored hand ``number``."""
    return next(i for i, hand in enumerate(sheet["deals"]) if hand["deal"] == number and not hand.get("void"))


def carry(sheet: dict[str, Any], number: int, name: str, penalty: int) -> dict[str, Any]:
    """A director writes ``penalty`` for ``name`` in hand ``number`` and carries it on consistently: the
    winner's ``collected`` and the winner's running totals from that hand on (NA6)."""
    start = index_of(sheet, number)
    hand = sheet["deals"][start]
    change = penalty - hand["results"][name]["penalty"]
    hand["results"][name]["penalty"] = penalty
    winner = hand["out"]
    if "collected" in hand["results"][winner]:
        hand["results"][winner]["collected"] += change
    for later in sheet["deals"][start:]:
        if not later.get("void") and winner in later["results"] and "total" in later["results"][winner]:
            later["results"][winner]["total"] += change
    return sheet
