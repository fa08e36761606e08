"""Wrong short codes and tokens (issue 13): five a minute from one address, then a wait until the
minute is over.

Each try claims one of the address's five slots of this minute before the code is compared, with the
cache's add() (atomic: of simultaneous tries at most five win), in the log-in limit's shared cache
(Redis with REDIS_URL, else the database), so every worker and app server counts together. A right
code gives its slot back: only wrong tries count.
"""

from __future__ import annotations

import hashlib
import math
import time

from kalooki_tournament.ratelimit import limit_cache

TRIES = 5
WINDOW = 60


def _slots(address: str, period: int) -> list[str]:
    who = hashlib.sha256(f"short-code\n{address}".encode()).hexdigest()
    return [f"kalooki:shortcode:{who}:{period}:{number}" for number in range(TRIES)]


def claim(address: str) -> tuple[int, str]:
    """Count one try from `address`: (0, the slot taken) to go on and compare the code, else (the
    seconds to wait, "")."""
    now = time.time()
    period = int(now // WINDOW)
    cache = limit_cache()
    for key in _slots(address, period):
        if cache.add(key, now, 2 * WINDOW):
            return 0, key
    return max(1, math.ceil((period + 1) * WINDOW - now)), ""


def waiting(address: str) -> int:
    """Seconds `address` must wait (every slot of this minute taken), else 0. Counts nothing."""
    now = time.time()
    period = int(now // WINDOW)
    slots = _slots(address, period)
    if len(limit_cache().get_many(slots)) < TRIES:
        return 0
    return max(1, math.ceil((period + 1) * WINDOW - now))


def give_back(slot: str) -> None:
    """The code was right: the try does not count."""
    if slot:
        limit_cache().delete(slot)
