"""British Kalooki games for the engine tests: a short game built hand by hand, and how a director's mistake
changes one.

The builder is its own arithmetic (B5 values, running totals, B7 resets), so a test of the engine never
takes the engine's word for what a sheet should say.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data"
# The 22-hand british-301 game (four players, buy-ins, three eliminations, a void hand, a kalookie).
LONG_GAME: dict[str, Any] = json.loads((DATA / "british-game.json").read_text(encoding="utf-8"))

# B5: ace 11, K Q J 10 → 10, joker 15, 2–9 face value.
PICTURE_VALUES = {"A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "JK": 15}


def hand_value(cards: str, values: dict[str, int] = PICTURE_VALUES) -> int:
    """The hand's value, 2–9 face and the others from ``values`` (B5 unless another game's are given)."""
    total = 0
    for token in cards.split():
        rank = "JK" if token == "JK" else token[:-1]
        total += values[rank] if rank in values else int(rank)
    return total


# A game of three at the 150 limit, as RULES.md B1–B8 play it (cards, opened, bought in):
#  1 Ann out; Bob opened with A♥ 9♣ JK (seed 002's 35); Cy unopened, 13 cards.
#  3 is void and dealt again by Cy (B8).
#  4 Cy goes over (213) and buys in at Ann's 124, the highest total still at or under 150 (B7).
#  5 a kalookie (no doubling in the main rules).
#  6 Ann goes over (236) with no buy-in: out; the deal passes to Bob, skipping her (B1).
#  7 Cy over again (169): second buy-in, at Bob's 110.
#  8 Cy over a third time (196): out for good; Bob, the last at or under 150, wins (BV7).
SHORT_GAME_HANDS: list[tuple[Any, ...]] = [
    (1, "Ann", "Ann", False, {
        "Ann": ("", None, False),
        "Bob": ("AH 9C JK", True, False),
        "Cy": ("2S 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC KS", False, False),
    }),
    (2, "Bob", "Cy", False, {
        "Ann": ("KH KD", True, False),
        "Bob": ("QS JS 10S 9D", True, False),
        "Cy": ("", None, False),
    }),
    (3, "Cy", None, None, None),
    (3, "Cy", "Bob", False, {
        "Ann": ("AS AC KC QD JH 10C 9H 8D 7S 6C 5D 4H 3S", False, False),
        "Bob": ("", None, False),
        "Cy": ("JK 8S", True, False),
    }),
    (4, "Ann", "Ann", False, {
        "Ann": ("", None, False),
        "Bob": ("AS KS QH", True, False),
        "Cy": ("AD AH KD QS JC 10D 9C 8H 7C 6D 5C 4D 3H", False, True),
    }),
    (5, "Bob", "Bob", True, {
        "Ann": ("9S 8S", True, False),
        "Bob": ("", None, False),
        "Cy": ("KH", None, False),
    }),
    (6, "Cy", "Cy", False, {
        "Ann": ("2C 3C 4S 5H 6S 7H 8C 9D 10S JS QH KC AD", False, False),
        "Bob": ("5S", True, False),
        "Cy": ("", None, False),
    }),
    (7, "Bob", "Bob", False, {
        "Bob": ("", None, False),
        "Cy": ("JK QC QD", True, True),
    }),
    (8, "Cy", "Bob", False, {
        "Bob": ("", None, False),
        "Cy": ("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2H", False, False),
    }),
]  # fmt: skip


def build_game(
    hands: list[tuple[Any, ...]],
    *,
    players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
    ruleset: str = "british",
    rules: dict[str, Any] | None = None,
    limit: int = 150,
    kalookie_factor: int = 1,
) -> dict[str, Any]:
    """A sheet for ``hands`` (number, dealer, out, kalookie, {name: (cards, opened, buy_in)}), its
    penalties, totals and reset values worked out here."""
    sheet: dict[str, Any] = {"format": "kalooki-sheet/1", "ruleset": ruleset}
    if rules:
        sheet["rules"] = rules
    sheet |= {"players": list(players), "first_dealer": hands[0][1], "deals": []}
    totals = dict.fromkeys(players, 0)
    for number, dealer, out, kalookie, lines in hands:
        if lines is None:
            sheet["deals"].append({"deal": number, "void": True, "dealer": dealer})
            continue
        results: dict[str, Any] = {}
        for name, (cards, opened, _) in lines.items():
            penalty = hand_value(cards) * (kalookie_factor if kalookie and name != out else 1)
            totals[name] += penalty
            results[name] = {"hand": cards, "penalty": penalty, "total": totals[name]}
            if opened is not None:
                results[name]["opened"] = opened
        reset = max(totals[name] for name in lines if totals[name] <= limit)
        for name, (_, _, buy_in) in lines.items():
            if buy_in:
                assert totals[name] > limit, f"hand {number}: {name} is not over {limit}"
                results[name] |= {"buy_in": True, "reset_to": reset}
                totals[name] = reset
        sheet["deals"].append(
            {"deal": number, "dealer": dealer, "out": out, "kalookie": kalookie, "results": results}
        )
    return sheet


def short_game() -> dict[str, Any]:
    return build_game(SHORT_GAME_HANDS)


def long_game() -> dict[str, Any]:
    return copy.deepcopy(LONG_GAME)


def without_hands(sheet: dict[str, Any]) -> dict[str, Any]:
    for deal in sheet["deals"]:
        for line in deal.get("results", {}).values():
            line.pop("hand", None)
    return sheet


def index_of(sheet: dict[str, Any], number: int) -> int:
    """The index in ``deals`` of scored hand ``number``."""
    return next(i for i, deal in enumerate(sheet["deals"]) if deal["deal"] == number and not deal.get("void"))


def line(sheet: dict[str, Any], number: int, name: str) -> dict[str, Any]:
    result: dict[str, Any] = sheet["deals"][index_of(sheet, number)]["results"][name]
    return result


def carry(sheet: dict[str, Any], number: int, name: str, penalty: int) -> None:
    """Write ``penalty`` for ``name`` in hand ``number`` and carry the change into the later totals, as a
    director would, up to the player's next buy-in (later totals build on its reset value)."""
    change = penalty - line(sheet, number, name)["penalty"]
    line(sheet, number, name)["penalty"] = penalty
    for deal in sheet["deals"][index_of(sheet, number) :]:
        result = deal.get("results", {}).get(name)
        if result is None:
            continue
        result["total"] += change
        if result.get("buy_in"):
            break


def codes(findings: list[Any]) -> list[tuple[str, int | None, str | None]]:
    return [(item.code, item.deal, item.player) for item in findings]
