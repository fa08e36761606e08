"""Saved once (issue 12, item 9): the same new deal sent twice at once — a void deal, which no deal
number clash catches — and two substitutes named for one seat at once. Each new write carries the
set's version as read; the second is refused as stale (StaleEdit, the usual message) and writes
nothing. Deterministic sequences on either database, and threads (real interleaving on PostgreSQL)."""

from __future__ import annotations

import pytest

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, Seat
from tests.races import ON_POSTGRES, run_threads

VOID = {"deal": 1, "void": True}


def test_the_same_void_deal_recorded_twice_from_one_reading_is_saved_once(game_set, director):
    read = game_set.version
    services.deal_record(game_set=game_set, user=director, data=VOID, expected_set_version=read)
    with pytest.raises(services.StaleEdit) as refused:
        services.deal_record(game_set=game_set, user=director, data=VOID, expected_set_version=read)
    message = refused.value.messages[0]
    assert message.startswith("The set at round 1, table 1 was changed by director")
    assert f"(you had version {read}, it is now version {read + 1})" in message
    assert message.endswith("Nothing was saved: reload to see the change, then try again.")
    assert Deal.objects.filter(game_set=game_set).count() == 1
    assert AuditEntry.objects.filter(action="kalooki.deal.recorded").count() == 1


def test_a_new_deal_read_after_the_last_change_is_saved(game_set, director):
    services.deal_record(game_set=game_set, user=director, data=VOID, expected_set_version=1)
    game_set.refresh_from_db()
    services.deal_record(game_set=game_set, user=director, data=VOID, expected_set_version=game_set.version)
    assert Deal.objects.filter(game_set=game_set, void=True).count() == 2


def test_two_substitutes_for_one_seat_from_one_reading_one_wins(game_set, director, make_entries):
    reserves = make_entries(game_set.table.round.event, ["Zoe", "Yul"])
    seat = Seat.objects.get(table=game_set.table, position=2)
    read = game_set.version
    services.seat_substitute(
        seat=seat, user=director, substitute=reserves["Zoe"], from_deal=4, expected_version=read
    )
    with pytest.raises(services.StaleEdit, match="Nothing was saved"):
        services.seat_substitute(
            seat=seat, user=director, substitute=reserves["Yul"], from_deal=6, expected_version=read
        )
    seat.refresh_from_db()
    assert (seat.substitute_id, seat.substitute_from) == (reserves["Zoe"].pk, 4)
    assert AuditEntry.objects.filter(action="kalooki.seat.substituted").count() == 1


def _void_race(game_set, director, threads: int) -> int:
    read = game_set.version
    refused: list[str] = []

    def record(_index: int) -> None:
        try:
            services.deal_record(game_set=game_set, user=director, data=VOID, expected_set_version=read)
        except services.StaleEdit as exc:
            refused.append(exc.messages[0])

    assert run_threads(threads, record) == []
    assert len(refused) == threads - 1
    assert all("Nothing was saved" in message for message in refused)
    return Deal.objects.filter(game_set=game_set).count()


def _substitute_race(game_set, director, names) -> tuple[int, int | None]:
    reserves = names
    seat = Seat.objects.get(table=game_set.table, position=3)
    read = game_set.version
    refused: list[str] = []

    def substitute(index: int) -> None:
        try:
            services.seat_substitute(
                seat=seat, user=director, substitute=reserves[index], from_deal=2, expected_version=read
            )
        except services.StaleEdit as exc:
            refused.append(exc.messages[0])

    assert run_threads(len(reserves), substitute) == []
    assert len(refused) == len(reserves) - 1
    seat.refresh_from_db()
    return AuditEntry.objects.filter(action="kalooki.seat.substituted").count(), seat.substitute_id


@pytest.mark.django_db(transaction=True)
def test_simultaneous_writes_from_one_reading_save_once(game_set, director, make_entries):
    assert _void_race(game_set, director, threads=4) == 1
    reserves = list(make_entries(game_set.table.round.event, ["Zoe", "Yul", "Xan"]).values())
    game_set.refresh_from_db()
    substituted, chosen = _substitute_race(game_set, director, reserves)
    assert substituted == 1 and chosen in {entry.pk for entry in reserves}


@pytest.mark.postgres
@pytest.mark.skipif(not ON_POSTGRES, reason="needs PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_simultaneous_writes_on_postgresql_save_once(game_set, director, make_entries):
    assert _void_race(game_set, director, threads=10) == 1
    reserves = list(make_entries(game_set.table.round.event, [f"Reserve {n}" for n in range(8)]).values())
    game_set.refresh_from_db()
    substituted, chosen = _substitute_race(game_set, director, reserves)
    assert substituted == 1 and chosen in {entry.pk for entry in reserves}
