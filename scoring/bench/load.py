"""`load`: requests per second and p99 latency of the public standings page under gunicorn (2 workers).

The server is warmed (every worker has answered and cached the page) before the timed run. Runs: plain
GETs — every answer a full 200 page, the figure judged against the target — then a small static file
whitenoise serves from the same gunicorn (`ratio_to_static`: the cached page's rate over the file's, the
ceiling of this stack; with REDIS_URL the page comes from the shared cache's first middleware), then
conditional GETs carrying the page's ETag, answered 304 as a revisiting phone's browser would be. When
the settings open a new database connection per request (DJANGO_CONN_MAX_AGE=0), the plain GETs are run
once more against a server that keeps its connections, to show what that costs.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings

from . import loadgen
from .context import BenchContext
from .server import HOST, Server, gunicorn

WARM_UP_SECONDS = 1.0
WORKERS = 2
PERSISTENT_SECONDS = 60
# A small file every page links (216 bytes), served by whitenoise without touching Django's views.
STATIC_PATH = "/static/favicon.svg"


def _tool(preference: str) -> str:
    if preference == "wrk" and not loadgen.wrk_available():
        raise RuntimeError("wrk is not installed (Debian package wrk)")
    if preference == "auto":
        return "wrk" if loadgen.wrk_available() else "python"
    return preference


def _run(tool: str, server: Server, path: str, *, seconds: float, connections: int, headers=None):
    if tool == "wrk":
        return loadgen.run_wrk(server.url(path), seconds=seconds, connections=connections, headers=headers)
    return loadgen.run_python(
        server.host, server.port, path, seconds=seconds, connections=connections, headers=headers
    )


def ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None


def _etag(server: Server, path: str) -> str | None:
    import urllib.request

    with urllib.request.urlopen(server.url(path), timeout=10) as answer:
        return answer.headers.get("ETag")


def measure(context: BenchContext) -> dict[str, Any]:
    scale = context.scale
    seconds = context.load_seconds or scale.load_seconds
    connections = scale.load_connections
    tool = _tool(context.load_tool)
    return _measure(context, tool, context.static_root(), seconds=seconds, connections=connections)


def _measure(context: BenchContext, tool: str, static_root, *, seconds: float, connections: int) -> dict:
    path = context.standings_path
    serve = partial(gunicorn, database_url=context.database.url, static_root=static_root, ready_path=path)
    context.progress(f"load: starting gunicorn ({WORKERS} workers) on {HOST}")
    with serve(workers=WORKERS) as server:
        _run(tool, server, path, seconds=WARM_UP_SECONDS, connections=connections)
        context.progress(f"load: {tool}, {connections} connections, {seconds:g} s on {server.url(path)}")
        plain = _run(tool, server, path, seconds=seconds, connections=connections)
        context.progress(f"load: the static file {STATIC_PATH} for {seconds:g} s, same server")
        _run(tool, server, STATIC_PATH, seconds=WARM_UP_SECONDS, connections=connections)
        static = _run(tool, server, STATIC_PATH, seconds=seconds, connections=connections)
        etag = _etag(server, path)
        conditional = None
        if etag:
            context.progress(f"load: conditional GETs (If-None-Match) for {seconds:g} s")
            conditional = _run(
                tool, server, path, seconds=seconds, connections=connections, headers={"If-None-Match": etag}
            ).as_dict()
        log = server.log_tail()
    # The server reads the same settings (and environment) as this process, its database URL aside.
    conn_max_age = settings.DATABASES["default"].get("CONN_MAX_AGE") or 0
    persistent = None
    if conn_max_age == 0:
        # A database connection per request: the same load with connections kept shows what that
        # costs (DJANGO_CONN_MAX_AGE is the project's own switch).
        context.progress(f"load: again with DJANGO_CONN_MAX_AGE={PERSISTENT_SECONDS} for {seconds:g} s")
        kept = {"DJANGO_CONN_MAX_AGE": str(PERSISTENT_SECONDS)}
        with serve(workers=WORKERS, extra_environment=kept) as server:
            _run(tool, server, path, seconds=WARM_UP_SECONDS, connections=connections)
            persistent = _run(tool, server, path, seconds=seconds, connections=connections).as_dict()
    figures = plain.as_dict()
    figures.update(
        url=path,
        workers=WORKERS,
        server="gunicorn sync workers, DEBUG off",
        cache="redis (shared, page served first)"
        if settings.REDIS_URL
        else "per process, pages by the views",
        static_url=STATIC_PATH,
        static_requests_per_second=static.requests_per_second,
        static_p99_ms=static.p99_ms,
        static_errors=static.errors,
        ratio_to_static=ratio(plain.requests_per_second, static.requests_per_second),
        conn_max_age=conn_max_age,
        conditional_get=conditional,
        with_persistent_connections=persistent,
        server_log_tail=log or None,
    )
    return figures
