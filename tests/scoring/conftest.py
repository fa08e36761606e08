"""Accounts the scoring tests share: staff, and a stranger who directs nothing (the event, its director
logged in as `as_director` and the shared table come from tests/conftest.py); and, for the tests marked
`final_at_once`, events whose rounds are final as they close."""

from __future__ import annotations

import pytest


@pytest.fixture
def staff(django_user_model):
    """Staff may direct every event without being named on it."""
    return django_user_model.objects.create_user("staff", password="pw-staff-1", is_staff=True)


@pytest.fixture
def stranger(django_user_model):
    """Logged in, but directs no event."""
    return django_user_model.objects.create_user("stranger", password="pw-stranger-1")


@pytest.fixture
def make_event(make_event, request):
    """The shared factory; in a test marked `final_at_once`, with no correction period unless one is
    given: nights played long ago, final as their rounds close, since ratings and seasons count final
    results only (issue 21); a correction after that is an organiser's."""
    if request.node.get_closest_marker("final_at_once") is None:
        return make_event

    def make(**fields):
        fields.setdefault("correction_minutes", 0)
        return make_event(**fields)

    return make
