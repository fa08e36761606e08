"""deal_record stays within its query budget (issue 6: at most 25 statements a deal), marks or not."""

import pytest

from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.models import Deal

BUDGET = 25

PLAIN = {
    "deal": 1,
    "out": "Ann",
    "results": {
        "Ann": {"calls": 0, "penalty": 0},
        "Bob": {"calls": 1, "penalty": 30},
        "Cy": {"calls": 0, "penalty": 45},
        "Dee": {"calls": 2, "penalty": 12},
    },
}

# R17 / R18: an over-call and a contract error marked on the sheet, plus other points (each a ruling).
MARKED = {
    "deal": 1,
    "out": "Ann",
    "results": {
        "Ann": {"calls": 0, "penalty": 0},
        "Bob": {"calls": 3, "penalty": 80, "overcall": True},
        "Cy": {"calls": 0, "penalty": 95, "contract_error": True},
        "Dee": {"calls": 0, "penalty": 40, "other_points": 10, "other_reason": "Exposed a card"},
    },
}


def _record(game_set, user, data, **kwargs):
    return services.deal_record(game_set=game_set, user=user, data=data, **kwargs)


@pytest.mark.parametrize(
    ("data", "rulings"),
    [(PLAIN, 0), (MARKED, 3)],
    ids=["plain", "overcall-contract-error-other"],
)
def test_a_new_deal_stays_within_the_query_budget(
    game_set, director, django_assert_max_num_queries, data, rulings
):
    with django_assert_max_num_queries(BUDGET):
        _record(game_set, director, data)
    assert Ruling.objects.filter(deal__game_set=game_set, status=Ruling.Status.STANDING).count() == rulings
    assert AuditEntry.objects.filter(action="kalooki.ruling.issued").count() == rulings


@pytest.mark.parametrize(
    ("first", "second"),
    [(PLAIN, MARKED), (MARKED, PLAIN), (MARKED, MARKED)],
    ids=["marks-added", "marks-removed", "marks-kept"],
)
def test_correcting_a_deal_stays_within_the_query_budget(
    game_set, director, django_assert_max_num_queries, first, second
):
    _record(game_set, director, first)
    deal = Deal.objects.get(game_set=game_set)
    with django_assert_max_num_queries(BUDGET):
        _record(game_set, director, second, deal=deal, expected_version=deal.version)
    assert AuditEntry.objects.filter(action="kalooki.deal.corrected").count() == 1
