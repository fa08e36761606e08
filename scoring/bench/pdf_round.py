"""`pdf_round`: seconds per page of a round pack of 64 tables, against a bare WeasyPrint render; and
`task_seconds_per_page`, a 256-table pack made as a background task (enqueued, run by the worker,
stored), end to end.

A second event with one round of `pdf_tables` tables is built for it (untimed). The pack is rendered
as the director's button prints it: each table's QR code, short code and seat codes made
(`scoring.printing.sheet_codes`, the tables' keys issued once beforehand, as the first print does), then
`scoring.printing.scoresheets.render_round_sheets` (the reads, the template and the layout); the floor is
`weasyprint.HTML(string=html).write_pdf()` of the very HTML the renderer lays out
(`scoresheets.round_pack_html`); the same with the garbage collector paused (as the renderer runs
WeasyPrint) is reported beside it. Both the blank pack (printed before the round) and the completed one
(after it) are measured; the target is judged on the blank pack.
"""

from __future__ import annotations

import gc
import io
import time
from typing import Any

from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from .context import BenchContext
from .fixture import build_event
from .timing import gc_paused, median, ratio, rounded


def count_pages(pdf: bytes) -> int:
    """Pages of a PDF (WeasyPrint packs its objects into compressed streams: read it properly)."""
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def _clocked(function) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of this process, result); a collection first, so neither render pays
    for the other's garbage."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return time.perf_counter() - wall, time.process_time() - cpu, result


# The address the sheets' QR codes carry, as if printed from a laptop on the venue's network.
BASE_URL = "http://192.168.1.20:8000"


def _codes(round_):
    from scoring.printing.sheet_codes import sheet_codes

    return sheet_codes(tables=round_.tables.select_related("round__event"), base_url=BASE_URL)


def _pack(round_, *, completed: bool, runs: int, with_paused_floor: bool = False) -> dict[str, Any]:
    from weasyprint import HTML

    from scoring.printing import scoresheets

    html = scoresheets.round_pack_html(round=round_, completed=completed, codes=_codes(round_))

    def render() -> bytes:
        return scoresheets.render_round_sheets(round=round_, completed=completed, codes=_codes(round_))

    def bare() -> bytes:
        return HTML(string=html).write_pdf()

    def bare_paused() -> bytes:
        with gc_paused():
            return HTML(string=html).write_pdf()

    renders, floors, render_cpu, floor_cpu, paused = [], [], [], [], []
    pdf = floor_pdf = b""
    for run in range(runs):
        # Alternate which goes first, so warm caches or a busy neighbour favour neither side.
        for which in (render, bare) if run % 2 == 0 else (bare, render):
            wall, cpu, output = _clocked(which)
            if which is render:
                renders.append(wall)
                render_cpu.append(cpu)
                pdf = output
            else:
                floors.append(wall)
                floor_cpu.append(cpu)
                floor_pdf = output
        if with_paused_floor:
            paused.append(_clocked(bare_paused)[0])
    pages = count_pages(pdf)
    render_s, floor_s = median(renders), median(floors)
    figures = {
        "pages": pages,
        "bare_pages": count_pages(floor_pdf),
        "pdf_bytes": len(pdf),
        "html_chars": len(html),
        "runs": runs,
        "render_median_s": rounded(render_s, 3),
        "bare_weasyprint_median_s": rounded(floor_s, 3),
        "render_runs_s": [rounded(value, 3) for value in renders],
        "bare_runs_s": [rounded(value, 3) for value in floors],
        "seconds_per_page": rounded(render_s / pages) if pages else None,
        "bare_seconds_per_page": rounded(floor_s / pages) if pages else None,
        "ratio_to_bare_weasyprint": rounded(ratio(render_s, floor_s), 2),
        # CPU time of this process: what the wall clock would say on a machine with nothing else running.
        "cpu_seconds_per_page": rounded(median(render_cpu) / pages) if pages else None,
        "bare_cpu_seconds_per_page": rounded(median(floor_cpu) / pages) if pages else None,
    }
    if paused and pages:
        # WeasyPrint with the garbage collector paused, as the renderer runs it: the layout's own cost.
        figures["bare_gc_paused_seconds_per_page"] = rounded(median(paused) / pages)
        figures["ratio_to_bare_gc_paused"] = rounded(ratio(render_s, median(paused)), 2)
    return figures


def _as_task(context: BenchContext) -> dict[str, Any]:
    """The blank pack of a `pdf_task_tables`-table round as a director gets it in the background:
    enqueued (the job's row and its task's, as the dashboard's button does), run by the real worker
    (`db_worker --batch`, in this process), and timed until the file is stored and ready to download."""
    from scoring import background
    from scoring.models import BackgroundJob
    from scoring.selectors.jobs import event_job, job_file

    scale = context.scale
    built = build_event(
        slug=f"{context.event.event.slug}-pdf-task",
        name="Benchmark background pack",
        players=scale.pdf_task_tables * 4,
        rounds=1,
        seed=scale.seed + 3,
        progress=context.progress,
    )
    event = built.event
    context.progress(f"pdf_round: the {scale.pdf_task_tables}-table pack as a background task")
    html = _bare_html(built.rounds[0])
    # With a shared cache, seating the round queued the worker's pages made ahead of publishing (as on
    # the night); they wait below a director's job (`warming.WARM_PRIORITY`), and the worker makes them
    # after the pack. The pack is timed from the button to its file stored (its row's own clock).
    waiting = DBTaskResult.objects.ready().count()
    gc.collect()
    wall = time.perf_counter()
    asked = timezone.now()
    job = background.start(
        event=event,
        user=None,
        kind=BackgroundJob.Kind.ROUND_PACK,
        params={"round": 1, "completed": False, "base_url": BASE_URL},
    )
    background.run_queued_jobs()
    worker_s = time.perf_counter() - wall
    row = event_job(event, job.pk)
    found = job_file(event, job.pk)
    if row is None or found is None or row.finished_at is None:
        state = f"{row.status}: {row.message}" if row else "no job"
        raise RuntimeError(f"the background pack is not ready ({state})")
    seconds = (row.finished_at - asked).total_seconds()
    pages = count_pages(found[1])
    # The same pack through bare WeasyPrint once, for the task's own ratio.
    bare_s, _cpu, _pdf = _clocked(lambda: _bare(html))
    return {
        "tables": scale.pdf_task_tables,
        "pages": pages,
        "seconds": rounded(seconds, 3),
        "seconds_per_page": rounded(seconds / pages) if pages else None,
        # Other tasks waiting when the pack was asked for, and how long the worker took for all of them.
        "tasks_waiting_beside": waiting,
        "worker_s": rounded(worker_s, 3),
        "bare_weasyprint_s": rounded(bare_s, 3),
        "ratio_to_bare_weasyprint": rounded(ratio(seconds, bare_s), 2),
        "pdf_bytes": len(found[1]),
        "what": "enqueue → db_worker → file stored, ready to download",
    }


def _bare_html(round_) -> str:
    from scoring.printing import scoresheets

    return scoresheets.round_pack_html(round=round_, completed=False, codes=_codes(round_))


def _bare(html: str) -> bytes:
    from weasyprint import HTML

    return HTML(string=html).write_pdf()


def measure(context: BenchContext) -> dict[str, Any]:
    scale = context.scale
    built = build_event(
        slug=f"{context.event.event.slug}-pdf",
        name="Benchmark round pack",
        players=scale.pdf_tables * 4,
        rounds=1,
        seed=scale.seed + 1,
        progress=context.progress,
    )
    round_ = built.rounds[0]
    context.progress(f"pdf_round: rendering the blank {scale.pdf_tables}-table pack ({scale.pdf_runs} runs)")
    blank = _pack(round_, completed=False, runs=scale.pdf_runs, with_paused_floor=True)
    # The completed pack (printed after the round) is reported beside it, in one run to save time.
    context.progress("pdf_round: rendering the completed pack (1 run)")
    completed = _pack(round_, completed=True, runs=1)
    task = _as_task(context)
    return {
        "tables": scale.pdf_tables,
        **blank,
        "judged_on": "blank pack",
        "completed_pack": completed,
        "task_seconds_per_page": task["seconds_per_page"],
        "task": task,
    }
