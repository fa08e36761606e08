"""The director's background jobs (`scoring.background`): start one, poll how far it is, download it.

Every URL is under /e/<slug>/direct/ for the event's directors and staff (`director_required`): a job
of another event is not found, and its file goes only to this event's directors.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST, require_safe

from ... import background
from ...models import BackgroundJob, Event
from ...selectors.jobs import JobRow, event_job, job_file
from ..lookups import request_base_url, round_for
from ..permissions import director_required
from ..query import flag_param

Kind = BackgroundJob.Kind


def job_urls(event: Event, job: JobRow) -> dict[str, str]:
    status = reverse("scoring:direct_job_status", kwargs={"slug": event.slug, "job_id": job.id})
    download = reverse("scoring:direct_job_download", kwargs={"slug": event.slug, "job_id": job.id})
    return {"status_url": status, "download_url": download if job.has_file else ""}


def status_data(event: Event, job: JobRow) -> dict:
    """What the progress bar shows (`static/js/jobs.js`)."""
    return {
        "id": job.id,
        "what": job.what,
        "status": job.status,
        "status_text": job.status_text,
        "done": job.done,
        "total": job.total,
        "percent": job.percent,
        "step": job.step,
        "message": job.message,
        "finished": job.finished,
        "failed": job.failed,
        **job_urls(event, job),
    }


def _started(request, event: Event, job: BackgroundJob) -> HttpResponse:
    messages.info(request, f"{job.get_kind_display()}: started in the background; its progress is below.")
    return redirect(reverse("scoring:direct", kwargs={"slug": event.slug}) + "#jobs")


@director_required
@require_POST
def round_pack_start(request, event: Event, number: int):
    """A round's score sheets (?completed=1: filled in; fallback=1: the fallback pack, seating lists
    and blank sheets) made by the worker."""
    rnd = round_for(event, number, private_too=True)
    completed = flag_param(request.POST, "completed")
    # The sheets' QR codes are addressed as this page was asked, as a pack printed straight from it.
    params = {"round": rnd.number, "completed": completed, "base_url": request_base_url(request)}
    if flag_param(request.POST, "fallback"):
        params.update(completed=False, fallback=True)
    job = background.start(event=event, user=request.user, kind=Kind.ROUND_PACK, params=params)
    return _started(request, event, job)


@director_required
@require_POST
def standings_start(request, event: Event):
    """The event's standings PDF made by the worker (?provisional=1 adds the sets in play)."""
    job = background.start(
        event=event,
        user=request.user,
        kind=Kind.STANDINGS_PDF,
        params={"round": None, "provisional": flag_param(request.POST, "provisional")},
    )
    return _started(request, event, job)


@director_required
@require_safe
def job_status(request, event: Event, job_id: int):
    """How far the job is, as JSON, for the page's progress bar; never cached."""
    job = event_job(event, job_id)
    if job is None:
        raise Http404("No such job (finished jobs are deleted after a while).")
    response = JsonResponse(status_data(event, job))
    response["Cache-Control"] = "no-store"
    return response


@director_required
@require_safe
def job_download(request, event: Event, job_id: int):
    """The job's file, to this event's directors; 409 while it is not ready."""
    job = event_job(event, job_id)
    if job is None:
        raise Http404("No such job (finished jobs are deleted after a while).")
    found = job_file(event, job_id) if job.has_file else None
    if found is None:
        text = job.message if job.failed else "Not ready yet: the job is still running."
        return HttpResponse(text, status=409, content_type="text/plain; charset=utf-8")
    filename, data = found
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = "private, no-store"
    return response
