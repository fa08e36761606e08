"""`manage.py bench [--small | --large] [--json-only] [--out FILE]`: the tournament-scale benchmark (issue 6).

`--large` adds `growth` (issue 12): the standings and a recorded deal at 16,384 players × 6 rounds
against the same at 1,024.

Builds a synthetic event (1,024 players, 6 rounds of 256 tables, every deal with hands) in a fresh
database — a temporary SQLite file, or `<name>_bench` when DATABASE_URL is PostgreSQL, never the
project's own database — measures the validator, the standings page, recording a deal, a round's PDF pack,
the standings page under load and a director typing a sheet into the entry page in Chromium (issue 11),
each against its floor, and prints one JSON object (after a readable
table unless --json-only). Progress goes to stderr. Exit status 1 when a measurement failed (a missed
target is reported, not an error).
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.bench.config import FULL, LARGE, SECTIONS, SMALL
from scoring.bench.report import text_table
from scoring.bench.runner import run_benchmark
from scoring.bench.timing import Progress


class Command(BaseCommand):
    help = (
        "Benchmark the product at tournament scale against its floors and the targets of issue 6; "
        "prints one JSON object. --small runs tiny sizes (the test suite uses it)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--small", action="store_true", help="16 players, 1 round, short runs")
        parser.add_argument(
            "--large",
            action="store_true",
            help="the full run and `growth`: the standings and a recorded deal again at 16,384 players",
        )
        parser.add_argument("--json-only", action="store_true", help="print the JSON object alone")
        parser.add_argument("--out", metavar="FILE", help="also write the JSON object to FILE")
        parser.add_argument(
            "--only",
            metavar="NAMES",
            help=f"comma-separated measurements to run ({', '.join(SECTIONS)}); the others say skipped",
        )
        parser.add_argument(
            "--db-name",
            metavar="NAME",
            help="the benchmark database: a SQLite file path, or a PostgreSQL database name "
            "(default: a temporary file, or <name>_bench)",
        )
        parser.add_argument("--keep-db", action="store_true", help="keep the benchmark database afterwards")
        parser.add_argument(
            "--load-tool", choices=("auto", "wrk", "python"), default="auto", help="auto: wrk when installed"
        )
        parser.add_argument("--load-seconds", type=float, metavar="S", help="length of each load run")

    def handle(
        self, *args, small, large, json_only, out, only, db_name, keep_db, load_tool, load_seconds, **options
    ):
        chosen = SECTIONS
        if only:
            chosen = tuple(name.strip() for name in only.split(",") if name.strip())
            unknown = sorted(set(chosen) - set(SECTIONS))
            if unknown:
                raise CommandError(f"Unknown measurement {unknown[0]!r}; choose from {', '.join(SECTIONS)}.")
        if small and large:
            raise CommandError("Choose --small or --large, not both.")
        if load_seconds is not None and not 0 < load_seconds <= 60:
            raise CommandError("--load-seconds must be more than 0 and at most 60.")
        report = run_benchmark(
            SMALL if small else LARGE if large else FULL,
            only=chosen,
            db_name=db_name,
            keep_db=keep_db,
            load_tool=load_tool,
            load_seconds=load_seconds,
            progress=Progress(self.stderr._out),
        )
        text = json.dumps(report, indent=2, ensure_ascii=False)
        if out:
            Path(out).write_text(text + "\n", encoding="utf-8")
        if not json_only:
            self.stdout.write(text_table(report))
            self.stdout.write("")
        self.stdout.write(text)
        failed = [name for name in SECTIONS if report[name].get("error")]
        if failed:
            raise CommandError(f"{len(failed)} measurement(s) failed: {', '.join(failed)} (see the report).")
