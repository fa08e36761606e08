"""Where a North American Kaluki game stands, and its finishing order (RULES.md NA6, B1, B8).

:func:`game_state` follows a sheet hand by hand — what each player collected, who deals next, whether the
game's ``hands`` are played — :func:`finishing_order` places the players by total, highest first, equal
totals sharing the place (NA6), and :func:`ended_game_order` does the same for a game the director ends
early. The names and shapes are ``british_game``'s, so the app asks either game the same way; standings,
entry pages and printed sheets read these, and the validator says whether the sheet is right.

>>> from .sheet import parse_sheet
>>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "north-american", "rules": {"hands": 2},
...     "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann", "deals": [
...     {"deal": 1, "out": "Bob", "results": {"Ann": {"penalty": 40}, "Bob": {"penalty": 0},
...                                          "Cy": {"penalty": 60}}},
...     {"deal": 2, "out": "Cy", "results": {"Ann": {"penalty": 30}, "Bob": {"penalty": 80},
...                                         "Cy": {"penalty": 0}}}]})
>>> state = game_state(sheet)
>>> state.over, state.winner, state.player("Cy").total, state.next_hand
(True, 'Cy', 110, None)
>>> [(item.place, item.player, item.total) for item in finishing_order(sheet)]
[(1, 'Cy', 110), (2, 'Bob', 100), (3, 'Ann', 0)]
"""

from __future__ import annotations

import itertools

from .british_game import GamePlayer, GameState, Placing
from .north_american_sheet import NorthAmericanSheet

# GamePlayer, GameState and Placing are the British game's, so the app reads either game with the same code:
# no one goes out of a North American game (``out_in`` None, ``buy_ins`` 0, ``still_in`` true), ``total`` is
# what a player collected (NA6, more being better) and ``penalty`` the hand values they paid out.

__all__ = ["GamePlayer", "GameState", "Placing", "ended_game_order", "finishing_order", "game_state"]


def game_state(sheet: NorthAmericanSheet) -> GameState:
    """Follow the game as the sheet has it (NA6: each hand's winner collects ``collected`` as written, or
    else the sum of the others' penalties). A winner's score that cannot be known (a penalty missing, no
    ``collected``) leaves the written total standing. The game is ``over`` once the ruleset's ``hands`` are
    scored; its ``winner`` is then the one player with the highest total (None while it runs, or when the
    highest total is shared). A void hand is dealt again by the same dealer and does not count (B8).

    >>> from .sheet import parse_sheet
    >>> state = game_state(parse_sheet({"format": "kalooki-sheet/1", "ruleset": "north-american",
    ...     "rules": {"hands": 4}, "players": ["Ann", "Bob", "Cy"], "first_dealer": "Cy",
    ...     "deals": [{"deal": 1, "void": True}]}))
    >>> state.next_hand, state.next_dealer, state.still_in, state.hands
    (1, 'Cy', ('Ann', 'Bob', 'Cy'), 0)

    >>> from .sheet import parse_sheet
    >>> state = game_state(parse_sheet({"format": "kalooki-sheet/1", "ruleset": "north-american",
    ...     "rules": {"hands": 3}, "players": ["Ann", "Bob"], "deals": [{"deal": 1, "out": "Ann",
    ...         "results": {"Ann": {"penalty": 0, "collected": 55}, "Bob": {"penalty": 55}}}]}))
    >>> state.player("Ann").total, state.player("Bob").penalty, state.over, state.next_hand
    (55, 55, False, 2)
    """
    hands = sheet.rules.hands or 0
    names = sheet.players
    seats = {name: seat for seat, name in enumerate(names)}
    totals = dict.fromkeys(names, 0)
    penalties = dict.fromkeys(names, 0)
    hands_played = dict.fromkeys(names, 0)
    won = dict.fromkeys(names, 0)
    dealer = None if sheet.first_dealer is None else seats[sheet.first_dealer]
    scored = 0
    next_hand = 1
    for hand in sheet.deals:
        if hand.dealer is not None:
            dealer = seats[hand.dealer]
        if hand.void:
            # B8: the same dealer deals the same hand again; a void hand does not count towards `hands`.
            next_hand = hand.deal
            continue
        scored += 1
        next_hand = hand.deal + 1
        others: int | None = 0
        for name, line in hand.results.items():
            hands_played[name] += 1
            if line.penalty is not None:
                penalties[name] += line.penalty
            if name != hand.out:
                others = None if others is None or line.penalty is None else others + line.penalty
        out = hand.out
        if out is not None and out in hand.results:
            won[out] += 1
            line = hand.results[out]
            collected = others if line.collected is None else line.collected
            if collected is not None:
                totals[out] += collected
            elif line.total is not None:
                totals[out] = line.total
        if dealer is not None:
            # B1: the deal passes to the left.
            dealer = (dealer + 1) % len(names)
        if scored >= hands:
            break
    players = tuple(
        GamePlayer(
            name=name,
            seat=seat,
            total=totals[name],
            penalty=penalties[name],
            hands=hands_played[name],
            hands_won=won[name],
        )
        for seat, name in enumerate(names)
    )
    over = scored >= hands > 0
    first = _by_total(list(players))[:1]
    return GameState(
        players=players,
        hands=scored,
        over=over,
        winner=first[0][0].name if over and first and len(first[0]) == 1 else None,
        next_hand=None if over else next_hand,
        next_dealer=None if over or dealer is None else names[dealer],
    )


def finishing_order(sheet: NorthAmericanSheet) -> tuple[Placing, ...]:
    """NA6: the players by total, highest first; equal totals share the place.

    While the game is still running this is the order so far (the British door's "players still in share
    the first place" has no meaning here: totals already separate them).

    >>> from .sheet import parse_sheet
    >>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "north-american", "rules": {"hands": 1},
    ...     "players": ["A", "B", "C", "D"], "deals": [{"deal": 1, "out": "C", "results": {
    ...         "A": {"penalty": 30}, "B": {"penalty": 30}, "C": {"penalty": 0}, "D": {"penalty": 40}}}]})
    >>> [(item.place, item.shared, item.player, item.total) for item in finishing_order(sheet)]
    [(1, False, 'C', 100), (2, True, 'A', 0), (2, True, 'B', 0), (2, True, 'D', 0)]
    """
    state = game_state(sheet)
    placings: list[Placing] = []
    for tier in _by_total(list(state.players)):
        place = len(placings) + 1
        for player in sorted(tier, key=lambda player: player.name):
            placings.append(
                Placing(
                    place=place,
                    shared=len(tier) > 1,
                    player=player.name,
                    total=player.total,
                    out_in=None,
                    buy_ins=0,
                    penalty=player.penalty,
                )
            )
    return tuple(placings)


def ended_game_order(sheet: NorthAmericanSheet) -> tuple[Placing, ...]:
    """A game the director ends before its ``hands`` are played: the players placed by their totals so
    far, highest first, equal totals sharing the place (the same order as :func:`finishing_order`).

    >>> from .sheet import parse_sheet
    >>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "north-american", "rules": {"hands": 9},
    ...     "players": ["A", "B"], "deals": [{"deal": 1, "out": "B", "results": {"A": {"penalty": 12},
    ...                                                                         "B": {"penalty": 0}}}]})
    >>> [(item.place, item.player, item.total) for item in ended_game_order(sheet)]
    [(1, 'B', 12), (2, 'A', 0)]
    """
    return finishing_order(sheet)


def _by_total(players: list[GamePlayer]) -> list[list[GamePlayer]]:
    """Tiers of equal totals, the highest first."""
    ordered = sorted(players, key=lambda player: -player.total)
    return [list(group) for _, group in itertools.groupby(ordered, key=lambda player: player.total)]
