"""Cached public pages served before anything else runs, from the cache every app server shares.

When a round ends every phone in the hall reloads the standings at once. With Redis as the shared cache
(REDIS_URL), `SharedPageCacheMiddleware` sits first in the middleware stack and answers an anonymous
reader's GET from one Redis round trip — the page and the results generation fetched together — without
sessions, authentication or the database. A page is stored on its way out, with every header the stack
gave it (security headers, ETag, Cache-Control), when its view marked it as the same for everyone
(`mark_shared`, done by `scoring.web.responses.public_results_page`).

The results generation is one number for the whole site: it moves on whenever any event's results stamp
or version does (`results_changed`, hooked to Event in `scoring.models`), and a stored page counts only
for the generation that was current before its view read the database. So a page can never outlive the
change that made it stale, on any worker of any app server. It moves on at the change and again once the
transaction commits: a reader between the two may store what it read before the commit, and the second
move retires it.

Losing the cache costs speed, never service (`kalooki_tournament.shared_cache`): with Redis down a read
finds nothing and a write is dropped, so every page is made afresh and nothing is stored, and a save
commits without moving the generation on. The generation moves on when Redis answers again (every
process that saw it down does so, `on_recovery`, and the saving process owes the move, trying it every
`shared_cache.RETRY_SECONDS`), so no page stored before the save outlives it by more than those few
seconds: until then a worker that never saw Redis down may still send one. The pages each view caches by
the event's results stamp (`scoring.web.responses`) need no such catching up: that stamp is written in
the save's own transaction. `cache_health()` says how the cache is.

Without a shared cache the middleware is left out (each gunicorn worker's own memory could not hear
another worker's change) and pages are cached by their views against the event's stamp, as before.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import re
import threading
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction
from django.http import HttpResponse, parse_cookie
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import parse_etags, parse_http_date_safe

from kalooki_tournament import shared_cache

from .models import Event

GENERATION_KEY = "kalooki:results-generation"
# Bounds a stored page's life should anything it shows change without moving the generation on.
PAGE_SECONDS = 120
SHARED = "kalooki_shared_page"
EXPIRES = "kalooki_expires_at"
# Headers the stack sets per request (or the replay sets for the body it sends), never replayed as stored.
NOT_STORED = {"set-cookie", "date", "content-length"}
# A stored page is kept twice: as made, and (under `_encoded(key, True)`) compressed from this size for
# the readers that accept gzip — every phone's browser, whose pages the hall's Wi-Fi, Redis and the
# app servers then carry in a seventh of the bytes (a 2,048 players' seating list is 600 kB as made,
# 42 kB compressed; a player's page 12 kB, 3 kB). Each reader reads the one it takes, nothing else.
COMPRESS_FROM = 1024
ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def finals_passed(final_times, now: datetime | None = None) -> tuple[int, datetime | None]:
    """(how many of an event's moments of rounds becoming final have passed, the next one): its pages
    change at each (their ETag counts them), and a stored copy expires at the next (issue 21)."""
    now = now or timezone.now()
    moments = sorted(datetime.fromisoformat(value) for value in final_times or ())
    return sum(1 for moment in moments if moment <= now), next((m for m in moments if m > now), None)


def public_etag(event) -> str:
    """The ETag of an event's public pages: its results stamp and version, and how many of its rounds
    have become final (the pages' words change then without a save)."""
    return f'{event.page_etag[:-1]}-{finals_passed(event.final_times)[0]}"'


def expire_at(response: HttpResponse, moment: datetime | None) -> HttpResponse:
    """A stored copy of this response is not served from `moment` on (a round becomes final then)."""
    if moment is not None:
        setattr(response, EXPIRES, moment.timestamp())
    return response


def _seconds_left(response: HttpResponse, longest: int) -> int:
    expires = getattr(response, EXPIRES, None)
    if expires is None:
        return longest
    return max(0, min(longest, math.ceil(expires - time.time())))


def mark_shared(response: HttpResponse) -> HttpResponse:
    """Let the middleware store this response for every anonymous reader of its address (kept as made
    and compressed, each sent to the readers that take it: the response varies by Accept-Encoding)."""
    setattr(response, SHARED, True)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _bump(keys: list[str]) -> bool:
    """Move these stamps on; False when the cache did not answer."""
    for key in keys:
        try:
            cache.incr(key)
        except ValueError:
            # Missing (evicted, or the cache was emptied): any fresh number retires every page under it.
            cache.set(key, time.time_ns(), None)
        except shared_cache.CacheUnavailable:
            # The save goes on; the stamps move on when the cache answers again (below).
            _owe_a_move()
            return False
    return True


def _move_on() -> bool:
    """Move the generation on; False when the cache did not answer."""
    return _bump([GENERATION_KEY])


_owed = threading.Event()
_cancelled = threading.Event()
_owed_lock = threading.Lock()
_catching_up: threading.Thread | None = None


def _owe_a_move() -> None:
    """Move the generation on as soon as the cache answers, even if this process serves nothing more
    meanwhile: a thread tries every `shared_cache.RETRY_SECONDS` until it does."""
    global _catching_up
    _owed.set()
    with _owed_lock:
        if _catching_up is not None and _catching_up.is_alive():
            return
        _catching_up = threading.Thread(target=_catch_up, name="results-generation", daemon=True)
        _catching_up.start()


def _catch_up() -> None:
    while _owed.is_set() and not _cancelled.is_set():
        # Waits as a sleep would, but ends at once when the owed move is dropped.
        if _cancelled.wait(max(shared_cache.RETRY_SECONDS, 0.1)):
            return
        _owed.clear()
        # On failure _bump owes the move again, and this thread goes on trying.
        _after_an_outage()


def forget_owed_moves() -> None:
    """Drop a move still owed, and wait for the thread trying it (tests: one test's dead cache is not
    the next test's)."""
    _cancelled.set()
    _owed.clear()
    with _owed_lock:
        thread = _catching_up
    if thread is not None:
        thread.join(timeout=30)
    _owed.clear()
    _cancelled.clear()


# --- the rush's pages: kept across other tables' saves ----------------------------------------------
#
# When a round goes up every phone opens its player's page and "where do I sit" at once (issue 24).
# Those pages are kept in Redis under stamps of their own instead of the site-wide generation, so a
# deal recorded at one table retires only that table's players' pages: a player page is good while
# the warm epoch, its event's stamp and its player's stamp are what they were when it was made. Any
# change of the event's public pages (seating, publishing, a round closing, a closed round's set
# corrected, entries, settings) moves the event's stamp (`pages_moved`, through `touch_results`); a
# set of an open round moves its players' stamps — those of their pages, and those of their "where do
# I sit" only when the change may show there (a sheet imported: its first dealer, its substitutes), not
# with each deal or verification. Like the generation, a stamp moves at the change and
# again at commit; the epoch moves when the cache comes back after it did not answer (a move may have
# been lost meanwhile). `scoring.warming` makes the pages before the crowd asks.
#
# Pages made ahead of publishing: while a seated round waits for its director to publish it, the worker
# makes its pages as they will read once it is published (`scoring.selectors.publication`) and keeps
# them in a slot of their own, under the stamps publishing will leave: the event's stamp moved on by
# publishing's own two moves (at the change and at commit), and the event's publication mark saying
# this round was published at that stamp — set by `round_published` alone, once publishing commits.
# Only when nothing but the publishing happened since they were made do those stamps come about, and
# only then are they served; any other change (a seat moved, a late correction) leaves the stamp
# elsewhere and the pages are made afresh, as without them.

RUSH_PATH = re.compile(r"^/e/(?P<slug>[-\w]+)/(?:p/(?P<entry>\d+)/(?P<seat>seat/)?|r/\d+/seating/)$")
EPOCH_KEY = "kalooki:rush-epoch"
RENDERS_KEY = "kalooki:rush-renders"
RUSH_PAGE_SECONDS = 12 * 3600
# Set on a request the warming makes (not an HTTP header: no client can send it).
WARMING = "kalooki.warming"
# Set, with the round's id, on a request for a page made ahead of its round's publishing.
AHEAD = "kalooki.warming.ahead"
# How many addresses `rush_pages_ready` asks about in one read of the cache.
READY_BATCH = 512
# How far publishing moves its event's stamp: `pages_moved` moves it at the change and at commit.
PUBLISHING_MOVES = 2


def _after_an_outage() -> None:
    """A change made while the cache was down retires the pages stored before it once the cache is
    back: every generation page, and every rush page (the epoch)."""
    _bump([GENERATION_KEY, EPOCH_KEY])


shared_cache.on_recovery(_after_an_outage)


def is_shared() -> bool:
    """Whether pages are kept in a cache every app server shares (Redis)."""
    return isinstance(caches["default"], shared_cache.GuardedRedisCache)


def _event_key(slug: str) -> str:
    return f"kalooki:rush-event:{slug}"


def _entry_key(entry_id: int | str) -> str:
    return f"kalooki:rush-entry:{entry_id}"


def _seat_key(entry_id: int | str) -> str:
    return f"kalooki:rush-seat:{entry_id}"


def _published_key(slug: str) -> str:
    return f"kalooki:rush-published:{slug}"


def _stamp_keys(match: re.Match) -> list[str]:
    """The epoch, the event's stamp, its publication mark and, on a player's page or "where do I sit",
    the player's stamp of that page (`match`: of `RUSH_PATH`): the event's by its address, so a page
    and its stamps are read from Redis together."""
    keys = [EPOCH_KEY, _event_key(match["slug"]), _published_key(match["slug"])]
    if not match["entry"]:
        return keys
    return [*keys, (_seat_key if match["seat"] else _entry_key)(match["entry"])]


def _ahead_stamps(stamps: tuple, round_id: int) -> tuple:
    """The stamps a page made ahead of publishing `round_id` is good for: those of now, the event's
    moved on by publishing and its publication mark naming the round at that stamp."""
    epoch, event_stamp, _, *entry = stamps
    published = event_stamp + PUBLISHING_MOVES
    return (epoch, published, f"{round_id}:{published}", *entry)


def round_published(slug: str, round_id: int) -> None:
    """Publishing `round_id` of the event at `slug` has committed (and moved the event's stamp): mark the
    event's stamp as the one the round was published at, so the pages made ahead of it are served if
    nothing else moved it."""
    if not is_shared():
        return
    try:
        stamp = cache.get(_event_key(slug))
        if stamp is not None:
            cache.set(_published_key(slug), f"{round_id}:{stamp}", None)
    except shared_cache.CacheUnavailable:
        pass  # the pages are made afresh, as without the ones made ahead


def pages_moved(event_id: int, entry_ids=None, *, seats: bool = False) -> None:
    """The rush pages of an event (`entry_ids` None), or these players' pages (and their "where do I
    sit" too when `seats`), are out of date: now, and again when the current transaction commits."""
    if not is_shared():
        return
    if entry_ids is None:
        slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
        keys = [_event_key(slug)] if slug else []
    else:
        keys = [
            key(entry) for entry in entry_ids for key in ((_entry_key, _seat_key) if seats else (_entry_key,))
        ]
    _bump(keys)
    transaction.on_commit(lambda: _bump(keys))


def _rush_page_key(path: str) -> str:
    return f"kalooki:rush-page:{path}"


def _ahead_page_key(path: str) -> str:
    return f"kalooki:rush-ahead:{path}"


def _mark_key(page_key: str) -> str:
    """Where what the page under `page_key` is good for is kept alone (small, read by the warm)."""
    return f"{page_key}:mark"


def rush_pages_ready(paths: list[str], *, ahead_of: int | None = None) -> set[str]:
    """Those of `paths` a reader would be served as they are stored now (or, `ahead_of` a round, those
    made ahead of its publishing under the stamps it will leave): the warm need not ask for them. Read
    from the pages' marks and stamps, a few hundred addresses a round trip, never the pages."""
    ready: set[str] = set()
    rush = [(path, match) for path in paths if (match := RUSH_PATH.match(path))]
    for start in range(0, len(rush), READY_BATCH):
        batch = rush[start : start + READY_BATCH]
        stamp_keys = {path: _stamp_keys(match) for path, match in batch}
        marks = {path: [_mark_key(_ahead_page_key(path))] for path, _ in batch}
        if ahead_of is None:
            for path, _ in batch:
                marks[path].append(_mark_key(_rush_page_key(path)))
        wanted = {key for keys in (*stamp_keys.values(), *marks.values()) for key in keys}
        try:
            found = cache.get_many(sorted(wanted))
        except shared_cache.CacheUnavailable:
            return set()
        for path, keys in stamp_keys.items():
            if not all(key in found for key in keys):
                continue
            stamps = tuple(found[key] for key in keys)
            if ahead_of is not None:
                stamps = _ahead_stamps(stamps, ahead_of)
            if any(_still_good(mark) and mark["stamps"] == stamps for mark in map(found.get, marks[path])):
                ready.add(path)
    return ready


def _stamps(keys: list[str]) -> tuple | None:
    found = cache.get_many(keys)
    if len(found) < len(keys):
        for key in keys:
            if key not in found:
                cache.add(key, time.time_ns(), None)
        found = cache.get_many(keys)
    return tuple(found[key] for key in keys) if len(found) == len(keys) else None


def rush_renders() -> int:
    """How many rush pages were made from the database for a reader (the warming's own aside)."""
    return cache.get(RENDERS_KEY) or 0


def _count_render(request) -> None:
    if request.META.get(WARMING):
        return
    try:
        cache.incr(RENDERS_KEY)
    except ValueError:
        cache.add(RENDERS_KEY, 0, None)
        cache.incr(RENDERS_KEY)
    except shared_cache.CacheUnavailable:
        pass


def _kept_rush_page(
    path: str,
    match: re.Match,
    ahead_of: int | None = None,
    *,
    gzip_accepted: bool = False,
    start_stamps: bool = True,
) -> tuple[dict[str, Any] | None, tuple | None]:
    """(The page kept for `path` that a reader is to be served — stored under its stamps, or made
    ahead of publishing under the stamps publishing left — or None; the stamps a page made now is to
    be kept under, or None if it is not to be kept.) `ahead_of` a round: the page made ahead of its
    publishing alone. A stamp not set yet is started when `start_stamps`. One read of Redis: the
    page, the one made ahead (each as the reader takes it) and the stamps together."""
    page_key = _encoded(_rush_page_key(path), gzip_accepted)
    ahead_key = _encoded(_ahead_page_key(path), gzip_accepted)
    stamp_keys = _stamp_keys(match)
    recoveries = shared_cache.recoveries()
    found = cache.get_many([page_key, ahead_key, *stamp_keys])
    stamps = tuple(found[key] for key in stamp_keys) if all(key in found for key in stamp_keys) else None
    if stamps is None and start_stamps:
        # A stamp not set yet (or evicted): started now, so the page made next is kept under it.
        stamps = _stamps(stamp_keys)
    if stamps is None or shared_cache.recoveries() != recoveries:
        return None, None
    if ahead_of is not None:
        stamps = _ahead_stamps(stamps, ahead_of)
        candidates = [found.get(ahead_key)]
    else:
        candidates = [found.get(page_key), found.get(ahead_key)]
    kept = next((page for page in candidates if _still_good(page) and page["stamps"] == stamps), None)
    return kept, stamps


def _rush_page(request, match, get_response) -> HttpResponse:
    """Serve a rush page kept in the cache (`_kept_rush_page`), or make it and keep it (see above)."""
    ahead_of = request.META.get(AHEAD)
    kept, stamps = _kept_rush_page(request.path, match, ahead_of, gzip_accepted=_accepts_gzip(request.META))
    if kept is not None:
        return _replay(request, kept)
    _count_render(request)
    response = get_response(request)
    event = getattr(request, "_kalooki_event", None)
    if event is None or event.slug != match["slug"] or request.method != "GET" or not _storable(response):
        return response
    if stamps is None:
        return response
    page_key = _ahead_page_key(request.path) if ahead_of is not None else _rush_page_key(request.path)
    if ahead_of is not None:
        response = _as_made_ahead(response)
    kept = _store(page_key, response, RUSH_PAGE_SECONDS, mark_key=_mark_key(page_key), stamps=stamps)
    return _as_kept(request, response, kept)


# --- the rush's pages before Django ----------------------------------------------------------------
#
# A rush page kept in the cache is sent by the WSGI application before Django makes a request of it
# (`serve_kept_pages_first`, wrapped round the application in kalooki_tournament/wsgi.py): no request
# object, middleware, signals or response object, which are most of what an app server spends on a
# page kept in Redis. Anything else — a page not kept (or a stamp not started), a reader with a session
# or a pending message, a query string, If-Modified-Since alone — goes on to Django, whose middleware
# (above) answers it as before.

# The headers a "not modified" answer keeps (as Django's own conditional responses do).
NOT_MODIFIED_HEADERS = {"cache-control", "content-location", "etag", "expires", "last-modified", "vary"}


def serve_kept_pages_first(application):
    """`application` (Django's WSGI handler) with the rush's pages kept in the shared cache sent first;
    `application` itself without a shared cache."""
    if not is_shared():
        return application

    def serve(environ, start_response):
        answer = _kept_answer(environ)
        if answer is None:
            return application(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body]

    return serve


def _kept_answer(environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
    """(status, headers, body) of the rush page kept for this WSGI request, or None: Django's turn."""
    method = environ.get("REQUEST_METHOD")
    if method not in ("GET", "HEAD") or environ.get("QUERY_STRING"):
        return None
    if "HTTP_IF_MODIFIED_SINCE" in environ and "HTTP_IF_NONE_MATCH" not in environ:
        return None
    cookies = environ.get("HTTP_COOKIE")
    if cookies and not _anonymous(parse_cookie(cookies)):
        return None
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    match = RUSH_PATH.match(path) if path.isascii() else None
    if match is None:
        return None
    try:
        kept, _ = _kept_rush_page(path, match, gzip_accepted=_accepts_gzip(environ), start_stamps=False)
    except shared_cache.CacheUnavailable:
        return None
    if kept is None:
        return None
    headers, body = _as_sent(kept)
    etag = next((value for name, value in headers if name == "ETag"), None)
    if etag and _seen(environ.get("HTTP_IF_NONE_MATCH"), etag):
        return "304 Not Modified", [(n, v) for n, v in headers if n.lower() in NOT_MODIFIED_HEADERS], b""
    return "200 OK", headers, b"" if method == "HEAD" else body


def _seen(if_none_match: str | None, etag: str) -> bool:
    """Whether a reader's If-None-Match names this ETag, compared weakly (RFC 9110, 13.1.2)."""
    if not if_none_match:
        return False
    named = parse_etags(if_none_match)
    return named == ["*"] or etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in named}


def _anonymous(cookies: dict[str, str]) -> bool:
    """No session and no pending message: the reader sees what every anonymous reader sees."""
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def _as_kept(request, response: HttpResponse, compressed: dict[str, Any] | None) -> HttpResponse:
    """The page just made: to a reader that accepts gzip, as it was kept for it (`compressed`, as its
    next visit will be served), else as made."""
    if compressed is not None and compressed["gzip"] and _accepts_gzip(request.META):
        return _replay(request, compressed)
    return response


def _as_made_ahead(response: HttpResponse) -> HttpResponse:
    """A page made ahead of publishing carries an ETag of its own words: the one its view gave names the
    results as they were before publishing, which a phone holding the unpublished page also has."""
    response.headers["ETag"] = f'"ahead-{hashlib.sha256(response.content).hexdigest()[:32]}"'
    response.headers.pop("Last-Modified", None)
    return response


def cache_health() -> shared_cache.Health:
    """How the shared cache is, for the director's dashboard: `up` (it answered in the last minute),
    `down_since` (a UTC datetime, or None), `last_answer`, `error`. Without Redis (REDIS_URL unset) there
    is no shared cache to lose: always up."""
    shared = caches["default"]
    if not isinstance(shared, shared_cache.GuardedRedisCache):
        return shared_cache.Health(up=True, last_answer=None, down_since=None, error="")
    found = shared.health()
    if not found.up and found.down_since is None:
        # Nothing asked it lately in this process: ask now (the answer, or its absence, is recorded).
        cache.get(GENERATION_KEY)
        found = shared.health()
    return found


def results_changed() -> None:
    """Every stored public page is out of date: now, and again when the current transaction commits."""
    _move_on()
    transaction.on_commit(_move_on)


def current_generation() -> int | None:
    """The results generation, started if the cache has none (None while the cache does not answer)."""
    generation = cache.get(GENERATION_KEY)
    if generation is None:
        cache.add(GENERATION_KEY, time.time_ns(), None)
        generation = cache.get(GENERATION_KEY)
    return generation


def is_anonymous_request(request) -> bool:
    """No session and no pending message (`_anonymous`)."""
    return _anonymous(request.COOKIES)


def page_key(request) -> str:
    """The address as the reader asked for it: scheme, host as sent, path and query."""
    address = f"{request.scheme}://{request.META.get('HTTP_HOST', '')}{request.get_full_path()}"
    return f"kalooki:shared-page:{hashlib.sha256(address.encode()).hexdigest()}"


def _accepts_gzip(environ: dict[str, Any]) -> bool:
    """Whether the reader accepts gzip: `environ` a WSGI environ, or a request's META (the same dict)."""
    return bool(ACCEPTS_GZIP.search(environ.get("HTTP_ACCEPT_ENCODING", "")))


def _encoded(key: str, gzip_accepted: bool) -> str:
    """Where the page kept under `key` is kept for a reader that accepts gzip, or not."""
    return f"{key}:gzip" if gzip_accepted else key


def _as_sent(stored: dict[str, Any]) -> tuple[list[tuple[str, str]], bytes]:
    """A stored page's headers and body as sent (its length said once, for the body sent: a page
    stored by an earlier version kept the header, and says nothing of compression)."""
    headers = [(name, value) for name, value in stored["headers"] if name.lower() != "content-length"]
    body = stored["content"]
    if stored.get("gzip"):
        # Another encoding of the page: the same page only weakly (RFC 9110, 8.8.1).
        headers = [
            (name, f"W/{value}" if name == "ETag" and not value.startswith("W/") else value)
            for name, value in headers
        ]
        headers.append(("Content-Encoding", "gzip"))
    headers.append(("Content-Length", str(len(body))))
    return headers, body


def _replay(request, stored: dict[str, Any]) -> HttpResponse:
    """A stored page (`_as_sent`), or "not modified"."""
    headers, body = _as_sent(stored)
    response = HttpResponse(b"" if request.method == "HEAD" else body, status=stored["status"])
    for name, value in headers:
        response.headers[name] = value
    last_modified = parse_http_date_safe(response.headers.get("Last-Modified", ""))
    # A revisiting browser's If-None-Match is answered 304 here too, still without the database.
    return get_conditional_response(
        request, etag=response.headers.get("ETag"), last_modified=last_modified, response=response
    )


def _store(
    key: str, response: HttpResponse, longest: int, *, mark_key: str | None = None, **stamp
) -> dict[str, Any] | None:
    """Keep the response under `key` with what it is good for (`stamp`), at most `longest` seconds and
    not past the moment it expires (a round becomes final then), as made and, for the readers that
    accept gzip, compressed from `COMPRESS_FROM` (`_encoded`); and under `mark_key`, if given, what it
    is good for alone (the warm reads that, not the page). Returns what was kept for those readers, or
    None."""
    seconds = _seconds_left(response, longest)
    if not seconds:
        return None
    headers = [(name, value) for name, value in response.items() if name.lower() not in NOT_STORED]
    content = response.content
    mark = {**stamp, "expires": getattr(response, EXPIRES, None)}
    page = {**mark, "status": response.status_code, "headers": headers, "content": content, "gzip": False}
    compressed = page
    if len(content) >= COMPRESS_FROM and not response.has_header("Content-Encoding"):
        compressed = {**page, "content": gzip.compress(content, mtime=0), "gzip": True}
    kept = {key: page, _encoded(key, True): compressed}
    cache.set_many({**kept, mark_key: mark} if mark_key else kept, seconds)
    return compressed


def _still_good(stored: dict[str, Any] | None) -> bool:
    """A stored page not past its moment: one stored before a round became final is not served after it
    (its words and ETag changed then)."""
    return stored is not None and (stored.get("expires") is None or stored["expires"] > time.time())


def _storable(response: HttpResponse) -> bool:
    return (
        getattr(response, SHARED, False)
        and response.status_code == 200
        and not response.streaming
        and not response.cookies
    )


class SharedPageCacheMiddleware:
    """First in the stack: serve a stored public page, or store one on its way out (see the module)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ("GET", "HEAD") or not is_anonymous_request(request):
            return self.get_response(request)
        rush = RUSH_PATH.match(request.path) if not request.META.get("QUERY_STRING") else None
        if rush is not None:
            return _rush_page(request, rush, self.get_response)
        if request.META.get(AHEAD) is not None:
            # Only the rush's pages are made ahead of publishing; nothing else is kept from one.
            return self.get_response(request)
        key = page_key(request)
        recoveries = shared_cache.recoveries()
        as_taken = _encoded(key, _accepts_gzip(request.META))
        found = cache.get_many([GENERATION_KEY, as_taken])
        generation, stored = found.get(GENERATION_KEY), found.get(as_taken)
        if shared_cache.recoveries() != recoveries:
            # The cache came back with this read, and the generation moved on after it was read.
            generation, stored = None, None
        if generation is not None and _still_good(stored) and stored["generation"] == generation:
            return _replay(request, stored)
        if generation is None:
            generation = current_generation()
        response = self.get_response(request)
        # No generation: the cache is down, and the page is served without being stored.
        if generation is not None and request.method == "GET" and _storable(response):
            return _as_kept(request, response, _store(key, response, PAGE_SECONDS, generation=generation))
        return response
