"""What a page's response is wrapped in: a public results page (GET/HEAD only, conditional GET by the
event's results stamp, a stored copy for anonymous readers) and a PDF shown in the browser.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
from datetime import datetime
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import content_disposition_header
from django.views.decorators.http import condition, require_safe

from ..models import Event
from ..page_cache import expire_at, finals_passed, mark_shared, public_etag
from ..selectors.publication import previewing
from .lookups import event_for

# Pages change only with the event's results stamp (or its version); this bounds a stale entry's life
# should anything else they show change without bumping either.
PAGE_CACHE_SECONDS = 120


def is_anonymous_reader(request) -> bool:
    """True when the page is the same for everyone: no account, no session, no pending message."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
        return False
    return not request.user.is_authenticated


def results_etag(request, slug: str, **kwargs) -> str | None:
    if not is_anonymous_reader(request):
        return None
    try:
        event = event_for(request, slug)
    except Http404:
        return None
    return public_etag(event)


def results_last_modified(request, slug: str, **kwargs):
    if not is_anonymous_reader(request):
        return None
    try:
        event = event_for(request, slug)
    except Http404:
        return None
    # A round that became final changed the page's words at that moment.
    passed = [
        moment for moment in map(datetime.fromisoformat, event.final_times or ()) if moment <= timezone.now()
    ]
    return max([event.results_changed_at, *passed])


def _page_cache_key(request, event: Event) -> str:
    path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:32]
    # A page stored before one of the event's rounds became final is not read after it.
    passed = finals_passed(event.final_times)[0]
    return f"kalooki:page:{event.pk}:{event.results_stamp}:{event.version}:{passed}:{path}"


def cached_public_page(view):
    """Serve anonymous readers a stored copy of the page until the event's results change."""

    @wraps(view)
    def wrapper(request, *args, slug: str, **kwargs):
        if request.method not in ("GET", "HEAD") or not is_anonymous_reader(request) or previewing():
            # (A page made ahead of its round's publishing is kept by the shared page cache alone.)
            return view(request, *args, slug=slug, **kwargs)
        event = event_for(request, slug)
        key = _page_cache_key(request, event)
        stored = cache.get(key)
        if stored is not None:
            content, headers = stored
            response = HttpResponse(content)
            for name, value in headers.items():
                response.headers[name] = value
            return response
        response = view(request, *args, slug=slug, **kwargs)
        if hasattr(response, "render") and not getattr(response, "is_rendered", True):
            response = response.render()
        if response.status_code == 200 and not response.streaming:
            kept = {
                name: response.headers[name]
                for name in ("Content-Type", "Content-Disposition")
                if name in response.headers
            }
            upcoming = finals_passed(event.final_times)[1]
            seconds = PAGE_CACHE_SECONDS
            if upcoming is not None:
                seconds = min(seconds, max(1, math.ceil((upcoming - timezone.now()).total_seconds())))
            cache.set(key, (response.content, kept), seconds)
        return response

    return wrapper


def public_results_page(view):
    """A results page: GET/HEAD only, conditional GET by the results stamp, cached for anonymous readers."""
    conditional = condition(etag_func=results_etag, last_modified_func=results_last_modified)(
        cached_public_page(view)
    )

    @require_safe
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = conditional(request, *args, **kwargs)
        # Browsers and the projector revalidate every time (a 304 costs one small query).
        patch_cache_control(response, max_age=0, must_revalidate=True)
        patch_vary_headers(response, ["Cookie"])
        if is_anonymous_reader(request):
            # With a shared cache, the first middleware serves the next reader without the database,
            # until the next moment one of the event's rounds becomes final (its words change then).
            mark_shared(response)
            with contextlib.suppress(Http404, KeyError):
                expire_at(response, finals_passed(event_for(request, kwargs["slug"]).final_times)[1])
        return response

    return wrapper


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    """The PDF shown in the browser (inline), saved under `filename` when downloaded."""
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response
