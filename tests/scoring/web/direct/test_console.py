"""The director's console (issue 24): every table of a round in one state, the results waiting for the
director in the page and its title, the next step once the round is complete; for every game. And the
"what can go wrong" page with its fallback pack (the seating lists and every blank sheet, one PDF)."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.engine.rules import ruleset_from
from scoring import services
from scoring.models import BackgroundJob, SelfEntryDeal
from scoring.selectors.console import round_console
from scoring.services import self_entry as self_entry_service
from tests.scoring.game_seam_support import GAME_TO_BOB, THREE, record_hands, verify_game

NAMES = [("Ann", "Bob", "Cy", "Dee")] + [tuple(f"{c}{n}" for c in "PQRS") for n in range(2, 7)]


def url(name, event, **kwargs):
    return reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def phone_entry(game_set, status) -> SelfEntryDeal:
    key = self_entry_service.table_keys_ensure(tables=[game_set.table])[game_set.table_id]
    return SelfEntryDeal.objects.create(
        game_set=game_set,
        key=key,
        number=1,
        data={"deal": 1},
        idempotency_key=f"k-{game_set.pk}-{status}",
        set_version=game_set.version,
        status=status,
        entered_seat=1,
        entered_device="phone",
    )


@pytest.fixture
def busy_round(round1, make_table, director, example_sheet, rename_sheet):
    """Round 1 with a table in every state: 1 verified, 2 ready to verify, 3 a deal waiting for a seat,
    4 a finding to settle, 5 a deal waiting for the director, 6 playing (no deal yet)."""
    sets = [make_table(round1, names) for names in NAMES[:6]]
    for game_set in sets[:2]:
        services.sheet_import(
            game_set=game_set, user=director, data=rename_sheet(example_sheet, NAMES[sets.index(game_set)])
        )
    sets[0].refresh_from_db()
    services.set_verify(game_set=sets[0], user=director, expected_version=sets[0].version)
    phone_entry(sets[2], SelfEntryDeal.Status.WAITING)
    names = NAMES[3]
    services.deal_record(
        game_set=sets[3],
        user=director,
        data={"deal": 1, "out": names[0], "results": {names[0]: {"penalty": 0}, names[1]: {"penalty": 0}}},
    )
    phone_entry(sets[4], SelfEntryDeal.Status.QUEUED)
    return round1


def test_each_table_shows_its_state_and_the_waiting_results_count(
    busy_round, as_director, django_assert_max_num_queries
):
    with django_assert_max_num_queries(4):
        console = round_console(busy_round)
    assert [table.state for table in console.tables] == [
        "verified",
        "verify",
        "confirm",
        "settle",
        "confirm",
        "playing",
    ]
    # Waiting for the director: the set to verify, the set to settle, the deal from table 5's phones.
    assert console.waiting == 3
    assert (console.tables[2].at_table, console.tables[4].for_director) == (1, 1)
    assert console.counts == {"verified": 1, "verify": 1, "confirm": 2, "settle": 1, "playing": 1}
    assert not console.complete

    html = text(as_director.get(url("direct_console", busy_round.event, number=1)))
    assert re.search(r"<title>\(3\) Round 1 console", html)
    assert "3 results waiting for you" in html
    for words in ("Findings to settle", "Waiting for confirmation", "Ready to verify", "Playing", "Verified"):
        assert words in html
    assert 'data-state="settle"' in html and "1 for you" in html and "1 at the table" in html
    assert "round complete" not in html.lower()
    assert "data-console-chime" in html


def test_a_complete_round_offers_the_next_one_step_by_step(
    game_set, as_director, director, example_sheet, make_entries
):
    event = game_set.table.round.event
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    game_set.refresh_from_db()
    console_url = url("direct_console", event, number=1)
    assert "1 result waiting for you" in text(as_director.get(console_url))
    services.set_verify(game_set=game_set, user=director, expected_version=game_set.version)

    html = text(as_director.get(console_url))
    assert "<title>Round 1 console" in html and "Nothing waits for you" in html
    assert "Round 1 complete — every table is verified." in html
    assert "Add round 2</button>" in html
    services.round_create(event=event, user=director)
    assert "Seat round 2</a>" in text(as_director.get(console_url))
    services.round_seat(round=event.rounds.get(number=2), user=director, seed=1, method="random")
    # Seated, not public yet: the console offers to publish it once reviewed.
    html = text(as_director.get(console_url))
    assert "Round 2 is seated, not public yet" in html and "Publish round 2</button>" in html
    as_director.post(url("direct_round_publish", event, number=2), {"next": console_url})
    html = text(as_director.get(console_url))
    assert f'href="{url("direct_console", event, number=2)}"' in html
    assert "Round 2 is not seated" not in text(as_director.get(url("direct_console", event, number=2)))


def test_a_round_not_seated_says_so(round1, as_director):
    html = text(as_director.get(url("direct_console", round1.event, number=1)))
    assert "Round 1 is not seated yet" in html
    assert as_director.get(url("direct_console", round1.event, number=9)).status_code == 404


def test_a_british_and_a_north_american_table_go_from_playing_to_verified(make_event, make_table, director):
    british = make_event(ruleset_preset="british-swedish", format="placement")
    game = make_table(services.round_create(event=british, user=director), THREE)
    record_hands(game, director, GAME_TO_BOB[:1])
    assert round_console(game.table.round).tables[0].state == "playing"
    record_hands(game, director, GAME_TO_BOB[1:])
    assert round_console(game.table.round).tables[0].state == "verify"
    verify_game(game, director)
    assert round_console(game.table.round).complete

    five = ("Ann", "Bob", "Cy", "Dee", "Eve")
    kaluki = make_event(ruleset_preset="north-american", rules_overrides={"hands": 4}, format="placement")
    game = make_table(services.round_create(event=kaluki, user=director), five)
    sheet = simulate_north_american_sheet(
        7, five, rules=ruleset_from("north-american", {"hands": 4}), dealers=False
    )
    record_hands(game, director, sheet["deals"][:2])
    assert round_console(game.table.round).tables[0].state == "playing"
    record_hands(game, director, sheet["deals"][2:])
    assert round_console(game.table.round).tables[0].state == "verify"
    verify_game(game, director)
    console = round_console(game.table.round)
    assert console.complete and console.waiting == 0


def test_what_can_go_wrong_prints_the_fallback_pack_in_one_click(played, as_director, client):
    event = played.table.round.event
    html = text(as_director.get(url("direct_what_can_go_wrong", event)))
    for heading in (
        "The laptop dies",
        "The printer fails",
        "The venue's network drops",
        "A table sat wrong",
        "Two sheets for one table",
    ):
        assert heading in html
    pack_url = url("pdf_round_fallback", event, number=1)
    assert f'href="{pack_url}"' in html
    response = as_director.get(pack_url)
    assert response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    # The seating by name, the seating by table, then table 1's blank sheet (nothing recorded on it).
    words = [" ".join(page.extract_text().split()) for page in pages]
    assert "Round 1 seating — by name" in words[0]
    assert any("Round 1 seating — by table" in page for page in words[:2])
    assert "Ann" in words[-1] and "Table 1" in words[-1]
    assert pages[-1].mediabox.width > pages[-1].mediabox.height  # a set's sheet is landscape
    assert pages[0].mediabox.width < pages[0].mediabox.height


def test_a_big_rounds_fallback_pack_is_made_by_the_worker(played, as_director, monkeypatch, decode_qr):
    from scoring import background

    event = played.table.round.event
    monkeypatch.setitem(background.THRESHOLDS, BackgroundJob.Kind.ROUND_PACK, 0)
    html = text(as_director.get(url("direct_what_can_go_wrong", event)))
    assert "Prepare round 1's fallback pack" in html
    # The queued task runs at commit (never here, in the test's transaction): the worker's part is run below.
    as_director.post(url("direct_job_round_pack", event, number=1), {"fallback": "1"})
    job = BackgroundJob.objects.get(event=event)
    assert job.params == {"round": 1, "completed": False, "fallback": True, "base_url": "http://testserver"}
    from scoring.services.jobs import job_run

    job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "done" and job.filename.endswith("-r1-fallback-pack.pdf")
    pdf = bytes(job.result)
    assert len(PdfReader(io.BytesIO(pdf)).pages) >= 3
    # The blank sheet carries its table's QR code, addressed as the page that asked for the pack.
    [address] = decode_qr(pdf)
    assert address.startswith("http://testserver/")
