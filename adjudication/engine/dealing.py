"""Who deals each deal, which deal is due and where a deal stands in playing order (R19, R21, V11–V13).

A set's deals are given in playing order as ``(number, void)`` pairs: ``(4, True)`` is a void deal 4,
``(4, False)`` its replay (or deal 4 itself). Seats are 0-based indexes into the sheet's ``players``.

>>> played = [(1, False), (2, True), (2, False), (3, False)]
>>> dealer_seats(played, first_dealer=3, players=4)
[3, 0, 0, 1]
>>> next_deal_number(played)
4
>>> playing_position(played, 5, False)
4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .rules import DEALS_PER_SET, VOID_REDEAL_CHOICES

__all__ = ["dealer_of_deal", "dealer_passes", "dealer_seats", "next_deal_number", "playing_position"]

# A deal in playing order: its number and whether it was void.
PlayedDeal = tuple[int, bool]

# Before its replay, a void deal of a number; the scored deal of that number after it.
_VOID_FIRST: Final = {True: 0, False: 1}


def dealer_passes(number: int, *, voids_before: int = 0, void_redeal: str = "same") -> int:
    """How many seats to the left of the first dealer deal ``number``'s dealer sits (R21, V13).

    The deal passes to the left once per scored deal; a void deal is dealt again by the same dealer
    (``void_redeal="same"``, R19) or passes on like a scored one (``"next"``). ``voids_before`` counts the
    void deals played before this one, whatever their number.

    >>> dealer_passes(3), dealer_passes(3, voids_before=2)
    (2, 2)
    >>> dealer_passes(3, voids_before=2, void_redeal="next")
    4
    """
    _require_void_redeal(void_redeal)
    return number - 1 + (voids_before if void_redeal == "next" else 0)


def dealer_seats(
    deals: Sequence[PlayedDeal], *, first_dealer: int, players: int, void_redeal: str = "same"
) -> list[int]:
    """The seat of each deal's dealer, for ``deals`` in playing order (R21, R19, V13).

    >>> dealer_seats([(1, False), (2, True), (2, False), (3, False)], first_dealer=0, players=3)
    [0, 1, 1, 2]
    >>> dealer_seats([(1, False), (2, True), (2, False), (3, False)], first_dealer=0, players=3,
    ...              void_redeal="next")
    [0, 1, 2, 0]
    >>> dealer_seats([(9, False)], first_dealer=2, players=4)
    [2]
    """
    _require_table(first_dealer, players)
    _require_void_redeal(void_redeal)
    seats = []
    voids = 0
    for number, void in deals:
        passes = dealer_passes(number, voids_before=voids, void_redeal=void_redeal)
        seats.append((first_dealer + passes) % players)
        if void:
            voids += 1
    return seats


def dealer_of_deal(number: int, *, first_dealer: int, players: int) -> int:
    """The seat of deal ``number``'s dealer when no deal before it was void (a blank sheet's deals 1–9).

    >>> [dealer_of_deal(number, first_dealer=1, players=4) for number in range(1, 10)]
    [1, 2, 3, 0, 1, 2, 3, 0, 1]
    """
    _require_table(first_dealer, players)
    return (first_dealer + dealer_passes(number)) % players


def next_deal_number(deals: Sequence[PlayedDeal], *, deals_per_set: int = DEALS_PER_SET) -> int | None:
    """The lowest deal number 1…``deals_per_set`` not yet scored; None when every deal is scored.

    A void deal's replay keeps its number (V11), so after a void deal 4 deal 4 is still due; a deal
    deleted from the middle of a set is due again before the later ones.

    >>> next_deal_number([(2, False), (3, False)])
    1
    >>> next_deal_number([(1, False), (2, False), (3, False), (4, True)])
    4
    >>> next_deal_number([(number, False) for number in range(1, 10)]) is None
    True
    """
    scored = {number for number, void in deals if not void}
    return next((number for number in range(1, deals_per_set + 1) if number not in scored), None)


def playing_position(deals: Sequence[PlayedDeal], number: int, void: bool) -> int:
    """Where a new deal ``(number, void)`` goes among ``deals`` (in playing order): its place follows its
    number, and a void deal goes just before its replay, after the earlier void deals of that number.

    >>> playing_position([(2, False), (3, False)], 1, False)
    0
    >>> playing_position([(1, False), (2, True)], 2, False)
    2
    >>> playing_position([(1, False), (2, True), (2, False)], 3, False)
    3
    >>> playing_position([(1, False), (2, True), (2, False)], 2, True)
    2
    """
    key = (number, _VOID_FIRST[void])
    for index, (other, other_void) in enumerate(deals):
        if (other, _VOID_FIRST[other_void]) > key:
            return index
    return len(deals)


def _require_table(first_dealer: int, players: int) -> None:
    if players < 1:
        raise ValueError(f"players: expected at least 1 seat, got {players}")
    if not 0 <= first_dealer < players:
        raise ValueError(f"first_dealer: expected a seat 0–{players - 1}, got {first_dealer}")


def _require_void_redeal(void_redeal: str) -> None:
    if void_redeal not in VOID_REDEAL_CHOICES:
        raise ValueError(f'void_redeal: expected "same" or "next", got {void_redeal!r}')
