"""Standings as data (SCORESHEET.md): fields, tie-break chain, shared places, knock-out, counts."""

import pytest

from scoring import services
from scoring.selectors import STANDINGS_FIELDS, standings_for_event


def _row(rows, name):
    return next(row for row in rows if row["player"] == name)


def test_rows_have_the_spec_fields_in_order(event, game_set, play_set, nine_deals):
    play_set(game_set, nine_deals({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}, doubled_outs=2))
    rows = standings_for_event(event)
    assert [tuple(row) for row in rows] == [STANDINGS_FIELDS] * 4
    assert rows[0] == {
        "place": 1,
        "shared": False,
        "player": "Ann",
        "club": "",
        "total": 10,
        "sets": 1,
        "deals": 9,
        "sets_won": 1,
        "deals_won": 9,
        "doubled_outs": 2,
        "worst_deal": 10,
    }
    assert [(row["place"], row["player"], row["total"]) for row in rows] == [
        (1, "Ann", 10),
        (2, "Bob", 20),
        (3, "Cy", 30),
        (4, "Dee", 40),
    ]


def test_worst_deal_is_the_highest_single_deal_score(event, game_set, play_set):
    deals = [("Ann", False, {"Ann": 0, "Bob": 7})] + [("Ann", False, {"Ann": 0, "Bob": 30})] * 8
    play_set(game_set, deals)
    assert _row(standings_for_event(event), "Bob")["worst_deal"] == 30


def test_only_verified_sets_count_unless_provisional(
    event, round1, game_set, make_table, play_set, nine_deals
):
    play_set(game_set, nine_deals({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    in_play = make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    play_set(in_play, nine_deals({"Eve": 1, "Fay": 2, "Gus": 3, "Hal": 4})[:4], verified=False)
    official = standings_for_event(event)
    assert {row["player"] for row in official} == {"Ann", "Bob", "Cy", "Dee"}
    provisional = standings_for_event(event, provisional=True)
    assert provisional[0]["player"] == "Eve"
    # An unfinished set is not won yet (R20: after nine scored deals).
    assert _row(provisional, "Eve")["sets_won"] == 0
    assert _row(provisional, "Ann")["sets_won"] == 1


def test_players_who_tie_on_the_whole_chain_share_the_place_listed_by_name(
    event, round1, game_set, make_table, play_set, nine_deals
):
    play_set(game_set, nine_deals({"Dee": 10, "Ann": 20, "Bob": 30, "Cy": 40}))
    other = make_table(round1, ["Zoe", "Eve", "Fay", "Gus"])
    play_set(other, nine_deals({"Zoe": 10, "Eve": 50, "Fay": 60, "Gus": 70}))
    rows = standings_for_event(event)
    assert [(row["place"], row["shared"], row["player"]) for row in rows[:4]] == [
        (1, True, "Dee"),
        (1, True, "Zoe"),
        (3, False, "Ann"),
        (4, False, "Bob"),
    ]


def test_equal_lowest_totals_share_the_set_win(event, game_set, play_set):
    deals = [("Ann", False, {"Ann": 0, "Bob": 0, "Cy": 5, "Dee": 9})] * 9
    play_set(game_set, deals)
    rows = standings_for_event(event)
    assert _row(rows, "Ann")["sets_won"] == 1
    assert _row(rows, "Bob")["sets_won"] == 1
    # Ann went out every deal: deals won separates the tied totals.
    assert [(row["place"], row["player"]) for row in rows[:2]] == [(1, "Ann"), (2, "Bob")]


@pytest.mark.parametrize(
    ("chain", "first"),
    [
        (["total", "sets_won", "deals_won", "doubled_outs", "worst_deal"], "Bob"),
        (["worst_deal", "total"], "Ann"),
    ],
)
def test_the_event_chain_decides_the_order(make_event, director, make_table, play_set, chain, first):
    event = make_event(tiebreaks=chain)
    rnd = services.round_create(event=event, user=director)
    table = make_table(rnd, ["Ann", "Bob", "Cy", "Dee"])
    # Ann: 9 deals of 5 (45, worst 5); Bob: one deal of 40 (40, worst 40).
    deals = [("Cy", False, {"Ann": 5, "Bob": 40 if n == 0 else 0, "Cy": 0, "Dee": 99}) for n in range(9)]
    play_set(table, deals)
    order = [row["player"] for row in standings_for_event(event) if row["player"] in ("Ann", "Bob")]
    assert order[0] == first


def test_a_round_alone(event, round1, game_set, director, make_table, play_set, nine_deals):
    play_set(game_set, nine_deals({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    second = services.round_create(event=event, user=director)
    play_set(
        make_table(second, ["Dee", "Cy", "Bob", "Ann"]), nine_deals({"Dee": 1, "Cy": 2, "Bob": 3, "Ann": 4})
    )
    assert standings_for_event(event, round_number=2)[0]["player"] == "Dee"
    assert standings_for_event(event, round_number=2)[0]["sets"] == 1
    whole = standings_for_event(event)
    assert _row(whole, "Dee")["sets"] == 2
    assert _row(whole, "Dee")["total"] == 41
    assert standings_for_event(event, round_number=3) == []


def test_players_without_a_counted_set_are_left_out(event, game_set, make_entries, play_set):
    make_entries(event, ["Nobody"])
    play_set(game_set, [("Ann", False, {"Ann": 0, "Bob": 3})] * 9)
    names = {row["player"] for row in standings_for_event(event)}
    assert names == {"Ann", "Bob"}


def test_knockout_ranks_by_round_reached_then_the_final_table(
    make_event, director, make_table, play_set, nine_deals
):
    event = make_event(format="knockout", advance=2)
    first = services.round_create(event=event, user=director)
    play_set(make_table(first, ["A", "B", "C", "D"]), nine_deals({"A": 5, "B": 9, "C": 30, "D": 40}))
    play_set(make_table(first, ["E", "F", "G", "H"]), nine_deals({"E": 100, "F": 110, "G": 1, "H": 2}))
    final = services.round_create(event=event, user=director)
    # The final decides: E wins it although G and H did better in round 1.
    play_set(make_table(final, ["A", "B", "G", "H"]), nine_deals({"A": 20, "B": 30, "G": 40, "H": 50}))
    rows = standings_for_event(event)
    assert [(row["place"], row["player"], row["round_reached"]) for row in rows] == [
        (1, "A", 2),
        (2, "B", 2),
        (3, "G", 2),
        (4, "H", 2),
        (5, "C", 1),
        (6, "D", 1),
        (7, "E", 1),
        (8, "F", 1),
    ]
    assert _row(rows, "A")["total"] == 25
    assert _row(rows, "A")["round_total"] == 20


@pytest.mark.parametrize(
    ("view", "queries"),
    [
        ({}, 2),
        ({"round_number": 1}, 2),
        ({"provisional": True}, 2),
        ({"round_number": 1, "provisional": True}, 2),
    ],
)
def test_standings_take_a_fixed_number_of_queries_whatever_the_event_size(
    event, round1, game_set, make_table, play_set, nine_deals, django_assert_num_queries, view, queries
):
    # Each view: the scope (the event's tables) and the figures, at one table and at six.
    play_set(game_set, nine_deals({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    with django_assert_num_queries(queries):
        small = standings_for_event(event, **view)
    for number in range(2, 7):
        names = [f"T{number}P{seat}" for seat in range(4)]
        play_set(make_table(round1, names), nine_deals(dict(zip(names, [1, 2, 3, 4], strict=True))))
    with django_assert_num_queries(queries):
        large = standings_for_event(event, **view)
    assert len(small) == 4
    assert len(large) == 24


def test_no_round_complete_lists_no_one(event, game_set, play_set, nine_deals, django_assert_num_queries):
    play_set(game_set, nine_deals({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}), verified=False)
    with django_assert_num_queries(2):
        assert standings_for_event(event) == []
