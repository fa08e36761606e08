"""`standings`: the public standings page's server time and queries, against one raw SQL GROUP BY.

The page is fetched in-process through Django's test client (the whole middleware stack, no network):
cold (the cache emptied before each request), warm (served from the page cache) and as a conditional GET
answered 304 by the results stamp. The floor is the one query any standings need: each player's total
over the event's verified, scored deals. The selector alone is timed too, to tell its share from the
page's.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import selectors
from scoring.models import Deal, DealResult, Event, GameSet, Round, Table

from .context import BenchContext
from .timing import median, ms, ratio, rounded


def floor_sql() -> str:
    """Each player's total over an event's verified scored deals: %s = event id, status, void flag."""
    quote = connection.ops.quote_name

    def table(model) -> str:
        return quote(model._meta.db_table)

    def column(model, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    return (
        f"SELECT r.{column(DealResult, 'entry')}, SUM(r.{column(DealResult, 'penalty')}) AS total "
        f"FROM {table(DealResult)} r "
        f"JOIN {table(Deal)} d ON d.id = r.{column(DealResult, 'deal')} "
        f"JOIN {table(GameSet)} g ON g.id = d.{column(Deal, 'game_set')} "
        f"JOIN {table(Table)} t ON t.id = g.{column(GameSet, 'table')} "
        f"JOIN {table(Round)} ro ON ro.id = t.{column(Table, 'round')} "
        f"WHERE ro.{column(Round, 'event')} = %s AND g.{column(GameSet, 'status')} = %s "
        f"AND d.{column(Deal, 'void')} = %s "
        f"GROUP BY r.{column(DealResult, 'entry')} ORDER BY total"
    )


def sql_totals(event: Event) -> tuple[float, dict[int, int]]:
    sql = floor_sql()
    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(sql, [event.pk, GameSet.Status.VERIFIED, False])
        rows = cursor.fetchall()
    return time.perf_counter() - start, {entry_id: int(total) for entry_id, total in rows}


def _client() -> Client:
    return Client(HTTP_HOST="localhost")


def _get(client: Client, path: str, headers: dict[str, str] | None = None) -> tuple[float, int, Any]:
    """(seconds, queries, response) of one GET through the whole Django stack."""
    secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(path, secure=secure, headers=headers)
        seconds = time.perf_counter() - start
    return seconds, len(queries), response


def _expect(response, status: int, what: str) -> None:
    if response.status_code != status:
        raise RuntimeError(f"{what}: HTTP {response.status_code}, expected {status}")


def measure(context: BenchContext) -> dict[str, Any]:
    event = Event.objects.get(pk=context.event.event.pk)
    path = context.standings_path
    runs = context.scale.standings_runs
    floors, selector_times = [], []
    totals: dict[int, int] = {}
    for _ in range(runs):
        seconds, totals = sql_totals(event)
        floors.append(seconds)
    for _ in range(runs):
        start = time.perf_counter()
        rows = selectors.standings_for_event(event, with_ids=True)
        selector_times.append(time.perf_counter() - start)
    client = _client()
    cold, cold_queries = [], []
    response = None
    for _ in range(runs):
        cache.clear()
        seconds, queries, response = _get(client, path)
        _expect(response, 200, "cold standings page")
        cold.append(seconds)
        cold_queries.append(queries)
    warm, warm_queries = [], []
    for _ in range(runs):
        seconds, queries, response = _get(client, path)
        _expect(response, 200, "warm standings page")
        warm.append(seconds)
        warm_queries.append(queries)
    etag = response.headers.get("ETag") if response is not None else None
    revalidated, revalidated_queries = [], []
    if etag:
        for _ in range(runs):
            seconds, queries, answer = _get(client, path, {"If-None-Match": etag})
            _expect(answer, 304, "conditional GET of the standings page")
            revalidated.append(seconds)
            revalidated_queries.append(queries)
    floor = median(floors)
    page_totals = {row["entry_id"]: row["total"] for row in rows}
    return {
        "url": path,
        "players": len(rows),
        "page_bytes": len(response.content) if response is not None else None,
        "runs": runs,
        "sql_floor_median_ms": ms(floor),
        "selector_median_ms": ms(median(selector_times)),
        "cold_median_ms": ms(median(cold)),
        "cold_queries": max(cold_queries),
        "cold_ratio_to_sql": rounded(ratio(median(cold), floor), 2),
        "warm_median_ms": ms(median(warm)),
        "warm_queries": max(warm_queries),
        "warm_ratio_to_sql": rounded(ratio(median(warm), floor), 2),
        "not_modified_median_ms": ms(median(revalidated)) if revalidated else None,
        "not_modified_queries": max(revalidated_queries) if revalidated_queries else None,
        "etag": etag,
        # The page's totals agree with the raw SQL (the floor computes the same numbers).
        "totals_match_sql": page_totals == totals,
        "judged_on": "cold page (nothing cached)",
    }
