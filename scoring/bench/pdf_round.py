"""`pdf_round`: seconds per page of a round pack of 64 tables, against a bare WeasyPrint render.

A second event with one round of `pdf_tables` tables is built for it (untimed). The pack is rendered
through `scoring.scoresheets.render_round_sheets` (the reads, the template and the layout); the floor is
`weasyprint.HTML(string=html).write_pdf()` of the very HTML the renderer lays out
(`scoresheets.round_pack_html`). Both the blank pack (printed before the round) and the completed one
(after it) are measured; the target is judged on the blank pack.
"""

from __future__ import annotations

import io
import time
from typing import Any

from .context import BenchContext
from .fixture import build_event
from .timing import median, ratio, rounded


def count_pages(pdf: bytes) -> int:
    """Pages of a PDF (WeasyPrint packs its objects into compressed streams: read it properly)."""
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def _pack(round_, *, completed: bool, runs: int) -> dict[str, Any]:
    from weasyprint import HTML

    from scoring import scoresheets

    html = scoresheets.round_pack_html(round=round_, completed=completed)
    renders, floors = [], []
    pdf = b""
    for _ in range(runs):
        start = time.perf_counter()
        pdf = scoresheets.render_round_sheets(round=round_, completed=completed)
        renders.append(time.perf_counter() - start)
        start = time.perf_counter()
        bare = HTML(string=html).write_pdf()
        floors.append(time.perf_counter() - start)
    pages = count_pages(pdf)
    render, floor = median(renders), median(floors)
    return {
        "pages": pages,
        "bare_pages": count_pages(bare),
        "pdf_bytes": len(pdf),
        "html_chars": len(html),
        "runs": runs,
        "render_median_s": rounded(render, 3),
        "bare_weasyprint_median_s": rounded(floor, 3),
        "render_runs_s": [rounded(value, 3) for value in renders],
        "bare_runs_s": [rounded(value, 3) for value in floors],
        "seconds_per_page": rounded(render / pages) if pages else None,
        "bare_seconds_per_page": rounded(floor / pages) if pages else None,
        "ratio_to_bare_weasyprint": rounded(ratio(render, floor), 2),
    }


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
    blank = _pack(round_, completed=False, runs=scale.pdf_runs)
    context.progress(f"pdf_round: rendering the completed pack ({scale.pdf_runs} runs)")
    completed = _pack(round_, completed=True, runs=scale.pdf_runs)
    return {"tables": scale.pdf_tables, **blank, "judged_on": "blank pack", "completed_pack": completed}
