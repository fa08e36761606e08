"""Printable PDFs: fetch, authorise, call the renderer in `scoring.printing.scoresheets`, wrap the bytes.

Table sheets (blank and completed) and round packs are for the event's directors and staff; the
standings and the seating list are public, like the pages they print.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from ...models import Event, Table
from ...printing import door, scoresheets
from ...printing.sheet_codes import sheet_codes
from ...selectors.prizes import prize_list
from ..lookups import event_for, request_base_url, round_for, round_param, wants_provisional
from ..permissions import director_required, user_directs
from ..query import flag_param
from ..responses import pdf_response, public_results_page


def _table(event: Event, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event"), round__event=event, round__number=number, number=table
    )


def _codes(request, tables):
    """Each table's self-entry QR code, addressed as this page was asked (issue 13)."""
    return sheet_codes(tables=tables, base_url=request_base_url(request), user=request.user)


@require_safe
@director_required
def table_blank(request, event: Event, number: int, table: int):
    """A table's sheet to fill in: players, dealers, deal sizes and contracts printed, boxes empty."""
    found = _table(event, number, table)
    data = scoresheets.render_table_sheet(table=found, completed=False, codes=_codes(request, [found]))
    return pdf_response(data, f"{event.slug}-r{number}-t{table}-blank.pdf")


@require_safe
@director_required
def table_completed(request, event: Event, number: int, table: int):
    """A table's sheet filled in from the recorded results, with its verification, findings, rulings."""
    found = _table(event, number, table)
    data = scoresheets.render_table_sheet(table=found, completed=True, codes=_codes(request, [found]))
    return pdf_response(data, f"{event.slug}-r{number}-t{table}-sheet.pdf")


@require_safe
@director_required
def round_sheets(request, event: Event, number: int):
    """Every table's sheet of a round, one a page, in table order (?completed=1: filled in)."""
    rnd = round_for(event, number, private_too=True)
    completed = flag_param(request.GET, "completed")
    tables = list(rnd.tables.select_related("round__event"))
    data = scoresheets.render_round_sheets(round=rnd, completed=completed, codes=_codes(request, tables))
    kind = "sheets" if completed else "blank-sheets"
    return pdf_response(data, f"{event.slug}-r{number}-{kind}.pdf")


@require_safe
@director_required
def round_fallback(request, event: Event, number: int):
    """The fallback pack of "what can go wrong": the round's seating lists and every blank sheet."""
    rnd = round_for(event, number, private_too=True)
    tables = list(rnd.tables.select_related("round__event"))
    data = scoresheets.render_fallback_pack(round=rnd, codes=_codes(request, tables))
    return pdf_response(data, f"{event.slug}-r{number}-fallback-pack.pdf")


@public_results_page
def standings(request, slug: str):
    """The standings as on the standings page (?round=N, ?provisional=1), header on every page."""
    event = event_for(request, slug)
    round_number = round_param(request, event)
    provisional = wants_provisional(request)
    data = scoresheets.render_standings(event=event, round_number=round_number, provisional=provisional)
    name = scoresheets.standings_pdf_name(event, round_number=round_number, provisional=provisional)
    return pdf_response(data, name)


@require_safe
def seating(request, slug: str, number: int):
    """A round's seating to pin on the wall: by player name, then by table (a round not yet published:
    for its directors alone, to review and print before it goes up)."""
    event = event_for(request, slug)
    rnd = round_for(event, number, private_too=user_directs(request, event))
    return pdf_response(scoresheets.render_seating(round=rnd), f"{event.slug}-r{number}-seating.pdf")


@public_results_page
def prizes(request, slug: str):
    """The prize list (issue 26), as its public page shows it."""
    event = event_for(request, slug)
    return pdf_response(door.render_prize_list(prize_list(event)), f"{event.slug}-prizes.pdf")
