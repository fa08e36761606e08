"""The name rule: when two players' names are the same name, and which names are refused.

Sheets and standings refer to players by name, so a name appears once per event. "Once" means once
after normalising (`name_key`): Unicode NFKC (full-width `Ａｎｎ` is `Ann`, a decomposed `José` the
composed one), case-folded (`ANN`, `ann`), invisible characters and bidi controls removed (a zero-width
space inside `A​nn`), runs of spaces as one. The key is stored with each entry
(`Entry.normalized_name`) under a unique constraint, so two simultaneous entries cannot both win.

NFKC does not fold look-alike letters of other scripts (`Аnn` with a Cyrillic А), so a word that mixes
scripts with letters confusable between them is refused outright (`confusable_problem`), using the
Unicode confusables data of `confusable-homoglyphs`. A word written wholly in one script
(`Анна`, `Zoë`) and a name whose words are in different scripts (`Anna Иванова`) are fine.

Every way a name comes in — a director's entry, the CSV import, a rename in the admin — goes through
`checked_name`.
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs import categories, confusables
from django.core.exceptions import ValidationError

# Default-ignorable code points that are not format characters (category Cf, removed as a class):
# combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian variation selectors,
# variation selectors, the Braille blank and tag characters — all invisible when printed.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_invisible(char: str) -> bool:
    """A character that prints as nothing: format characters (zero-width space and joiners, bidi
    controls, soft hyphen, byte-order mark …) and the other default-ignorable code points.

    >>> [is_invisible(c) for c in ("\\u200b", "\\u202e", "\\u00ad", "a", " ")]
    [True, True, True, False, False]
    """
    if unicodedata.category(char) == "Cf":
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE_RANGES)


def visible(name: str) -> str:
    """The name without its invisible characters."""
    return "".join(char for char in name if not is_invisible(char))


def name_key(name: str) -> str:
    """The name as compared: two names with the same key are the same name in one event.

    >>> name_key("  Ａｎｎ ") == name_key("ann") == name_key("A\\u200bNN")
    True
    >>> name_key("Jose\\u0301") == name_key("José")
    True
    >>> name_key("Mary  Jane") == name_key("mary jane")
    True
    """
    folded = unicodedata.normalize("NFKC", visible(name)).casefold()
    # Case folding can undo NFKC (NFKC_Casefold applies it again); folding can also reveal ignorables.
    folded = visible(unicodedata.normalize("NFKC", folded))
    return " ".join(folded.split())


def confusable_problem(name: str) -> str | None:
    """Why the name is refused, or None: a word mixing scripts whose letters look alike.

    >>> confusable_problem("Ann") is None and confusable_problem("Anna Иванова") is None
    True
    >>> print(confusable_problem("\\u0410nn"))  # doctest: +NORMALIZE_WHITESPACE
    'Аnn' mixes Cyrillic and Latin letters that look alike (А looks like Latin A):
    write each word in one script
    """
    for word in unicodedata.normalize("NFKC", visible(name)).split():
        found = confusables.is_dangerous(word) and confusables.is_confusable(word, greedy=True)
        if not found:
            continue
        scripts = sorted(alias.title() for alias in categories.unique_aliases(word) if alias != "COMMON")
        first = found[0]
        look_alike = first["homoglyphs"][0]
        alike_script = look_alike["n"].split(" ", 1)[0].title()
        return (
            f"{word!r} mixes {' and '.join(scripts)} letters that look alike "
            f"({first['character']} looks like {alike_script} {look_alike['c']}): "
            "write each word in one script"
        )
    return None


def checked_name(name: str, *, field: str = "name") -> tuple[str, str]:
    """(the name as stored, its key): stripped, and refused (ValidationError keyed by `field`) when it
    is empty once invisible characters are removed or mixes confusable scripts."""
    shown = name.strip()
    key = name_key(shown)
    if not key:
        raise ValidationError({field: "Give the player's name."})
    problem = confusable_problem(shown)
    if problem:
        raise ValidationError({field: f"{problem[:1].upper()}{problem[1:]}."})
    return shown, key
