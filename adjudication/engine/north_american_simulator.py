"""Seeded, reproducible North American Kaluki games that obey every rule: for tests, demos and benchmarks.

Each scored hand is dealt from one shuffled 108-card deck (NA1): one winner with an empty hand (NV1); every
other player unopened with exactly the table's hand size (15, 13 or 11) or opened with 1 to that size − 5
(NV2), scoring the NA4 value of those cards. The winner collects the sum of the others' penalties and only
the winner's total grows (NA6, NV3); the game is the ruleset's ``hands`` scored hands (NV4). Void hands are
dealt again by the same dealer and do not count (B8); the deal passes to the left (B1). Every card in the
hands comes from the one deck, so the card supply holds.

>>> from .validator import validate_data
>>> game = simulate_north_american_sheet(7)
>>> validate_data(game)
[]
>>> simulate_north_american_sheet(7) == game, game["rules"]["hands"]
(True, 8)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from .british_simulator import with_dealer
from .cards import FULL_DECK, JOKER, format_cards
from .north_american_rules import (
    DEFAULT_NORTH_AMERICAN_PRESET,
    NORTH_AMERICAN_PRESETS,
    NorthAmericanRuleSet,
)
from .north_american_sheet import NorthAmericanSheet
from .sheet import sheet_to_dict
from .simulator import DEFAULT_PLAYERS, seeded_many

__all__ = ["DEFAULT_SIMULATED_HANDS", "simulate_north_american_many", "simulate_north_american_sheet"]

# The game's length when the ruleset given sets none (NA6: the event sets `hands`).
DEFAULT_SIMULATED_HANDS: Final = 8


def simulate_north_american_sheet(
    seed: int,
    players: Sequence[str] = DEFAULT_PLAYERS,
    *,
    rules: NorthAmericanRuleSet | None = None,
    hands: int | None = None,
    with_hands: bool = True,
    void_rate: float = 0.03,
    open_rate: float = 0.6,
    collected_rate: float = 0.8,
    dealers: bool = True,
) -> dict[str, Any]:
    """A valid North American game sheet as a ``kalooki-sheet/1`` dict: all of the ruleset's ``hands``
    (:data:`DEFAULT_SIMULATED_HANDS` when it sets none), or stopped after ``hands`` scored hands (a game
    still in play).

    ``with_hands`` writes every player's cards left in hand (the winner's is ``""``); ``collected_rate``
    is how often the winner's line says what they collected (it is optional); ``dealers`` writes
    ``first_dealer`` and each hand's dealer. The same arguments always give the same sheet.

    >>> game = simulate_north_american_sheet(1, ["Ann", "Bob", "Cy"], hands=2, dealers=False)
    >>> sorted(game), [hand["deal"] for hand in game["deals"] if not hand.get("void")]
    (['deals', 'format', 'players', 'rules', 'ruleset'], [1, 2])
    """
    rules = rules or NORTH_AMERICAN_PRESETS[DEFAULT_NORTH_AMERICAN_PRESET]
    length = DEFAULT_SIMULATED_HANDS if rules.hands is None else rules.hands
    rules = replace(rules, hands=length)
    count = len(players)
    if not rules.min_players <= count <= rules.max_players or not rules.can_deal(count):
        raise ValueError(f"{count} players cannot sit at a {rules.name} table")
    if len(set(players)) != count:
        raise ValueError("player names must differ")
    rng = random.Random(seed)
    deck = [*FULL_DECK * rules.decks, *[JOKER] * rules.jokers]
    dealer = rng.randrange(count)
    first_dealer = players[dealer] if dealers else None
    sheet = sheet_to_dict(NorthAmericanSheet(rules, tuple(players), first_dealer=first_dealer))
    size = rules.hand_size_for(count)
    most = rules.opened_hand_sizes(count)[1]
    totals = dict.fromkeys(players, 0)
    entries: list[dict[str, Any]] = []
    last = length if hands is None else min(hands, length)
    for number in range(1, last + 1):
        # B8: a second stock exhaustion voids the hand; the same dealer deals it again.
        while rng.random() < void_rate:
            entries.append(with_dealer({"deal": number, "void": True}, players[dealer] if dealers else None))
        winner = rng.choice(players)
        # NA1: the hands all come out of one deck (can_deal guarantees they fit).
        rng.shuffle(deck)
        position = 0
        results: dict[str, dict[str, Any]] = {}
        collected = 0
        for name in players:
            opened = name != winner and most >= 1 and rng.random() < open_rate
            held = 0 if name == winner else rng.randint(1, most) if opened else size
            cards = deck[position : position + held]
            position += held
            result: dict[str, Any] = {}
            if with_hands:
                result["hand"] = format_cards(cards)
            # `opened` is optional on a sheet: leave it out now and then.
            if name != winner and rng.random() < 0.8:
                result["opened"] = opened
            penalty = sum(rules.card_value(card) for card in cards)
            collected += penalty
            result["penalty"] = penalty
            results[name] = result
        # NA6: the winner collects the others' hand values; everyone else's total stays.
        totals[winner] += collected
        if rng.random() < collected_rate:
            results[winner]["collected"] = collected
        for name, result in results.items():
            result["total"] = totals[name]
        entry = {"deal": number, "out": winner, "results": results}
        entries.append(with_dealer(entry, players[dealer] if dealers else None))
        dealer = (dealer + 1) % count
    sheet["deals"] = entries
    return sheet


def simulate_north_american_many(seed: int, count: int, **options: Any) -> list[dict[str, Any]]:
    """``count`` games, each with its own seed drawn from ``seed`` (same arguments, same games).

    >>> [game["ruleset"] for game in simulate_north_american_many(3, 2)]
    ['north-american', 'north-american']
    """
    return seeded_many(simulate_north_american_sheet, seed, count, **options)
