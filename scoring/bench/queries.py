"""Counting a call's queries, and timing it as production runs it (DEBUG off: no query log).

Timings and query counts come from separate calls: capturing queries turns on Django's debug cursor,
which costs time of its own. Counts include transaction control (BEGIN, SAVEPOINT, COMMIT), as
`assertNumQueries` does; the count without it is given too.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


@dataclass(frozen=True)
class QueryCount:
    statements: tuple[str, ...]

    @property
    def total(self) -> int:
        return len(self.statements)

    @property
    def without_transaction_control(self) -> int:
        return sum(1 for sql in self.statements if not sql.lstrip().upper().startswith(TRANSACTION_CONTROL))

    def breakdown(self) -> dict[str, int]:
        """Statements by their first word (SELECT, INSERT, …; BEGIN/SAVEPOINT/COMMIT as "transaction")."""
        kinds: Counter[str] = Counter()
        for sql in self.statements:
            word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
            kinds["transaction" if sql.lstrip().upper().startswith(TRANSACTION_CONTROL) else word] += 1
        return dict(kinds.most_common())


def counted(function: Callable[[], Any]) -> tuple[QueryCount, Any]:
    # Django keeps the last 9,000 statements: once that log is full its length no longer grows, and
    # a capture started then would count none (the ratings after the other sections read 0).
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        result = function()
    return QueryCount(tuple(query["sql"] for query in captured.captured_queries)), result


@contextmanager
def production_like() -> Iterator[None]:
    """DEBUG off, as the venue's server runs: enter it once around a whole measurement (changing DEBUG
    resets Django's template engines, so a switch per call would time template compiling)."""
    with override_settings(DEBUG=False):
        yield


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result
