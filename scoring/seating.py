"""Table plans for a round: table sizes, the draw, keeping clubs apart. Pure Python, no database.

`scoring.services.round_seat` decides who plays and in which order (random, by standings, or who went
through); this module turns that order into tables with a seeded random generator, so the same seed and
the same players give the same plan again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass


class SeatingError(ValueError):
    """The players cannot be seated at tables the ruleset allows."""


@dataclass(frozen=True)
class Seatable:
    """Someone to seat: `key` identifies them (an entry id), `club` may be ""."""

    key: int
    club: str = ""


@dataclass(frozen=True)
class TablePlan:
    """One table: players clockwise from seat 1 and the first dealer's seat (1-based, R21)."""

    players: tuple[Seatable, ...]
    first_dealer: int


def table_sizes(
    count: int,
    *,
    size: int,
    min_players: int,
    max_players: int,
    fits: Callable[[int], bool] = lambda players: True,
) -> list[int]:
    """Sizes of the tables for `count` players: all `size`, the last ones one more or one fewer.

    The fewest odd-sized tables win; on a tie, larger tables (fewer of them) are preferred.

    >>> table_sizes(16, size=4, min_players=3, max_players=6)
    [4, 4, 4, 4]
    >>> table_sizes(17, size=4, min_players=3, max_players=6)
    [4, 4, 4, 5]
    >>> table_sizes(19, size=4, min_players=3, max_players=6)
    [4, 4, 4, 4, 3]
    >>> table_sizes(6, size=4, min_players=3, max_players=6)
    [3, 3]
    """
    if count <= 0:
        raise SeatingError("There is nobody to seat.")
    best: tuple[int, int, list[int]] | None = None
    for tables in range(1, count + 1):
        spare = count - tables * size
        if abs(spare) > tables:
            continue
        odd = size + (1 if spare > 0 else -1)
        if spare and not (min_players <= odd <= max_players and fits(odd)):
            continue
        sizes = [size] * (tables - abs(spare)) + [odd] * abs(spare)
        rank = (abs(spare), 0 if spare >= 0 else 1)
        if best is None or rank < best[:2]:
            best = (*rank, sizes)
    if best is None:
        raise SeatingError(
            f"{count} players cannot be seated at tables of {size} "
            f"(one more or one fewer allowed, {min_players}–{max_players} players a table)."
        )
    return best[2]


def club_clashes(tables: Sequence[Sequence[Seatable]]) -> int:
    """How many pairs of players of one (named) club share a table."""
    clashes = 0
    for table in tables:
        counts = Counter(player.club for player in table if player.club)
        clashes += sum(n * (n - 1) // 2 for n in counts.values())
    return clashes


def _clashes_at(table: Sequence[Seatable], club: str) -> int:
    return sum(1 for player in table if club and player.club == club)


def separate_clubs(tables: list[list[Seatable]]) -> None:
    """Swap players between tables (nearest tables first) while that lowers the club clashes.

    Deterministic; tables keep their sizes. Standings order is disturbed as little as possible because
    swaps are tried with the nearest tables first.
    """
    improved = True
    while improved:
        improved = False
        for t, table in enumerate(tables):
            for i, player in enumerate(table):
                if not player.club or _clashes_at(table, player.club) <= 1:
                    continue
                if _swap_away(tables, t, i):
                    improved = True
                    break
            if improved:
                break


def _swap_away(tables: list[list[Seatable]], t: int, i: int) -> bool:
    here = tables[t]
    player = here[i]
    others = sorted((u for u in range(len(tables)) if u != t), key=lambda u: (abs(u - t), u))
    for u in others:
        there = tables[u]
        for j, other in enumerate(there):
            if other.club == player.club:
                continue
            rest_here = here[:i] + here[i + 1 :]
            rest_there = there[:j] + there[j + 1 :]
            before = _clashes_at(rest_here, player.club) + _clashes_at(rest_there, other.club)
            after = _clashes_at(rest_there, player.club) + _clashes_at(rest_here, other.club)
            if after < before:
                here[i], there[j] = other, player
                return True
    return False


def plan_tables(
    players: Sequence[Seatable],
    sizes: Sequence[int],
    *,
    rng: random.Random,
    shuffle: bool,
    keep_clubs_apart: bool = False,
) -> list[TablePlan]:
    """Fill tables in order (`shuffle` first for a random draw), then seat each table at random.

    `players` best first when seating by standings: table 1 gets the first `sizes[0]` players.
    """
    if sum(sizes) != len(players):
        raise SeatingError(f"{len(players)} players do not fill tables of {list(sizes)}.")
    order = list(players)
    if shuffle:
        rng.shuffle(order)
    tables: list[list[Seatable]] = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    if keep_clubs_apart:
        separate_clubs(tables)
    plans = []
    for table in tables:
        rng.shuffle(table)
        plans.append(TablePlan(players=tuple(table), first_dealer=rng.randint(1, len(table))))
    return plans


# A ruleset without a seating size of its own (British Kalooki plays 2–5 at a table) is seated in fours.
DEFAULT_TABLE_SIZE = 4


def plan_round(
    players: Sequence[Seatable],
    rules,
    *,
    rng: random.Random,
    shuffle: bool,
    keep_clubs_apart: bool = False,
) -> list[TablePlan]:
    """Tables for `players` under a RuleSet: its table size (R2), one more or one fewer at the last
    tables, every table dealable from the deck."""
    sizes = table_sizes(
        len(players),
        size=getattr(rules, "table_size", DEFAULT_TABLE_SIZE),
        min_players=rules.min_players,
        max_players=rules.max_players,
        fits=rules.can_deal,
    )
    return plan_tables(players, sizes, rng=rng, shuffle=shuffle, keep_clubs_apart=keep_clubs_apart)
