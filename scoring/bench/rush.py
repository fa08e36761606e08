"""`rush` (issue 24): the round-end rush, on PostgreSQL + Redis with two app servers.

An event of `rush_players` players (2,048) has round 1 played and closed; round 2 is seated. Two
gunicorns (two workers each) serve it, as two app servers behind a venue's router would, and the
background worker makes round 2's pages ahead of its publishing, as it does while a director reviews the
seating (`ahead_warm_s`: how long that took; the round is published once it is done). First the same
stack serves a static file (`ratio_to_static`'s floor, in the same run), and the director's saves are
timed on a quiet server (`save_quiet_median_ms`, at two tables that started early: their players' pages
are made ahead again, `ahead_again_pages_made`, before the director publishes). Then the round is made
public and at once two `wrk`s (half the connections each, one a server) run a Lua script that cycles
through every player's page, each player's "where do I sit" (the fragment a phone that follows them
reads) and, every eighth player, the round's whole seating list — what the hall opens when a round goes
up — while a director keeps recording deals of the new round through `deal_record` (`save_*`: every
save's time; the limit is three times the quiet median or 150 ms, whichever is larger). Every request
says what a phone's browser says of encodings (`PHONE_HEADERS`): the pages kept are sent compressed. On
SQLite, or without Redis, the section says it needs PostgreSQL + Redis and measures nothing.

wrk reports each server's percentiles; `p99_ms` is the larger of the two (percentiles do not add up).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django_tasks_db.models import DBTaskResult

from adjudication.engine.simulator import simulate_sheet
from scoring import page_cache, services, warming
from scoring.models import Entry, GameSet, Round, Seat, Table

from . import loadgen
from .config import Stack
from .context import BenchContext
from .fixture import build_event
from .load import STATIC_PATH
from .queries import production_like
from .report import current_stack
from .server import gunicorn
from .timing import median, ms, percentile

SLUG = "rush"
DIRECTOR = "bench-rush-director"
WORKERS = 2
SERVERS = 2
QUIET_SAVES = 20
# The saves during the rush, spread evenly over it: a busy desk (six a second), and more than the 100
# the target is judged over.
RUSH_SAVES = 125
SAVE_LIMIT_FLOOR_MS = 150.0
SAVE_LIMIT_TIMES_QUIET = 3.0
SEATING_EVERY = 8
# Two app servers sharing one cache: PostgreSQL for both, Redis between them.
RUSH_STACK = Stack(database="postgresql", shared_cache=True)
# What every phone's browser sends (the static file's run sends it too): pages come compressed.
PHONE_HEADERS = {"Accept-Encoding": "gzip, deflate, br"}

LUA = """-- The rush (scoring/bench/rush.py): every player's page and "where do I sit", in turn.
local paths = {%s}
local at = 1
function init(args)
  at = (tonumber(args[1]) or 0) %% #paths + 1
end
function request()
  local path = paths[at]
  at = at %% #paths + 1
  return wrk.format("GET", path)
end
"""


def needs() -> str | None:
    """Why the rush cannot run here, or None."""
    stack = current_stack()
    if stack != RUSH_STACK:
        return (
            f"needs {RUSH_STACK.describe()} (DATABASE_URL=postgres://… and REDIS_URL=redis://…): the rush is "
            f"two app servers sharing one cache; this run has {stack.describe()}"
        )
    return None


def rush_paths(event, round_number: int) -> list[str]:
    """Every player's page and their "where do I sit", the round's seating list every eighth player."""
    paths = []
    ids = Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
    for index, entry_id in enumerate(ids):
        paths += [f"/e/{event.slug}/p/{entry_id}/", f"/e/{event.slug}/p/{entry_id}/seat/"]
        if index % SEATING_EVERY == 0:
            paths.append(f"/e/{event.slug}/r/{round_number}/seating/")
    return paths


def lua_script(paths: list[str], folder: Path) -> Path:
    script = folder / "rush.lua"
    script.write_text(LUA % ", ".join(f'"{path}"' for path in paths), encoding="utf-8")
    return script


class Director:
    """Records the new round's deals table by table, each table's simulated sheet through
    `deal_record`, as a director at the desk would; each save's time is kept."""

    def __init__(self, round_: Round, user, *, seed: int, tables: list[int]):
        self.round = round_
        self.user = user
        self.seed = seed
        self.tables = list(tables)
        self.queue: list[tuple[GameSet, dict]] = []
        self.times: list[float] = []
        self.failures: list[str] = []

    def _next(self) -> tuple[GameSet, dict] | None:
        while not self.queue and self.tables:
            table = Table.objects.select_related("game_set", "round__event").get(pk=self.tables.pop(0))
            seats = list(
                Seat.objects.filter(table=table).order_by("position").select_related("entry__player")
            )
            names = [seat.entry.player.name for seat in seats]
            sheet = simulate_sheet(self.seed + table.pk, names, rules=table.round.event.ruleset())
            # The table deals as its sheet says (R21), as a sheet import sets it.
            Table.objects.filter(pk=table.pk).update(first_dealer=names.index(sheet["first_dealer"]) + 1)
            self.queue = [(table.game_set, deal) for deal in sheet["deals"]]
        return self.queue.pop(0) if self.queue else None

    def save(self) -> bool:
        job = self._next()
        if job is None:
            return False
        game_set, deal = job
        started = time.perf_counter()
        try:
            services.deal_record(game_set=game_set, user=self.user, data=deal)
        except Exception as exc:  # a refused or failed save is a figure, not a crash
            self.failures.append(f"{type(exc).__name__}: {exc}"[:200])
        self.times.append(time.perf_counter() - started)
        return True

    def keep_saving(self, stop: threading.Event, every: float) -> None:
        """A save every `every` seconds (or as fast as they go, if slower) until `stop`."""
        try:
            due = time.perf_counter()
            while not stop.is_set() and self.save():
                due += every
                stop.wait(max(0.0, due - time.perf_counter()))
        finally:
            connection.close()


def _both(servers, path_or_script, *, seconds: float, connections: int, script: Path | None, offsets):
    """Each server's wrk at once, half the connections each; their results in server order."""
    results: list[Any] = [None] * len(servers)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            results[index] = loadgen.run_wrk(
                servers[index].url(path_or_script),
                seconds=seconds,
                connections=max(1, connections // len(servers)),
                headers=PHONE_HEADERS,
                script=str(script) if script else None,
                script_args=(str(offsets[index]),) if script else (),
            )
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(servers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def _sum(results) -> dict[str, Any]:
    return {
        "requests": sum(result.requests for result in results),
        "requests_per_second": round(sum(result.requests_per_second for result in results), 1),
        "errors": sum(result.errors for result in results),
        "p50_ms": max(result.p50_ms or 0 for result in results),
        "p90_ms": max(result.p90_ms or 0 for result in results),
        "p99_ms": max(result.p99_ms or 0 for result in results),
    }


def measure(context: BenchContext) -> dict[str, Any]:
    reason = needs()
    if reason:
        return {"skipped": True, "reason": reason}
    if not loadgen.wrk_available():
        raise RuntimeError("the rush needs wrk (Debian package wrk; `make bench` installs it)")
    scale = context.scale
    context.progress(f"rush: building an event of {scale.rush_players} players, round 1 closed")
    with production_like():
        built = build_event(
            slug=SLUG,
            name="Rush open",
            players=scale.rush_players,
            rounds=1,
            seed=scale.seed,
            progress=context.progress,
        )
        event = built.event
        user, _ = get_user_model().objects.get_or_create(username=DIRECTOR)
        event.directors.add(user)
        round2 = services.round_create(event=event, user=user, number=2)
        # Seated and reviewed, not public yet: the rush starts when it is published.
        services.round_seat(round=round2, user=user, seed=scale.seed)
        # The warms queued while the benchmark's events were built (each round seated and published)
        # are not the night's: dropped, so the worker starts on round 2's warm ahead, as on the night.
        DBTaskResult.objects.all().delete()
        warming.queue_warm_ahead(round2.pk)
        tables = list(Table.objects.filter(round=round2).order_by("number").values_list("pk", flat=True))
        quiet = Director(round2, user, seed=scale.seed, tables=tables[-2:][::-1])
        director = Director(round2, user, seed=scale.seed, tables=tables[:-2])
        paths = rush_paths(event, round2.number)
    static_root = context.static_root()
    with tempfile.TemporaryDirectory() as folder:
        script = lua_script(paths, Path(folder))
        ready = f"/e/{SLUG}/"
        with (
            gunicorn(
                database_url=context.database.url, static_root=static_root, ready_path=ready, workers=WORKERS
            ) as first,
            gunicorn(
                database_url=context.database.url, static_root=static_root, ready_path=ready, workers=WORKERS
            ) as second,
        ):
            servers = [first, second]
            with background_worker(first.environment) as worker_log:
                # The worker starts on the warm ahead that seating round 2 queued; the director publishes
                # once the dashboard says the pages are ready.
                context.progress("rush: the worker makes round 2's pages ahead of its publishing")
                ahead = _ahead_finished(round2.pk)
                static_seconds = max(1.0, scale.rush_seconds / 4)
                context.progress(f"rush: the static file on both servers for {static_seconds:g} s")
                _both(
                    servers,
                    STATIC_PATH,
                    seconds=1,
                    connections=scale.rush_connections,
                    script=None,
                    offsets=(0, 0),
                )
                static = _both(
                    servers,
                    STATIC_PATH,
                    seconds=static_seconds,
                    connections=scale.rush_connections,
                    script=None,
                    offsets=(0, 0),
                )
                context.progress(f"rush: {QUIET_SAVES} saves on a quiet server")
                with production_like():
                    for _ in range(QUIET_SAVES):
                        quiet.save()
                # Their tables' players' pages are made ahead again; the director publishes once the
                # console says the pages are ready.
                again = _ahead_finished(round2.pk)
                context.progress(
                    f"rush: round 2 public; {scale.rush_connections} connections, {scale.rush_seconds:g} s, "
                    f"{len(paths)} addresses while a director records deals"
                )
                stop = threading.Event()
                every = scale.rush_seconds / RUSH_SAVES
                saver = threading.Thread(target=lambda: _saving(director, stop, every))
                renders = page_cache.rush_renders()
                published = time.perf_counter()
                with production_like():
                    # The pages made ahead are served from this commit on (scoring.page_cache).
                    services.round_publish(round=round2, user=user)
                saver.start()
                try:
                    rush = _both(
                        servers,
                        "/",
                        seconds=scale.rush_seconds,
                        connections=scale.rush_connections,
                        script=script,
                        offsets=(0, len(paths) // 2),
                    )
                finally:
                    stop.set()
                    saver.join()
                rush_seconds = time.perf_counter() - published
                rendered = page_cache.rush_renders() - renders
                context.progress("rush: waiting for the worker's warm of the round to finish")
                warmed = _warm_finished(event.pk, after=time.time() - rush_seconds - 1)
                logs = [server.log_tail(5) for server in servers] + [worker_log()]
    combined = _sum(rush)
    static_rate = sum(result.requests_per_second for result in static)
    quiet_median = ms(median(quiet.times)) if quiet.times else None
    limit = max(SAVE_LIMIT_TIMES_QUIET * quiet_median, SAVE_LIMIT_FLOOR_MS) if quiet_median else None
    save_p99 = ms(percentile(director.times, 0.99)) if director.times else None
    return {
        "players": scale.rush_players,
        "servers": SERVERS,
        "workers_each": WORKERS,
        "connections": scale.rush_connections,
        "seconds": round(rush_seconds, 2),
        "addresses": len(paths),
        **combined,
        "each_server": [result.as_dict() for result in rush],
        "static_requests_per_second": round(static_rate, 1),
        # The same stack's latency serving the static file: the floor of `p99_ms`.
        "static_p50_ms": max(result.p50_ms or 0 for result in static),
        "static_p99_ms": max(result.p99_ms or 0 for result in static),
        "ratio_to_static": round(combined["requests_per_second"] / static_rate, 3) if static_rate else None,
        "save_quiet_median_ms": quiet_median,
        "saves": len(director.times),
        "save_median_ms": ms(median(director.times)) if director.times else None,
        "save_p99_ms": save_p99,
        "save_limit_ms": limit,
        "save_p99_ratio_to_limit": round(save_p99 / limit, 3) if save_p99 and limit else None,
        "save_failures": len(director.failures) + len(quiet.failures),
        # Of the rush's requests, how many found their page not ready and had it made from the database.
        "rendered_from_database": rendered,
        "rendered_share": round(rendered / combined["requests"], 3) if combined["requests"] else None,
        # The worker's warm of every page after publishing (2 pages a player, the standings views, the list).
        "warm_s": warmed["seconds"] if warmed else None,
        "warm_pages": warmed["pages"] if warmed else None,
        # Of those, how many the warm asked for (the others were ready, made ahead of publishing).
        "warm_pages_made": warmed.get("asked") if warmed else None,
        "warm_finished_within_rush": bool(warmed) and warmed["seconds"] <= rush_seconds,
        # The worker's warm ahead of publishing, while the seating was reviewed (the rush's pages).
        "ahead_warm_s": ahead["seconds"] if ahead else None,
        "ahead_warm_pages": ahead["pages"] if ahead else None,
        # After the quiet saves at two of its tables: the pages made ahead again (theirs alone).
        "ahead_again_pages_made": again.get("asked") if again else None,
        "failures": (director.failures + quiet.failures)[:5],
        "server_log_tail": "\n".join(log for log in logs if log) or None,
    }


WARM_WAIT_SECONDS = 600


def _warm_finished(event_id: int, *, after: float) -> dict | None:
    """The worker's whole warm of the event that finished after `after` (a time.time()), waited for."""
    deadline = time.monotonic() + WARM_WAIT_SECONDS
    while time.monotonic() < deadline:
        last = warming.last_warm(event_id)
        if last and last["finished"] >= after:
            return last
        time.sleep(0.5)
    return None


def _ahead_finished(round_id: int) -> dict | None:
    """The worker's warm of the round's pages ahead of its publishing, waited for."""
    deadline = time.monotonic() + WARM_WAIT_SECONDS
    while time.monotonic() < deadline:
        done = warming.last_warm_ahead(round_id)
        if done:
            return done
        time.sleep(0.5)
    return None


@contextmanager
def background_worker(environment: dict[str, str]):
    """`manage.py jobs_worker`, as `make run` starts it beside the servers; yields its log's tail."""
    folder = Path(tempfile.mkdtemp(prefix="kalooki-bench-worker-"))
    log = folder / "worker.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "jobs_worker", "--no-reload", "--no-startup-delay"],
            cwd=settings.BASE_DIR,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield lambda: "\n".join(log.read_text(errors="replace").splitlines()[-5:])
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _saving(director: Director, stop: threading.Event, every: float) -> None:
    with production_like():
        director.keep_saving(stop, every)
