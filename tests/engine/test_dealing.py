"""Dealer order, the deal due next and a deal's place in playing order (RULES.md R19, R21, V11–V13)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudication.engine.dealing import (
    dealer_of_deal,
    dealer_passes,
    dealer_seats,
    next_deal_number,
    playing_position,
)
from adjudication.engine.rules import DEALS_PER_SET, ruleset_from
from adjudication.engine.simulator import simulate_sheet

F, T = False, True


@pytest.mark.parametrize(
    ("deals", "first_dealer", "players", "void_redeal", "seats"),
    [
        ([], 0, 4, "same", []),
        ([(1, F), (2, F), (3, F), (4, F), (5, F)], 0, 4, "same", [0, 1, 2, 3, 0]),
        ([(1, F), (2, F), (3, F)], 2, 3, "same", [2, 0, 1]),
        # R19: the same dealer deals a void deal again …
        ([(1, T), (1, F), (2, F)], 1, 4, "same", [1, 1, 2]),
        ([(1, F), (2, T), (2, T), (2, F), (3, F)], 0, 4, "same", [0, 1, 1, 1, 2]),
        # … or, with "next", the deal passes on after a void deal too.
        ([(1, T), (1, F), (2, F)], 1, 4, "next", [1, 2, 3]),
        ([(1, F), (2, T), (2, T), (2, F), (3, F)], 0, 4, "next", [0, 1, 2, 3, 0]),
        # V13 counts by deal number: a deal entered out of order still gets its own dealer.
        ([(2, F), (3, F), (1, F)], 0, 4, "same", [1, 2, 0]),
        ([(number, F) for number in range(1, 10)], 3, 6, "same", [3, 4, 5, 0, 1, 2, 3, 4, 5]),
    ],
)
def test_dealer_seats(deals, first_dealer, players, void_redeal, seats):
    assert dealer_seats(deals, first_dealer=first_dealer, players=players, void_redeal=void_redeal) == seats


@pytest.mark.parametrize(
    ("number", "first_dealer", "players", "seat"),
    [(1, 0, 4, 0), (2, 0, 4, 1), (5, 0, 4, 0), (9, 0, 4, 0), (9, 1, 3, 0), (4, 2, 5, 0)],
)
def test_dealer_of_deal_on_a_blank_sheet(number, first_dealer, players, seat):
    assert dealer_of_deal(number, first_dealer=first_dealer, players=players) == seat
    assert dealer_seats([(number, F)], first_dealer=first_dealer, players=players) == [seat]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: dealer_seats([], first_dealer=0, players=4, void_redeal="left"), "void_redeal"),
        (lambda: dealer_seats([], first_dealer=4, players=4), "first_dealer: expected a seat 0–3, got 4"),
        (lambda: dealer_seats([], first_dealer=-1, players=4), "first_dealer"),
        (lambda: dealer_of_deal(1, first_dealer=0, players=0), "players: expected at least 1 seat"),
        (lambda: dealer_passes(1, void_redeal="left"), "void_redeal"),
    ],
)
def test_impossible_tables_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    ("deals", "number"),
    [
        ([], 1),
        ([(1, F), (2, F), (3, F)], 4),
        # The lowest number still missing, not one past the last or the count (issue 9).
        ([(2, F), (3, F)], 1),
        ([(1, F), (3, F), (4, F)], 2),
        # A void deal's replay keeps its number (V11).
        ([(1, F), (2, F), (3, F), (4, T)], 4),
        ([(1, T)], 1),
        ([(1, F), (2, T), (2, F)], 3),
        ([(number, F) for number in range(1, 10)], None),
        ([(number, F) for number in range(9, 0, -1)], None),
        ([(number, F) for number in range(1, 9)] + [(9, T)], 9),
    ],
)
def test_next_deal_number_is_the_lowest_missing(deals, number):
    assert next_deal_number(deals) == number


def test_next_deal_number_follows_the_set_length():
    assert next_deal_number([(1, F), (2, F)], deals_per_set=2) is None
    assert next_deal_number([], deals_per_set=DEALS_PER_SET) == 1


@pytest.mark.parametrize(
    ("deals", "new", "position"),
    [
        ([], (1, F), 0),
        ([(2, F), (3, F)], (1, F), 0),
        ([(1, F), (3, F)], (2, F), 1),
        ([(1, F), (2, T)], (2, F), 2),
        ([(1, F), (2, T), (2, F)], (3, F), 3),
        # A void deal goes just before its replay, after the earlier void deals of its number.
        ([(1, F), (2, F)], (2, T), 1),
        ([(1, F), (2, T), (2, F)], (2, T), 2),
        ([(1, T), (1, F), (3, F)], (2, T), 2),
        ([(1, F), (2, F), (3, F)], (9, F), 3),
        # A repeat (a mistake the validator reports) goes after the deal it repeats.
        ([(1, F), (2, F), (3, F)], (2, F), 2),
    ],
)
def test_playing_position(deals, new, position):
    assert playing_position(deals, *new) == position


played_deals = st.lists(st.tuples(st.integers(1, DEALS_PER_SET), st.booleans()), max_size=14)


@settings(deadline=None, max_examples=60)
@given(played_deals)
def test_deals_entered_in_any_order_land_in_playing_order(deals):
    placed: list[tuple[int, bool]] = []
    for number, void in deals:
        placed.insert(playing_position(placed, number, void), (number, void))
    assert placed == sorted(deals, key=lambda deal: (deal[0], not deal[1]))


@settings(deadline=None, max_examples=60)
@given(played_deals)
def test_the_deal_due_is_never_scored_and_every_lower_one_is(deals):
    due = next_deal_number(deals)
    scored = {number for number, void in deals if not void}
    if due is None:
        assert scored == set(range(1, DEALS_PER_SET + 1))
    else:
        assert due not in scored and set(range(1, due)) <= scored


@pytest.mark.parametrize("void_redeal", ["same", "next"])
@pytest.mark.parametrize("seed", range(12))
def test_the_simulator_s_dealers_are_the_rule_s(seed, void_redeal):
    rules = ruleset_from("jamaican", {"void_redeal": void_redeal})
    sheet = simulate_sheet(seed, rules=rules, void_rate=0.3)
    seats = {name: seat for seat, name in enumerate(sheet["players"])}
    deals = [(deal["deal"], bool(deal.get("void"))) for deal in sheet["deals"]]
    written = [seats[deal["dealer"]] for deal in sheet["deals"]]
    found = dealer_seats(
        deals, first_dealer=seats[sheet["first_dealer"]], players=len(seats), void_redeal=void_redeal
    )
    assert found == written
