"""Which rounds the public sees: the seated rounds a director has published (issue 24). A round seated
but not published is its directors' alone: every public page, the player's own page and "where do I
sit" read rounds through `public_rounds`, the one place that says so.

`as_published(round_id)` is for the pages made ahead of publishing (`scoring.warming`): inside it, in
this thread alone, that one round counts as published too, so the hall's pages can be made while the
director reviews the seating and served the moment it is published (`scoring.page_cache`). Nothing
made inside it reaches a reader before then.

>>> str(public_rounds("round__"))
"(AND: ('round__published_at__isnull', False))"
>>> with as_published(7):
...     str(public_rounds())
"(OR: ('published_at__isnull', False), ('pk', 7))"
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db.models import Q

_previewed: ContextVar[int | None] = ContextVar("kalooki_round_as_published", default=None)


def public_rounds(prefix: str = "") -> Q:
    """A filter for the rounds the public sees, on a query of rounds (`prefix` "") or through a
    relation to one (`prefix` "round__", "table__round__" …)."""
    published = Q(**{f"{prefix}published_at__isnull": False})
    previewed = _previewed.get()
    return published if previewed is None else published | Q(**{f"{prefix}pk": previewed})


def previewing() -> bool:
    """Whether a round counts as published here that is not (`as_published`): what is made here is for
    the pages made ahead alone, never for a cache another reader reads."""
    return _previewed.get() is not None


def preview_key() -> str:
    """A part for the key of anything kept that reads rounds: apart from every reader's while a round
    counts as published here that is not ("" otherwise)."""
    previewed = _previewed.get()
    return "" if previewed is None else f":as-published-{previewed}"


@contextmanager
def as_published(round_id: int) -> Iterator[None]:
    """Within this block (this thread), the round `round_id` counts as published."""
    token = _previewed.set(round_id)
    try:
        yield
    finally:
        _previewed.reset(token)
