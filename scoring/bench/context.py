"""What every measurement is given: the sizes, the built event, the database and the progress line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .config import Scale
from .database import BenchDatabase
from .fixture import BenchEvent


@dataclass
class BenchContext:
    scale: Scale
    event: BenchEvent
    database: BenchDatabase
    progress: Callable[[str], None]
    load_tool: str = "auto"  # "auto" (wrk when installed), "wrk" or "python"
    load_seconds: float | None = None

    @property
    def standings_path(self) -> str:
        return f"/e/{self.event.event.slug}/standings/"
