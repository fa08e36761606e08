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

A name (and a club or a membership id) holding a control character — NUL, a line break, DEL, a C1
control or a lone surrogate — is refused (`control_problem`): such a character prints as nothing or
breaks the line of a sheet, and PostgreSQL cannot store a NUL.

A name written wholly in another script can still look exactly like a name already in the event (an
all-Cyrillic `Сое` beside a Latin `Coe`): each name's `skeleton` — its key with every letter replaced by
the letter it is confusable with, Latin where there is one — is compared with the event's names, and a
name whose skeleton another name already has is refused (`look_alike`).

Every way a name comes in — a director's entry, the CSV import, a rename in the admin, an archive — goes
through `checked_name`, and into an event through `look_alike` as well.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

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


def control_character(text: str) -> str | None:
    """The first control character of the text (category Cc, or a lone surrogate), or None.

    >>> [control_character(t) for t in ("Ann", "A\\x00nn", "Ann\\nLee", "Ann\\u200b")]
    [None, '\\x00', '\\n', None]
    """
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs"):
            return char
    return None


def control_problem(text: str, what: str = "name") -> str | None:
    """Why the text is refused for holding a control character, or None.

    >>> print(control_problem("Ann\\x00"))
    the name holds a control character (U+0000), which cannot be stored or printed: remove it
    """
    char = control_character(text)
    if char is None:
        return None
    return (
        f"the {what} holds a control character (U+{ord(char):04X}), which cannot be stored or printed: "
        "remove it"
    )


def checked_text(value: str, *, field: str, what: str) -> str:
    """`value` stripped, refused (ValidationError keyed by `field`) when it holds a control character."""
    problem = control_problem(value, what)
    if problem:
        raise ValidationError({field: f"{problem[:1].upper()}{problem[1:]}."})
    return value.strip()


@lru_cache(maxsize=8192)
def _prototype(char: str) -> str:
    """The letter `char` is taken for: itself (ASCII, or confusable with nothing), else the ASCII letter
    it is confusable with, else the least of its look-alikes (so every look-alike gives the same)."""
    if char.isascii():
        return char
    found = confusables.is_confusable(char, greedy=True)
    if not found:
        return char
    glyphs = [glyph["c"] for glyph in found[0]["homoglyphs"] if len(glyph["c"]) == 1]
    plain = sorted(glyph for glyph in glyphs if glyph.isascii())
    return plain[0] if plain else min([char, *glyphs])


@lru_cache(maxsize=65536)
def skeleton(name: str) -> str:
    """What the name looks like: each letter as written replaced by the one it is confusable with, then
    compared as keys are (`name_key`). Two names with one skeleton cannot be told apart on a sheet.

    >>> skeleton("\\u0421\\u043e\\u0435") == skeleton("Coe") == "coe"
    True
    >>> skeleton("\\u041d\\u0415\\u041e") == skeleton("HEO")
    True
    >>> skeleton("Anna") == skeleton("Анна")
    False
    """
    # As written, before case folding: a capital Cyrillic Н looks like a Latin H, a small н does not.
    written = unicodedata.normalize("NFKC", visible(name))
    return name_key("".join(_prototype(char) for char in written))


def look_alike(name: str, others: Iterable[tuple[str, str]]) -> str | None:
    """The shown name of one of `others` ((key, shown name) of the names already there) that looks like
    `name` without being the same name, or None.

    >>> look_alike("\\u0421\\u043e\\u0435", [("coe", "Coe"), ("ann", "Ann")])
    'Coe'
    >>> look_alike("Coe", [("coe", "Coe")]) is None
    True
    """
    key, shape = name_key(name), skeleton(name)
    for other_key, shown in others:
        if other_key != key and skeleton(shown) == shape:
            return shown
    return None


def look_alike_message(name: str, other: str, *, where: str = "already in this event") -> str:
    """The refusal of a name that looks like another name already there."""
    return (
        f"{name.strip()!r} looks exactly like {other!r}, {where}, but is written in other letters: "
        "enter the player as the other name is written, or tell the two apart"
    )


def checked_name(name: str, *, field: str = "name") -> tuple[str, str]:
    """(the name as stored, its key): stripped, and refused (ValidationError keyed by `field`) when it
    holds a control character, is empty once invisible characters are removed or mixes confusable
    scripts."""
    shown = name.strip()
    problem = control_problem(shown)
    if problem:
        raise ValidationError({field: f"{problem[:1].upper()}{problem[1:]}."})
    key = name_key(shown)
    if not key:
        raise ValidationError({field: "Give the player's name."})
    problem = confusable_problem(shown)
    if problem:
        raise ValidationError({field: f"{problem[:1].upper()}{problem[1:]}."})
    return shown, key
