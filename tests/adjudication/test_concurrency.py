"""Nothing lost (issue 5, "Concurrency"): many directors entering deals, correcting them and ruling on
shared tables at once, each thread with its own database connection.

The proof, per deal: every successful write was built on the version it replaced — the versions the
successes read are exactly 1, 2, …, k and the deal ends at version k + 1 — so no success overwrote
another unseen; the final row holds the last correction's value and every ruling's point; the audit
log holds one entry per success; every other attempt was refused with StaleEdit and wrote nothing.
Per set: deal numbers 1…n once each, in playing order (no deal duplicated).

The full run needs PostgreSQL (real row locks): `DATABASE_URL=postgres://… pytest -m postgres`.
A smaller run of the same scenario goes on SQLite (a file database in WAL mode with immediate
transactions, see settings) in every suite.
"""

from __future__ import annotations

import json
import random
import threading
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from adjudication import services as rulings
from adjudication.archive import ArchiveError, event_import
from adjudication.engine.simulator import simulate_sheet
from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.models import Deal, DealResult, Entry, Event, GameSet
from scoring.sheets import sheet_for_set
from tests.races import ON_POSTGRES, run_threads


@dataclass(frozen=True)
class Success:
    kind: str  # "record", "correct" or "rule"
    set_id: int
    deal_id: int
    read_version: int | None
    marker: int | None = None


class Outcomes:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.successes: list[Success] = []
        self.refused = 0
        self.attempts = 0
        self.failures: list[BaseException] = []

    def add(self, success: Success | None) -> None:
        with self.lock:
            self.attempts += 1
            if success is None:
                self.refused += 1
            else:
                self.successes.append(success)


def scenario(*, round1, director, make_table, tables: int, threads: int, operations: int) -> Outcomes:
    seated = [[f"T{t}A", f"T{t}B", f"T{t}C", f"T{t}D"] for t in range(tables)]
    sets = [make_table(round1, names) for names in seated]
    sheets = [
        [
            deal
            for deal in simulate_sheet(t, names, with_hands=False, dealers=False, infraction_rate=0.0)[
                "deals"
            ]
            if not deal.get("void")
        ]
        for t, names in enumerate(seated)
    ]
    entries = {entry.player.name: entry for entry in Entry.objects.select_related("player")}
    outcomes = Outcomes()

    def record(index: int, rng: random.Random) -> None:
        game_set = sets[index]
        scored = Deal.objects.filter(game_set=game_set, void=False).count()
        if scored >= len(sheets[index]):
            return correct(index, rng)
        try:
            outcome = services.deal_record(game_set=game_set, user=director, data=sheets[index][scored])
        except services.StaleEdit:
            return outcomes.add(None)
        outcomes.add(Success("record", game_set.pk, outcome.deal.pk, None))

    def correct(index: int, rng: random.Random) -> None:
        game_set = sets[index]
        deals = list(Deal.objects.filter(game_set=game_set).order_by("sequence"))
        if not deals:
            return record(index, rng)
        deal = rng.choice(deals)
        version = Deal.objects.get(pk=deal.pk).version
        data = sheet_for_set(game_set)["deals"][deal.sequence - 1]
        marker = rng.randrange(1000, 10**6)
        second = seated[index][1]
        data["results"][second] = {**data["results"].get(second, {}), "penalty": marker}
        data["results"][second].pop("total", None)
        try:
            services.deal_record(
                game_set=game_set, user=director, data=data, deal=deal, expected_version=version
            )
        except services.StaleEdit:
            return outcomes.add(None)
        outcomes.add(Success("correct", game_set.pk, deal.pk, version, marker))

    def rule(index: int, rng: random.Random) -> None:
        game_set = sets[index]
        deals = list(Deal.objects.filter(game_set=game_set, void=False).order_by("sequence"))
        if not deals:
            return record(index, rng)
        deal = rng.choice(deals)
        version = Deal.objects.get(pk=deal.pk).version
        try:
            rulings.ruling_issue(
                deal=deal,
                entry=entries[seated[index][2]],
                user=director,
                kind="other",
                points=1,
                reason="Slow play",
                expected_version=version,
            )
        except services.StaleEdit:
            return outcomes.add(None)
        outcomes.add(Success("rule", game_set.pk, deal.pk, version))

    def work(thread: int) -> None:
        rng = random.Random(thread)
        for _ in range(operations):
            action = rng.choices([record, correct, rule], weights=[3, 4, 2])[0]
            action(rng.randrange(tables), rng)

    failures = run_threads(threads, work)
    assert not failures, failures
    # Every attempt is a success or a refusal.
    assert outcomes.attempts == operations * threads == len(outcomes.successes) + outcomes.refused
    assert_nothing_lost(outcomes, sets, seated)
    return outcomes


def assert_nothing_lost(outcomes: Outcomes, sets, seated) -> None:
    by_deal: dict[int, list[Success]] = defaultdict(list)
    for success in outcomes.successes:
        by_deal[success.deal_id].append(success)
    for index, game_set in enumerate(sets):
        rows = list(
            Deal.objects.filter(game_set=game_set).order_by("sequence").values_list("sequence", "number")
        )
        # No deal duplicated: each number once, in playing order, one per successful record.
        assert rows == [(n, n) for n in range(1, len(rows) + 1)]
        recorded = [s for s in outcomes.successes if s.kind == "record" and s.set_id == game_set.pk]
        assert len(recorded) == len(rows)
        second, third = seated[index][1], seated[index][2]
        for deal in Deal.objects.filter(game_set=game_set):
            writes = [s for s in by_deal[deal.pk] if s.kind != "record"]
            # Each success read the version the previous one left: none overwrote another unseen.
            assert sorted(s.read_version for s in writes) == list(range(1, len(writes) + 1)), deal
            assert deal.version == len(writes) + 1
            corrections = sorted((s for s in writes if s.kind == "correct"), key=lambda s: s.read_version)
            if corrections:
                final = DealResult.objects.get(deal=deal, entry__player__name=second).penalty
                assert final == corrections[-1].marker
            ruled = sum(1 for s in writes if s.kind == "rule")
            result = DealResult.objects.filter(deal=deal, entry__player__name=third).first()
            assert (result.other_points if result else 0) == ruled
            assert (
                Ruling.objects.filter(deal=deal, status__in=Ruling.IN_FORCE, reason="Slow play").count()
                == ruled
            )
    counts = {
        kind: sum(1 for s in outcomes.successes if s.kind == kind) for kind in ("record", "correct", "rule")
    }
    assert AuditEntry.objects.filter(action="kalooki.deal.recorded").count() == counts["record"]
    assert AuditEntry.objects.filter(action="kalooki.deal.corrected").count() == counts["correct"]
    assert (
        AuditEntry.objects.filter(action="kalooki.ruling.issued", reason="Slow play").count()
        == counts["rule"]
    )


@pytest.mark.postgres
@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="needs PostgreSQL row locks: run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/kalooki_test_trust",
)
@pytest.mark.django_db(transaction=True)
def test_many_directors_on_shared_tables_lose_nothing_on_postgresql(round1, director, make_table):
    outcomes = scenario(
        round1=round1, director=director, make_table=make_table, tables=3, threads=12, operations=20
    )
    # The contest was real: with twelve threads on three tables some saves were refused as stale.
    assert outcomes.refused > 0


@pytest.mark.django_db(transaction=True)
def test_directors_on_shared_tables_lose_nothing_on_either_database(round1, director, make_table):
    scenario(round1=round1, director=director, make_table=make_table, tables=2, threads=4, operations=8)


@pytest.mark.django_db(transaction=True)
def test_two_imports_of_one_archive_at_once_make_one_event():
    archive = json.loads((Path(__file__).parent.parent / "data/events/example-event.json").read_text())
    results: list[str] = []

    def load(_index: int) -> None:
        try:
            event_import(data=archive, user=None)
            results.append("imported")
        except ArchiveError as exc:
            results.append(exc.messages[0])

    assert not run_threads(2, load)
    assert len(results) == 2 and results.count("imported") == 1
    (refusal,) = [result for result in results if result != "imported"]
    assert "already exists" in refusal or "nothing was written" in refusal
    assert Event.objects.count() == 1
    assert GameSet.objects.count() == 2
