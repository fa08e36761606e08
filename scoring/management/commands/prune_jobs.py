"""`manage.py prune_jobs`: delete finished background jobs, their files and the worker's finished task
rows older than `settings.BACKGROUND_JOBS_KEEP_HOURS` (KALOOKI_JOBS_KEEP_HOURS, 24 by default). Every new
job does the same on its way in; run this from cron where jobs are rare."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from scoring.services.jobs import jobs_prune


class Command(BaseCommand):
    help = "Delete background jobs (and their files) finished longer ago than the time they are kept."

    def handle(self, *args, **options):
        deleted = jobs_prune()
        self.stdout.write(f"{deleted} background job{'' if deleted == 1 else 's'} deleted.")
