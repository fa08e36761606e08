"""A qualifier series (issue 25, item 5; docs/RULES.md "Qualifier series") as plain values: who goes
through from each leg and from the series standings, with players already through passed over and a
place shared at the cut decided by a lot drawn with a recorded seed.

Nothing here reads the database: `scoring.selectors.series` hands in each leg's final places (the
standings' own, whatever the game) and the lots already drawn; `scoring.services.series` draws the lots
still needed and enters the qualifiers in the final.

>>> rows = [Placed("ann", 1, False), Placed("bob", 2, True), Placed("cy", 2, True), Placed("dee", 4, False)]
>>> two = cut(rows, places=2, qualified={"ann"}, lots={})
>>> [item.person for item in two.through], [row.person for row in two.passed_over], two.next_in_line
(['bob', 'cy'], ['ann'], (Placed(person='dee', place=4, shared=False),))

Ann is through already, so the leg's two places go to the next two: Bob and Cy, who share 2nd, both fit.
With one place left for the two of them, a lot decides, and the cut waits for it:

>>> one = cut(rows, places=1, qualified={"ann"}, lots={})
>>> one.through, one.tie
((), Tie(source='', tied=('bob', 'cy'), places=1, place=2))
>>> lot = draw_lot(one.tie, seed=7)
>>> lot.order == lot_order(["cy", "bob"], 7) == tuple(random.Random(7).sample(["bob", "cy"], 2))
True
>>> drawn = cut(rows, places=1, qualified={"ann"}, lots=lots_by_key([lot]))
>>> [item.person for item in drawn.through] == [lot.order[0]], drawn.tie
(True, None)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field

# What a leg's (or the standings') state is on the series page.
DECIDED = "decided"  # final, every place decided
NOT_FINAL = "not_final"  # its results are not final yet: nothing counted
WAITING = "waiting"  # an earlier leg is not decided yet: its qualifiers are not known
LOT = "lot"  # final, but a place shared at the cut waits for its lot

STANDINGS = "standings"  # the source of the series standings' places


@dataclass(frozen=True)
class Placed:
    """A player's place in a leg's final standings (or the series standings): `person` is who they are
    across events (`scoring.selectors.ratings.identity`)."""

    person: str
    place: int
    shared: bool


@dataclass(frozen=True)
class Tie:
    """Players sharing a place at a cut with fewer places left than players (`tied` sorted)."""

    source: str
    tied: tuple[str, ...]
    places: int
    place: int


@dataclass(frozen=True)
class Lot:
    """A lot drawn for a tie at a cut: `order` is `random.Random(seed).sample(sorted(tied),
    len(tied))`; the first `places` of it go through, the rest are next in that order."""

    source: str
    tied: tuple[str, ...]
    places: int
    seed: int
    order: tuple[str, ...]

    @property
    def key(self) -> tuple[str, tuple[str, ...], int]:
        return (self.source, self.tied, self.places)

    def as_data(self) -> dict:
        return {
            "source": self.source,
            "tied": list(self.tied),
            "places": self.places,
            "seed": self.seed,
            "order": list(self.order),
        }


def lot_order(tied: Iterable[str], seed: int) -> tuple[str, ...]:
    """The order a lot puts the tied players in: reproducible from the seed alone."""
    ordered = sorted(tied)
    return tuple(random.Random(seed).sample(ordered, len(ordered)))


def draw_lot(tie: Tie, *, seed: int) -> Lot:
    return Lot(tie.source, tie.tied, tie.places, seed, lot_order(tie.tied, seed))


def lot_from_data(data: Mapping) -> Lot:
    """A stored lot (`Lot.as_data`); its order is drawn again from the seed, so a stored order that does
    not follow from it cannot count."""
    tied = tuple(sorted(data["tied"]))
    return Lot(
        data["source"], tied, int(data["places"]), int(data["seed"]), lot_order(tied, int(data["seed"]))
    )


def lots_by_key(lots: Iterable[Lot]) -> dict[tuple[str, tuple[str, ...], int], Lot]:
    return {lot.key: lot for lot in lots}


@dataclass(frozen=True)
class Through:
    """A player through from a source at their place there; `by_lot` when a lot gave them the place."""

    row: Placed
    by_lot: bool = False

    @property
    def person(self) -> str:
        return self.row.person


@dataclass(frozen=True)
class Cut:
    """What one source gives: who goes through (best first), who was passed over (already through
    from an earlier source, placed within the cut), who is next in line (the next place's players, in
    the lot's order when a lot decided the cut), and a tie still waiting for its lot (then `through`
    holds the places decided before it)."""

    through: tuple[Through, ...] = ()
    passed_over: tuple[Placed, ...] = ()
    next_in_line: tuple[Placed, ...] = ()
    tie: Tie | None = None
    lot: Lot | None = None


def _by_place(rows: Sequence[Placed]) -> list[list[Placed]]:
    groups: list[list[Placed]] = []
    for row in rows:
        if groups and groups[-1][0].place == row.place:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def cut(
    rows: Sequence[Placed],
    *,
    places: int,
    qualified: Set[str],
    lots: Mapping[tuple[str, tuple[str, ...], int], Lot],
    source: str = "",
) -> Cut:
    """The best `places` of `rows` (best first) not in `qualified`: a player already through is passed
    over and the place goes to the next. Players sharing a place all go through while places are left
    for them all; when fewer are left, the lot for exactly those players and places decides (`lots`),
    and without one the cut waits (`tie`)."""
    if places <= 0:
        return Cut()
    eligible = [row for row in rows if row.person not in qualified]
    through: list[Through] = []
    left = places
    next_in_line: tuple[Placed, ...] = ()
    tie = lot = None
    groups = _by_place(eligible)
    for index, group in enumerate(groups):
        if left == 0:
            next_in_line = tuple(group)
            break
        if len(group) <= left:
            through += [Through(row) for row in group]
            left -= len(group)
            if left == 0 and index + 1 < len(groups):
                next_in_line = tuple(groups[index + 1])
                break
            continue
        tied = tuple(sorted(row.person for row in group))
        lot = lots.get((source, tied, left))
        if lot is None:
            tie = Tie(source, tied, left, group[0].place)
            break
        row_of = {row.person: row for row in group}
        through += [Through(row_of[person], by_lot=True) for person in lot.order[:left]]
        next_in_line = tuple(row_of[person] for person in lot.order[left:])
        break
    reached = tie.place if tie else max((item.row.place for item in through), default=0)
    passed_over = tuple(row for row in rows if row.person in qualified and row.place <= reached)
    return Cut(tuple(through), passed_over, next_in_line, tie, lot)


@dataclass(frozen=True)
class Source:
    """A leg (or the series standings): its key, whether its results are final, its places best first."""

    key: str
    final: bool
    rows: tuple[Placed, ...] = ()


@dataclass(frozen=True)
class SourceOutcome:
    key: str
    status: str
    cut: Cut = field(default_factory=Cut)


@dataclass(frozen=True)
class SeriesOutcome:
    """Each leg's outcome in order, the series standings' (None when none go through from them), and
    every player through so far, in the order they went through: (source key, Through)."""

    legs: tuple[SourceOutcome, ...]
    standings: SourceOutcome | None
    through: tuple[tuple[str, Through], ...]

    @property
    def sources(self) -> list[SourceOutcome]:
        """Every leg's outcome, then the standings' when places come from them."""
        return [*self.legs, *([self.standings] if self.standings else [])]

    @property
    def ties(self) -> list[Tie]:
        """The ties waiting for a lot (at most one: the sources after it wait)."""
        return [item.cut.tie for item in self.sources if item.cut.tie is not None]

    @property
    def complete(self) -> bool:
        """Every leg decided, and the standings when places come from them: the final's field is known."""
        return all(item.status == DECIDED for item in self.sources)


def qualify_series(
    legs: Sequence[Source],
    *,
    per_leg: int,
    standings: Source | None,
    from_standings: int,
    lots: Iterable[Lot],
) -> SeriesOutcome:
    """The legs in their order, then the series standings: each source's best, passing over players
    through already. A leg counts once its results are final and every leg before it is decided; the
    standings count once every leg is decided (they add up every leg)."""
    found = lots_by_key(lots)
    qualified: set[str] = set()
    through: list[tuple[str, Through]] = []
    outcomes: list[SourceOutcome] = []
    blocked = False
    for leg in legs:
        if blocked:
            outcomes.append(SourceOutcome(leg.key, WAITING))
            continue
        if not leg.final:
            outcomes.append(SourceOutcome(leg.key, NOT_FINAL))
            blocked = True
            continue
        outcome = cut(leg.rows, places=per_leg, qualified=qualified, lots=found, source=leg.key)
        through += [(leg.key, item) for item in outcome.through]
        qualified |= {item.person for item in outcome.through}
        outcomes.append(SourceOutcome(leg.key, LOT if outcome.tie else DECIDED, outcome))
        blocked = outcome.tie is not None
    last = None
    if from_standings > 0:
        if blocked or standings is None or not standings.final:
            last = SourceOutcome(STANDINGS, WAITING)
        else:
            outcome = cut(
                standings.rows, places=from_standings, qualified=qualified, lots=found, source=STANDINGS
            )
            through += [(STANDINGS, item) for item in outcome.through]
            last = SourceOutcome(STANDINGS, LOT if outcome.tie else DECIDED, outcome)
    return SeriesOutcome(tuple(outcomes), last, tuple(through))
