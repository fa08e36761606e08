"""Settings for the benchmark's gunicorn: the project's own settings, as production runs them
(DJANGO_DEBUG=0 and friends come from the environment the benchmark gives the server), with one
difference: static files are collected into the run's temporary folder, not into the working tree."""

import os

from kalooki_tournament.settings import *  # noqa: F403

STATIC_ROOT = os.environ["KALOOKI_BENCH_STATIC_ROOT"]
