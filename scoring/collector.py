"""Pausing Python's cyclic garbage collector around work that makes a great many short-lived objects."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for one piece of work (a PDF layout, a rating list).

    WeasyPrint makes hundreds of thousands of short-lived objects a document, a rating list a few for
    every counted set; the collector scanning them again and again cost 15–20 % of a round pack and a
    third of rating 20,000 sets here. Reference counting still frees almost all of them at once; the
    few cycles wait for the next collection afterwards.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
