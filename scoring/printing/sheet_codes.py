"""The self-entry codes a printed sheet carries (issue 13): each table's key issued when it has none,
then the address of its phone page under the base URL — the page's own address when a sheet is printed
from a page, `KALOOKI_PUBLIC_URL` (or `print_round --base-url`) on the command line."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from ..models import Table
from ..selectors.self_entry import phone_path
from ..self_entry_codes import SheetCode, sheet_code
from ..services.self_entry import table_keys_ensure


def sheet_codes(*, tables: Iterable[Table], base_url: str | None = None, user=None) -> dict[int, SheetCode]:
    """{table number: its QR code and short code} for tables of one round."""
    base = (base_url or settings.KALOOKI_PUBLIC_URL).rstrip("/")
    keys = table_keys_ensure(tables=tables, user=user)
    return {key.table.number: sheet_code(base, phone_path(key), key.selector) for key in keys.values()}
