"""Background jobs in a real Chromium (issue 12): the dashboard's "Prepare" button starts a round pack,
the page's own script (static/js/jobs.js, under the site's content security policy) moves the progress
bar while the worker runs and shows the download when it is ready; the import page draws its report
itself when the worker has imported the file."""

from __future__ import annotations

import pytest

from scoring import background

from .conftest import log_in, screenshot, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def everything_in_background(monkeypatch):
    monkeypatch.setattr(background, "THRESHOLDS", dict.fromkeys(background.THRESHOLDS, 1))


def run_worker() -> None:
    background.run_queued_jobs()


def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def test_a_round_pack_made_in_the_background_shows_its_progress_and_then_its_download(
    live_server, page, round1, make_table, game_set, everything_in_background
):
    from playwright.sync_api import expect

    make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    errors = console_errors(page)
    dashboard = f"/e/{round1.event.slug}/direct/"
    log_in(page, live_server.url, dashboard)
    page.get_by_role("button", name="Prepare blank sheets for round 1 (PDF)").click()
    job = page.locator("[data-job-status]").first
    expect(job.locator("[data-job-text]")).to_contain_text("Waiting for the worker")
    expect(job.locator("[data-job-download]")).to_be_hidden()
    screenshot(page, "background-job-waiting")
    run_worker()
    # The page's script sees the job finish: the bar is full and the download is offered.
    expect(job.locator("[data-job-download] a")).to_be_visible()
    expect(job.locator("[data-job-text]")).to_contain_text("Done · 100%")
    assert job.locator("progress").evaluate("bar => bar.value") == 100
    screenshot(page, "background-job-done")
    with page.expect_download() as download:
        job.locator("[data-job-download] a").click()
    assert download.value.suggested_filename == "test-open-r1-blank-sheets.pdf"
    assert serious_violations(page) == []
    assert errors == []


def test_a_big_import_draws_its_report_when_the_worker_is_done(
    live_server, page, event, everything_in_background
):
    from playwright.sync_api import expect

    errors = console_errors(page)
    path = f"/e/{event.slug}/direct/players/import/"
    log_in(page, live_server.url, path)
    page.fill("#id_text", "name,club\nAnn,Kingston\nBob,\nCy,Ocho Rios\n")
    page.get_by_role("button", name="Import").click()
    expect(page.locator("[data-job-text]")).to_contain_text("Waiting for the worker")
    run_worker()
    expect(page.get_by_text("3 players entered.")).to_be_visible()
    expect(page.locator("[data-job-text]")).to_contain_text("Done")
    screenshot(page, "background-import-done")
    assert errors == []
