"""`load`: requests per second and p99 latency of the public standings page under gunicorn (2 workers).

The server is warmed (every worker has answered and cached the page) before the timed run. Two runs: plain
GETs — every answer a full 200 page, the figure judged against the target — then conditional GETs carrying
the page's ETag, answered 304 as a revisiting phone's browser would be.
"""

from __future__ import annotations

from typing import Any

from . import loadgen
from .context import BenchContext
from .server import HOST, Server, gunicorn

WARM_UP_SECONDS = 1.0
WORKERS = 2


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


def _etag(server: Server, path: str) -> str | None:
    import urllib.request

    with urllib.request.urlopen(server.url(path), timeout=10) as answer:
        return answer.headers.get("ETag")


def measure(context: BenchContext) -> dict[str, Any]:
    scale = context.scale
    seconds = context.load_seconds or scale.load_seconds
    connections = scale.load_connections
    tool = _tool(context.load_tool)
    path = context.standings_path
    context.progress(f"load: starting gunicorn ({WORKERS} workers) on {HOST}")
    with gunicorn(database_url=context.database.url, ready_path=path, workers=WORKERS) as server:
        _run(tool, server, path, seconds=WARM_UP_SECONDS, connections=connections)
        context.progress(f"load: {tool}, {connections} connections, {seconds:g} s on {server.url(path)}")
        plain = _run(tool, server, path, seconds=seconds, connections=connections)
        etag = _etag(server, path)
        conditional = None
        if etag:
            context.progress(f"load: conditional GETs (If-None-Match) for {seconds:g} s")
            conditional = _run(
                tool, server, path, seconds=seconds, connections=connections, headers={"If-None-Match": etag}
            ).as_dict()
        log = server.log_tail()
    figures = plain.as_dict()
    figures.update(
        url=path,
        workers=WORKERS,
        server="gunicorn sync workers, DEBUG off",
        conditional_get=conditional,
        server_log_tail=log or None,
    )
    return figures
