"""Rulings: issue, appeal, decide; the DealResult flags and scores follow them."""

import pytest
from django.core.exceptions import ValidationError

from adjudication import services as rulings
from adjudication.models import AuditEntry, Ruling
from scoring import services, sheets
from scoring.models import DealResult


def _result(game_set, number, name):
    return DealResult.objects.get(deal__game_set=game_set, deal__number=number, entry__player__name=name)


def test_an_overcall_ruling_not_in_the_written_score_adds_its_penalty_and_keeps_the_sheet_consistent(
    played, director, entries
):
    deal = _result(played, 2, "Bob").deal
    ruling = rulings.ruling_issue(
        deal=deal,
        entry=entries["Bob"],
        user=director,
        kind="overcall",
        reason="fourth call",
        score_included=False,
    )
    assert (ruling.points, ruling.rule, ruling.status) == (50, "R17", "standing")
    bob = _result(played, 2, "Bob")
    assert bob.overcall
    assert bob.penalty == 71 + 50
    # Written totals from that deal on move with it, so the sheet has no new findings.
    assert _result(played, 9, "Bob").total_written == 380 + 50
    codes = {f.code for f in sheets.findings_for_set(played)}
    assert "TOTAL_MISMATCH" not in codes
    assert AuditEntry.objects.filter(action="kalooki.ruling.issued").count() == 1


def test_a_second_overcall_ruling_in_one_deal_is_refused(played, director, entries):
    deal = _result(played, 2, "Bob").deal
    rulings.ruling_issue(deal=deal, entry=entries["Bob"], user=director, kind="overcall")
    with pytest.raises(ValidationError, match="already"):
        rulings.ruling_issue(deal=deal, entry=entries["Bob"], user=director, kind="overcall")


@pytest.mark.parametrize(("points", "reason"), [(None, "slow play"), (0, "slow play"), (10, "")])
def test_other_infractions_need_points_and_a_reason(played, director, entries, points, reason):
    deal = _result(played, 2, "Bob").deal
    with pytest.raises(ValidationError):
        rulings.ruling_issue(
            deal=deal, entry=entries["Bob"], user=director, kind="other", points=points, reason=reason
        )


def test_appeal_overturned_removes_the_points(played, director, entries):
    deal = _result(played, 2, "Cy").deal
    ruling = rulings.ruling_issue(
        deal=deal,
        entry=entries["Cy"],
        user=director,
        kind="other",
        points=10,
        reason="exposed card",
        rule="R9",
    )
    assert _result(played, 2, "Cy").other_points == 10
    rulings.ruling_appeal(ruling=ruling, user=director, reason="card was not exposed")
    assert _result(played, 2, "Cy").other_points == 10  # in force until decided
    rulings.ruling_decide(ruling=ruling, user=director, decision="overturned", reason="witness")
    cy = _result(played, 2, "Cy")
    assert (cy.other_points, cy.other_reason, cy.penalty) == (0, "", 11)
    history = list(
        AuditEntry.objects.filter(object_type="adjudication.ruling")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert history == ["kalooki.ruling.issued", "kalooki.ruling.appealed", "kalooki.ruling.overturned"]


def test_appeal_upheld_keeps_the_ruling(played, director, entries):
    deal = _result(played, 2, "Cy").deal
    ruling = rulings.ruling_issue(deal=deal, entry=entries["Cy"], user=director, kind="contract_error")
    rulings.ruling_appeal(ruling=ruling, user=director, reason="it was a valid run")
    rulings.ruling_decide(ruling=ruling, user=director, decision="upheld")
    assert Ruling.objects.get(pk=ruling.pk).status == "upheld"
    assert _result(played, 2, "Cy").contract_error


def test_overturning_on_a_verified_set_needs_it_reopened(played, director, entries):
    deal = _result(played, 2, "Cy").deal
    ruling = rulings.ruling_issue(
        deal=deal, entry=entries["Cy"], user=director, kind="other", points=5, reason="x"
    )
    services.set_verify(game_set=played, user=director)
    # An appeal may come after verification; overturning it changes a result.
    rulings.ruling_appeal(ruling=ruling, user=director, reason="disputed")
    with pytest.raises(services.SetLocked):
        rulings.ruling_decide(ruling=ruling, user=director, decision="overturned")
    with pytest.raises(services.SetLocked):
        rulings.ruling_issue(deal=deal, entry=entries["Bob"], user=director, kind="overcall")


def test_a_stale_appeal_is_refused(played, director, other_director, entries):
    deal = _result(played, 2, "Cy").deal
    ruling = rulings.ruling_issue(deal=deal, entry=entries["Cy"], user=director, kind="overcall")
    rulings.ruling_appeal(ruling=ruling, user=other_director, reason="first", expected_version=1)
    with pytest.raises(services.StaleEdit, match="second"):
        rulings.ruling_decide(ruling=ruling, user=director, decision="upheld", expected_version=1)


def test_a_mark_on_the_sheet_creates_a_ruling_and_removing_it_withdraws_it(game_set, director, example_sheet):
    data = {
        "deal": 1,
        "out": "Cy",
        "results": {
            "Ann": {"calls": 0, "penalty": 23},
            "Bob": {"calls": 4, "overcall": True, "penalty": 65},
            "Cy": {"calls": 1, "penalty": 0},
            "Dee": {"calls": 1, "penalty": 77},
        },
    }
    deal = services.deal_record(game_set=game_set, user=director, data=data).deal
    ruling = Ruling.objects.get(deal=deal)
    assert (ruling.kind, ruling.status, ruling.entry.player.name) == ("overcall", "standing", "Bob")
    data["results"]["Bob"] = {"calls": 3, "penalty": 15}
    services.deal_record(game_set=game_set, user=director, data=data, deal=deal)
    ruling.refresh_from_db()
    assert ruling.status == "withdrawn"
    assert not _result(game_set, 1, "Bob").overcall
