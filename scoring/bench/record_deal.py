"""`record_deal`: time and queries to record and validate one deal through `scoring.services.deal_record`.

Each run takes a set of the last round back to the moment before its ninth deal (set in play, last deal
removed: untimed), then records that deal — with every player's hand, as the simulated sheet has it —
through the service exactly as the director's page does (in autocommit, the service's own transaction;
DEBUG off), then once more with its queries counted, and finally marks the set verified again, so the
event is whole for the measurements after this one.
The service validates the whole nine-deal set, so this is the dearest deal of a set to record.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring import services
from scoring.models import Deal, GameSet

from .context import BenchContext
from .queries import QueryCount, counted, production_like, timed
from .timing import median, ms

DIRECTOR = "bench-director"


def _director(event):
    user, _ = get_user_model().objects.get_or_create(username=DIRECTOR)
    event.directors.add(user)
    return user


def _reopen_before_last_deal(game_set: GameSet) -> None:
    """Put the set back to just before its last deal: in play, that deal (and its results) gone."""
    last = Deal.objects.filter(game_set=game_set).order_by("-sequence").first()
    if last is None:
        raise RuntimeError(f"set {game_set.pk} has no deals")
    GameSet.objects.filter(pk=game_set.pk).update(status=GameSet.Status.IN_PLAY, verified_at=None)
    last.delete()


def _verify_again(game_set: GameSet) -> None:
    GameSet.objects.filter(pk=game_set.pk).update(status=GameSet.Status.VERIFIED, verified_at=timezone.now())


def measure(context: BenchContext) -> dict[str, Any]:
    with production_like():
        return _measure(context)


def _measure(context: BenchContext) -> dict[str, Any]:
    built = context.event
    director = _director(built.event)
    sets = list(GameSet.objects.filter(table__round=built.rounds[-1]).order_by("-table__number"))
    times: list[float] = []
    cpu_times: list[float] = []
    counts: list[QueryCount] = []
    findings: list[int] = []
    for run in range(context.scale.record_deal_runs):
        game_set = sets[run % len(sets)]
        data = built.sheets[game_set.pk]["deals"][-1]

        def record(game_set=game_set, data=data):
            return services.deal_record(game_set=game_set, user=director, data=data)

        # The same deal twice: once timed (DEBUG off), once with its queries counted.
        _reopen_before_last_deal(game_set)
        cpu = time.process_time()
        seconds, outcome = timed(record)
        cpu_times.append(time.process_time() - cpu)
        times.append(seconds)
        findings.append(len(outcome.findings))
        _reopen_before_last_deal(game_set)
        count, _ = counted(record)
        counts.append(count)
        _verify_again(game_set)
    most = max(counts, key=lambda count: count.total)
    return {
        "runs": len(times),
        "deal": "the ninth deal of a set, with every hand (the whole set is validated)",
        "median_ms": ms(median(times)),
        "min_ms": ms(min(times)),
        "max_ms": ms(max(times)),
        "runs_ms": [ms(value) for value in times],
        # This process's CPU: the Python side (and, on SQLite, the database's work too).
        "cpu_median_ms": ms(median(cpu_times)),
        # The dearest deal counts: one carrying an infraction mark also issues its rulings.
        "queries": most.total,
        "queries_median": median([count.total for count in counts]),
        "queries_without_transaction_control": most.without_transaction_control,
        "query_kinds": most.breakdown(),
        "queries_each_run": [count.total for count in counts],
        # The simulated deals are valid: a finding here means the service and the sheet disagree.
        "findings": max(findings),
    }
