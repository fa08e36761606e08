"""One shared test world: an event, its first round and a table of Ann, Bob, Cy and Dee (seats 1–4,
Ann deals first), its director (logged in as `as_director`), the table with the example sheet
imported (`played`), plus factories for more players, tables and played sets.

Engine tests need none of this (no database); scoring and adjudication tests build on it.
"""

from __future__ import annotations

import copy
import csv
import gc
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

# CI runs the properties with a fixed sequence of examples, so a landing is never decided by chance;
# local runs keep exploring new examples (and remember failures in .hypothesis/).
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

DATA = Path(__file__).parent / "data"
FOUR = ("Ann", "Bob", "Cy", "Dee")
# A property test marked `slow` tries this many examples in the suite (its explicit @example cases
# always run); KALOOKI_FULL=1 (`make test-full`) gives it the max_examples its @settings ask for.
SLOW_EXAMPLES = 10
FULL = os.environ.get("KALOOKI_FULL", "").strip().lower() in {"1", "true", "yes"}
# The marks of modules that take many seconds (see pytest_collection_modifyitems).
FIRST = ("heavy", "browser", "slow")


def pytest_collection_modifyitems(config, items):
    # The modules of many seconds go first: pytest-xdist hands each worker whole modules in this order,
    # and a long one handed out last keeps one worker busy while the other has nothing left to do.
    items.sort(key=lambda item: not any(item.get_closest_marker(name) for name in FIRST))
    if FULL:
        return
    for item in items:
        test = getattr(item, "obj", None)
        asked = getattr(test, "_hypothesis_internal_use_settings", None)
        if item.get_closest_marker("slow") and asked is not None and asked.max_examples > SLOW_EXAMPLES:
            test._hypothesis_internal_use_settings = hypothesis_settings(asked, max_examples=SLOW_EXAMPLES)


def pytest_collection_finish(session):
    """The collected suite is several hundred thousand objects that live to the end: the garbage
    collector walked them all again at every full collection, while the tests make and drop a Django
    query's objects by the thousand. Kept out of its sight (gc.freeze) and collected less often, the
    suite takes a tenth less CPU (measured on tests/scoring/web and tests/adjudication: 98 s → 84 s)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def deadline_words(moment) -> str:
    """A deadline as the pages say it: '23:50' today (local time), '7 Dec, 00:20' on another day — a
    round closed within its correction period of midnight is provisional until a time tomorrow."""
    from django.utils import timezone

    local = timezone.localtime(moment)
    if local.date() == timezone.localtime(timezone.now()).date():
        return f"{local:%H:%M}"
    return f"{local.day} {local:%b}, {local:%H:%M}"


def load_json(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def renamed_sheet(sheet: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A copy of a sheet with its players renamed, in seat order, to `names`."""
    mapping = dict(zip(sheet["players"], names, strict=True))
    data = copy.deepcopy(dict(sheet))
    data["players"] = list(names)
    for key in ("first_dealer",):
        if key in data:
            data[key] = mapping[data[key]]
    for deal in data["deals"]:
        for key in ("out", "dealer"):
            if deal.get(key):
                deal[key] = mapping[deal[key]]
        if "results" in deal:
            deal["results"] = {mapping[name]: row for name, row in deal["results"].items()}
    return data


def row_counts() -> dict[str, int]:
    """How many rows each scoring and adjudication model holds: equal before and after means a refused
    call wrote nothing."""
    from django.apps import apps
    from django.db import connection

    models = [*apps.get_app_config("scoring").get_models(), *apps.get_app_config("adjudication").get_models()]
    # One query for them all (a count a model cost forty round trips a call).
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT {index}, COUNT(*) FROM {quote(model._meta.db_table)}" for index, model in enumerate(models)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        counts = dict(cursor.fetchall())
    return {model.__name__: counts[index] for index, model in enumerate(models)}


FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast_passwords_and_fresh_cache(settings):
    """Every test: a cheap password hasher (the default costs ~0.4 s a user) and an empty page cache,
    so one test's cached standings never answer another's request."""
    from django.core.cache import caches

    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS
    caches["default"].clear()
    yield
    caches["default"].clear()


@pytest.fixture
def rename_sheet():
    """rename_sheet(sheet, names) -> a copy with the players renamed in seat order."""
    return renamed_sheet


@pytest.fixture
def example_sheet() -> dict[str, Any]:
    """A valid nine-deal sheet for Ann, Bob, Cy and Dee (no findings)."""
    return load_json("example-sheet.json")


@contextmanager
def kept_for_the_module(django_db_blocker):
    """For a module-scoped world: what is written inside stays for every test of the module and is
    rolled back when the module ends. Each test still runs in a savepoint of its own (`db`), so what
    one test writes the next never sees. Build a world once where its tests only read it (or write
    and roll back), instead of once a test. Its passwords are hashed as the tests' own are (cheaply)."""
    from django.db import transaction
    from django.test import override_settings

    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_PASSWORD_HASHERS):
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def migrated_to(targets):
    """Migrate the test database to `targets` ([(app, migration)]): the apps as they were there."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest():
    """For a migration's test: migrate the test database back to every app's latest migration
    afterwards, whatever the test left it at (later tests need the whole schema)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def new_director(username: str = "director", password: str = "secret-director-pw", **fields):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username, password=password, **fields)


def new_event(director, **fields):
    """An event created through the service by `director` (its director unless `directors` says)."""
    from scoring import services

    fields.setdefault("date_start", date(2026, 12, 5))
    fields.setdefault("directors", [director])
    return services.event_create(user=director, **fields)


@pytest.fixture
def director(db):
    return new_director()


@pytest.fixture
def as_director(client, director):
    """The test client, logged in as the event's director."""
    client.force_login(director)
    return client


@pytest.fixture
def other_director(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("second", password="secret-second-pw")


@pytest.fixture
def make_event(db, director):
    """make_event(**fields) -> Event, created through the service by `director`."""
    counter = iter(range(1, 10_000))

    def make(**fields):
        number = next(counter)
        fields.setdefault("name", f"Test Event {number}")
        fields.setdefault("slug", f"test-event-{number}")
        return new_event(director, **fields)

    return make


@pytest.fixture
def event(make_event):
    return make_event(name="Test Open", slug="test-open")


@pytest.fixture
def round1(event, director):
    from scoring import services

    return services.round_create(event=event, user=director)


def entered(event, names, director, clubs=None):
    """{name: Entry} for `names` in `event`, entering those not yet entered through the service a
    director enters a list of players with (the CSV import: a few queries for them all, where entering
    them one by one cost four times as many — the shared table of hundreds of tests)."""
    from scoring import services
    from scoring.models import Entry

    names = list(names)

    def there() -> dict[str, Entry]:
        """The entries already there in one query (the first of a name, as .first() would pick)."""
        found: dict[str, Entry] = {}
        entries = Entry.objects.filter(event=event, player__name__in=names).select_related("player")
        for entry in entries.order_by("pk"):
            found.setdefault(entry.player.name, entry)
        return found

    found = there()
    missing = [(name, clubs[index] if clubs else "") for index, name in enumerate(names) if name not in found]
    if missing:
        rows = io.StringIO()
        writer = csv.writer(rows)
        writer.writerow(["name", "club"])
        writer.writerows(dict(missing).items())
        report = services.players_import_csv(event=event, user=director, data=rows.getvalue())
        assert report.ok, report.rejected
        found = there()
    return {name: found[name] for name in names}


def seated_table(rnd, names, director, *, number=None, first_dealer=1):
    """A new table of `rnd` seating `names` in order (entered as needed): its GameSet."""
    from scoring.models import GameSet, Seat, Table

    entries = entered(rnd.event, names, director)
    number = number or Table.objects.filter(round=rnd).count() + 1
    table = Table.objects.create(round=rnd, number=number, first_dealer=first_dealer)
    Seat.objects.bulk_create(
        Seat(table=table, round=rnd, position=position, entry=entries[name])
        for position, name in enumerate(names, start=1)
    )
    return GameSet.objects.create(table=table)


@pytest.fixture
def make_entries(director):
    """make_entries(event, names, clubs=None) -> {name: Entry}, adding those not yet entered."""

    def make(event, names, clubs=None):
        return entered(event, names, director, clubs)

    return make


@pytest.fixture
def make_table(make_entries, director):
    """make_table(round, names, number=None, first_dealer=1) -> GameSet, seated in `names` order."""

    def make(rnd, names, *, number=None, first_dealer=1):
        return seated_table(rnd, names, director, number=number, first_dealer=first_dealer)

    return make


@pytest.fixture
def game_set(round1, make_table):
    """The shared table: round 1, table 1, Ann Bob Cy Dee clockwise, Ann deals first."""
    return make_table(round1, FOUR)


@pytest.fixture
def entries(game_set):
    from scoring.models import Entry

    return {
        entry.player.name: entry
        for entry in Entry.objects.filter(event=game_set.table.round.event).select_related("player")
    }


@pytest.fixture
def played(game_set, director, example_sheet):
    """The shared table with the example sheet's nine deals imported through the service (in play)."""
    from scoring import services

    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    game_set.refresh_from_db()
    return game_set


def finished_round_pack(event):
    """A round pack the worker has made for `event` (round 1), ready to download: a job's address."""
    from scoring.models import BackgroundJob

    return BackgroundJob.objects.create(
        event=event, kind="round_pack", params={"round": 1}, status="done", filename="r1.pdf", result=b"%PDF"
    )


def kept_sheet_photo(game_set, by: str):
    """A stand-in photo of `game_set`'s signed sheet (its address and who may open it, not its picture)."""
    from scoring.models import SheetPhoto

    return SheetPhoto.objects.create(
        game_set=game_set, by=by, sha256="0" * 64, width=1, height=1, data=b"jpeg"
    )


def played_deals(game_set, deals, *, verified=True):
    """Write `deals` straight to the tables (no services): see `play_set`."""
    from django.db import transaction
    from django.utils import timezone

    from scoring import services
    from scoring.models import Deal, DealResult, Entry, GameSet

    event_id = game_set.table.round.event_id
    entries = {
        entry.player.name: entry for entry in Entry.objects.filter(event_id=event_id).select_related("player")
    }
    for number, (out, doubled, scores) in enumerate(deals, start=1):
        deal = Deal.objects.create(
            game_set=game_set,
            sequence=number,
            number=number,
            out=entries[out] if out else None,
            doubled=doubled,
        )
        DealResult.objects.bulk_create(
            DealResult(deal=deal, entry=entries[name], penalty=penalty) for name, penalty in scores.items()
        )
    if verified:
        GameSet.objects.filter(pk=game_set.pk).update(
            status=GameSet.Status.VERIFIED, verified_at=timezone.now()
        )
        # As set_verify does, inside a transaction (PostgreSQL locks the round's row).
        with transaction.atomic():
            services.round_close_if_complete(round=game_set.table.round, user=None, cause="test")
    game_set.refresh_from_db()
    return game_set


@pytest.fixture
def play_set():
    """play_set(game_set, deals, verified=True): write deals straight to the tables (no services).

    `deals`: a list of (out, doubled, {name: penalty}) for deals 1, 2, …; for selector tests that
    need exact totals without going through the validator. A verified set whose round then has every
    seated table verified closes the round, as `set_verify` does (through the closing service).
    """
    return played_deals


def nine(scores: Mapping[str, int], *, out: str | None = None, doubled_outs: int = 0):
    """Nine deals whose totals are `scores`: deal 1 carries everything, the winner of every deal is
    `out` (default: the lowest scorer) with 0; the first `doubled_outs` deals are doubled."""
    out = out or min(scores, key=lambda name: scores[name])
    deals = []
    for number in range(1, 10):
        row = {name: (value if number == 1 else 0) for name, value in scores.items()}
        row[out] = 0 if number > 1 else row[out]
        deals.append((out, number <= doubled_outs, row))
    return deals


@pytest.fixture
def nine_deals():
    return nine


@pytest.fixture
def decode_qr(tmp_path):
    """decode_qr(pdf bytes) -> every QR code's text, page by page: each page drawn by poppler's pdftoppm
    and read by zbar's zbarimg (`make test` installs poppler-utils and zbar-tools when missing)."""
    import shutil
    import subprocess

    missing = [tool for tool in ("pdftoppm", "zbarimg") if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"{', '.join(missing)} missing: `make test` installs poppler-utils and zbar-tools "
            "(apt-get install poppler-utils zbar-tools)",
            pytrace=False,
        )
    runs = iter(range(1, 1000))

    def decode(pdf: bytes) -> list[str]:
        folder = tmp_path / f"qr-{next(runs)}"
        folder.mkdir()
        source = folder / "sheet.pdf"
        source.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-png", "-r", "150", str(source), str(folder / "page")], check=True)
        found = []
        for image in sorted(folder.glob("page*.png")):
            result = subprocess.run(
                ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(image)],
                capture_output=True,
                text=True,
                check=False,
            )
            found += [line for line in result.stdout.splitlines() if line]
        return found

    return decode


# --- a Redis of the test's own -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of the test's own (never the machine's own on 6379) on a free port: (the process,
    its URL). A test may stop it (SIGSTOP) to play a Redis that stopped answering; it is continued and
    ended after the test."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    yield server, f"redis://127.0.0.1:{port}/0"
    os.kill(server.pid, signal.SIGCONT)
    server.terminate()
    server.wait(timeout=10)
