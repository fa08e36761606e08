"""Bad input never breaks anything (issue 5, "Bad input"): malformed sheets, archives, CSV rows, form
posts and URLs get a clear refusal — never a server error — and a refused import writes nothing.

Hypothesis throws KALOOKI_FUZZ_EXAMPLES examples at each target: 30 in the suite (the same 30 every
run), 100 with `make test-full` (KALOOKI_FULL=1), thousands by hand
(`KALOOKI_FUZZ_EXAMPLES=5000 pytest tests/adjudication/test_bad_input.py`).
"""

from __future__ import annotations

import copy
import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudication import services as rulings
from adjudication.archive import ArchiveError, event_import
from scoring import services
from tests.conftest import FULL, row_counts

pytestmark = [pytest.mark.django_db, pytest.mark.heavy]

# Thirty a target keeps this module's eight targets to a few seconds a database in the suite.
EXAMPLES = int(os.environ.get("KALOOKI_FUZZ_EXAMPLES", "100" if FULL else "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 200,  # the suite's runs are repeatable; long runs by hand explore
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
DATA = Path(__file__).parent.parent / "data"
ARCHIVE = json.loads((DATA / "events" / "example-event.json").read_text(encoding="utf-8"))


# --- malformed JSON documents -------------------------------------------------------------------

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["Ann", "Bob", "Eve", "", " ", "two", "AS 10H", "JK", "3", "-1", "1e309", "\x00", "☃"]),
)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def places(doc: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += places(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += places(value, (*prefix, index))
    return found


def mutate(data: st.DataObject, doc: Any, *, times: int) -> Any:
    """Up to `times` edits at random places: a new value, a deletion, an unknown key, a duplicate."""
    doc = copy.deepcopy(doc)
    for _ in range(times):
        path = data.draw(st.sampled_from(places(doc)[1:]))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        edit = data.draw(st.sampled_from(["replace", "replace", "delete", "unknown", "duplicate"]))
        if edit == "replace":
            parent[key] = data.draw(values)
        elif edit == "delete":
            del parent[key]
        elif edit == "unknown" and isinstance(parent, dict):
            parent[data.draw(st.text(min_size=1, max_size=8))] = data.draw(values)
        elif edit == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        if not places(doc)[1:]:
            break
    return doc


@FUZZ
@given(data=st.data())
def test_malformed_sheets_are_imported_or_refused_cleanly(game_set, director, example_sheet, data):
    sheet = mutate(data, example_sheet, times=data.draw(st.integers(1, 3)))
    before = row_counts()
    try:
        services.sheet_import(game_set=game_set, user=director, data=sheet)
    except ValidationError as exc:
        assert exc.messages and all(isinstance(m, str) and m for m in exc.messages)
        assert row_counts() == before
    game_set.refresh_from_db()


_slugs = itertools.count()


@FUZZ
@given(data=st.data())
def test_malformed_archives_are_imported_or_refused_with_nothing_written(db, data):
    archive = mutate(data, ARCHIVE, times=data.draw(st.integers(1, 4)))
    before = row_counts()
    try:
        event_import(data=archive, user=None, slug=f"fuzz-{next(_slugs)}")
    except ArchiveError as exc:
        # A refusal names the place (a JSON path) or the file as a whole.
        assert exc.problem and (exc.path or exc.messages[0] == exc.problem)
        assert row_counts() == before


# --- CSV ----------------------------------------------------------------------------------------

cells = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12),
    st.sampled_from(["name", "club", "membership", "Ann", '"', '""', ",", ";", "\t", "\n", "x" * 120]),
)
csv_rows = st.lists(st.lists(cells, max_size=5), max_size=8)


@FUZZ
@given(
    rows=csv_rows,
    separator=st.sampled_from([",", ";", "\t"]),
    as_bytes=st.booleans(),
    junk=st.binary(max_size=8),
)
def test_csv_player_lists_are_imported_or_refused_with_nothing_written(
    event, director, rows, separator, as_bytes, junk
):
    text = "\n".join(separator.join(row) for row in rows)
    payload: Any = text.encode("utf-8") + junk if as_bytes else text
    before = row_counts()
    report = services.players_import_csv(event=event, user=director, data=payload)
    if not report.ok:
        assert row_counts() == before
        assert all(line.startswith("line ") for line in report.lines())


# --- form posts and URLs ------------------------------------------------------------------------

form_values = st.one_of(
    st.text(max_size=10),
    st.sampled_from(
        ["", "0", "1", "-1", "9", "10", "99999999999999999999", "1.5", "on", "true", "Ann", "Zed"]
    ),
)
OK = {200, 302, 400, 403, 404, 405, 409}


def fields(names):
    return st.dictionaries(st.sampled_from(names) | st.text(max_size=5), form_values, max_size=len(names) + 1)


DEAL_FIELDS = ["out", "doubled", "void", "dealer", "reason", "deal", "version", "sequence"] + [
    f"p{seat}-{name}"
    for seat in range(1, 5)
    for name in ("calls", "hand", "penalty", "total", "overcall", "contract_error", "other_points", "opened")
]


@FUZZ
@given(post=fields(DEAL_FIELDS))
def test_deal_entry_posts_never_break_the_page(as_director, event, played, post):
    before = row_counts()
    response = as_director.post(reverse("scoring:direct_table", args=[event.slug, 1, 1]), post)
    assert response.status_code in OK
    if response.status_code != 302:
        assert row_counts() == before


@FUZZ
@given(
    deal=form_values,
    post=fields(["player", "kind", "points", "rule", "reason", "version"]),
    target=st.sampled_from(["issue", "issue-on-the-deal", "appeal", "decide"]),
)
def test_ruling_posts_never_break_the_page(as_director, event, played, director, entries, deal, post, target):
    ruling = played.deals.get(sequence=2).rulings.first() or rulings.ruling_issue(
        deal=played.deals.get(sequence=2),
        entry=entries["Ann"],
        user=director,
        kind="other",
        points=1,
        reason="x",
    )
    if target == "issue":
        url = reverse("adjudication:table_rulings", args=[event.slug, 1, 1]) + f"?deal={deal}"
    elif target == "issue-on-the-deal":
        url = reverse("scoring:direct_ruling", args=[event.slug, 1, 1, 2])
    else:
        url = reverse(f"adjudication:ruling_{target}", args=[event.slug, ruling.pk])
    before = row_counts()
    response = as_director.post(url, post)
    assert response.status_code in OK
    if response.status_code != 302:
        assert row_counts() == before


@FUZZ
@given(query=fields(["action", "table", "user", "date_from", "date_to", "page", "_export", "status", "deal"]))
def test_filters_and_query_strings_never_break_a_page(as_director, event, played, query):
    for url in (
        reverse("adjudication:log", args=[event.slug]),
        reverse("adjudication:rulings", args=[event.slug]),
        reverse("adjudication:table_rulings", args=[event.slug, 1, 1]),
        reverse("scoring:standings", args=[event.slug]),
    ):
        assert as_director.get(url, query).status_code in OK


segments = st.one_of(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.%~", min_size=0, max_size=12),
    st.sampled_from(["test-open", "1", "0", "99999999999999999999", "-1", "..", "%00", "e", "r", "t", "d"]),
)


@FUZZ
@given(
    parts=st.lists(segments, min_size=1, max_size=8), root=st.sampled_from(["/adjudication/e/", "/e/", "/"])
)
def test_made_up_urls_get_a_page_or_not_found(as_director, played, parts, root):
    response = as_director.get(root + "/".join(parts) + "/")
    assert response.status_code in OK | {301}


@FUZZ
@given(data=st.data())
def test_uploaded_sheets_and_player_lists_never_break_their_pages(
    as_director, event, game_set, example_sheet, data
):
    sheet = data.draw(
        st.text(max_size=200) | st.just(None).map(lambda _: json.dumps(mutate(data, example_sheet, times=2)))
    )
    rows = data.draw(csv_rows)
    before = row_counts()
    for name, post in (
        ("direct_sheet_import", {"text": sheet, "version": str(game_set.version)}),
        ("direct_players_import", {"text": "\n".join(",".join(row) for row in rows)}),
    ):
        args = [event.slug, 1, 1] if name == "direct_sheet_import" else [event.slug]
        response = as_director.post(reverse(f"scoring:{name}", args=args), post)
        assert response.status_code in OK
        # A refused upload writes nothing (an accepted player list shows its report: 200).
        if response.status_code >= 400:
            assert row_counts() == before
        before = row_counts()
