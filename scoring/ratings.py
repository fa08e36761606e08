"""Ratings across events from counted sets, and season points by place — plain values in, plain values out.

One match per counted set: the table's players as one-person teams in seat order, ranked by their set
totals (lower is better; equal totals share the rank: 1, 1, 3, 4), or by a British game's finishing
order. Matches are applied in order of event date, round number, table number, always from the start
(a corrected set changes every rating after it), with openskill's Bradley-Terry "full" model at its
default parameters (μ 25, σ 25/3). The Plackett-Luce model is not used: with a tie for the lowest total
it gives the third player the winners' μ, so a shared set win would look like a loss for nobody.

>>> ratings = rate_matches([Match(key=(1,), players=("ann", "bob", "cy", "dee"), ranks=(1, 1, 3, 4))])
>>> [round(ratings[name].mu, 2) for name in ("ann", "bob", "cy", "dee")]
[30.27, 30.27, 22.36, 17.09]
>>> competition_ranks([412, 380, 412, 500], lower_is_better=True)
[2, 1, 2, 4]
"""

from __future__ import annotations

import calendar
import math
from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple

from openskill.models import BradleyTerryFull

PROVISIONAL_BELOW = 5  # rated sets: fewer than this is shown "provisional" (a game's list may say more)
INACTIVE_AFTER_MONTHS = 12  # months without a rated set after which a player is inactive, by default


def months_after(day: date, months: int) -> date:
    """The same day `months` later, or the month's last day when it has fewer days.

    >>> months_after(date(2026, 1, 31), 1), months_after(date(2025, 3, 15), 12)
    (datetime.date(2026, 2, 28), datetime.date(2026, 3, 15))
    """
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def is_active(last_played: date | None, *, today: date, months: int) -> bool:
    """Active: the last rated set was less than `months` months before `today` (on the day the months
    are up, the player is inactive).

    >>> is_active(date(2025, 12, 7), today=date(2026, 12, 6), months=12)
    True
    >>> is_active(date(2025, 12, 6), today=date(2026, 12, 6), months=12)
    False
    """
    return last_played is not None and today < months_after(last_played, months)


def is_ranked(sets: int, *, min_sets: int) -> bool:
    """Ranked: at least `min_sets` rated sets; fewer is provisional."""
    return sets >= min_sets


def competition_ranks(values: Sequence[float], *, lower_is_better: bool) -> list[int]:
    """Competition ranking (1, 1, 3): equal values share the better rank — one more than how many are
    strictly better (found by bisecting the sorted values: a rating list ranks 100,000 tables).

    >>> competition_ranks([5, 3, 5, 1], lower_is_better=False)
    [1, 3, 1, 4]
    """
    ordered = sorted(values)
    if lower_is_better:
        return [bisect_left(ordered, value) + 1 for value in values]
    count = len(ordered)
    return [count - bisect_right(ordered, value) + 1 for value in values]


@dataclass(frozen=True)
class Match:
    """A counted set (or British game): players in seat order and each one's rank (1 = best).

    `key` orders the matches (event date, round, table …); `context` is carried through to the history.
    """

    key: tuple
    players: tuple[Hashable, ...]
    ranks: tuple[int, ...]
    context: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.players) != len(self.ranks):
            raise ValueError(f"{len(self.players)} players but {len(self.ranks)} ranks")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player sits once at a table")


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    sets: int

    @property
    def ordinal(self) -> float:
        """μ − 3σ: the list's order (a new player starts at 0)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sets < PROVISIONAL_BELOW


class RatingStep(NamedTuple):
    """A player's rating after one match (their history). A named tuple, not a dataclass: a long
    history has one a player a match, and a frozen dataclass costs several times as much to make."""

    key: tuple
    player: Hashable
    mu: float
    sigma: float
    sets: int
    context: Mapping[str, object]

    @property
    def rating(self) -> Rating:
        return Rating(self.mu, self.sigma, self.sets)


def _model() -> BradleyTerryFull:
    return BradleyTerryFull()


# openskill's defaults, read from the library itself (rate_table repeats its arithmetic with them).
_DEFAULTS = _model()
TAU_SQUARED = _DEFAULTS.tau * _DEFAULTS.tau
_START_MU, _START_SIGMA = _DEFAULTS.mu, _DEFAULTS.sigma
TWO_BETA_SQUARED = 2 * _DEFAULTS.beta**2
KAPPA = _DEFAULTS.kappa


def starting_rating() -> Rating:
    """Everyone's rating before their first rated set: the model's defaults (μ 25, σ 25/3, ordinal 0).

    >>> start = starting_rating()
    >>> (start.mu, round(start.sigma, 4), round(start.ordinal, 12), start.sets)
    (25.0, 8.3333, 0.0, 0)
    """
    return Rating(_DEFAULTS.mu, _DEFAULTS.sigma, 0)


def rate_table(
    mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int]
) -> tuple[list[float], list[float]]:
    """The players' μ and σ after one table (one-person teams, in seat order; rank 1 best, equal ranks
    share): openskill 6.2's `BradleyTerryFull().rate(teams, ranks=ranks)` at its default parameters,
    the same operations in the same order, so the same doubles (tests/scoring/test_rating_kernel.py
    holds it to the library, bit for bit).

    Why not call `rate`: for a table of four it deep-copies the teams, draws a random id for every new
    rating and checks its arguments again, three times the arithmetic's cost; over 100,000 sets that is
    most of the recompute (`make bench`, `ratings.ratio_to_openskill`).

    >>> mus, sigmas = rate_table([25.0] * 4, [25 / 3] * 4, [1, 1, 3, 4])
    >>> [round(mu, 2) for mu in mus]
    [30.27, 30.27, 22.36, 17.09]
    """
    count = len(mus)
    sqrt, exp = math.sqrt, math.exp
    # As openskill: teams sorted by rank (a stable sort). openskill reads each rank as the first index
    # of its value among the sorted ranks; that keeps their order, and only their order is compared.
    order = sorted(range(count), key=ranks.__getitem__)
    rank = [ranks[index] for index in order]
    mu = [mus[index] for index in order]
    # σ widened by τ before the match (openskill's "tau" dynamics), then the team's variance.
    sigma = [sqrt(sigmas[index] * sigmas[index] + TAU_SQUARED) for index in order]
    variance = [value**2 for value in sigma]
    root = [sqrt(value) for value in variance]
    omega = [0.0] * count
    delta = [0.0] * count
    # openskill's sums over every other team q of team i, pair by pair: c_iq = c_qi (the same sum of
    # the same two variances), μ_i − μ_q = −(μ_q − μ_i), and each sum still adds its terms in q's order
    # (the pairs come in order, the first team's index first). Dividing by openskill's 1.0 is exact.
    for i in range(count - 1):
        mu_i, variance_i, rank_i, root_i = mu[i], variance[i], rank[i], root[i]
        for q in range(i + 1, count):
            variance_q = variance[q]
            c_iq = sqrt(variance_i + variance_q + TWO_BETA_SQUARED)
            ratio = (mu[q] - mu_i) / c_iq
            p_iq = 1 / (1 + exp(ratio))
            p_qi = 1 / (1 + exp(-ratio))
            # Sorted by rank: team q placed below team i, or shared the place.
            below = rank[q] > rank_i
            share = variance_i / c_iq
            omega[i] += share * ((1.0 if below else 0.5) - p_iq)
            delta[i] += (((root_i / c_iq) * share) / c_iq) * p_iq * (1 - p_iq)
            share = variance_q / c_iq
            omega[q] += share * ((0.0 if below else 0.5) - p_qi)
            delta[q] += (((root[q] / c_iq) * share) / c_iq) * p_qi * (1 - p_qi)
    new_mu = [0.0] * count
    new_sigma = [0.0] * count
    for i, index in enumerate(order):
        # openskill scales both updates by σ²/σ² (exactly 1.0) and by 1.0 again, whichever the sign.
        new_mu[index] = mu[i] + omega[i]
        new_sigma[index] = sigma[i] * sqrt(max(1 - delta[i], KAPPA))
    return new_mu, new_sigma


class RatingRun:
    """Ratings applied match by match from the start: `rate(match)` gives the match's players' μ and σ
    after it (seat order); `mu` and `sigma` hold each player's latest (a new player starts at the
    model's defaults)."""

    def __init__(self) -> None:
        self.mu: dict[Hashable, float] = {}
        self.sigma: dict[Hashable, float] = {}

    def rate(self, match: Match) -> tuple[list[float], list[float]]:
        players = match.players
        mu_of, sigma_of = self.mu, self.sigma
        mus, sigmas = rate_table(
            [mu_of.get(player, _START_MU) for player in players],
            [sigma_of.get(player, _START_SIGMA) for player in players],
            match.ranks,
        )
        mu_of.update(zip(players, mus, strict=True))
        sigma_of.update(zip(players, sigmas, strict=True))
        return mus, sigmas


def rate_matches(
    matches: Iterable[Match], *, history: list[RatingStep] | None = None
) -> dict[Hashable, Rating]:
    """Every player's rating after `matches`, applied in key order from the start.

    Pass a list as `history` to receive each player's rating after each of their matches.
    """
    run = RatingRun()
    sets: dict[Hashable, int] = {}
    for match in sorted(matches, key=lambda match: match.key):
        mus, sigmas = run.rate(match)
        for player, mu, sigma in zip(match.players, mus, sigmas, strict=True):
            sets[player] = played = sets.get(player, 0) + 1
            if history is not None:
                history.append(RatingStep(match.key, player, mu, sigma, played, match.context))
    return {player: Rating(mu, run.sigma[player], sets[player]) for player, mu in run.mu.items()}


def expected_ranks(ratings: Sequence[tuple[float, float]]) -> list[tuple[int, float]]:
    """openskill's own prediction for a table of one-person teams rated (μ, σ) in seat order: each
    player's expected rank and the probability it gives them of winning (`predict_rank`).

    >>> [(rank, round(chance, 2)) for rank, chance in expected_ranks([(30.0, 2.0), (25.0, 8.0)])]
    [(1, 0.69), (2, 0.31)]
    """
    model = _model()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(int(rank), probability) for rank, probability in model.predict_rank(teams)]


# --- seasons ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventPlace:
    """A player's place in one event's final standings (`ranked`: how many the event ranked)."""

    event: Hashable
    player: Hashable
    place: int
    shared: bool
    ranked: int


def place_points(place: int, *, ranked: int, shared_with: int, scheme: Sequence[int] | None) -> float:
    """Points for a place: by default `ranked − place + 1`, else the season's list from first place down.
    Players sharing a place share the points of the places they cover.

    >>> place_points(1, ranked=8, shared_with=1, scheme=None)
    8.0
    >>> place_points(2, ranked=8, shared_with=2, scheme=None)  # places 2 and 3: (7 + 6) / 2
    6.5
    >>> place_points(3, ranked=8, shared_with=1, scheme=[10, 6, 4])
    4.0
    >>> place_points(4, ranked=8, shared_with=1, scheme=[10, 6, 4])
    0.0
    """

    def of(at: int) -> float:
        if scheme is None:
            return float(max(ranked - at + 1, 0))
        return float(scheme[at - 1]) if at <= len(scheme) else 0.0

    covered = range(place, place + shared_with)
    return sum(of(at) for at in covered) / shared_with


@dataclass(frozen=True)
class SeasonRow:
    """A player's season: `results` holds (event, points, counted) for each of their events, in the
    order given; `counted` is how many of them the points add up."""

    place: int
    shared: bool
    player: Hashable
    points: float
    events: int
    counted: int
    wins: int
    best_place: int
    results: tuple[tuple[Hashable, float, bool], ...] = ()


def season_table(
    places: Iterable[EventPlace], *, scheme: Sequence[int] | None = None, best_of: int | None = None
) -> list[SeasonRow]:
    """Season standings: each player's points summed over their best `best_of` events (all by default);
    ties by more event wins, then the better best place, then shared (listed by player).

    >>> rows = season_table([EventPlace("e1", "ann", 1, False, 3), EventPlace("e1", "bob", 2, False, 3),
    ...                      EventPlace("e2", "bob", 1, False, 2), EventPlace("e2", "ann", 2, False, 2)])
    >>> [(row.player, row.points, row.place, row.shared) for row in rows]
    [('ann', 4.0, 1, True), ('bob', 4.0, 1, True)]
    """
    places = list(places)
    sharing: dict[tuple[Hashable, int], int] = {}
    for item in places:
        sharing[(item.event, item.place)] = sharing.get((item.event, item.place), 0) + 1
    by_player: dict[Hashable, list[tuple[float, EventPlace]]] = {}
    for item in places:
        points = place_points(
            item.place, ranked=item.ranked, shared_with=sharing[(item.event, item.place)], scheme=scheme
        )
        by_player.setdefault(item.player, []).append((points, item))
    rows = []
    for player, results in by_player.items():
        # Best first; equal points keep the order given, so which of two equal events counts is fixed.
        best = sorted(range(len(results)), key=lambda index: -results[index][0])
        kept = set(best[:best_of] if best_of else best)
        rows.append(
            (
                player,
                sum(results[index][0] for index in kept),
                len(results),
                len(kept),
                sum(1 for _, item in results if item.place == 1),
                min(item.place for _, item in results),
                tuple((item.event, points, index in kept) for index, (points, item) in enumerate(results)),
            )
        )
    rows.sort(key=lambda row: (-row[1], -row[4], row[5], str(row[0])))
    keys = [(-row[1], -row[4], row[5]) for row in rows]
    table = []
    place = 1
    for index, (player, points, events, counted, wins, best_place, results) in enumerate(rows):
        if index and keys[index] != keys[index - 1]:
            place = index + 1
        shared = (index > 0 and keys[index - 1] == keys[index]) or (
            index + 1 < len(keys) and keys[index + 1] == keys[index]
        )
        table.append(SeasonRow(place, shared, player, points, events, counted, wins, best_place, results))
    return table
