"""Seeded, reproducible British Kalooki games that obey every rule: for tests, demos and benchmarks.

Each scored hand is dealt from a shuffled deck: one winner among the players still in, with an empty hand
(BV1); every other player unopened with exactly ``hand_size`` cards or opened with 1 to ``hand_size`` − 4
(BV2), scoring the B5 value of those cards (doubled for a kalookie under ``kalookie_doubles``, B6). A player
whose total goes over the limit buys back in at the highest total still at or under it while buy-ins are
left (and the dice say so), or is out (B7); the game ends when one player is left (BV7). Void hands are
dealt again by the same dealer (B8); the deal passes to the left among the players still in (B1). Every
card in the hands comes from the one shuffled deck, so the card supply holds (BV4).

>>> from .validator import validate_data
>>> game = simulate_british_sheet(7)
>>> validate_data(game)
[]
>>> simulate_british_sheet(7) == game, game["deals"][-1]["deal"] >= 3
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .british_rules import BRITISH_PRESETS, DEFAULT_BRITISH_PRESET, BritishRuleSet
from .british_sheet import BritishSheet
from .cards import FULL_DECK, JOKER, Card, format_cards
from .sheet import sheet_to_dict
from .simulator import DEFAULT_PLAYERS, seeded_many

__all__ = ["simulate_british_many", "simulate_british_sheet"]


def simulate_british_sheet(
    seed: int,
    players: Sequence[str] = DEFAULT_PLAYERS,
    *,
    rules: BritishRuleSet | None = None,
    hands: int | None = None,
    with_hands: bool = True,
    void_rate: float = 0.03,
    kalookie_rate: float = 0.03,
    open_rate: float = 0.6,
    buy_in_rate: float = 0.75,
    dealers: bool = True,
) -> dict[str, Any]:
    """A valid British game sheet as a ``kalooki-sheet/1`` dict: played to its end, or stopped after
    ``hands`` scored hands (a game still in play).

    ``with_hands`` writes every player's cards left in hand (the winner's is ``""``); ``dealers`` writes
    ``first_dealer`` and each hand's dealer. The same arguments always give the same sheet.

    >>> game = simulate_british_sheet(1, ["Ann", "Bob", "Cy"], hands=2, with_hands=False, dealers=False)
    >>> sorted(game), [hand["deal"] for hand in game["deals"] if not hand.get("void")]
    (['deals', 'format', 'players', 'ruleset'], [1, 2])
    """
    rules = rules or BRITISH_PRESETS[DEFAULT_BRITISH_PRESET]
    if not rules.min_players <= len(players) <= rules.max_players or not rules.can_deal(len(players)):
        raise ValueError(f"{len(players)} players cannot sit at a {rules.name} table")
    if len(set(players)) != len(players):
        raise ValueError("player names must differ")
    rng = random.Random(seed)
    deck = [*FULL_DECK * rules.decks, *[JOKER] * rules.jokers]
    dealer = rng.randrange(len(players))
    first_dealer = players[dealer] if dealers else None
    sheet = sheet_to_dict(BritishSheet(rules, tuple(players), first_dealer=first_dealer))
    game = _Game(rng, rules, list(players))
    entries: list[dict[str, Any]] = []
    last = rules.max_hands if hands is None else min(hands, rules.max_hands)
    number = 0
    while number < last and len(game.playing()) > 1:
        number += 1
        # B8: a second stock exhaustion voids the hand; the same dealer deals it again.
        while rng.random() < void_rate:
            entries.append(with_dealer({"deal": number, "void": True}, players[dealer] if dealers else None))
        entry = game.hand(
            number, deck, with_hands=with_hands, kalookie_rate=kalookie_rate, open_rate=open_rate
        )
        game.limit(entry["results"], buy_in_rate)
        entries.append(with_dealer(entry, players[dealer] if dealers else None))
        dealer = game.left_of(dealer)
    sheet["deals"] = entries
    return sheet


def simulate_british_many(seed: int, count: int, **options: Any) -> list[dict[str, Any]]:
    """``count`` games, each with its own seed drawn from ``seed`` (same arguments, same games).

    >>> [game["ruleset"] for game in simulate_british_many(3, 2)]
    ['british', 'british']
    """
    return seeded_many(simulate_british_sheet, seed, count, **options)


def with_dealer(entry: dict[str, Any], dealer: str | None) -> dict[str, Any]:
    return entry if dealer is None else {"deal": entry["deal"], "dealer": dealer, **entry}


class _Game:
    """The state one simulated game carries from hand to hand."""

    def __init__(self, rng: random.Random, rules: BritishRuleSet, players: list[str]) -> None:
        self.rng = rng
        self.rules = rules
        self.players = players
        self.totals = dict.fromkeys(players, 0)
        self.buy_ins = dict.fromkeys(players, 0)
        self.still_in = dict.fromkeys(players, True)

    def playing(self) -> list[str]:
        return [name for name in self.players if self.still_in[name]]

    def hand(
        self, number: int, deck: list[Card], *, with_hands: bool, kalookie_rate: float, open_rate: float
    ) -> dict[str, Any]:
        rng, rules = self.rng, self.rules
        playing = self.playing()
        winner = rng.choice(playing)
        kalookie = rng.random() < kalookie_rate
        factor = rules.penalty_factor(kalookie=kalookie)
        most = rules.opened_hand_sizes[1]
        # B1: the hands and the winner's melds all come out of one deck (can_deal guarantees it fits).
        rng.shuffle(deck)
        position = 0
        results: dict[str, dict[str, Any]] = {}
        for name in playing:
            opened = name != winner and most >= 1 and rng.random() < open_rate
            held = 0 if name == winner else rng.randint(1, most) if opened else rules.hand_size
            cards = deck[position : position + held]
            position += held
            result: dict[str, Any] = {}
            if with_hands:
                result["hand"] = format_cards(cards)
            # `opened` is optional on a sheet: leave it out now and then.
            if name != winner and rng.random() < 0.8:
                result["opened"] = opened
            penalty = sum(rules.card_value(card) for card in cards) * factor
            self.totals[name] += penalty
            result["penalty"] = penalty
            result["total"] = self.totals[name]
            results[name] = result
        return {"deal": number, "out": winner, "kalookie": kalookie, "results": results}

    def limit(self, results: dict[str, dict[str, Any]], buy_in_rate: float) -> None:
        """B7: over the limit, buy back in at the highest total still at or under it, or go out."""
        rules, totals = self.rules, self.totals
        reset = rules.reset_value(totals[name] for name in results)
        for name, result in results.items():
            if not rules.is_over(totals[name]):
                continue
            if reset is not None and self.buy_ins[name] < rules.buy_ins and self.rng.random() < buy_in_rate:
                self.buy_ins[name] += 1
                result["buy_in"] = True
                result["reset_to"] = reset
                totals[name] = reset
            else:
                self.still_in[name] = False

    def left_of(self, seat: int) -> int:
        """B1: the next player to the left still in the game deals next."""
        for step in range(1, len(self.players) + 1):
            candidate = (seat + step) % len(self.players)
            if self.still_in[self.players[candidate]]:
                return candidate
        return seat
