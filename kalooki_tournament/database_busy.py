"""A database busy with another writer answers "try again", never an error page.

SQLite lets one writer at a time; a save that waits longer than the connection's timeout (20 s, see
settings) for another to finish — a long import, a backup — fails with OperationalError "database is
locked". Its transaction was rolled back, so nothing was saved: the director is told so and asked to
try again (503 Service Unavailable with Retry-After). Any other database error is still an error.
"""

from __future__ import annotations

from django.db import OperationalError
from django.shortcuts import render

# SQLite's words for another connection holding the lock (the database file, or one table).
BUSY_MESSAGES = ("database is locked", "database table is locked")
RETRY_AFTER_SECONDS = 5


def is_busy(exc: BaseException) -> bool:
    return isinstance(exc, OperationalError) and any(words in str(exc) for words in BUSY_MESSAGES)


class DatabaseBusyMiddleware:
    """Turns a locked database into a 503 page saying nothing was saved and to try again."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_busy(exception):
            return None
        response = render(request, "database_busy.html", {"retry_after": RETRY_AFTER_SECONDS}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
