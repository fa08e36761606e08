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
from .queries import counted, production_like, timed
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


def sql_totals(event: Event) -> dict[int, int]:
    with connection.cursor() as cursor:
        cursor.execute(floor_sql(), [event.pk, GameSet.Status.VERIFIED, False])
        return {entry_id: int(total) for entry_id, total in cursor.fetchall()}


def _client() -> Client:
    return Client(HTTP_HOST="localhost")


def _expect(response, status: int, what: str) -> None:
    if response.status_code != status:
        raise RuntimeError(f"{what}: HTTP {response.status_code}, expected {status}")


class _Page:
    """GETs of one page through the whole Django stack, checked for the expected status."""

    def __init__(self, path: str, *, status: int, what: str, headers: dict[str, str] | None = None) -> None:
        self.client = _client()
        self.path, self.status, self.what, self.headers = path, status, what, headers
        self.secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))

    def get(self):
        response = self.client.get(self.path, secure=self.secure, headers=self.headers)
        _expect(response, self.status, self.what)
        return response

    def cold(self):
        cache.clear()
        return self.get()


class _Series:
    """Wall and CPU seconds of repeated calls."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def run(self, function):
        cpu = time.process_time()
        seconds, result = timed(function)
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(seconds)
        return result

    @property
    def median_ms(self) -> float:
        return ms(median(self.wall))

    @property
    def cpu_median_ms(self) -> float:
        return ms(median(self.cpu))


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
    page = _Page(path, status=200, what="standings page")
    # One untimed request first: compiling templates and the like happen once per process, not once
    # per cold cache.
    response = page.cold()
    floor, selector, cold, warm, revalidated = _Series(), _Series(), _Series(), _Series(), _Series()
    totals: dict[int, int] = {}
    # The floor, the selector and the cold page take turns, so a busy neighbour slows all three alike.
    for _ in range(runs):
        totals = floor.run(lambda: sql_totals(event))
        rows = selector.run(lambda: selectors.standings_for_event(event, with_ids=True))
        response = cold.run(page.cold)
    cold_count, _ = counted(page.cold)
    for _ in range(runs):
        warm.run(page.get)
    warm_count, _ = counted(page.get)
    etag = response.headers.get("ETag")
    revalidated_count = None
    if etag:
        conditional = _Page(
            path, status=304, what="conditional GET of the page", headers={"If-None-Match": etag}
        )
        for _ in range(runs):
            revalidated.run(conditional.get)
        revalidated_count, _ = counted(conditional.get)
    floor_s = median(floor.wall)
    page_totals = {row["entry_id"]: row["total"] for row in rows}
    return {
        "url": path,
        "players": len(rows),
        "page_bytes": len(response.content),
        "runs": runs,
        "sql_floor_median_ms": ms(floor_s),
        "selector_median_ms": selector.median_ms,
        "cold_median_ms": cold.median_ms,
        "cold_runs_ms": [ms(value) for value in cold.wall],
        "cold_queries": cold_count.total,
        "cold_query_kinds": cold_count.breakdown(),
        "cold_ratio_to_sql": rounded(ratio(median(cold.wall), floor_s), 2),
        "warm_median_ms": warm.median_ms,
        "warm_queries": warm_count.total,
        "warm_ratio_to_sql": rounded(ratio(median(warm.wall), floor_s), 2),
        "not_modified_median_ms": revalidated.median_ms if revalidated.wall else None,
        "not_modified_queries": revalidated_count.total if revalidated_count else None,
        "etag": etag,
        # This process's CPU: the Python side (on SQLite the database's work too, and then the CPU ratio
        # is what the wall-clock ratio would be on an otherwise idle machine).
        "cpu_ms": {
            "sql_floor": floor.cpu_median_ms,
            "selector": selector.cpu_median_ms,
            "cold_page": cold.cpu_median_ms,
            "warm_page": warm.cpu_median_ms,
        },
        "cold_cpu_ratio_to_sql": rounded(ratio(median(cold.cpu), median(floor.cpu)), 2),
        # The page's totals agree with the raw SQL (the floor computes the same numbers).
        "totals_match_sql": page_totals == totals,
        "judged_on": "cold page (nothing cached)",
    }
