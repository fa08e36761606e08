"""The rating arithmetic (`scoring.ratings.rate_table`) is openskill's own, bit for bit: thousands of
tables of two to six players, with shared places and players met again and again, rated by both and
compared exactly after every table."""

from __future__ import annotations

import random

import pytest
from openskill.models import BradleyTerryFull

from scoring.ratings import Match, competition_ranks, rate_matches, rate_table


def random_tables(seed: int, count: int, pool: int):
    rng = random.Random(seed)
    for _ in range(count):
        seats = rng.sample(range(pool), rng.choice([2, 3, 4, 4, 4, 5, 6]))
        # Few distinct totals, so shared places (and a shared win) come often.
        totals = [rng.choice([0, 15, 30, 30, 45, 200]) for _ in seats]
        yield seats, competition_ranks(totals, lower_is_better=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_table_gives_the_doubles_openskill_gives(seed):
    model = BradleyTerryFull()
    theirs: dict = {}
    ours: dict = {}
    start = (model.mu, model.sigma)
    for seats, ranks in random_tables(seed, 1500, 40):
        teams = [[theirs.get(player) or model.rating(name=str(player))] for player in seats]
        rated = model.rate(teams, ranks=list(ranks))
        mus, sigmas = rate_table(
            [ours.get(player, start)[0] for player in seats],
            [ours.get(player, start)[1] for player in seats],
            ranks,
        )
        for player, (after,), mu, sigma in zip(seats, rated, mus, sigmas, strict=True):
            theirs[player] = after
            ours[player] = (mu, sigma)
            assert (mu, sigma) == (after.mu, after.sigma)  # exactly, not approximately


def test_a_whole_series_rated_by_rate_matches_is_openskills():
    model = BradleyTerryFull()
    theirs: dict = {}
    matches = []
    for number, (seats, ranks) in enumerate(random_tables(9, 800, 30)):
        matches.append(Match(key=(number,), players=tuple(seats), ranks=tuple(ranks)))
        teams = [[theirs.get(player) or model.rating(name=str(player))] for player in seats]
        for player, (after,) in zip(seats, model.rate(teams, ranks=list(ranks)), strict=True):
            theirs[player] = after
    ratings = rate_matches(reversed(matches))  # applied in key order whatever order they come in
    assert {player: (rating.mu, rating.sigma) for player, rating in ratings.items()} == {
        player: (rating.mu, rating.sigma) for player, rating in theirs.items()
    }
