"""`manage.py jobs_worker`: the worker for background jobs — django-tasks' `db_worker`, with the same
options — that also notices jobs whose worker died (`scoring.background.recover_jobs`) as it starts and
every `WATCH_SECONDS` while it runs, and runs them again or fails them with a message. With --batch it
looks once, then runs what is queued and stops (in the caller's process: the tests and the benchmark).
The worker of its own process runs at `WORKER_NICENESS`: the app servers come first."""

from __future__ import annotations

import os

from django_tasks_db.management.commands import db_worker

from scoring import background


class Command(db_worker.Command):
    help = "Run the background jobs' worker, running again the jobs of a worker that died."

    def handle(self, *args, **options) -> None:
        if options.get("batch"):
            background.recover_jobs()
            return super().handle(*args, **options)
        os.nice(background.WORKER_NICENESS)
        watch = background.JobWatch()
        watch.start()
        try:
            return super().handle(*args, **options)
        finally:
            watch.stop()
