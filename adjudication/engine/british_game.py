"""Where a British Kalooki game stands, and its finishing order (RULES.md B1, B7, BV8).

:func:`game_state` follows a sheet hand by hand — totals, buy-ins, who is out, who deals next —
:func:`finishing_order` places the players when the game is over (BV8), :func:`ended_game_order` when the
director ends a game still running (the players left are placed by lower total). Standings, entry pages
and printed sheets read these; the validator says whether the sheet they come from is right.

>>> from .sheet import parse_sheet
>>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "british-swedish",
...     "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann", "deals": [
...     {"deal": 1, "out": "Ann", "results": {"Ann": {"penalty": 0}, "Bob": {"penalty": 90},
...                                          "Cy": {"penalty": 101}}},
...     {"deal": 2, "out": "Bob", "results": {"Ann": {"penalty": 120}, "Bob": {"penalty": 0}}}]})
>>> state = game_state(sheet)
>>> state.over, state.winner, state.player("Cy").out_in, state.next_hand
(True, 'Bob', 1, None)
>>> [(item.place, item.player, item.total) for item in finishing_order(sheet)]
[(1, 'Bob', 90), (2, 'Ann', 120), (3, 'Cy', 101)]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from .british_sheet import BritishSheet

__all__ = ["GamePlayer", "GameState", "Placing", "ended_game_order", "finishing_order", "game_state"]


@dataclass(frozen=True, slots=True)
class GamePlayer:
    """One player's game so far.

    ``total`` is the running total now — after any buy-in's reset; for a player out of the game, the total
    they went out on. ``penalty`` is the sum of every hand's penalty as scored, resets left aside.
    """

    name: str
    seat: int
    total: int = 0
    penalty: int = 0
    hands: int = 0
    hands_won: int = 0
    buy_ins: int = 0
    out_in: int | None = None  # the hand the player went out of the game in; None while still in

    @property
    def still_in(self) -> bool:
        return self.out_in is None


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole table after the sheet's last hand.

    ``next_hand`` is the number of the hand due next (a void hand's number again, B8) and ``next_dealer``
    who deals it (B1; None when the sheet names no dealer); both None once the game is over.

    >>> from .sheet import parse_sheet
    >>> state = game_state(parse_sheet({"format": "kalooki-sheet/1", "ruleset": "british",
    ...     "players": ["Ann", "Bob", "Cy"], "first_dealer": "Cy", "deals": [{"deal": 1, "void": True}]}))
    >>> state.next_hand, state.next_dealer, state.still_in
    (1, 'Cy', ('Ann', 'Bob', 'Cy'))
    """

    players: tuple[GamePlayer, ...]
    hands: int
    over: bool
    winner: str | None
    next_hand: int | None
    next_dealer: str | None

    @property
    def still_in(self) -> tuple[str, ...]:
        """The players still in the game, in seat order."""
        return tuple(player.name for player in self.players if player.still_in)

    def player(self, name: str) -> GamePlayer:
        """One player's game, by name (KeyError for a name not at the table)."""
        for player in self.players:
            if player.name == name:
                return player
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Placing:
    """One row of a finishing order: ``place`` counts 1, 2, 2, 4 when two share a place (``shared``)."""

    place: int
    shared: bool
    player: str
    total: int
    out_in: int | None
    buy_ins: int
    penalty: int


def game_state(sheet: BritishSheet) -> GameState:
    """Follow the game as the sheet has it (B7: a buy-in goes on from ``reset_to``; over the limit without
    one, a player is out). A score that is missing leaves the written total standing.

    >>> from .sheet import parse_sheet
    >>> state = game_state(parse_sheet({"format": "kalooki-sheet/1", "ruleset": "british",
    ...     "players": ["Ann", "Bob"], "deals": [{"deal": 1, "out": "Ann", "results": {
    ...         "Ann": {"penalty": 0}, "Bob": {"penalty": 160, "buy_in": True, "reset_to": 0}}}]}))
    >>> state.player("Bob").total, state.player("Bob").penalty, state.player("Bob").buy_ins, state.over
    (0, 160, 1, False)
    """
    rules = sheet.rules
    names = sheet.players
    seats = {name: seat for seat, name in enumerate(names)}
    totals = dict.fromkeys(names, 0)
    penalties = dict.fromkeys(names, 0)
    hands_played = dict.fromkeys(names, 0)
    won = dict.fromkeys(names, 0)
    buy_ins = dict.fromkeys(names, 0)
    out_in: dict[str, int] = {}
    dealer = None if sheet.first_dealer is None else seats[sheet.first_dealer]
    scored = 0
    next_hand = 1
    for hand in sheet.deals:
        if hand.dealer is not None:
            dealer = seats[hand.dealer]
        if hand.void:
            # B8: the same dealer deals the same hand again.
            next_hand = hand.deal
            continue
        scored += 1
        next_hand = hand.deal + 1
        if hand.out is not None:
            won[hand.out] += 1
        for name, line in hand.results.items():
            hands_played[name] += 1
            if line.penalty is None:
                totals[name] = line.total if line.total is not None else totals[name]
            else:
                penalties[name] += line.penalty
                totals[name] += line.penalty
            if line.buy_in and line.reset_to is not None:
                buy_ins[name] += 1
                totals[name] = line.reset_to
            elif rules.is_over(totals[name]) and name not in out_in:
                out_in[name] = hand.deal
        if dealer is not None:
            dealer = _left_of(dealer, names, out_in)
    players = tuple(
        GamePlayer(
            name=name,
            seat=seat,
            total=totals[name],
            penalty=penalties[name],
            hands=hands_played[name],
            hands_won=won[name],
            buy_ins=buy_ins[name],
            out_in=out_in.get(name),
        )
        for seat, name in enumerate(names)
    )
    left = [player.name for player in players if player.still_in]
    over = len(left) <= 1 and scored > 0
    return GameState(
        players=players,
        hands=scored,
        over=over,
        winner=left[0] if over and left else None,
        next_hand=None if over else next_hand,
        next_dealer=None if over or dealer is None else names[dealer],
    )


def _left_of(seat: int, names: tuple[str, ...], out_in: dict[str, int]) -> int:
    """B1: the deal passes to the left among the players still in."""
    for step in range(1, len(names) + 1):
        candidate = (seat + step) % len(names)
        if names[candidate] not in out_in:
            return candidate
    return seat


def finishing_order(sheet: BritishSheet) -> tuple[Placing, ...]:
    """BV8: the winner first, then the others in reverse order of going out; players out on the same hand
    by lower total, equal totals sharing the place.

    While the game is still running its players still in share the first place (the game has not
    separated them yet; see :func:`ended_game_order` for a game the director ends).

    >>> from .sheet import parse_sheet
    >>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "british",
    ...     "players": ["A", "B", "C", "D"], "deals": [{"deal": 1, "out": "A", "results": {
    ...         "A": {"penalty": 0}, "B": {"penalty": 160}, "C": {"penalty": 160}, "D": {"penalty": 151}}}]})
    >>> [(item.place, item.shared, item.player) for item in finishing_order(sheet)]
    [(1, False, 'A'), (2, False, 'D'), (3, True, 'B'), (3, True, 'C')]
    """
    state = game_state(sheet)
    left = [player for player in state.players if player.still_in]
    return _placed([left], state)


def ended_game_order(sheet: BritishSheet) -> tuple[Placing, ...]:
    """A game the director ends while it runs: the players left placed by lower total (equal totals share
    the place), then the others as in :func:`finishing_order`.

    >>> from .sheet import parse_sheet
    >>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "british", "players": ["A", "B", "C"],
    ...     "deals": [{"deal": 1, "out": "A", "results": {"A": {"penalty": 0}, "B": {"penalty": 40},
    ...                                                  "C": {"penalty": 12}}}]})
    >>> [(item.place, item.player, item.total) for item in ended_game_order(sheet)]
    [(1, 'A', 0), (2, 'C', 12), (3, 'B', 40)]
    """
    state = game_state(sheet)
    return _placed(_by_total([player for player in state.players if player.still_in]), state)


def _placed(first: list[list[GamePlayer]], state: GameState) -> tuple[Placing, ...]:
    """Places for tiers of players, best first; each tier shares one place (competition ranking)."""
    gone = [player for player in state.players if not player.still_in]
    tiers = [tier for tier in first if tier]
    # BV8: the last to go out placed best; out on the same hand, by lower total.
    for _, group in itertools.groupby(
        sorted(gone, key=lambda player: -(player.out_in or 0)), key=lambda player: player.out_in
    ):
        tiers += _by_total(list(group))
    placings: list[Placing] = []
    for tier in tiers:
        place = len(placings) + 1
        for player in sorted(tier, key=lambda player: player.name):
            placings.append(
                Placing(
                    place=place,
                    shared=len(tier) > 1,
                    player=player.name,
                    total=player.total,
                    out_in=player.out_in,
                    buy_ins=player.buy_ins,
                    penalty=player.penalty,
                )
            )
    return tuple(placings)


def _by_total(players: list[GamePlayer]) -> list[list[GamePlayer]]:
    ordered = sorted(players, key=lambda player: player.total)
    return [list(group) for _, group in itertools.groupby(ordered, key=lambda player: player.total)]
