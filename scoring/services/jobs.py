"""Background jobs (`scoring.background`): recorded when a director starts one, then done by the worker.

The worker runs outside any request: `job_run` writes each step of progress at once (no transaction
around the work, so the page polling the job sees it), stores the result or a message saying what went
wrong, and never leaves a job marked running when it fails. A player import writes through
`players_import_csv` (its own short transaction and audit entry); printing changes nothing and is not
audited. Finished jobs and their files go after `settings.BACKGROUND_JOBS_KEEP_HOURS` (`jobs_prune`).

A job survives its worker. A run holds a lease — a key in the "leases" database cache, named by the run's
task — set when it starts and renewed every `HEARTBEAT_SECONDS` by a thread beside the work, so a long
step without progress keeps it too. A worker killed mid-job (`kill -9`, the machine's power) renews
nothing: once its task has been running for `LEASE_SECONDS` without a lease, `jobs_recover` (called by
every worker as it starts and every `WATCH_SECONDS` after, by every new job and by the job's page as it
polls) fails that task and either puts the job back in the queue to run again from the start, saying so
to its director, or — after `MAX_ATTEMPTS` runs — fails it with a message asking to start it again. A
run's writes name its task, so a run that was only slow, not dead, cannot overwrite the run after it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connections, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ..models import BackgroundJob, Event, Round
from ..printing import scoresheets
from ..printing.sheet_codes import sheet_codes
from .imports import players_import_csv

logger = logging.getLogger(__name__)

Kind = BackgroundJob.Kind
Status = BackgroundJob.Status

LEASE_ALIAS = "leases"
# A run renews its lease this often; a run whose lease is this old has lost its worker.
HEARTBEAT_SECONDS = 10
LEASE_SECONDS = 30
# Runs a job gets before a dead worker fails it instead of running it again.
MAX_ATTEMPTS = 2
RETRY_MESSAGE = "The worker stopped during this job; it will be run again from the start."
START_AGAIN_MESSAGE = (
    "The worker stopped during this job ({runs} times), so it was not finished: start it again. If it "
    "stops again, tell the organiser (the worker may be running out of memory)."
)
# The task of a run whose worker died: what its row records.
WORKER_STOPPED = "scoring.services.jobs.WorkerStopped"


@transaction.atomic
def job_create(*, event: Event, user, kind: str, params: dict[str, Any], source: str = "") -> BackgroundJob:
    """A job waiting for the worker; finished jobs past their time are deleted on the way."""
    if kind not in Kind.values:
        raise ValueError(f"unknown background job {kind!r}")
    if "\x00" in source:
        # PostgreSQL cannot store it; the import would refuse its row anyway (`scoring.names`).
        line = source.count("\n", 0, source.index("\x00")) + 1
        raise ValidationError(
            {"csv": f"Line {line} holds a control character (U+0000), which cannot be stored: remove it."}
        )
    jobs_prune()
    return BackgroundJob.objects.create(
        event=event,
        kind=kind,
        params=params,
        source=source,
        requested_by=user if getattr(user, "is_authenticated", False) else None,
        step="waiting for the worker",
    )


def job_queued(*, job_id: int, task_id: str) -> None:
    """The id of the job's task in the queue (django-tasks' result id)."""
    BackgroundJob.objects.filter(pk=job_id).update(task_id=task_id)


def _this_run(job_id: int, task_id: str | None):
    """The job's row, as long as the run of `task_id` is still its run (any run when None)."""
    rows = BackgroundJob.objects.filter(pk=job_id)
    return rows if task_id is None else rows.filter(task_id=task_id)


def job_progress(*, job_id: int, done: int, total: int, step: str, task_id: str | None = None) -> None:
    """How far the job is, written at once (autocommit) for the page that polls it."""
    total = max(total, 0)
    _this_run(job_id, task_id).update(
        status=Status.RUNNING, done=min(max(done, 0), total), total=total, step=step[:200]
    )
    if task_id:
        _renew(task_id)


def _finish(job_id: int, task_id: str | None = None, **fields: Any) -> None:
    _this_run(job_id, task_id).update(finished_at=timezone.now(), **fields)


def job_failed(*, job_id: int, message: str, task_id: str | None = None) -> None:
    """The job stopped: the message is what its director reads (never a traceback)."""
    _finish(job_id, task_id, status=Status.FAILED, message=message[:2000], source="")


def _leases():
    from kalooki_tournament.shared_cache import ensure_table

    return ensure_table(caches[LEASE_ALIAS])


def _lease_key(task_id: str) -> str:
    return f"kalooki:job-lease:{task_id}"


def _renew(task_id: str) -> None:
    _leases().set(_lease_key(task_id), timezone.now().isoformat(), LEASE_SECONDS)


class _Heartbeat(threading.Thread):
    """Renews the run's lease while the work goes on, progress or not (on a connection of its own)."""

    def __init__(self, task_id: str):
        super().__init__(name=f"job-heartbeat-{task_id}", daemon=True)
        self.task_id = task_id
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(HEARTBEAT_SECONDS):
                try:
                    _renew(self.task_id)
                except DatabaseError:
                    logger.warning("could not renew the lease of task %s", self.task_id, exc_info=True)
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.stopped.set()
        self.join()


def _failure_message(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return "The job stopped: " + " ".join(exc.messages)
    if isinstance(exc, Round.DoesNotExist):
        return "The job stopped: the round no longer exists."
    return (
        f"The job stopped with an error ({type(exc).__name__}). Nothing was changed; try again, and "
        "if it fails again tell the organiser (the worker's log has the details)."
    )


def job_run(*, job_id: int, task_id: str | None = None) -> None:
    """Do the job (the worker's side): progress as it goes, then the file or the outcome. `task_id` is
    the run's task: its lease is held while the work goes on, and only its writes count."""
    if task_id:
        _renew(task_id)
        # Claimed by this run, unless it is finished or another run has it.
        claimed = BackgroundJob.objects.filter(pk=job_id, status=Status.QUEUED).update(
            status=Status.RUNNING, task_id=task_id, done=0, total=1, step="starting"
        )
        if not claimed:
            return
    job = BackgroundJob.objects.select_related("event", "requested_by").get(pk=job_id)
    if job.status in (Status.DONE, Status.FAILED):
        return

    def progress(done: int, total: int, step: str) -> None:
        job_progress(job_id=job_id, done=done, total=total, step=step, task_id=task_id)

    heartbeat = _Heartbeat(task_id) if task_id else None
    if heartbeat:
        heartbeat.start()
    try:
        progress(0, 1, "starting")
        RUNNERS[job.kind](job, progress)
    except Exception as exc:
        job_failed(job_id=job_id, message=_failure_message(exc), task_id=task_id)
        # The task's own row records the traceback for the worker's log.
        raise
    finally:
        if heartbeat:
            heartbeat.stop()
            _leases().delete(_lease_key(task_id))


def _round_pack(job: BackgroundJob, progress: Callable[[int, int, str], None]) -> None:
    params = job.params
    rnd = Round.objects.select_related("event").get(event=job.event, number=params["round"])
    completed = bool(params.get("completed"))
    # Each sheet's QR code addressed as the page that asked for the pack was (a job queued before
    # `base_url` was kept: KALOOKI_PUBLIC_URL), as a pack printed straight from the page is.
    tables = rnd.tables.select_related("round__event")
    codes = sheet_codes(tables=tables, base_url=params.get("base_url"), user=job.requested_by)
    if params.get("fallback"):
        # The "what can go wrong" page's pack: the seating lists and every blank sheet.
        data = scoresheets.render_fallback_pack(round=rnd, codes=codes, progress=progress)
        kind, what = "fallback-pack", "fallback pack (seating lists and blank sheets)"
    else:
        data = scoresheets.render_round_sheets_in_parts(
            round=rnd, completed=completed, codes=codes, progress=progress
        )
        kind, what = ("sheets" if completed else "blank-sheets"), "score sheets"
    _finish(
        job.pk,
        job.task_id,
        status=Status.DONE,
        result=data,
        filename=f"{job.event.slug}-r{rnd.number}-{kind}.pdf",
        step="ready",
        message=f"Round {rnd.number}'s {what} {'is' if params.get('fallback') else 'are'} ready to download.",
    )


def _standings_pdf(job: BackgroundJob, progress: Callable[[int, int, str], None]) -> None:
    params = job.params
    round_number = params.get("round")
    provisional = bool(params.get("provisional"))
    progress(0, 2, "laying out the standings")
    data = scoresheets.render_standings(event=job.event, round_number=round_number, provisional=provisional)
    progress(2, 2, "ready")
    _finish(
        job.pk,
        job.task_id,
        status=Status.DONE,
        result=data,
        filename=scoresheets.standings_pdf_name(
            job.event, round_number=round_number, provisional=provisional
        ),
        step="ready",
        message="The standings PDF is ready to download.",
    )


def _players_import(job: BackgroundJob, progress: Callable[[int, int, str], None]) -> None:
    report = players_import_csv(event=job.event, user=job.requested_by, data=job.source, progress=progress)
    outcome = {
        "added": len(report.added),
        "already_entered": report.already_entered,
        "rejected": [[row.line, row.reason, list(row.row)] for row in report.rejected],
    }
    if report.ok:
        message = f"{len(report.added)} player{'' if len(report.added) == 1 else 's'} entered."
    else:
        count = len(report.rejected)
        message = f"Nothing was imported: {count} row{'' if count == 1 else 's'} rejected."
    _finish(job.pk, job.task_id, status=Status.DONE, outcome=outcome, source="", step="done", message=message)


RUNNERS: dict[str, Callable[[BackgroundJob, Callable[[int, int, str], None]], None]] = {
    Kind.ROUND_PACK: _round_pack,
    Kind.STANDINGS_PDF: _standings_pdf,
    Kind.PLAYERS_IMPORT: _players_import,
}


def jobs_prune(*, now=None) -> int:
    """Delete finished jobs (and their files) and the worker's finished task rows older than the time
    kept; a job the worker never picked up goes after the same time. Returns how many jobs went."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.BACKGROUND_JOBS_KEEP_HOURS)
    # No job runs for hours: one still marked running that long ago lost its worker.
    deleted, _ = BackgroundJob.objects.filter(created_at__lt=cutoff).delete()
    DBTaskResult.objects.finished().filter(finished_at__lt=cutoff).delete()
    return deleted


@dataclass(frozen=True)
class Rerun:
    """A job put back in the queue by `jobs_recover`: its next run is `attempt`."""

    job_id: int
    attempt: int


def _attempt_of(task: DBTaskResult) -> int:
    kwargs = (task.args_kwargs or {}).get("kwargs") or {}
    attempt = kwargs.get("attempt", 1)
    return attempt if isinstance(attempt, int) and attempt > 0 else 1


def jobs_recover(*, now=None) -> list[Rerun]:
    """Notice the runs whose worker died (task running for `LEASE_SECONDS`, lease gone): fail their task,
    and put the job back in the queue (returned: the caller queues its next run in the same
    transaction) or, after `MAX_ATTEMPTS` runs, fail it with a message asking to start it again."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=LEASE_SECONDS)
    jobs = dict(
        BackgroundJob.objects.filter(status__in=(Status.QUEUED, Status.RUNNING))
        .exclude(task_id="")
        .values_list("task_id", "pk")
    )
    if not jobs:
        return []
    running = list(DBTaskResult.objects.running().filter(id__in=list(jobs), started_at__lt=cutoff))
    if not running:
        return []
    alive = _leases().get_many([_lease_key(str(task.id)) for task in running])
    reruns = []
    for task in running:
        task_id = str(task.id)
        if _lease_key(task_id) in alive:
            continue
        # One watcher wins each dead run: the task's row changes once.
        stopped = DBTaskResult.objects.filter(id=task.id, status=task.status).update(
            status="FAILED",
            finished_at=now,
            exception_class_path=WORKER_STOPPED,
            traceback=f"The worker stopped during the job: no lease since {cutoff.isoformat()}.",
        )
        if not stopped:
            continue
        attempt = _attempt_of(task)
        job_id = jobs[task_id]
        if attempt >= MAX_ATTEMPTS:
            job_failed(job_id=job_id, message=START_AGAIN_MESSAGE.format(runs=attempt), task_id=task_id)
            logger.warning("job %s failed: its worker stopped during %s runs", job_id, attempt)
            continue
        _this_run(job_id, task_id).update(
            status=Status.QUEUED, done=0, total=0, step="waiting for the worker", message=RETRY_MESSAGE
        )
        reruns.append(Rerun(job_id=job_id, attempt=attempt + 1))
        logger.warning("job %s: its worker stopped during run %s; it will be run again", job_id, attempt)
    return reruns
