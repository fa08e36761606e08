"""How far each round is, for the public pages: one round's tables, or every round's counts alone,
each in a fixed number of queries whatever the event's size."""

import pytest

from scoring import selectors, services


@pytest.fixture
def two_rounds(event, round1, game_set, director, make_table, play_set, nine_deals):
    """Round 1: Ann's table verified, a second finished but in play, a third with two deals.
    Round 2: one table, nothing played. Round 3: not seated."""
    play_set(game_set, nine_deals({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    finished = make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    play_set(finished, nine_deals({"Eve": 1, "Fay": 2, "Gus": 3, "Hal": 4}), verified=False)
    started = make_table(round1, ["Ivy", "Jon", "Kit", "Lee"])
    play_set(started, nine_deals({"Ivy": 1, "Jon": 2, "Kit": 3, "Lee": 4})[:2], verified=False)
    second = services.round_create(event=event, user=director)
    make_table(second, ["Dee", "Cy", "Bob", "Ann"], first_dealer=2)
    services.round_create(event=event, user=director)
    return event


def test_round_summaries_count_tables_finished_and_verified(two_rounds, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = selectors.round_summaries(two_rounds)
    assert [(row.number, row.seated, row.table_count, row.finished, row.verified) for row in rows] == [
        (1, True, 3, 2, 1),
        (2, True, 1, 0, 0),
        (3, False, 0, 0, 0),
    ]
    assert [row.round.number for row in rows] == [1, 2, 3]


def test_round_summaries_agree_with_the_tables_round_by_round(two_rounds):
    every = selectors.event_tables_status(two_rounds)
    for summary, full in zip(selectors.round_summaries(two_rounds), every, strict=True):
        assert summary.table_count == len(full.tables)
        assert (summary.finished, summary.verified) == (full.finished, full.verified)


def test_round_tables_status_reads_that_round_alone(two_rounds, django_assert_num_queries):
    first, second, _ = (row.round for row in selectors.round_summaries(two_rounds))
    with django_assert_num_queries(2):
        status = selectors.round_tables_status(first)
    assert [(t.number, t.scored, t.finished, t.verified) for t in status.tables] == [
        (1, 9, True, True),
        (2, 9, True, False),
        (3, 2, False, False),
    ]
    assert status.tables[0].players == ["Ann", "Bob", "Cy", "Dee"]
    assert (status.finished, status.verified, status.seated) == (2, 1, True)
    assert status == next(row for row in selectors.event_tables_status(two_rounds) if row.number == 1)
    with django_assert_num_queries(1):
        bare = selectors.round_tables_status(second, players=False)
    assert [(t.number, t.players) for t in bare.tables] == [(1, [])]


@pytest.mark.parametrize("function", ["round_summaries", "round_tables_status"])
def test_table_status_queries_do_not_grow_with_the_round(
    event, round1, make_table, play_set, nine_deals, function, django_assert_num_queries
):
    def read():
        if function == "round_summaries":
            return selectors.round_summaries(event)
        return selectors.round_tables_status(round1)

    make_table(round1, ["A1", "A2", "A3", "A4"])
    with django_assert_num_queries(1 if function == "round_summaries" else 2):
        read()
    for number in range(2, 8):
        names = [f"T{number}P{seat}" for seat in range(4)]
        play_set(make_table(round1, names), nine_deals(dict(zip(names, [1, 2, 3, 4], strict=True))))
    with django_assert_num_queries(1 if function == "round_summaries" else 2):
        read()
