"""Log-in attempts are rate-limited: after LOGIN_FAILURE_LIMIT failures for one username from one address
within LOGIN_FAILURE_WINDOW seconds, that pair is refused (HTTP 429) until the window has passed.

The failures live in the "ratelimit" cache, a database cache, so every gunicorn worker (and every
machine sharing the database) sees the same count; its table is created on first use when `migrate`
and `createcachetable` have not made it yet. Usernames are compared without case, so "Director" and
"director" share a count. Behind a reverse proxy set DJANGO_CLIENT_IP_HEADER (e.g. HTTP_X_REAL_IP) to
the header the proxy writes, or every client looks like the proxy.

Two doors, one count: the middleware answers a locked pair at the log-in pages (the site's and the
admin's) before the password is checked; the authentication backend refuses it anywhere else.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.db import DatabaseError, connections, router
from django.shortcuts import render

logger = logging.getLogger(__name__)

CACHE_ALIAS = "ratelimit"
LOGIN_VIEWS = {"login", "admin:login"}
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


def _key(username: str, ip: str) -> str:
    digest = hashlib.sha256(f"{username.casefold()}\n{ip}".encode()).hexdigest()
    return f"kalooki:login-failures:{digest}"


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


def _recent(username: str, ip: str, now: float) -> list[float]:
    stamps = _cache().get(_key(username, ip)) or []
    return [stamp for stamp in stamps if now - stamp < window()]


def seconds_locked(username: str, ip: str) -> int:
    """How long this username is refused from this address (0: not locked)."""
    now = time.time()
    recent = _recent(username, ip, now)
    if len(recent) < limit():
        return 0
    # Free again once enough of the failures have aged out of the window.
    return max(1, math.ceil(sorted(recent)[-limit()] + window() - now))


def record_failure(username: str, ip: str) -> None:
    now = time.time()
    recent = _recent(username, ip, now)
    recent.append(now)
    _cache().set(_key(username, ip), recent[-limit() * 2 :], window())


def clear(username: str, ip: str) -> None:
    _cache().delete(_key(username, ip))


def _username(credentials) -> str:
    from django.contrib.auth import get_user_model

    value = credentials.get("username", credentials.get(get_user_model().USERNAME_FIELD, ""))
    return value if isinstance(value, str) else ""


def _on_failure(sender, credentials, request=None, **kwargs) -> None:
    username = _username(credentials)
    if request is None or not username:
        return
    try:
        record_failure(username, client_ip(request))
    except DatabaseError:
        # The log-in itself must still answer; the missing count is logged for the operator.
        logger.exception("could not record a failed log-in")


def _on_success(sender, request, user, **kwargs) -> None:
    if request is not None:
        try:
            clear(user.get_username(), client_ip(request))
        except DatabaseError:
            logger.exception("could not clear failed log-ins")


user_login_failed.connect(_on_failure, dispatch_uid="kalooki.ratelimit.failure")
user_logged_in.connect(_on_success, dispatch_uid="kalooki.ratelimit.success")


class RateLimitedModelBackend(ModelBackend):
    """Django's model backend that refuses a username locked for the request's address."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is not None:
            name = username if username is not None else _username(kwargs)
            if name and seconds_locked(name, client_ip(request)):
                # Stops every backend: authenticate() then reports a failed log-in (counted too).
                raise PermissionDenied("too many failed log-in attempts")
        return super().authenticate(request, username=username, password=password, **kwargs)


class LoginRateLimitMiddleware:
    """Answer a locked username + address at the log-in pages with 429 before any password is read."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if request.method != "POST" or match is None or match.view_name not in LOGIN_VIEWS:
            return None
        username = request.POST.get("username", "")
        wait = seconds_locked(username, client_ip(request)) if username else 0
        if not wait:
            return None
        minutes = math.ceil(wait / 60)
        response = render(
            request,
            "adjudication/login_locked.html",
            {"minutes": minutes, "limit": limit(), "window_minutes": window() // 60},
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
