"""Many directors at once: no update lost, no deal duplicated (issue 5, "Concurrency").

Real threads, each with its own database connection, against a real database (PostgreSQL row locks;
SQLite serialises writers with immediate transactions). The version check decides who wins.
"""

import threading

import pytest
from django.db import connection

from adjudication.engine.simulator import simulate_sheet
from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult

THREADS = 8


def _run_threads(target, count):
    errors = []
    barrier = threading.Barrier(count)

    def wrapped(index):
        try:
            barrier.wait()
            target(index)
        except Exception as exc:  # reported below: a thread must not fail silently
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_concurrent_corrections_of_one_deal_lose_no_update(game_set, director):
    data = {"deal": 1, "out": "Ann", "results": {"Ann": {"penalty": 0}, "Bob": {"penalty": 0}}}
    deal = services.deal_record(game_set=game_set, user=director, data=data).deal
    rounds = 4
    refused = []

    def add_one(index):
        done = 0
        while done < rounds:
            # The version is read before the data: a form carries what it was built from.
            version = Deal.objects.get(pk=deal.pk).version
            bob = DealResult.objects.get(deal=deal, entry__player__name="Bob").penalty
            change = {**data, "results": {"Ann": {"penalty": 0}, "Bob": {"penalty": bob + 1}}}
            try:
                services.deal_record(
                    game_set=game_set, user=director, data=change, deal=deal, expected_version=version
                )
                done += 1
            except services.StaleEdit:
                refused.append(index)

    _run_threads(add_one, THREADS)
    assert DealResult.objects.get(deal=deal, entry__player__name="Bob").penalty == THREADS * rounds
    assert Deal.objects.get(pk=deal.pk).version == THREADS * rounds + 1
    assert AuditEntry.objects.filter(action="kalooki.deal.corrected").count() == THREADS * rounds


@pytest.mark.django_db(transaction=True)
def test_concurrent_entry_on_shared_tables_duplicates_no_deal(round1, director, make_table):
    names = [[f"T{t}P{s}" for s in range(4)] for t in range(2)]
    tables = [make_table(round1, seated) for seated in names]
    sheets = [
        [d for d in simulate_sheet(t, names[t], dealers=False)["deals"] if not d.get("void")]
        for t in range(2)
    ]

    def enter(index):
        game_set, deals = tables[index % 2], sheets[index % 2]
        while True:
            scored = Deal.objects.filter(game_set=game_set, void=False).count()
            if scored >= 9:
                return
            try:
                services.deal_record(game_set=game_set, user=director, data=deals[scored])
            except services.StaleEdit:
                continue

    _run_threads(enter, THREADS)
    for game_set, deals in zip(tables, sheets, strict=True):
        rows = list(Deal.objects.filter(game_set=game_set).values_list("sequence", "number"))
        assert rows == [(n, n) for n in range(1, 10)]
        assert services.findings_for_set(game_set) == []
        assert services.sheet_for_set(game_set)["deals"] == deals
