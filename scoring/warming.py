"""Pages made before the crowd asks (issue 24): when a round is published or closed, the background
worker makes every page the hall will open — the standings views, every player's page and their
"where do I sit", the round's seating list — so the first phone finds it ready in Redis
(`scoring.page_cache`, "the rush's pages"). A deal recorded or a set verified makes again only that
table's players' pages and the standings views. Without a shared cache (REDIS_URL) there is nowhere
every app server could read them from, and nothing is queued.

Each page is asked for through the whole middleware stack, as a phone would ask (anonymous, no
cookie): a page still good is read back from Redis at once, a stale one is made and stored. The last
warm of each event is kept in the cache (`last_warm`): how many pages and how long.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.base import BaseHandler
from django.db import transaction
from django.test import RequestFactory
from django.urls import reverse
from django_tasks import task

from .models import Entry, Event
from .page_cache import WARMING, is_shared, rush_event_known
from .selectors.tables import event_round_numbers


def _last_key(event_id: int) -> str:
    return f"kalooki:warm-last:{event_id}"


def warm_paths(event: Event, entry_ids: Iterable[int] | None = None) -> list[str]:
    """What the hall opens: the standings views, then each player's page and "where do I sit" (every
    entered player's, or those of `entry_ids`), and the newest public round's seating list."""
    slug = event.slug
    standings = reverse("scoring:standings", kwargs={"slug": slug})
    paths = [reverse("scoring:event", kwargs={"slug": slug}), standings, f"{standings}?provisional=1"]
    everyone = entry_ids is None
    ids = (
        Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
        if everyone
        else entry_ids
    )
    prefix = reverse("scoring:player", kwargs={"slug": slug, "entry_id": 0})[:-2]
    for entry_id in ids:
        paths += [f"{prefix}{entry_id}/", f"{prefix}{entry_id}/seat/"]
    numbers = event_round_numbers(event)
    if everyone and numbers:
        paths.append(reverse("scoring:seating", kwargs={"slug": slug, "number": numbers[-1]}))
    return paths


def _host() -> str:
    """A host name the site answers to (ALLOWED_HOSTS): the pages kept do not depend on it."""
    for host in settings.ALLOWED_HOSTS:
        if host and host != "*":
            return host.lstrip(".")
    return "localhost"


def warm(
    event_id: int,
    entry_ids: Iterable[int] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Ask for every page of `warm_paths` through the middleware stack; returns (and keeps, as the
    event's last warm) how many pages, how many were made afresh and how long it took."""
    started = time.perf_counter()
    entry_ids = None if entry_ids is None else list(entry_ids)
    event = Event.objects.get(pk=event_id)
    paths = warm_paths(event, entry_ids)
    rush_event_known(event)
    handler = BaseHandler()
    handler.load_middleware()
    factory = RequestFactory(HTTP_HOST=_host())
    failed = 0
    for done, path in enumerate(paths, start=1):
        request = factory.get(path, **{WARMING: True})
        if handler.get_response(request).status_code != 200:
            failed += 1
        if progress and done % 64 == 0:
            progress(done, len(paths))
    outcome = {
        "event": event_id,
        "pages": len(paths),
        "players": None if entry_ids is None else len(list(entry_ids)),
        "failed": failed,
        "seconds": round(time.perf_counter() - started, 3),
        "finished": time.time(),
    }
    if entry_ids is None:
        cache.set(_last_key(event_id), outcome, None)
    return outcome


def last_warm(event_id: int) -> dict[str, Any] | None:
    """The event's last whole warm (publishing or closing a round), or None."""
    return cache.get(_last_key(event_id))


@task()
def warm_pages(event_id: int, entry_ids: list[int] | None = None) -> None:
    """The worker's side of `queue_warm`."""
    warm(event_id, entry_ids)


def queue_warm(event_id: int, entry_ids: Iterable[int] | None = None) -> None:
    """Have the worker make the event's pages (or these players' and the standings views) once the
    current transaction commits; nothing without a shared cache."""
    if not is_shared():
        return
    ids = None if entry_ids is None else sorted(entry_ids)
    transaction.on_commit(lambda: warm_pages.enqueue(event_id, ids))
