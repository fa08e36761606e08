"""A gunicorn serving the benchmark database on 127.0.0.1 and a free port, for the length of a `with`.

The server runs the project as production would: DEBUG off, a real secret, static files collected (into
a temporary folder) and served by whitenoise, `DATABASE_URL` pointing at the benchmark's database.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

HOST = "127.0.0.1"
START_SECONDS = 60
COLLECTSTATIC = (sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0")


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    workers: int
    log: Path
    environment: dict[str, str]

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def server_environment(*, database_url: str, static_root: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "scoring.bench.server_settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": f"{HOST},localhost",
        # Loopback HTTP: a venue's production server would sit behind TLS.
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "KALOOKI_BENCH_STATIC_ROOT": static_root,
    }


def _wait_ready(process: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    last = ""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"gunicorn exited with {process.returncode}: {log.read_text(errors='replace')[-1500:]}"
            )
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except urllib.error.HTTPError as exc:
            raise RuntimeError(
                f"gunicorn answered {url} with HTTP {exc.code}: {log.read_text(errors='replace')[-1500:]}"
            ) from None
        except OSError as exc:
            last = str(exc)
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer {url} within {START_SECONDS} s ({last})")


@contextmanager
def collected_static(*, database_url: str) -> Iterator[Path]:
    """Static files collected as production collects them (hashed names, compressed copies), into a
    temporary folder. The admin's and django-tables2's own files are left out: the public pages under
    load use none of them, and compressing them took most of the server's start-up."""
    folder = Path(tempfile.mkdtemp(prefix="kalooki-bench-static-"))
    try:
        collected = subprocess.run(
            [*COLLECTSTATIC, "--ignore", "admin", "--ignore", "django_tables2"],
            cwd=settings.BASE_DIR,
            env=server_environment(database_url=database_url, static_root=str(folder)),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if collected.returncode != 0:
            raise RuntimeError(f"collectstatic failed: {(collected.stderr or collected.stdout)[-1500:]}")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def gunicorn(
    *,
    database_url: str,
    static_root: Path,
    ready_path: str,
    workers: int = 2,
    extra_environment: dict[str, str] | None = None,
) -> Iterator[Server]:
    environment = server_environment(database_url=database_url, static_root=str(static_root))
    environment.update(extra_environment or {})
    folder = Path(tempfile.mkdtemp(prefix="kalooki-bench-server-"))
    port = free_port()
    log = folder / "gunicorn.log"
    command = [
        sys.executable, "-m", "gunicorn", "kalooki_tournament.wsgi:application",
        "--workers", str(workers), "--bind", f"{HOST}:{port}", "--log-level", "warning",
    ]  # fmt: skip
    with log.open("w") as output:
        process = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(HOST, port, workers, log, environment)
    try:
        _wait_ready(process, server.url(ready_path), log)
        yield server
    finally:
        _stop(process)
        shutil.rmtree(folder, ignore_errors=True)


def _stop(process: subprocess.Popen) -> None:
    """Stop the gunicorn we started (its master, which takes its workers down with it)."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
