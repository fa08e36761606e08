"""Events whose rounds are final as they close, for the tests marked `final_at_once`: the rating and
published-list tests rate nights played long ago, and ratings and seasons count final results only
(issue 21). tests/scoring's conftest gives the fixture to its tests; a module elsewhere (the browser
tests of the same nights) imports it with their fixtures and carries the mark."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_event(make_event, request):
    """The shared factory; in a test marked `final_at_once`, with no correction period unless one is
    given (a correction after that is an organiser's)."""
    if request.node.get_closest_marker("final_at_once") is None:
        return make_event

    def make(**fields):
        fields.setdefault("correction_minutes", 0)
        return make_event(**fields)

    return make
