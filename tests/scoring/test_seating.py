"""Round seating: table sizes, the seeded draw, clubs apart, standings and knock-out seating."""

import random

import pytest
from django.core.exceptions import ValidationError

from adjudication.models import AuditEntry
from scoring import seating, services
from scoring.models import Entry, Round, Seat, Table


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [4, 5]),
        (16, [4, 4, 4, 4]),
        (17, [4, 4, 4, 5]),
        (18, [4, 4, 5, 5]),
        (19, [4, 4, 4, 4, 3]),
    ],
)
def test_table_sizes_use_one_more_or_one_fewer_at_the_last_tables(count, sizes):
    assert seating.table_sizes(count, size=4, min_players=3, max_players=6) == sizes


def test_table_sizes_respect_the_ruleset_limits():
    # Tables of 5 not allowed: 9 players need 3 tables of 3.
    assert seating.table_sizes(9, size=4, min_players=3, max_players=4) == [3, 3, 3]
    with pytest.raises(seating.SeatingError):
        seating.table_sizes(2, size=4, min_players=3, max_players=6)


def test_separate_clubs_removes_clashes_when_possible():
    players = [seating.Seatable(n, club) for n, club in enumerate("AAAABBBBCCCCDDDD")]
    tables = [players[i : i + 4] for i in range(0, 16, 4)]
    assert seating.club_clashes(tables) == 24
    seating.separate_clubs(tables)
    assert seating.club_clashes(tables) == 0
    assert sorted(len(table) for table in tables) == [4, 4, 4, 4]


def _plan(rnd):
    return [
        [seat.entry.player.name for seat in table.seats.order_by("position")]
        + [f"dealer {table.first_dealer}"]
        for table in Table.objects.filter(round=rnd).prefetch_related("seats__entry__player")
    ]


@pytest.fixture
def sixteen(event, make_entries):
    clubs = ["Mona"] * 4 + ["Liguanea"] * 4 + ["Papine"] * 4 + ["Hope"] * 4
    return make_entries(event, [f"P{n:02}" for n in range(16)], clubs=clubs)


def test_round_one_draw_is_repeated_by_its_seed(event, round1, director, sixteen):
    services.round_seat(round=round1, user=director, seed=1234)
    first = _plan(round1)
    services.round_seat(round=round1, user=director, seed=1234)
    assert _plan(round1) == first
    services.round_seat(round=round1, user=director, seed=99)
    assert _plan(round1) != first
    round1.refresh_from_db()
    assert (round1.seed, round1.method) == (99, Round.Method.RANDOM)
    assert len(first) == 4
    assert AuditEntry.objects.filter(action="kalooki.round.seated").count() == 3


def test_round_seat_without_a_seed_records_the_one_it_drew(round1, director, sixteen):
    services.round_seat(round=round1, user=director)
    round1.refresh_from_db()
    drawn = _plan(round1)
    services.round_seat(round=round1, user=director, seed=round1.seed)
    assert _plan(round1) == drawn


def test_round_seat_keeps_clubs_apart(round1, director, sixteen):
    services.round_seat(round=round1, user=director, seed=5, keep_clubs_apart=True)
    for table in Table.objects.filter(round=round1).prefetch_related("seats__entry__player"):
        clubs = [seat.entry.player.club for seat in table.seats.all()]
        assert len(set(clubs)) == len(clubs)


def test_round_seat_skips_withdrawn_and_seats_odd_counts(event, round1, director, sixteen):
    services.entry_withdraw(entry=sixteen["P00"], user=director)
    services.entry_add(event=event, user=director, name="Extra One")
    services.entry_add(event=event, user=director, name="Extra Two")
    services.round_seat(round=round1, user=director, seed=3)
    sizes = [table.seats.count() for table in Table.objects.filter(round=round1)]
    assert sizes == [4, 4, 4, 5]
    assert not Seat.objects.filter(entry=sixteen["P00"]).exists()
    assert all(1 <= t.first_dealer <= t.seats.count() for t in Table.objects.filter(round=round1))


def test_round_seat_creates_one_in_play_set_per_table(round1, director, sixteen):
    services.round_seat(round=round1, user=director, seed=3)
    assert all(t.game_set.status == "in_play" for t in Table.objects.filter(round=round1))


def test_round_seat_refuses_a_round_with_deals(game_set, round1, director, play_set):
    play_set(game_set, [("Ann", False, {"Ann": 0})], verified=False)
    with pytest.raises(ValidationError, match="already has deals"):
        services.round_seat(round=round1, user=director, seed=1)


def test_later_rounds_seat_by_standings_and_include_late_entries(
    event, director, make_table, play_set, nine_deals
):
    first = services.round_create(event=event, user=director)
    top = ["A1", "A2", "A3", "A4"]
    low = ["B1", "B2", "B3", "B4"]
    # B-table players score less than everybody at the A table.
    play_set(make_table(first, top), nine_deals({"A1": 50, "A2": 60, "A3": 70, "A4": 80}))
    play_set(make_table(first, low), nine_deals({"B1": 5, "B2": 6, "B3": 7, "B4": 8}))
    late = services.entry_add(event=event, user=director, name="Late")
    assert late.first_round == 2
    second = services.round_create(event=event, user=director)
    services.round_seat(round=second, user=director, seed=8)
    plan = {
        table.number: {seat.entry.player.name for seat in table.seats.all()}
        for table in Table.objects.filter(round=second).prefetch_related("seats__entry__player")
    }
    assert second.__class__.objects.get(pk=second.pk).method == Round.Method.STANDINGS
    assert plan[1] == {"B1", "B2", "B3", "B4"}
    assert plan[2] == {"A1", "A2", "A3", "A4", "Late"}


def test_knockout_rounds_seat_who_went_through(make_event, director, make_table, play_set, nine_deals):
    event = make_event(format="knockout", advance=2)
    first = services.round_create(event=event, user=director)
    play_set(make_table(first, ["A1", "A2", "A3", "A4"]), nine_deals({"A1": 5, "A2": 9, "A3": 30, "A4": 40}))
    play_set(make_table(first, ["B1", "B2", "B3", "B4"]), nine_deals({"B1": 1, "B2": 50, "B3": 2, "B4": 60}))
    second = services.round_create(event=event, user=director)
    services.round_seat(round=second, user=director, seed=2)
    seated = set(Seat.objects.filter(round=second).values_list("entry__player__name", flat=True))
    assert seated == {"A1", "A2", "B1", "B3"}
    assert Round.objects.get(pk=second.pk).method == Round.Method.KNOCKOUT


def test_plan_tables_is_a_pure_function_of_the_seed():
    players = [seating.Seatable(n) for n in range(12)]
    one = seating.plan_tables(players, [4, 4, 4], rng=random.Random(7), shuffle=True)
    two = seating.plan_tables(players, [4, 4, 4], rng=random.Random(7), shuffle=True)
    assert one == two
    assert sorted(p.key for plan in one for p in plan.players) == list(range(12))


def test_seat_substitute_records_who_plays_from_which_deal(event, game_set, director, entries):
    reserve = services.entry_add(event=event, user=director, name="Reserve")
    seat = Seat.objects.get(table=game_set.table, entry=entries["Bob"])
    services.seat_substitute(seat=seat, user=director, substitute=reserve, from_deal=5, reason="ill")
    seat.refresh_from_db()
    assert (seat.substitute, seat.substitute_from) == (reserve, 5)
    assert AuditEntry.objects.filter(action="kalooki.seat.substituted", reason="ill").exists()
    with pytest.raises(ValidationError):
        services.seat_substitute(
            seat=Seat.objects.get(table=game_set.table, entry=entries["Cy"]),
            user=director,
            substitute=Entry.objects.get(pk=entries["Dee"].pk),
            from_deal=3,
        )


def test_knockout_seating_waits_for_every_set_of_the_round(
    make_event, director, make_table, play_set, nine_deals
):
    event = make_event(format="knockout", advance=2)
    first = services.round_create(event=event, user=director)
    play_set(make_table(first, ["A1", "A2", "A3", "A4"]), nine_deals({"A1": 5, "A2": 9, "A3": 30, "A4": 40}))
    play_set(
        make_table(first, ["B1", "B2", "B3", "B4"]),
        nine_deals({"B1": 1, "B2": 5, "B3": 2, "B4": 6}),
        verified=False,
    )
    second = services.round_create(event=event, user=director)
    with pytest.raises(ValidationError, match="not yet verified"):
        services.round_seat(round=second, user=director, seed=2)


def test_round_seat_manual_seats_as_given(event, round1, director, sixteen):
    names = sorted(sixteen)
    tables = [
        services.ManualTable(number=1, entries=[sixteen[n] for n in names[:4]], first_dealer=3),
        services.ManualTable(number=2, entries=[sixteen[n] for n in names[4:9]]),
    ]
    services.round_seat_manual(round=round1, user=director, tables=tables, reason="from the archive")
    assert _plan(round1) == [[*names[:4], "dealer 3"], [*names[4:9], "dealer 1"]]
    assert Round.objects.get(pk=round1.pk).method == Round.Method.MANUAL
    logged = AuditEntry.objects.get(action="kalooki.round.seated")
    assert logged.reason == "from the archive"


@pytest.mark.parametrize(
    ("tables", "problem"),
    [
        (lambda e: [services.ManualTable(1, e[:2])], "cannot play"),
        (lambda e: [services.ManualTable(1, e[:4]), services.ManualTable(1, e[4:8])], "differ"),
        (lambda e: [services.ManualTable(1, e[:4]), services.ManualTable(2, e[3:7])], "twice"),
        (lambda e: [services.ManualTable(1, e[:4], first_dealer=5)], "first dealer"),
    ],
)
def test_round_seat_manual_refuses_impossible_tables(round1, director, sixteen, tables, problem):
    entries = [sixteen[name] for name in sorted(sixteen)]
    with pytest.raises(ValidationError, match=problem):
        services.round_seat_manual(round=round1, user=director, tables=tables(entries))
    assert not Table.objects.filter(round=round1).exists()
