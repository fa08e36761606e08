"""Long work in the background (issue 12): a round pack, a standings PDF and a player import above the
sizes of `scoring.background.THRESHOLDS` are queued in the database (django-tasks' database backend) and
done by the worker — `manage.py db_worker`, run here for real — while the page polls the job's status;
the file goes to the event's directors alone; a failure is a message on the page; small ones answer at
once. The thresholds are lowered here so a small event shows the path a big one takes."""

from __future__ import annotations

import io
import signal
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader

from scoring import background
from scoring.models import BackgroundJob, Entry
from scoring.printing import scoresheets
from scoring.services import jobs

pytestmark = pytest.mark.django_db(transaction=True)


def run_worker() -> None:
    """The real worker: every queued task, then it stops."""
    background.run_queued_jobs()


@pytest.fixture
def everything_in_background(monkeypatch):
    monkeypatch.setattr(background, "THRESHOLDS", dict.fromkeys(background.THRESHOLDS, 1))


@pytest.fixture
def two_tables(round1, make_table, game_set):
    make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    return round1


def status(client, event, job_id) -> dict:
    response = client.get(reverse("scoring:direct_job_status", kwargs={"slug": event.slug, "job_id": job_id}))
    assert response.status_code == 200
    return response.json()


def start_pack(client, event, number=1, **data):
    url = reverse("scoring:direct_job_round_pack", kwargs={"slug": event.slug, "number": number})
    response = client.post(url, data)
    assert response.status_code == 302
    return BackgroundJob.objects.get()


def test_a_big_round_pack_is_made_by_the_worker_and_downloaded_by_its_directors(
    client, as_director, event, two_tables, everything_in_background, other_director, decode_qr
):
    dashboard = as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})).content.decode()
    assert "Prepare blank sheets" in dashboard
    job = start_pack(as_director, event)
    task = DBTaskResult.objects.get()
    assert job.task_id == str(task.id) and task.status == "READY"
    before = status(as_director, event, job.pk)
    assert (before["status"], before["finished"], before["download_url"]) == ("queued", False, "")
    download = reverse("scoring:direct_job_download", kwargs={"slug": event.slug, "job_id": job.pk})
    assert as_director.get(download).status_code == 409

    handler = signal.getsignal(signal.SIGTERM)
    run_worker()
    assert signal.getsignal(signal.SIGTERM) is handler  # the worker's own handlers are taken back

    after = status(as_director, event, job.pk)
    assert (after["status"], after["percent"], after["finished"]) == ("done", 100, True)
    assert after["download_url"] == download
    DBTaskResult.objects.get(status="SUCCESSFUL")
    response = as_director.get(download)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert (
        "attachment" in response["Content-Disposition"]
        and "test-open-r1-blank-sheets.pdf" in (response["Content-Disposition"])
    )
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 2
    assert "Eve" in pages[1].extract_text() and "Ann" in pages[0].extract_text()
    # Each sheet carries its table's QR code, addressed as the page that asked for the pack was.
    addresses = decode_qr(response.content)
    assert len(set(addresses)) == 2 and all(address.startswith("http://testserver/") for address in addresses)
    # The dashboard offers it too; another event's director and anonymous visitors get nothing.
    assert (
        download in as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})).content.decode()
    )
    client.logout()
    assert client.get(download).status_code == 302
    client.force_login(other_director)
    assert client.get(download).status_code == 403
    assert (
        client.get(
            reverse("scoring:direct_job_status", kwargs={"slug": event.slug, "job_id": job.pk})
        ).status_code
        == 403
    )


def test_a_job_of_another_event_is_not_found_under_this_one(
    as_director, event, make_event, two_tables, everything_in_background
):
    job = start_pack(as_director, event)
    run_worker()
    other = make_event(name="Other Open", slug="other-open")
    url = reverse("scoring:direct_job_download", kwargs={"slug": other.slug, "job_id": job.pk})
    assert as_director.get(url).status_code == 404


def test_the_status_shows_the_progress_while_the_worker_lays_out_the_pack(
    as_director, event, two_tables, everything_in_background, monkeypatch
):
    seen: list[tuple[str, int, int, int]] = []
    real = jobs.job_progress
    job_ids: list[int] = []

    def watched(**kwargs):
        real(**kwargs)
        # What the page's progress bar reads at this moment, from another request.
        answer = status(as_director, event, job_ids[0])
        seen.append((answer["status"], answer["done"], answer["total"], answer["percent"]))

    monkeypatch.setattr(jobs, "job_progress", watched)
    job = start_pack(as_director, event, completed="1")
    job_ids.append(job.pk)
    # One table a part: the two tables are laid out one after the other.
    real_parts = scoresheets.render_round_sheets_in_parts
    monkeypatch.setattr(
        scoresheets, "render_round_sheets_in_parts", lambda **kwargs: real_parts(**kwargs, part=1)
    )
    run_worker()
    running = [item for item in seen if item[0] == "running"]
    assert (("running", 1, 3, 33) in running) and (("running", 2, 3, 66) in running), seen
    assert [percent for *_rest, percent in running] == sorted(percent for *_rest, percent in running)
    assert status(as_director, event, job.pk)["percent"] == 100
    # Laid out a table at a time, the pack still numbers its pages as one.
    download = as_director.get(status(as_director, event, job.pk)["download_url"]).content
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(download)).pages]
    assert ["page 1 of 2" in texts[0], "page 2 of 2" in texts[1]] == [True, True]
    page = as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})).content.decode()
    assert "Round 1 score sheets (completed)" in page and "<progress" in page and "js/jobs.js" in page


def test_a_failed_job_shows_its_message_and_the_task_records_the_failure(
    as_director, event, two_tables, everything_in_background, monkeypatch
):
    def broken(**kwargs):
        raise RuntimeError("the printer caught fire")

    monkeypatch.setattr(scoresheets, "render_round_sheets_in_parts", broken)
    job = start_pack(as_director, event)
    run_worker()
    answer = status(as_director, event, job.pk)
    assert answer["status"] == "failed" and answer["failed"] and answer["download_url"] == ""
    assert answer["message"].startswith("The job stopped with an error (RuntimeError)")
    assert "caught fire" not in answer["message"]  # the details go to the worker's log, not the page
    assert DBTaskResult.objects.get().status == "FAILED"
    page = as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})).content.decode()
    assert 'role="alert">The job stopped with an error (RuntimeError)' in page


def test_the_standings_pdf_of_a_big_event_is_made_by_the_worker(
    as_director, event, two_tables, everything_in_background
):
    page = as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})).content.decode()
    assert "Prepare the standings (PDF)" in page
    response = as_director.post(reverse("scoring:direct_job_standings", kwargs={"slug": event.slug}))
    assert response.status_code == 302
    job = BackgroundJob.objects.get(kind="standings_pdf")
    run_worker()
    answer = status(as_director, event, job.pk)
    assert answer["status"] == "done"
    pdf = as_director.get(answer["download_url"])
    assert "test-open-standings-no-round-complete.pdf" in pdf["Content-Disposition"]
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert "Test Open" in text and "Standings" in text


def test_a_big_import_runs_on_the_worker_and_its_page_shows_the_report(
    as_director, event, everything_in_background
):
    url = reverse("scoring:direct_players_import", kwargs={"slug": event.slug})
    response = as_director.post(url, {"text": "name,club\nAnn,Kingston\nBob,\nCy,Ocho Rios\n"})
    job = BackgroundJob.objects.get(kind="players_import")
    assert response.status_code == 302 and response["Location"] == f"{url}?job={job.pk}"
    assert not Entry.objects.filter(event=event).exists()
    waiting = as_director.get(response["Location"]).content.decode()
    assert "data-job-reload" in waiting and "Waiting for the worker" in waiting
    run_worker()
    assert sorted(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == [
        "Ann",
        "Bob",
        "Cy",
    ]
    done = as_director.get(response["Location"]).content.decode()
    assert "3 players entered." in done
    assert BackgroundJob.objects.get().source == ""  # the file is not kept once imported


def test_a_big_import_with_a_bad_row_reports_it_and_enters_no_one(
    as_director, event, everything_in_background
):
    url = reverse("scoring:direct_players_import", kwargs={"slug": event.slug})
    response = as_director.post(url, {"text": "Ann\nBob\nAnn\n"})
    run_worker()
    page = as_director.get(response["Location"]).content.decode()
    assert "Nothing was imported: 1 row rejected." in page and "appears twice in the file" in page
    assert not Entry.objects.filter(event=event).exists()


def test_small_work_answers_at_once(as_director, event, two_tables):
    dashboard = as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})).content.decode()
    assert "Print blank sheets" in dashboard and "Prepare blank sheets" not in dashboard
    assert "Print the standings (PDF)" in dashboard
    url = reverse("scoring:direct_players_import", kwargs={"slug": event.slug})
    response = as_director.post(url, {"text": "Zed\nYan\n"})
    assert response.status_code == 200 and "2 players entered" in response.content.decode()
    assert not BackgroundJob.objects.exists() and not DBTaskResult.objects.exists()


def test_the_threshold_is_one_number_a_kind():
    assert background.in_background("round_pack", background.THRESHOLDS["round_pack"] + 1)
    assert not background.in_background("round_pack", background.THRESHOLDS["round_pack"])
    assert background.csv_row_count("name\nAnn\n\n  \nBob\n") == 3


def test_finished_jobs_and_their_tasks_are_deleted_after_a_while(
    as_director, event, two_tables, everything_in_background, settings
):
    settings.BACKGROUND_JOBS_KEEP_HOURS = 24
    job = start_pack(as_director, event)
    run_worker()
    assert jobs.jobs_prune() == 0
    later = timezone.now() + timedelta(hours=25)
    assert jobs.jobs_prune(now=later) == 1
    assert not BackgroundJob.objects.filter(pk=job.pk).exists() and not DBTaskResult.objects.exists()


def test_the_prune_command_says_how_many_jobs_went(event, capsys):
    BackgroundJob.objects.create(
        event=event, kind="round_pack", created_at=timezone.now() - timedelta(days=2)
    )
    call_command("prune_jobs")
    assert capsys.readouterr().out.strip() == "1 background job deleted."
    assert not BackgroundJob.objects.exists()


def test_the_round_page_offers_its_directors_the_background_pack_of_a_big_round(
    as_director, event, two_tables, everything_in_background
):
    page = as_director.get(
        reverse("scoring:round", kwargs={"slug": event.slug, "number": 1})
    ).content.decode()
    start = reverse("scoring:direct_job_round_pack", kwargs={"slug": event.slug, "number": 1})
    assert f'action="{start}"' in page and "Print blank sheets" not in page
