"""Long work in the background: what is big enough to go there, and the one task the worker runs.

A round pack of many tables, the standings PDF of a big event and a big player import take longer than a
page should wait (a 256-table pack is about 20 s of WeasyPrint). Above the sizes in `THRESHOLDS` the page
that asks for them starts a `BackgroundJob` instead (`start`); `manage.py db_worker` (django-tasks'
database backend) picks its task up and does the work through `scoring.services.jobs.job_run`, which
writes how far it is as it goes; the page shows a progress bar that polls the job's status and offers
the result to the event's directors when it is ready. Below the sizes the page answers at once, as
before. `manage.py prune_jobs` (and every new job) deletes finished jobs and their files after
`settings.BACKGROUND_JOBS_KEEP_HOURS`.
"""

from __future__ import annotations

import signal
from typing import Any

from django.core.management import call_command
from django.db import transaction
from django_tasks import task

from .models import BackgroundJob, Event
from .services import jobs

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


@task()
def run_job(job_id: int) -> None:
    """The worker's side: do the job (progress, result or failure are written on its row)."""
    jobs.job_run(job_id=job_id)


def run_queued_jobs() -> None:
    """Run every queued job in this process with the real worker (`db_worker --batch`), then return:
    the benchmark and the tests do the worker's part this way. The worker installs its own handlers
    for SIGINT, SIGTERM and SIGQUIT; the process's own are put back afterwards."""
    caught = (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)
    handlers = {number: signal.getsignal(number) for number in caught}
    try:
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)


def start(*, event: Event, user, kind: str, params: dict[str, Any], source: str = "") -> BackgroundJob:
    """Record the job and queue its task once the record is committed; returns the job."""
    job = jobs.job_create(event=event, user=user, kind=kind, params=params, source=source)

    def enqueue() -> None:
        result = run_job.enqueue(job.pk)
        jobs.job_queued(job_id=job.pk, task_id=str(result.id))

    transaction.on_commit(enqueue)
    return job
