"""North American Kaluki through the games seam: its event, hands recorded one by one and as a whole
sheet, verifying, the finishing order (highest total first, NA6) and its standings, with nothing in
scoring/ but its `Game` (and a result field for what the winner collected)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.engine.rules import ruleset_from
from adjudication.models import AuditEntry
from scoring import selectors, services
from scoring.games import NORTH_AMERICAN, game_of
from scoring.models import GameSet
from scoring.sheets import sheet_for_set

pytestmark = pytest.mark.django_db
FIVE = ("Ann", "Bob", "Cy", "Dee", "Eve")
HANDS = 4


@pytest.fixture
def na_event(make_event):
    return make_event(
        name="Kaluki night",
        slug="kaluki-night",
        ruleset_preset="north-american",
        rules_overrides={"hands": HANDS},
        format="placement",
    )


@pytest.fixture
def na_game(na_event, director, make_table):
    rnd = services.round_create(event=na_event, user=director)
    return make_table(rnd, FIVE)


def simulated(seed: int = 7, hands: int | None = None) -> dict:
    rules = ruleset_from("north-american", {"hands": HANDS})
    return simulate_north_american_sheet(seed, FIVE, rules=rules, hands=hands, dealers=False)


def test_the_event_plays_the_north_american_game(na_event):
    assert game_of(na_event) is NORTH_AMERICAN
    assert na_event.game.unit == "game" and na_event.game.deal_word == "hand"


def test_a_cumulative_north_american_event_is_refused(make_event):
    with pytest.raises(ValidationError, match="North American Kaluki event cannot be cumulative"):
        make_event(ruleset_preset="north-american", rules_overrides={"hands": 3}, format="cumulative")


def test_hands_recorded_one_by_one_make_the_simulated_game(na_game, director):
    sheet = simulated()
    for hand in sheet["deals"]:
        outcome = services.deal_record(game_set=na_game, user=director, data=hand)
        assert not outcome.errors, outcome.errors
    stored = sheet_for_set(na_game)
    assert [hand["deal"] for hand in stored["deals"]] == [hand["deal"] for hand in sheet["deals"]]
    for typed, kept in zip(sheet["deals"], stored["deals"], strict=True):
        assert kept.get("out") == typed.get("out")
        for name, line in typed.get("results", {}).items():
            assert kept["results"][name]["penalty"] == line["penalty"]
            assert kept["results"][name].get("collected") == line.get("collected")
    assert AuditEntry.objects.filter(action="kalooki.hand.recorded").count() == len(sheet["deals"])


def test_a_hand_past_the_games_hands_is_refused_once_it_is_over(na_game, director):
    sheet = simulated()
    services.sheet_import(game_set=na_game, user=director, data=sheet)
    with pytest.raises(ValidationError, match="all its 4 hands are scored"):
        services.deal_record(
            game_set=na_game, user=director, data={"out": "Ann", "results": {n: {} for n in FIVE}}
        )


def test_a_blank_collected_is_the_others_penalties(na_game, director):
    hand = {
        "deal": 1,
        "out": "Cy",
        "results": {"Ann": {"penalty": 41}, "Bob": {"penalty": 47}, "Cy": {}, "Dee": {"penalty": 60},
                    "Eve": {"penalty": 22}},
    }  # fmt: skip
    services.deal_record(game_set=na_game, user=director, data=hand)
    page = selectors.british_games.british_game_page(na_game)
    cy = next(cell for cell in page.rows[0].cells if cell.player == "Cy")
    assert cy.collected == 170 and cy.total == 170
    assert next(seat for seat in page.seats if seat.player == "Cy").total == 170


def test_a_finished_game_verifies_and_ranks_highest_total_first(na_game, na_event, director):
    services.sheet_import(game_set=na_game, user=director, data=simulated())
    na_game.refresh_from_db()
    services.set_verify(game_set=na_game, user=director, expected_version=na_game.version)
    na_game.refresh_from_db()
    assert na_game.status == GameSet.Status.VERIFIED
    page = selectors.british_games.british_game_page(na_game)
    totals = {seat.player: seat.total for seat in page.seats}
    order = [item.player for item in page.order]
    assert [totals[name] for name in order] == sorted(totals.values(), reverse=True)
    rows = selectors.standings_view(na_event, provisional=True).rows
    assert rows[0]["player"] == order[0]
    assert "collected" in rows[0] and "penalty" not in rows[0]
    assert {row["player"]: row["collected"] for row in rows} == totals
    assert selectors.standings_fields(na_event)[-1] == "collected"


def test_a_running_game_is_ended_only_with_a_reason(na_game, director):
    for hand in simulated(hands=2)["deals"]:
        services.deal_record(game_set=na_game, user=director, data=hand)
    na_game.refresh_from_db()
    with pytest.raises(ValidationError, match="still running"):
        services.set_verify(game_set=na_game, user=director, expected_version=na_game.version)
    services.set_verify(
        game_set=na_game,
        user=director,
        expected_version=na_game.version,
        override_reason="Time called",
        acknowledge_warnings=True,
    )
    assert AuditEntry.objects.filter(action="kalooki.game.ended").count() == 1


PAGES = (
    ("scoring:event", ()),
    ("scoring:standings", ()),
    ("scoring:round", (1,)),
    ("scoring:table", (1, 1)),
    ("scoring:projector", ()),
    ("scoring:direct", ()),
    ("scoring:direct_table", (1, 1)),
    ("scoring:pdf_table_blank", (1, 1)),
    ("scoring:pdf_table_sheet", (1, 1)),
    ("scoring:pdf_round_sheets", (1,)),
    ("scoring:pdf_seating", (1,)),
    ("scoring:pdf_standings", ()),
)


@pytest.mark.parametrize(("name", "args"), PAGES)
def test_every_page_of_a_north_american_event_answers(name, args, na_game, na_event, as_director, director):
    services.sheet_import(game_set=na_game, user=director, data=simulated())
    response = as_director.get(reverse(name, args=[na_event.slug, *args]))
    assert response.status_code == 200


def test_the_players_page_and_the_public_table_show_what_was_collected(na_game, na_event, client, director):
    services.sheet_import(game_set=na_game, user=director, data=simulated())
    page = selectors.british_games.british_game_page(na_game)
    winner = page.order[0]
    table = client.get(reverse("scoring:table", args=[na_event.slug, 1, 1])).content.decode()
    assert winner.player in table and str(winner.total) in table
    entry = na_event.entries.get(player__name=winner.player)
    player = client.get(reverse("scoring:player", args=[na_event.slug, entry.pk]))
    assert player.status_code == 200
    text = player.content.decode()
    assert f"Collected {winner.total} over the game's hands." in text and "Hand value" in text


def hand_post(hand: dict, *, set_version: int) -> dict[str, str]:
    """A North American hand as the director's form posts it (seat-numbered lines)."""
    post = {"deal": str(hand["deal"]), "out": hand.get("out") or "", "set_version": str(set_version)}
    for seat, name in enumerate(FIVE, start=1):
        line = hand.get("results", {}).get(name, {})
        post[f"s{seat}-penalty"] = str(line.get("penalty", ""))
        if "collected" in line:
            post[f"s{seat}-collected"] = str(line["collected"])
    if hand.get("void"):
        post["void"] = "on"
    return post


def test_a_director_enters_a_north_american_game_through_the_page_to_its_winner(
    na_game, na_event, as_director
):
    url = reverse("scoring:direct_table", args=[na_event.slug, 1, 1])
    page = as_director.get(url).content.decode()
    # The form follows the game: no buy-ins or kalookie, the winner's take instead.
    assert 'name="s1-collected"' in page and "s1-buy_in" not in page and 'name="kalookie"' not in page
    for hand in simulated()["deals"]:
        na_game.refresh_from_db()
        response = as_director.post(url, hand_post(hand, set_version=na_game.version))
        assert response.status_code == 302, response.content.decode()[:3000]
    game = selectors.british_games.british_game_page(na_game)
    assert game.state.over and not game.errors
    page = as_director.get(url).content.decode()
    assert "The game is over: its 4 hands are scored" in page
    na_game.refresh_from_db()
    verify = reverse("scoring:direct_verify", args=[na_event.slug, 1, 1])
    response = as_director.post(verify, {"version": str(na_game.version)})
    assert response.status_code == 302
    na_game.refresh_from_db()
    assert na_game.status == GameSet.Status.VERIFIED
    rows = selectors.standings_view(na_event, round_number=1).rows
    assert rows[0]["player"] == game.order[0].player


def test_the_standings_page_and_its_csv_show_what_each_collected(na_game, na_event, client, director):
    services.sheet_import(game_set=na_game, user=director, data=simulated())
    url = reverse("scoring:standings", args=[na_event.slug]) + "?provisional=1"
    page = client.get(url).content.decode()
    assert "Collected" in page and "Penalties" not in page
    csv = client.get(url + "&_export=csv").content.decode("utf-8-sig")
    # The export is headed in the page's words.
    assert csv.splitlines()[0].endswith(",Collected,Results") and "Penalties" not in csv


def test_a_new_hand_must_be_the_one_due(na_game, director):
    hand = dict(simulated()["deals"][0], deal=3)
    with pytest.raises(ValidationError, match="Hand 1 is due next, not hand 3"):
        services.deal_record(game_set=na_game, user=director, data=hand)
    assert not na_game.deals.exists()


SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]+)</word>')


def headings_past_their_column(pdf: bytes, players: tuple[str, ...]) -> list[str]:
    """Each "Collected" heading of page 1's grid whose right end is past its player's block: the block's
    centre is that of the player's name above it (centred), its width the distance between two names'
    centres."""
    found = subprocess.run(
        ["pdftotext", "-bbox", "-f", "1", "-l", "1", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    words = [(float(x0), float(y0), float(x1), text) for x0, y0, x1, text in WORD.findall(found)]
    top = min(y0 for _, y0, _, text in words if text == "Collected")
    headings = [(x0, y0, x1) for x0, y0, x1, text in words if text == "Collected" and y0 < top + 1]
    assert len(headings) == len(players), found
    names = {text: (x0 + x1) / 2 for x0, y0, x1, text in words if text in players and top - 60 < y0 < top}
    centres = [names[player] for player in players]
    half = (centres[1] - centres[0]) / 2
    return [
        f"{player}: ends at {x1:.1f}, the column at {centre + half:.1f}"
        for player, centre, (_, _, x1) in zip(players, centres, headings, strict=True)
        if x1 > centre + half
    ]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_the_collected_heading_stays_in_its_column_on_a_sheet_of_six(
    na_event, as_director, director, make_table
):
    """The longest sub-heading of the sheet, at the most players a table has: blank and completed."""
    game = make_table(services.round_create(event=na_event, user=director), SIX)
    blank = as_director.get(reverse("scoring:pdf_table_blank", args=[na_event.slug, 1, 1])).content
    assert headings_past_their_column(blank, SIX) == []
    rules = ruleset_from("north-american", {"hands": HANDS})
    sheet = simulate_north_american_sheet(7, SIX, rules=rules, dealers=False)
    services.sheet_import(game_set=game, user=director, data=sheet)
    completed = as_director.get(reverse("scoring:pdf_table_sheet", args=[na_event.slug, 1, 1])).content
    assert headings_past_their_column(completed, SIX) == []
