"""A sheet import within the spec's limits (issue 12, items 6 and 8): the engine's reader refuses 10,000
void deals, a 1.5 MB hand and JSON nested 100,000 deep, naming the place, and nothing is written —
through the service and through the director's sheet-import page. Bad substitutes (a seat given as a
list, a NUL in a name) are a message naming the place, never a server error, on either database."""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from adjudication.engine.sheet import MAX_DEPTH, MAX_HAND_CARDS, MAX_TEXT, MAX_VOID_DEALS
from scoring import services
from tests.conftest import row_counts


def _page(game_set):
    table = game_set.table
    return reverse(
        "scoring:direct_sheet_import",
        kwargs={"slug": table.round.event.slug, "number": table.round.number, "table": table.number},
    )


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _void_flood(sheet):
    data = copy.deepcopy(sheet)
    data["deals"] = [{"deal": 1, "void": True} for _ in range(10_000)] + data["deals"]
    return data


def _huge_hand(sheet):
    data = copy.deepcopy(sheet)
    data["deals"][0]["results"]["Bob"]["hand"] = " ".join(["7D"] * 500_000)  # 1.5 MB
    data["deals"][0]["results"]["Bob"].pop("penalty", None)
    return data


DEPTH = 100_000


def _deep(sheet):
    # Built without recursion: 100,000 lists, each holding the next, in the sheet's rules.
    root: list = []
    inner = root
    for _ in range(DEPTH):
        inner.append([])
        inner = inner[0]
    return copy.deepcopy(sheet) | {"rules": {"note": root}}


OVER_THE_LIMITS = [
    pytest.param(
        _void_flood, f"deals[{MAX_VOID_DEALS}]", f"more than {MAX_VOID_DEALS} void deals", id="void"
    ),
    pytest.param(_huge_hand, "deals[0].results.Bob.hand", f"at most {MAX_TEXT}", id="hand"),
    pytest.param(_deep, "rules.note", f"nested deeper than {MAX_DEPTH} levels", id="deep"),
]


@pytest.mark.parametrize(("build", "place", "problem"), OVER_THE_LIMITS)
def test_the_service_refuses_a_sheet_over_the_limits_naming_the_place(
    game_set, director, example_sheet, build, place, problem
):
    data = build(example_sheet)
    before = row_counts()
    with pytest.raises(ValidationError) as refused:
        services.sheet_import(game_set=game_set, user=director, data=data)
    (key,) = refused.value.message_dict
    assert key.startswith(place) and problem in " ".join(refused.value.message_dict[key])
    assert row_counts() == before


def _posted_text(build, sheet) -> str:
    if build is _deep:  # json.dumps itself cannot write it
        return json.dumps(sheet)[:-1] + ', "rules": {"note": ' + "[" * DEPTH + "]" * DEPTH + "}}"
    return json.dumps(build(sheet))


@pytest.mark.parametrize(("build", "place", "problem"), OVER_THE_LIMITS)
def test_the_sheet_import_page_refuses_a_sheet_over_the_limits(
    as_director, game_set, example_sheet, build, place, problem
):
    before = row_counts()
    response = as_director.post(_page(game_set), {"text": _posted_text(build, example_sheet), "version": "1"})
    assert response.status_code == 400
    html = _text(response)
    assert problem in html
    if build is not _deep:  # the decoder gives up before any place can be named
        assert place in html
    assert row_counts() == before


def test_a_hand_of_more_cards_than_the_limit_is_refused(game_set, director, example_sheet):
    data = copy.deepcopy(example_sheet)
    data["deals"][0]["results"]["Bob"]["hand"] = " ".join(["7D"] * (MAX_HAND_CARDS + 1))
    with pytest.raises(ValidationError) as refused:
        services.sheet_import(game_set=game_set, user=director, data=data)
    assert "deals[0].results.Bob.hand" in refused.value.message_dict
    assert game_set.deals.count() == 0


# --- substitutes in a sheet (item 8) -------------------------------------------------------------

BAD_SUBSTITUTES = [
    pytest.param({"seat": ["Bob"], "player": "Zoe", "from_deal": 3}, "substitutes[0].seat", id="seat list"),
    pytest.param(
        {"seat": {"name": "Bob"}, "player": "Zoe", "from_deal": 3}, "substitutes[0].seat", id="seat object"
    ),
    pytest.param({"seat": "Bob", "player": "Zo\x00e", "from_deal": 3}, "substitutes[0].player", id="NUL"),
    pytest.param(
        {"seat": "Bob", "player": ["Zoe"], "from_deal": 3}, "substitutes[0].player", id="player list"
    ),
    pytest.param(
        {"seat": "Bob", "player": "Zoe", "from_deal": [3]}, "substitutes[0].from_deal", id="deal list"
    ),
]


@pytest.mark.parametrize(("substitute", "place"), BAD_SUBSTITUTES)
def test_a_bad_substitute_in_a_sheet_is_refused_naming_the_place(
    game_set, director, example_sheet, make_entries, substitute, place
):
    make_entries(game_set.table.round.event, ["Zoe"])
    data = copy.deepcopy(example_sheet) | {"substitutes": [substitute]}
    before = row_counts()
    with pytest.raises(ValidationError) as refused:
        services.sheet_import(game_set=game_set, user=director, data=data)
    assert place in refused.value.message_dict
    assert row_counts() == before


@pytest.mark.parametrize(("substitute", "place"), BAD_SUBSTITUTES)
def test_the_sheet_import_page_shows_a_bad_substitute_as_a_message(
    as_director, game_set, example_sheet, make_entries, substitute, place
):
    make_entries(game_set.table.round.event, ["Zoe"])
    data = copy.deepcopy(example_sheet) | {"substitutes": [substitute]}
    response = as_director.post(_page(game_set), {"text": json.dumps(data), "version": "1"})
    assert response.status_code == 400
    assert place in _text(response)
    assert game_set.deals.count() == 0


def test_a_good_substitute_in_a_sheet_is_applied(game_set, director, example_sheet, make_entries):
    zoe = make_entries(game_set.table.round.event, ["Zoe"])["Zoe"]
    data = copy.deepcopy(example_sheet) | {"substitutes": [{"seat": "Bob", "player": "Zoe", "from_deal": 3}]}
    services.sheet_import(game_set=game_set, user=director, data=data)
    seat = game_set.table.seats.get(position=2)
    assert (seat.substitute_id, seat.substitute_from) == (zoe.pk, 3)
