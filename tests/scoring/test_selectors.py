"""Selectors for screens: the set grid, seating, player history, table status; fixed query counts."""

import pytest

from scoring import selectors, services


@pytest.fixture
def played(game_set, director, example_sheet):
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    return game_set


def test_set_grid_has_nine_rows_with_contracts_dealers_and_running_totals(played, example_sheet):
    grid = selectors.set_grid(played)
    assert [row.number for row in grid.rows] == list(range(1, 10))
    assert grid.rows[2].contract == "344"
    assert grid.rows[2].deal_size == 11
    assert [row.dealer for row in grid.rows[:5]] == ["Ann", "Bob", "Cy", "Dee", "Ann"]
    for row, data in zip(grid.rows, example_sheet["deals"], strict=True):
        for cell in row.cells:
            assert cell.total == data["results"][cell.player]["total"]
    assert grid.complete
    assert grid.can_verify
    assert grid.winners == ["Bob"]
    assert grid.next_number is None


def test_set_grid_shows_placeholders_and_findings_beside_the_cell(game_set, director, example_sheet):
    first = dict(example_sheet["deals"][0])
    first["results"] = {**first["results"], "Bob": {"calls": 3, "penalty": 15, "total": 16}}
    services.deal_record(game_set=game_set, user=director, data=first)
    grid = selectors.set_grid(game_set)
    assert [row.placeholder for row in grid.rows] == [False] + [True] * 8
    assert grid.next_number == 2
    bob = next(cell for cell in grid.rows[0].cells if cell.player == "Bob")
    assert [finding.code for finding in bob.findings] == ["TOTAL_MISMATCH"]
    assert [finding.code for finding in grid.set_findings] == ["SET_INCOMPLETE"]
    assert not grid.can_verify


def test_a_void_deal_adds_a_replay_row(game_set, director, example_sheet):
    services.deal_record(game_set=game_set, user=director, data={"deal": 1, "void": True})
    grid = selectors.set_grid(game_set)
    assert [(row.number, row.void, row.placeholder) for row in grid.rows[:2]] == [
        (1, True, False),
        (1, False, True),
    ]
    # R19: the same dealer deals the replay.
    assert grid.rows[1].dealer == "Ann"


def test_set_grid_queries_do_not_grow_with_the_event(
    played, round1, director, make_table, example_sheet, rename_sheet, django_assert_num_queries
):
    with django_assert_num_queries(5):
        selectors.set_grid(played)
    for number in range(2, 6):
        names = [f"T{number}P{seat}" for seat in range(4)]
        other = make_table(round1, names)
        services.sheet_import(game_set=other, user=director, data=rename_sheet(example_sheet, names))
    with django_assert_num_queries(5):
        selectors.set_grid(played)


def test_round_seating_lists_everyone_by_name(game_set, round1, make_table):
    make_table(round1, ["Zed", "Amy", "Kim", "Lou"])
    rows = selectors.round_seating(round1)
    assert [row["player"] for row in rows] == ["Amy", "Ann", "Bob", "Cy", "Dee", "Kim", "Lou", "Zed"]
    amy = rows[0]
    assert (amy["table"], amy["seat"], amy["first_dealer"]) == (2, 2, False)
    assert rows[1]["first_dealer"] is True


def test_player_history_follows_the_running_total(played, event, entries, django_assert_num_queries):
    with django_assert_num_queries(5):
        history = selectors.player_history(event, entries["Bob"].player)
    (only,) = history.sets
    assert [deal.total for deal in only.deals][-1] == 380
    assert history.chart[-1].total == 380
    assert only.won


def test_event_tables_status_counts_finished_tables(
    played, round1, make_table, event, django_assert_num_queries
):
    make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    with django_assert_num_queries(3):
        status = selectors.event_tables_status(event)
    (rnd,) = status
    assert [(t.number, t.scored, t.finished) for t in rnd.tables] == [(1, 9, True), (2, 0, False)]
    assert rnd.finished == 1
