"""Malformed deal data thrown at deal_record: a clear ValidationError or a save, never a crash, and a
refused write leaves nothing behind (issue 5, "Bad input"; whole sheets, archives, CSV and form posts
are covered in tests/adjudication/test_bad_input.py)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult

NAMES = ["Ann", "Bob", "Cy", "Dee"]
SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["", "3", "true", "no", "AS 10H JK", "ZZ", "\x00", "-1", "1e3"]),
)
values = st.one_of(
    scalars, st.lists(scalars, max_size=2), st.dictionaries(st.text(max_size=3), scalars, max_size=2)
)
result_keys = st.sampled_from(
    [
        "calls",
        "hand",
        "penalty",
        "total",
        "opened",
        "overcall",
        "contract_error",
        "other_points",
        "other_reason",
        "x",
    ]
)
results = st.dictionaries(result_keys, values, max_size=6)
deals = st.fixed_dictionaries(
    {},
    optional={
        "deal": st.one_of(st.integers(min_value=-1, max_value=11), values),
        "void": values,
        "out": st.one_of(st.sampled_from([*NAMES, "Zed"]), values),
        "doubled": values,
        "dealer": st.one_of(st.sampled_from(NAMES), values),
        "results": st.one_of(
            values, st.dictionaries(st.sampled_from([*NAMES, "Zed"]), st.one_of(results, values), max_size=5)
        ),
    },
)


def _counts():
    return Deal.objects.count(), DealResult.objects.count(), AuditEntry.objects.count()


def _isolated(call):
    """Run one example in a savepoint rolled back afterwards, so examples do not see each other."""
    savepoint = transaction.savepoint()
    try:
        before = _counts()
        try:
            call()
        except ValidationError:
            assert _counts() == before
    finally:
        transaction.savepoint_rollback(savepoint)


@SETTINGS
@given(data=st.one_of(deals, values))
def test_deal_record_never_crashes_and_a_refusal_writes_nothing(game_set, director, data):
    _isolated(lambda: services.deal_record(game_set=game_set, user=director, data=data))
