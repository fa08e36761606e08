"""The door's check-in codes (issue 26): six characters a player's slip and the badge list print, and the
check-in address their QR code holds.

A code is derived from the entry's id with the site's secret key (HMAC-SHA256), in the self-entry
codes' alphabet without look-alikes, so nothing is stored and a code cannot be guessed from another.
It names a player; it is not a key: the check-in address opens only for the event's directors and door
helpers, logged in. Changing DJANGO_SECRET_KEY changes every code (print the slips again).
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

from .self_entry_codes import SHORT_ALPHABET, normal_short_code

DOOR_CODE_LENGTH = 6


def door_code_for(entry_id: int) -> str:
    """The entry's check-in code: 6 characters of SHORT_ALPHABET."""
    mac = hmac.new(settings.SECRET_KEY.encode(), f"kalooki.door:{entry_id}".encode(), hashlib.sha256)
    digest = int.from_bytes(mac.digest(), "big")
    letters = []
    for _ in range(DOOR_CODE_LENGTH):
        digest, index = divmod(digest, len(SHORT_ALPHABET))
        letters.append(SHORT_ALPHABET[index])
    return "".join(letters)


def door_code_matches(entry_id: int, typed: str) -> bool:
    """`typed` (any case, spaces and dashes ignored) is the entry's code; compared in constant time."""
    return hmac.compare_digest(door_code_for(entry_id).encode(), normal_short_code(typed).encode())


def looks_like_door_code(typed: str) -> bool:
    """Six characters of the alphabet once spaces and dashes are gone: search codes, not names."""
    code = normal_short_code(typed)
    return len(code) == DOOR_CODE_LENGTH and all(letter in SHORT_ALPHABET for letter in code)
