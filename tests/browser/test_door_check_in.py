"""The door in a real Chromium (issue 26, "Done when"): a player checked in from their rendered slip —
the slip's PDF drawn as a PNG (pdftoppm) and given to the door page's photo input, read by the page's
own vendored QR reader, whose address opens the confirm page; a second player by the slip's address
itself (what a phone's camera app opens); a third through the live camera path, Chromium's fake camera
playing a .y4m of the slip written by the test, on the live server's localhost (a secure page)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, log_in, screenshot

pytestmark = pytest.mark.browser


def slip_png(client, url: str, out: Path) -> Path:
    """The slip's PDF as the door helper would photograph it: page 1 at 110 dpi, cropped to the slip."""
    from PIL import Image

    pdf = out.with_suffix(".pdf")
    pdf.write_bytes(client.get(url).content)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", str(pdf), str(out.with_suffix(""))],
        check=True,
    )
    page = next(out.parent.glob(f"{out.stem}*.png"))
    # The slip sits at the page's top left (12 mm margins, 88 × 44 mm): a photo frames the slip.
    dots = 110 / 25.4
    Image.open(page).crop((0, 0, int(110 * dots), int(62 * dots))).save(out)
    return out


def y4m_of(picture: Path, out: Path, frames: int = 10) -> Path:
    """A still picture as a YUV4MPEG2 video (4:2:0, what Chromium's fake camera reads), 640 × 480."""
    from PIL import Image

    image = Image.new("RGB", (640, 480), "white")
    slip = Image.open(picture).convert("RGB")
    slip.thumbnail((600, 440))
    image.paste(slip, ((640 - slip.width) // 2, (480 - slip.height) // 2))
    y, cb, cr = image.convert("YCbCr").split()
    half = (320, 240)
    frame = y.tobytes() + cb.resize(half).tobytes() + cr.resize(half).tobytes()
    with out.open("wb") as video:
        video.write(b"YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg\n")
        for _ in range(frames):
            video.write(b"FRAME\n" + frame)
    return out


def test_a_player_checked_in_from_the_slips_photo_its_address_and_the_camera(
    live_server, browser, page, make_event, make_entries, director, client, tmp_path
):
    from playwright.sync_api import expect

    from scoring.door_codes import door_code_for
    from scoring.models import Entry
    from scoring.services import door

    event = make_event(name="Door Night", slug="door-night")
    entries = make_entries(event, ["Ann", "Bob", "Cy", "Dee"], clubs=["Liguanea", "", "", ""])
    door.event_check_in_set(event=event, user=director, on=True)
    base = live_server.url
    client.force_login(director)

    def slip_url(name):
        return f"/e/{event.slug}/door/slip/{entries[name].pk}/"

    def is_in(name):
        return Entry.objects.get(pk=entries[name].pk).checked_in_at is not None

    # The photo path: the rendered slip's PNG given to the file input; the page reads its QR code.
    ann_png = slip_png(client, slip_url("Ann"), tmp_path / "ann-slip.png")
    log_in(page, base, f"/e/{event.slug}/door/")
    expect(page.locator("h1")).to_have_text("The door: check-in")
    screenshot(page, "door-page")
    with page.expect_navigation():
        page.set_input_files("#door-photo", str(ann_png))
    assert f"/door/in/{entries['Ann'].pk}/{door_code_for(entries['Ann'].pk)}/" in page.url
    expect(page.locator("h1")).to_have_text("Check in: Ann")
    assert not is_in("Ann"), "opening the address must write nothing"
    screenshot(page, "door-confirm")
    page.click("#confirm-check-in")
    expect(page.locator(".messages")).to_contain_text("Ann (no. 1) is checked in.")
    assert is_in("Ann")

    # The check-in address itself, as a phone's camera app opens it from the QR code.
    bob = entries["Bob"].pk
    page.goto(f"{base}/e/{event.slug}/door/in/{bob}/{door_code_for(bob)}/")
    assert not is_in("Bob")
    page.click("#confirm-check-in")
    expect(page.locator(".messages")).to_contain_text("Bob (no. 2) is checked in.")

    # Typing part of a name finds the player; the button checks them in.
    page.fill("#door-q", "de")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.get_by_role("button", name="Check in Dee").click()
    expect(page.locator(".messages")).to_contain_text("Dee (no. 4) is checked in.")
    page.goto(f"{base}/e/{event.slug}/door/list/")
    expect(page.locator(".door-list--missing")).to_contain_text("Cy")
    screenshot(page, "door-list")

    # The live camera: Chromium's fake camera plays the slip; localhost is a secure page.
    video = y4m_of(slip_png(client, slip_url("Cy"), tmp_path / "cy-slip.png"), tmp_path / "cy.y4m")
    from playwright.sync_api import sync_playwright  # noqa: F401 - the browser fixture started it

    camera = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[
            *CHROMIUM_ARGS,
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    try:
        context = camera.new_context(permissions=["camera"])
        context.set_default_timeout(WAIT_MS)
        phone = context.new_page()
        local = base.replace("127.0.0.1", "localhost")
        log_in(phone, local, f"/e/{event.slug}/door/")
        expect(phone.locator("#door-camera")).to_be_visible()
        with phone.expect_navigation():
            phone.click("#door-camera")
        expect(phone.locator("h1")).to_have_text("Check in: Cy")
        assert "how=camera" in phone.url
        phone.click("#confirm-check-in")
        expect(phone.locator(".messages")).to_contain_text("Cy (no. 3) is checked in.")
    finally:
        camera.close()
    assert is_in("Cy")
