"""Pages made before the crowd asks (issue 24): when a round is published or closed, the background
worker makes every page the hall will open — the standings views, every player's page and their
"where do I sit", the round's seating list — so the first phone finds it ready in Redis
(`scoring.page_cache`, "the rush's pages"). A deal recorded or a set verified makes again only that
table's players' pages and the standings views, two seconds later, with those of every save meanwhile
(a busy desk costs the worker a warm every two seconds, not one a save). Without a shared cache
(REDIS_URL) there is nowhere every app server could read them from, and nothing is queued.

Each page is asked for through the whole middleware stack, as a phone would ask (anonymous, no
cookie), but for the player pages the cache already holds as a phone would be served them (read from
their small marks, `rush_pages_ready`: after publishing, those made ahead of it): a page still good is
read back from Redis at once, a stale one is made and stored. The last warm of each event is kept in
the cache (`last_warm`): how many pages, how many were asked for and how long.

Seating a round (or changing the seating of one not yet published) has the worker make the same pages
ahead, as they will read once the round is published (`warm_ahead`), while the director reviews it:
`scoring.page_cache` serves them the moment publishing commits, if nothing else changed meanwhile, so
the hall's first requests after publishing find them ready. The round's console says when they are.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.base import BaseHandler
from django.db import transaction
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from kalooki_tournament.shared_cache import CacheUnavailable

from .models import Entry, Event, Round
from .page_cache import AHEAD, RUSH_PATH, WARMING, is_shared, rush_pages_ready
from .selectors.publication import as_published
from .selectors.tables import event_round_numbers


def _last_key(event_id: int) -> str:
    return f"kalooki:warm-last:{event_id}"


def _ahead_key(round_id: int) -> str:
    return f"kalooki:warm-ahead:{round_id}"


def _wanted_key(round_id: int) -> str:
    return f"kalooki:warm-ahead-wanted:{round_id}"


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
    asked, failed = _ask_for(paths, {WARMING: True}, progress)
    outcome = {
        "event": event_id,
        "pages": len(paths),
        "asked": asked,
        "players": None if entry_ids is None else len(list(entry_ids)),
        "failed": failed,
        "seconds": round(time.perf_counter() - started, 3),
        "finished": time.time(),
    }
    if entry_ids is None:
        cache.set(_last_key(event_id), outcome, None)
    return outcome


def _ask_for(
    paths: list[str], meta: dict[str, Any], progress: Callable[[int, int], None] | None
) -> tuple[int, int]:
    """Ask for each page through the middleware stack, as an anonymous phone would, but for those
    already stored as a reader would be served them (`rush_pages_ready`: after a warm ahead of
    publishing, every player's); (how many were asked for, how many of those failed)."""
    handler = BaseHandler()
    handler.load_middleware()
    factory = RequestFactory(HTTP_HOST=_host())
    ready = rush_pages_ready(paths, ahead_of=meta.get(AHEAD))
    failed = 0
    for done, path in enumerate(paths, start=1):
        if path not in ready and handler.get_response(factory.get(path, **meta)).status_code != 200:
            failed += 1
        if progress and done % 64 == 0:
            progress(done, len(paths))
    return len(paths) - len(ready), failed


def warm_ahead(round_id: int, *, progress: Callable[[int, int], None] | None = None) -> dict[str, Any] | None:
    """Make the rush's pages of `warm_paths` (each player's page and "where do I sit", the seating list)
    as they will read once the seated round `round_id` is published, kept apart until then
    (`scoring.page_cache`); returns (and keeps, as the round's warm ahead) how many pages and how
    long. None, doing nothing, when the round is published or not seated."""
    started = time.perf_counter()
    rnd = Round.objects.select_related("event").filter(pk=round_id, published_at__isnull=True).first()
    if rnd is None or not rnd.tables.exists():
        return None
    with as_published(rnd.pk):
        # The rush's pages alone: the standings views are kept by the results generation, which the
        # publishing moves on whatever was made before it.
        paths = [path for path in warm_paths(rnd.event) if RUSH_PATH.match(path)]
        asked, failed = _ask_for(paths, {WARMING: True, AHEAD: rnd.pk}, progress)
    outcome = {
        "round": rnd.pk,
        "pages": len(paths),
        "asked": asked,
        "failed": failed,
        "seconds": round(time.perf_counter() - started, 3),
        "finished": time.time(),
    }
    cache.set(_ahead_key(rnd.pk), outcome, None)
    return outcome


def last_warm_ahead(round_id: int) -> dict[str, Any] | None:
    """The round's last warm ahead of its publishing (pages, seconds, when it finished), or None."""
    return cache.get(_ahead_key(round_id))


def last_warm(event_id: int) -> dict[str, Any] | None:
    """The event's last whole warm (publishing or closing a round), or None."""
    return cache.get(_last_key(event_id))


def _pending_key(event_id: int) -> str:
    return f"kalooki:warm-pending:{event_id}"


def _due_key(event_id: int) -> str:
    return f"kalooki:warm-due:{event_id}"


# Below a director's jobs (a pack to print, an import): the worker takes those first when both wait.
WARM_PRIORITY = -10
# A players' warm is made this long after the save that asked for it, with every save's players asked
# for meanwhile: a desk entering sheets deal by deal costs the worker one warm of the standings views
# and the tables' pages in this time, not one a save. A phone asking sooner is sent the page made
# afresh, never the old one.
WARM_AFTER_SAVE_SECONDS = 2.0
# A players' warm counts as due for at most this long (should its task be lost, the next save asks again).
DUE_SECONDS = 60


@task(priority=WARM_PRIORITY)
def warm_pages(event_id: int, entry_ids: list[int] | None = None) -> None:
    """The worker's side of `queue_warm`. A players' warm makes the pages of every player whose warm is
    still waiting (`entry_ids` among them), so a desk saving fast costs the worker one warm, not one a
    save; a warm queued beside it finds nothing left and ends at once."""
    if entry_ids is not None:
        try:
            # A save from now on has the next warm queued: this one may already have read its players.
            cache.delete(_due_key(event_id))
            entry_ids = sorted(cache.get(_pending_key(event_id)) or [])
            cache.delete(_pending_key(event_id))
        except CacheUnavailable:
            return  # nowhere to keep the pages either
        if not entry_ids:
            return
    warm(event_id, entry_ids)


@task(priority=WARM_PRIORITY)
def warm_pages_ahead(round_id: int, wanted: int) -> None:
    """The worker's side of `queue_warm_ahead`: a warm asked for before the last one is left to it."""
    try:
        last_asked = cache.get(_wanted_key(round_id))
    except CacheUnavailable:
        return  # nowhere to keep the pages
    if last_asked == wanted:
        warm_ahead(round_id)


def queue_warm_ahead(round_id: int) -> None:
    """Have the worker make the round's pages ahead of its publishing once the current transaction
    commits (again after each change to its seating); nothing without a shared cache."""
    if not is_shared():
        return

    def enqueue() -> None:
        wanted = time.time_ns()
        try:
            cache.set(_wanted_key(round_id), wanted, None)
            cache.delete(_ahead_key(round_id))
        except CacheUnavailable:
            return  # nothing could be kept where the servers read it
        warm_pages_ahead.enqueue(round_id, wanted)

    transaction.on_commit(enqueue)


def queue_warm(event_id: int, entry_ids: Iterable[int] | None = None) -> None:
    """Have the worker make the event's pages once the current transaction commits, or these players'
    and the standings views `WARM_AFTER_SAVE_SECONDS` later with those of every save meanwhile (one
    warm queued for them all); nothing without a shared cache."""
    if not is_shared():
        return
    ids = None if entry_ids is None else sorted(entry_ids)

    def enqueue() -> None:
        if ids is None:
            warm_pages.enqueue(event_id, None)
            return
        try:
            waiting = set(cache.get(_pending_key(event_id)) or ())
            cache.set(_pending_key(event_id), sorted(waiting | set(ids)), None)
            first = cache.add(_due_key(event_id), True, DUE_SECONDS)
        except CacheUnavailable:
            return
        if first:
            due = timezone.now() + timedelta(seconds=WARM_AFTER_SAVE_SECONDS)
            warm_pages.using(run_after=due).enqueue(event_id, ids)

    transaction.on_commit(enqueue)
