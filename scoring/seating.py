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


def fewest_tables(
    count: int,
    *,
    preferred: int | None = None,
    min_players: int,
    max_players: int,
    fits: Callable[[int], bool] = lambda players: True,
) -> list[int]:
    """Sizes of the tables for `count` players at a game that seats as few tables as `max_players`
    allows, their sizes differing by at most one (larger tables first) and none below `min_players`;
    the `preferred` size instead when it divides the field.

    >>> fewest_tables(10, min_players=2, max_players=5)
    [5, 5]
    >>> fewest_tables(14, min_players=2, max_players=6)
    [5, 5, 4]
    >>> fewest_tables(2, min_players=2, max_players=5)
    [2]
    >>> fewest_tables(16, preferred=4, min_players=2, max_players=6)
    [4, 4, 4, 4]
    >>> fewest_tables(17, preferred=4, min_players=2, max_players=6)
    [6, 6, 5]
    >>> fewest_tables(1, min_players=2, max_players=5)
    Traceback (most recent call last):
    ...
    scoring.seating.SeatingError: 1 player cannot be seated at tables of 2–5 players.
    """
    if count <= 0:
        raise SeatingError("There is nobody to seat.")
    if preferred and count % preferred == 0 and min_players <= preferred <= max_players and fits(preferred):
        return [preferred] * (count // preferred)
    for tables in range(-(-count // max_players), count // max(min_players, 1) + 1):
        small, larger = divmod(count, tables)
        sizes = [small + 1] * larger + [small] * (tables - larger)
        if min_players <= small and sizes[0] <= max_players and all(fits(size) for size in set(sizes)):
            return sizes
    players = "player" if count == 1 else "players"
    raise SeatingError(
        f"{count} {players} cannot be seated at tables of {min_players}–{max_players} players."
    )


def describe_split(sizes: Sequence[int]) -> str:
    """How a seating split the field, larger tables first.

    >>> describe_split([5, 5])
    '10 players: 2 tables of 5'
    >>> describe_split([4, 4, 4, 5])
    '17 players: 1 table of 5, 3 tables of 4'
    >>> describe_split([2])
    '2 players: 1 table of 2'
    """
    count = sum(sizes)
    tables = Counter(sizes)
    parts = [f"{n} table{'s' if n > 1 else ''} of {size}" for size, n in sorted(tables.items(), reverse=True)]
    return f"{count} player{'s' if count != 1 else ''}: {', '.join(parts)}"


def round_sizes(count: int, rules) -> list[int]:
    """The table sizes a RuleSet seats `count` players at, every table dealable from the deck.

    A ruleset that `seats_fewest_tables` (B1, NA1) takes its preferred
    `table_size` when it divides the field, else as few tables as `max_players` allows; one without
    (R2: a tournament seats `table_size`) seats its table size, one more or one fewer at the last tables.
    """
    if getattr(rules, "seats_fewest_tables", False):
        return fewest_tables(
            count,
            preferred=rules.table_size,
            min_players=rules.min_players,
            max_players=rules.max_players,
            fits=rules.can_deal,
        )
    return table_sizes(
        count,
        size=rules.table_size,
        min_players=rules.min_players,
        max_players=rules.max_players,
        fits=rules.can_deal,
    )


def plan_round(
    players: Sequence[Seatable],
    rules,
    *,
    rng: random.Random,
    shuffle: bool,
    keep_clubs_apart: bool = False,
) -> list[TablePlan]:
    """Tables for `players` under a RuleSet (`round_sizes`)."""
    sizes = round_sizes(len(players), rules)
    return plan_tables(players, sizes, rng=rng, shuffle=shuffle, keep_clubs_apart=keep_clubs_apart)
