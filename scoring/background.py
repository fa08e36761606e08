"""Long work in the background: what is big enough to go there, and the one task the worker runs.

A round pack of many tables, the standings PDF of a big event and a big player import take longer than a
page should wait (a 256-table pack is about 20 s of WeasyPrint). Above the sizes in `THRESHOLDS` the page
that asks for them starts a `BackgroundJob` instead (`start`); `manage.py db_worker` (django-tasks'
database backend) picks its task up and does the work through `scoring.services.jobs.job_run`, which
writes how far it is as it goes; the page shows a progress bar that polls the job's status and offers
the result to the event's directors when it is ready. Below the sizes the page answers at once, as
before. `manage.py prune_jobs` (and every new job) deletes finished jobs and their files after
`settings.BACKGROUND_JOBS_KEEP_HOURS`.

A job outlives a worker that dies under it (`scoring.services.jobs`, "A job survives its worker"):
`recover_jobs` runs such a job again from the start, or fails it with a message asking to start it again.
`manage.py jobs_worker` is the worker to run: django-tasks' `db_worker` that calls `recover_jobs` as it
starts and every `WATCH_SECONDS` while it runs, so a job whose worker died is noticed within a minute of
a worker being back; `make run` starts it again whenever it stops.
"""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any

from django.core.management import call_command
from django.db import DatabaseError, connections, transaction
from django_tasks import TaskContext, task

from .models import BackgroundJob, Event
from .services import jobs

logger = logging.getLogger(__name__)

# A worker looks for jobs whose worker died this often (and as it starts).
WATCH_SECONDS = 15
# The worker's niceness (Linux, 0-19): its jobs — packs, imports, the hall's pages made ahead — yield the
# CPU to the app servers, where a phone or a director is waiting for an answer.
WORKER_NICENESS = 10

# The one place that says what goes to the background: more than this many tables in a round pack,
# players in a standings PDF, rows in a CSV of players.
THRESHOLDS: dict[str, int] = {
    BackgroundJob.Kind.ROUND_PACK: 32,
    BackgroundJob.Kind.STANDINGS_PDF: 300,
    BackgroundJob.Kind.PLAYERS_IMPORT: 2_000,
}


def in_background(kind: str, size: int) -> bool:
    """Whether work of this kind and size (tables, players, rows) runs as a background job."""
    return size > THRESHOLDS[kind]


def csv_row_count(text: str) -> int:
    """The lines of a CSV that hold something: what `THRESHOLDS` counts for an import."""
    return sum(1 for line in text.splitlines() if line.strip())


@task(takes_context=True)
def run_job(context: TaskContext, job_id: int, attempt: int = 1) -> None:
    """The worker's side: do the job (progress, result or failure are written on its row). `attempt`:
    which run this is (a job whose worker died is run again, `recover_jobs`)."""
    jobs.job_run(job_id=job_id, task_id=str(context.task_result.id))


def _queue(job_id: int, attempt: int = 1) -> None:
    result = run_job.enqueue(job_id, attempt=attempt)
    jobs.job_queued(job_id=job_id, task_id=str(result.id))


def recover_jobs() -> int:
    """Jobs whose worker died: run again from the start (queued here, in the transaction that put them
    back) or failed with a message. Returns how many were queued again."""
    with transaction.atomic():
        reruns = jobs.jobs_recover()
        for rerun in reruns:
            _queue(rerun.job_id, rerun.attempt)
    return len(reruns)


class JobWatch(threading.Thread):
    """Inside a worker: `recover_jobs` now and every `WATCH_SECONDS` until stopped."""

    def __init__(self) -> None:
        super().__init__(name="job-watch", daemon=True)
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while True:
                try:
                    recover_jobs()
                except DatabaseError:
                    logger.warning("could not look for jobs whose worker stopped", exc_info=True)
                if self.stopped.wait(WATCH_SECONDS):
                    return
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.stopped.set()
        self.join()


def run_queued_jobs() -> None:
    """Run every queued job in this process with the real worker (`jobs_worker --batch`), then return:
    the benchmark and the tests do the worker's part this way. The worker installs its own handlers
    for SIGINT, SIGTERM and SIGQUIT; the process's own are put back afterwards."""
    caught = (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)
    handlers = {number: signal.getsignal(number) for number in caught}
    try:
        call_command("jobs_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)


def start(*, event: Event, user, kind: str, params: dict[str, Any], source: str = "") -> BackgroundJob:
    """Record the job and queue its task once the record is committed; returns the job."""
    job = jobs.job_create(event=event, user=user, kind=kind, params=params, source=source)
    transaction.on_commit(lambda: _queue(job.pk))
    # A job left behind by a dead worker is noticed by every new job too.
    transaction.on_commit(recover_jobs)
    return job
