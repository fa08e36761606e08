"""Two app servers, one database, one cache (issue 12, scale-out): two gunicorn instances on their own
ports share PostgreSQL and Redis. A set verified through one changes the standings on the other at once,
and log-in failures counted on one lock the pair out on the other.

Needs DATABASE_URL=postgres://… and REDIS_URL=redis://… (.ci/run's PostgreSQL + Redis pass); skipped,
saying so, otherwise.
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from scoring.bench.server import collected_static, gunicorn

pytestmark = [
    pytest.mark.heavy,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "two-servers-pw-4417"
NO_RESULTS = "No results count yet."


def database_url() -> str:
    """The test database, as the servers must reach it (TCP or the Unix socket)."""
    params = connection.settings_dict
    user = quote(params.get("USER") or "")
    password = f":{quote(str(params['PASSWORD']))}" if params.get("PASSWORD") else ""
    host, port, name = params.get("HOST") or "", params.get("PORT") or "", params["NAME"]
    if host.startswith("/"):
        return f"postgres:///{name}?host={quote(host)}&user={user}"
    return f"postgres://{user}{password}@{host or '127.0.0.1'}{f':{port}' if port else ''}/{name}"


@pytest.fixture
def shared_stack():
    if connection.vendor != "postgresql":
        pytest.skip("two app servers share one database: run with DATABASE_URL=postgres://…")
    if not settings.REDIS_URL:
        pytest.skip("two app servers share one cache: run with REDIS_URL=redis://…")


class Browser:
    """A reader with its own cookies, talking to one server."""

    def __init__(self, server):
        self.server = server
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.server.url(path)))

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        token = next((cookie.value for cookie in self.cookies if cookie.name == "csrftoken"), "")
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        return self._open(urllib.request.Request(self.server.url(path), data=data))

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def log_in(self, username: str, password: str) -> int:
        self.get(reverse("login"))
        return self.post(reverse("login"), {"username": username, "password": password})[0]


@pytest.fixture
def two_servers(shared_stack, played, director, other_director, settings):
    # The servers hash as production does; the tests' MD5 hasher is unknown to them.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    for user in (director, other_director):
        user.set_password(PASSWORD)
        user.save()
    event = played.table.round.event
    standings = reverse("scoring:standings", kwargs={"slug": event.slug})
    url = database_url()
    # Plain HTTP on loopback: cookies must not be secure-only, as at a venue without TLS.
    plain_http = {"DJANGO_SECURE_COOKIES": "0", "DJANGO_HSTS_SECONDS": "0"}
    with ExitStack() as stack:
        static = stack.enter_context(collected_static(database_url=url))
        servers = [
            stack.enter_context(
                gunicorn(
                    database_url=url,
                    static_root=static,
                    ready_path=standings,
                    workers=2,
                    extra_environment=plain_http,
                )
            )
            for _ in range(2)
        ]
        yield servers, event, played, standings


def test_two_servers_agree_at_once_on_standings_and_log_in_failures(two_servers, director, other_director):
    (first, second), event, game_set, standings = two_servers
    assert first.port != second.port
    reader = Browser(second)
    # Both of the second server's workers have seen (and stored) the standings with no result yet.
    for _ in range(4):
        status, page = reader.get(standings)
        assert status == 200 and NO_RESULTS in page

    desk = Browser(first)
    assert desk.log_in(director.username, PASSWORD) == 200
    table = reverse(
        "scoring:direct_verify",
        kwargs={"slug": event.slug, "number": game_set.table.round.number, "table": game_set.table.number},
    )
    game_set.refresh_from_db()
    status, answer = desk.post(table, {"version": str(game_set.version), "acknowledge": "on"})
    assert status == 200 and "Set verified" in answer, answer[-2000:]
    game_set.refresh_from_db()
    assert game_set.status == game_set.Status.VERIFIED

    for _ in range(4):
        status, page = reader.get(standings)
        assert status == 200 and NO_RESULTS not in page
        assert re.search(r">\s*Ann\s*<", page)

    # Five failures on the first server lock the pair on the second, before its password is read.
    intruder = Browser(first)
    for _ in range(5):
        assert intruder.log_in(other_director.username, "wrong") == 200
    elsewhere = Browser(second)
    assert elsewhere.log_in(other_director.username, PASSWORD) == 429
