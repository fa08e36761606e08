"""The door's printouts (issue 26): the prize list; the badge list (number, name, club, check-in code,
ticked at the door) and a slip a player with the code and its QR code, the check-in address under the
base URL the page was asked on (what the door helpers' phones reach)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from ..models import Event
from ..selectors.door import DoorRow
from ..selectors.prizes import PrizeList
from .scoresheets import print_css, write_pdf
from .sheet_codes import qr_image


@dataclass(frozen=True)
class Slip:
    row: DoorRow
    code: str
    url: str
    image: SafeString


def check_in_address(event: Event, row: DoorRow, base_url: str) -> str:
    path = reverse(
        "scoring:door_check_in", kwargs={"slug": event.slug, "entry_id": row.entry_id, "code": row.code}
    )
    return base_url.rstrip("/") + path


def shown_door_code(code: str) -> str:
    """A code as printed: two groups of three (`ABC DEF`)."""
    return f"{code[:3]} {code[3:]}"


def badges_html(*, event: Event, rows: Sequence[DoorRow], base_url: str, slips_only: bool = False) -> str:
    slips = []
    for row in rows:
        url = check_in_address(event, row, base_url)
        slips.append(Slip(row=row, code=shown_door_code(row.code), url=url, image=qr_image(url)))
    context = {
        "event": event,
        "slips": slips,
        "badge_list": not slips_only,
        "title": f"{event.name} · check-in",
        "css": print_css(event.paper),
    }
    return render_to_string("pdf/door_badges.html", context)


def render_badges(*, event: Event, rows: Sequence[DoorRow], base_url: str, slips_only: bool = False) -> bytes:
    return write_pdf(badges_html(event=event, rows=rows, base_url=base_url, slips_only=slips_only))


def prize_list_html(prizes: PrizeList) -> str:
    context = {
        "prizes": prizes,
        "title": f"{prizes.event.name} · prize list",
        "css": print_css(prizes.event.paper),
    }
    return render_to_string("pdf/prizes.html", context)


def render_prize_list(prizes: PrizeList) -> bytes:
    """The prize list to pin up and pay from: each group's prizes as set and who won what."""
    return write_pdf(prize_list_html(prizes), tagged=True)
