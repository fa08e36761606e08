"""Filters for the public pages' rows: the same answer with or without JavaScript (?q=)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms


def fold(text: str) -> str:
    """Lower case without accents, so "Ren" finds "Renée" on a phone keyboard."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold().strip()


class NameFilterForm(forms.Form):
    q = forms.CharField(label="Find your name", required=False, max_length=100, strip=True)

    def query(self) -> str:
        return self.cleaned_data.get("q", "") if self.is_valid() else ""


def search_text(row: Mapping[str, Any], fields: Iterable[str]) -> str:
    """The text a row is found by (what the live filter script matches too)."""
    return " ".join(str(row[field]) for field in fields if row.get(field) not in (None, ""))


def mark_matches(rows: Iterable[dict[str, Any]], query: str, fields: Iterable[str]) -> int:
    """Set `search` and `match` on each row; returns how many match `query` (all when it is empty)."""
    needle = fold(query)
    fields = tuple(fields)
    matched = 0
    for row in rows:
        row["search"] = search_text(row, fields)
        row["match"] = not needle or needle in fold(row["search"])
        matched += row["match"]
    return matched
