"""Races for the concurrency tests: threads that start together, each on its own database connection.

On PostgreSQL they really interleave (row locks, unique indexes); on SQLite the immediate transactions
take turns, so the same scenario checks the sequence the services must produce either way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection

ON_POSTGRES = connection.vendor == "postgresql"


def run_threads(count: int, target: Callable[[int], object]) -> list[BaseException]:
    """Run `target(index)` in `count` threads released at once; the exceptions they raised."""
    failures: list[BaseException] = []
    barrier = threading.Barrier(count)

    def wrapped(index: int) -> None:
        try:
            barrier.wait()
            target(index)
        except BaseException as exc:  # collected and reported: a thread must not fail silently
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=wrapped, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a thread is still running"
    return failures
