"""The self-entry codes a printed sheet carries (issue 13): each table's key issued when it has none,
then the address of its phone page under the base URL — the page's own address when a sheet is printed
from a page, `KALOOKI_PUBLIC_URL` (or `print_round --base-url`) on the command line."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterable

from django.conf import settings
from django.utils.html import format_html

from ..models import Event, Seat, Table
from ..selectors.self_entry import phone_path
from ..self_entry_codes import seat_code_for, short_code_for, shown_short_code
from ..services.self_entry import table_keys_ensure
from .pdf_data import PrintedCode

# Pixels a module of the printed code's bitmap: the sheet prints it 20 mm wide (print.css), so a
# 41-module code has about 210 pixels an inch, more than a page drawn at 150 dpi to be read back.
QR_PIXELS = 4


def qr_image(url: str) -> str:
    """The address as a QR code: an <img> of a PNG, border of two modules. WeasyPrint draws a bitmap
    faster than segno's SVG path (hundreds of segments a code), which cost 0.01–0.02 s a page more
    (WeasyPrint 70, a 41-module code)."""
    import segno

    buffer = io.BytesIO()
    segno.make(url, error="m", micro=False).save(buffer, kind="png", scale=QR_PIXELS, border=2)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return format_html('<img class="qr" alt="" src="data:image/png;base64,{}">', data)


def sheet_codes(*, tables: Iterable[Table], base_url: str | None = None, user=None) -> dict[int, PrintedCode]:
    """{table number: its QR code, short code and seat codes} for tables of one round."""
    base = (base_url or settings.KALOOKI_PUBLIC_URL).rstrip("/")
    keys = table_keys_ensure(tables=tables, user=user)
    positions: dict[int, list[int]] = {}
    for table_id, position in Seat.objects.filter(table_id__in=keys).values_list("table_id", "position"):
        positions.setdefault(table_id, []).append(position)
    codes = {}
    # After the set (issue 23) the seat codes prove the seats: each on its own tear-off slip.
    events = {key.table.round.event_id: key.table.round.event for key in keys.values()}
    slips = {pk: event.self_entry == Event.SelfEntry.AFTER for pk, event in events.items()}
    for key in keys.values():
        url = base + phone_path(key)
        short_code = shown_short_code(short_code_for(key.selector))
        seats = {
            position: seat_code_for(key.selector, position) for position in positions.get(key.table_id, [])
        }
        codes[key.table.number] = PrintedCode(
            url=url,
            image=qr_image(url),
            short_code=short_code,
            seat_codes=seats,
            slips=slips[key.table.round.event_id],
        )
    return codes
