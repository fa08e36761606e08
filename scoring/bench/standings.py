"""`standings`: the public standings page's server time and queries, against one raw SQL GROUP BY.

The page is fetched in-process through Django's test client (the whole middleware stack, no network),
timed with DEBUG off and its queries counted in a separate request:
cold (the cache emptied before each request), warm (served from the page cache) and as a conditional GET
answered 304 by the results stamp. The floor is the one query any standings need: each player's total
over the event's verified, scored deals. The selector alone is timed too, to tell its share from the
page's.
"""

from __future__ import annotations

import time
import warnings
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client

from scoring import selectors
from scoring.models import Deal, DealResult, Event, GameSet, Round, Table

from .context import BenchContext
from .queries import QueryCount, counted, production_like, timed
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


def _expect(response, status: int, what: str) -> None:
    if response.status_code != status:
        raise RuntimeError(f"{what}: HTTP {response.status_code}, expected {status}")


class _Page:
    """GETs of one page through the whole Django stack: timed with DEBUG off, counted apart."""

    def __init__(self, path: str, *, status: int, what: str, headers: dict[str, str] | None = None) -> None:
        self.client = _client()
        self.path, self.status, self.what, self.headers = path, status, what, headers
        self.secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))

    def get(self):
        response = self.client.get(self.path, secure=self.secure, headers=self.headers)
        _expect(response, self.status, self.what)
        return response

    def measure(self, runs: int, *, before=None) -> tuple[list[float], QueryCount, Any]:
        times = []
        # One untimed request first: compiling templates and the like happen once per process, not
        # once per cold cache.
        response = self.get()
        for _ in range(runs):
            if before:
                before()
            seconds, response = timed(self.get)
            times.append(seconds)
        if before:
            before()
        count, _ = counted(self.get)
        return times, count, response


def measure(context: BenchContext) -> dict[str, Any]:
    with production_like(), warnings.catch_warnings():
        # With DEBUG off whitenoise looks for collected static files, which the in-process pages never
        # serve; its warning about the missing folder says nothing about the page.
        warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers.base")
        return _measure(context)


def _measure(context: BenchContext) -> dict[str, Any]:
    event = Event.objects.get(pk=context.event.event.pk)
    path = context.standings_path
    runs = context.scale.standings_runs
    floors, selector_times = [], []
    totals: dict[int, int] = {}
    for _ in range(runs):
        seconds, totals = sql_totals(event)
        floors.append(seconds)
    for _ in range(runs):
        seconds, rows = timed(lambda: selectors.standings_for_event(event, with_ids=True))
        selector_times.append(seconds)
    cold, cold_count, response = _Page(path, status=200, what="cold standings page").measure(
        runs, before=cache.clear
    )
    warm, warm_count, _ = _Page(path, status=200, what="warm standings page").measure(runs)
    etag = response.headers.get("ETag")
    revalidated, revalidated_count = [], None
    if etag:
        page = _Page(path, status=304, what="conditional GET of the page", headers={"If-None-Match": etag})
        revalidated, revalidated_count, _ = page.measure(runs)
    floor = median(floors)
    page_totals = {row["entry_id"]: row["total"] for row in rows}
    return {
        "url": path,
        "players": len(rows),
        "page_bytes": len(response.content),
        "runs": runs,
        "sql_floor_median_ms": ms(floor),
        "selector_median_ms": ms(median(selector_times)),
        "cold_median_ms": ms(median(cold)),
        "cold_runs_ms": [ms(value) for value in cold],
        "cold_queries": cold_count.total,
        "cold_query_kinds": cold_count.breakdown(),
        "cold_ratio_to_sql": rounded(ratio(median(cold), floor), 2),
        "warm_median_ms": ms(median(warm)),
        "warm_queries": warm_count.total,
        "warm_ratio_to_sql": rounded(ratio(median(warm), floor), 2),
        "not_modified_median_ms": ms(median(revalidated)) if revalidated else None,
        "not_modified_queries": revalidated_count.total if revalidated_count else None,
        "etag": etag,
        # The page's totals agree with the raw SQL (the floor computes the same numbers).
        "totals_match_sql": page_totals == totals,
        "judged_on": "cold page (nothing cached)",
    }
