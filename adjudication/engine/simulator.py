"""Seeded, reproducible score sheets that obey every rule: for tests, demos and benchmarks.

Each scored deal is dealt from a shuffled deck and ends in a state the rules allow: random successful calls
within the limit, opened players holding 1 to 2c cards and unopened ones d + 2c (V4, V5), one winner with an
empty hand, sometimes a doubled deal (always when the winner made no call, V6), sometimes a void deal and
its replay (V11), now and then a ruled over-call, contract error or other infraction with its penalty — never
on a winner the rules forbid (V8). Dealers follow R21 and running totals add up (V14). Every card in the
hands comes from the one shuffled deck, so the card supply holds (V9).

>>> from .validator import validate_data
>>> sheet = simulate_sheet(7)
>>> [deal["deal"] for deal in sheet["deals"] if not deal.get("void")]
[1, 2, 3, 4, 5, 6, 7, 8, 9]
>>> validate_data(sheet)
[]
>>> simulate_sheet(7) == sheet
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .cards import FULL_DECK, JOKER, Card, format_cards
from .rules import DEALS_PER_SET, DEFAULT_PRESET, PRESETS, UPCARD, RuleSet
from .scoring import result_penalty
from .sheet import FORMAT, MAX_VOID_DEALS

__all__ = ["seeded_many", "simulate_many", "simulate_sheet"]

DEFAULT_PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def simulate_sheet(
    seed: int,
    players: Sequence[str] = DEFAULT_PLAYERS,
    *,
    rules: RuleSet | None = None,
    deals: int = DEALS_PER_SET,
    with_hands: bool = True,
    void_rate: float = 0.05,
    double_rate: float = 0.25,
    infraction_rate: float = 0.04,
    open_rate: float = 0.5,
    dealers: bool = True,
) -> dict[str, Any]:
    """A valid ``kalooki-sheet/1`` dict of ``deals`` scored deals (fewer than 9: a set still in play).

    ``with_hands`` writes every player's cards left in hand (the winner's is ``""``); ``dealers`` writes
    ``first_dealer`` and each deal's dealer. The same arguments always give the same sheet.

    >>> sheet = simulate_sheet(1, ["Ann", "Bob", "Cy"], deals=2, with_hands=False, dealers=False)
    >>> sorted(sheet), len(sheet["deals"]) >= 2
    (['deals', 'format', 'players', 'ruleset'], True)
    """
    rules = rules or PRESETS[DEFAULT_PRESET]
    players = list(players)
    if not rules.min_players <= len(players) <= rules.max_players or not rules.can_deal(len(players)):
        raise ValueError(f"{len(players)} players cannot sit at a {rules.name} table")
    if len(set(players)) != len(players):
        raise ValueError("player names must differ")
    if not 0 <= deals <= DEALS_PER_SET:
        raise ValueError(f"a set has at most {DEALS_PER_SET} deals")
    rng = random.Random(seed)
    deck = [*FULL_DECK * rules.decks, *[JOKER] * rules.jokers]
    dealer = rng.randrange(len(players))
    sheet: dict[str, Any] = {"format": FORMAT, "ruleset": rules.name}
    overrides = rules.overrides()
    if overrides:
        sheet["rules"] = overrides
    sheet["players"] = players
    if dealers:
        sheet["first_dealer"] = players[dealer]
    totals = dict.fromkeys(players, 0)
    entries: list[dict[str, Any]] = []
    voids = 0
    for number in range(1, deals + 1):
        # R19: a second stock exhaustion voids the deal; it is replayed with the same contract.
        # A readable sheet holds at most MAX_VOID_DEALS of them.
        while voids < MAX_VOID_DEALS and rng.random() < void_rate:
            voids += 1
            entries.append(_void(number, players[dealer] if dealers else None))
            if rules.void_redeal == "next":
                dealer = (dealer + 1) % len(players)
        entry = _deal(rng, rules, players, number, deck, with_hands, double_rate, infraction_rate, open_rate)
        if dealers:
            entry = {"deal": number, "dealer": players[dealer], **entry}
        for name, result in entry["results"].items():
            totals[name] += result["penalty"]
            result["total"] = totals[name]
        entries.append(entry)
        # R21: the deal passes to the left.
        dealer = (dealer + 1) % len(players)
    sheet["deals"] = entries
    return sheet


def simulate_many(seed: int, count: int, **options: Any) -> list[dict[str, Any]]:
    """``count`` sheets, each with its own seed drawn from ``seed`` (same arguments, same sheets).

    >>> [len(sheet["deals"]) >= 9 for sheet in simulate_many(3, 2)]
    [True, True]
    """
    return seeded_many(simulate_sheet, seed, count, **options)


def seeded_many(
    simulate: Callable[..., dict[str, Any]], seed: int, count: int, **options: Any
) -> list[dict[str, Any]]:
    """``count`` results of ``simulate`` (any game's simulator), each with its own seed drawn from ``seed``.

    >>> def dice(seed: int) -> dict[str, Any]:
    ...     return {"die": seed % 6 + 1}
    >>> seeded_many(dice, 3, 4) == seeded_many(dice, 3, 4), len(seeded_many(dice, 3, 4))
    (True, 4)
    """
    rng = random.Random(seed)
    return [simulate(rng.getrandbits(63), **options) for _ in range(count)]


def _void(number: int, dealer: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"deal": number, "void": True}
    if dealer is not None:
        entry["dealer"] = dealer
    return entry


def _deal(
    rng: random.Random,
    rules: RuleSet,
    players: list[str],
    number: int,
    deck: list[Card],
    with_hands: bool,
    double_rate: float,
    infraction_rate: float,
    open_rate: float,
) -> dict[str, Any]:
    size = rules.deal_size(number)
    limit = rules.call_limit
    winner = rng.randrange(len(players))
    # V6: a winner without a call opened and went out at once, so doubled the table.
    doubled = limit == 0 or rng.random() < double_rate
    rulings: dict[int, dict[str, Any]] = {}
    calls: list[int] = []
    opened: list[bool] = []
    for seat in range(len(players)):
        ruling = _ruling(rng, rules, seat == winner, doubled, infraction_rate)
        rulings[seat] = ruling
        if ruling.get("overcall"):
            count = limit + rng.randint(1, 2)
        elif seat == winner and not doubled:
            count = rng.randint(1, limit)
        else:
            count = rng.randint(0, limit)
        calls.append(count)
        # V5, V6: only a player with a call can be open without having gone out; a contract error
        # sends the cards back to hand (R18).
        opened.append(
            seat != winner and count > 0 and not ruling.get("contract_error") and rng.random() < open_rate
        )
    held = _hand_sizes(rng, rules, size, winner, calls, opened, rulings)
    rng.shuffle(deck)
    position = 0
    results: dict[str, dict[str, Any]] = {}
    for seat, name in enumerate(players):
        cards = deck[position : position + held[seat]]
        position += held[seat]
        ruling = rulings[seat]
        result: dict[str, Any] = {"calls": calls[seat]}
        if with_hands:
            result["hand"] = format_cards(cards)
        # `opened` is optional on a sheet: leave it out now and then.
        if seat != winner and rng.random() < 0.8:
            result["opened"] = opened[seat]
        result.update(ruling)
        result["penalty"] = result_penalty(
            rules=rules,
            winner=seat == winner,
            doubled=doubled,
            cards=cards,
            overcall=bool(ruling.get("overcall")),
            contract_error=bool(ruling.get("contract_error")),
            other_points=int(ruling.get("other_points", 0)),
        )
        results[name] = result
    return {"deal": number, "out": players[winner], "doubled": doubled, "results": results}


def _ruling(rng: random.Random, rules: RuleSet, winner: bool, doubled: bool, rate: float) -> dict[str, Any]:
    """Now and then an infraction the director ruled, never one the winner cannot have (V8)."""
    if rng.random() >= rate:
        return {}
    kind = rng.choice(("overcall", "contract_error", "other"))
    if kind == "overcall" and not (winner and doubled):
        return {"overcall": True}
    if kind == "contract_error" and not winner:
        return {"contract_error": True}
    return {"other_points": rng.choice((5, 10, 25)), "other_reason": "slow play"}


def _hand_sizes(
    rng: random.Random,
    rules: RuleSet,
    size: int,
    winner: int,
    calls: list[int],
    opened: list[bool],
    rulings: dict[int, dict[str, Any]],
) -> list[int]:
    """Cards left in each hand (V4, V5), within what the deck can hold at once.

    Calls are taken back until the hands, the winner's melds (at least the contract's cards), the other
    opened players' melds and the upcard fit the deck; with no call left R2 guarantees they do.
    """
    held = []
    for seat, count in enumerate(calls):
        if seat == winner:
            held.append(0)
        elif opened[seat]:
            held.append(rng.randint(1, 2 * count))
        else:
            held.append(size + 2 * count)
    while sum(held) > rules.deck_size - UPCARD - size * (1 + sum(opened)):
        seat = max(
            (index for index in range(len(calls)) if index != winner and calls[index]),
            key=held.__getitem__,
        )
        calls[seat] -= 1
        if calls[seat] <= rules.call_limit:
            rulings[seat].pop("overcall", None)
        if not opened[seat]:
            held[seat] -= 2
        elif calls[seat]:
            held[seat] = min(held[seat], 2 * calls[seat])
        else:
            opened[seat] = False
            held[seat] = size
    return held
