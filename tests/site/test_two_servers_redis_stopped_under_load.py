"""The two-server load test with Redis stopped in the middle (issue 22, "Done when"): 16 tables of four,
two gunicorn app servers sharing PostgreSQL and a redis-server of the test's own; eight director threads
(four on each server, each logged in as the director, two tables each) post every table's deals
(`simulate_sheet`, nine deals a table and a void deal's replay) through the entry page, paced over the
whole run, while two readers read the public standings from both servers. In the middle Redis is stopped
(SIGSTOP: it holds its data and answers nothing) for 3 s in the suite and for 30 s with KALOOKI_FULL=1
(`make test-full`), then continued.

Every answer is counted. Asserted: no 5xx answer to any save (nor to any read); every deal answered as
saved is stored and none is stored twice — each table's `Deal` rows are exactly its sheet's deals, in
order, with the sheet's scores; a save refused with a clear 409/400 (a retry of a save whose first answer
never came back) is not lost, but is counted and reported; some saves were handled while Redis was
stopped; after the run the public provisional standings read from each server show, for every player,
the total `standings_view(event, provisional=True)` recomputes from the database; and neither server's
log holds "Internal Server Error". The figures are printed (run with -s to see them).

Needs DATABASE_URL=postgres://… (two servers share one database) and redis-server; skipped, saying so,
otherwise.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import threading
import time
import urllib.request
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field

import pytest
from django.db import connection
from django.urls import reverse

from adjudication.engine.simulator import simulate_sheet
from scoring import selectors
from scoring.bench.server import collected_static, gunicorn
from scoring.models import Deal
from tests.conftest import FULL
from tests.site.test_two_servers import PASSWORD, Browser, database_url

pytestmark = [
    pytest.mark.heavy,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


TABLES = 16
DESKS = 8  # director threads, half on each server
READERS = 2  # public standings readers, one on each server
STOPPED_SECONDS = 30.0 if FULL else 3.0
BEFORE_SECONDS = 10.0 if FULL else 2.0
AFTER_SECONDS = 10.0 if FULL else 2.0
RUN_SECONDS = BEFORE_SECONDS + STOPPED_SECONDS + AFTER_SECONDS
ATTEMPTS = 6  # posts of one deal at most (a lost answer, then a refusal re-read) before giving up
SET_VERSION = re.compile(r'name="set_version" value="(\d+)"')
STANDING_ROW = re.compile(
    r'<th scope="row"><a href="[^"]*">([^<]+)</a>.*?</th>\s*<td>[^<]*</td>\s*<td class="num">(-?\d+)</td>',
    re.S,
)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A save's own answer (302 saved, 409/400 refused), not the page it sends the browser on to."""

    def redirect_request(self, *args, **kwargs):
        return None


class Desk(Browser):
    """A director at a desk: logged in on one server, posting deals and seeing each save's own answer."""

    def log_in(self, username: str, password: str) -> int:
        status = super().log_in(username, password)
        cookies = urllib.request.HTTPCookieProcessor(self.cookies)
        self.opener = urllib.request.build_opener(cookies, NoRedirect)
        return status


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    answers: Counter = field(default_factory=Counter)  # status of every save answered
    posted: int = 0  # save requests sent
    saved_while_stopped: int = 0  # saves answered 302 that were sent while Redis was stopped
    saved_across_stop: int = 0  # saves answered 302 whose request was open at some moment of the stop
    timings: list[tuple[str, float]] = field(default_factory=list)  # (phase sent in, seconds to answer)
    no_answer: list[str] = field(default_factory=list)  # saves with no HTTP answer (then retried)
    refused: list[str] = field(default_factory=list)  # 409/400 answers, with their table and deal
    server_errors: list[str] = field(default_factory=list)  # any 5xx, save or read
    given_up: list[str] = field(default_factory=list)  # deals never stored after ATTEMPTS posts
    saved_per_table: Counter = field(default_factory=Counter)  # 302 answers per table number
    reads: Counter = field(default_factory=Counter)  # status of every read (pages the desks and readers got)
    failures: list[BaseException] = field(default_factory=list)

    def add(self, **changes) -> None:
        with self.lock:
            for name, value in changes.items():
                target = getattr(self, name)
                if isinstance(target, list):
                    target.append(value)
                elif isinstance(target, Counter):
                    target[value] += 1
                else:
                    setattr(self, name, target + value)


class Clock:
    """When Redis is stopped, as the threads see it."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.stopped_at: float | None = None
        self.continued_at: float | None = None

    def phase(self, moment: float) -> str:
        if self.stopped(moment):
            return "stopped"
        return "before" if self.stopped_at is None or moment < self.stopped_at else "after"

    def overlaps(self, begin: float, end: float) -> bool:
        return (
            self.stopped_at is not None
            and end >= self.stopped_at
            and (self.continued_at is None or begin < self.continued_at)
        )

    def stopped(self, moment: float) -> bool:
        return (
            self.stopped_at is not None
            and moment >= self.stopped_at
            and (self.continued_at is None or moment < self.continued_at)
        )


def deal_form(deal: dict, names: list[str], set_version: int) -> dict[str, str]:
    """A sheet deal as the director's deal form posts it (as `form_data` in test_entry_views)."""
    data = {
        "deal": str(deal["deal"]),
        "set_version": str(set_version),
        "out": deal.get("out") or "",
        "dealer": deal.get("dealer") or "",
        "reason": "",
        "version": "",
        "sequence": "",
    }
    for flag in ("doubled", "void"):
        if deal.get(flag):
            data[flag] = "on"
    for seat, name in enumerate(names, start=1):
        result = deal.get("results", {}).get(name, {})
        for key in ("calls", "hand", "penalty", "total", "other_points", "other_reason"):
            if key in result:
                data[f"p{seat}-{key}"] = str(result[key])
        for key in ("overcall", "contract_error"):
            if result.get(key):
                data[f"p{seat}-{key}"] = "on"
        if "opened" in result:
            data[f"p{seat}-opened"] = "yes" if result["opened"] else "no"
    return data


@dataclass(frozen=True)
class Table:
    number: int
    names: list[str]
    sheet: dict
    url: str


@pytest.fixture
def night(own_redis, make_event, make_table, director, settings):
    if connection.vendor != "postgresql":
        pytest.skip("two app servers share one database: run with DATABASE_URL=postgres://…")
    from scoring import services

    # The servers hash as production does; the tests' MD5 hasher is unknown to them.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    director.set_password(PASSWORD)
    director.save()
    event = make_event(name="Stopped Cache Open", slug="stopped-cache-open")
    rnd = services.round_create(event=event, user=director)
    tables = []
    for number in range(1, TABLES + 1):
        names = [f"{first} {number:02d}" for first in ("Ann", "Bob", "Cy", "Dee")]
        sheet = simulate_sheet(number, names)
        game_set = make_table(rnd, names, number=number, first_dealer=names.index(sheet["first_dealer"]) + 1)
        where = {"slug": event.slug, "number": rnd.number, "table": number}
        url = reverse("scoring:direct_table", kwargs=where)
        tables.append(Table(number, names, sheet, url))
        assert game_set.version == 1
    redis_server, redis_url = own_redis
    standings = reverse("scoring:standings", kwargs={"slug": event.slug})
    url = database_url()
    environment = {"DJANGO_SECURE_COOKIES": "0", "DJANGO_HSTS_SECONDS": "0", "REDIS_URL": redis_url}
    with ExitStack() as stack:
        static = stack.enter_context(collected_static(database_url=url))
        servers = [
            stack.enter_context(
                gunicorn(
                    database_url=url,
                    static_root=static,
                    ready_path=standings,
                    workers=2,
                    extra_environment=environment,
                )
            )
            for _ in range(2)
        ]
        yield servers, redis_server, event, tables, standings


def run_desk(desk: Desk, mine: list[Table], tally: Tally, clock: Clock) -> None:
    """Post `mine` tables' deals in turn (deal 1 of each, then deal 2, …), each no earlier than its
    moment on a schedule spread over the whole run; re-post a save whose answer never came."""
    queue = [(table, index) for index in range(max(len(t.sheet["deals"]) for t in mine)) for table in mine]
    queue = [(table, index) for table, index in queue if index < len(table.sheet["deals"])]
    interval = RUN_SECONDS / len(queue)
    for position, (table, index) in enumerate(queue):
        wait = clock.start + position * interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        post_deal(desk, table, index, tally, clock)


def set_version_of(desk: Desk, table: Table, tally: Tally) -> int:
    """The set's version as the entry page shows it (the number of deals stored, plus one)."""
    for _ in range(ATTEMPTS):
        try:
            status, page = desk.get(table.url)
        except (OSError, http.client.HTTPException):
            tally.add(reads="no answer")
            continue
        tally.add(reads=status)
        if status >= 500:
            tally.add(server_errors=f"GET table {table.number}: {status}")
            continue
        found = SET_VERSION.search(page)
        assert status == 200 and found, f"table {table.number}: {status} {page[-1000:]}"
        return int(found.group(1))
    raise AssertionError(f"table {table.number}'s entry page never answered")


def post_deal(desk: Desk, table: Table, index: int, tally: Tally, clock: Clock) -> None:
    deal = table.sheet["deals"][index]
    label = f"table {table.number} row {index + 1} (deal {deal['deal']}{' void' if deal.get('void') else ''})"
    version = set_version_of(desk, table, tally)
    for _ in range(ATTEMPTS):
        if version - 1 > index:
            return  # stored by an earlier post whose answer never came back
        assert version - 1 == index, f"{label}: the set holds {version - 1} deals"
        sent = time.monotonic()
        tally.add(posted=1)
        try:
            status, page = desk.post(table.url, deal_form(deal, table.names, version))
        except (OSError, http.client.HTTPException) as error:
            tally.add(no_answer=f"{label}: {error!r}")
            continue  # the same post again, typed against the same set version
        tally.add(answers=status)
        tally.add(timings=(clock.phase(sent), time.monotonic() - sent))
        if status == 302:
            tally.add(saved_per_table=table.number)
            if clock.stopped(sent):
                tally.add(saved_while_stopped=1)
            if clock.overlaps(sent, time.monotonic()):
                tally.add(saved_across_stop=1)
            return
        if status >= 500:
            tally.add(server_errors=f"POST {label}: {status}")
        elif status in (400, 409):
            tally.add(refused=f"{label}: {status}")
        else:
            raise AssertionError(f"{label}: answered {status}: {page[-1500:]}")
        version = set_version_of(desk, table, tally)
    tally.add(given_up=label)


def run_reader(reader: Browser, path: str, tally: Tally, done: threading.Event) -> None:
    while not done.is_set():
        try:
            status, _ = reader.get(path)
        except (OSError, http.client.HTTPException):
            tally.add(reads="no answer")
        else:
            tally.add(reads=status)
            if status >= 500:
                tally.add(server_errors=f"GET {path}: {status}")
        done.wait(0.25)


def page_totals(page: str) -> dict[str, int]:
    return {name.strip(): int(total) for name, total in STANDING_ROW.findall(page)}


def stored(table: Table, event) -> list[tuple]:
    rows = (
        Deal.objects.filter(game_set__table__round__event=event, game_set__table__number=table.number)
        .select_related("out__player")
        .prefetch_related("results__entry__player")
        .order_by("sequence")
    )
    return [
        (
            deal.number,
            deal.void,
            deal.out.player.name if deal.out else None,
            {result.entry.player.name: result.penalty for result in deal.results.all()},
        )
        for deal in rows
    ]


def wanted(table: Table) -> list[tuple]:
    return [
        (
            deal["deal"],
            bool(deal.get("void")),
            None if deal.get("void") else deal.get("out"),
            {} if deal.get("void") else {name: row["penalty"] for name, row in deal["results"].items()},
        )
        for deal in table.sheet["deals"]
    ]


def test_two_servers_under_load_lose_no_deal_while_redis_is_stopped(night, director):
    (first, second), redis_server, event, tables, standings = night
    began = time.monotonic()
    desks = []
    for number in range(DESKS):
        desk = Desk(first if number % 2 == 0 else second)
        assert desk.log_in(director.username, PASSWORD) == 200
        desks.append(desk)
    provisional = f"{standings}?provisional=1&per_page=100"
    tally, clock, done = Tally(), Clock(), threading.Event()

    def guarded(work, *args):
        try:
            work(*args)
        except BaseException as error:  # reported by the main thread
            tally.add(failures=error)

    threads = [
        threading.Thread(target=guarded, args=(run_desk, desk, tables[number::DESKS], tally, clock))
        for number, desk in enumerate(desks)
    ]
    threads += [
        threading.Thread(target=guarded, args=(run_reader, Browser(server), provisional, tally, done))
        for server in (first, second)[:READERS]
    ]
    clock.start = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        time.sleep(BEFORE_SECONDS)
        clock.stopped_at = time.monotonic()
        os.kill(redis_server.pid, signal.SIGSTOP)
        time.sleep(STOPPED_SECONDS)
    finally:
        os.kill(redis_server.pid, signal.SIGCONT)
        clock.continued_at = time.monotonic()
        for thread in threads[:DESKS]:
            thread.join(timeout=RUN_SECONDS + 300)
        done.set()
        for thread in threads[DESKS:]:
            thread.join(timeout=60)
    posting_seconds = time.monotonic() - clock.start
    assert not tally.failures, tally.failures

    # Every deal answered as saved is stored, none twice: each table holds exactly its sheet.
    lost = duplicated = 0
    differing = []
    for table in tables:
        rows, sheet = stored(table, event), wanted(table)
        lost += max(0, tally.saved_per_table[table.number] - len(rows))
        duplicated += max(0, len(rows) - len(sheet))
        if rows != sheet:
            differing.append((table.number, rows, sheet))
    saved = sum(tally.saved_per_table.values())
    stored_rows = Deal.objects.filter(game_set__table__round__event=event).count()

    # The public standings from each server equal a recomputation from the database.
    expected = {row["player"]: row["total"] for row in selectors.standings_view(event, provisional=True).rows}
    pages = {}
    for server in (first, second):
        status, page = Browser(server).get(provisional)
        assert status == 200, page[-1500:]
        pages[server.port] = page_totals(page)
    logs = {server.port: server.log.read_text(errors="replace") for server in (first, second)}

    load = os.getloadavg()
    print(
        f"\nRedis stopped {STOPPED_SECONDS:.0f} s of a {posting_seconds:.1f} s run: {len(tables)} tables, "
        f"{DESKS} desks, posts sent {tally.posted}, answers {dict(tally.answers)}, saved (302) {saved} "
        f"({tally.saved_while_stopped} sent while stopped, {tally.saved_across_stop} open during it), "
        f"refused (409/400) {len(tally.refused)}, "
        f"no answer {len(tally.no_answer)}, given up {len(tally.given_up)}, stored {stored_rows} of "
        f"{sum(len(t.sheet['deals']) for t in tables)} sheet deals, lost {lost}, stored twice {duplicated}, "
        f"server errors {len(tally.server_errors)}, reads {dict(tally.reads)}; "
        f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; whole test {time.monotonic() - began:.1f} s"
    )
    for phase in ("before", "stopped", "after"):
        took = sorted(seconds for name, seconds in tally.timings if name == phase)
        if took:
            print(
                f"   saves sent {phase}: {len(took)}, answered in median {took[len(took) // 2]:.2f} s, "
                f"slowest {took[-1]:.2f} s"
            )
    for line in (*tally.refused, *tally.no_answer, *tally.server_errors, *tally.given_up):
        print("  ", line)

    assert not tally.server_errors, tally.server_errors
    assert not tally.given_up, tally.given_up
    assert lost == 0 and duplicated == 0 and not differing, differing[:2]
    assert stored_rows == sum(len(table.sheet["deals"]) for table in tables) and saved <= stored_rows
    assert tally.saved_across_stop > 0, "no save was handled while Redis was stopped"
    assert len(expected) == 4 * TABLES
    for port, totals in pages.items():
        assert totals == expected, (port, set(totals.items()) ^ set(expected.items()))
    for port, text in logs.items():
        assert "Internal Server Error" not in text, (port, text[-3000:])
