"""Wrong short codes and tokens (issue 13; issue 22, item 4): five a minute from one address, tokens and
codes together, whatever the parallelism, in a window that slides.

One count per address: each wrong try claims one of the address's five slots of this minute with the
cache's add(), which is atomic on Redis (SET NX) and on the database cache (an insert into a unique key),
so of any number of simultaneous tries at most five win. The window slides: a slot of the minute before
still counts while it is younger than a minute (its value is when it was claimed), and this minute offers
only the slots those leave, so ten tries across a minute's boundary are five. The slots live in the
log-in limit's shared cache (Redis with REDIS_URL, the database while Redis is down or without it), so
every worker and app server counts together.

A short code is compared only after a slot is claimed (a right code gives it back); a token is not: its
secret is checked against the site's key first, without the database, and a genuine token is looked up
and answered even while the address is locked out. Only wrong tries are counted and refused.

The count fails open: a cache that does not answer lets the try through (logged once a minute) rather
than turning a phone's request into a server error.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.db import DatabaseError
from redis.exceptions import RedisError

from kalooki_tournament.ratelimit import limit_cache
from kalooki_tournament.shared_cache import CacheUnavailable

logger = logging.getLogger(__name__)

TRIES = 5
WINDOW = 60
# The cache failing: a try goes through uncounted, and the log says so at most this often.
LOG_SECONDS = 60.0
_last_logged: list[float] = []

# What a cache that does not answer raises.
_FAILURES = (CacheUnavailable, RedisError, DatabaseError, OSError)

# What time it is (tests set another clock).
clock = time.time


def _slots(address: str, period: int) -> list[str]:
    who = hashlib.sha256(f"phone\n{address}".encode()).hexdigest()
    return [f"kalooki:phone-tries:{who}:{period}:{number}" for number in range(TRIES)]


class _Tries:
    """The address's wrong tries as the cache holds them now: this minute's slots and the last one's."""

    def __init__(self, cache, address: str, now: float):
        self.now = now
        period = int(now // WINDOW)
        current = _slots(address, period)
        previous = _slots(address, period - 1)
        found = cache.get_many(current + previous)
        young = [found[key] for key in previous if key in found and now - found[key] < WINDOW]
        # The last minute's young tries still count: this minute offers only what they leave.
        self.free = [key for key in current[: TRIES - len(young)] if key not in found]
        self.stamps = young + [found[key] for key in current if key in found]

    def wait(self) -> int:
        """Seconds until enough tries age out for one more (at least 1)."""
        stamps = sorted(self.stamps)
        if len(stamps) < TRIES:
            return 1
        return max(1, math.ceil(stamps[-TRIES] + WINDOW - self.now))


def _cache_failed(exc: BaseException) -> None:
    moment = time.monotonic()
    if not _last_logged or moment - _last_logged[0] >= LOG_SECONDS:
        _last_logged[:] = [moment]
        logger.error("The phones' limit could not count (%s): tries go through uncounted meanwhile.", exc)


def claim(address: str) -> tuple[int, str]:
    """Count one try from `address`: (0, the slot taken) to go on, else (the seconds to wait, "")."""
    try:
        cache = limit_cache()
        tries = _Tries(cache, address, clock())
        for key in tries.free:
            # Kept two minutes: the next minute still counts it while it is young.
            if cache.add(key, tries.now, 2 * WINDOW):
                return 0, key
        # Every free slot was taken by someone else meanwhile: read them again for the wait.
        return _Tries(cache, address, clock()).wait(), ""
    except _FAILURES as exc:
        _cache_failed(exc)
        return 0, ""


def give_back(slot: str) -> None:
    """The code was right: the try does not count."""
    if not slot:
        return
    try:
        limit_cache().delete(slot)
    except _FAILURES as exc:
        _cache_failed(exc)
