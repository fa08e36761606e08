"""One value of an archive read at its place: `ArchiveError` names the place when it is wrong.

These read the event, its players, rounds and tables, the rulings and the audit log; a table's sheet
is read by the engine's sheet reader (`sheet_reading.py`).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from adjudication.engine.sheet import SheetError, decode_json, got

# Round, table and deal numbers are small integers in the database.
SMALL = 32767


class ArchiveError(ValidationError):
    """The archive cannot be imported; nothing was written. `path` names the place ("" = the file)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem, code="archive")


def archive_loads(text: str | bytes) -> Any:
    """Decode the archive's JSON text; ArchiveError when it is not JSON (or not UTF-8)."""
    try:
        return decode_json(text)
    except SheetError as exc:
        raise ArchiveError("", exc.problem) from None


def object_at(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ArchiveError(path, f"expected an object, got {got(value)}")
    return value


def list_at(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError(path, f"expected a list, got {got(value)}")
    return value


def text_at(value: Any, path: str, *, required: bool = False, default: str = "") -> str:
    if value is None and not required:
        return default
    if not isinstance(value, str):
        raise ArchiveError(path, f"expected text, got {got(value)}")
    if required and not value.strip():
        raise ArchiveError(path, "must not be empty")
    return value.strip()


def whole_at(
    value: Any, path: str, *, minimum: int = 1, maximum: int = SMALL, optional: bool = False
) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArchiveError(path, f"expected a whole number, got {got(value)}")
    if not minimum <= value <= maximum:
        raise ArchiveError(path, f"expected a whole number from {minimum} to {maximum}, got {value}")
    return value


def flag_at(value: Any, path: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ArchiveError(path, f"expected true or false, got {got(value)}")
    return value


def date_at(value: Any, path: str, *, optional: bool = False) -> date | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ArchiveError(path, f"expected a date like 2026-12-05, got {got(value)}")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ArchiveError(path, f"expected a date like 2026-12-05, got {got(value)}") from None


def moment_or_none(value: Any) -> datetime | None:
    """An ISO 8601 date and time, or None when there is none or it cannot be read."""
    if not isinstance(value, str):
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:
        return None
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


def moment_at(value: Any, path: str) -> datetime | None:
    """An ISO date and time, or None (null or absent); anything else is refused, naming the place."""
    if value is None:
        return None
    moment = moment_or_none(value)
    if moment is None:
        raise ArchiveError(path, f"expected a date and time (2026-12-05T21:30:00+00:00), got {got(value)}")
    return moment


def refuse_nul(value: Any, path: str) -> None:
    """PostgreSQL cannot store a NUL character in text: refuse it here, naming the place."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ArchiveError(path, "text cannot contain NUL characters")
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            refuse_nul(key, where)
            refuse_nul(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            refuse_nul(item, f"{path}[{index}]")
