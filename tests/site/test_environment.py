"""Settings read the environment strictly (issue 9, step 9): a mistyped yes/no or number stops start-up
with ImproperlyConfigured naming the variable and what it accepts."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from kalooki_tournament.environment import env_bool, env_int, secret_key_from_file

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("true", True), (" Yes ", True), ("ON", True), ("0", False), ("false", False),
     ("no", False), ("Off", False), ("", None), (None, None)],
)  # fmt: skip
def test_yes_no_words_are_read_and_blank_means_the_default(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv("KALOOKI_TEST_FLAG", raising=False)
    else:
        monkeypatch.setenv("KALOOKI_TEST_FLAG", value)
    for default in (True, False):
        assert env_bool("KALOOKI_TEST_FLAG", default) is (default if expected is None else expected)


@pytest.mark.parametrize("value", ["ture", "y", "2", "enabled", "nein"])
def test_an_unknown_yes_no_word_names_the_variable_and_the_words(monkeypatch, value):
    monkeypatch.setenv("DJANGO_SECURE_COOKIES", value)
    with pytest.raises(ImproperlyConfigured) as error:
        env_bool("DJANGO_SECURE_COOKIES", True)
    assert f"DJANGO_SECURE_COOKIES={value!r}" in str(error.value)
    assert "1, true, yes, on, 0, false, no, off" in str(error.value)


@pytest.mark.parametrize(("value", "expected"), [("600", 600), (" 0 ", 0), ("", 7)])
def test_whole_numbers_are_read(monkeypatch, value, expected):
    monkeypatch.setenv("DJANGO_CONN_MAX_AGE", value)
    assert env_int("DJANGO_CONN_MAX_AGE", 7) == expected


@pytest.mark.parametrize("value", ["ten", "1.5", "-3", "1_000", "²", "١٢", "0x10", "5 minutes"])
def test_a_bad_number_names_the_variable_and_what_it_accepts(monkeypatch, value):
    monkeypatch.setenv("DJANGO_LOGIN_FAILURE_LIMIT", value)
    with pytest.raises(ImproperlyConfigured) as error:
        env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5, minimum=1)
    assert f"DJANGO_LOGIN_FAILURE_LIMIT={value!r} is not a whole number of 1 or more" in str(error.value)


def test_a_number_below_the_minimum_is_refused(monkeypatch):
    monkeypatch.setenv("DJANGO_LOGIN_FAILURE_WINDOW", "0")
    with pytest.raises(ImproperlyConfigured, match="DJANGO_LOGIN_FAILURE_WINDOW='0'"):
        env_int("DJANGO_LOGIN_FAILURE_WINDOW", 900, minimum=1)


@pytest.mark.parametrize(
    ("name", "value"),
    [("DJANGO_SECURE_COOKIES", "ture"), ("DJANGO_DEBUG", "maybe"), ("DJANGO_HSTS_SECONDS", "a year"),
     ("DJANGO_CONN_MAX_AGE", "-1")],
)  # fmt: skip
def test_start_up_stops_on_a_mistyped_variable(name, value):
    env = {key: item for key, item in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DJANGO_DEBUG="0", DJANGO_SECRET_KEY="k" * 60, DJANGO_SETTINGS_MODULE="kalooki_tournament.settings"
    )
    env[name] = value
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and f"{name}={value!r}" in result.stderr


def test_a_blank_database_url_means_the_sqlite_default():
    """`DATABASE_URL=` (set but blank, as an environment file leaves it) is the default, not a crash."""
    env = {key: item for key, item in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(DATABASE_URL=" ", DJANGO_SETTINGS_MODULE="kalooki_tournament.settings")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
         "print(settings.DATABASES['default']['ENGINE'])"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.sqlite3"


def test_the_secret_key_file_is_made_once_readable_by_its_owner_alone(tmp_path):
    path = tmp_path / "config" / "kalooki" / "secret_key"
    key = secret_key_from_file(path)
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert secret_key_from_file(path) == key
    assert sorted(item.name for item in path.parent.iterdir()) == ["secret_key"]


def test_a_secret_key_file_without_a_key_is_refused(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("short\n")
    with pytest.raises(ImproperlyConfigured, match="holds no key"):
        secret_key_from_file(path)
