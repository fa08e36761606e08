"""Where a British game stands and its finishing order (RULES.md B1, B7, BV8; SCORESHEET.md: a British
table's result, a game ended by the director)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudication.engine.british_game import ended_game_order, finishing_order, game_state
from adjudication.engine.british_sheet import BritishSheet
from adjudication.engine.sheet import parse_sheet
from tests.engine.british_games import index_of, long_game, short_game


def sheet_of(data: dict[str, Any]) -> BritishSheet:
    sheet = parse_sheet(data)
    assert isinstance(sheet, BritishSheet)
    return sheet


def placings(order: Any) -> list[tuple[int, bool, str]]:
    return [(item.place, item.shared, item.player) for item in order]


def test_the_short_game_ends_with_bob_then_the_last_out_first() -> None:
    sheet = sheet_of(short_game())
    # BV8: Bob, the last at or under 150; Cy out in hand 8; Ann out in hand 6.
    assert placings(finishing_order(sheet)) == [(1, False, "Bob"), (2, False, "Cy"), (3, False, "Ann")]
    first, second, third = finishing_order(sheet)
    assert (first.total, first.out_in, first.buy_ins, first.penalty) == (110, None, 0, 110)
    # Cy's penalties add up to 344 though the total went back to 124 and 110 at the buy-ins.
    assert (second.total, second.out_in, second.buy_ins, second.penalty) == (196, 8, 2, 344)
    assert (third.total, third.out_in) == (236, 6)


def test_the_long_game_places_every_player() -> None:
    order = finishing_order(sheet_of(long_game()))
    assert [item.place for item in order] == [1, 2, 3, 4]
    winner = order[0]
    assert winner.out_in is None and winner.total <= 301
    # Reverse order of going out: each later place went out earlier.
    outs = [item.out_in for item in order[1:]]
    assert outs == sorted(outs, reverse=True)


def test_the_state_of_a_finished_game() -> None:
    state = game_state(sheet_of(short_game()))
    assert (state.over, state.winner, state.hands, state.next_hand, state.next_dealer) == (
        True,
        "Bob",
        8,
        None,
        None,
    )
    assert state.still_in == ("Bob",)
    bob = state.player("Bob")
    assert (bob.hands, bob.hands_won, bob.seat) == (8, 4, 1)
    with pytest.raises(KeyError):
        state.player("Dee")


@pytest.mark.parametrize(
    ("last", "next_hand", "next_dealer", "still_in"),
    [
        # After hand 2 Cy deals hand 3; after the void hand 3, Cy deals it again (B8).
        (2, 3, "Cy", ("Ann", "Bob", "Cy")),
        (3, 3, "Cy", ("Ann", "Bob", "Cy")),
        (4, 4, "Ann", ("Ann", "Bob", "Cy")),
        # After hand 6 Ann is out: the deal passes from Cy over her to Bob (B1).
        (7, 7, "Bob", ("Bob", "Cy")),
    ],
)
def test_the_state_of_a_game_in_play_says_who_deals_what_next(
    last: int, next_hand: int, next_dealer: str, still_in: tuple[str, ...]
) -> None:
    data = short_game()
    data["deals"] = data["deals"][:last]
    state = game_state(sheet_of(data))
    assert (state.over, state.next_hand, state.next_dealer, state.still_in) == (
        False,
        next_hand,
        next_dealer,
        still_in,
    )


def test_a_buy_in_goes_on_from_its_reset_value() -> None:
    data = short_game()
    data["deals"] = data["deals"][: index_of(data, 4) + 1]
    cy = game_state(sheet_of(data)).player("Cy")
    assert (cy.total, cy.penalty, cy.buy_ins, cy.still_in) == (124, 213, 1, True)


def test_a_game_in_play_shares_the_first_place_among_those_still_in() -> None:
    data = short_game()
    data["deals"] = data["deals"][: index_of(data, 7) + 1]
    assert placings(finishing_order(sheet_of(data))) == [(1, True, "Bob"), (1, True, "Cy"), (3, False, "Ann")]


def test_a_game_ended_by_the_director_places_those_left_by_lower_total() -> None:
    data = short_game()
    data["deals"] = data["deals"][: index_of(data, 5) + 1]
    # After hand 5: Bob 105, Cy 134, Ann 141.
    order = ended_game_order(sheet_of(data))
    assert [(item.place, item.player, item.total) for item in order] == [
        (1, "Bob", 105),
        (2, "Cy", 134),
        (3, "Ann", 141),
    ]
    # A finished game is ended as it stands.
    assert ended_game_order(sheet_of(short_game())) == finishing_order(sheet_of(short_game()))


def game_of_five(penalties: dict[str, int], second: dict[str, int] | None = None) -> BritishSheet:
    hands = [
        {
            "deal": 1,
            "out": "A",
            "results": {"A": {"penalty": 0}} | {n: {"penalty": p} for n, p in penalties.items()},
        }
    ]
    if second is not None:
        hands.append(
            {
                "deal": 2,
                "out": "A",
                "results": {"A": {"penalty": 0}} | {n: {"penalty": p} for n, p in second.items()},
            }
        )
    return sheet_of(
        {
            "format": "kalooki-sheet/1",
            "ruleset": "british",
            "players": ["A", "B", "C", "D", "E"],
            "deals": hands,
        }
    )


def test_players_out_on_the_same_hand_are_placed_by_lower_total() -> None:
    sheet = game_of_five({"B": 170, "C": 151, "D": 160, "E": 20}, {"E": 200})
    assert placings(finishing_order(sheet)) == [
        (1, False, "A"),
        (2, False, "E"),
        (3, False, "C"),
        (4, False, "D"),
        (5, False, "B"),
    ]


def test_equal_totals_out_on_the_same_hand_share_the_place() -> None:
    sheet = game_of_five({"B": 160, "C": 160, "D": 151, "E": 160})
    assert placings(finishing_order(sheet)) == [
        (1, False, "A"),
        (2, False, "D"),
        (3, True, "B"),
        (3, True, "C"),
        (3, True, "E"),
    ]


def test_equal_totals_left_when_the_director_ends_share_the_place() -> None:
    sheet = game_of_five({"B": 40, "C": 40, "D": 10, "E": 151})
    assert placings(ended_game_order(sheet)) == [
        (1, False, "A"),
        (2, False, "D"),
        (3, True, "B"),
        (3, True, "C"),
        (5, False, "E"),
    ]
