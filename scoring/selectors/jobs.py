"""The background jobs a director sees (`scoring.background`): how far each is, and its outcome.

Two queries at most whatever the jobs hold: the result's bytes are never read here (`job_file` reads
them for the download alone)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..models import BackgroundJob, Event

_FIELDS = (
    "pk",
    "kind",
    "status",
    "done",
    "total",
    "step",
    "message",
    "outcome",
    "filename",
    "created_at",
    "finished_at",
    "params",
)


@dataclass(frozen=True)
class JobRow:
    id: int
    kind: str
    what: str
    status: str
    status_text: str
    done: int
    total: int
    step: str
    message: str
    outcome: dict[str, Any]
    filename: str
    created_at: datetime
    finished_at: datetime | None
    params: dict[str, Any]

    @property
    def percent(self) -> int:
        if self.status == BackgroundJob.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0

    @property
    def finished(self) -> bool:
        return self.status in (BackgroundJob.Status.DONE, BackgroundJob.Status.FAILED)

    @property
    def failed(self) -> bool:
        return self.status == BackgroundJob.Status.FAILED

    @property
    def has_file(self) -> bool:
        return self.status == BackgroundJob.Status.DONE and bool(self.filename)


def _row(values: dict[str, Any]) -> JobRow:
    kind = BackgroundJob.Kind(values["kind"])
    what = kind.label
    if kind == BackgroundJob.Kind.ROUND_PACK:
        filled = "completed" if values["params"].get("completed") else "blank"
        what = f"Round {values['params'].get('round')} score sheets ({filled})"
    return JobRow(
        id=values["pk"],
        kind=values["kind"],
        what=what,
        status=values["status"],
        status_text=BackgroundJob.Status(values["status"]).label,
        done=values["done"],
        total=values["total"],
        step=values["step"],
        message=values["message"],
        outcome=values["outcome"] or {},
        filename=values["filename"],
        created_at=values["created_at"],
        finished_at=values["finished_at"],
        params=values["params"] or {},
    )


def event_job(event: Event, job_id: int) -> JobRow | None:
    """One job of this event (None for another event's job or one pruned); one query."""
    values = BackgroundJob.objects.filter(event=event, pk=job_id).values(*_FIELDS).first()
    return _row(values) if values else None


def recent_jobs(event: Event, *, kinds: tuple[str, ...] = (), limit: int = 5) -> list[JobRow]:
    """The event's latest jobs, newest first (of these kinds when given); one query."""
    jobs = BackgroundJob.objects.filter(event=event)
    if kinds:
        jobs = jobs.filter(kind__in=kinds)
    return [_row(values) for values in jobs.values(*_FIELDS)[:limit]]


def job_file(event: Event, job_id: int) -> tuple[str, bytes] | None:
    """(file name, bytes) of a finished job of this event that made a file; one query."""
    found = (
        BackgroundJob.objects.filter(event=event, pk=job_id, status=BackgroundJob.Status.DONE)
        .exclude(filename="")
        .values_list("filename", "result")
        .first()
    )
    if found is None or found[1] is None:
        return None
    return found[0], bytes(found[1])
