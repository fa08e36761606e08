"""The keys to a table's phone page (issue 13): the token in the sheet's QR code, the short code under
it, and the QR code itself.

A key is a random `selector` (stored, not secret: it finds the key) and a secret derived from it with
the site's secret key (HMAC-SHA256, 192 bits): the token is the two together, 40 characters. Only a
hash of the secret is stored and it is compared with `hmac.compare_digest`, so neither the database
nor a backup holds a token, and the time a wrong token takes says nothing about the right one. The
printed sheet derives the token again from the selector. Changing DJANGO_SECRET_KEY changes every
token and short code (sheets printed before then open nothing).

The short code is 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L, U/V), derived the
same way; it opens a table's page only together with its event and table number.

Each seat has a seat code (issue 23): 5 characters of the same alphabet, derived the same way from the
table's selector and the seat's position and printed beside the player's name on the table's sheet. A
deal is entered naming the entering seat's code and confirmed with another seat's, so a confirmation is
proven by something only that seat holds, not by a posted seat number or a device cookie. A new table
code (a new selector) changes every seat code of that table.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.conf import settings

SELECTOR_CHARS = 8
# 24 bytes = 192 bits of the HMAC, 32 characters of URL-safe base64.
SECRET_BYTES = 24
TOKEN_LENGTH = SELECTOR_CHARS + SECRET_BYTES * 4 // 3
SHORT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ"
SHORT_LENGTH = 8


def new_selector() -> str:
    """A fresh random selector: 8 URL-safe characters (48 bits; the secret carries the strength)."""
    return secrets.token_urlsafe(SELECTOR_CHARS)[:SELECTOR_CHARS].replace("-", "x").replace("_", "y")


def _mac(purpose: str, selector: str) -> bytes:
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"kalooki.self-entry.{purpose}:{selector}".encode(), hashlib.sha256).digest()


def secret_for(selector: str) -> str:
    """The secret half of the token of `selector` (32 URL-safe characters, 192 bits)."""
    return base64.urlsafe_b64encode(_mac("token", selector)[:SECRET_BYTES]).decode()


def secret_hash(secret: str) -> str:
    """What is stored of a secret: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def token_for(selector: str) -> str:
    return selector + secret_for(selector)


def split_token(token: str) -> tuple[str, str] | None:
    """(selector, secret) of a token of the right shape, else None."""
    if not isinstance(token, str) or len(token) != TOKEN_LENGTH or not token.isascii():
        return None
    return token[:SELECTOR_CHARS], token[SELECTOR_CHARS:]


def secret_matches(stored_hash: str, secret: str) -> bool:
    """The secret hashes to the stored hash, compared in constant time."""
    return hmac.compare_digest(stored_hash.encode(), secret_hash(secret).encode())


def _letters(mac: bytes, length: int) -> str:
    """`length` characters of the alphabet without look-alikes, read from `mac`."""
    digest = int.from_bytes(mac, "big")
    letters = []
    for _ in range(length):
        digest, index = divmod(digest, len(SHORT_ALPHABET))
        letters.append(SHORT_ALPHABET[index])
    return "".join(letters)


def short_code_for(selector: str) -> str:
    """The 8-character code printed under the QR code."""
    return _letters(_mac("short", selector), SHORT_LENGTH)


def normal_short_code(typed: str) -> str:
    """A typed code as compared: upper case, without spaces or dashes."""
    return "".join(typed.split()).replace("-", "").upper()


def short_code_matches(selector: str, typed: str) -> bool:
    return hmac.compare_digest(short_code_for(selector).encode(), normal_short_code(typed).encode())


SEAT_CODE_LENGTH = 5


def seat_code_for(selector: str, position: int) -> str:
    """The code printed beside the player in seat `position` of the table whose key is `selector`."""
    return _letters(_mac(f"seat.{position}", selector), SEAT_CODE_LENGTH)


def seat_code_matches(selector: str, position: int, typed: str) -> bool:
    """`typed` is seat `position`'s code (compared in constant time; case, spaces and dashes aside)."""
    typed = normal_short_code(typed or "")
    return hmac.compare_digest(seat_code_for(selector, position).encode(), typed.encode())


def shown_short_code(code: str) -> str:
    """The code as printed, in two groups of four (`ABCD EFGH`)."""
    return f"{code[:4]} {code[4:]}"


@dataclass(frozen=True)
class SheetCode:
    """What a printed sheet shows beside its table number: the QR code (SVG), its address, the short
    code."""

    url: str
    svg: str
    short_code: str


def qr_svg(url: str) -> str:
    """The address as a QR code, an inline SVG of one path (segno), 26 mm square on the sheet."""
    import segno

    code = segno.make(url, error="m", micro=False)
    return code.svg_inline(scale=1, border=2, omitsize=True, svgclass="qr", lineclass=None)


def sheet_code(base_url: str, path: str, selector: str) -> SheetCode:
    url = base_url.rstrip("/") + path
    return SheetCode(url=url, svg=qr_svg(url), short_code=shown_short_code(short_code_for(selector)))
