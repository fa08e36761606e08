"""The league's tests rate and rank nights played long ago: their rounds are final as they close (no
correction period), as a season and a rating count final results only (issue 21)."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_event(make_event):
    """make_event(**fields): the shared factory, with no correction period unless one is given."""

    def make(**fields):
        fields.setdefault("correction_minutes", 0)
        return make_event(**fields)

    return make
