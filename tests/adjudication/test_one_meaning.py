"""R17/R18 on the sheet: one meaning (docs/RULES.md). An over-call or a contract error counts once
whichever way it is recorded — the mark on the line at entry, or a ruling issued afterwards from the
rulings page, which asks whether the written score already includes the points (the rules giving
the default) and says in its audit entry which; overturning it takes back exactly what issuing did.

The table: the shared example sheet, with Bob's deal 2 written as 4 calls and 71 points (the paper's
score, 21 in hand plus the over-call's 50 as the printed key says). The contract error is ruled on
Bob's deal 3 (doubled, 196 written: 73 in hand doubled, plus 50).
"""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from adjudication import services as rulings
from adjudication.models import AuditEntry, Ruling
from scoring import services, sheets
from scoring.models import DealResult
from scoring.selectors import standings_view

pytestmark = pytest.mark.django_db

PENALTY = 50
WRITTEN = 71  # Bob's deal 2 as the table wrote it
# Each infraction's line of Bob's: (deal, written score).
LINES = {"overcall": (2, WRITTEN), "contract_error": (3, 196)}


@pytest.fixture
def over_called(game_set, director, example_sheet):
    """The example sheet with Bob's fourth call in deal 2 and no over-call marked."""
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"][1]["results"]["Bob"]["calls"] = 4
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    game_set.refresh_from_db()
    return game_set


def line(game_set, sequence, name) -> DealResult:
    return DealResult.objects.get(deal__game_set=game_set, deal__sequence=sequence, entry__player__name=name)


def bob_totals(game_set) -> list[int | None]:
    return [line(game_set, sequence, "Bob").total_written for sequence in range(1, 10)]


def issued_entry(ruling) -> dict:
    return AuditEntry.objects.get(
        action="kalooki.ruling.issued", object_type="adjudication.ruling", object_id=str(ruling.pk)
    ).after


# --- the finding ----------------------------------------------------------------------------------


def test_the_live_finding_for_a_fourth_call_says_to_mark_the_over_call_on_the_line(over_called):
    (found,) = [item for item in sheets.findings_for_set(over_called) if item.code == "CALL_LIMIT"]
    assert (found.deal, found.player, found.expected, found.found) == (2, "Bob", 3, 4)
    assert "mark the over-call on Bob's line" in found.message
    assert "its 50 points in the written score" in found.message
    assert "ruling" not in found.message


# --- through the service, both ways, both infractions -----------------------------------------------


@pytest.mark.parametrize("kind", ["overcall", "contract_error"])
@pytest.mark.parametrize("included", [True, False], ids=["score-includes", "score-does-not-include"])
def test_a_ruling_counts_its_penalty_once_and_overturning_undoes_exactly_that(
    over_called, director, entries, kind, included
):
    before_totals = bob_totals(over_called)
    sequence, written = LINES[kind]
    deal = over_called.deals.get(sequence=sequence)
    ruling = rulings.ruling_issue(
        deal=deal, entry=entries["Bob"], user=director, kind=kind, score_included=included
    )
    bob = line(over_called, sequence, "Bob")
    assert getattr(bob, kind)
    added = 0 if included else PENALTY
    assert bob.penalty == written + added
    assert bob_totals(over_called) == [
        total if number < sequence else total + added for number, total in enumerate(before_totals, start=1)
    ]
    # The audit entry says which answer was given, and what the rules would have said.
    after = issued_entry(ruling)
    assert after["score_included"] is included
    assert after["penalty"] == written + added
    assert after["score_included_default"] is True

    rulings.ruling_appeal(ruling=ruling, user=director, reason="Recount the calls")
    rulings.ruling_decide(ruling=ruling, user=director, decision="overturned", reason="Recount")
    bob = line(over_called, sequence, "Bob")
    assert not getattr(bob, kind)
    assert bob.penalty == written
    assert bob_totals(over_called) == before_totals
    assert AuditEntry.objects.get(action="kalooki.ruling.overturned").after["points_removed"] is not included


def test_an_over_call_ruled_after_the_deal_agrees_with_the_mark_on_the_line(
    over_called, director, entries, make_table, example_sheet
):
    """Two ways to record one infraction: the same score, the same totals, no findings either way."""
    marked = make_table(over_called.table.round, ["Eve", "Fitz", "Gail", "Hugh"])
    sheet = copy.deepcopy(example_sheet)
    sheet["players"] = ["Eve", "Fitz", "Gail", "Hugh"]
    sheet["first_dealer"] = "Eve"
    names = dict(zip(["Ann", "Bob", "Cy", "Dee"], sheet["players"], strict=True))
    for item in sheet["deals"]:
        item["out"] = names[item["out"]]
        item["results"] = {names[name]: row for name, row in item["results"].items()}
    sheet["deals"][1]["results"]["Fitz"].update(calls=4, overcall=True)
    services.sheet_import(game_set=marked, user=director, data=sheet)

    rulings.ruling_issue(
        deal=over_called.deals.get(sequence=2), entry=entries["Bob"], user=director, kind="overcall"
    )
    ruled = [(row.penalty, row.total_written) for row in DealResult.objects.filter(entry=entries["Bob"])]
    fitz = DealResult.objects.filter(deal__game_set=marked, entry__player__name="Fitz")
    assert ruled == [(row.penalty, row.total_written) for row in fitz]
    assert line(over_called, 2, "Bob").penalty == WRITTEN
    assert sheets.findings_for_set(over_called) == []
    assert sheets.findings_for_set(marked) == []


# --- the rules' default ---------------------------------------------------------------------------


def test_by_default_a_score_that_can_hold_the_points_already_includes_them(over_called, director, entries):
    deal = over_called.deals.get(sequence=2)
    ruling = rulings.ruling_issue(deal=deal, entry=entries["Bob"], user=director, kind="overcall")
    assert ruling.score_included is True
    assert line(over_called, 2, "Bob").penalty == WRITTEN
    assert sheets.findings_for_set(over_called) == []
    assert issued_entry(ruling)["score_included"] is True


def test_by_default_a_score_too_low_to_hold_the_points_does_not_include_them(over_called, director, entries):
    # Cy's deal 2: 11 points, so 11 − 50 is no score: the 50 were not written in.
    deal = over_called.deals.get(sequence=2)
    ruling = rulings.ruling_issue(deal=deal, entry=entries["Cy"], user=director, kind="contract_error")
    assert ruling.score_included is False
    assert line(over_called, 2, "Cy").penalty == 11 + PENALTY


def test_by_default_a_hand_worth_the_written_score_means_the_points_are_not_in_it(
    over_called, director, entries
):
    deal = over_called.deals.get(sequence=2)
    DealResult.objects.filter(deal=deal, entry=entries["Bob"]).update(hand="JK 10H 10S AH")  # worth 71
    ruling = rulings.ruling_issue(deal=deal, entry=entries["Bob"], user=director, kind="overcall")
    assert ruling.score_included is False
    assert line(over_called, 2, "Bob").penalty == WRITTEN + PENALTY
    assert issued_entry(ruling)["score_included_default"] is False


def test_a_sheet_marked_ruling_overturned_leaves_the_written_score(game_set, director, example_sheet):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"][1]["results"]["Bob"].update(calls=4, overcall=True)
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    ruling = Ruling.objects.get(kind="overcall")
    rulings.ruling_appeal(ruling=ruling, user=director, reason="Three calls only")
    rulings.ruling_decide(ruling=ruling, user=director, decision="overturned")
    bob = line(game_set, 2, "Bob")
    assert (bob.overcall, bob.penalty) == (False, WRITTEN)


# --- through the rulings page ---------------------------------------------------------------------


def table_rulings(event, game_set, deal: int) -> str:
    table = game_set.table
    url = reverse("adjudication:table_rulings", args=[event.slug, table.round.number, table.number])
    return f"{url}?deal={deal}"


def test_the_ruling_form_asks_whether_the_score_includes_the_points_with_the_rules_answer(
    as_director, event, over_called
):
    page = as_director.get(table_rulings(event, over_called, 2))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Does the written score already include the points?" in text
    # Bob's 71 less 50 is a score his 4 calls allow; less 50 as a contract error (unopened, 17 cards) not.
    assert "Bob: over-call included, contract error not included" in text
    assert "Cy: over-call not included, contract error not included" in text


@pytest.mark.parametrize("kind", ["overcall", "contract_error"])
@pytest.mark.parametrize(
    ("answer", "added"), [("yes", 0), ("no", PENALTY), ("", 0)], ids=["yes", "no", "rules-default"]
)
def test_the_rulings_page_counts_the_penalty_once(as_director, event, over_called, kind, answer, added):
    sequence, written = LINES[kind]
    deal = over_called.deals.get(sequence=sequence)
    before_totals = bob_totals(over_called)
    response = as_director.post(
        table_rulings(event, over_called, sequence),
        {"player": "Bob", "kind": kind, "score_included": answer, "version": deal.version},
        follow=True,
    )
    assert response.status_code == 200
    assert line(over_called, sequence, "Bob").penalty == written + added
    assert bob_totals(over_called)[-1] == before_totals[-1] + added
    ruling = Ruling.objects.get(kind=kind)
    assert issued_entry(ruling)["score_included"] is (added == 0)
    text = response.content.decode()
    if added:
        assert "its 50 points were added to the score" in text
        assert "The points were added to the written score" in text
    else:
        assert "already included its 50 points and stays as written" in text
        assert "The written score already included the points" in text
    # Official view of the set total: counted once.
    assert sum(row.penalty for row in DealResult.objects.filter(entry__player__name="Bob")) == (
        before_totals[-1] + added
    )


@pytest.mark.parametrize("kind", ["overcall", "contract_error"])
@pytest.mark.parametrize("answer", ["yes", "no"])
def test_overturning_on_the_page_undoes_exactly_what_issuing_did(
    as_director, event, over_called, kind, answer
):
    sequence, written = LINES[kind]
    deal = over_called.deals.get(sequence=sequence)
    before = bob_totals(over_called)
    as_director.post(
        table_rulings(event, over_called, sequence),
        {"player": "Bob", "kind": kind, "score_included": answer, "version": deal.version},
    )
    ruling = Ruling.objects.get(kind=kind)
    added = PENALTY if answer == "no" else 0
    assert line(over_called, sequence, "Bob").penalty == written + added
    shown = as_director.get(reverse("adjudication:ruling", args=[event.slug, ruling.pk])).content.decode()
    if added:
        assert "overturning the ruling takes them off again" in shown
    else:
        assert "overturning the ruling does not change it" in shown
    page = reverse("adjudication:ruling_appeal", args=[event.slug, ruling.pk])
    assert as_director.post(page, {"reason": "Recount", "version": ruling.version}).status_code == 302
    ruling.refresh_from_db()
    decide = reverse("adjudication:ruling_decide", args=[event.slug, ruling.pk])
    response = as_director.post(decide, {"decision": "overturned", "version": ruling.version})
    assert response.status_code == 302
    bob = line(over_called, sequence, "Bob")
    assert (getattr(bob, kind), bob.penalty) == (False, written)
    assert bob_totals(over_called) == before


def test_the_official_standings_count_the_penalty_once(as_director, event, over_called, director):
    paper_total = bob_totals(over_called)[-1]
    deal = over_called.deals.get(sequence=2)
    as_director.post(
        table_rulings(event, over_called, 2),
        {"player": "Bob", "kind": "overcall", "score_included": "", "version": deal.version},
    )
    services.set_verify(game_set=over_called, user=director, acknowledge_warnings=True)
    rows = {row["player"]: row for row in standings_view(event).rows}
    assert rows["Bob"]["total"] == paper_total
