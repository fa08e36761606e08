"""Log-in attempts are rate-limited: after LOGIN_FAILURE_LIMIT failed attempts for one username from one
address within LOGIN_FAILURE_WINDOW seconds, that pair is refused (HTTP 429) until enough of them have
aged out of the window.

Attempts are counted BEFORE the password is checked, atomically: each attempt claims one of the pair's
`limit` slots with the cache's add(), which only one of any number of simultaneous callers wins (Redis
SET NX; in the database cache, an insert into a unique key). A request that claims no slot is refused
without its password being read, so twenty simultaneous attempts check five passwords, not twenty. A
successful log-in gives the pair's slots back.

Slots are numbered within windows of LOGIN_FAILURE_WINDOW seconds counted from the epoch, so a key is
never reused once it has expired; the claims of the window before still count while they are younger
than the window, so a burst across the boundary gets no second allowance.

The slots live in the "ratelimit" cache: Redis when REDIS_URL is set, otherwise a database cache whose
table is created on first use; either way every gunicorn worker and every app server sees the same
claims. While Redis does not answer the slots are claimed in that database table instead
(`kalooki_tournament.shared_cache.FallbackCache`): the limit still counts, from nothing, rather than
letting every try through or refusing everyone. Usernames are compared as the log-in form reads them
(NFKC) and without case, so "Director", "director" and a full-width "ｄirector" share them. Behind a
reverse proxy set DJANGO_CLIENT_IP_HEADER (e.g. HTTP_X_REAL_IP) to the header the proxy writes — and the proxy
must overwrite that header, or a client could name any address it likes.

Two doors, one count: the middleware claims at the log-in pages (the site's and the admin's) before the
form is read; the authentication backend claims anywhere else.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
import unicodedata

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.db import DatabaseError, connections, router
from django.shortcuts import render

logger = logging.getLogger(__name__)

CACHE_ALIAS = "ratelimit"
LOGIN_VIEWS = {"login", "admin:login"}
# Set on a request whose attempt the middleware has counted, so the backend does not count it twice.
CLAIMED = "_kalooki_login_claimed"
_table_ready = False


def limit() -> int:
    return getattr(settings, "LOGIN_FAILURE_LIMIT", 5)


def window() -> int:
    return getattr(settings, "LOGIN_FAILURE_WINDOW", 15 * 60)


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or the right-most address in the proxy's header."""
    header = getattr(settings, "LOGIN_CLIENT_IP_HEADER", "")
    value = request.META.get(header, "") if header else ""
    addresses = [part.strip() for part in value.split(",") if part.strip()]
    return addresses[-1] if addresses else request.META.get("REMOTE_ADDR", "")


def canonical(username: str) -> str:
    """The username as the log-in form reads it (NFKC), without case: one count for every spelling."""
    return unicodedata.normalize("NFKC", username).casefold()


def _pair(username: str, ip: str) -> str:
    return hashlib.sha256(f"{canonical(username)}\n{ip}".encode()).hexdigest()


def _slots(username: str, ip: str, period: int) -> list[str]:
    pair = _pair(username, ip)
    return [f"kalooki:login:{pair}:{period}:{number}" for number in range(limit())]


def _cache():
    """The cache, its database table created first if need be (once per process)."""
    global _table_ready
    cache = caches[CACHE_ALIAS]
    if not _table_ready and getattr(cache, "_table", None):
        connection = connections[router.db_for_write(cache.cache_model_class)]
        if cache._table not in connection.introspection.table_names():
            call_command("createcachetable", cache._table, database=connection.alias, verbosity=0)
        _table_ready = True
    return cache


def limit_cache():
    """The cache every limit counts in (the self-entry short codes' too), its table made if need be."""
    return _cache()


class _Claims:
    """The pair's claims as the cache holds them now: this window's slots and the last window's."""

    def __init__(self, username: str, ip: str, now: float):
        self.now = now
        period = int(now // window())
        self.current = _slots(username, ip, period)
        self.previous = _slots(username, ip, period - 1)
        found = _cache().get_many(self.current + self.previous)
        self.taken = {key for key in self.current if key in found}
        young = [found[key] for key in self.previous if key in found and now - found[key] < window()]
        # The last window's young claims still count: this window offers only what they leave.
        self.free = [key for key in self.current[: limit() - len(young)] if key not in self.taken]
        self.stamps = young + [found[key] for key in self.taken]

    def wait(self) -> int:
        """Seconds until enough claims age out for one more attempt (at least 1)."""
        stamps = sorted(self.stamps)
        if len(stamps) < limit():
            return 1
        return max(1, math.ceil(stamps[-limit()] + window() - self.now))


def claim_attempt(username: str, ip: str) -> int:
    """Count one log-in attempt for this pair before its password is checked.

    0: counted, go on and check the password; otherwise the pair is locked and this is how many seconds
    to wait. Atomic: of any number of simultaneous callers, at most `limit` within the window get 0."""
    claims = _Claims(username, ip, time.time())
    cache = _cache()
    for key in claims.free:
        # Kept two windows: the next window still counts it while it is young.
        if cache.add(key, claims.now, 2 * window()):
            return 0
    # Every free slot was taken by someone else meanwhile: read them again for the wait.
    return _Claims(username, ip, time.time()).wait()


def record_failure(username: str, ip: str) -> None:
    """Count a failed attempt made without the two doors (a script, a test): it takes a slot too."""
    claim_attempt(username, ip)


def seconds_locked(username: str, ip: str) -> int:
    """How long this username is refused from this address (0: not locked). Counts nothing."""
    claims = _Claims(username, ip, time.time())
    return 0 if claims.free else claims.wait()


def clear(username: str, ip: str) -> None:
    """Give the pair's slots back (a successful log-in)."""
    now = time.time()
    period = int(now // window())
    _cache().delete_many(_slots(username, ip, period) + _slots(username, ip, period - 1))


def _username(credentials) -> str:
    from django.contrib.auth import get_user_model

    value = credentials.get("username", credentials.get(get_user_model().USERNAME_FIELD, ""))
    return value if isinstance(value, str) else ""


def _on_success(sender, request, user, **kwargs) -> None:
    if request is not None:
        try:
            clear(user.get_username(), client_ip(request))
        except DatabaseError:
            logger.exception("could not clear failed log-ins")


user_logged_in.connect(_on_success, dispatch_uid="kalooki.ratelimit.success")


class RateLimitedModelBackend(ModelBackend):
    """Django's model backend that counts the attempt first and refuses a locked pair."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is not None:
            name = username if username is not None else _username(kwargs)
            counted = getattr(request, CLAIMED, None)
            if name and counted != canonical(name) and claim_attempt(name, client_ip(request)):
                # Stops every backend: authenticate() then reports a failed log-in.
                raise PermissionDenied("too many failed log-in attempts")
        return super().authenticate(request, username=username, password=password, **kwargs)


class LoginRateLimitMiddleware:
    """Count each attempt at the log-in pages before the form is read; answer a locked pair with 429."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if request.method != "POST" or match is None or match.view_name not in LOGIN_VIEWS:
            return None
        username = request.POST.get("username", "")
        if not isinstance(username, str) or not username:
            return None
        wait = claim_attempt(username, client_ip(request))
        if not wait:
            setattr(request, CLAIMED, canonical(username))
            return None
        response = render(
            request,
            "adjudication/login_locked.html",
            {"minutes": math.ceil(wait / 60), "limit": limit(), "window_minutes": window() // 60},
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
