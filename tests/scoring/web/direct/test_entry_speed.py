"""Speed without timing: the director's table entry page (and the public set page, which reads the
same grid) costs the same number of queries with no ruling as with several."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from adjudication import services as adjudication_services
from scoring import selectors, services
from scoring.models import Deal


def _url(game_set, name: str, **kwargs) -> str:
    table = game_set.table
    slug = table.round.event.slug
    kwargs |= {"slug": slug, "number": table.round.number, "table": table.number}
    return reverse(f"scoring:{name}", kwargs=kwargs)


@pytest.fixture
def played(game_set, director, example_sheet):
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    game_set.refresh_from_db()
    return game_set


def _rule(game_set, director, entries, count: int) -> None:
    """`count` rulings (other infractions) on deals 1, 2, … against Bob and Cy in turn."""
    deals = list(Deal.objects.filter(game_set=game_set).order_by("sequence"))
    for index in range(count):
        adjudication_services.ruling_issue(
            deal=deals[index % len(deals)],
            entry=entries["Bob" if index % 2 else "Cy"],
            user=director,
            kind="other",
            points=5,
            reason=f"ruling {index}",
        )


PAGES = {
    "entry page": lambda game_set: _url(game_set, "direct_table"),
    "entry page, correcting deal 1": lambda game_set: _url(game_set, "direct_deal", sequence=1),
    "public set page": lambda game_set: _url(game_set, "table"),
}


@pytest.mark.parametrize("page", list(PAGES))
def test_the_table_pages_cost_the_same_queries_with_several_rulings(
    client, played, director, entries, page, django_assert_num_queries
):
    client.force_login(director)
    address = PAGES[page](played)
    with CaptureQueriesContext(connection) as without_rulings:
        assert client.get(address).status_code == 200
    _rule(played, director, entries, 6)
    with django_assert_num_queries(len(without_rulings.captured_queries)):
        response = client.get(address)
    assert response.status_code == 200
    assert "Other infraction" in response.content.decode()


def test_the_grid_reads_rulings_with_their_deal_in_its_five_queries(
    played, director, entries, django_assert_num_queries
):
    _rule(played, director, entries, 4)
    with django_assert_num_queries(5):
        grid = selectors.set_grid(played)
    with django_assert_num_queries(0):
        numbers = [(ruling.deal.number, ruling.entry.player.name) for ruling in grid.rulings]
        cells = [cell for row in grid.rows for cell in row.cells]
        in_cells = [ruling.deal.number for cell in cells for ruling in cell.rulings]
    assert numbers == [(1, "Cy"), (2, "Bob"), (3, "Cy"), (4, "Bob")]
    assert in_cells == [1, 2, 3, 4]
