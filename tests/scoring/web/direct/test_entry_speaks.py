"""The entry desk speaks only when it should (issue 21, item 4): a line's findings appear once the line
is typed (or on save), "saved" and "reopen" say what happened, a refused form gets its message and the
focus, and a director lands on the event they direct with the latest activity."""

from __future__ import annotations

import copy

from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult, GameSet
from tests.conftest import load_json, renamed_sheet
from tests.scoring.test_entry_views import form_data, record_all, table_url, text


def check(client, game_set, data) -> str:
    response = client.post(table_url(game_set, "direct_validate"), data)
    assert response.status_code == 200
    return text(response)


# --- a line's findings once it is typed ------------------------------------------------------------


def test_lines_not_typed_yet_have_no_findings_in_the_live_check(as_director, game_set):
    # Ann went out and Bob's line is typed; Cy's and Dee's are not typed yet, nor is Ann's calls field.
    deal = {"deal": 1, "out": "Ann", "dealer": "Ann", "results": {"Bob": {"calls": 0, "penalty": 40}}}
    html = check(as_director, game_set, form_data(deal))
    assert "has no result" not in html
    assert "must be doubled" not in html
    # Typed, a line is checked at once: Ann's 0 calls without "doubled" is the rule's finding now.
    deal["results"]["Ann"] = {"calls": 0}
    assert "must be doubled" in check(as_director, game_set, form_data(deal))


def test_on_save_every_line_is_checked_typed_or_not(as_director, game_set):
    deal = {"deal": 1, "out": "Ann", "dealer": "Ann", "results": {"Bob": {"calls": 0, "penalty": 40}}}
    response = as_director.post(table_url(game_set), form_data(deal), follow=True)
    html = text(response)
    assert "Cy has no result in deal 1" in html


# --- "saved" and "reopen" say what happened ---------------------------------------------------------


def test_a_clean_deal_after_a_deal_with_an_error_is_saved_not_a_draft(as_director, game_set, example_sheet):
    first = copy.deepcopy(example_sheet["deals"][0]) | {"dealer": "Ann"}
    first["results"]["Bob"]["total"] = 51
    html = text(as_director.post(table_url(game_set), form_data(first), follow=True))
    assert "Deal 1 saved as a draft: 1 error finding on it to settle." in html
    # Deal 2 as the paper has it: its totals are the running sums of the scores, so it is clean.
    second = copy.deepcopy(example_sheet["deals"][1])
    html = text(as_director.post(table_url(game_set), form_data(second, set_version=2), follow=True))
    assert "Deal 2 saved as a draft" not in html
    assert "Deal 2 saved, no findings on it; the set still has 1 error finding on deal 1." in html


def test_reopening_says_whether_the_set_keeps_counting(as_director, game_set, make_table, example_sheet):
    other = make_table(game_set.table.round, ("Eve", "Fay", "Gus", "Hal"))
    record_all(game_set, None, example_sheet)
    services.set_verify(game_set=game_set, user=None)
    version = GameSet.objects.get(pk=game_set.pk).version
    reopen = {"version": version, "reason": "Bob's deal 4 misread"}
    html = text(as_director.post(table_url(game_set, "direct_reopen"), reopen, follow=True))
    # Round 1 is still open (table 2 plays on): the set leaves the round's verified results.
    assert "leaves the verified results of round 1 until it is verified again" in html
    assert "keeps counting" not in html
    services.set_verify(game_set=game_set, user=None)
    renamed = renamed_sheet(example_sheet, ("Eve", "Fay", "Gus", "Hal"))
    record_all(other, None, renamed)
    services.set_verify(game_set=other, user=None)
    version = GameSet.objects.get(pk=game_set.pk).version
    reopen = {"version": version, "reason": "Cy's deal 2 misread"}
    html = text(as_director.post(table_url(game_set, "direct_reopen"), reopen, follow=True))
    assert "round 1 is closed, so the set keeps counting as it stands in every view" in html
    assert "“being corrected”" in html


# --- where a log-in lands -------------------------------------------------------------------------


def test_a_director_lands_on_the_event_with_the_latest_activity(client, director, event, make_event):
    # Two events of the same day: "Alpha" comes first by name, "Zulu" is the one being run.
    alpha = make_event(name="Alpha Night", slug="alpha-night", date_start=event.date_start)
    zulu = make_event(name="Zulu Night", slug="zulu-night", date_start=event.date_start)
    for each in (alpha, zulu):
        each.directors.add(director)
    services.entry_add(event=alpha, user=director, name="Ann")
    services.entry_add(event=zulu, user=director, name="Bob")
    client.force_login(director)
    response = client.get(reverse("scoring:desk"))
    assert response.url == reverse("scoring:direct", kwargs={"slug": "zulu-night"})
    services.entry_add(event=alpha, user=director, name="Cy")
    assert client.get(reverse("scoring:desk")).url == reverse(
        "scoring:direct", kwargs={"slug": "alpha-night"}
    )


# --- the later totals re-added after a score is corrected -------------------------------------------


def test_one_confirmed_action_re_adds_the_later_totals_after_a_corrected_score(as_director, played):
    deal_two = Deal.objects.get(game_set=played, number=2)
    correction = copy.deepcopy(load_json("example-sheet.json")["deals"][1]) | {"dealer": "Bob"}
    correction["results"]["Bob"] |= {"penalty": 81, "total": 96}
    data = form_data(correction, version=deal_two.version, sequence=2, reason="Bob's 71 was 81")
    html = text(as_director.post(table_url(played, "direct_deal", sequence=2), data, follow=True))
    # Every later total of Bob's was added from the old 71: seven totals now differ by 10.
    assert "7 written totals differ from the sum of the scores" in html
    assert "Deal 3, Bob: written 282, the scores add up to 292" in html
    played.refresh_from_db()
    url = table_url(played, "direct_totals_readd")
    refused = as_director.post(url, {"version": played.version})
    assert refused.status_code == 400
    assert "Confirm that the written totals are re-added from the scores (7)." in text(refused)
    assert b"data-refused" in refused.content
    response = as_director.post(url, {"version": played.version, "confirm": "on"}, follow=True)
    readded = (
        "7 written totals re-added from the scores (deals 3, 4, 5, 6, 7, 8, 9; recorded in the history)."
    )
    assert readded in text(response)
    played.refresh_from_db()
    assert played.error_count == 0
    bob = DealResult.objects.filter(deal__game_set=played, entry__player__name="Bob").order_by("deal__number")
    assert [row.total_written for row in bob][2:4] == [292, 332]
    entry = AuditEntry.objects.get(action="kalooki.set.totals_readded")
    assert entry.before["3"] == {"Bob": 282} and entry.after["3"] == {"Bob": 292}
    # A second press finds nothing to re-add and says so; a stale page is refused.
    again = as_director.post(url, {"version": played.version, "confirm": "on"})
    assert again.status_code == 400 and "nothing to re-add" in text(again)
    assert as_director.post(url, {"version": 1, "confirm": "on"}).status_code == 409
