"""WeasyPrint loads only data: URLs and the app's own static files (issue 12, item 13): no file://, no
network, no way out of the static folders."""

from __future__ import annotations

import base64
import io
import struct
import zlib
from pathlib import Path

import pypdf
import pytest

from scoring.printing import scoresheets
from scoring.printing.pdf_fetcher import BASE_URL, AppFilesFetcher, RefusedURL

BASE_DIR = Path(__file__).resolve().parents[2]


def png(width: int = 2, height: int = 2) -> bytes:
    """A tiny valid PNG (red pixels), made here so the test needs no image file."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def images_in(pdf: bytes) -> int:
    return sum(len(page.images) for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/hostname",
        f"file://{BASE_DIR}/kalooki_tournament/settings.py",
        "http://127.0.0.1:9/x.css",
        "https://example.org/font.woff2",
        "ftp://example.org/x",
        f"{BASE_URL}static/../kalooki_tournament/settings.py",
        f"{BASE_URL}static/%2e%2e/settings.py",
        f"{BASE_URL}static//etc/hostname",
        f"{BASE_URL}kalooki_tournament/settings.py",
        "http://kalooki.invalid.example.org/static/css/print.css",
    ],
)
def test_anything_but_data_and_the_apps_static_files_is_refused(url):
    with pytest.raises(RefusedURL):
        AppFilesFetcher().fetch(url)


def test_the_apps_own_static_files_and_data_urls_are_served():
    answer = AppFilesFetcher().fetch(f"{BASE_URL}static/css/print.css")
    assert answer.read() == (BASE_DIR / "kalooki_tournament/static/css/print.css").read_bytes()
    assert answer.content_type == "text/css"
    assert AppFilesFetcher().fetch("data:text/plain;base64,aGk=").read() == b"hi"


def test_a_document_loads_data_images_but_never_a_file(tmp_path):
    picture = tmp_path / "secret.png"
    picture.write_bytes(png())
    inline = base64.b64encode(png()).decode()
    allowed = scoresheets.write_pdf(f'<img src="data:image/png;base64,{inline}">')
    refused = scoresheets.write_pdf(f'<img src="file://{picture}"><img src="{picture}">')
    assert images_in(allowed) == 1
    assert images_in(refused) == 0
