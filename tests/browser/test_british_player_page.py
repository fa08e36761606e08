"""A British player's page in a real Chromium: Bert's game hand by hand with both buy-ins' resets and the
hand he went out in, the finishing order with its points, readable on a phone without sideways scrolling
and with no serious accessibility violation."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Entry
from tests.scoring.test_british_player_page import FIVE, play

from .conftest import horizontal_overflow, screenshot, serious_violations

pytestmark = pytest.mark.browser


def test_a_british_player_s_page_shows_the_game_as_played(
    live_server, reader, sized, make_event, make_table, director
):
    from playwright.sync_api import expect

    event = make_event(name="Club night", slug="club-night", ruleset_preset="british", format="placement")
    game = play(make_table(services.round_create(event=event, user=director), FIVE), director)
    services.set_verify(game_set=game, user=director, expected_version=game.version)
    bert = Entry.objects.get(event=event, player__name="Bert")
    url = f"{live_server.url}/e/{event.slug}/p/{bert.pk}/"
    reader.goto(url)
    expect(reader.locator(".lead")).to_contain_text(
        "Official place 4 after round 1 with 1 point from 1 game."
    )
    totals = reader.locator("table.player-hands tbody td.running")
    expect(totals).to_have_text(["92", "160 → 118", "158 → 120", "151"])
    expect(reader.locator("tr.is-me")).to_contain_text("Bert")
    screenshot(reader, "british-player")
    assert serious_violations(reader) == []
    phone = sized(390, 844)
    phone.goto(url)
    expect(phone.locator(".lead")).to_contain_text("Official place 4")
    screenshot(phone, "british-player-phone")
    assert horizontal_overflow(phone) == 0
