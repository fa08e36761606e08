"""What every measurement is given: the sizes, the built event, the database and the progress line."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from .config import Scale
from .database import BenchDatabase
from .fixture import BenchEvent
from .server import collected_static


@dataclass
class BenchContext:
    scale: Scale
    event: BenchEvent
    database: BenchDatabase
    progress: Callable[[str], None]
    load_tool: str = "auto"  # "auto" (wrk when installed), "wrk" or "python"
    load_seconds: float | None = None
    # What the run holds until it ends (the collected static files); the runner closes it.
    held: ExitStack = field(default_factory=ExitStack)
    collected: Path | None = None

    def static_root(self) -> Path:
        """The static files every server of the run serves, collected the first time one asks (the
        load, the entry and the rush sections serve the same files)."""
        if self.collected is None:
            self.progress("collecting the static files (once for every server of this run)")
            self.collected = self.held.enter_context(collected_static(database_url=self.database.url))
        return self.collected

    @property
    def standings_path(self) -> str:
        return f"/e/{self.event.event.slug}/standings/"
