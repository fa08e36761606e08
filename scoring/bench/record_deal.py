"""`record_deal`: time and queries to record and validate one deal through `scoring.services.deal_record`.

Each run takes a set of the last round back to the moment before its ninth deal (set in play, last deal
removed: untimed), then records that deal — with every player's hand, as the simulated sheet has it —
through the service exactly as the director's page does (in autocommit, the service's own transaction),
and finally marks the set verified again, so the event is whole for the measurements after this one.
The service validates the whole nine-deal set, so this is the dearest deal of a set to record.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import services
from scoring.models import Deal, GameSet

from .context import BenchContext
from .timing import median, ms

DIRECTOR = "bench-director"


def _director(event):
    user, _ = get_user_model().objects.get_or_create(username=DIRECTOR)
    event.directors.add(user)
    return user


def _reopen_before_last_deal(game_set: GameSet) -> dict[str, Any]:
    """Put the set back to just before its last deal; return that deal as sheet data."""
    last = Deal.objects.filter(game_set=game_set).order_by("-sequence").first()
    if last is None:
        raise RuntimeError(f"set {game_set.pk} has no deals")
    GameSet.objects.filter(pk=game_set.pk).update(status=GameSet.Status.IN_PLAY, verified_at=None)
    last.delete()
    return last


def measure(context: BenchContext) -> dict[str, Any]:
    built = context.event
    event = built.event
    director = _director(event)
    last_round = built.rounds[-1]
    sets = list(GameSet.objects.filter(table__round=last_round).order_by("-table__number"))
    times: list[float] = []
    queries: list[int] = []
    findings: list[int] = []
    for run in range(context.scale.record_deal_runs):
        game_set = sets[run % len(sets)]
        data = built.sheets[game_set.pk]["deals"][-1]
        _reopen_before_last_deal(game_set)
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            outcome = services.deal_record(game_set=game_set, user=director, data=data)
            times.append(time.perf_counter() - start)
        queries.append(len(captured))
        findings.append(len(outcome.findings))
        GameSet.objects.filter(pk=game_set.pk).update(
            status=GameSet.Status.VERIFIED, verified_at=timezone.now()
        )
    return {
        "runs": len(times),
        "deal": "the ninth deal of a set, with every hand (the whole set is validated)",
        "median_ms": ms(median(times)),
        "min_ms": ms(min(times)),
        "max_ms": ms(max(times)),
        "runs_ms": [ms(value) for value in times],
        "queries": max(queries),
        "queries_each_run": queries,
        # The simulated deals are valid: a finding here means the service and the sheet disagree.
        "findings": max(findings),
    }
