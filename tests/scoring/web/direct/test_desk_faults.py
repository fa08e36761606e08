"""The desk when a part fails or the input is bad: a shared cache that stopped answering is said on the
dashboard (saves still work), and a big CSV holding a control character is refused on the import page."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from kalooki_tournament import shared_cache
from scoring import background
from scoring.models import BackgroundJob, Entry

pytestmark = pytest.mark.django_db


def test_the_dashboard_says_when_the_shared_cache_stopped_answering(as_director, event, monkeypatch):
    down = shared_cache.Health(
        up=False, last_answer=None, down_since=datetime(2026, 12, 5, 21, 4, 5, tzinfo=UTC), error=""
    )
    monkeypatch.setattr("scoring.page_cache.cache_health", lambda: down)
    page = as_director.get(reverse("scoring:direct", args=[event.slug])).content.decode()
    assert (
        "The shared cache (Redis) has not answered since" in page and "saves, phones and log-ins work" in page
    )


def test_the_dashboard_says_nothing_of_a_cache_that_answers(as_director, event):
    page = as_director.get(reverse("scoring:direct", args=[event.slug])).content.decode()
    assert "has not answered since" not in page


def test_a_big_csv_with_a_control_character_is_refused_on_the_page(as_director, event):
    rows = background.THRESHOLDS[BackgroundJob.Kind.PLAYERS_IMPORT] + 5
    lines = [f"Player {number},Club" for number in range(rows)]
    lines[2] = "Zo\x00e,Club"
    as_director.raise_request_exception = False
    upload = SimpleUploadedFile("players.csv", "\n".join(lines).encode(), content_type="text/csv")
    response = as_director.post(reverse("scoring:direct_players_import", args=[event.slug]), {"file": upload})
    assert response.status_code == 400
    text = response.content.decode()
    assert "control character" in text
    assert not BackgroundJob.objects.exists() and not Entry.objects.filter(event=event).exists()
