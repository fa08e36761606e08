"""Check a score sheet, Jamaican, British or North American (SCORESHEET.md, "The validator's answer").

    python manage.py validate_sheet FILE [--format text|json]      (FILE "-" reads standard input)

Exit 0: no error finding. Exit 1: at least one error. Exit 2: the file is not a readable sheet — nothing on
standard output and one message on standard error naming the place by its JSON path.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from adjudication.engine.findings import format_finding, summarize
from adjudication.engine.sheet import SheetError, decode_json
from adjudication.engine.validator import has_errors, validate_data

EXIT_ERRORS = 1
EXIT_UNREADABLE = 2


class Command(BaseCommand):
    help = (
        "Check a kalooki-sheet/1 score sheet against the rules (checks V1–V14; a British game, BV1–BV8; "
        "a North American game, NV1–NV4). "
        "Exit 0 no errors, 1 errors found, 2 unreadable."
    )
    # Pure engine work: no database or site checks, so it runs anywhere a sheet file is.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help='the sheet as JSON; "-" reads standard input')
        parser.add_argument(
            "--format",
            choices=("text", "json"),
            default="text",
            help="text: one line per finding and a summary (default); json: a list of findings",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            findings = validate_data(decode_json(_read(name)))
        except SheetError as error:
            self.stderr.write(str(error))
            raise SystemExit(EXIT_UNREADABLE) from None
        if options["format"] == "json":
            self.stdout.write(json.dumps([item.as_dict() for item in findings], ensure_ascii=False, indent=2))
        else:
            for item in findings:
                self.stdout.write(format_finding(item))
            self.stdout.write(f"{'standard input' if name == '-' else name}: {summarize(findings)}")
        if has_errors(findings):
            raise SystemExit(EXIT_ERRORS)


def _read(name: str) -> str | bytes:
    try:
        if name == "-":
            # Bytes when there are any, so json.loads detects the encoding as it does for a file.
            stream = getattr(sys.stdin, "buffer", sys.stdin)
            data: str | bytes = stream.read()
            return data
        with open(name, "rb") as file:
            return file.read()
    except OSError as error:
        raise SheetError("", f"{name}: cannot be read ({error.strerror or error})") from None
