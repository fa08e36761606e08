"""Ratings from counted sets (openskill Bradley-Terry full) and season points by place: plain values."""

import pytest
from openskill.models import BradleyTerryFull

from scoring.ratings import (
    EventPlace,
    Match,
    RatingStep,
    competition_ranks,
    place_points,
    rate_matches,
    season_table,
)


@pytest.mark.parametrize(
    ("totals", "ranks"),
    [
        ([412, 380, 500, 390], [3, 1, 4, 2]),
        ([100, 100, 200, 300], [1, 1, 3, 4]),
        ([50, 50, 50, 50], [1, 1, 1, 1]),
        ([10, 20, 20, 5], [2, 3, 3, 1]),
    ],
)
def test_set_totals_rank_lowest_first_and_equal_totals_share(totals, ranks):
    assert competition_ranks(totals, lower_is_better=True) == ranks


def test_a_series_of_two_events_matches_openskill_called_directly():
    # Event 1 (5 Dec): one table; event 2 (12 Dec): Ann and Cy meet again with two newcomers.
    matches = [
        Match(key=("2026-12-12", 1, 1), players=("ann", "cy", "eve", "fay"), ranks=(2, 1, 4, 3)),
        Match(key=("2026-12-05", 1, 1), players=("ann", "bob", "cy", "dee"), ranks=(1, 1, 3, 4)),
        Match(key=("2026-12-05", 2, 1), players=("dee", "cy", "bob", "ann"), ranks=(1, 2, 2, 4)),
    ]
    ratings = rate_matches(matches)

    model = BradleyTerryFull()
    people = {name: model.rating(name=name) for name in ("ann", "bob", "cy", "dee", "eve", "fay")}
    # Applied in date, round, table order whatever order they are given in.
    for seats, ranks in [
        (("ann", "bob", "cy", "dee"), [1, 1, 3, 4]),
        (("dee", "cy", "bob", "ann"), [1, 2, 2, 4]),
        (("ann", "cy", "eve", "fay"), [2, 1, 4, 3]),
    ]:
        rated = model.rate([[people[name]] for name in seats], ranks=ranks)
        for name, (after,) in zip(seats, rated, strict=True):
            people[name] = after
    for name, expected in people.items():
        assert ratings[name].mu == pytest.approx(expected.mu, abs=1e-12)
        assert ratings[name].sigma == pytest.approx(expected.sigma, abs=1e-12)
        assert ratings[name].ordinal == pytest.approx(expected.mu - 3 * expected.sigma, abs=1e-12)
    assert {name: rating.sets for name, rating in ratings.items()} == {
        "ann": 3,
        "bob": 2,
        "cy": 3,
        "dee": 2,
        "eve": 1,
        "fay": 1,
    }


def test_a_shared_set_win_lifts_both_winners_above_the_third():
    ratings = rate_matches([Match(key=(1,), players=("a", "b", "c", "d"), ranks=(1, 1, 3, 4))])
    assert ratings["a"].mu == ratings["b"].mu > ratings["c"].mu > ratings["d"].mu
    assert all(rating.provisional for rating in ratings.values())


def test_the_history_has_one_step_per_player_per_match():
    history: list[RatingStep] = []
    rate_matches(
        [
            Match(key=(1,), players=("a", "b", "c"), ranks=(1, 2, 3), context={"set": 7}),
            Match(key=(2,), players=("a", "b", "d"), ranks=(3, 2, 1)),
        ],
        history=history,
    )
    assert [(step.key, step.player, step.rating.sets) for step in history if step.player == "a"] == [
        ((1,), "a", 1),
        ((2,), "a", 2),
    ]
    assert history[0].context == {"set": 7}


@pytest.mark.parametrize(
    ("players", "ranks"),
    [(("a", "b"), (1,)), (("a", "a", "b"), (1, 2, 3))],
)
def test_a_match_that_cannot_be_rated_is_refused(players, ranks):
    with pytest.raises(ValueError):
        Match(key=(1,), players=players, ranks=ranks)


@pytest.mark.parametrize(
    ("place", "ranked", "shared_with", "scheme", "points"),
    [
        (1, 8, 1, None, 8),
        (8, 8, 1, None, 1),
        (2, 8, 2, None, 6.5),
        (1, 4, 4, None, 2.5),
        (1, 8, 1, [25, 18, 15], 25),
        (2, 8, 2, [25, 18, 15], 16.5),
        (4, 8, 1, [25, 18, 15], 0),
    ],
)
def test_place_points(place, ranked, shared_with, scheme, points):
    assert place_points(place, ranked=ranked, shared_with=shared_with, scheme=scheme) == points


def test_season_counts_each_players_best_events_and_breaks_ties_by_wins_then_best_place():
    places = [
        # Night 1 (4 ranked): ann 1, bob 2, cy 3, dee 4.
        EventPlace("n1", "ann", 1, False, 4),
        EventPlace("n1", "bob", 2, False, 4),
        EventPlace("n1", "cy", 3, False, 4),
        EventPlace("n1", "dee", 4, False, 4),
        # Night 2 (4 ranked): cy 1, dee 2, bob and ann share 3.
        EventPlace("n2", "cy", 1, False, 4),
        EventPlace("n2", "dee", 2, False, 4),
        EventPlace("n2", "bob", 3, True, 4),
        EventPlace("n2", "ann", 3, True, 4),
        # Night 3 (2 ranked): bob 1, ann 2.
        EventPlace("n3", "bob", 1, False, 2),
        EventPlace("n3", "ann", 2, False, 2),
    ]
    every = {row.player: row for row in season_table(places)}
    # ann: 4 + 1.5 + 1; bob: 3 + 1.5 + 2; cy: 2 + 4; dee: 1 + 3.
    assert {name: row.points for name, row in every.items()} == {
        "ann": 6.5,
        "bob": 6.5,
        "cy": 6.0,
        "dee": 4.0,
    }
    # ann and bob: one win each, best place 1 each: shared.
    assert [(row.player, row.place, row.shared) for row in season_table(places)][:2] == [
        ("ann", 1, True),
        ("bob", 1, True),
    ]
    best_two = {row.player: (row.points, row.counted, row.events) for row in season_table(places, best_of=2)}
    assert best_two == {"ann": (5.5, 2, 3), "bob": (5.0, 2, 3), "cy": (6.0, 2, 2), "dee": (4.0, 2, 2)}
    assert [row.player for row in season_table(places, best_of=2)] == ["cy", "ann", "bob", "dee"]


def test_the_modules_examples_hold():
    import doctest

    import scoring.ratings

    assert doctest.testmod(scoring.ratings).failed == 0


@pytest.mark.parametrize(
    "module", ["scoring.selectors.ratings", "scoring.web.league.forms", "scoring.management.columns"]
)
def test_the_examples_of_the_modules_around_them_hold(module):
    import doctest
    import importlib

    found = doctest.testmod(importlib.import_module(module))
    assert found.attempted and found.failed == 0
