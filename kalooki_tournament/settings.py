"""One settings module, driven by the environment.

Development defaults are safe on a laptop (DEBUG on, SQLite file, a throw-away secret). Production sets
DJANGO_DEBUG=0, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and DATABASE_URL; `manage.py check --deploy`
then passes (see README, "Running for a federation"). The venue mode (DJANGO_VENUE=1, what
`make run HOST=0.0.0.0` sets) is production on a laptop serving plain-HTTP Wi-Fi: DEBUG off, a secret
key generated into a file outside the repository, cookies that plain HTTP can carry. REDIS_URL makes
Redis the cache every worker and app server shares. A mistyped value stops start-up
(`kalooki_tournament.environment`).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from kalooki_tournament.environment import (
    default_secret_key_file,
    env_bool,
    env_int,
    env_list,
    env_url,
    secret_key_from_file,
)

BASE_DIR = Path(__file__).resolve().parent.parent

VENUE_MODE = env_bool("DJANGO_VENUE", False)
DEBUG = env_bool("DJANGO_DEBUG", env_bool("DEBUG", not VENUE_MODE))
if VENUE_MODE and DEBUG:
    # The debug page shows settings and environment to every phone in the hall.
    raise ImproperlyConfigured("DJANGO_VENUE=1 serves the venue's network: DJANGO_DEBUG must stay off.")

_DEV_SECRET = "dev-only-insecure-secret-key-change-me-in-production-0123456789"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", os.environ.get("SECRET_KEY", ""))
if not SECRET_KEY and VENUE_MODE:
    SECRET_KEY = secret_key_from_file(
        Path(os.environ.get("KALOOKI_SECRET_KEY_FILE") or default_secret_key_file()).expanduser()
    )
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY when DEBUG is off.")
    SECRET_KEY = _DEV_SECRET
elif SECRET_KEY == _DEV_SECRET and not DEBUG:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY is the published development key: set a secret one.")

# The venue network: phones and the projector connect by the laptop's address, whatever it is today.
ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    os.environ.get("ALLOWED_HOSTS", "*" if DEBUG or VENUE_MODE else "localhost,127.0.0.1"),
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")
# The address phones reach the app at, printed in each table sheet's QR code (issue 13) when a sheet is
# printed from the command line; a sheet printed from a page uses the address that page was asked on.
KALOOKI_PUBLIC_URL = env_url("KALOOKI_PUBLIC_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_filters",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "scoring",
    "adjudication",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "kalooki_tournament.ratelimit.LoginRateLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # A save that found SQLite locked by another writer: "try again" (503), not an error page.
    "kalooki_tournament.database_busy.DatabaseBusyMiddleware",
]

ROOT_URLCONF = "kalooki_tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "kalooki_tournament.wsgi.application"

# SQLite by default (DATABASE_URL unset or blank); DATABASE_URL=postgres://… for PostgreSQL.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Keep connections between requests: opening one per request halves the standings page's throughput.
        conn_max_age=env_int("DJANGO_CONN_MAX_AGE", 600),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several directors save at once: WAL lets readers go on while one writer writes, and IMMEDIATE
    # transactions queue writers instead of failing with "database is locked". The version check in
    # the services still decides who wins: the last write would otherwise win (docs/ARCHITECTURE.md,
    # "Libraries: facts we rely on").
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Threaded tests need a file, not an in-memory database; one file per test run, so two runs on one
    # machine never share it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Long work (a big round pack, standings PDF or player import: `scoring.background`) is queued in the
# database and done by `manage.py db_worker`, a process of its own beside the app servers (README).
TASKS = {"default": {"BACKEND": "django_tasks_db.backend.DatabaseBackend"}}
# A finished job's result (and its task's row) is kept this long for its director to download.
BACKGROUND_JOBS_KEEP_HOURS = env_int("KALOOKI_JOBS_KEEP_HOURS", 24, minimum=1)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Log-in attempts: LOGIN_FAILURE_LIMIT failures per username and address within LOGIN_FAILURE_WINDOW
# seconds lock that pair out for the rest of the window (kalooki_tournament/ratelimit.py).
AUTHENTICATION_BACKENDS = ["kalooki_tournament.ratelimit.RateLimitedModelBackend"]
LOGIN_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_FAILURE_WINDOW = env_int("DJANGO_LOGIN_FAILURE_WINDOW", 15 * 60, minimum=1)
# Behind a reverse proxy: the header it writes the client's address into (e.g. HTTP_X_REAL_IP).
LOGIN_CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "")

LOGIN_URL = "login"
# A director lands on the dashboard of the event they are running (scoring.web.organise.views.desk).
LOGIN_REDIRECT_URL = "scoring:desk"
LOGOUT_REDIRECT_URL = "scoring:home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "America/Jamaica")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `collectstatic` gathers the files whitenoise serves in production.
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
# Everything a page needs (htmx, styles, fonts) is served by the app: the venue may have no internet.
STATICFILES_DIRS = [BASE_DIR / "kalooki_tournament" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# Away from the venue (DEBUG) a static file is looked up when it is asked for, as runserver does; in
# venue mode the files are listed once when the server starts. (whitenoise's own default reads DEBUG
# when each handler starts, and the test runner turns DEBUG off: every test client listed every file.)
WHITENOISE_AUTOREFRESH = DEBUG

# REDIS_URL (redis://host:6379/N, a database of the app's own: the tests empty it) makes Redis the cache
# every worker and app server shares: cached pages, the results generation and the log-in counters.
# Without it one machine works as before: pages in each process, log-in counts in the database.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER", "").startswith("gw"):
    # `make test` runs parallel workers (pytest-xdist) and each empties the cache between tests: each
    # worker, and the servers it starts, uses database N + its number (gw0: N, gw1: N + 1, …).
    from urllib.parse import urlsplit

    _redis = urlsplit(REDIS_URL)
    _redis_db = int(_redis.path.strip("/") or 0) + int(os.environ["PYTEST_XDIST_WORKER"][2:])
    REDIS_URL = _redis._replace(path=f"/{_redis_db}").geturl()
if REDIS_URL:
    from kalooki_tournament.shared_cache import shared_caches

    # First: a cached public page is answered before sessions, authentication or the database.
    MIDDLEWARE.insert(0, "scoring.page_cache.SharedPageCacheMiddleware")
    # Every use fails open: with Redis down pages are made afresh and the log-in counts go to the
    # database (kalooki_tournament/shared_cache.py).
    CACHES = shared_caches(REDIS_URL)
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "kalooki",
            # The ratings keep two entries an event (its places, its counted sets): a federation's
            # hundreds of events would be culled at Django's default of 300.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        },
        # Shared by every worker process: failed log-ins are counted in the database.
        "ratelimit": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "kalooki_ratelimit_cache",
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        },
        # The background jobs' leases (scoring/services/jobs.py).
        "leases": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "kalooki_job_leases",
        },
    }

DJANGO_TABLES2_TEMPLATE = "django_tables2/kalooki.html"

# Content security policy: no inline scripts, nothing from other hosts.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
    }
}

if not DEBUG:
    # Behind a TLS proxy everything is on by default. The venue mode serves plain-HTTP Wi-Fi, where
    # browsers drop secure cookies (no one could log in) and an HTTPS redirect or HSTS locks every phone
    # out: those three are off there, and `check --deploy` names exactly them (README).
    tls = not VENUE_MODE
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", tls)
    if tls:
        # Only a proxy may say the request came over HTTPS; with no proxy any client could claim it.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", tls)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000 if tls else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {"fontTools": {"level": "ERROR"}, "weasyprint": {"level": "ERROR"}},
}
