"""Background jobs (`scoring.background`): recorded when a director starts one, then done by the worker.

The worker runs outside any request: `job_run` writes each step of progress at once (no transaction
around the work, so the page polling the job sees it), stores the result or a message saying what went
wrong, and never leaves a job marked running when it fails. A player import writes through
`players_import_csv` (its own short transaction and audit entry); printing changes nothing and is not
audited. Finished jobs and their files go after `settings.BACKGROUND_JOBS_KEEP_HOURS` (`jobs_prune`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ..models import BackgroundJob, Event, Round
from ..printing import scoresheets
from .imports import players_import_csv

Kind = BackgroundJob.Kind
Status = BackgroundJob.Status


@transaction.atomic
def job_create(*, event: Event, user, kind: str, params: dict[str, Any], source: str = "") -> BackgroundJob:
    """A job waiting for the worker; finished jobs past their time are deleted on the way."""
    if kind not in Kind.values:
        raise ValueError(f"unknown background job {kind!r}")
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


def job_progress(*, job_id: int, done: int, total: int, step: str) -> None:
    """How far the job is, written at once (autocommit) for the page that polls it."""
    total = max(total, 0)
    BackgroundJob.objects.filter(pk=job_id).update(
        status=Status.RUNNING, done=min(max(done, 0), total), total=total, step=step[:200]
    )


def _finish(job_id: int, **fields: Any) -> None:
    BackgroundJob.objects.filter(pk=job_id).update(finished_at=timezone.now(), **fields)


def job_failed(*, job_id: int, message: str) -> None:
    """The job stopped: the message is what its director reads (never a traceback)."""
    _finish(job_id, status=Status.FAILED, message=message[:2000], source="")


def _failure_message(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return "The job stopped: " + " ".join(exc.messages)
    if isinstance(exc, Round.DoesNotExist):
        return "The job stopped: the round no longer exists."
    return (
        f"The job stopped with an error ({type(exc).__name__}). Nothing was changed; try again, and "
        "if it fails again tell the organiser (the worker's log has the details)."
    )


def job_run(*, job_id: int) -> None:
    """Do the job (the worker's side): progress as it goes, then the file or the outcome."""
    job = BackgroundJob.objects.select_related("event", "requested_by").get(pk=job_id)
    if job.status in (Status.DONE, Status.FAILED):
        return

    def progress(done: int, total: int, step: str) -> None:
        job_progress(job_id=job_id, done=done, total=total, step=step)

    progress(0, 1, "starting")
    try:
        RUNNERS[job.kind](job, progress)
    except Exception as exc:
        job_failed(job_id=job_id, message=_failure_message(exc))
        # The task's own row records the traceback for the worker's log.
        raise


def _round_pack(job: BackgroundJob, progress: Callable[[int, int, str], None]) -> None:
    params = job.params
    rnd = Round.objects.select_related("event").get(event=job.event, number=params["round"])
    completed = bool(params.get("completed"))
    data = scoresheets.render_round_sheets_in_parts(round=rnd, completed=completed, progress=progress)
    kind = "sheets" if completed else "blank-sheets"
    _finish(
        job.pk,
        status=Status.DONE,
        result=data,
        filename=f"{job.event.slug}-r{rnd.number}-{kind}.pdf",
        step="ready",
        message=f"Round {rnd.number}'s score sheets are ready to download.",
    )


def _standings_pdf(job: BackgroundJob, progress: Callable[[int, int, str], None]) -> None:
    params = job.params
    round_number = params.get("round")
    provisional = bool(params.get("provisional"))
    progress(0, 2, "laying out the standings")
    data = scoresheets.render_standings(event=job.event, round_number=round_number, provisional=provisional)
    progress(2, 2, "ready")
    scope = f"r{round_number}-" if round_number else ""
    kind = "provisional-standings" if provisional else "standings"
    _finish(
        job.pk,
        status=Status.DONE,
        result=data,
        filename=f"{job.event.slug}-{scope}{kind}.pdf",
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
    _finish(job.pk, status=Status.DONE, outcome=outcome, source="", step="done", message=message)


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
