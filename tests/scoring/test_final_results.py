"""Final results (issue 21, item 3): a closed round's results are provisional for the event's correction
period, then final — recorded and audited — and every standings surface says which (page, projector,
PDF, export, player page, command) for every game; an appeal lodged within the period holds them; a
correction after that is an organiser's, with a reason, and shown; ratings and seasons count final
results only; an archive carries it; stored pages expire at the moment a round becomes final."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone
from pypdf import PdfReader

from adjudication.archive.export import event_export
from adjudication.engine.british_simulator import simulate_british_sheet
from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.models import Event, GameSet, Round
from scoring.selectors import standings_view
from scoring.selectors.ratings import closed_rounds
from scoring.services.closing import round_is_final
from tests.conftest import deadline_words
from tests.scoring.test_round_closing import nine, text_of

FOUR = ("Ann", "Bob", "Cy", "Dee")


@pytest.fixture
def clock(monkeypatch):
    """A clock the test moves: `clock.move(minutes=31)`; everything that asks timezone.now() sees it."""
    real = timezone.now

    class Clock:
        offset = timedelta()

        def move(self, **delta):
            self.offset += timedelta(**delta)

    moved = Clock()
    monkeypatch.setattr(timezone, "now", lambda: real() + moved.offset)
    return moved


def closed_night(event, round1, make_table, play_set):
    play_set(make_table(round1, FOUR), nine({"Ann": 100, "Bob": 50, "Cy": 200, "Dee": 250}))
    round1.refresh_from_db()
    assert round1.closed_at is not None
    return round1


# --- provisional, then final ---------------------------------------------------------------------


def test_a_closed_round_is_provisional_for_the_period_then_final(
    client, clock, event, round1, make_table, play_set
):
    rnd = closed_night(event, round1, make_table, play_set)
    assert rnd.final_at == rnd.closed_at + timedelta(minutes=30)
    closing = AuditEntry.objects.get(action="kalooki.round.closed")
    assert closing.after["final_at"] and closing.after["correction_minutes"] == 30
    until = f"provisional until {deadline_words(rnd.final_at)}"
    view = standings_view(event)
    assert view.scope.results_words() == f"results {until}"
    page = client.get(f"/e/{event.slug}/standings/")
    assert f"Results {until}" in text_of(page)
    etag = page["ETag"]
    # A page stored before the deadline is not served after it, nor is a 304 answered for it.
    assert client.get(f"/e/{event.slug}/standings/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    clock.move(minutes=31)
    after = client.get(f"/e/{event.slug}/standings/", HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert "Results final" in text_of(after) and "provisional until" not in text_of(after)
    assert standings_view(event).scope.is_final()


def test_a_period_of_nothing_is_final_at_once(event, round1, make_table, play_set):
    services.event_update(event=event, user=None, correction_minutes=0)
    rnd = closed_night(event, round1, make_table, play_set)
    assert rnd.final_at == rnd.closed_at
    assert standings_view(event).scope.results_words() == "results final"


# --- an appeal within the period ------------------------------------------------------------------


def test_an_appeal_within_the_period_holds_the_results_until_decided(
    clock, event, round1, make_table, play_set, director
):
    rnd = closed_night(event, round1, make_table, play_set)
    game_set = GameSet.objects.get(table__round=rnd)
    deal = game_set.deals.get(number=1)
    ruling = Ruling.objects.create(
        deal=deal,
        game_set=game_set,
        deal_number=1,
        entry=deal.results.get(entry__player__name="Bob").entry,
        kind=Ruling.Kind.OTHER,
        points=10,
        reason="slow play",
    )
    services_appeal(ruling, director)
    rnd.refresh_from_db()
    assert rnd.final_at is None
    assert AuditEntry.objects.filter(action="kalooki.round.final_held").exists()
    words = standings_view(event).scope.results_words()
    assert words.startswith("results provisional until") and "appeal" in words
    clock.move(minutes=45)  # past the period: still provisional, the appeal is not decided
    assert not standings_view(event).scope.is_final()
    assert not closed_rounds().filter(pk=rnd.pk).exists()
    from adjudication.services import ruling_decide

    ruling.refresh_from_db()
    ruling_decide(ruling=ruling, user=director, decision=Ruling.Status.UPHELD, reason="seen on video")
    rnd.refresh_from_db()
    assert rnd.final_at is not None and round_is_final(rnd)
    assert standings_view(event).scope.results_words() == "results final"
    assert closed_rounds().filter(pk=rnd.pk).exists()


def services_appeal(ruling, user):
    from adjudication.services import ruling_appeal

    ruling_appeal(ruling=ruling, user=user, reason="it was not slow")


# --- a correction after the results were final ----------------------------------------------------


def test_a_correction_after_final_needs_an_organiser_and_is_shown(
    clock, event, round1, make_table, play_set, director, django_user_model
):
    rnd = closed_night(event, round1, make_table, play_set)
    clock.move(minutes=31)
    game_set = GameSet.objects.get(table__round=rnd)
    with pytest.raises(Exception, match="only an organiser may reopen a set of it"):
        services.set_reopen(game_set=game_set, user=director, reason="Bob's deal 4")
    organiser = django_user_model.objects.create_user("organiser", password="pw-organiser-1")
    services.grant_organiser(organiser)
    organiser = django_user_model.objects.get(pk=organiser.pk)  # permissions read afresh
    services.set_reopen(game_set=game_set, user=organiser, reason="Bob's deal 4 was 40, not 14")
    rnd.refresh_from_db()
    assert rnd.corrected_after_final_at is not None and round_is_final(rnd)
    entry = AuditEntry.objects.get(action="kalooki.round.corrected_after_final")
    assert entry.reason == "Bob's deal 4 was 40, not 14"
    words = standings_view(event).scope.results_words()
    assert words == "results final (round 1 corrected after the results were final)"


# --- every surface, every game ---------------------------------------------------------------------


def british_night(make_event, director, preset: str, *, names=("Ann", "Bob", "Cy"), **fields):
    event = make_event(ruleset_preset=preset, format=Event.Format.PLACEMENT, **fields)
    for name in names:
        services.entry_add(event=event, user=director, name=name)
    rnd = services.round_create(event=event, user=director)
    services.round_seat(round=rnd, user=director, seed=7)
    services.round_publish(round=rnd, user=director)
    game_set = GameSet.objects.get(table__round=rnd)
    seated = [seat.entry.player.name for seat in game_set.table.seats.order_by("position")]
    rules = event.ruleset()
    simulate = simulate_british_sheet if preset == "british" else simulate_north_american_sheet
    sheet = simulate(11, seated, rules=rules)
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
    rnd.refresh_from_db()
    assert rnd.closed_at is not None
    return event, rnd


@pytest.mark.parametrize("game", ["jamaican", "british", "north-american"])
def test_every_standings_surface_says_provisional_then_final(
    client, clock, game, event, round1, make_table, play_set, make_event, director
):
    if game == "jamaican":
        rnd = closed_night(event, round1, make_table, play_set)
    else:
        extra = {"rules_overrides": {"hands": 6}} if game == "north-american" else {}
        event, rnd = british_night(make_event, director, game, slug=f"night-{game}", **extra)
    slug = event.slug
    until = f"provisional until {deadline_words(rnd.final_at)}"
    entry_id = rnd.seats.first().entry_id

    def surfaces() -> dict[str, str]:
        pdf = client.get(f"/e/{slug}/pdf/standings.pdf")
        exported = client.get(f"/e/{slug}/standings/?_export=csv").content.decode("utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(exported)))
        out = io.StringIO()
        from django.core.management import call_command

        call_command("standings", slug, stdout=out, stderr=io.StringIO())
        return {
            "page": text_of(client.get(f"/e/{slug}/standings/")),
            "projector": text_of(client.get(f"/e/{slug}/projector/")),
            "player": text_of(client.get(f"/e/{slug}/p/{entry_id}/")),
            "pdf": " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages),
            "export": " ".join({row[next(k for k in row if k.lower() == "results")] for row in rows}),
            "command": out.getvalue(),
        }

    for surface, text in surfaces().items():
        assert until in text, (surface, text[:600])
    clock.move(minutes=31)
    for surface, text in surfaces().items():
        assert "final" in text.lower() and until not in text, (surface, text[:600])


# --- seasons and ratings count final results only ---------------------------------------------------


def test_seasons_and_ratings_count_a_round_once_it_is_final(clock, event, round1, make_table, play_set):
    from scoring.selectors.ratings import event_places, ratings_fingerprint

    rnd = closed_night(event, round1, make_table, play_set)
    event.refresh_from_db()
    assert not closed_rounds().filter(pk=rnd.pk).exists()
    assert event_places([event])[0].rows == []  # the season's points wait for final results
    before = ratings_fingerprint(None)
    clock.move(minutes=31)
    assert closed_rounds().filter(pk=rnd.pk).exists()
    assert [row[2] for row in event_places([event])[0].rows] == [1, 2, 3, 4]
    assert ratings_fingerprint(None) != before  # the stored list is computed again


# --- the archive carries it ------------------------------------------------------------------------


def test_an_archive_carries_the_period_and_each_rounds_finality(clock, event, played):
    from adjudication.archive import event_import

    event = services.event_update(event=event, user=None, correction_minutes=45)
    services.set_verify(game_set=played, user=None)
    rnd = Round.objects.get(pk=played.table.round_id)
    data = event_export(event=event, audit=False)
    assert data["event"]["correction_minutes"] == 45
    assert data["rounds"][0]["final_at"] == rnd.final_at.isoformat()
    event_import(data=data, user=None, slug="copy-provisional")
    copy = Round.objects.get(event__slug="copy-provisional", number=1)
    assert copy.final_at == rnd.final_at and not round_is_final(copy)
    again = event_export(event=Event.objects.get(slug="copy-provisional"), audit=False)
    assert again["rounds"] == data["rounds"] and again["event"]["correction_minutes"] == 45
    # An archive that says nothing of it (an older one): its closed rounds are final.
    del data["rounds"][0]["final_at"]
    event_import(data=data, user=None, slug="copy-final")
    copy = Round.objects.get(event__slug="copy-final", number=1)
    assert round_is_final(copy) and copy.final_at == copy.closed_at
    assert "final_at" not in event_export(event=copy.event, audit=False)["rounds"][0]
    # Null: held by an appeal or a correction.
    data["rounds"][0]["final_at"] = None
    event_import(data=data, user=None, slug="copy-held")
    assert Round.objects.get(event__slug="copy-held", number=1).final_at is None
    data["rounds"][0]["final_at"] = "half past nine"
    with pytest.raises(Exception, match=r"rounds\[0\]\.final_at"):
        event_import(data=data, user=None, slug="copy-bad")
