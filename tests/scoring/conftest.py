"""Accounts the scoring tests share: staff, and a stranger who directs nothing (the event, its director
logged in as `as_director` and the shared table come from tests/conftest.py); and, for the tests marked
`final_at_once`, events whose rounds are final as they close."""

from __future__ import annotations

import pytest

from tests.scoring.final_support import make_event  # noqa: F401 (for the tests marked final_at_once)


@pytest.fixture
def staff(django_user_model):
    """Staff may direct every event without being named on it."""
    return django_user_model.objects.create_user("staff", password="pw-staff-1", is_staff=True)


@pytest.fixture
def stranger(django_user_model):
    """Logged in, but directs no event."""
    return django_user_model.objects.create_user("stranger", password="pw-stranger-1")
