"""Reading the settings' environment strictly: a value that is mistyped stops start-up with a message
naming the variable and what it accepts, instead of quietly meaning something else (`ture` read as no).

Also the venue's secret key: generated once and kept in a file outside the repository, readable by its
owner alone, so a laptop serving the venue's Wi-Fi keeps its sessions across restarts.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
WHOLE_NUMBER = re.compile(r"[0-9]+")


def _value(name: str) -> str | None:
    """The variable's value, stripped; None when it is unset or blank (the default applies)."""
    value = os.environ.get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def env_bool(name: str, default: bool) -> bool:
    """A yes/no setting; a word that is neither stops start-up rather than reading as no."""
    value = _value(name)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a yes/no value: use one of {', '.join(TRUE_WORDS + FALSE_WORDS)}."
    )


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    """A whole number (ASCII digits) of at least `minimum`; anything else stops start-up."""
    value = _value(name)
    if value is None:
        return default
    if not WHOLE_NUMBER.fullmatch(value) or int(value) < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number of {minimum} or more.")
    return int(value)


def env_list(name: str, default: str) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_url(name: str, default: str = "") -> str:
    """An absolute http(s) address with a host (`http://kalooki.local:8000`, a path allowed), without
    its trailing slash; anything else (no scheme, a query, a fragment, spaces) stops start-up."""
    value = _value(name)
    if value is None:
        return default
    parts = urlsplit(value)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or parts.username
        or any(character.isspace() for character in value)
    ):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not an address such as http://kalooki.local:8000 "
            "(http or https, a host, no query or fragment)."
        )
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port == -1:
        raise ImproperlyConfigured(f"{name}={value!r} has a port that is not a number.")
    return value.rstrip("/")


def default_secret_key_file() -> Path:
    """Where the venue mode keeps its generated key: the user's configuration folder, not the repo."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "kalooki" / "secret_key"


def secret_key_from_file(path: Path) -> str:
    """The key kept in `path`, generated (folder 0700, file 0600) the first time.

    Several gunicorn workers may start at once: the key is written under a temporary name and linked
    into place, so every process reads one complete key, whoever wrote it.
    """
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        scratch = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(50) + "\n")
        try:
            os.link(scratch, path)
        except FileExistsError:
            pass
        finally:
            scratch.unlink()
    try:
        key = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ImproperlyConfigured(f"Cannot read the secret key file {path}: {exc}") from None
    if len(key) < 50:
        raise ImproperlyConfigured(f"The secret key file {path} holds no key of 50 characters or more.")
    return key
