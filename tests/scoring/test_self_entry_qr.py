"""The QR code on every printed table sheet (issue 13): the PDF page rendered to an image (poppler's
pdftoppm) and decoded (zbar's zbarimg) gives an address that opens that table's phone page; a changed
token opens nothing. `make test` installs poppler-utils and zbar-tools when they are missing."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader
from self_entry_support import (
    fresh_limits,  # noqa: F401 (autouse: no wrong tries left over)
    turn_on,
)

from scoring.selectors.self_entry import key_for_token
from scoring.self_entry_codes import short_code_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(game_set, round1, make_table, event, director):
    turn_on(event, director)
    return [game_set, make_table(round1, ["Eve", "Fay", "Gus", "Hal"])]


@pytest.mark.parametrize("kind", ["blank", "sheet"])
def test_a_table_sheets_qr_code_opens_its_phone_page(as_director, client, tables, tmp_path, decode_qr, kind):
    slug = tables[0].table.round.event.slug
    url = reverse(f"scoring:pdf_table_{kind}", kwargs={"slug": slug, "number": 1, "table": 2})
    pdf = as_director.get(url).content
    (address,) = decode_qr(pdf)
    parts = urlsplit(address)
    # Printed from a page: the address the page was asked on.
    assert f"{parts.scheme}://{parts.netloc}" == "http://testserver"
    page = client.get(parts.path)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table 2" in text and "Eve" in text and "Ann" not in text
    token = parts.path.rstrip("/").rsplit("/", 1)[-1]
    # The short code is printed under it.
    code = short_code_for(key_for_token(token).selector)
    words = PdfReader(_bytes(tmp_path, pdf)).pages[0].extract_text()
    assert code in words.replace(" ", "")
    changed = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(parts.path.replace(token, changed)).status_code == 404


def _bytes(tmp_path: Path, pdf: bytes) -> Path:
    path = tmp_path / "text.pdf"
    path.write_bytes(pdf)
    return path


def test_a_round_pack_carries_each_tables_code(as_director, client, tables, decode_qr):
    slug = tables[0].table.round.event.slug
    pdf = as_director.get(reverse("scoring:pdf_round_sheets", kwargs={"slug": slug, "number": 1})).content
    addresses = decode_qr(pdf)
    assert len(addresses) == 2 and len(set(addresses)) == 2
    first, second = (client.get(urlsplit(address).path).content.decode() for address in addresses)
    assert "Table 1" in first and "Table 2" in second


def test_print_round_uses_the_base_url_given(tables, tmp_path, settings, decode_qr):
    out = tmp_path / "round.pdf"
    slug = tables[0].table.round.event.slug
    call_command("print_round", slug, "1", "--out", str(out), "--base-url", "http://kalooki.local:8000")
    addresses = decode_qr(out.read_bytes())
    assert len(addresses) == 2 and all(a.startswith("http://kalooki.local:8000/s/") for a in addresses)
    settings.KALOOKI_PUBLIC_URL = "http://10.0.0.5:8000"
    call_command("print_round", slug, "1", "--out", str(out), "--completed")
    assert all(a.startswith("http://10.0.0.5:8000/s/") for a in decode_qr(out.read_bytes()))
