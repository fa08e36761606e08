"""What WeasyPrint may load while it lays out one of our documents: `data:` URLs (the blank sheet's grid)
and the app's own static files (styles, fonts, images) — nothing else. WeasyPrint's own fetcher opens
`file://` and the network, so a stray URL in a document could read the server's files or call out.

Documents are laid out with `BASE_URL` as their address, so `/static/…` resolves to it; any other URL is
refused (WeasyPrint then leaves the resource out and lays the page out without it).
"""

from __future__ import annotations

import mimetypes
import posixpath
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from weasyprint.urls import URLFetcher, URLFetcherResponse

# A name that never resolves (RFC 6761 reserves .invalid): nothing is ever fetched from it.
BASE_URL = "http://kalooki.invalid/"


class RefusedURL(ValueError):
    """A URL that is neither data: nor one of the app's own static files."""


def static_file(url: str) -> Path | None:
    """The app's own static file that `url` names (under BASE_URL and STATIC_URL), or None."""
    parts = urlsplit(url)
    base = urlsplit(BASE_URL)
    if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
        return None
    prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    path = unquote(parts.path)
    if not path.startswith(prefix):
        return None
    relative = path[len(prefix) :]
    if not relative or posixpath.normpath(relative) != relative or relative.startswith(("/", "..")):
        return None
    found = finders.find(relative)
    return Path(found) if isinstance(found, str) else None


class AppFilesFetcher(URLFetcher):
    """WeasyPrint's fetcher limited to data: URLs and the app's own static files."""

    def __init__(self):
        super().__init__(allowed_protocols=("data",), allow_redirects=False)

    def fetch(self, url, headers=None):
        if url.startswith("data:"):
            return super().fetch(url, headers)
        path = static_file(url)
        if path is None:
            raise RefusedURL(f"{url[:200]} is not one of the app's own files")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})
