"""Screens for the hall (issue 24): the projector shows a starting round's seating by name, then the
standings two columns of ten a page; a phone that follows a player gets their table and seat (a small
fragment every page of the event shows at its top) and the standings page that holds their row."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Entry
from scoring.services.guards import touch_results
from tests.conftest import nine

NAMES = [
    f"{first} {last}" for last in ("Reid", "Hall") for first in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
]


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def url(name, event, **kwargs):
    return reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})


@pytest.fixture
def closed_round_then_seated(event, round1, director, make_table, play_set):
    """Round 1: three tables of four, verified (closed); round 2 seated by the standings, no deal yet."""
    for number in range(3):
        names = NAMES[number * 4 : number * 4 + 4]
        game_set = make_table(round1, names, number=number + 1)
        play_set(game_set, nine({name: 10 * (index + 1) + number for index, name in enumerate(names)}))
    touch_results(event.pk)
    round2 = services.round_create(event=event, user=director)
    services.round_seat(round=round2, user=director, seed=7, method="standings")
    return services.round_publish(round=round2, user=director)


def test_the_projector_shows_a_starting_rounds_seating_then_the_standings(
    client, closed_round_then_seated, play_set
):
    event = closed_round_then_seated.event
    html = text(client.get(url("projector", event)))
    assert "Round 2: where do I sit?" in html
    assert "Round 2 starts: 3 tables" in html
    names = re.findall(r'data-change-key="s:\d+"[^>]*><th scope="row">([^<]+)</th>', html)
    assert names == sorted(NAMES, key=str.casefold)
    assert 'data-pager-per-page="20"' in html

    table = closed_round_then_seated.tables.get(number=1)
    seated = [
        seat.entry.player.name for seat in table.seats.order_by("position").select_related("entry__player")
    ]
    play_set(table.game_set, nine(dict.fromkeys(seated, 5))[:1], verified=False)
    touch_results(event.pk)
    html = text(client.get(url("projector", event)))
    assert "where do I sit?" not in html
    assert "Official standings after round 1" in html or "after round 1" in html
    assert len(re.findall(r'data-change-key="p:\d+"', html)) == 12
    assert "Table 1: deal 2" in html


def test_a_followed_player_sees_their_table_and_seat(client, closed_round_then_seated):
    event = closed_round_then_seated.event
    entry = Entry.objects.get(event=event, player__name="Cy Hall")
    seat = closed_round_then_seated.seats.get(entry=entry)
    html = text(client.get(url("player_seat", event, entry_id=entry.pk)))
    assert (
        "Cy Hall</strong> — round 2: "
        f'<span class="follow-banner__seat">table {seat.table.number}, seat {seat.position}</span>' in html
    )
    assert f"?follow={entry.pk}" in html
    # The player's page offers to follow them; the seating links each name to that page.
    assert "data-follow-button" in text(client.get(url("player", event, entry_id=entry.pk)))
    assert f'href="{url("player", event, entry_id=entry.pk)}"' in text(
        client.get(url("seating", event, number=2))
    )


def test_a_player_not_seated_in_the_newest_round_is_told_so(client, event, make_entries):
    entry = make_entries(event, ["Zed"])["Zed"]
    assert "no round is seated yet" in text(client.get(url("player_seat", event, entry_id=entry.pk)))
    other = Entry.objects.exclude(event=event).first()
    assert other is None or client.get(url("player_seat", event, entry_id=other.pk)).status_code == 404


def test_the_standings_open_at_the_followed_players_page(client, closed_round_then_seated):
    event = closed_round_then_seated.event
    last = Entry.objects.get(event=event, player__name="Fay Hall")
    rows = lambda response: re.findall(r'<tr data-entry="(\d+)"', response.content.decode())  # noqa: E731
    first_page = rows(client.get(url("standings", event) + "?per_page=4"))
    assert len(first_page) == 4 and str(last.pk) not in first_page
    followed = rows(client.get(url("standings", event) + f"?per_page=4&follow={last.pk}"))
    assert str(last.pk) in followed and len(followed) == 4
