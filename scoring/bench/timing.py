"""Clocks, medians and percentiles for the benchmark, and its progress lines on stderr."""

from __future__ import annotations

import gc
import math
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of `values`; wrk reports the same kind."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def ratio(value: float, floor: float) -> float | None:
    return value / floor if floor > 0 else None


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def rounded(value: float | None, places: int = 4) -> float | None:
    return None if value is None else round(value, places)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Time pure-Python work like `timeit` does: a collection pause depends on the whole process's heap
    (here the benchmark's own data), not on the work being timed."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Progress:
    """Timestamped progress lines (stderr by default), so a 15-minute run shows where it is."""

    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def __call__(self, message: str) -> None:
        if not self.quiet:
            self.stream.write(f"[bench {self.elapsed:7.1f}s] {message}\n")
            self.stream.flush()
