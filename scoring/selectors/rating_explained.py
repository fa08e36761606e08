"""A rating that explains itself: each of a player's rated sets with what the model expected before it
and what happened, and each of their sets that did not count, with the reason.

Computed when the player's page is opened, from the stored list (the recompute does none of it): every
player's rating before a set is the step before it in their stored history (or the starting rating),
so the table's expected order is openskill's own `predict_rank` on the ratings everyone brought to the
table (`scoring.ratings.expected_ranks`). Five queries, whatever the number of sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..games import Game
from ..models import Event, GameSet, PlayerRating, RatingList, Seat
from ..ratings import expected_ranks, starting_rating
from .ratings import PlayerRatingPage, closed_rounds, identity, presets_of, unpack_history


@dataclass(frozen=True)
class ExplainedSet:
    """One rated set: where, who sat there (`players`), the rank the model expected for the player
    before it (and the chance it gave them of winning the table), the rank they took, and their μ and
    σ before and after."""

    event: str
    event_slug: str
    day: date
    round: int
    table: int
    players: int
    expected_rank: int
    win_chance: float
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def ordinal_after(self) -> float:
        return self.mu_after - 3 * self.sigma_after

    @property
    def change(self) -> float:
        return self.ordinal_after - self.ordinal_before

    @property
    def verdict(self) -> str:
        """Better than expected, as expected or worse, in words."""
        if self.rank < self.expected_rank:
            return "better than expected"
        return "as expected" if self.rank == self.expected_rank else "worse than expected"


@dataclass(frozen=True)
class UncountedSet:
    """A set the player sat at that the list does not count, and why."""

    event: str
    event_slug: str
    day: date
    round: int
    table: int
    reason: str


@dataclass(frozen=True)
class RatingExplained:
    rated: list[ExplainedSet]
    uncounted: list[UncountedSet]


def _explained(steps, rating_list: RatingList, own: str) -> list[ExplainedSet]:
    set_ids = [step[0] for step in steps]
    seated: dict[int, list[tuple[int, str]]] = {}
    for set_id, position, name, membership in Seat.objects.filter(table__game_set__in=set_ids).values_list(
        "table__game_set__id", "position", "entry__player__name", "entry__player__membership_id"
    ):
        seated.setdefault(set_id, []).append((position, identity(name, membership)))
    others = {person for seats in seated.values() for _, person in seats} - {own}
    histories = {own: steps}
    for person, packed in PlayerRating.objects.filter(
        rating_list=rating_list, identity__in=others
    ).values_list("identity", "history"):
        histories[person] = unpack_history(packed)
    # For each person, their rating before each of their sets: the step before it, else the start.
    start = starting_rating()
    before: dict[tuple[str, int], tuple[float, float]] = {}
    for person, history in histories.items():
        previous = (start.mu, start.sigma)
        for set_id, _, _, mu, sigma in history:
            before[(person, set_id)] = previous
            previous = (mu, sigma)
    tables = {
        pk: (name, slug, day, number, table)
        for pk, name, slug, day, number, table in GameSet.objects.filter(pk__in=set_ids).values_list(
            "pk", "table__round__event__name", "table__round__event__slug", "table__round__event__date_start",
            "table__round__number", "table__number",
        )
    }  # fmt: skip
    explained = []
    for set_id, rank, players, mu, sigma in steps:
        if set_id not in tables:
            continue  # deleted since the computation (the next read computes again)
        # The table as rated: its players in seat order who have this set in their history.
        rated = [person for _, person in sorted(seated.get(set_id, [])) if (person, set_id) in before]
        expected, chance = expected_ranks([before[(person, set_id)] for person in rated])[rated.index(own)]
        mu_before, sigma_before = before[(own, set_id)]
        explained.append(
            ExplainedSet(*tables[set_id], players, expected, chance, rank, mu_before, sigma_before, mu, sigma)
        )
    return explained


def _uncounted(page: PlayerRatingPage, game: Game, counted: set[int]) -> list[UncountedSet]:
    presets = presets_of(game, Event.objects.values_list("ruleset_preset", flat=True).distinct())
    seats = list(
        Seat.objects.filter(entry__player__in=page.records, round__event__ruleset_preset__in=presets)
        .exclude(table__game_set__isnull=True)
        .exclude(table__game_set__in=counted)
        .values_list(
            "table__game_set__id", "table__game_set__status", "round_id", "round__closed_at",
            "round__number", "round__event_id", "round__event__name", "round__event__slug",
            "round__event__date_start", "table__number",
        )
    )  # fmt: skip
    counting = set(
        closed_rounds(Event.objects.filter(pk__in={seat[5] for seat in seats})).values_list("pk", flat=True)
    )
    found = []
    for _, status, round_id, closed_at, number, _, name, slug, day, table in seats:
        if closed_at is None and status == GameSet.Status.VERIFIED:
            reason = f"Verified, but round {number} is not closed: a round counts once all its tables are."
        elif closed_at is None:
            reason = f"Not verified yet: the set is still in play, and round {number} is not closed."
        elif round_id not in counting:
            reason = "An earlier round of the event is not closed yet: rounds count in order, 1 to N."
        else:
            reason = (
                "No scored deal of theirs, or no one else at the table with one (void deals do not count)."
            )
        found.append(UncountedSet(name, slug, day, number, table, reason))
    found.sort(key=lambda item: (item.day, item.event, item.round, item.table), reverse=True)
    return found


def rating_explained(page: PlayerRatingPage, rating_list: RatingList) -> RatingExplained:
    """The player's rated sets explained, newest first, and their sets of the list's game that did not
    count (with the reason)."""
    steps = unpack_history(page.rating.history) if page.rating is not None else []
    rated = _explained(steps, rating_list, page.identity) if steps else []
    uncounted = _uncounted(page, page.game, {step[0] for step in steps})
    return RatingExplained(rated=rated[::-1], uncounted=uncounted)
