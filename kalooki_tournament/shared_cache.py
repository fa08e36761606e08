"""The shared cache (Redis, REDIS_URL) holds copies: losing it costs speed, never service.

Every use of it fails open. `FailOpenRedisCache` (the "default" cache: stored pages, the results
generation, places) answers a miss when Redis does not answer — a read finds nothing, a write is dropped —
so a page is made afresh and a save commits. `FallbackCache` (the "ratelimit" cache: the log-in and
short-code counts) counts in Redis while it answers and in the database's own cache table while it does
not, so the limits neither let unlimited tries through nor lock everyone out. Both sit on
`GuardedRedisCache`, which turns any Redis error into `CacheUnavailable` and keeps this process's view of
the cache's health:

- after a failure the cache is left alone for `RETRY_SECONDS` (one probe then, not a timeout a request),
  and the connection and socket timeouts in `shared_caches` bound what that probe costs;
- the log says the cache is down once a `LOG_SECONDS`, not once a request, and says when it is back;
- `health(location)` tells a page whether it answered lately and since when it has been down;
- `on_recovery(callback)` runs the callback once the cache answers again (the page cache moves the
  results generation on then: a change made while the cache was down must retire the pages it stored
  before).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# While the cache is down, each process tries it again at most this often.
RETRY_SECONDS = 2.0
# A cache that is down is logged at most this often by each process.
LOG_SECONDS = 60.0
# How long a connection or an answer may take before the cache counts as down.
CONNECT_TIMEOUT = 1.0
SOCKET_TIMEOUT = 2.0
# An answer older than this no longer says the cache is up (`health`).
RECENT_SECONDS = 60.0


def shared_caches(redis_url: str) -> dict[str, dict[str, Any]]:
    """The CACHES setting for a shared cache at `redis_url` (settings.py, and the tests that point it
    at a closed port)."""
    redis = {
        "LOCATION": redis_url,
        "OPTIONS": {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": SOCKET_TIMEOUT},
    }
    return {
        "default": {**redis, "BACKEND": f"{__name__}.FailOpenRedisCache", "KEY_PREFIX": "kalooki"},
        # The log-in and short-code counts: Redis while it answers, the database's table while not.
        "ratelimit": {
            "BACKEND": f"{__name__}.FallbackCache",
            "OPTIONS": {"PRIMARY": "ratelimit-redis", "FALLBACK": "ratelimit-database"},
        },
        "ratelimit-redis": {
            **redis,
            "BACKEND": f"{__name__}.GuardedRedisCache",
            "KEY_PREFIX": "kalooki-login",
        },
        "ratelimit-database": database_limit_cache(),
        "leases": LEASES,
    }


# The background jobs' leases (`scoring.services.jobs`): in the database, so they outlive Redis.
LEASES = {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "kalooki_job_leases"}


def database_limit_cache() -> dict[str, Any]:
    """The database cache the limits count in without Redis (and while Redis is down)."""
    return {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "kalooki_ratelimit_cache",
        "OPTIONS": {"MAX_ENTRIES": 50_000},
    }


class CacheUnavailable(Exception):
    """Redis did not answer (or is being left alone after it did not)."""


@dataclass(frozen=True)
class Health:
    """This process's view of the shared cache, for the director's dashboard."""

    up: bool
    # When it last answered (None: not since this process started).
    last_answer: datetime | None
    # Since when it has not answered (None: it answers).
    down_since: datetime | None
    # The last error, in words.
    error: str


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.down_since: float | None = None
        self.last_answer: float | None = None
        self.error = ""
        self.next_try = 0.0
        self.last_logged: float | None = None
        self.recoveries = 0


# One view a Redis server (its LOCATION): a port that is closed says nothing of another.
_states: dict[str, _State] = {}
_states_lock = threading.Lock()
_recoveries = 0
_listeners: list[Callable[[], None]] = []


def _state_of(location: str) -> _State:
    with _states_lock:
        return _states.setdefault(location, _State())


def on_recovery(callback: Callable[[], None]) -> None:
    """Run `callback` whenever the cache answers again after it did not (once per recovery)."""
    if callback not in _listeners:
        _listeners.append(callback)


def _stamp(moment: float | None) -> datetime | None:
    return None if moment is None else datetime.fromtimestamp(moment, tz=UTC)


def health(location: str) -> Health:
    """Whether the Redis at `location` answered lately, and since when it has been down."""
    state = _state_of(location)
    with state.lock:
        down_since, last_answer, error = state.down_since, state.last_answer, state.error
    up = down_since is None and last_answer is not None and time.time() - last_answer < RECENT_SECONDS
    return Health(up=up, last_answer=_stamp(last_answer), down_since=_stamp(down_since), error=error)


def reset_health() -> None:
    """Forget what this process saw (tests)."""
    with _states_lock:
        _states.clear()


def recoveries() -> int:
    """How many times this process has seen the cache come back: a read made across a recovery may
    predate what `on_recovery` did, and is not to be trusted."""
    return _recoveries


def _left_alone(state: _State) -> bool:
    with state.lock:
        return state.down_since is not None and time.monotonic() < state.next_try


def _failed(state: _State, exc: BaseException) -> None:
    now, moment = time.time(), time.monotonic()
    with state.lock:
        if state.down_since is None:
            state.down_since = now
        state.error = f"{type(exc).__name__}: {exc}"[:200]
        state.next_try = moment + RETRY_SECONDS
        log = state.last_logged is None or moment - state.last_logged >= LOG_SECONDS
        if log:
            state.last_logged = moment
        since = state.down_since
        error = state.error
    if log:
        logger.error(
            "The shared cache (Redis) is not answering (%s) since %s: pages are made without it and the "
            "log-in limits count in the database until it is back.",
            error,
            _stamp(since).isoformat(timespec="seconds"),
        )


def _answered(state: _State) -> None:
    global _recoveries
    with state.lock:
        state.last_answer = time.time()
        was_down = state.down_since is not None
        if was_down:
            since = state.down_since
            state.down_since = None
            state.error = ""
            state.last_logged = None
            with _states_lock:
                _recoveries += 1
    if not was_down:
        return
    logger.warning("The shared cache (Redis) answers again (down since %s).", _stamp(since).isoformat())
    for callback in list(_listeners):
        try:
            callback()
        except Exception:
            logger.exception("could not catch up after the shared cache came back")


class GuardedRedisCache(RedisCache):
    """Django's Redis cache that raises `CacheUnavailable` when Redis does not answer, and is left alone
    for `RETRY_SECONDS` after that."""

    def _guarded(self, name: str, *args: Any, **kwargs: Any) -> Any:
        state = _state_of(self.location)
        if _left_alone(state):
            raise CacheUnavailable("the shared cache is down")
        try:
            result = getattr(super(), name)(*args, **kwargs)
        except (RedisError, OSError) as exc:
            _failed(state, exc)
            raise CacheUnavailable(str(exc)) from exc
        except ValueError:
            # incr() of a missing key: Redis answered.
            _answered(state)
            raise
        _answered(state)
        return result

    @property
    def location(self) -> str:
        return ",".join(self._servers)

    def health(self) -> Health:
        """Whether this cache's Redis answered lately, and since when it has been down."""
        return health(self.location)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("add", key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._guarded("get", key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("set", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._guarded("delete", key, version)

    def get_many(self, keys, version=None):
        return self._guarded("get_many", keys, version)

    def has_key(self, key, version=None):
        return self._guarded("has_key", key, version)

    def incr(self, key, delta=1, version=None):
        return self._guarded("incr", key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("set_many", data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._guarded("delete_many", keys, version)

    def clear(self):
        return self._guarded("clear")


class FailOpenRedisCache(GuardedRedisCache):
    """Misses instead of errors: a read finds nothing, a write is dropped. Only incr() — a number no
    one can make up — still raises `CacheUnavailable`."""

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().add(key, value, timeout, version)
        except CacheUnavailable:
            return False

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except CacheUnavailable:
            return default

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().set(key, value, timeout, version)
        except CacheUnavailable:
            return None

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().touch(key, timeout, version)
        except CacheUnavailable:
            return False

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except CacheUnavailable:
            return False

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except CacheUnavailable:
            return {}

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except CacheUnavailable:
            return False

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().set_many(data, timeout, version)
        except CacheUnavailable:
            return list(data)

    def delete_many(self, keys, version=None):
        try:
            return super().delete_many(keys, version)
        except CacheUnavailable:
            return None

    def clear(self):
        try:
            return super().clear()
        except CacheUnavailable:
            return False


_tables_ready: set[tuple[str, str]] = set()


def ensure_table(cache: BaseCache) -> BaseCache:
    """A database cache's table, created on first use (once per process and database)."""
    table = getattr(cache, "_table", None)
    if not table:
        return cache
    from django.core.management import call_command
    from django.db import connections, router

    connection = connections[router.db_for_write(cache.cache_model_class)]
    if (connection.alias, table) not in _tables_ready:
        if table not in connection.introspection.table_names():
            call_command("createcachetable", table, database=connection.alias, verbosity=0)
        _tables_ready.add((connection.alias, table))
    return cache


class FallbackCache(BaseCache):
    """The PRIMARY cache while it answers, the FALLBACK cache (a database cache) while it does not.
    Counts kept in one are not seen in the other: a limit starts afresh when the cache changes, which
    neither lets unlimited tries through nor locks anyone out."""

    def __init__(self, location: str, params: dict[str, Any]):
        super().__init__(params)
        options = params.get("OPTIONS", {})
        self.primary_alias = options["PRIMARY"]
        self.fallback_alias = options["FALLBACK"]

    @property
    def fallback(self) -> BaseCache:
        return ensure_table(caches[self.fallback_alias])

    def _either(self, name: str, *args: Any) -> Any:
        try:
            return getattr(caches[self.primary_alias], name)(*args)
        except CacheUnavailable:
            return getattr(self.fallback, name)(*args)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("add", key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._either("get", key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._either("delete", key, version)

    def get_many(self, keys, version=None):
        return self._either("get_many", keys, version)

    def has_key(self, key, version=None):
        return self._either("has_key", key, version)

    def incr(self, key, delta=1, version=None):
        return self._either("incr", key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set_many", data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._either("delete_many", keys, version)

    def clear(self):
        # Both: counts made while Redis was down must not outlive a clear.
        self.fallback.clear()
        with contextlib.suppress(CacheUnavailable):
            caches[self.primary_alias].clear()
