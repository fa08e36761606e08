"""Publish, then pre-warm (issue 24): a seated round is its directors' alone until one of them publishes
it (audited); publishing queues the worker's warm of every page the hall opens, after which a player's
page is read from Redis without a database row; a deal recorded re-warms only its table's players."""

from __future__ import annotations

import gzip
import re
import time
from datetime import timedelta

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from adjudication.models import AuditEntry
from kalooki_tournament import shared_cache
from scoring import page_cache, services, warming
from scoring.models import Entry, Event, Seat

EIGHT = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
MIDDLEWARE = "scoring.page_cache.SharedPageCacheMiddleware"


def url(name, event, **kwargs):
    return reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def seated(event, make_entries, director):
    """Round 1 of eight players drawn into two tables, not published."""
    make_entries(event, EIGHT)
    rnd = services.round_create(event=event, user=director)
    return services.round_seat(round=rnd, user=director, seed=11, method="random")


def test_a_seated_round_is_private_until_published_then_public_and_audited(
    seated, client, as_director, director, django_user_model
):

    event = seated.event
    anonymous = Client()
    ann = Entry.objects.get(event=event, player__name="Ann")
    seat = Seat.objects.get(round=seated, entry=ann)
    private = [
        url("round", event, number=1),
        url("seating", event, number=1),
        url("table", event, number=1, table=1),
    ]
    for path in private:
        assert anonymous.get(path).status_code == 404, path
    assert anonymous.get(url("pdf_seating", event, number=1)).status_code == 404
    assert "no round is seated yet" in text(anonymous.get(url("player_seat", event, entry_id=ann.pk)))
    assert "Round 1, table" not in text(anonymous.get(url("player", event, entry_id=ann.pk)))
    assert ">Round 1<" not in text(anonymous.get(url("event", event)))
    # The directors review it: their dashboard offers to publish it, their seating list prints.
    assert "Publish round 1</button>" in text(as_director.get(url("direct", event)))
    assert as_director.get(url("pdf_seating", event, number=1)).status_code == 200

    answer = as_director.post(url("direct_round_publish", event, number=1), follow=True)
    assert "Round 1 published: its seating and tables are public now." in text(answer)
    seated.refresh_from_db()
    assert seated.published_at is not None and seated.published_by == director
    entry = AuditEntry.objects.get(action="kalooki.round.published")
    assert entry.user == director and entry.before == {"published": False}
    assert entry.after["published"] is True and entry.after["tables"] == 2
    for path in private:
        assert anonymous.get(path).status_code == 200, path
    where = text(anonymous.get(url("player_seat", event, entry_id=ann.pk)))
    assert f"table {seat.table.number}, seat {seat.position}" in where
    assert f"Round 1, table {seat.table.number}" in text(anonymous.get(url("player", event, entry_id=ann.pk)))
    # Published once: a second click is refused and says when.
    again = as_director.post(url("direct_round_publish", event, number=1), follow=True)
    assert "Round 1 was already published at" in text(again)
    assert AuditEntry.objects.filter(action="kalooki.round.published").count() == 1
    # A new draw (before any deal) is the directors' to review again.
    services.round_seat(round=seated, user=director, seed=12, method="random")
    assert anonymous.get(url("seating", event, number=1)).status_code == 404


def test_publishing_refuses_a_round_not_seated(event, director):
    from django.core.exceptions import ValidationError

    rnd = services.round_create(event=event, user=director)
    with pytest.raises(ValidationError, match="Round 1 is not seated yet"):
        services.round_publish(round=rnd, user=director)


def test_an_archive_keeps_a_rounds_publication_and_one_that_does_not_say_is_published(seated, director):
    from adjudication.archive import event_export, event_import

    archive = event_export(event=seated.event)
    assert archive["rounds"][0]["published_at"] is None
    restored = event_import(data=archive, user=None, slug="private-copy").event
    assert restored.rounds.get(number=1).published_at is None
    del archive["rounds"][0]["published_at"]
    restored = event_import(data=archive, user=None, slug="older-copy").event
    assert restored.rounds.get(number=1).published_at is not None


@pytest.fixture
def shared(own_redis, settings):
    """Pages kept in a Redis of the test's own, served first by the shared page cache, as in venue mode."""
    _, address = own_redis
    settings.CACHES = shared_cache.shared_caches(address)
    if MIDDLEWARE not in settings.MIDDLEWARE:  # REDIS_URL puts it first already
        settings.MIDDLEWARE = [MIDDLEWARE, *settings.MIDDLEWARE]
    shared_cache.reset_health()
    yield
    page_cache.forget_owed_moves()
    shared_cache.reset_health()


def move_clocks_past(monkeypatch, moment) -> None:
    """The clocks the pages read (Django's `timezone.now`, `time.time`) a second past
    `moment`; Redis keeps its own time, so what it stored is still there to be judged."""
    shift = (moment - timezone.now()).total_seconds() + 1
    real_now, real_time = timezone.now, time.time
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=shift))
    monkeypatch.setattr(page_cache.time, "time", lambda: real_time() + shift)


def warm_tasks() -> list[list]:
    """The arguments of the warms queued for the worker, oldest first."""
    rows = DBTaskResult.objects.filter(task_path="scoring.warming.warm_pages").order_by("enqueued_at")
    return [row.args_kwargs["args"] for row in rows]


@pytest.fixture
def warmed(shared, seated, director):
    """The seated round published and every page the hall opens made, as the worker's warm makes them
    (its function, in this process); the event."""
    services.round_publish(round=seated, user=director)
    warming.warm(seated.event.pk)
    return seated.event


@pytest.mark.redis
def test_publishing_warms_every_page_and_a_player_page_then_reads_no_database_row(
    shared,
    seated,
    director,
    client,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
    example_sheet,
    rename_sheet,
    monkeypatch,
):
    event = seated.event
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=seated, user=director)
    assert warm_tasks() == [[event.pk, None]]
    # The worker's part (jobs_worker runs the queued task; here its function, in this process).
    done = warming.warm(event.pk)
    assert done["pages"] == 3 + 2 * 8 + 1 and done["failed"] == 0
    assert warming.last_warm(event.pk)["pages"] == done["pages"]
    renders = page_cache.rush_renders()
    ann = Entry.objects.get(event=event, player__name="Ann")
    seat = Seat.objects.select_related("table").get(round=seated, entry=ann)
    for path in (
        url("player", event, entry_id=ann.pk),
        url("player_seat", event, entry_id=ann.pk),
        url("seating", event, number=1),
    ):
        with django_assert_num_queries(0):
            answer = client.get(path)
        assert answer.status_code == 200, path
    assert f"table {seat.table.number}, seat {seat.position}" in text(
        client.get(url("player_seat", event, entry_id=ann.pk))
    )
    assert page_cache.rush_renders() == renders  # every one was ready

    # A deal at Ann's table: her table's pages are made again (the re-warm queued names its players);
    # another table's players' pages are still good.
    table_players = sorted(Seat.objects.filter(table=seat.table).values_list("entry_id", flat=True))
    other = Seat.objects.exclude(table=seat.table).filter(round=seated).first().entry_id
    names = list(
        Seat.objects.filter(table=seat.table)
        .order_by("position")
        .values_list("entry__player__name", flat=True)
    )
    deal = rename_sheet(example_sheet, names)["deals"][0]
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(game_set=seat.table.game_set, user=director, data=deal)
    assert warm_tasks()[-1] == [event.pk, table_players]
    with django_assert_num_queries(0):
        assert client.get(url("player", event, entry_id=other)).status_code == 200
    with django_assert_num_queries(0):
        assert client.get(url("player_seat", event, entry_id=other)).status_code == 200
    warming.warm(event.pk, table_players)
    with django_assert_num_queries(0):
        page = client.get(url("player", event, entry_id=ann.pk))
    assert page.status_code == 200 and "Deal by deal: total" in text(page)

    # A page kept before a round becomes final is not served after that moment (no save moves a stamp
    # then): its ETag counts the rounds become final, and its words change. The moment is a minute away
    # and the clocks are then moved past it, so a slow machine cannot cross it between the two reads.
    moment = timezone.now() + timedelta(minutes=1)
    Event.objects.filter(pk=event.pk).update(final_times=[moment.isoformat()])
    page_cache.pages_moved(event.pk)
    before = client.get(url("player", event, entry_id=ann.pk))
    renders = page_cache.rush_renders()
    with django_assert_num_queries(0):
        assert client.get(url("player", event, entry_id=ann.pk))["ETag"] == before["ETag"]
    move_clocks_past(monkeypatch, moment)
    after = client.get(url("player", event, entry_id=ann.pk))
    assert page_cache.rush_renders() == renders + 1
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


def ahead_tasks() -> list[list]:
    rows = DBTaskResult.objects.filter(task_path="scoring.warming.warm_pages_ahead").order_by("enqueued_at")
    return [row.args_kwargs["args"] for row in rows]


@pytest.mark.redis
def test_pages_made_ahead_of_publishing_are_served_from_its_commit_and_never_before(
    shared, seated, director, client, django_assert_num_queries, django_capture_on_commit_callbacks
):
    event = seated.event
    ann = Entry.objects.get(event=event, player__name="Ann")
    seat = Seat.objects.select_related("table").get(round=seated, entry=ann)
    where = f"table {seat.table.number}, seat {seat.position}"
    pages = [
        url("player", event, entry_id=ann.pk),
        url("player_seat", event, entry_id=ann.pk),
        url("seating", event, number=1),
    ]
    # A phone asked before the director reviewed the seating: the round is not public.
    before = client.get(pages[1])
    assert "no round is seated yet" in text(before)
    # The worker's part, queued when the round was seated: the pages as they will read once published.
    ahead = warming.warm_ahead(seated.pk)
    assert ahead["pages"] == 2 * 8 + 1 and ahead["failed"] == 0
    assert warming.last_warm_ahead(seated.pk)["pages"] == ahead["pages"]
    # Made, but not shown to anyone before publishing.
    assert "no round is seated yet" in text(client.get(pages[1]))
    assert where not in text(client.get(pages[0]))
    assert client.get(pages[2]).status_code == 404
    # Nor kept where another reader finds it, at the very address the worker asked for.

    reader = Client(HTTP_HOST="localhost")  # the worker's host where the site answers to any (tests)
    assert ">Round 1<" not in text(reader.get(url("event", event)))
    assert "Round 1" not in text(reader.get(url("standings", event)))
    assert where not in text(reader.get(pages[0])) and reader.get(pages[2]).status_code == 404

    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=seated, user=director)
    renders = page_cache.rush_renders()
    for path in pages:
        with django_assert_num_queries(0):
            answer = client.get(path)
        assert answer.status_code == 200, path
    assert where in text(client.get(pages[1]))
    assert f"Round 1, table {seat.table.number}" in text(client.get(pages[0]))
    assert page_cache.rush_renders() == renders  # every one was made ahead
    assert ">Round 1<" in text(reader.get(url("event", event)))
    assert "Round 1" in text(reader.get(url("standings", event)))
    # The words are those of a page made after publishing, ETag aside: a phone holding the page from
    # before publishing is sent the new one, not told it has not changed.
    assert client.get(pages[1], HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200
    made_ahead = client.get(pages[1])
    assert client.get(pages[1], HTTP_IF_NONE_MATCH=made_ahead["ETag"]).status_code == 304
    page_cache.pages_moved(event.pk)
    made_after = client.get(pages[1])
    assert page_cache.rush_renders() == renders + 1
    assert text(made_after) == text(made_ahead)


@pytest.mark.redis
def test_a_warm_asks_only_for_the_pages_not_ready_as_a_phone_would_be_served_them(
    shared, seated, director, client, django_capture_on_commit_callbacks
):
    event = seated.event
    assert warming.warm_ahead(seated.pk)["asked"] == 2 * 8 + 1
    # Asked again with nothing changed: every page is ready as it was made.
    assert warming.warm_ahead(seated.pk)["asked"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=seated, user=director)
    # After publishing, the standings views alone: the player pages and the list were made ahead.
    done = warming.warm(event.pk)
    assert done["pages"] == 3 + 2 * 8 + 1 and done["asked"] == 3 and done["failed"] == 0
    # One player's pages out of date: theirs again; the event's stamp moved: every page again.
    ann = Entry.objects.get(event=event, player__name="Ann")
    page_cache.pages_moved(event.pk, [ann.pk])
    assert warming.warm(event.pk)["asked"] == 3 + 1  # where she sits moves only with `seats`
    page_cache.pages_moved(event.pk, [ann.pk], seats=True)
    assert warming.warm(event.pk)["asked"] == 3 + 2
    page_cache.pages_moved(event.pk)
    assert warming.warm(event.pk)["asked"] == 3 + 2 * 8 + 1
    renders = page_cache.rush_renders()
    # A phone accepts gzip and is sent the page compressed as it was kept; anyone else, as made.
    zipped = client.get(url("player", event, entry_id=ann.pk), HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    plain = client.get(url("player", event, entry_id=ann.pk))
    assert zipped["Content-Encoding"] == "gzip" and gzip.decompress(zipped.content) == plain.content
    assert page_cache.rush_renders() == renders


@pytest.mark.redis
def test_a_kept_rush_page_is_sent_before_django_and_anything_else_goes_on_to_it(
    warmed, django_assert_num_queries
):
    event = warmed
    django_saw = []

    def django(environ, start_response):  # what the front passes on, noted (Django's own answers below)
        django_saw.append(environ["PATH_INFO"])
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"Django's answer"]

    application = page_cache.serve_kept_pages_first(django)

    def ask(path, method="get", **headers):
        answer = {}

        def start_response(status, sent):
            answer.update(status=status, headers=dict(sent))

        environ = getattr(RequestFactory(), method)(path, **headers).environ
        return answer, b"".join(application(environ, start_response))

    ann = Entry.objects.get(event=event, player__name="Ann")
    player = url("player", event, entry_id=ann.pk)
    made = Client().get(player)  # as Django sends it
    with django_assert_num_queries(0):
        answer, body = ask(player, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    sent = answer["headers"]
    assert answer["status"] == "200 OK" and sent["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == made.content and sent["Content-Length"] == str(len(body))
    assert sent["ETag"] == f"W/{made['ETag']}"
    for name in ("Content-Type", "Cache-Control", "Vary", "Content-Security-Policy", "X-Frame-Options"):
        assert sent[name] == made[name], name
    assert ask(player)[1] == made.content
    head, nothing = ask(player, method="head")
    assert head["headers"]["Content-Length"] == str(len(made.content)) and nothing == b""
    for etag in (made["ETag"], sent["ETag"], "*"):
        not_modified, nothing = ask(player, HTTP_IF_NONE_MATCH=etag)
        assert not_modified["status"] == "304 Not Modified" and nothing == b""
        assert (
            not_modified["headers"]["ETag"] == made["ETag"]
            and "Content-Length" not in not_modified["headers"]
        )
    assert ask(player, HTTP_IF_NONE_MATCH='"another"')[0]["status"] == "200 OK"
    assert django_saw == []
    # Django's turn: a query string, a reader with a session, If-Modified-Since alone, a page kept by
    # the results generation (not a rush page), a player whose page is out of date.
    ask(f"{player}?print=1")
    ask(player, HTTP_COOKIE="sessionid=abc")
    ask(player, HTTP_IF_MODIFIED_SINCE="Sun, 06 Dec 2026 10:00:00 GMT")
    ask(url("standings", event))
    page_cache.pages_moved(event.pk, [ann.pk])
    assert ask(player)[1] == b"Django's answer"
    assert django_saw == [player] * 3 + [url("standings", event), player]


@pytest.mark.redis
def test_a_table_that_starts_before_publishing_has_its_players_pages_made_ahead_again(
    shared, seated, director, client, first_deal_at, django_capture_on_commit_callbacks
):
    event = seated.event
    warming.warm_ahead(seated.pk)
    table = seated.tables.get(number=1)
    first_deal_at(table)
    # Queued again, and not ready until made: the table's players' pages alone are asked for (where
    # they sit has not changed).
    assert ahead_tasks()[-1][0] == seated.pk and warming.last_warm_ahead(seated.pk) is None
    assert warming.warm_ahead(seated.pk)["asked"] == 4
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=seated, user=director)
    renders = page_cache.rush_renders()
    for seat in table.seats.all():
        assert "Deal by deal: total" in text(client.get(url("player", event, entry_id=seat.entry_id)))
    assert page_cache.rush_renders() == renders


@pytest.mark.redis
def test_a_deal_leaves_where_a_player_sits_kept_and_a_substitute_does_not(
    warmed,
    seated,
    director,
    client,
    first_deal_at,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    event = warmed
    table = seated.tables.get(number=1)
    seat = table.seats.order_by("position").first()
    where = url("player_seat", event, entry_id=seat.entry_id)
    first_deal_at(table)
    # Their page changed; where they sit did not, and is still served as kept.
    with django_assert_num_queries(0):
        assert "table 1, seat 1" in text(client.get(where))
    assert client.get(url("player", event, entry_id=seat.entry_id)).status_code == 200
    # A substitute at their seat shows there: it is made again.
    reserve = services.entry_add(event=event, user=director, name="Reserve Player")
    warming.warm(event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_substitute(seat=seat, user=director, substitute=reserve, from_deal=2)
    renders = page_cache.rush_renders()
    assert "Reserve Player plays this seat" in text(client.get(where))
    assert page_cache.rush_renders() == renders + 1


@pytest.mark.redis
def test_a_seating_changed_after_the_pages_were_made_ahead_is_shown_as_changed(
    shared, seated, director, client, django_capture_on_commit_callbacks
):
    event = seated.event
    warming.warm_ahead(seated.pk)
    # A new draw while the director reviews it: the pages made ahead are made again (queued) …
    with django_capture_on_commit_callbacks(execute=True):
        services.round_seat(round=seated, user=director, seed=12, method="random")
    assert ahead_tasks()[-1][0] == seated.pk
    assert warming.last_warm_ahead(seated.pk) is None  # not ready until they are made again
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=seated, user=director)
    # … and the new draw is what every page says after publishing, made from the database.
    renders = page_cache.rush_renders()
    for entry in Entry.objects.filter(event=event):
        seat = Seat.objects.select_related("table").get(round=seated, entry=entry)
        answer = text(client.get(url("player_seat", event, entry_id=entry.pk)))
        assert f"table {seat.table.number}, seat {seat.position}" in answer
    assert page_cache.rush_renders() == renders + 8


@pytest.mark.redis
def test_pages_made_ahead_are_not_served_when_another_change_came_with_the_publishing(
    shared, seated, director, client, django_capture_on_commit_callbacks
):
    event = seated.event
    ann = Entry.objects.get(event=event, player__name="Ann")
    warming.warm_ahead(seated.pk)
    # Another change of the event's pages moves the stamp (as one committing beside the publishing).
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=seated, user=director)
        page_cache.pages_moved(event.pk)
    renders = page_cache.rush_renders()
    assert client.get(url("player_seat", event, entry_id=ann.pk)).status_code == 200
    assert page_cache.rush_renders() == renders + 1


@pytest.mark.redis
def test_the_console_says_whether_the_pages_are_made_ahead_of_publishing(shared, seated, as_director):
    console = url("direct_console", seated.event, number=1)
    assert "The worker is making the hall's pages" in text(as_director.get(console))
    warming.warm_ahead(seated.pk)
    assert "The hall's pages are ready: 17 pages made in" in text(as_director.get(console))


@pytest.fixture
def first_deal_at(director, example_sheet, rename_sheet, django_capture_on_commit_callbacks):
    """first_deal_at(table): the example sheet's first deal recorded at the table, committed."""

    def record(table) -> None:
        names = list(table.seats.order_by("position").values_list("entry__player__name", flat=True))
        deal = rename_sheet(example_sheet, names)["deals"][0]
        with django_capture_on_commit_callbacks(execute=True):
            services.deal_record(game_set=table.game_set, user=director, data=deal)

    return record


@pytest.mark.redis
def test_the_saves_of_two_seconds_are_warmed_by_one_warm_queued_after_the_first(
    warmed, seated, client, first_deal_at, django_assert_num_queries, django_capture_on_commit_callbacks
):
    event = warmed
    warms = DBTaskResult.objects.filter(task_path="scoring.warming.warm_pages")
    started = timezone.now()
    # A deal at each table, one save after the other: one warm queued, due two seconds after the first.
    for table in seated.tables.order_by("number"):
        first_deal_at(table)
    (queued,) = warms.all()
    assert queued.run_after >= started + timedelta(seconds=warming.WARM_AFTER_SAVE_SECONDS)
    assert not warms.ready().exists()
    # It makes both tables' players' pages.
    warming.warm_pages.call(*queued.args_kwargs["args"])
    renders = page_cache.rush_renders()
    for entry in Entry.objects.filter(event=event):
        with django_assert_num_queries(0):
            assert client.get(url("player", event, entry_id=entry.pk)).status_code == 200
    assert page_cache.rush_renders() == renders
    # A save after that warm started has the next one queued.
    with django_capture_on_commit_callbacks(execute=True):
        warming.queue_warm(event.pk, [entry.pk])
    assert warms.count() == 2


@pytest.mark.redis
def test_a_directors_job_is_taken_before_the_pages_waiting_to_be_made(
    shared, seated, director, django_capture_on_commit_callbacks
):
    from scoring import background
    from scoring.models import BackgroundJob

    event = seated.event
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=seated, user=director)  # every page queued to be made
    assert warm_tasks()
    with django_capture_on_commit_callbacks(execute=True):
        job = background.start(
            event=event,
            user=director,
            kind=BackgroundJob.Kind.ROUND_PACK,
            params={"round": 1, "completed": False},
        )
    # The worker takes the ready task of highest priority first: the pack asked for after the warms.
    taken = DBTaskResult.objects.ready().first()
    assert taken.task_path == "scoring.background.run_job" and taken.args_kwargs["args"][0] == job.pk
    assert DBTaskResult.objects.ready().filter(task_path__startswith="scoring.warming.").count() >= 1
