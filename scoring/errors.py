"""ValidationErrors that name the field or the place they are about.

Services, the deal input and the importers raise them keyed by field (`name`) or path
(`results.Bob.calls`, `deals[3].results.Bob.calls`), so a form shows each message beside its field
and a command names the place.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError


def field_errors(errors: Mapping[str, str | list[str]]) -> ValidationError:
    """`{"results.Bob.calls": "expected a whole number"}` as a ValidationError keyed the same way."""
    return ValidationError(
        {key: value if isinstance(value, list) else [value] for key, value in errors.items()}
    )


def prefixed_errors(exc: ValidationError, prefix: str) -> ValidationError:
    """The same errors with each key placed under `prefix` (`deals[3]` + `results.Bob.calls`)."""
    if hasattr(exc, "error_dict"):
        return field_errors(
            {f"{prefix}.{key}": [str(m) for m in value] for key, value in exc.message_dict.items()}
        )
    return field_errors({prefix: exc.messages})
