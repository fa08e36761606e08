"""Accounts an organiser may name as an event's directors, found by display name (issue 22): the event
form offers them from a search, so no page lists every account's username."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q, Value
from django.db.models.functions import Concat

# Fewer letters than this find nobody: a search is for finding a person, not for listing accounts.
SEARCH_MIN = 2
SEARCH_LIMIT = 10


def director_label(user) -> str:
    """How the event form names an account: its full name, else its username."""
    return user.get_full_name() or user.get_username()


def director_matches(text: str, *, limit: int = SEARCH_LIMIT) -> list[dict[str, object]]:
    """Active accounts whose full name holds `text` (any case), or whose username is exactly `text`,
    as {"id", "name"}, by name; at most `limit`. One query."""
    text = " ".join(text.split())
    if len(text) < SEARCH_MIN:
        return []
    users = (
        get_user_model()
        .objects.filter(is_active=True)
        .annotate(full=Concat("first_name", Value(" "), "last_name"))
        .filter(Q(full__icontains=text) | Q(username__iexact=text))
        .order_by("first_name", "last_name", "pk")[:limit]
    )
    return [{"id": user.pk, "name": director_label(user)} for user in users]
